/// The character encoding of an XML document, decided as XML 1.0 (appendix F) and libxml2 decide it: a byte
/// order mark, else the first bytes (`<?` in UTF-16), else the XML declaration's `encoding`, else UTF-8.
///
/// fxbatch copies a document's bytes and finds its tags in them, so it accepts the encodings in which it can
/// tell markup from text unit by unit: UTF-8 (and US-ASCII), UTF-16 in either byte order, and the
/// ASCII-compatible single-byte encodings ISO-8859-1 … 16 and windows-1250 … 1258. Others (Shift_JIS, whose
/// second bytes may look like ASCII; UTF-32; EBCDIC) are refused with a file error rather than copied wrongly.
public struct XMLDocumentEncoding: Sendable, Equatable {
  /// How characters are laid out in bytes: what copying the document's bytes needs to know.
  public enum Form: Sendable, Equatable {
    /// Every byte below 0x80 is the ASCII character, never part of another character: UTF-8, US-ASCII,
    /// ISO-8859-x, windows-125x.
    case asciiCompatible
    /// UTF-16, least significant byte first.
    case utf16LittleEndian
    /// UTF-16, most significant byte first.
    case utf16BigEndian

    /// Bytes per code unit: 1, or 2 for UTF-16.
    public var codeUnitWidth: Int { self == .asciiCompatible ? 1 : 2 }
  }

  public let form: Form
  /// The encoding's name as libxml2's encoders (iconv) know it: `UTF-8`, `ISO-8859-15`, `UTF-16LE`, …; the
  /// annotations fxbatch inserts are written in it.
  public let name: String
  /// The length in bytes of the byte order mark the document starts with (0 without one).
  public let byteOrderMarkLength: Int

  public init(form: Form, name: String, byteOrderMarkLength: Int = 0) {
    self.form = form
    self.name = name
    self.byteOrderMarkLength = byteOrderMarkLength
  }

  public static let utf8 = XMLDocumentEncoding(form: .asciiCompatible, name: "UTF-8")

  /// The encoding of a document from its first bytes.
  ///
  /// - Parameter prefix: the document's first bytes; the XML declaration must be among them (a few hundred
  ///   bytes are enough).
  /// - Throws: ``XMLInputError`` for an encoding fxbatch cannot copy (UTF-32, EBCDIC, a multi-byte encoding
  ///   other than UTF-8 and UTF-16), with a hint to convert the file.
  public static func detect(_ prefix: some Collection<UInt8>) throws(XMLInputError) -> XMLDocumentEncoding {
    let head = Array(prefix.prefix(4)) + [UInt8](repeating: 0xFF, count: max(0, 4 - prefix.count))
    switch (head[0], head[1], head[2], head[3]) {
    case (0x00, 0x00, 0xFE, 0xFF), (0xFF, 0xFE, 0x00, 0x00), (0x00, 0x00, 0x00, 0x3C), (0x3C, 0x00, 0x00, 0x00):
      throw refused("UTF-32 (UCS-4)", declared: false)
    case (0xFF, 0xFE, _, _):
      return try utf16(XMLDocumentEncoding(form: .utf16LittleEndian, name: "UTF-16LE", byteOrderMarkLength: 2), prefix)
    case (0xFE, 0xFF, _, _):
      return try utf16(XMLDocumentEncoding(form: .utf16BigEndian, name: "UTF-16BE", byteOrderMarkLength: 2), prefix)
    case (0x3C, 0x00, 0x3F, 0x00): return try utf16(XMLDocumentEncoding(form: .utf16LittleEndian, name: "UTF-16LE"), prefix)
    case (0x00, 0x3C, 0x00, 0x3F): return try utf16(XMLDocumentEncoding(form: .utf16BigEndian, name: "UTF-16BE"), prefix)
    case (0x4C, 0x6F, 0xA7, 0x94): throw refused("EBCDIC", declared: false)
    default: break
    }
    let hasByteOrderMark = prefix.starts(with: [0xEF, 0xBB, 0xBF])
    let bytes = Array(prefix.dropFirst(hasByteOrderMark ? 3 : 0))
    guard let declared = declaredEncoding(bytes) else {
      return XMLDocumentEncoding(form: .asciiCompatible, name: "UTF-8", byteOrderMarkLength: hasByteOrderMark ? 3 : 0)
    }
    let canonical = declared.uppercased().replacingOccurrences(of: "_", with: "-")
    // A document declaring UTF-16 without being UTF-16 is libxml2's to refuse ("Document labelled UTF-16 but
    // has UTF-8 content"); its bytes are copied as they are read, as UTF-8.
    if canonical.hasPrefix("UTF-16") || canonical.hasPrefix("UTF16") || isAccepted(canonical) {
      let name = canonical.hasPrefix("UTF") ? "UTF-8" : declared
      return XMLDocumentEncoding(form: .asciiCompatible, name: name, byteOrderMarkLength: hasByteOrderMark ? 3 : 0)
    }
    throw refused(declared, declared: true)
  }

  /// A UTF-16 document, unless its XML declaration names another encoding: libxml2 would switch to that one
  /// halfway through the declaration and report nonsense ("StartTag: invalid element name").
  private static func utf16(_ encoding: XMLDocumentEncoding, _ prefix: some Collection<UInt8>) throws(XMLInputError)
    -> XMLDocumentEncoding
  {
    let bytes = Array(prefix.dropFirst(encoding.byteOrderMarkLength))
    let units = stride(from: 0, to: bytes.count - 1, by: 2).map { index in
      encoding.form == .utf16LittleEndian
        ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
    }
    let text = units.map { $0 < 0x80 ? UInt8($0) : UInt8(ascii: "?") }
    guard let declared = declaredEncoding(text) else { return encoding }
    let canonical = declared.uppercased().replacingOccurrences(of: "_", with: "-")
    if canonical.hasPrefix("UTF-16") || canonical.hasPrefix("UTF16") || canonical == "UCS-2" { return encoding }
    throw XMLInputError(
      line: 1, column: 1,
      message:
        "the document is UTF-16 (its first bytes say so) but its XML declaration says encoding \(RowError.quoted(declared))",
      hint: "declare encoding=\"UTF-16\", or convert the file to the declared encoding")
  }

  /// Whether a declared single-byte or UTF-8 encoding name (upper case, `_` as `-`) is one fxbatch copies.
  static func isAccepted(_ name: String) -> Bool {
    if ["UTF-8", "UTF8", "US-ASCII", "ASCII"].contains(name) { return true }
    for prefix in ["ISO-8859-", "ISO8859-"] where name.hasPrefix(prefix) {
      guard let part = Int(name.dropFirst(prefix.count)) else { return false }
      return (1...16).contains(part) && part != 12
    }
    for prefix in ["WINDOWS-", "CP"] where name.hasPrefix(prefix) {
      guard let page = Int(name.dropFirst(prefix.count)) else { return false }
      return (1250...1258).contains(page)
    }
    return false
  }

  /// The `encoding` of an XML declaration at the start of an ASCII-compatible document, if it has one.
  static func declaredEncoding(_ bytes: [UInt8]) -> String? {
    guard bytes.starts(with: Array("<?xml".utf8)), bytes.count > 5, isSpace(bytes[5]) else { return nil }
    let end = (5..<bytes.count).first { bytes[$0] == UInt8(ascii: "?") } ?? bytes.count
    let declaration = bytes[5..<end]
    var index = declaration.startIndex
    let keyword = Array("encoding".utf8)
    while index < declaration.endIndex {
      guard declaration[index...].starts(with: keyword), isSpace(bytes[index - 1]) else {
        index += 1
        continue
      }
      index += keyword.count
      while index < declaration.endIndex, isSpace(declaration[index]) { index += 1 }
      guard index < declaration.endIndex, declaration[index] == UInt8(ascii: "=") else { return nil }
      index += 1
      while index < declaration.endIndex, isSpace(declaration[index]) { index += 1 }
      guard index < declaration.endIndex, declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'")
      else { return nil }
      let quote = declaration[index]
      let start = index + 1
      guard let close = declaration[start...].firstIndex(of: quote) else { return nil }
      return String(decoding: declaration[start..<close], as: UTF8.self)
    }
    return nil
  }

  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  private static func refused(_ encoding: String, declared: Bool) -> XMLInputError {
    XMLInputError(
      line: 1, column: 1,
      message:
        "the encoding \(RowError.quoted(encoding))\(declared ? " (as the XML declaration says)" : "") is not supported; fxbatch reads XML in UTF-8, UTF-16, ISO-8859-1 … 16 and windows-1250 … 1258",
      hint: "convert the file to UTF-8 (iconv -f ENCODING -t UTF-8) and declare encoding=\"UTF-8\"")
  }
}
