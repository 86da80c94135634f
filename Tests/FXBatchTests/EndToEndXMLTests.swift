import FXBatchTestSupport
import Foundation
import Testing

/// Runs the built `fxbatch` binary on XML documents and compares the annotated copies with golden files in
/// `Fixtures/xml/`, whose values were computed by hand (see the comments) from `rates-2024-01-31.csv`
/// (2024-01-31: EUR/USD 1.1234, EUR/GBP 0.86).
@Suite("fxbatch end to end: XML")
struct EndToEndXMLTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = "rates-2024-01-31.csv"

  /// A temporary directory holding copies of the named fixtures from `Fixtures/xml/` and the rates file.
  static func directory(with fixtures: [String]) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    for name in fixtures + [rates] { try directory.write(try Fixture.bytes("xml", name), named: name) }
    return directory
  }

  static func bytes(_ name: String, in directory: TemporaryDirectory) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: directory.url.appendingPathComponent(name)))
  }

  // attributes.converted.xml, by hand (fields are attributes; <payment> detected as the root's repeated child):
  //  P-1: 12.50 EUR→USD = 12.50 × 1.1234 = 14.0425 → 14.04 (half-up)
  //  P-2: amount="1&#48;0.50" is 100.50: EUR→GBP = 100.50 × 0.86 = 86.43
  //  P-3: amount="" → missing_field
  // The comment, the processing instruction, both namespaces, the single quotes, `&amp;` and the attribute order
  // are kept; the empty elements become <payment …><fx …/></payment>.
  @Test func recordsAsAttributesConvertLikeTheGoldenFile() throws {
    let directory = try Self.directory(with: ["attributes.xml"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--rates", Self.rates, "attributes.xml"], in: directory.url)
    #expect(result.status == 1)
    #expect(
      try Self.bytes("attributes.converted.xml", in: directory) == (try Fixture.bytes("xml", "attributes.converted.xml")))
    #expect(
      result.standardError.contains(
        "attributes.xml -> attributes.converted.xml: 3 records: 2 ok, 0 fallback, 1 error (missing_field 1) [XML, records <payment>]"
      ))
  }

  // children.converted.xml, by hand (fields are child elements; <record> repeats, <meta> does not):
  //  1: <amount>1&#48;0.50</amount> is 100.50: EUR→USD = 100.50 × 1.1234 = 112.9017 → 112.90
  //  2: <![CDATA[250]]>.7<!-- no -->5 is "250.75" (text nodes joined); " GBP " trimmed: GBP→EUR = 250.75 / 0.86
  //     = 291.5697… → 291.57; rate 1 / 0.86 = 1.16279069767… → 1.162790698 (10 significant digits)
  //  3: "abc" → invalid_amount; a one-line record gets <fx …/> right before </record>
  @Test func recordsAsChildElementsConvertLikeTheGoldenFile() throws {
    let directory = try Self.directory(with: ["children.xml"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--rates", Self.rates, "children.xml"], in: directory.url)
    #expect(result.status == 1)
    #expect(try Self.bytes("children.converted.xml", in: directory) == (try Fixture.bytes("xml", "children.converted.xml")))
    #expect(try directory.fileNames() == ["children.converted.xml", "children.xml", Self.rates].sorted())
  }

  // --record-element and @-named fields: 100 EUR→USD = 112.34; 20 EUR→GBP = 17.20.
  @Test func recordElementAndAttributeFieldNames() throws {
    let directory = try Self.directory(with: [])
    defer { directory.remove() }
    try directory.write(
      "book.xml",
      """
      <book><line ccy="EUR" target="X"><sum>100</sum><target>USD</target></line>\
      <line ccy="EUR"><sum>20</sum><target>GBP</target></line></book>
      """)
    let result = try cli.run(
      [
        "convert", "--rates", Self.rates, "--record-element", "line", "--amount-field", "sum", "--from-field", "@ccy",
        "--to-field", "target", "--date", "2024-01-31", "-o", "-", "book.xml",
      ],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(#"<target>USD</target><fx rate="1.1234" converted="112.34" currency="USD""#))
    #expect(result.standardOutput.contains(#"<target>GBP</target><fx rate="0.86" converted="17.20" currency="GBP""#))
  }

  // ISO-8859-1, as the prolog declares: "Café" is one byte per letter in the file and in the copy.
  // 100 EUR→USD = 112.34.
  @Test func latin1DocumentIsReadAndCopiedInItsEncoding() throws {
    let directory = try Self.directory(with: [])
    defer { directory.remove() }
    let head = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<rs><r note=\"Caf".utf8) + [0xE9]
    let tail = Array("\"><amount>100</amount><from>EUR</from><to>USD</to></r><r><amount>x</amount></r></rs>\n".utf8)
    try directory.write(head + tail, named: "latin1.xml")
    let result = try cli.run(
      ["convert", "--rates", Self.rates, "--date", "2024-01-31", "latin1.xml"], in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let output = try Self.bytes("latin1.converted.xml", in: directory)
    #expect(
      output.starts(
        with: head + Array("\"><amount>100</amount><from>EUR</from><to>USD</to><fx rate=\"1.1234\" converted=\"112.34\"".utf8)))
  }

  // The classic "billion laughs": 10 levels of 10 references, 10^9 "lol"s if expanded.
  @Test func entityBombIsRefusedWithinASecond() throws {
    let directory = try Self.directory(with: ["bomb.xml"])
    defer { directory.remove() }
    let start = ContinuousClock.now
    let result = try cli.run(["convert", "--rates", Self.rates, "bomb.xml"], in: directory.url)
    #expect(ContinuousClock.now - start < .seconds(1))
    #expect(result.status == 2)
    // Refused at its DOCTYPE (line 2), before libxml2 parses a single entity.
    #expect(result.standardError.contains("bomb.xml:2:1: error: a DTD (<!DOCTYPE …>) is not accepted"))
    #expect(try directory.fileNames() == ["bomb.xml", Self.rates].sorted(), "nothing written")
  }

  @Test func externalSystemEntityIsNeverRead() throws {
    let directory = try Self.directory(with: ["external.xml"])
    defer { directory.remove() }
    try directory.write("secret.txt", "SECRET-42\n")
    let result = try cli.run(["convert", "--rates", Self.rates, "external.xml"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains("external.xml:2:1: error: a DTD (<!DOCTYPE …>) is not accepted"))
    #expect(!result.standardError.contains("SECRET") && !result.standardOutput.contains("SECRET"))
    #expect(try directory.fileNames() == ["external.xml", Self.rates, "secret.txt"].sorted(), "nothing written")
  }

  @Test(arguments: [
    (
      "bad.xml", "<rs>\n<r><amount>1</amount><from>EUR</from><to>USD</to></r>\n<r><amount>2</amount></from></r></rs>\n",
      "bad.xml:3:29: error: malformed XML: Opening and ending tag mismatch: r line 3 and from"
    ),
    ("cut.xml", "<rs><r><amount>1</amount><from>EUR</from><to>USD</to></r>", "cut.xml:1:"),
    // <r> on line 7 is never closed: found at </rs> (line 8, column 6 just after it), the message naming line 7.
    (
      "unclosed.xml",
      "<rs>\n" + String(repeating: "  <r><amount>1</amount><from>EUR</from><to>USD</to></r>\n", count: 5)
        + "  <r><amount>2</amount><from>EUR</from><to>USD</to>\n</rs>\n",
      "unclosed.xml:8:6: error: malformed XML: Opening and ending tag mismatch: r line 7 and rs"
    ),
    // &#xD800; (a surrogate, not a character) in columns 13-20 of line 2: reported just after it.
    (
      "reference.xml", "<rs><r><amount>1</amount><from>EUR</from><to>USD</to></r>\n<r><amount>1&#xD800;0</amount></r></rs>\n",
      "reference.xml:2:21: error: malformed XML: xmlParseCharRef: invalid xmlChar value 55296"
    ),
    // Cut after "</t" on line 3 (47 characters): the end of the file is line 3, column 48.
    (
      "truncated.xml",
      "<rs>\n<r><amount>1</amount><from>EUR</from><to>USD</to></r>\n<r><amount>2</amount><from>EUR</from><to>USD</t",
      "truncated.xml:3:48: error: malformed XML:"
    ),
    // A DOCTYPE after a comment over two lines: its own line and column, not where libxml2's parser stopped.
    (
      "doctype.xml",
      "<?xml version=\"1.0\"?>\n<!-- exported\n     by hand --> <!DOCTYPE rs [\n<!ENTITY a \"b\">\n]>\n<rs><r/><r/></rs>\n",
      "doctype.xml:3:18: error: a DTD (<!DOCTYPE …>) is not accepted"
    ),

    (
      "fields.xml", "<rs><r><sum>1</sum></r><r><sum>2</sum></r></rs>",
      "fields.xml:1:1: error: no record has a to-currency field"
    ),
    // Issue 13: the message read "no record has a amount field".
    (
      "amount.xml", "<rs><r><from>EUR</from><to>USD</to></r><r><from>EUR</from><to>USD</to></r></rs>",
      "amount.xml:1:1: error: no record has an amount field"
    ),
    ("single.xml", "<rs><a/><b/></rs>", "single.xml:1:1: error: cannot tell which elements are the records"),
    ("empty.xml", "", "empty.xml:1:1: error: the document is empty; expected XML records"),
    ("blank.xml", "   \n\n", "blank.xml:3:1: error: the document is empty; expected XML records"),
    (
      "text.xml", "hello world\n", "text.xml:1:1: error: the document does not start with markup ('<'): it is not an XML document"
    ),
  ])
  func malformedDocumentIsAFileErrorWithNothingWritten(name: String, text: String, message: String) throws {
    let directory = try Self.directory(with: ["children.xml"])
    defer { directory.remove() }
    try directory.write(name, text)
    let result = try cli.run(["convert", "--rates", Self.rates, name, "children.xml"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(try directory.fileNames() == [name, "children.converted.xml", "children.xml", Self.rates].sorted())
  }

  /// `--amount-field NAME` that no record has names the option and the name, not "use --amount-field NAME".
  @Test func aGivenAmountFieldNoRecordHasIsNamed() throws {
    let directory = try Self.directory(with: [])
    defer { directory.remove() }
    try directory.write("amount.xml", "<rs><r><sum>1</sum><from>EUR</from><to>USD</to></r></rs>")
    let result = try cli.run(
      ["convert", "--rates", Self.rates, "--amount-field", "Betrag", "amount.xml"], in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "amount.xml:1:1: error: --amount-field \"Betrag\": no record has such a field (the first record's fields:"
          + " \"sum\", \"from\", \"to\")\n"),
      "\(result.standardError)")
  }

  // A Latin-1 byte (é, 0xE9, line 2 column 13) in a document without an encoding declaration, so read as UTF-8:
  // located in the file (libxml2 says column 12), libxml2's two-line message on one line, with a hint.
  @Test func undeclaredLatin1IsAFileErrorWithAHint() throws {
    let directory = try Self.directory(with: [])
    defer { directory.remove() }
    try directory.write(Array("<rs>\n<r note=\"caf".utf8) + [0xE9] + Array("\"/><r/></rs>\n".utf8), named: "latin1.xml")
    let result = try cli.run(["convert", "--rates", Self.rates, "latin1.xml"], in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "latin1.xml:2:13: error: malformed XML: Input is not proper UTF-8, indicate encoding ! Bytes: 0xE9 0x22 0x2F 0x3E\n"),
      "\(result.standardError)")
    #expect(result.standardError.contains("hint: the file is not UTF-8: declare its encoding"))
  }

  @Test func aSecondRunSkipsItsEarlierOutput() throws {
    let directory = try Self.directory(with: ["children.xml"])
    defer { directory.remove() }
    #expect(try cli.run(["convert", "--rates", Self.rates, "children.xml"], in: directory.url).status == 1)
    let second = try cli.run(
      ["convert", "--rates", Self.rates, "children.xml", "children.converted.xml"], in: directory.url)
    #expect(second.standardError.contains("  children.converted.xml: skipped, it is the output of children.xml in this run"))
    #expect(try Self.bytes("children.converted.xml", in: directory) == (try Fixture.bytes("xml", "children.converted.xml")))
  }

  @Test func annotatedOutputIsNotConvertedAgain() throws {
    let directory = try Self.directory(with: ["children.converted.xml"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--rates", Self.rates, "children.converted.xml"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains("the file is already annotated by fxbatch"))
  }

  /// The XML sample converts as `Samples/README.md` says.
  @Test func sampleConvertsAsItsREADMESays() throws {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Samples")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write([UInt8](try Data(contentsOf: samples.appendingPathComponent("orders.xml"))), named: "orders.xml")
    let result = try cli.run(["convert", "orders.xml"], in: directory.url)
    #expect(result.status == 1)
    #expect(
      result.standardError.contains(
        "orders.xml -> orders.converted.xml: 6 records: 3 ok, 2 fallback, 1 error (invalid_amount 1) [XML, records <order>]"))
    // 10250.00 CHF→EUR on Saturday 2023-09-16 → Friday 2023-09-15 EUR/CHF 0.9554: 10250 / 0.9554 = 10728.490… → 10728.49
    #expect(
      try directory.read("orders.converted.xml").contains(
        #"<fx rate="1.046682018" converted="10728.49" currency="EUR" rate-date="2023-09-15""#))
  }
}
