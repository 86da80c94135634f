import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Documents in UTF-16 and ISO-8859-15, run through the built `fxbatch`: read as their byte order mark and XML
/// declaration say, copied byte for byte, and annotated in their own encoding. The fixtures in `Fixtures/xml/`
/// are binary; read them with `iconv -f UTF-16 -t UTF-8 utf16le.xml` or `iconv -f ISO-8859-15 -t UTF-8 …`.
/// Values by hand from `rates-2024-01-31.csv` (2024-01-31: EUR/USD 1.1234, EUR/GBP 0.86).
@Suite("fxbatch end to end: XML encodings")
struct EndToEndXMLEncodingTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The `fx` elements of an annotated document as libxml2 reads the whole document back (a malformed document
  /// or a byte sequence invalid in its encoding throws): their attributes, decoded.
  static func annotations(in directory: TemporaryDirectory, _ name: String) throws -> [[String: String]] {
    let reader = try XMLRecordReader(path: directory.url.appendingPathComponent(name).path, recordElement: "fx")
    var result: [[String: String]] = []
    while let element = try reader.next() {
      result.append(Dictionary(element.attributes.map { ($0.name, $0.value) }) { first, _ in first })
    }
    return result
  }

  /// Runs `convert` on a fixture copied into a fresh directory with the rates file.
  private func convert(_ fixture: String) throws -> (TemporaryDirectory, CLIRunner.Result) {
    let directory = try EndToEndXMLTests.directory(with: [fixture])
    return (directory, try cli.run(["convert", "--rates", EndToEndXMLTests.rates, fixture], in: directory.url))
  }

  // utf16le.xml: UTF-16LE with a byte order mark, declared encoding="UTF-16", CRLF line ends, a non-ASCII
  // record element <überweisung> (detected as the root's repeated child), namespace, comment, U+1D11E (a
  // surrogate pair) in an attribute.
  //  Ü-1: 12.50 EUR→USD = 12.50 × 1.1234 = 14.0425 → 14.04
  //  Ü-2: 1&#48;0.50 = 100.50 EUR→GBP = 100.50 × 0.86 = 86.43
  //  Ü-3: "zwölf" → invalid_amount, the ö written as a UTF-16 unit
  // The fx lines are indented like the children, with CRLF, in UTF-16LE.
  @Test func utf16LittleEndianWithByteOrderMark() throws {
    let (directory, result) = try convert("utf16le.xml")
    defer { directory.remove() }
    #expect(result.status == 1, "\(result.standardError)")
    let output = try EndToEndXMLTests.bytes("utf16le.converted.xml", in: directory)
    #expect(output == (try Fixture.bytes("xml", "utf16le.converted.xml")))
    #expect(
      result.standardError.contains(
        "utf16le.xml -> utf16le.converted.xml: 3 records: 2 ok, 0 fallback, 1 error (invalid_amount 1) [XML, records <überweisung>]"
      ))
    #expect(String(bytes: output, encoding: .utf16) != nil, "valid UTF-16")
    let annotations = try Self.annotations(in: directory, "utf16le.converted.xml")
    #expect(annotations.map { $0["converted"] } == ["14.04", "86.43", ""])
    #expect(annotations.map { $0["currency"] } == ["USD", "GBP", "USD"])
    #expect(annotations.last?["error"] == #"invalid_amount: "zwölf" is not a number"#)
  }

  // utf16be.xml: UTF-16BE with a byte order mark; records as attributes, one an empty element; £ → € and 日本
  // in attributes.
  //  P-1: 250.75 GBP→EUR = 250.75 / 0.86 = 291.5697… → 291.57; rate 1 / 0.86 = 1.16279069767… → 1.162790698
  //  P-2: 7 EUR→USD = 7 × 1.1234 = 7.8638 → 7.86
  @Test func utf16BigEndianWithByteOrderMark() throws {
    let (directory, result) = try convert("utf16be.xml")
    defer { directory.remove() }
    #expect(result.status == 0, "\(result.standardError)")
    let output = try EndToEndXMLTests.bytes("utf16be.converted.xml", in: directory)
    #expect(output == (try Fixture.bytes("xml", "utf16be.converted.xml")))
    #expect(String(bytes: output, encoding: .utf16) != nil, "valid UTF-16")
    let annotations = try Self.annotations(in: directory, "utf16be.converted.xml")
    #expect(annotations.map { $0["rate"] } == ["1.162790698", "1.1234"])
    #expect(annotations.map { $0["converted"] } == ["291.57", "7.86"])
  }

  // iso-8859-15.xml: "Miete Büro, 1.200 € netto" (ü 0xFC, € 0xA4), "Œuvre d'art" (Œ 0xBC, not in ISO-8859-1).
  //  1: 1200.00 EUR→USD = 1200 × 1.1234 = 1348.08
  //  2: &#8377;500 is "₹500": ₹ names INR, not EUR → invalid_amount; ₹ is not in ISO-8859-15, so the error
  //     attribute holds &#8377;
  //  3: "€ 20": 0xA4 read as € (ISO-8859-1 would read ¤), the record's currency: 20 EUR→GBP = 20 × 0.86 = 17.20
  //  4: "zwölf" → invalid_amount, ö written as the byte 0xF6
  @Test func iso8859Dash15() throws {
    let (directory, result) = try convert("iso-8859-15.xml")
    defer { directory.remove() }
    #expect(result.status == 1, "\(result.standardError)")
    let output = try EndToEndXMLTests.bytes("iso-8859-15.converted.xml", in: directory)
    #expect(output == (try Fixture.bytes("xml", "iso-8859-15.converted.xml")))
    #expect(output.contains(0xA4) && output.contains(0xBC))
    let annotations = try Self.annotations(in: directory, "iso-8859-15.converted.xml")
    #expect(annotations.map { $0["converted"] } == ["1348.08", "", "17.20", ""])
    #expect(
      annotations[1]["error"]
        == #"invalid_amount: "₹500" is an amount in INR (₹), but the record's from-currency is EUR"#)
    #expect(annotations[3]["error"] == #"invalid_amount: "zwölf" is not a number"#)
    let reader = try XMLRecordReader(
      path: directory.url.appendingPathComponent("iso-8859-15.converted.xml").path, recordElement: "buchung")
    #expect(try reader.next()?.children.first?.text == "Miete Büro, 1.200 € netto")
  }

  // UTF-16 without a byte order mark (`<?` in two-byte units, XML 1.0 appendix F), read from standard input:
  // 100 EUR→USD = 112.34.
  @Test(arguments: [true, false])
  func utf16WithoutByteOrderMarkFromStandardInput(littleEndian: Bool) throws {
    let directory = try EndToEndXMLTests.directory(with: [])
    defer { directory.remove() }
    let text = """
      <?xml version="1.0" encoding="UTF-16"?>
      <rs><r amount="100" from="EUR" to="USD"/><r amount="x" from="EUR" to="USD"/></rs>

      """
    let input = text.utf16.flatMap { littleEndian ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let result = try cli.run(
      ["convert", "--rates", EndToEndXMLTests.rates, "--date", "2024-01-31", "-o", "out.xml", "-"], in: directory.url,
      input: Data(input))
    #expect(result.status == 1, "\(result.standardError)")
    let output = try EndToEndXMLTests.bytes("out.xml", in: directory)
    let decoded = try #require(String(bytes: output, encoding: littleEndian ? .utf16LittleEndian : .utf16BigEndian))
    #expect(
      decoded.contains(
        #"<r amount="100" from="EUR" to="USD"><fx rate="1.1234" converted="112.34" currency="USD" rate-date="2024-01-31""#))
    #expect(try Self.annotations(in: directory, "out.xml").map { $0["status"] } == ["ok", "error"])
  }

  @Test(arguments: [
    (
      Array(#"<?xml version="1.0" encoding="Shift_JIS"?><rs><r/><r/></rs>"#.utf8),
      #"1:1: error: the encoding "Shift_JIS" (as the XML declaration says) is not supported"#
    ),
    ([0xFF, 0xFE, 0x00, 0x00, 0x3C, 0x00, 0x00, 0x00], #"1:1: error: the encoding "UTF-32 (UCS-4)" is not supported"#),
  ])
  func encodingsTheCopierCannotHandleAreRefused(bytes: [UInt8], message: String) throws {
    let directory = try EndToEndXMLTests.directory(with: [])
    defer { directory.remove() }
    try directory.write(bytes, named: "other.xml")
    let result = try cli.run(["convert", "--rates", EndToEndXMLTests.rates, "other.xml"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains("other.xml:" + message), "\(result.standardError)")
    #expect(result.standardError.contains("hint: convert the file to UTF-8"))
    #expect(try directory.fileNames() == ["other.xml", EndToEndXMLTests.rates].sorted(), "nothing written")
  }
}
