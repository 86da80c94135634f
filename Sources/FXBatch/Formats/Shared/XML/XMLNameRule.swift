/// The names of the byte scanners' subset of XML (``XLSXSheetScanner``, ``ODSContentScanner``): the one rule by
/// which both read an element's or an attribute's qualified name, as ``XMLCharacterRule`` is the one rule of a
/// character.
///
/// A name is ASCII letters, digits, `_`, `-` and `.`, starting with a letter or `_`, with at most one colon,
/// neither first nor last (the part after it starting as a name does), shorter than 1000 bytes. Anything else
/// (a name of other characters, a second colon) is refused: the scanner declines, and libxml2 reads the part.
enum XMLNameRule {
  /// What starts at an index.
  enum Reading: Equatable {
    /// A name, ending before `end`; `prefix` is its prefix's length (0: none).
    case name(end: Int, prefix: Int)
    /// The bytes read so far end inside it.
    case needsMore
    /// No name of the subset: why (not shown to users).
    case refused(String)
  }

  /// Whether a byte may start a name (or the part after its colon).
  @inline(__always)
  static func isNameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
  }

  /// Reads the qualified name at `index` of `bytes`, whose first `loaded` bytes are read.
  @inline(__always)
  static func qualifiedName(_ bytes: ByteView, at index: Int, loaded: Int) -> Reading {
    guard index < loaded else { return .needsMore }
    guard isNameStart(bytes[index]) else { return .refused("a malformed name") }
    var at = index + 1
    var prefix = 0
    while true {
      guard at < loaded else { return .needsMore }
      let byte = bytes[at]
      if isNameStart(byte) || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
        at += 1
      } else if byte == UInt8(ascii: ":"), prefix == 0 {
        prefix = at - index
        at += 1
        guard at < loaded else { return .needsMore }
        guard isNameStart(bytes[at]) else { return .refused("a malformed name") }
      } else if byte >= 0x80 || byte == UInt8(ascii: ":") {
        return .refused("a name outside the subset")
      } else {
        guard at - index < 1000 else { return .refused("a long name") }
        return .name(end: at, prefix: prefix)
      }
    }
  }
}
