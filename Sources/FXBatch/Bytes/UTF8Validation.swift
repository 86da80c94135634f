/// Well-formed UTF-8 (The Unicode Standard, table 3-7, "Well-Formed UTF-8 Byte Sequences"): the one rule the JSON
/// and JSON Lines readers, their byte-level fast paths and the JSON document walker apply to the bytes of a
/// string, so that a file with a stray Latin-1 byte, a cut character, an overlong form or an encoded surrogate is
/// refused alike on every path instead of being copied into output that is no longer JSON.
enum UTF8Validation {
  /// What starts at a byte of 0x80 or above.
  enum Character: Equatable {
    /// A well-formed character of `length` bytes (2 to 4).
    case valid(length: Int)
    /// Not well-formed; the first `length` bytes show it (the lead byte, the continuation bytes that fit, and
    /// the first byte that does not).
    case invalid(length: Int)
    /// The bytes end before the character does: a later read may complete it.
    case truncated
  }

  /// Reads the character whose first byte is `lead` (0x80 or above).
  ///
  /// - Parameters:
  ///   - lead: the first byte.
  ///   - following: the byte `offset` bytes after the lead (1, then 2, then 3, in that order), or `nil` past
  ///     the end of the bytes at hand.
  @inline(__always)
  static func character(lead: UInt8, following: (_ offset: Int) -> UInt8?) -> Character {
    let count: Int
    // The range of the first continuation byte: narrower after E0, ED, F0 and F4, which would otherwise start
    // overlong forms, surrogates (U+D800 ... U+DFFF) or code points above U+10FFFF.
    var range: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: count = 1
    case 0xE0: (count, range) = (2, 0xA0...0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: count = 2
    case 0xED: (count, range) = (2, 0x80...0x9F)
    case 0xF0: (count, range) = (3, 0x90...0xBF)
    case 0xF1...0xF3: count = 3
    case 0xF4: (count, range) = (3, 0x80...0x8F)
    default: return .invalid(length: 1)
    }
    for offset in 1...count {
      guard let byte = following(offset) else { return .truncated }
      guard range.contains(byte) else { return .invalid(length: offset + 1) }
      range = 0x80...0xBF
    }
    return .valid(length: count + 1)
  }

  /// The message for bytes that are not UTF-8: `invalid UTF-8 in a string (byte 0xff)`, or with the bytes that
  /// show it, `(bytes 0xc3 0x28)`.
  static func message(_ bytes: some Collection<UInt8>) -> String {
    let shown = bytes.map { "0x" + (($0 < 0x10) ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
    return "invalid UTF-8 in a string (\(bytes.count == 1 ? "byte" : "bytes") \(shown))"
  }
}
