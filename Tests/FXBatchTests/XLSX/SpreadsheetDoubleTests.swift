import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Number cells hold doubles: workbooks written by hand, by openpyxl and by LibreOffice convert as the CSV of the
/// same amounts typed does (the shortest decimal of each double, ``ExactDecimal/spreadsheetNumberText(_:)``), and
/// the copy keeps each cell's text as it was.
@Suite("Spreadsheet numbers read as typed: workbooks = CSV")
struct SpreadsheetDoubleTests {
  /// One record: the amount as typed (the CSV's), its currencies and day.
  typealias Record = (typed: String, from: String, to: String, date: String)

  /// Amounts whose doubles' `%.16g` (openpyxl) or `%.17g` texts are not the amount typed, and some that are. None
  /// is past 15 significant digits (openpyxl's `%.16g` and LibreOffice's files may not keep such a number's double)
  /// but `0.30000000000000004`, which converts to the same cents either way.
  static let records: [Record] = [
    ("878361.57", "GBP", "EUR", "2010-08-10"),
    ("0.30000000000000004", "USD", "EUR", "2024-01-15"),
    ("1234567.89", "USD", "JPY", "2024-03-01"),
    ("19.99", "CHF", "EUR", "2024-02-29"),
    ("0.07", "EUR", "USD", "2024-01-15"),
    ("-1051678.13", "EUR", "GBP", "2010-08-10"),
    ("12000000000000000000", "JPY", "EUR", "2024-03-01"),  // 1.2E+19
    ("98765432109.87", "USD", "EUR", "2024-01-15"),
    ("0.001", "EUR", "KWD", "2024-01-15"),
    ("250", "SEK", "EUR", "2024-01-15"),
  ]

  static let header = ["amount", "from", "to", "date"]

  /// The records as CSV, amounts as typed.
  static func csv(_ records: [Record]) -> String {
    ([header] + records.map { [$0.typed, $0.from, $0.to, $0.date] }).map { $0.joined(separator: ",") + "\n" }.joined()
  }

  /// An `.xlsx` with these amount texts in number cells (currencies and dates as inline text).
  static func xlsx(_ records: [Record], amounts: [String], in directory: TemporaryDirectory, named name: String)
    throws -> String
  {
    let columns = ["A", "B", "C", "D"]
    var rows = ["<row r=\"1\">" + zip(columns, header).map { XLSXOnePassTests.text("\($0)1", $1) }.joined() + "</row>"]
    for (index, (record, amount)) in zip(records, amounts).enumerated() {
      let row = index + 2
      rows.append(
        "<row r=\"\(row)\">" + XLSXOnePassTests.number("A\(row)", amount) + XLSXOnePassTests.text("B\(row)", record.from)
          + XLSXOnePassTests.text("C\(row)", record.to) + XLSXOnePassTests.text("D\(row)", record.date) + "</row>")
    }
    return try XLSXRowCollectorTests.workbook(sheet: XLSXOnePassTests.sheet(rows), in: directory, named: name)
  }

  /// An `.ods` with these amount texts as `office:value` of float cells (the cell's paragraph shows the amount typed).
  static func ods(_ records: [Record], amounts: [String], in directory: TemporaryDirectory, named name: String) throws
    -> String
  {
    func row(_ cells: [String]) -> String { "<table:table-row>" + cells.joined() + "</table:table-row>" }
    var rows = row(header.map(EndToEndODSTests.text))
    for (record, amount) in zip(records, amounts) {
      rows += row(
        [
          "<table:table-cell office:value-type=\"float\" office:value=\"\(amount)\"><text:p>\(record.typed)</text:p></table:table-cell>"
        ] + [record.from, record.to, record.date].map(EndToEndODSTests.text))
    }
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: rows, columns: "<table:table-column table:number-columns-repeated=\"4\"/>"),
      named: name, in: directory)
    return directory.path + "/" + name
  }

  /// The fx_* values of each record of a converted file (CSV, XLSX or ODS; the rate date of a date cell as its day).
  static func values(of path: String) throws -> [[String]] {
    let count = AnnotationColumn.allCases.count
    switch PathText.splitExtension(path).extension {
    case "csv":
      return WorkbookEquivalenceTests.csvRows(try String(contentsOfFile: path, encoding: .utf8)).dropFirst().map {
        Array($0.suffix(count))
      }
    case "xlsx":
      return try EndToEndXLSXTests.rows(of: path).dropFirst().map { row in
        var values = EndToEndXLSXTests.values(of: row, from: 4, count: count)
        if case .number(let serial)? = row.cells.first(where: { $0.reference.column == 7 })?.value {
          values[3] = XLSXDateSystem.from1900.day(ofSerial: serial)?.description ?? "not a day: \(serial)"
        }
        return values
      }
    default:
      return try EndToEndODSTests.rows(of: path).dropFirst().map { EndToEndODSTests.values(of: $0, from: 4, count: count) }
    }
  }

  /// Converts the files in `directory` (embedded ECB history), each as the general and the fast path reads it, and
  /// expects both to give every file the CSV's fx values.
  static func expectSameAsCSV(_ names: [String], in directory: TemporaryDirectory, records: Int) throws -> [[String]] {
    var first: [[String]]? = nil
    for fastPath in [true, false] {
      for name in names {
        let input = directory.path + "/" + name
        let output = directory.path + "/out-\(fastPath)-" + name
        var options = BatchOptions(today: TableSourceDifferentialTests.today)
        options.inputPaths = [input]
        options.destination = .file(output)
        options.fastPath = fastPath
        let report = BatchJob(options: options, source: .table(EmbeddedECBHistory.table)).run()
        #expect(report.files.first?.fileError == nil, "\(name)")
        let values = try Self.values(of: output)
        #expect(values.count == records, "\(name)")
        if let first {
          #expect(values == first, "\(name), fast path \(fastPath)")
        } else {
          first = values
        }
      }
    }
    return first ?? []
  }

  /// By hand: openpyxl's `%.16g` and the `%.17g` texts, and `<v>0.30000000000000004</v>`. 878361.57 GBP on
  /// 2010-08-10 at the ECB's 0.83520 GBP per EUR is 1051678.125 EUR exactly: 1051678.13 half-up, from every file.
  @Test func handMadeWorkbooksConvertAsTheCSV() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = Self.records
    let doubles = try records.map { try #require(Double($0.typed)) }
    let sixteen = doubles.map { String(format: "%.16g", $0) }
    let seventeen = doubles.map { String(format: "%.17G", $0) }
    #expect(sixteen[0] == "878361.5699999999")
    #expect(seventeen[1] == "0.30000000000000004")
    #expect(seventeen[6] == "1.2E+19")
    try directory.write(Array(Self.csv(records).utf8), named: "typed.csv")
    _ = try Self.xlsx(records, amounts: sixteen, in: directory, named: "sixteen.xlsx")
    _ = try Self.xlsx(records, amounts: seventeen, in: directory, named: "seventeen.xlsx")
    _ = try Self.ods(records, amounts: sixteen, in: directory, named: "sixteen.ods")
    _ = try Self.ods(records, amounts: seventeen, in: directory, named: "seventeen.ods")
    let names = ["typed.csv", "sixteen.xlsx", "seventeen.xlsx", "sixteen.ods", "seventeen.ods"]
    let values = try Self.expectSameAsCSV(names, in: directory, records: records.count)
    #expect(values.first?.prefix(2) == ["1.197318008", "1051678.13"])
    #expect(values.first?[5] == "ok")
    // The copies keep the cells' texts as they were.
    let sheet = try ZipPackage(path: directory.path + "/out-true-sixteen.xlsx").contents(
      ofEntryNamed: "xl/worksheets/sheet1.xml")
    #expect(String(decoding: sheet, as: UTF8.self).contains("<v>878361.5699999999</v>"))
    let content = try ZipPackage(path: directory.path + "/out-true-seventeen.ods").contents(ofEntryNamed: "content.xml")
    #expect(String(decoding: content, as: UTF8.self).contains("office:value=\"0.30000000000000004\""))
    #expect(String(decoding: content, as: UTF8.self).contains("office:value=\"878361.56999999995\""))
  }

  /// A workbook written by openpyxl (as pandas' `to_excel` writes it) from Python floats.
  @Test(.enabled(if: OpenPyXL.python != nil)) func openpyxlWorkbookConvertsAsTheCSV() throws {
    let python = try #require(OpenPyXL.python)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = Self.records
    try directory.write(Array(Self.csv(records).utf8), named: "typed.csv")
    let script = """
      import csv, sys, openpyxl
      book = openpyxl.Workbook()
      sheet = book.active
      with open(sys.argv[1], newline="") as file:
          for index, row in enumerate(csv.reader(file)):
              sheet.append(row if index == 0 else [float(row[0])] + row[1:])
      book.save(sys.argv[2])
      """
    let (status, _) = try TestTools.run(
      python, ["-c", script, directory.path + "/typed.csv", directory.path + "/openpyxl.xlsx"])
    try #require(status == 0)
    let sheet = try ZipPackage(path: directory.path + "/openpyxl.xlsx").contents(ofEntryNamed: "xl/worksheets/sheet1.xml")
    #expect(String(decoding: sheet, as: UTF8.self).contains("<v>878361.5699999999</v>"))
    let values = try Self.expectSameAsCSV(["typed.csv", "openpyxl.xlsx"], in: directory, records: records.count)
    #expect(values.first?[1] == "1051678.13")
  }

  /// Workbooks LibreOffice makes from the CSV (`soffice --convert-to xlsx` and `ods`).
  @Test(.enabled(if: LibreOffice.soffice != nil)) func libreOfficeWorkbooksConvertAsTheCSV() throws {
    let soffice = try #require(LibreOffice.soffice)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = Self.records
    try directory.write(Array(Self.csv(records).utf8), named: "typed.csv")
    for format in ["xlsx", "ods"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: soffice)
      process.arguments = [
        "-env:UserInstallation=file://\(directory.path)/profile", "--headless", "--convert-to", format, "--outdir",
        directory.path + "/libreoffice", directory.path + "/typed.csv",
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      try #require(process.terminationStatus == 0)
      try FileManager.default.moveItem(
        atPath: directory.path + "/libreoffice/typed." + format, toPath: directory.path + "/libreoffice." + format)
    }
    let values = try Self.expectSameAsCSV(
      ["typed.csv", "libreoffice.xlsx", "libreoffice.ods"], in: directory, records: records.count)
    #expect(values.first?[1] == "1051678.13")
  }
}
