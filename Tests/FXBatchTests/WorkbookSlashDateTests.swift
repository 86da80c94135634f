import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The order of a workbook's slash dates written as text (`13/04/2024`) is inferred from its date column as a
/// CSV file's is (``DateLayoutInference``, issue 32): `.xlsx` (inline and shared strings, the sheet scanner, the
/// general reader and the one-pass road) and `.ods` convert as the CSV of the same dates does, and a number
/// cell (a serial date) proves nothing.
@Suite("workbook slash dates")
struct WorkbookSlashDateTests {
  /// A date column of the issue: its dates, the order it proves (the report's `slashDates`), and each record's
  /// rate day (`""`: refused). 2024-04-03 (a Wednesday) and 2024-04-12 (the Friday before Saturday the 13th)
  /// have rates.
  struct Column: Sendable, CustomTestStringConvertible {
    let name: String
    let dates: [String]
    let slashDates: String?
    let days: [String]
    var testDescription: String { name }
  }

  static let columns = [
    Column(
      name: "day-first", dates: ["13/04/2024", "03/04/2024"], slashDates: "day-first",
      days: ["2024-04-12", "2024-04-03"]),
    Column(
      name: "month-first", dates: ["04/13/2024", "03/04/2024"], slashDates: "month-first",
      days: ["2024-04-12", "2024-03-04"]),
    Column(
      name: "mixed", dates: ["13/04/2024", "04/13/2024", "03/04/2024", "2024-04-03"], slashDates: "mixed",
      days: ["", "", "", "2024-04-03"]),
    Column(name: "ambiguous", dates: ["03/04/2024", "05/06/2024"], slashDates: nil, days: ["", ""]),
  ]

  /// 10 USD to EUR on each date.
  static func records(_ dates: [String]) -> [SpreadsheetDoubleTests.Record] {
    dates.map { (typed: "10", from: "USD", to: "EUR", date: $0) }
  }

  /// An `.xlsx` whose currencies and dates are shared strings (`t="s"`), as Excel and LibreOffice write text.
  static func sharedStringsWorkbook(_ dates: [String], in directory: TemporaryDirectory, named name: String) throws
    -> String
  {
    let strings = SpreadsheetDoubleTests.header + ["USD", "EUR"] + dates
    func shared(_ reference: String, _ index: Int) -> String { #"<c r="\#(reference)" t="s"><v>\#(index)</v></c>"# }
    var rows = ["<row r=\"1\">" + ["A1", "B1", "C1", "D1"].enumerated().map { shared($1, $0) }.joined() + "</row>"]
    for index in dates.indices {
      let row = index + 2
      rows.append(
        "<row r=\"\(row)\">" + XLSXOnePassTests.number("A\(row)", "10") + shared("B\(row)", 4) + shared("C\(row)", 5)
          + shared("D\(row)", 6 + index) + "</row>")
    }
    let sst =
      #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="\#(strings.count)" uniqueCount="\#(strings.count)">"#
      + strings.map { "<si><t>\($0)</t></si>" }.joined() + "</sst>"
    let path = directory.path + "/" + name
    try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx")).write(
      to: path,
      replacing: [
        ("xl/worksheets/sheet1.xml", .bytes(XLSXOnePassTests.sheet(rows))), ("xl/sharedStrings.xml", .bytes(Array(sst.utf8))),
      ])
    return path
  }

  /// What converting a file (embedded ECB history) gave: each record's fx values, and the file's report.
  static func convert(_ input: String, fastPath: Bool, configure: (inout BatchOptions) -> Void = { _ in }) throws -> (
    values: [[String]], file: RunReport.File?, summary: String
  ) {
    let output = input + ".out-\(fastPath)." + PathText.splitExtension(input).extension
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(output)
    options.fastPath = fastPath
    configure(&options)
    let report = BatchJob(options: options, source: .table(EmbeddedECBHistory.table)).run()
    #expect(report.files.first?.fileError == nil, "\(input)")
    return (try SpreadsheetDoubleTests.values(of: output), report.files.first, RunSummary.text(of: report))
  }

  /// Converts each file on the fast and the general path; each must give the CSV's values and report the CSV's
  /// order.
  ///
  /// - Returns: the CSV's values and report.
  static func expectSameAsCSV(
    _ paths: [String], _ comment: String, configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> (values: [[String]], file: RunReport.File?) {
    let csv = try convert(paths[0], fastPath: false, configure: configure)
    for path in paths {
      for fastPath in [true, false] {
        let converted = try convert(path, fastPath: fastPath, configure: configure)
        let name = "\(comment): \(PathText.splitExtension(path).extension), fast path \(fastPath)"
        #expect(converted.values.count == csv.values.count, "\(name)")
        if let index = converted.values.indices.first(where: { $0 < csv.values.count && converted.values[$0] != csv.values[$0] })
        {
          Issue.record("\(name): record \(index + 1) is \(converted.values[index]), not \(csv.values[index])")
        }
        #expect(converted.file?.slashDates == csv.file?.slashDates, "\(name)")
        #expect(converted.file?.counts == csv.file?.counts, "\(name)")
      }
    }
    return (csv.values, csv.file)
  }

  @Test(arguments: columns)
  func workbooksInferAsTheCSV(column: Column) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = Self.records(column.dates)
    let amounts = records.map(\.typed)
    let paths = [
      try directory.write(SpreadsheetDoubleTests.csv(records), named: "dates.csv"),
      try SpreadsheetDoubleTests.xlsx(records, amounts: amounts, in: directory, named: "inline.xlsx"),
      try Self.sharedStringsWorkbook(column.dates, in: directory, named: "shared.xlsx"),
      try SpreadsheetDoubleTests.ods(records, amounts: amounts, in: directory, named: "dates.ods"),
    ]
    let (values, file) = try Self.expectSameAsCSV(paths, column.name)
    #expect(values.map { $0[3] } == column.days)
    #expect(file?.slashDates == column.slashDates)
    let refused = values.filter { $0[5] == "error" }.map { $0[6] }
    #expect(refused.count == column.days.filter(\.isEmpty).count)
    switch column.name {
    case "mixed":
      #expect(refused.allSatisfy { $0.contains("no --date-format reads both; fix the dates at the source") })
      #expect(
        refused.contains {
          $0.contains("is ambiguous (day/month or month/day?), and the column has day-first and month-first dates")
        })
    case "ambiguous":
      #expect(
        refused.allSatisfy { $0.hasSuffix("is ambiguous (day/month or month/day?); pass --date-format dmy or --date-format mdy") }
      )
    default: break
    }
  }

  /// Past the first records (``FieldSamples``) the `.xlsx` sheet scanner reads a row's date in place, from an
  /// inline or a shared string (``XLSXRowDecoder/dateEvidence(_:in:)``): a proof in the last row counts there too.
  @Test(arguments: ["day-first", "mixed"])
  func proofsAfterTheSamples(order: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let dates =
      (0..<300).map { "0\($0 % 9 + 1)/0\($0 % 3 + 1)/2024" } + (order == "mixed" ? ["04/13/2024"] : []) + ["13/04/2024"]
    let records = Self.records(dates)
    let paths = [
      try directory.write(SpreadsheetDoubleTests.csv(records), named: "dates.csv"),
      try SpreadsheetDoubleTests.xlsx(records, amounts: records.map(\.typed), in: directory, named: "inline.xlsx"),
      try Self.sharedStringsWorkbook(dates, in: directory, named: "shared.xlsx"),
      try SpreadsheetDoubleTests.ods(records, amounts: records.map(\.typed), in: directory, named: "dates.ods"),
    ]
    let (values, file) = try Self.expectSameAsCSV(paths, "\(order), proof last")
    #expect(file?.slashDates == order)
    #expect(
      values.filter { $0[5] == "error" }.count == (order == "mixed" ? dates.count : 0),
      "every slash date is refused in a mixed column")
  }

  /// The summary line and the report say what was inferred, as for a CSV file; a `--date-format` given is never
  /// overridden.
  @Test func summaryAndGivenFormat() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = Self.records(["13/04/2024", "03/04/2024"])
    let amounts = records.map(\.typed)
    for path in [
      try SpreadsheetDoubleTests.xlsx(records, amounts: amounts, in: directory, named: "d.xlsx"),
      try SpreadsheetDoubleTests.ods(records, amounts: amounts, in: directory, named: "d.ods"),
    ] {
      let inferred = try Self.convert(path, fastPath: true)
      #expect(inferred.summary.contains("day-first dates (inferred from the dates)"), "\(path)")
      let given = try Self.convert(path, fastPath: true) { $0.dateFormat = .monthDayYear }
      #expect(given.file?.slashDates == nil)
      #expect(given.file?.counts.error == 1, "\(path): 13/04/2024 is no month-first date")
    }
    let mixed = try Self.convert(
      try SpreadsheetDoubleTests.xlsx(
        Self.records(["13/04/2024", "04/13/2024"]), amounts: ["10", "10"], in: directory, named: "m.xlsx"),
      fastPath: true)
    #expect(mixed.summary.contains("slash dates of both orders (13/04, 04/13): refused; fix them at the source"))
  }

  /// A number cell in the date column (a serial date in a date style, an `.ods` date cell) is a day, not a text
  /// that could be read two ways: 2024-04-13 written as a date proves nothing, and `03/04/2024` beside it stays
  /// ambiguous. The same day written as the text `13/04/2024` proves day-first.
  @Test func dateCellsProveNothing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let serial = try #require(CalendarDay(iso8601: "2024-04-13")).daysSinceEpoch + 25_569
    func xlsx(_ first: String, named name: String) throws -> String {
      let rows = [
        "<row r=\"1\">"
          + zip(["A", "B", "C", "D"], SpreadsheetDoubleTests.header).map {
            XLSXOnePassTests.text("\($0)1", $1)
          }.joined() + "</row>",
        "<row r=\"2\">" + XLSXOnePassTests.number("A2", "10") + XLSXOnePassTests.text("B2", "USD")
          + XLSXOnePassTests.text("C2", "EUR") + first + "</row>",
        "<row r=\"3\">" + XLSXOnePassTests.number("A3", "10") + XLSXOnePassTests.text("B3", "USD")
          + XLSXOnePassTests.text("C3", "EUR") + XLSXOnePassTests.text("D3", "03/04/2024") + "</row>",
      ]
      return try XLSXRowCollectorTests.workbook(sheet: XLSXOnePassTests.sheet(rows), in: directory, named: name)
    }
    func ods(_ first: String, named name: String) throws -> String {
      func row(_ cells: [String]) -> String { "<table:table-row>" + cells.joined() + "</table:table-row>" }
      let rows =
        row(SpreadsheetDoubleTests.header.map(EndToEndODSTests.text))
        + row(
          [#"<table:table-cell office:value-type="float" office:value="10"/>"#] + ["USD", "EUR"].map(EndToEndODSTests.text) + [
            first
          ])
        + row(
          [#"<table:table-cell office:value-type="float" office:value="10"/>"#]
            + ["USD", "EUR", "03/04/2024"].map(EndToEndODSTests.text))
      try EndToEndODSTests.spreadsheet(
        content: EndToEndODSTests.content(rows: rows, columns: "<table:table-column table:number-columns-repeated=\"4\"/>"),
        named: name, in: directory)
      return directory.path + "/" + name
    }
    let dated = [
      try xlsx(XLSXOnePassTests.number("D2", String(serial), style: 1), named: "serial.xlsx"),
      try ods(
        #"<table:table-cell office:value-type="date" office:date-value="2024-04-13"><text:p>13/04/2024</text:p></table:table-cell>"#,
        named: "date.ods"),
    ]
    let written = [
      try xlsx(XLSXOnePassTests.text("D2", "13/04/2024"), named: "text.xlsx"),
      try ods(EndToEndODSTests.text("13/04/2024"), named: "text.ods"),
    ]
    for fastPath in [true, false] {
      for path in dated {
        let converted = try Self.convert(path, fastPath: fastPath)
        #expect(converted.file?.slashDates == nil, "\(path)")
        #expect(converted.values.map { $0[3] } == ["2024-04-12", ""], "\(path), fast path \(fastPath)")
        #expect(converted.values.last?[6].contains("is ambiguous") == true, "\(path)")
      }
      for path in written {
        let converted = try Self.convert(path, fastPath: fastPath)
        #expect(converted.file?.slashDates == "day-first", "\(path)")
        #expect(converted.values.map { $0[3] } == ["2024-04-12", "2024-04-03"], "\(path), fast path \(fastPath)")
      }
    }
  }

  /// An `.ods` repeated row stands for its rows: its date is their evidence.
  @Test func repeatedRowProves() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func row(_ cells: [String], repeated: Int = 1) -> String {
      (repeated > 1 ? "<table:table-row table:number-rows-repeated=\"\(repeated)\">" : "<table:table-row>")
        + cells.joined() + "</table:table-row>"
    }
    let amount = #"<table:table-cell office:value-type="float" office:value="10"/>"#
    let rows =
      row(SpreadsheetDoubleTests.header.map(EndToEndODSTests.text))
      + row([amount] + ["USD", "EUR", "03/04/2024"].map(EndToEndODSTests.text))
      + row([amount] + ["USD", "EUR", "04/13/2024"].map(EndToEndODSTests.text), repeated: 3)
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: rows, columns: "<table:table-column table:number-columns-repeated=\"4\"/>"),
      named: "repeated.ods", in: directory)
    let converted = try Self.convert(directory.path + "/repeated.ods", fastPath: true)
    #expect(converted.file?.slashDates == "month-first")
    #expect(converted.file?.counts.records == 4)
    #expect(converted.file?.counts.error == 0, "04/13/2024 reads month-first, and so does 03/04/2024")
    #expect(converted.values.map { $0[3] } == ["2024-03-04"] + Array(repeating: "2024-04-12", count: 3))
  }

  /// Under a local table a sheet is read once and written as it is read (``XLSXFormat/convertInOnePass(_:context:quotes:)``)
  /// only while no date proves an order: a proof, first or after hundreds of rows written, sends it down the two
  /// passes, which write the same bytes; a column of only ambiguous dates keeps the road.
  @Test func oneRoadTakesTheProof() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func workbook(_ dates: [String], named name: String) throws -> String {
      let records = Self.records(dates)
      return try SpreadsheetDoubleTests.xlsx(records, amounts: records.map(\.typed), in: directory, named: name)
    }
    let many = (0..<300).map { "0\($0 % 9 + 1)/0\($0 % 3 + 1)/2024" }
    for (dates, name, holds) in [
      (["13/04/2024"] + many, "proof first", false), (many + ["13/04/2024"], "proof last", false),
      (many + ["13/04/2024", "04/13/2024"], "proofs of both", false), (many, "only ambiguous", true),
      (["2024-04-03", "03.04.2024"], "no slash dates", true),
    ] {
      let path = try workbook(dates, named: name.replacingOccurrences(of: " ", with: "-") + ".xlsx")
      let (held, outcome) = try XLSXOnePassTests.check(path, name)
      #expect(held == holds, "\(name)")
      #expect(outcome.error == nil, "\(name)")
      if name.hasPrefix("proof ") { #expect(outcome.counts?.error == 0, "\(name): every date reads day-first") }
    }
  }

  /// Workbooks openpyxl writes (as pandas' `to_excel` does) with text dates, and with Python dates (serial
  /// numbers in a date style) beside one text date.
  @Test(.enabled(if: OpenPyXL.python != nil)) func openpyxlWorkbooksInferAsTheCSV() throws {
    let python = try #require(OpenPyXL.python)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let script = """
      import csv, datetime, sys, openpyxl
      book = openpyxl.Workbook()
      sheet = book.active
      with open(sys.argv[1], newline="") as file:
          for index, row in enumerate(csv.reader(file)):
              if index > 0:
                  row[0] = float(row[0])
                  if sys.argv[3] == "dates" and row[3][:4].isdigit():
                      row[3] = datetime.date.fromisoformat(row[3])
              sheet.append(row)
      book.save(sys.argv[2])
      """
    for column in Self.columns {
      let csv = try directory.write(SpreadsheetDoubleTests.csv(Self.records(column.dates)), named: column.name + ".csv")
      let xlsx = directory.path + "/" + column.name + ".xlsx"
      try #require(try TestTools.run(python, ["-c", script, csv, xlsx, "text"]).status == 0)
      let (values, file) = try Self.expectSameAsCSV([csv, xlsx], "openpyxl, \(column.name)")
      #expect(values.map { $0[3] } == column.days, "\(column.name)")
      #expect(file?.slashDates == column.slashDates, "\(column.name)")
    }
    // 2024-04-13 as a Python date is a serial: `03/04/2024` beside it stays ambiguous.
    let csv = try directory.write(SpreadsheetDoubleTests.csv(Self.records(["2024-04-13", "03/04/2024"])), named: "dates.csv")
    let xlsx = directory.path + "/dates.xlsx"
    try #require(try TestTools.run(python, ["-c", script, csv, xlsx, "dates"]).status == 0)
    let sheet = try ZipPackage(path: xlsx).contents(ofEntryNamed: "xl/worksheets/sheet1.xml")
    #expect(String(decoding: sheet, as: UTF8.self).contains("<v>45395</v>"), "openpyxl writes the date as a serial")
    let (values, file) = try Self.expectSameAsCSV([csv, xlsx], "openpyxl, Python dates")
    #expect(values.map { $0[3] } == ["2024-04-12", ""])
    #expect(file?.slashDates == nil)
  }
}
