import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 30's `.ods` amplification: a 12 KB spreadsheet whose data row has `table:number-rows-repeated="1048570"`
/// took 810 MB and 14 s (each record's cells were built, kept and written out one by one), and with
/// `table:number-columns-repeated="16000"` on one of its cells was still running after 90 s (a million rows of
/// 16,000 cells each, in pass 1). Repeated rows and columns now cost nothing until they are records; a repeated
/// record row converts once, is counted once for each row, and is written back as one repeated row; a sheet whose
/// cells to write pass ``WorkbookRecords/cellLimit`` is refused from the repeat attributes, before anything is
/// expanded. With --date 2024-01-15 and --to USD: 200 EUR × 1.0945 = 218.90.
@Suite("ODS: repeated rows and columns")
struct ODSRepeatedRowsTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let header = "<table:table-row>\(EndToEndODSTests.text("amount"))\(EndToEndODSTests.text("currency"))</table:table-row>"

  /// A record row of 200 EUR standing for `rows` rows, its currency cell standing for `columns` columns.
  static func records(_ rows: Int, currencyColumns columns: Int = 1) -> String {
    let repeatedColumns = columns > 1 ? #" table:number-columns-repeated="\#(columns)""# : ""
    return #"<table:table-row table:number-rows-repeated="\#(rows)"><table:table-cell office:value-type="float" office:value="200"><text:p>200</text:p></table:table-cell>"#
      + #"<table:table-cell\#(repeatedColumns) office:value-type="string"><text:p>EUR</text:p></table:table-cell></table:table-row>"#
  }

  /// The empty rows and columns LibreOffice writes after the data of every sheet.
  static let trailing =
    #"<table:table-row table:number-rows-repeated="1048553"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>"#

  /// The row elements of the converted copy's table, as the project's reader reads them (a repeated row once).
  static func elements(of path: String) throws -> [ODSRowElement] {
    let table = try ODSBook(readPath: path, displayPath: path).table(nil)
    var elements: [ODSRowElement] = []
    while let element = try table.nextElement() { elements.append(element) }
    return elements
  }

  static let annotation = ["1.0945", "218.90", "USD", "2024-01-15", "ecb-embedded EUR/USD=1.0945", "ok", ""]

  /// The issue's first example: a million records from one row element, converted and written in constant
  /// memory and time, every one of them counted.
  @Test func aMillionRepeatedRecordsConvertAsOneRowElement() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: Self.header + Self.records(1_048_570)), named: "book.ods", in: directory)
    #expect(try FileManager.default.attributesOfItem(atPath: directory.path + "/book.ods")[.size] as? Int ?? 0 < 16_000)
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--date", "2024-01-15", "--to", "USD", directory.path + "/book.ods"],
      in: directory.url, environment: cli.environment, timeLimit: 60)
    #expect(!run.timedOut)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("1048570 records: 1048570 ok, 0 fallback, 0 error [ODS]"), "\(run.standardError)")
    #expect(run.standardError.contains("USD, 1048570 records: sum of rounded amounts 229531973.00"))
    // 810 MB and 14 s before; about 38 MB and 0.1 s now.
    #expect(run.peakResidentKiB > 0)
    #expect(run.peakResidentKiB < 150 * 1024, "peaked at \(run.peakResidentKiB) KiB")
    #expect(run.seconds < 20, "took \(run.seconds) s")
    let output = directory.path + "/book.converted.ods"
    #expect(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? .max < 16_000)
    let elements = try Self.elements(of: output)
    #expect(elements.map(\.repeated) == [1, 1_048_570])
    let records = try #require(elements.last)
    #expect(EndToEndODSTests.values(of: records.row(0), from: 2, count: 7) == Self.annotation)
    #expect(EndToEndODSTests.values(of: records.row(1_048_569), from: 2, count: 7) == Self.annotation)
  }

  /// The issue's second example: a cell of the repeated row stands for 16,000 columns. The sheet would be 16.8
  /// billion cells: refused at once, from the repeat attributes.
  @Test func repeatedColumnsOfARepeatedRowPastTheCellLimitAreRefusedAtOnce() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: Self.header + Self.records(1_048_570, currencyColumns: 16_000)),
      named: "book.ods", in: directory)
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--date", "2024-01-15", "--to", "USD", directory.path + "/book.ods"],
      in: directory.url, environment: cli.environment, timeLimit: 60)
    #expect(!run.timedOut)
    #expect(run.status == 2)
    let lines = run.standardError.split(separator: "\n").filter { $0.contains("book.ods:") }
    #expect(lines.count == 1)
    #expect(
      lines.first?.hasSuffix(
        #"book.ods:2:1: error: sheet "Hand", row 2: the annotated copy would hold more than 100000000 cells (each row with a value counts its columns to its last used one and the 7 fx_* cells, once for each row it stands for): refused so that time and memory stay bounded"#
      ) == true, "\(lines)")
    // Still running after 90 s before; about 0.1 s now.
    #expect(run.peakResidentKiB < 150 * 1024, "peaked at \(run.peakResidentKiB) KiB")
    #expect(run.seconds < 10, "took \(run.seconds) s")
    #expect(try directory.fileNames() == ["book.ods"])
  }

  /// Under the limit, the same row of a few records converts: the limit counts cells, not the repeat.
  /// A record row repeated past the sheet's last row, or a cell repeated past its last column, says which.
  @Test func repeatsPastTheSheetSayWhichEdge() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (name, rows, message) in [
      ("rows.ods", Self.records(1_048_576), "row 2, repeated, has cells with a value down to row 1048577, past the last row"),
      ("columns.ods", Self.records(2, currencyColumns: 16_384), "row 2 has a cell with a value in column 16385, past the last"),
    ] {
      try EndToEndODSTests.spreadsheet(
        content: EndToEndODSTests.content(rows: Self.header + rows), named: name, in: directory)
      let run = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", name], in: directory.url)
      #expect(run.status == 2)
      #expect(run.standardError.contains(message), "\(run.standardError)")
    }
  }

  @Test func theCellLimitCountsEachRowsColumns() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // 6,000 rows × (16,001 columns + 7) = 96,048,000 cells, and the header's 2 + 7: under 100,000,000.
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: Self.header + Self.records(6_000, currencyColumns: 16_000)),
      named: "under.ods", in: directory)
    // 6,300 rows: 100,850,400.
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: Self.header + Self.records(6_300, currencyColumns: 16_000)),
      named: "over.ods", in: directory)
    let under = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "under.ods"], in: directory.url)
    #expect(under.status == 0, "\(under.standardError)")
    #expect(under.standardError.contains("6000 records: 6000 ok"))
    let records = try #require(try Self.elements(of: directory.path + "/under.converted.ods").last)
    #expect(records.repeated == 6_000)
    #expect(EndToEndODSTests.values(of: records.row(0), from: 16_001, count: 7) == Self.annotation)
    let over = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "over.ods"], in: directory.url)
    #expect(over.status == 2)
    #expect(over.standardError.contains("would hold more than 100000000 cells"))
  }

  /// Thousands of row elements, each a cell standing for 16,000 columns (varied, so that the part does not
  /// deflate like a zip bomb): blank ones (covered cells) before the header, records after it, and records under
  /// a header cell repeated as far (whose samples are gathered to the 10,000th record while its column has no
  /// value). A repeated cell is made only in the columns read, and sampled as one value per header name it is
  /// under, so each row costs what its markup does: a 6,000-row sheet of records took 30 s when each row's
  /// 16,000 cells were made, in each pass; under the repeated header, 93 s.
  @Test(arguments: ["blank rows", "records", "records under a repeated header cell", "records under 16,000 names"])
  func manyRowsOfRepeatedColumnsCostTheirMarkup(kind: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var rows = ""
    for index in 0..<6_000 {
      let text = String(index * 7_919 % 1_000_003, radix: 36)
      switch kind {
      case "records":
        rows +=
          #"<table:table-row><table:table-cell office:value-type="float" office:value="200"><text:p>200</text:p></table:table-cell><table:table-cell table:number-columns-repeated="16000" office:value-type="string"><text:p>note \#(text)</text:p></table:table-cell></table:table-row>"#
      case "blank rows":
        rows +=
          #"<table:table-row table:style-name="ro\#(text)"><table:covered-table-cell table:number-columns-repeated="16000"/><table:table-cell office:value-type="string"><text:p> </text:p></table:table-cell></table:table-row>"#
      case "records under 16,000 names":
        // Values fill the named fields at once; the covered cell under "blank" keeps the samples gathered.
        rows +=
          #"<table:table-row table:style-name="ro\#(text)"><table:table-cell office:value-type="float" office:value="200"><text:p>200</text:p></table:table-cell>\#(EndToEndODSTests.text("EUR"))<table:table-cell table:number-columns-repeated="16000" office:value-type="string"><text:p>v</text:p></table:table-cell><table:covered-table-cell/></table:table-row>"#
      default:
        rows +=
          #"<table:table-row table:style-name="ro\#(text)"><table:table-cell office:value-type="float" office:value="200"><text:p>200</text:p></table:table-cell>\#(EndToEndODSTests.text("EUR"))<table:covered-table-cell table:number-columns-repeated="16000"/></table:table-row>"#
      }
    }
    let namedHeader = Self.header.replacingOccurrences(
      of: "</table:table-row>",
      with: (0..<16_000).map { EndToEndODSTests.text("h\($0)") }.joined() + EndToEndODSTests.text("blank") + "</table:table-row>")
    let repeatedHeader = Self.header.replacingOccurrences(
      of: "</table:table-row>",
      with: #"<table:table-cell table:number-columns-repeated="16000" office:value-type="string"><text:p>note</text:p></table:table-cell></table:table-row>"#)
    let content =
      switch kind {
      case "records": Self.header + rows
      case "blank rows": rows + Self.header + Self.records(1)
      case "records under 16,000 names": namedHeader + rows
      default: repeatedHeader + rows
      }
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: content), named: "book.ods", in: directory)
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--date", "2024-01-15", "--to", "USD", directory.path + "/book.ods"],
      in: directory.url, environment: cli.environment, timeLimit: 60)
    #expect(!run.timedOut)
    // About 2.6 s for the records (a debug build on a loaded machine), the time of their 1.5 MB of markup.
    #expect(run.seconds < 20, "took \(run.seconds) s")
    #expect(run.peakResidentKiB < 150 * 1024, "peaked at \(run.peakResidentKiB) KiB")
    switch kind {
    case "records":
      // The records' currencies are the cells' texts, which name none.
      #expect(run.standardError.contains("6000 records: 0 ok, 0 fallback, 6000 error (unknown_currency 6000)"), "\(run.standardError)")
    case "records under a repeated header cell", "records under 16,000 names":
      // 93 s and 68 s before the samples were read from the runs.
      #expect(run.standardError.contains("6000 records: 6000 ok, 0 fallback, 0 error"), "\(run.standardError)")
    default:
      // The covered cells reach the 16,000th column, and the whitespace cell the next: the fx_* cells follow.
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardError.contains("1 record: 1 ok"), "\(run.standardError)")
      let records = try #require(try Self.elements(of: directory.path + "/book.converted.ods").last)
      #expect(EndToEndODSTests.values(of: records.row(0), from: 16_001, count: 7) == Self.annotation)
    }
  }

  /// `text:s` repeats spaces: 10,000 of 32,767 spaces each in one cell (an 11 KB spreadsheet) made a text of
  /// 327 million characters, 65 s and 595 MB. A row's `text:s` stand for at most a mebibyte of spaces; the row
  /// at the limit converts.
  @Test func runsOfSpacesAreBoundedPerRow() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func row(spaces elements: Int) -> String {
      #"<table:table-row><table:table-cell office:value-type="float" office:value="200"><text:p>200</text:p></table:table-cell>\#(EndToEndODSTests.text("EUR"))"#
        + #"<table:table-cell office:value-type="string"><text:p>a\#(String(repeating: #"<text:s text:c="32767"/>"#, count: elements))b</text:p></table:table-cell></table:table-row>"#
    }
    let header = Self.header.replacingOccurrences(of: "</table:table-row>", with: "\(EndToEndODSTests.text("note"))</table:table-row>")
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: header + row(spaces: 10_000)), named: "hostile.ods", in: directory)
    // 32 × 32,767 = 1,048,544 spaces: at the limit.
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: header + row(spaces: 32) + row(spaces: 32)), named: "long.ods", in: directory)
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--date", "2024-01-15", "--to", "USD", directory.path + "/hostile.ods"],
      in: directory.url, environment: cli.environment, timeLimit: 60)
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("hostile.ods:1:1: error: content.xml:2: a row whose text:s elements stand for more than 1048576 spaces"),
      "\(run.standardError)")
    #expect(run.seconds < 10, "took \(run.seconds) s")
    #expect(run.peakResidentKiB < 150 * 1024, "peaked at \(run.peakResidentKiB) KiB")
    let long = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "long.ods"], in: directory.url)
    #expect(long.status == 0, "\(long.standardError)")
    let converted = try EndToEndODSTests.rows(of: directory.path + "/long.converted.ods")
    #expect(EndToEndODSTests.values(of: converted[2], from: 2, count: 1) == ["a" + String(repeating: " ", count: 32 * 32_767) + "b"])
  }

  /// A repeated record row is that many records, each with its fx_* cells when the copy is read back, and the
  /// LibreOffice-style trailing empty rows and columns stay one element, unexpanded and without cells.
  @Test func aRepeatedRecordRowIsThatManyAnnotatedRecords() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows =
      Self.header.replacingOccurrences(of: "</table:table-row>", with: #"<table:table-cell table:number-columns-repeated="1022"/></table:table-row>"#)
      + Self.records(3).replacingOccurrences(of: "</table:table-row>", with: #"<table:table-cell table:number-columns-repeated="1022"/></table:table-row>"#)
      + Self.trailing
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(
        rows: rows, columns: #"<table:table-column table:number-columns-repeated="1024"/>"#),
      named: "book.ods", in: directory)
    let result = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "book.ods"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("3 records: 3 ok, 0 fallback, 0 error [ODS]"))
    let output = directory.path + "/book.converted.ods"
    let converted = try EndToEndODSTests.rows(of: output)
    #expect(converted.map(\.number) == [1, 2, 3, 4, 5])
    #expect(EndToEndODSTests.values(of: converted[0], from: 2, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
    for record in converted[1...3] {
      #expect(EndToEndODSTests.values(of: record, from: 0, count: 2) == ["200", "EUR"])
      #expect(EndToEndODSTests.values(of: record, from: 2, count: 7) == Self.annotation)
    }
    #expect(converted[4].cells.isEmpty)
    let written = String(
      decoding: try ZipPackage(path: output).contents(ofEntryNamed: "content.xml"), as: UTF8.self)
    #expect(written.contains(Self.trailing))
    // The records' trailing empty cells make room for the fx_* cells and keep the row's width.
    #expect(written.contains(#"<table:table-cell table:number-columns-repeated="1015"/></table:table-row>"#))
    #expect(try Self.elements(of: output).map(\.repeated) == [1, 3, 1_048_553])
  }

  /// Records whose cells hold what a field cannot be name the repeated row's cells as one range (so that they
  /// convert once), and are each an error.
  @Test func aRepeatedRowOfErrorsNamesItsCellsAsARange() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows =
      Self.header
      + #"<table:table-row table:number-rows-repeated="500000"><table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>\#(EndToEndODSTests.text("EUR"))</table:table-row>"#
      + #"<table:table-row><table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>\#(EndToEndODSTests.text("EUR"))</table:table-row>"#
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: rows), named: "book.ods", in: directory)
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--date", "2024-01-15", "--to", "USD", directory.path + "/book.ods"],
      in: directory.url, environment: cli.environment, timeLimit: 60)
    #expect(run.status == 1, "\(run.standardError)")
    #expect(run.standardError.contains("500001 records: 0 ok, 0 fallback, 500001 error (invalid_amount 500001) [ODS]"))
    #expect(run.seconds < 20, "took \(run.seconds) s")
    let elements = try Self.elements(of: directory.path + "/book.converted.ods")
    #expect(elements.map(\.repeated) == [1, 500_000, 1])
    #expect(
      EndToEndODSTests.values(of: elements[1].row(7), from: 2, count: 7).last
        == "invalid_amount: the amount is the boolean TRUE of cells A2:A500001 (a repeated row), not a number or a string")
    #expect(
      EndToEndODSTests.values(of: elements[2].row(0), from: 2, count: 7).last
        == "invalid_amount: the amount is the boolean TRUE of cell A500002, not a number or a string")
  }

  /// A repeated row's records each count as evidence of the decimal mark: three records of `1,50` outweigh two
  /// of `2.50` (counted once each, the mark would be a tie, and undecided).
  @Test func eachRepeatedRecordCountsForTheDecimalMark() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func row(_ amount: String, repeated: Int) -> String {
      #"<table:table-row table:number-rows-repeated="\#(repeated)">\#(EndToEndODSTests.text(amount))\#(EndToEndODSTests.text("EUR"))</table:table-row>"#
    }
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: Self.header + row("1,50", repeated: 3) + row("2.50", repeated: 1) + row("3.50", repeated: 1)),
      named: "book.ods", in: directory)
    let result = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "book.ods"], in: directory.url)
    #expect(result.standardError.contains("5 records: 3 ok, 0 fallback, 2 error"), "\(result.standardError)")
    let converted = try EndToEndODSTests.rows(of: directory.path + "/book.converted.ods")
    // 1,50 EUR × 1.0945 = 1.64175 → 1.64
    #expect(EndToEndODSTests.values(of: converted[1], from: 3, count: 1) == ["1.64"])
    #expect(EndToEndODSTests.values(of: converted[3], from: 3, count: 1) == ["1.64"])
  }

  /// A repeated row across `--header-row`: its rows above are copied without cells, the one at the header row is
  /// the header, and the rest are records (of the header's texts: errors), in both passes.
  @Test func aRepeatedRowAcrossTheHeaderRow() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = Self.header.replacingOccurrences(of: "<table:table-row>", with: #"<table:table-row table:number-rows-repeated="4">"#)
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: header + Self.records(2)), named: "book.ods", in: directory)
    let result = try cli.run(
      ["convert", "--date", "2024-01-15", "--to", "USD", "--header-row", "2", "book.ods"], in: directory.url)
    #expect(result.standardError.contains("4 records: 2 ok, 0 fallback, 2 error"), "\(result.standardError)")
    let output = directory.path + "/book.converted.ods"
    #expect(try Self.elements(of: output).map(\.repeated) == [1, 1, 2, 2])
    let converted = try EndToEndODSTests.rows(of: output)
    #expect(converted.map(\.number) == [1, 2, 3, 4, 5, 6])
    #expect(converted[0].cells.count == 2)
    #expect(EndToEndODSTests.values(of: converted[1], from: 2, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
    #expect(EndToEndODSTests.values(of: converted[2], from: 7, count: 1) == ["error"])
    #expect(EndToEndODSTests.values(of: converted[3], from: 7, count: 1) == ["error"])
    #expect(EndToEndODSTests.values(of: converted[5], from: 2, count: 7) == Self.annotation)
  }
}

/// The samples of a row given as runs (``FieldSamples/add(counted:)``): a value standing for several fields of
/// one name is added as often as `add(_:)` adds it once per field.
@Suite("ODS: samples of repeated cells")
struct ODSRepeatedSamplesTests {
  /// A column of dates under a name fxbatch does not know refuses the sheet from its samples: the same when its
  /// cells are written repeated (over columns of one header name, and over rows) as when they are written out.
  @Test func repeatedCellsGiveTheSamplesOfTheirCells() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = EndToEndODSTests.text
    func record(_ cells: String, rows: Int = 1) -> String {
      #"<table:table-row table:number-rows-repeated="\#(rows)"><table:table-cell office:value-type="float" office:value="100"><text:p>100</text:p></table:table-cell>\#(text("USD"))\#(text("EUR"))\#(cells)</table:table-row>"#
    }
    let header = "<table:table-row>\(text("amount"))\(text("currency"))\(text("to"))\(text("Booked"))\(text("Booked"))\(text("note"))</table:table-row>"
    let date = #"<table:table-cell office:value-type="date" office:date-value="2024-04-08"><text:p>08/04/2024</text:p></table:table-cell>"#
    let repeatedDate = date.replacingOccurrences(of: "<table:table-cell ", with: #"<table:table-cell table:number-columns-repeated="2" "#)
    let written = header + String(repeating: record(date + date + text("x")), count: 3) + record("<table:covered-table-cell/>" + date + text("y"))
    let repeated = header + record(repeatedDate + text("x"), rows: 3) + record("<table:covered-table-cell/>" + date + text("y"))
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: written), named: "written.ods", in: directory)
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: repeated), named: "repeated.ods", in: directory)
    func refusal(_ name: String) throws -> String {
      let result = try cli.run(["convert", name], in: directory.url)
      #expect(result.status == 2, "\(name): \(result.standardError)")
      return result.standardError.split(separator: "\n").filter { $0.hasPrefix(name + ":") }.map {
        String($0.dropFirst(name.count))
      }.joined(separator: "\n")
    }
    let expected = try refusal("written.ods")
    #expect(expected.contains(#""Booked""#), "\(expected)")
    #expect(try refusal("repeated.ods") == expected)
  }

  @Test func aCountedValueIsAddedAsOftenAsItsFields() {
    let counted: [(name: String, value: String?, times: Int)] = [
      ("note", "x", 3), ("skip", "s", 2), ("note", "y", 4), ("other", nil, 9), ("other", " z ", 2), ("last", "w", 1),
    ]
    var bySum = FieldSamples(skipping: ["skip"])
    var oneByOne = FieldSamples(skipping: ["skip"])
    for _ in 0..<3 {
      bySum.add(counted: counted)
      oneByOne.add(counted.flatMap { field in Array(repeating: (name: field.name, value: field.value), count: field.times) })
    }
    #expect(bySum.names == ["note", "other", "last"])
    #expect(bySum.names == oneByOne.names)
    #expect(bySum.values == oneByOne.values)
    #expect(bySum.values == [["x", "x", "x", "y", "y"], ["z", "z", "z", "z", "z"], ["w", "w", "w"]])
    #expect(bySum.records == oneByOne.records)
    #expect(bySum.isComplete == oneByOne.isComplete)
  }
}
