import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

@Suite("XML documents: encoding, prolog, byte window, copier")
struct XMLDocumentEncodingTests {
  static func littleEndian(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
  static func bigEndian(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

  static let detected: [([UInt8], XMLDocumentEncoding)] = [
    (Array("<rs/>".utf8), .utf8),
    (Array("<?xml version=\"1.0\"?><rs/>".utf8), .utf8),
    (
      [0xEF, 0xBB, 0xBF] + Array("<rs/>".utf8), XMLDocumentEncoding(form: .asciiCompatible, name: "UTF-8", byteOrderMarkLength: 3)
    ),
    (
      Array("<?xml version='1.0' encoding = 'iso-8859-15' ?><rs/>".utf8),
      XMLDocumentEncoding(form: .asciiCompatible, name: "iso-8859-15")
    ),
    (
      Array("<?xml version=\"1.0\"\nencoding=\"ISO_8859-1\"?>".utf8),
      XMLDocumentEncoding(form: .asciiCompatible, name: "ISO_8859-1")
    ),
    (
      Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?>".utf8),
      XMLDocumentEncoding(form: .asciiCompatible, name: "windows-1252")
    ),
    (Array("<?xml version=\"1.0\" encoding=\"US-ASCII\"?>".utf8), XMLDocumentEncoding(form: .asciiCompatible, name: "US-ASCII")),
    (Array("<?xml version=\"1.0\" encoding=\"utf8\"?>".utf8), .utf8),
    // Declared UTF-16 without being UTF-16: copied as UTF-8, libxml2 refuses it.
    (Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?>".utf8), .utf8),
    // "encoding" inside another pseudo-attribute's value is not the declaration.
    (Array("<?xml version=\"1.0\" standalone='yes' ?><rs encoding=\"Shift_JIS\"/>".utf8), .utf8),
    (
      [0xFF, 0xFE] + littleEndian("<?xml version=\"1.0\" encoding=\"UTF-16\"?>"),
      XMLDocumentEncoding(form: .utf16LittleEndian, name: "UTF-16LE", byteOrderMarkLength: 2)
    ),
    ([0xFE, 0xFF] + bigEndian("<rs/>"), XMLDocumentEncoding(form: .utf16BigEndian, name: "UTF-16BE", byteOrderMarkLength: 2)),
    (littleEndian("<?xml version=\"1.0\"?>"), XMLDocumentEncoding(form: .utf16LittleEndian, name: "UTF-16LE")),
    (bigEndian("<?xml version=\"1.0\"?>"), XMLDocumentEncoding(form: .utf16BigEndian, name: "UTF-16BE")),
    (
      [0xFE, 0xFF] + bigEndian("<?xml version=\"1.0\" encoding=\"UCS-2\"?>"),
      XMLDocumentEncoding(form: .utf16BigEndian, name: "UTF-16BE", byteOrderMarkLength: 2)
    ),
    (
      littleEndian("<?xml version=\"1.0\" encoding=\"utf-16le\"?>"),
      XMLDocumentEncoding(form: .utf16LittleEndian, name: "UTF-16LE")
    ),
  ]

  @Test(arguments: detected)
  func encodingIsDetectedFromTheFirstBytes(prefix: [UInt8], expected: XMLDocumentEncoding) throws {
    #expect(try XMLDocumentEncoding.detect(prefix) == expected)
  }

  @Test(arguments: [
    Array("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>".utf8), Array("<?xml version=\"1.0\" encoding=\"ISO-8859-12\"?>".utf8),
    Array("<?xml version=\"1.0\" encoding=\"windows-1251x\"?>".utf8), Array("<?xml version=\"1.0\" encoding=\"EUC-JP\"?>".utf8),
    [0x00, 0x00, 0xFE, 0xFF], [0x00, 0x00, 0x00, 0x3C], [0x4C, 0x6F, 0xA7, 0x94],
    // UTF-16 that declares another encoding (libxml2 would switch to it).
    [0xFF, 0xFE] + littleEndian("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>"),
    bigEndian("<?xml version=\"1.0\" encoding=\"UTF-8\"?><r/>"),
  ])
  func encodingsTheCopierCannotHandleAreRefused(prefix: [UInt8]) {
    #expect(throws: XMLInputError.self) { try XMLDocumentEncoding.detect(prefix) }
  }

  /// Every name family the detector accepts has an encoder in libxml2 (through iconv), so the annotations can
  /// be written in it.
  @Test(arguments: [
    "UTF-8", "US-ASCII", "ASCII", "ISO-8859-1", "iso-8859-2", "ISO_8859-9", "ISO8859-15", "ISO-8859-16", "windows-1250",
    "WINDOWS-1258", "cp1252",
  ])
  func acceptedEncodingsHaveALibxml2Encoder(name: String) throws {
    #expect(XMLDocumentEncoding.isAccepted(name.uppercased().replacingOccurrences(of: "_", with: "-")))
    _ = try XMLElementEncoder(encoding: name)
  }

  // Positions of <!DOCTYPE: lines end with LF, CR LF or CR; columns count characters (é is one, 𝄞 one).
  @Test(arguments: [
    (Array("<!DOCTYPE r><r/>".utf8), 1, 1),
    (Array("<?xml version=\"1.0\"?><!DOCTYPE r><r/>".utf8), 1, 22),
    (Array("<?xml version=\"1.0\"?>\r\n<!-- a\r\nb -->\r\n  <!DOCTYPE r>".utf8), 4, 3),
    (Array("<?xml version=\"1.0\"?>\r<?pi ?>\r\r<!DOCTYPE r>".utf8), 4, 1),
    ([0xEF, 0xBB, 0xBF] + Array("<!-- é𝄞 --><!DOCTYPE r>".utf8), 1, 12),
    (
      Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!-- ".utf8) + [0xE9, 0xE9] + Array(" --><!DOCTYPE r>".utf8), 2, 12
    ),
    ([0xFF, 0xFE] + littleEndian("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!-- é𝄞 -->\n\t<!DOCTYPE r>"), 3, 2),
    ([0xFE, 0xFF] + bigEndian("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!-- é𝄞 --> <!DOCTYPE r>"), 2, 13),
  ])
  func documentTypeIsLocatedInTheDocument(bytes: [UInt8], line: Int, column: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let prolog = try XMLProlog.read(path: try directory.write(bytes, named: "d.xml"))
    #expect(prolog.documentType == XMLSourcePosition(line: line, column: column))
  }

  @Test(arguments: [
    "<r/>", "<?xml version=\"1.0\"?>\n<!-- <!DOCTYPE r> -->\n<r/>", "<?xml version=\"1.0\"?><r><!DOCTYPE r></r>", "",
    "<!-- unterminated",
  ])
  func documentsWithoutADocumentTypeDeclaration(text: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect(try XMLProlog.read(path: try directory.write(text, named: "d.xml")).documentType == nil)
  }

  @Test(arguments: [
    (Array("<r>é</r>".utf8) + [0xE9], 1, 9),
    (Array("<r>\n\r\n𝄞 ".utf8) + [0xF0, 0x9F, 0x98], 3, 3),  // a sequence cut short
    (Array("<r a=\"".utf8) + [0xED, 0xA0, 0x80], 1, 7),  // a UTF-16 surrogate written in UTF-8
    (Array("<r>".utf8) + [0xC0, 0xAF], 1, 4),  // an overlong "/"
  ])
  func firstInvalidUTF8IsLocated(bytes: [UInt8], line: Int, column: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(bytes, named: "d.xml")
    #expect(try XMLSourcePosition.firstInvalidUTF8(path: path) == XMLSourcePosition(line: line, column: column))
    #expect(try XMLSourcePosition.firstInvalidUTF8(path: try directory.write(Array("<r>é𝄞</r>".utf8), named: "ok.xml")) == nil)
  }

  /// A document exercising the copier: a comment and a CDATA section holding what looks like record tags, a
  /// processing instruction, `>` in an attribute value, an empty record, an indented record, and a record
  /// element nested inside a record.
  static let document = """
    <?xml version="1.0"?>
    <!-- <r><x/></r> -->
    <rs><?pi <r/> ?>
      <r a="1>2"><![CDATA[</r>]]><r>inner</r></r>
      <r/>
      <r b='é'>
        <c>1</c>
        <d>𝄞</d>
      </r>
    </rs>

    """
  static let copied = """
    <?xml version="1.0"?>
    <!-- <r><x/></r> -->
    <rs><?pi <r/> ?>
      <r a="1>2"><![CDATA[</r>]]><r>inner</r><fx n="1"/></r>
      <r><fx n="2"/></r>
      <r b='é'>
        <c>1</c>
        <d>𝄞</d>
        <fx n="3"/>
      </r>
    </rs>

    """

  /// Copies `document` in an encoding through windows of several sizes, down to a few bytes, so that every
  /// construct straddles a window boundary somewhere, and UTF-16 units too (odd sizes).
  @Test(arguments: [
    ("UTF-8", XMLDocumentEncoding.utf8, 1 << 20), ("UTF-8", .utf8, 5), ("UTF-8", .utf8, 16),
    ("UTF-16LE", XMLDocumentEncoding(form: .utf16LittleEndian, name: "UTF-16LE", byteOrderMarkLength: 2), 7),
    ("UTF-16BE", XMLDocumentEncoding(form: .utf16BigEndian, name: "UTF-16BE", byteOrderMarkLength: 2), 33),
  ])
  func copierFindsRecordsAcrossWindowBoundaries(label: String, encoding: XMLDocumentEncoding, capacity: Int) throws {
    func encode(_ text: String) -> [UInt8] {
      switch encoding.form {
      case .asciiCompatible: return Array(text.utf8)
      case .utf16LittleEndian: return [0xFF, 0xFE] + Self.littleEndian(text)
      case .utf16BigEndian: return [0xFE, 0xFF] + Self.bigEndian(text)
      }
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(encode(Self.document), named: "in.xml")
    let outputPath = directory.url.appendingPathComponent("out.xml").path
    let descriptor = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(descriptor >= 0)
    let sink = ByteSink(descriptor: descriptor)
    var count = 0
    let records = try XMLAnnotatingWriter(sink: sink).write(
      path: input, encoding: encoding, recordElement: "r", windowCapacity: capacity
    ) {
      count += 1
      return ["\(count)"]
    }
    try sink.flush()
    close(descriptor)
    #expect(records == 3)
    // The one attribute name zip() pairs with the single value is the first annotation name, `rate`.
    let expected = encode(Self.copied.replacingOccurrences(of: "<fx n=", with: "<fx rate="))
    #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: outputPath))) == expected, "\(label) window \(capacity)")
  }
}
