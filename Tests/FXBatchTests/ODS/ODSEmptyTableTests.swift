import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// An empty table element (`<table:table table:name="E"/>`), or an element named `table` in another namespace,
/// before the chosen table: the reader counts it among the tables, so the rewriter must too, else it looks for
/// the chosen table one place too far, writes no fx_* cells at all and the run reports 0 records, every record
/// converted.
@Suite("ODS: an empty table before the chosen one")
struct ODSEmptyTableTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let before = [#"<table:table table:name="Empty"/>"#, "<text:table><text:p>x</text:p></text:table>"]

  @Test(arguments: before, [["--sheet", "Hand"], ["--sheet", "2"]])
  func theChosenTableIsConverted(before: String, sheet: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = EndToEndODSTests.text
    let rows =
      "<table:table-row>" + ["date", "amount", "currency"].map(text).joined() + "</table:table-row>"
      + #"<table:table-row><table:table-cell office:value-type="date" office:date-value="2024-01-15"><text:p>x</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="10"><text:p>10</text:p></table:table-cell>"#
      + text("USD") + "</table:table-row>"
    let content = EndToEndODSTests.content(rows: rows).replacingOccurrences(
      of: #"<table:table table:name="Hand">"#, with: before + #"<table:table table:name="Hand">"#)
    try EndToEndODSTests.spreadsheet(content: content, named: "book.ods", in: directory)
    let result = try cli.run(["convert", "--to", "EUR"] + sheet + ["book.ods"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("book.ods -> book.converted.ods: 1 record: 1 ok"), "\(result.standardError)")
    let converted = try EndToEndODSTests.rows(of: directory.path + "/book.converted.ods", sheet: "Hand")
    #expect(converted.count == 2)
    guard converted.count == 2 else { return }
    #expect(EndToEndODSTests.values(of: converted[0], from: 3, count: 2) == ["fx_rate", "fx_converted"])
    // 10 USD on 2024-01-15 at EUR/USD 1.0945: 9.14 EUR.
    #expect(EndToEndODSTests.values(of: converted[1], from: 4, count: 1) == ["9.14"])
  }
}
