import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Record rows the row decoder (``ODSRowDecoder``) reads from the scanner's cells, and near misses of them that
/// it must leave to the general rules (a currency it cannot read as stored, an amount that is no number cell, a
/// date cell it must not take for text, a row whose markup the fast writer must not copy as it is): whatever it
/// does, the converted package is the general road's, in one pass and in two (``ODSContentScannerTests/check(_:scanned:_:sheet:holds:)``).
@Suite("ODS row decoder", .tags(.sanitized))
struct ODSRowDecoderTests {
  typealias Cases = ODSContentScannerTests

  static func string(_ text: String, attributes: String = "") -> String {
    #"<table:table-cell office:value-type="string"\#(attributes)><text:p>\#(text)</text:p></table:table-cell>"#
  }

  static func float(_ value: String, type: String = "float") -> String {
    #"<table:table-cell office:value-type="\#(type)" office:value="\#(value)" calcext:value-type="\#(type)"><text:p>\#(value)</text:p></table:table-cell>"#
  }

  static func date(_ value: String) -> String {
    #"<table:table-cell office:value-type="date" office:date-value="\#(value)"><text:p>\#(value)</text:p></table:table-cell>"#
  }

  /// A record row of a date cell, an amount cell and a currency cell, each given whole.
  static func row(_ date: String, _ amount: String, _ currency: String, tag: String = "<table:table-row>") -> String {
    tag + date + amount + currency + "</table:table-row>"
  }

  /// The usual row around one odd cell.
  static func odd(date: String = date("2024-02-01"), amount: String = float("4"), currency: String = string("USD"))
    -> String
  {
    row(date, amount, currency)
  }

  static let cases: [(String, String)] = [
    ("the usual row", odd()),
    ("a currency in a span", odd(currency: string("<text:span>USD</text:span>"))),
    ("a currency by reference", odd(currency: string("&#85;SD"))),
    ("a currency in two paragraphs", odd(currency: string("US</text:p><text:p>D"))),
    ("a currency in an empty paragraph", odd(currency: string("</text:p><text:p/><text:p>USD"))),
    ("a currency as its string value", odd(currency: string("shown", attributes: #" office:string-value="GBP""#))),
    ("a currency as a string value by reference", odd(currency: string("x", attributes: #" office:string-value="&#71;BP""#))),
    ("a currency with spaces", odd(currency: string(#"<text:s/>CHF<text:s text:c="2"/>"#))),
    ("a currency in lower case", odd(currency: string("usd"))),
    ("an unknown currency", odd(currency: string("ABC"))),
    ("a blank currency", odd(currency: string(""))),
    ("a currency as a number", odd(currency: float("840"))),
    ("a missing currency", odd(currency: "")),
    ("a currency cell of LibreOffice's error type", odd(currency: string("USD", attributes: #" calcext:value-type="error""#))),
    ("an amount as text", odd(amount: string("12.5"))),
    ("an amount by reference", odd(amount: #"<table:table-cell office:value-type="float" office:value="1&#46;5"><text:p>1.5</text:p></table:table-cell>"#)),
    ("an amount of a currency type", odd(amount: float("7.25", type: "currency"))),
    ("an amount of a percentage type", odd(amount: float("0.125", type: "percentage"))),
    ("an amount with an exponent", odd(amount: float("1.5E-3"))),
    ("an amount that is no number", odd(amount: float("1,5"))),
    ("an amount of LibreOffice's error type", odd(amount: #"<table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell>"#)),
    ("an amount as a boolean", odd(amount: #"<table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>"#)),
    ("an amount and a currency in one repeated cell", odd(amount: #"<table:table-cell table:number-columns-repeated="2" office:value-type="string"><text:p>USD</text:p></table:table-cell>"#, currency: "")),
    ("a date and an amount in one repeated cell", row(#"<table:table-cell table:number-columns-repeated="2" office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell>"#, "", string("JPY"))),
    ("a date with a time", odd(date: date("2024-02-01T10:30:00"))),
    ("a date with a zone", odd(date: date("2024-02-01T10:30:00+02:00"))),
    ("a date that is no day", odd(date: date("2024-02-30"))),
    ("a date cell of a year", odd(date: date("2024"))),
    ("a date as text", odd(date: string("2024-02-01"))),
    ("a date as a number", odd(date: float("45323"))),
    ("an empty date cell", odd(date: "<table:table-cell><text:p/></table:table-cell>")),
    ("an unused date cell", odd(date: "<table:table-cell/>")),
    ("a date by reference", odd(date: #"<table:table-cell office:value-type="date" office:date-value="2024-02-0&#49;"><text:p>x</text:p></table:table-cell>"#)),
    ("a row counted once", row(date("2024-02-01"), float("4"), string("USD"), tag: #"<table:table-row table:number-rows-repeated="1">"#)),
    ("a row repeated", row(date("2024-02-01"), float("4"), string("USD"), tag: #"<table:table-row table:number-rows-repeated="2">"#)),
    ("a row style with a count in its value", row(date("2024-02-01"), float("4"), string("USD"), tag: #"<table:table-row table:style-name='table:number-rows-repeated="3"'>"#)),
    ("a short row", row(date("2024-02-01"), float("4"), "")),
    ("trailing empty cells", odd(currency: string("USD") + #"<table:table-cell table:number-columns-repeated="1019"/>"#)),
    // Near misses of the quick cell reader (LibreOffice's cell markup read at once): the steps read them.
    ("attributes in another order", odd(amount: #"<table:table-cell calcext:value-type="float" office:value="4" table:style-name="ce2" office:value-type="float"><text:p>4</text:p></table:table-cell>"#)),
    ("single quotes", odd(amount: #"<table:table-cell office:value-type='float' office:value='4'><text:p>4</text:p></table:table-cell>"#)),
    ("an unknown attribute", odd(amount: #"<table:table-cell office:value-type="float" office:value="4" table:content-validation-name="v"><text:p>4</text:p></table:table-cell>"#)),
    ("a value-typed empty cell", odd(amount: #"<table:table-cell office:value-type="float" office:value="4"/>"#)),
    ("a count of columns of 01", odd(currency: #"<table:table-cell table:number-columns-repeated="01" office:value-type="string"><text:p>USD</text:p></table:table-cell>"#)),
    ("a tab in the text", odd(currency: string("USD") + string("a\tb"))),
    ("brackets in the text", odd(currency: string("USD") + string("x]]y"))),
    ("UTF-8 in the text", odd(currency: string("USD") + string("€"))),
    ("an empty paragraph", odd(currency: #"<table:table-cell office:value-type="string"><text:p/></table:table-cell>"#)),
    ("a paragraph with nothing in it", odd(currency: #"<table:table-cell office:value-type="string"><text:p></text:p></table:table-cell>"#)),
    ("a styled paragraph", odd(currency: #"<table:table-cell office:value-type="string"><text:p text:style-name="P1">USD</text:p></table:table-cell>"#)),
    ("spaces in the tags", odd(currency: #"<table:table-cell office:value-type="string" ><text:p >USD</text:p ></table:table-cell >"#)),
    ("a value with > in it", odd(currency: string("USD", attributes: #" table:style-name="a>b""#))),
    // Near misses of the quick row tag reader.
    ("a count before the style", row(date("2024-02-01"), float("4"), string("USD"), tag: #"<table:table-row table:number-rows-repeated="2" table:style-name="ro1">"#)),
    ("another attribute of the row", row(date("2024-02-01"), float("4"), string("USD"), tag: #"<table:table-row table:style-name="ro1" table:visibility="collapse">"#)),
    ("a row style with > in it", row(date("2024-02-01"), float("4"), string("USD"), tag: #"<table:table-row table:style-name="r>1">"#)),
    ("a row style by reference", row(date("2024-02-01"), float("4"), string("USD"), tag: #"<table:table-row table:style-name="r&amp;1">"#)),
    ("spaces between the cells", "<table:table-row>\n " + date("2024-02-01") + " " + float("9") + "\n" + string("SEK") + " </table:table-row>"),
  ]

  /// The same record rows as one table (each case's row between two usual rows): the decoder's caches hold
  /// values of every kind of cell at once, so a value cached for one kind must not be taken for another's.
  @Test(arguments: cases)
  func nearMiss(name: String, row: String) throws {
    // An amount as text with a decimal mark: the one-pass road gives up at it.
    try Cases.check(Cases.document(row), scanned: true, name, holds: name != "an amount as text")
  }

  /// An attribute twice: the scanner declines the document, and the general road says why.
  @Test func attributeTwice() throws {
    let row = Self.odd(
      amount: #"<table:table-cell office:value-type="float" office:value="4" office:value="5"><text:p>4</text:p></table:table-cell>"#)
    try Cases.check(Cases.document(row), scanned: false, "an attribute twice")
  }

  /// LibreOffice's namespace of `calcext:` bound to another prefix (and `calcext:` to another namespace): its
  /// error type is known by the steps alone.
  @Test func calcextByAnotherPrefix() throws {
    let lo = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
    let rows =
      Self.odd(amount: #"<table:table-cell office:value-type="float" office:value="0" ce:value-type="error"><text:p>#N/A</text:p></table:table-cell>"#)
      + Self.odd(amount: #"<table:table-cell office:value-type="float" office:value="3" calcext:value-type="error"><text:p>3</text:p></table:table-cell>"#)
    let content = Cases.document(rows).replacingOccurrences(of: lo, with: "urn:x-other").replacingOccurrences(
      of: "office:version=\"1.3\"", with: "xmlns:ce=\"\(lo)\" office:version=\"1.3\"")
    try Cases.check(content, scanned: true, "calcext: bound to another namespace")
  }

  @Test func everyCaseInOneTable() throws {
    let rows = Self.cases.filter { $0.0 != "an amount as text" }.map(\.1).joined()
    try Cases.check(Cases.document(rows), scanned: true, "every case in one table")
  }

  /// The decoder reads the key of a usual record row from the scanner's cells (a date cell's day, the string
  /// cells' codes; a repeated cell standing for the currency's column), and leaves every near miss to the
  /// general rules (`nil`): a currency in a span, an amount as text, a date cell that is no day.
  @Test func keysFromCells() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = "<table:table-row>" + ["date", "amount", "from", "to"].map { Self.string($0) }.joined() + "</table:table-row>"
    let rows = [
      Self.odd(currency: Self.string("USD") + Self.string("GBP")),
      Self.row(Self.date("2024-02-01T10:30:00"), Self.float("4"), #"<table:table-cell table:number-columns-repeated="2" office:value-type="string"><text:p>JPY</text:p></table:table-cell>"#),
      Self.odd(currency: Self.string("<text:span>USD</text:span>") + Self.string("GBP")),
      Self.odd(amount: Self.string("4"), currency: Self.string("USD") + Self.string("GBP")),
      Self.odd(date: Self.date("2024-02-30"), currency: Self.string("USD") + Self.string("GBP")),
    ]
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: header + rows.joined()), named: "in.ods", in: directory)
    let package = try ZipPackage(path: directory.path + "/in.ods")
    var scanner = ODSContentScanner(
      stream: try package.stream(try #require(package.entry(named: "content.xml"))), choice: .number(1))
    let mapping = FieldMapping(amount: 1, from: 2, to: 3, date: 0)
    let decoder = ODSRowDecoder(mapping: mapping, normalizer: BatchJob(options: BatchOptions(today: TableSourceDifferentialTests.today), source: .table(EmbeddedECBHistory.table)).formatContext.recordNormalizer)
    var keys: [RateKey?] = []
    var numbers: [Bool] = []
    while let item = try scanner.next() {
      guard case .row = item, scanner.rowNumber > 1 else { continue }
      keys.append(decoder.key(scanner.cells, in: scanner.bytes)?.key)
      numbers.append(decoder.amountsAreNumbers(scanner.cells))
    }
    let day = try #require(CalendarDay(iso8601: "2024-02-01"))
    func code(_ text: String) throws -> CurrencyCode { try #require(CurrencyCode(text)) }
    #expect(keys == [
      RateKey(base: try code("USD"), quote: try code("GBP"), day: day),
      RateKey(base: try code("JPY"), quote: try code("JPY"), day: day), nil, RateKey(base: try code("USD"), quote: try code("GBP"), day: day), nil,
    ])
    #expect(numbers == [true, true, true, false, true])
  }

  /// The words the quick cell reader knows attribute names by are their first 8 bytes.
  @Test func nameWords() {
    func word(_ text: String) -> UInt64 { text.utf8.reversed().reduce(0) { ($0 << 8) | UInt64($1) } }
    #expect(ODSContentScanner.officeV == word("office:v"))
    #expect(ODSContentScanner.officeD == word("office:d"))
    #expect(ODSContentScanner.tableSt == word("table:st"))
    #expect(ODSContentScanner.calcext == word("calcext:"))
    #expect(ODSContentScanner.tableNu == word("table:nu"))
  }

  /// A slash date as text: its evidence of the order of day and month is read through the decoder's caches.
  @Test func slashDates() throws {
    let rows = ["01/02/2024", "25/02/2024", "01/02/2024"].map { Self.odd(date: Self.string($0)) }.joined()
    try Cases.check(Cases.document(rows), scanned: true, "slash dates", holds: false)
  }
}
