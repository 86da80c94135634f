import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Workbooks get the checks every format makes in pass 1 (``FileError/unreadField(names:located:options:path:line:column:nameKind:samples:)``)
/// and read typed dates whole: nothing is passed over or cut silently.
@Suite("Workbooks: fields not passed over, typed dates read whole")
struct WorkbookFieldChecksTests {
  static func text(_ reference: String, _ value: String) -> String {
    #"<c r="\#(reference)" t="inlineStr"><is><t>\#(value)</t></is></c>"#
  }

  static func sheet(_ rows: [String]) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>\(rows.enumerated().map {
        #"<row r="\#($0.offset + 1)">\#($0.element)</row>"#
      }.joined())</sheetData></worksheet>
      """.utf8)
  }

  /// Converts a workbook of the `openpyxl.xlsx` fixture with `rows` as its first sheet.
  static func run(_ rows: [String], configure: (inout BatchOptions) -> Void = { _ in }) throws -> (
    RunReport, [SheetRow]?
  ) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try XLSXRowCollectorTests.workbook(sheet: sheet(rows), in: directory, named: "in.xlsx")
    let output = directory.path + "/out.xlsx"
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(output)
    configure(&options)
    let report = BatchJob(options: options, source: .table(EmbeddedECBHistory.table)).run()
    let written = FileManager.default.fileExists(atPath: output) ? try EndToEndXLSXTests.rows(of: output) : nil
    return (report, written)
  }

  /// `--from USD` over a sheet with a currency column is refused, as in CSV (the newcomer's GBP row converted as
  /// USD).
  @Test func currencyColumnsAreNotOverridden() throws {
    let rows = [
      Self.text("A1", "Amount") + Self.text("B1", "Currency"),
      #"<c r="A2"><v>340.50</v></c>"# + Self.text("B2", "GBP"),
    ]
    let (report, written) = try Self.run(rows) {
      $0.fixedFrom = CurrencyCode("USD")
      $0.fixedTo = CurrencyCode("EUR")
      $0.defaultDate = try? day("2024-04-02")
    }
    let error = try #require(report.files.first?.fileError)
    #expect(error.contains("from-currency field \"Currency\""), "\(error)")
    #expect(written == nil)
  }

  /// A column of date cells under a name fxbatch does not know is refused rather than every row taking the
  /// newest rates.
  @Test func dateLookingColumnsAreNotPassedOver() throws {
    let rows =
      [Self.text("A1", "amount") + Self.text("B1", "currency") + Self.text("C1", "to") + Self.text("D1", "Booked")]
      + (2...6).map {
        #"<c r="A\#($0)"><v>100</v></c>"# + Self.text("B\($0)", "USD") + Self.text("C\($0)", "EUR")
          + #"<c r="D\#($0)" s="1"><v>\#(45384 + $0)</v></c>"#
      }
    let (report, written) = try Self.run(rows)
    let error = try #require(report.files.first?.fileError)
    #expect(error.contains("\"Booked\""), "\(error)")
    #expect(written == nil)
    // Named, it converts.
    let (named, _) = try Self.run(rows) { $0.fieldNames.date = "Booked" }
    #expect(named.files.first?.fileError == nil)
    #expect(named.totals.records == 5 && named.totals.error == 0)  // 2024-04-06 and 07 are a weekend: fallback
  }

  /// A sheet using its last columns has no room for the fx_* columns: refused, nothing written.
  @Test func noRoomForTheFXColumns() throws {
    let rows = [
      Self.text("A1", "amount") + Self.text("B1", "currency") + Self.text("C1", "to") + Self.text("XFD1", "x"),
      #"<c r="A2"><v>100</v></c>"# + Self.text("B2", "USD") + Self.text("C2", "EUR"),
    ]
    let (report, written) = try Self.run(rows) { $0.defaultDate = try? day("2024-04-02") }
    let error = try #require(report.files.first?.fileError)
    #expect(error.contains("no room for the 7 fx_* columns"), "\(error)")
    #expect(written == nil)
  }

  @Test func typedDatesAreReadWhole() {
    #expect(WorkbookRecords.typedDay("2024-02-12") == "2024-02-12")
    #expect(WorkbookRecords.typedDay("2024-02-12T10:30") == "2024-02-12")
    #expect(WorkbookRecords.typedDay("2024-02-12T10:30:05.250Z") == "2024-02-12")
    #expect(WorkbookRecords.typedDay("2024-02-12T23:59:59+05:30") == "2024-02-12")
    for text in ["2024-02-123", "2024-02-12garbage", "2024-02-12T25:99:00", "2024-02-12Z", " 2024-02-12", "2024-02-12T"] {
      #expect(WorkbookRecords.typedDay(text) == text, "\(text)")
    }
  }
}
