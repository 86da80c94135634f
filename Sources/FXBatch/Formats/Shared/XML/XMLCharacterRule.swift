/// XML 1.0's `Char` production (§2.2) over UTF-8 bytes: the one rule by which both byte scanners
/// (``XMLSimpleScanner``, ``XLSXSheetScanner``) read a character of text or of an attribute value.
///
/// A character is well-formed UTF-8 (``UTF8Validation``: shortest form, no surrogates, nothing past U+10FFFF)
/// and an XML `Char`: tab, line feed, carriage return, or U+0020 and above but U+007F (which XML allows but the
/// scanners decline, conservatively), U+FFFE and U+FFFF.
enum XMLCharacterRule {
  /// What starts at an index.
  enum Reading: Equatable {
    /// A character, ending before this index.
    case character(end: Int)
    /// The bytes read so far end inside it.
    case needsMore
    /// No XML character: why (not shown to users: the scanner declines, and libxml2 reports the fault).
    case refused(String)
  }

  /// Whether a byte is XML white space (§2.3 `S`: space, tab, line feed, carriage return).
  @inline(__always)
  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

  /// Reads the character at `index` of `bytes`, whose first `loaded` bytes are read.
  ///
  /// - Parameter asciiOnly: whether the document is US-ASCII (a byte above 0x7F is refused).
  @inline(__always)
  static func read(_ bytes: ByteView, at index: Int, loaded: Int, asciiOnly: Bool = false) -> Reading {
    guard index < loaded else { return .needsMore }
    let first = bytes[index]
    if first < 0x80 {
      guard first >= 0x20 && first != 0x7F || first == 0x09 || first == 0x0A || first == 0x0D else {
        return .refused("a control character")
      }
      return .character(end: index + 1)
    }
    guard !asciiOnly else { return .refused("a non-ASCII byte in US-ASCII") }
    var cut = false
    let found = UTF8Validation.character(lead: first) { offset in
      guard index + offset < loaded else {
        cut = true
        return nil
      }
      return bytes[index + offset]
    }
    switch found {
    case .valid(let length):
      if length == 3, first == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
        return .refused("U+FFFE or U+FFFF")
      }
      return .character(end: index + length)
    case .truncated where cut: return .needsMore
    case .invalid, .truncated: return .refused("malformed UTF-8")
    }
  }
}
