import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The rewriter finds the table the reader read. An empty table element (`<table:table table:name="E"/>`), or an
/// element named `table` in another namespace, before the chosen table: the reader counts it among the tables, so
/// the rewriter must too, else it looks for the chosen table one place too far, writes no fx_* cells at all and
/// the run reports 0 records, every record converted. A `spreadsheet` element before `office:spreadsheet`: the
/// reader reads the first, and the rewriter must not write its records' cells into the other's rows.
@Suite("ODS: the rewriter finds the table the reader read")
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

  // An element named `spreadsheet` before `office:spreadsheet` is the one the reader reads (the first by its local
  // name): its record's fx_* cells go in its row, not in the row of another table's record.
  @Test func theFirstSpreadsheetIsTheOneRewritten() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = EndToEndODSTests.text
    func table(_ name: String, amount: String, currency: String) -> String {
      #"<table:table table:name="\#(name)"><table:table-row>"# + ["date", "amount", "currency"].map(text).joined()
        + #"</table:table-row><table:table-row><table:table-cell office:value-type="date" office:date-value="2024-01-15"><text:p>x</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="\#(amount)"><text:p>\#(amount)</text:p></table:table-cell>"#
        + text(currency) + "</table:table-row></table:table>"
    }
    let decoy = "<office:text><text:spreadsheet>" + table("Decoy", amount: "10", currency: "USD")
      + "</text:spreadsheet></office:text><office:spreadsheet>"
    let content = EndToEndODSTests.content(rows: "").replacingOccurrences(
      of: #"<office:spreadsheet><table:table table:name="Hand"><table:table-column/></table:table>"#,
      with: decoy + table("Real", amount: "100", currency: "GBP"))
    #expect(content.contains("Real") && content.contains("Decoy"))
    try EndToEndODSTests.spreadsheet(content: content, named: "book.ods", in: directory)
    let result = try cli.run(["convert", "--to", "EUR", "book.ods"], in: directory.url)
    #expect(result.standardError.contains("book.ods -> book.converted.ods: 1 record: 1 ok"), "\(result.standardError)")
    let written = String(
      decoding: try ZipPackage(path: directory.path + "/book.converted.ods").contents(ofEntryNamed: "content.xml"),
      as: UTF8.self)
    // 10 USD on 2024-01-15 at EUR/USD 1.0945: 9.14 EUR, beside the USD record; the GBP record has no fx_* cells.
    #expect(written.contains(text("USD") + #"<table:table-cell office:value-type="float" office:value="0.9136592051">"#))
    #expect(written.contains(text("GBP") + "</table:table-row>"))
  }

  // A row (or cell) element named as ODF's but in another namespace: the reader finds rows by their local names,
  // the rewriter only `table:` ones, which would put the record's fx_* cells into the next row. Refused.
  @Test(arguments: [("<text:table-row>", "</text:table-row>"), ("<table:table-row>", "</table:table-row>")])
  func aRowOutsideTheTableNamespaceIsRefused(start: String, end: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = EndToEndODSTests.text
    func row(_ amount: String, _ currency: String) -> String {
      #"<table:table-row><table:table-cell office:value-type="date" office:date-value="2024-01-15"><text:p>x</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="\#(amount)"><text:p>\#(amount)</text:p></table:table-cell>"#
        + text(currency) + "</table:table-row>"
    }
    let foreign = row("10", "USD").replacingOccurrences(of: "<table:table-row>", with: start)
      .replacingOccurrences(of: "</table:table-row>", with: end)
      .replacingOccurrences(of: "<table:table-cell office:value-type=\"float\"", with: "<text:table-cell office:value-type=\"float\"")
      .replacingOccurrences(of: "</text:p></table:table-cell><table:table-cell office:value-type=\"string\"", with: "</text:p></text:table-cell><table:table-cell office:value-type=\"string\"")
    let rows =
      "<table:table-row>" + ["date", "amount", "currency"].map(text).joined() + "</table:table-row>" + foreign
      + row("100", "GBP")
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: rows), named: "book.ods", in: directory)
    let result = try cli.run(["convert", "--to", "EUR", "book.ods"], in: directory.url)
    #expect(result.status == 2, "\(result.standardError)")
    #expect(result.standardError.contains("element outside the namespace"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/book.converted.ods"))
  }
}
