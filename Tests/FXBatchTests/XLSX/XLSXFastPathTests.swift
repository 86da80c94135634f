import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// A workbook's records convert on the fast path (``TableConverter``, from a table or from answered quotes)
/// where it can and by the general rules elsewhere: the converted sheet is byte for byte what the general path
/// alone writes, with the same counts and reconciliation, for messy rows (number and text amounts, date cells
/// and date texts, weekends, legacy and unknown currencies, error and boolean cells, blank rows).
@Suite("XLSX: fast path = general path", .tags(.sanitized))
struct XLSXFastPathTests {
  /// A sheet of `records` seeded messy rows under `amount`, `from`, `to`, `date`, `note`, in the markup
  /// openpyxl writes (inline strings, number cells, dates as serials in the date style `s="1"` of the
  /// `openpyxl.xlsx` fixture's styles).
  static func messySheet(records: Int, seed: UInt64) -> String {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    func text(_ reference: String, _ value: String) -> String {
      #"<c r="\#(reference)" t="inlineStr"><is><t>\#(value)</t></is></c>"#
    }
    func number(_ reference: String, _ value: String, style: Int? = nil) -> String {
      #"<c r="\#(reference)"\#(style.map { #" s="\#($0)""# } ?? "")><v>\#(value)</v></c>"#
    }
    let currencies = [
      "EUR", "USD", "GBP", "JPY", "CHF", "SEK", "usd", " GBP ", "DEM", "FRF", "XXX", "", "BHD", "ISK", "KWD", "TRY",
    ]
    // Spreadsheet doubles past 15 digits as openpyxl (`%.16g`) and others (`%.17g`) write them, read as the
    // shortest decimal of the double (`SpreadsheetNumberTests`).
    let numbers = [
      "100", "-12.5", "0.005", "1234.5678", "1E3", "4.5E-3", "0", "99999999999.99", "-0.01", "7", "878361.5699999999",
      "0.30000000000000004", "1.2345678901234567E+20", "-19.989999999999998", "INF", "-0", "1.0000000000000001E400",
    ]
    let texts = ["1,234.56", "12.50", "abc", "", " 42 ", "1.234,56", "€5", "(3.00)", "1e400"]
    var rows = [
      "<row r=\"1\">"
        + ["amount", "from", "to", "date", "note"].enumerated().map { index, name in
          text(String(UnicodeScalar(UInt8(65 + index))) + "1", name)
        }.joined() + "</row>"
    ]
    var row = 1
    for record in 0..<records {
      row += 1
      if next(50) == 0 {
        rows.append(#"<row r="\#(row)" spans="1:5"/>"#)  // a blank row
        row += 1
      }
      var cells: [String] = []
      switch next(20) {
      case 0: cells.append(text("A\(row)", texts[next(texts.count)]))
      case 1: cells.append(#"<c r="A\#(row)" t="e"><v>#N/A</v></c>"#)
      case 2: cells.append(#"<c r="A\#(row)" t="b"><v>1</v></c>"#)
      case 3: break
      default: cells.append(number("A\(row)", numbers[next(numbers.count)]))
      }
      cells.append(text("B\(row)", currencies[next(currencies.count)]))
      cells.append(text("C\(row)", currencies[next(4) == 0 ? next(currencies.count) : next(6)]))
      switch next(10) {
      case 0: cells.append(text("D\(row)", ["2024-03-09", "2023-12-25", "1998-06-01", "2031-01-01", "05/03/2024"][next(5)]))
      case 1: break
      case 2: cells.append(number("D\(row)", String(30_000 + next(16_000))))  // a number without the date style
      case 3: cells.append(number("D\(row)", String(36_200 + next(10_000)) + ".999999999999", style: 1))  // the next day's double
      default: cells.append(number("D\(row)", String(36_200 + next(10_000)), style: 1))  // 1999 to 2026
      }
      if next(3) == 0 { cells.append(text("E\(row)", "note &amp; &lt;\(record)&gt; _x0041_")) }
      rows.append(#"<row r="\#(row)">"# + cells.joined() + "</row>")
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:E\(row)"/>\
      <sheetData>\(rows.joined())</sheetData></worksheet>
      """
  }

  /// The sheet part of a converted workbook, and the run's report.
  struct Run: Equatable {
    let sheet: [UInt8]
    let styles: [UInt8]
    let totals: RunReport.Counts
    let reconciliation: [Reconciliation]
    let withoutDate: Int
  }

  static func run(_ input: String, source: RateSourceChoice, fastPath: Bool, configure: (inout BatchOptions) -> Void = { _ in })
    throws -> Run
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out.xlsx").path
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(output)
    options.fastPath = fastPath
    configure(&options)
    let report = BatchJob(options: options, source: source).run()
    #expect(report.files.first?.fileError == nil)
    let package = try ZipPackage(path: output)
    return Run(
      sheet: try package.contents(ofEntryNamed: "xl/worksheets/sheet1.xml"),
      styles: try package.contents(ofEntryNamed: "xl/styles.xml"), totals: report.totals,
      reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate)
  }

  /// A workbook of the `openpyxl.xlsx` fixture with its first sheet replaced by ``messySheet(records:seed:)``.
  static func messyWorkbook(in directory: TemporaryDirectory, seed: UInt64) throws -> String {
    let fixture = try #require(Bundle.module.url(forResource: "Fixtures/Workbooks/openpyxl", withExtension: "xlsx"))
    let path = directory.path + "/messy-\(seed).xlsx"
    try ZipPackage(path: fixture.path).write(
      to: path,
      replacing: [("xl/worksheets/sheet1.xml", .bytes(Array(messySheet(records: 1_500, seed: seed).utf8)))])
    return path
  }

  /// Under other options (a fixed source currency over the sheet's column, day-first dates, a given decimal mark,
  /// another rounding) both roads write the same sheet: the sheet scanner's decoder (``XLSXRowDecoder``) asks the
  /// rules each option changes.
  @Test(arguments: 0..<4)
  func optionsWriteWhatTheGeneralPathWrites(variant: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Self.messyWorkbook(in: directory, seed: 20 + UInt64(variant))
    let source = RateSourceChoice.table(EmbeddedECBHistory.table)
    let configure: (inout BatchOptions) -> Void = { options in
      switch variant {
      case 0:
        options.fixedFrom = CurrencyCode("USD")
        options.overrideCurrencyFields = true
      case 1: options.dateFormat = .dayMonthYear
      case 2: options.decimalMark = .comma
      default: options.rounding = .halfEven
      }
    }
    let fast = try Self.run(input, source: source, fastPath: true, configure: configure)
    let general = try Self.run(input, source: source, fastPath: false, configure: configure)
    #expect(fast.totals.records > 1_000)
    Self.compare(fast, general)
  }

  /// Under answered quotes (a Frankfurter v2 service on a loopback server, then its lock under `--frozen`).
  /// A converted row's values, copied out for the cell writer, hold every annotation column.
  @Test func rowValuesHoldEveryAnnotationColumn() {
    #expect(WorkbookRowValues.count == AnnotationColumn.allCases.count)
    let values = WorkbookRowValues(ends: InlineArray(repeating: 0), decimals: nil, rateDay: nil)
    #expect(values.ends.count == AnnotationColumn.allCases.count)
  }

  @Test func answeredQuotesWriteWhatTheGeneralPathWrites() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Self.messyWorkbook(in: directory, seed: 11)
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let source = AnsweredQuotesDifferentialTests.frankfurter(for: input, server: server)
    let fast = try Self.run(input, source: source, fastPath: true)
    let general = try Self.run(input, source: source, fastPath: false)
    #expect(fast.totals.records > 1_000)
    Self.compare(fast, general)
  }

  /// Records the first difference of the sheets (with its surroundings), and any difference of the rest.
  static func compare(_ fast: Run, _ general: Run) {
    #expect(fast.totals == general.totals)
    #expect(fast.reconciliation == general.reconciliation)
    #expect(fast.withoutDate == general.withoutDate)
    #expect(fast.styles == general.styles)
    guard fast.sheet != general.sheet else { return }
    let first =
      zip(fast.sheet, general.sheet).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(fast.sheet.count, general.sheet.count)
    func around(_ bytes: [UInt8]) -> String {
      String(decoding: bytes[max(0, first - 200)..<min(bytes.count, first + 200)], as: UTF8.self)
    }
    Issue.record("the sheets differ from byte \(first): fast …\(around(fast.sheet))… general …\(around(general.sheet))…")
  }

  /// `.ods` converts through the same row converter: the fixtures LibreOffice wrote give the same `content.xml`
  /// on both paths.
  @Test(arguments: ["equivalence.ods", "libreoffice.ods", "features.ods"])
  func openDocumentWritesWhatTheGeneralPathWrites(name: String) throws {
    let fixture = try #require(
      Bundle.module.url(forResource: "Fixtures/Workbooks/" + name.dropLast(4), withExtension: "ods"))
    func run(fastPath: Bool) throws -> ([UInt8], RunReport.Counts, [Reconciliation]) {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let output = directory.url.appendingPathComponent("out.ods").path
      var options = BatchOptions(today: TableSourceDifferentialTests.today)
      options.inputPaths = [fixture.path]
      options.destination = .file(output)
      options.fastPath = fastPath
      if name == "libreoffice.ods" { options.fixedTo = CurrencyCode("EUR") }  // its sheet has no target column
      let report = BatchJob(options: options, source: .table(EmbeddedECBHistory.table)).run()
      #expect(report.files.first?.fileError == nil)
      return (try ZipPackage(path: output).contents(ofEntryNamed: "content.xml"), report.totals, report.reconciliation)
    }
    let fast = try run(fastPath: true)
    let general = try run(fastPath: false)
    #expect(fast.1.records > 0)
    #expect(fast.0 == general.0)
    #expect(fast.1 == general.1)
    #expect(fast.2 == general.2)
  }
}
