import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `content.xml` read by the byte scanner (``ODSContentScanner``): the rows it reads are the rows libxml2's
/// reader reads (``ODSTableReader``); what it does not handle exactly makes it decline, and the converted
/// package is then the general road's. Each case checks both: whether the scanner reads the document, and that
/// the fast path (through the scanner, or declined) writes what the general path writes.
@Suite("ODS content scanner", .tags(.sanitized))
struct ODSContentScannerTests {
  /// The rows the scanner reads of a package's chosen table; `nil` when it declines.
  static func scannedRows(_ path: String, choice: ODSTableReader.Choice = .number(1)) throws -> [ODSRowElement]? {
    let package = try ZipPackage(path: path)
    let entry = try #require(package.entry(named: "content.xml"))
    var scanner = ODSContentScanner(stream: try package.stream(entry), choice: choice)
    var rows: [ODSRowElement] = []
    do {
      while let item = try scanner.next() { if case .row = item { rows.append(scanner.row) } }
    } catch {
      return nil
    }
    return scanner.tableFound ? rows : nil
  }

  /// The row elements libxml2's reader reads of the chosen table.
  static func generalRows(_ path: String, choice: ODSTableReader.Choice = .number(1)) throws -> [ODSRowElement] {
    let package = try ZipPackage(path: path)
    let entry = try #require(package.entry(named: "content.xml"))
    let table = try #require(try ODSTableReader(package: package, entry: entry, choice: choice))
    var rows: [ODSRowElement] = []
    while let row = try table.nextElement() { rows.append(row) }
    return rows
  }

  /// A date, an amount and a currency cell as LibreOffice writes them.
  static func record(_ date: String, _ amount: String, _ currency: String, extra: String = "") -> String {
    #"<table:table-row table:style-name="ro1"><table:table-cell office:value-type="date" office:date-value="\#(date)" calcext:value-type="date"><text:p>\#(date)</text:p></table:table-cell>"#
      + #"<table:table-cell office:value-type="float" office:value="\#(amount)" calcext:value-type="float"><text:p>\#(amount)</text:p></table:table-cell>"#
      + #"<table:table-cell office:value-type="string" calcext:value-type="string"><text:p>\#(currency)</text:p></table:table-cell>\#(extra)</table:table-row>"#
  }

  static let header =
    "<table:table-row>" + ["date", "amount", "currency", "note"].map { EndToEndODSTests.text($0) }.joined()
    + "</table:table-row>"

  /// A table of a header and three records, with `row` (a record, or any markup) after the first.
  static func document(_ row: String, root: String = "", columns: String = "<table:table-column/>") -> String {
    var content = EndToEndODSTests.content(
      rows: header + record("2024-01-15", "100.5", "USD") + row + record("2024-03-01", "7", "GBP"), columns: columns)
    if !root.isEmpty {
      content = content.replacingOccurrences(of: "office:version=\"1.3\"", with: root + " office:version=\"1.3\"")
    }
    return content
  }

  /// What converting a spreadsheet through the format's passes gave (as the engine calls them under the
  /// embedded table): the one-pass road where it may (`onePass`), else pass 1 then pass 2.
  struct Outcome: Equatable {
    var content: [UInt8]? = nil
    var counts: RunReport.Counts? = nil
    var fields: [String: String] = [:]
    var error: String? = nil
  }

  static func convert(_ path: String, onePass: Bool, sheet: String?) throws -> (Outcome, readInOnePass: Bool) {
    let output = path + (onePass ? ".one.ods" : ".two.ods")
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [path]
    options.destination = .file(output)
    options.fixedTo = CurrencyCode("EUR")
    options.sheet = sheet
    let table = EmbeddedECBHistory.table
    var job = BatchJob(options: options, source: .table(table))
    job.allowsProvisionalScan = onePass
    let context = job.formatContext
    let resolver = job.rateResolver
    let quotes = QuoteBook(
      keys: RateKeyIndex(), table: job.convertingTable, maxStaleness: options.maxStaleness,
      onDemand: { resolver.resolve($0, table: table) }, resolveGeneral: { _ in AnswerTable() })
    do {
      let (scan, _) = try ODSFormat.scan(FileInput(displayPath: path, readPath: path, outputPath: output), context: context)
      let done = try ODSFormat.convert(scan, context: context, quotes: quotes, standardOutput: -1)
      let content = try ZipPackage(path: output).contents(ofEntryNamed: "content.xml")
      return (Outcome(content: content, counts: done.counts, fields: done.scan.fields), done.scan.workbook.readInOnePass)
    } catch {
      return (Outcome(error: "\(error)"), false)
    }
  }

  /// Writes the document, checks whether the scanner reads it (and then that it reads libxml2's rows), and
  /// that the fast path converts it as the general path does.
  /// `holds`: whether the one-pass road holds (no row wider than the header, no text amount).
  static func check(_ content: String, scanned: Bool, _ comment: String, sheet: String? = nil, holds: Bool = true)
    throws
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try EndToEndODSTests.spreadsheet(content: content, named: "in.ods", in: directory)
    let path = directory.path + "/in.ods"
    let choice = ODSFormat.scannerChoice(sheet) ?? .number(1)
    let rows = try scannedRows(path, choice: choice)
    #expect((rows != nil) == scanned, "\(comment): the scanner \(scanned ? "reads" : "declines") it")
    if let rows { #expect(rows == (try generalRows(path, choice: choice)), "\(comment): the rows libxml2 reads") }
    _ = try FastGeneralDifferentialTests.check(path, format: .ods, comment, parts: [1]) { options in
      options.fixedTo = CurrencyCode("EUR")
      options.sheet = sheet
    }
    // Both roads of the scanner: read once, or in two passes.
    let (once, held) = try convert(path, onePass: true, sheet: sheet)
    let (twice, _) = try convert(path, onePass: false, sheet: sheet)
    #expect(once == twice, "\(comment): the one-pass road writes what the two passes write")
    if scanned, twice.error == nil { #expect(held == holds, "\(comment): the one-pass road \(holds ? "holds" : "gives up")") }
  }

  /// What LibreOffice writes is read by the scanner, row for row as libxml2 reads it.
  @Test(arguments: ["equivalence.ods", "libreoffice.ods"])
  func libreOfficeFixtures(name: String) throws {
    let path = try Fixture.path("Workbooks", name)
    let rows = try #require(try Self.scannedRows(path), "the scanner reads \(name)")
    #expect(rows == (try Self.generalRows(path)))
    #expect(rows.count > 3)
  }

  /// Constructs the scanner reads by the general reader's rules.
  static let handledCases: [(String, String)] = [
    ("plain", record("2024-02-01", "12.25", "CHF")),
    (
      "spaces, tabs, line breaks, spans, links",
      record(
        "2024-02-01", "12.25", "CHF",
        extra:
          #"<table:table-cell office:value-type="string"><text:p>a<text:s/>b<text:s text:c="3"/>c<text:tab/>d<text:line-break/><text:span text:style-name="T1">e <text:a xlink:href="x">f</text:a></text:span></text:p><text:p/><text:p>g</text:p></table:table-cell>"#
      )
    ),
    (
      "references",
      record(
        "2024-02-01", "1&#x32;.25", "&#67;HF",
        extra:
          #"<table:table-cell office:value-type="string" office:string-value="A &amp; B &lt;&gt; &quot;&apos;"><text:p>x</text:p></table:table-cell>"#
      )
    ),
    (
      "a repeated record row",
      record("2024-02-01", "3", "SEK").replacingOccurrences(
        of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"4\"")
    ),
    (
      "repeated cells",
      #"<table:table-row><table:table-cell table:number-columns-repeated="2" office:value-type="float" office:value="5"><text:p>5</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>JPY</text:p></table:table-cell></table:table-row>"#
    ),
    (
      "a count with a sign",
      record("2024-02-01", "3", "SEK").replacingOccurrences(
        of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"+2\"")
    ),
    (
      "other value types",
      record(
        "2024-02-01", "0.5", "USD",
        extra:
          #"<table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell><table:table-cell office:value-type="percentage" office:value="0.25"><text:p>25%</text:p></table:table-cell><table:table-cell office:value-type="currency" office:currency="EUR" office:value="3"><text:p>3 €</text:p></table:table-cell><table:table-cell office:value-type="time" office:time-value="PT12H"><text:p>12:00</text:p></table:table-cell>"#
      )
    ),
    (
      "an error cell and a formula",
      record(
        "2024-02-01", "1", "USD",
        extra:
          #"<table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell><table:table-cell table:formula="of:=A1"/>"#
      )
    ),
    (
      "an error amount",
      #"<table:table-row><table:table-cell office:value-type="date" office:date-value="2024-02-01"><text:p>2024-02-01</text:p></table:table-cell><table:table-cell table:formula="of:=1/0" office:value-type="float" office:value="0" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>USD</text:p></table:table-cell></table:table-row>"#
    ),
    (
      "a short row and an empty row",
      #"<table:table-row><table:table-cell office:value-type="float" office:value="9"><text:p>9</text:p></table:table-cell></table:table-row><table:table-row/><table:table-row table:number-rows-repeated="1000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>"#
    ),
    (
      "trailing empty cells past the fx_* columns",
      record("2024-02-01", "4", "USD", extra: #"<table:table-cell table:number-columns-repeated="1020"/>"#)
    ),
    (
      "a used cell where the fx_* columns go",
      record(
        "2024-02-01", "4", "USD",
        extra:
          #"<table:table-cell table:number-columns-repeated="2"/><table:table-cell office:value-type="string"><text:p>late</text:p></table:table-cell>"#
      )
    ),
    (
      "row groups",
      "<table:table-row-group><table:table-header-rows>" + record("2024-02-01", "4", "NOK")
        + "</table:table-header-rows></table:table-row-group>"
    ),
    (
      "white space between elements",
      "\n  " + record("2024-02-01", "4", "NOK").replacingOccurrences(of: "><table:table-cell", with: ">\n <table:table-cell")
        + "\n"
    ),
    (
      "a covered text without value type, spanned",
      #"<table:table-row><table:table-cell table:number-columns-spanned="2"/><table:table-cell><text:p>loose</text:p></table:table-cell></table:table-row>"#
    ),
  ]

  @Test(arguments: handledCases)
  func handled(name: String, row: String) throws {
    // Rows wider than the header: the one-pass road gives up at them.
    let wider = ["other value types", "an error cell and a formula", "a used cell where the fx_* columns go"]
    try Self.check(
      Self.document(row, root: #"xmlns:xlink="http://www.w3.org/1999/xlink""#), scanned: true, name,
      holds: !wider.contains(name))
  }

  /// Constructs the scanner declines: the general road reads them (or refuses them), and the fast path writes
  /// what it writes.
  static let declinedCases: [(String, String)] = [
    ("a comment", "<!-- note -->"),
    ("a processing instruction", "<?fx note?>"),
    (
      "a CDATA section",
      record(
        "2024-02-01", "4", "USD",
        extra: "<table:table-cell office:value-type=\"string\"><text:p><![CDATA[a<b]]></text:p></table:table-cell>")
    ),
    (
      "an entity other than the predefined",
      record("2024-02-01", "4", "USD", extra: "<table:table-cell><text:p>&nbsp;</text:p></table:table-cell>")
    ),
    (
      "an annotation",
      record(
        "2024-02-01", "4", "USD",
        extra:
          "<table:table-cell office:value-type=\"string\"><office:annotation><text:p>n</text:p></office:annotation><text:p>x</text:p></table:table-cell>"
      )
    ),
    ("a covered cell", record("2024-02-01", "4", "USD", extra: "<table:covered-table-cell/>")),
    (
      "a nested table",
      record(
        "2024-02-01", "4", "USD",
        extra:
          "<table:table-cell><table:table table:name=\"in\"><table:table-row><table:table-cell office:value-type=\"string\"><text:p>x</text:p></table:table-cell></table:table-row></table:table></table:table-cell>"
      )
    ),
    (
      "a heading",
      record(
        "2024-02-01", "4", "USD", extra: "<table:table-cell office:value-type=\"string\"><text:h>x</text:h></table:table-cell>")
    ),
    (
      "a namespace declared below the root",
      record("2024-02-01", "4", "USD", extra: "<table:table-cell xmlns:x=\"urn:x\"><text:p>x</text:p></table:table-cell>")
    ),
    ("an element of another namespace in a row", record("2024-02-01", "4", "USD", extra: "<style:cell/>")),
    (
      "a tab in an attribute",
      record("2024-02-01", "4", "USD", extra: "<table:table-cell office:value-type=\"string\" office:string-value=\"a\tb\"/>")
    ),
    (
      "a carriage return",
      record(
        "2024-02-01", "4", "USD",
        extra: "<table:table-cell office:value-type=\"string\"><text:p>a\r\nb</text:p></table:table-cell>")
    ),
    (
      "a count of rows of 0",
      record("2024-02-01", "4", "USD").replacingOccurrences(
        of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"0\"")
    ),
    ("a number without its value", record("2024-02-01", "4", "USD", extra: "<table:table-cell office:value-type=\"float\"/>")),
    (
      "a count of spaces of 0",
      record("2024-02-01", "4", "USD", extra: "<table:table-cell><text:p>a<text:s text:c=\"0\"/></text:p></table:table-cell>")
    ),
    ("a frame in a cell", record("2024-02-01", "4", "USD", extra: "<table:table-cell><draw:frame/></table:table-cell>")),
    ("shapes in the table", "<table:shapes/>"),
    ("malformed XML", record("2024-02-01", "4", "USD", extra: "<table:table-cell><text:p>x</text:span></table:table-cell>")),
    (
      "a cell past the last column",
      #"<table:table-row><table:table-cell table:number-columns-repeated="16385" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>"#
    ),
  ]

  @Test(arguments: declinedCases)
  func declined(name: String, row: String) throws {
    try Self.check(
      Self.document(row, root: #"xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0""#), scanned: false, name)
  }

  /// A second prefix for the table namespace, a root without ODF's prefixes: declined, and the general road
  /// says what it says.
  @Test func namespaces() throws {
    let other = Self.document(
      Self.record("2024-02-01", "4", "USD").replacingOccurrences(of: "table:table-row", with: "t:table-row"),
      root: #"xmlns:t="urn:oasis:names:tc:opendocument:xmlns:table:1.0""#)
    try Self.check(other, scanned: false, "a second prefix for the table namespace")
    let unbound = Self.document("").replacingOccurrences(
      of: #"xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0""#, with: "")
    try Self.check(unbound, scanned: false, "a root without number:")
  }

  /// The table chosen by name, after another; the styles already there (a converted document's), or absent.
  @Test func tablesAndStyles() throws {
    let second = Self.document("").replacingOccurrences(
      of: "<table:table table:name=\"Hand\">",
      with:
        "<table:table table:name=\"First\"><table:table-row><table:table-cell/></table:table-row></table:table><table:table table:name=\"Hand\">"
    )
    try Self.check(second, scanned: true, "the second table by name", sheet: "Hand")
    try Self.check(second, scanned: true, "the first table, without records", sheet: nil)
    let afterEmpty = Self.document("").replacingOccurrences(
      of: "<table:table table:name=\"Hand\">", with: "<table:table table:name=\"Empty\"/><table:table table:name=\"Hand\">")
    try Self.check(afterEmpty, scanned: false, "a table after an empty one", sheet: "Hand")
    let styled = Self.document("").replacingOccurrences(
      of: "<office:automatic-styles/>",
      with:
        #"<office:automatic-styles><style:style style:name="fxbatch-rate-date" style:family="table-cell"/></office:automatic-styles>"#
    )
    try Self.check(styled, scanned: true, "the styles there already")
    let unstyled = Self.document("").replacingOccurrences(of: "<office:automatic-styles/>", with: "")
    try Self.check(unstyled, scanned: true, "no automatic styles")
    let columns = Self.document(
      "",
      columns:
        #"<table:table-column-group><table:table-column table:number-columns-repeated="5"/></table:table-column-group><office:forms/>"#
    )
    try Self.check(columns, scanned: true, "column groups")
  }

  /// The one-pass road gives up where the rows say otherwise than it assumed: a text amount (the decimal
  /// mark), a slash date (the order of its day and month); the two passes' output either way.
  @Test func onePassGivesUp() throws {
    let textAmount =
      #"<table:table-row><table:table-cell office:value-type="date" office:date-value="2024-02-01"><text:p>2024-02-01</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>1.234,50</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>USD</text:p></table:table-cell></table:table-row>"#
    try Self.check(Self.document(textAmount), scanned: true, "a text amount", holds: false)
    let slashDate =
      #"<table:table-row><table:table-cell office:value-type="string"><text:p>25/02/2024</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="3"><text:p>3</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>USD</text:p></table:table-cell></table:table-row>"#
    try Self.check(Self.document(slashDate), scanned: true, "a slash date", holds: false)
  }

  /// Rows split across the scanner's reads (a document of 1200 rows, over several refills) read the same.
  @Test func manyRows() throws {
    let rows = (0..<1200).map { Self.record("2024-0\($0 % 9 + 1)-1\($0 % 10)", "\($0).25", ["USD", "GBP", "JPY"][$0 % 3]) }
    try Self.check(Self.document(rows.joined()), scanned: true, "1200 rows")
  }
}
