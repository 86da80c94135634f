import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Summary rows (``RowSkipRule``): a total row whose currency or date is missing, or a record whose first
/// non-empty field matches `--skip-rows-matching`, is copied as it is and counted as skipped, the same on the
/// fast path (which leaves such records to the general rules) as on the general path, in every format with a
/// first field.
extension FastGeneralDifferentialTests {
  /// One row: its first field (the label) and the fields after it, `nil` for a field left out.
  typealias SummaryRow = (label: String, date: String?, amount: String?, from: String?, to: String?)

  /// Data rows the fast path converts, with summary rows among them. With the default rule 4 are skipped:
  /// `Total` (no from-currency), `  Total général: ` (no date), `TOTAAL` (an empty from-currency) and `Summe`
  /// (nothing but an amount; in CSV its label is in the second field, the first non-empty one); `Totals` with
  /// every field is data, `Carried forward` is data unless a pattern names it, `Subtotal rows` is no total label
  /// (a `missing_field` error).
  static func summaryRows(data: Int) -> [SummaryRow] {
    var rows: [SummaryRow] = []
    for index in 0..<data {
      let from = ["USD", "GBP", "JPY", "CHF"][index % 4]
      rows.append(
        ("Client \(index)", ["2024-01-05", "2024-03-15", "2024-01-06"][index % 3], "\(index).\(index % 100)", from, "EUR"))
      switch index {
      case 10: rows.append(("Total", nil, "1234.50", nil, nil))
      case 20: rows.append(("  Total général: ", nil, "5", "USD", "EUR"))
      case 30: rows.append(("TOTAAL", "2024-01-05", "10", "", "EUR"))
      case 40: rows.append(("Totals", "2024-01-05", "77.70", "USD", "EUR"))
      case 50: rows.append(("Carried forward", "2024-01-05", "3", "USD", "EUR"))
      case 60: rows.append(("Subtotal rows", nil, "8", nil, nil))
      default: break
      }
    }
    rows.append(("Summe", nil, "999", nil, nil))
    return rows
  }

  static func summaryCSV(_ rows: [SummaryRow]) -> String {
    var text = "label,date,amount,from,to\n"
    for row in rows {
      // `Summe` written with its label in the second field: the first non-empty one.
      let fields = [row.label, row.date ?? "", row.amount ?? "", row.from ?? "", row.to ?? ""]
      text += (row.label == "Summe" ? "," + ["Summe", "", "", ""].joined(separator: ",") : fields.joined(separator: ",")) + "\n"
    }
    return text
  }

  static func summaryJSONObject(_ row: SummaryRow) -> String {
    let members = [("label", row.label), ("date", row.date), ("amount", row.amount), ("from", row.from), ("to", row.to)]
    return "{"
      + members.compactMap { name, value in value.map { "\"\(name)\":\(jsonString($0, escaped: false))" } }
      .joined(separator: ",") + "}"
  }

  static func summaryCells(_ row: SummaryRow) -> [Cell] {
    [row.label, row.date, row.amount, row.from, row.to].map { value in
      guard let value else { return .none }
      return isJSONNumber(value) && value != row.label ? .number(value) : .text(value)
    }
  }

  /// Writes the rows as a file of `format` and returns its path.
  static func summaryFile(_ rows: [SummaryRow], format: RecordFormat, in directory: TemporaryDirectory) throws -> String {
    switch format {
    case .csv: return try directory.write(summaryCSV(rows), named: "in.csv")
    case .jsonl: return try directory.write(rows.map(summaryJSONObject).joined(separator: "\n") + "\n", named: "in.jsonl")
    case .json:
      return try directory.write("[\n" + rows.map(summaryJSONObject).joined(separator: ",\n") + "\n]\n", named: "in.json")
    case .xlsx:
      let columns = ["A", "B", "C", "D", "E"]
      var sheetRows = [
        "<row r=\"1\">"
          + zip(columns, ["label", "date", "amount", "from", "to"]).map { XLSXOnePassTests.text("\($0)1", $1) }.joined()
          + "</row>"
      ]
      for (index, row) in rows.enumerated() {
        var cells = ""
        for (column, cell) in zip(columns, summaryCells(row)) {
          switch cell {
          case .text(let value): cells += XLSXOnePassTests.text("\(column)\(index + 2)", xmlEscaped(value))
          case .number(let value): cells += XLSXOnePassTests.number("\(column)\(index + 2)", value)
          default: break
          }
        }
        sheetRows.append("<row r=\"\(index + 2)\">\(cells)</row>")
      }
      return try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(sheetRows), in: directory, "in")
    default:
      func row(_ cells: [Cell]) -> String {
        "<table:table-row>"
          + cells.map { cell in
            switch cell {
            case .text(let value): return EndToEndODSTests.text(xmlEscaped(value))
            case .number(let value):
              return
                "<table:table-cell office:value-type=\"float\" office:value=\"\(value)\"><text:p>\(value)</text:p></table:table-cell>"
            default: return "<table:table-cell/>"
            }
          }.joined() + "</table:table-row>"
      }
      let content =
        row(["label", "date", "amount", "from", "to"].map { .text($0) }) + rows.map { row(summaryCells($0)) }.joined()
      try EndToEndODSTests.spreadsheet(
        content: EndToEndODSTests.content(rows: content, columns: "<table:table-column table:number-columns-repeated=\"5\"/>"),
        named: "in.ods", in: directory)
      return directory.path + "/in.ods"
    }
  }

  static let summaryFormats: [RecordFormat] = [.csv, .jsonl, .json, .xlsx, .ods]

  /// The default rule: the same output and counts on both paths, four rows skipped, `Totals` (every field)
  /// converted, `Subtotal rows` an error.
  @Test(arguments: summaryFormats)
  func summaryRowsSkipped(format: RecordFormat) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Self.summaryFile(Self.summaryRows(data: 80), format: format, in: directory)
    let general = try Self.check(input, format: format, "summary rows", parts: format.kind == .package ? [1] : [1, 3])
    #expect(general.fileError == nil)
    #expect(general.totals.skipped == 4, "\(format)")
    // 80 clients, Totals and Carried forward convert; Subtotal rows lacks its currency.
    #expect(general.totals.records == 83, "\(format)")
    #expect(general.totals.ok + general.totals.fallback == 82, "\(format)")
    #expect(general.totals.errorsByCode == ["missing_field": 1], "\(format)")
    #expect(general.fastRecords > 0, "\(format): the data rows took the fast path")
  }

  /// `--skip-rows-matching` skips `Carried forward` too, though it has every field; `--no-skip-totals` skips
  /// nothing (the total rows are errors, `Total général:` converts at the default day).
  @Test(arguments: summaryFormats)
  func summaryRowsUnderOptions(format: RecordFormat) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Self.summaryFile(Self.summaryRows(data: 80), format: format, in: directory)
    let pattern = try RowSkipRule.pattern("^Carried")
    let matching = try Self.check(input, format: format, "pattern", parts: [1]) {
      $0.skipRule = RowSkipRule(skipsTotals: true, pattern: pattern)
    }
    #expect(matching.totals.skipped == 5, "\(format)")
    #expect(matching.totals.records == 82, "\(format)")
    let off = try Self.check(input, format: format, "no skip", parts: [1]) { $0.skipRule = .none }
    #expect(off.totals.skipped == nil, "\(format)")
    #expect(off.totals.records == 87, "\(format)")
    #expect(off.totals.error == 4, "\(format)")
  }
}

extension FastGeneralDifferentialTests {
  /// A file without a date field (`--date`): every record lacks a date, so the total rule looks at every
  /// record's first field; the CSV reader reads it in place, and the records that are no total rows stay on the
  /// fast path. `Totals` with both currencies is skipped too (its date is missing), `"Total"` quoted goes to the
  /// general rules, `Tom` and `Sam` (first letters of labels) are read whole and convert.
  @Test func summaryRowsWithoutDates() throws {
    var text = "label,amount,from,to\n"
    for index in 0..<300 {
      text += ["Client \(index)", "Tom", "Sam", " Zed"][index % 4] + ",\(index).25,\(["USD", "GBP"][index % 2]),EUR\n"
      if index == 100 { text += "Totals,999,USD,EUR\n" }
      if index == 200 { text += "\"Total\",999,,\n" }
    }
    let general = try Self.checkCSV(text, "summary rows without dates", parts: [1, 3]) {
      $0.defaultDate = CalendarDay(iso8601: "2024-01-05")
    }
    #expect(general.totals.skipped == 2)
    #expect(general.totals.records == 300)
    #expect(general.fastRecords == 300, "every data record on the fast path")
  }
}

extension FastGeneralDifferentialTests {
  /// JSON Lines without dates: the reader gives a record's first member in place, as for CSV.
  @Test func summaryRowsWithoutDatesInJSONLines() throws {
    var text = ""
    for index in 0..<300 {
      let label = ["Client \(index)", "Tom", "Sam", " Zed"][index % 4]
      text += #"{"label":"\#(label)","amount":\#(index).25,"from":"\#(["USD", "GBP"][index % 2])","to":"EUR"}"# + "\n"
      if index == 100 { text += #"{"label":"Totals","amount":999,"from":"USD","to":"EUR"}"# + "\n" }
      if index == 200 { text += #"{"label":"T\u006ftal","amount":999}"# + "\n" }
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(text, named: "in.jsonl")
    let general = try Self.check(path, format: .jsonl, "summary rows without dates", parts: [1, 3]) {
      $0.defaultDate = CalendarDay(iso8601: "2024-01-05")
    }
    #expect(general.fileError == nil)
    #expect(general.totals.skipped == 2)
    #expect(general.totals.records == 300)
    #expect(general.fastRecords == 300, "every data record on the fast path")
  }
}
