import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Several amounts per record (`--amount-field A,B,C`) on the fast paths of XML and the workbooks: records whose
/// amounts are all plain convert there (``FastPathTally`` counts them), the others by the general rules in the same
/// file, and both write what the general path alone writes. An amount that cannot be read fails its record with
/// an error naming it, and none of the record's converted values is written.
///
/// Rates (ECB, 2024-01-05): EUR/USD 1.0921, so 109.21 USD = 100.00 EUR and 10.921 USD = 10.00 EUR exactly.
@Suite("Several amounts: XML and workbooks on the fast path", .tags(.sanitized))
struct SeveralAmountsFastPathTests {
  typealias Differential = FastGeneralDifferentialTests

  /// Runs `input` on the general path and on the fast path (in one part), checks they write the same, and
  /// returns the fast run.
  static func fastRun(_ input: String, format: RecordFormat, configure: (inout BatchOptions) -> Void) throws
    -> Differential.Run
  {
    let source = RateSourceChoice.table(EmbeddedECBHistory.table)
    let general = try Differential.run(input, format: format, source: source, fastPath: false, configure: configure)
    let fast = try Differential.run(input, format: format, source: source, fastPath: true, configure: configure)
    Differential.compare(fast, general, "\(format)")
    #expect(general.fastRecords == 0)
    #expect(general.fileError == nil)
    return fast
  }

  /// Money elements per amount (`<Amt Ccy="USD">`, `<Fee Ccy="USD">`), a second amount that is empty, not a
  /// number or in another currency, and a record of a grouped amount (not plain: the general rules convert it).
  @Test func xmlMoneyElementsPerAmount() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func record(_ id: Int, _ amount: String, _ fee: String, feeCurrency: String = "USD") -> String {
      "  <payment id=\"\(id)\"><date>2024-01-05</date><Amt Ccy=\"USD\">\(amount)</Amt>"
        + "<Fee Ccy=\"\(feeCurrency)\">\(fee)</Fee><to>EUR</to></payment>\n"
    }
    let input = try directory.write(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<payments>\n" + record(1, "109.21", "10.921")
        + record(2, "109.21", "") + record(3, "109.21", "abc") + record(4, "1,092.10", "10.921")
        + record(5, "109.21", "10.921", feeCurrency: "GBP") + record(6, "218.42", "0") + "</payments>\n",
      named: "in.xml")
    let fast = try Self.fastRun(input, format: .xml) {
      $0.fieldNames = FieldNames(amounts: [AmountField(path: "Amt"), AmountField(path: "Fee")])
    }
    // Records 1 and 6 on the fast path; 4 (grouped) converts by the general rules; 2, 3, 5 fail.
    #expect(fast.fastRecords == 2)
    #expect(fast.totals.ok == 3 && fast.totals.error == 3)
    let text = String(decoding: fast.output.joined(), as: UTF8.self)
    // 109.21 / 1.0921 = 100.00; 10.921 / 1.0921 = 10.00; 1092.10 / 1.0921 = 1000.00; 218.42 / 1.0921 = 200.00.
    #expect(
      text.contains(
        #"<Fee Ccy="USD">10.921</Fee><to>EUR</to><fx rate="0.9156670635" converted-Amt="100.00" converted-Fee="10.00" currency="EUR" rate-date="2024-01-05" source="ecb-embedded EUR/USD=1.0921" status="ok" error=""/></payment>"#
      ))
    #expect(text.contains(#"converted-Amt="1000.00" converted-Fee="10.00""#))
    #expect(text.contains(#"converted-Amt="200.00" converted-Fee="0.00""#))
    // No converted value of a failed record is written; the error names the amount.
    #expect(
      text.contains(
        #"<fx rate="" converted-Amt="" converted-Fee="" currency="EUR" rate-date="" source="" status="error" error="missing_field: Fee: the amount is empty"/>"#
      ))
    #expect(
      text.contains(
        #"converted-Amt="" converted-Fee="" currency="EUR" rate-date="" source="" status="error" error="invalid_amount: Fee: "#))
    #expect(text.contains("the amounts disagree on the from-currency"))
  }

  /// Amounts as a record's attributes and child elements, with a from-currency element, in parts.
  @Test func xmlAttributeAndElementAmounts() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<payments>\n"
    for id in 0..<300 {
      // Every seventh record's fee is not plain (grouped): the general rules read it.
      let fee = id % 7 == 0 ? "1,092.10" : "10.921"
      text +=
        "  <payment id=\"\(id)\" fee=\"\(fee)\">\n    <date>2024-01-05</date>\n    <gross>109.21</gross>\n"
        + "    <from>USD</from>\n    <to>EUR</to>\n  </payment>\n"
    }
    let input = try directory.write(text + "</payments>\n", named: "in.xml")
    let configure = { (options: inout BatchOptions) in
      options.fieldNames = FieldNames(amounts: [AmountField(path: "gross"), AmountField(path: "@fee")])
    }
    let fast = try Self.fastRun(input, format: .xml, configure: configure)
    #expect(fast.fastRecords == 300 - 43)
    #expect(fast.totals.ok == 300)
    let output = String(decoding: fast.output.joined(), as: UTF8.self)
    #expect(
      output.contains(
        #"    <to>EUR</to>"# + "\n" + #"    <fx rate="0.9156670635" converted-gross="100.00" converted-fee="10.00""#))
    // In three parts, the same bytes.
    let parts = try Differential.run(
      input, format: .xml, source: .table(EmbeddedECBHistory.table), fastPath: true, parts: 3
    ) {
      configure(&$0)
      $0.parallelMinimumSize = 0
    }
    #expect(parts.output == fast.output)
  }

  /// A workbook's rows of several amounts: each amount cell read, a record whose second amount is text that is
  /// not a number (or missing) fails naming it, a grouped text amount read by the general rules.
  @Test(arguments: [RecordFormat.xlsx, .ods])
  func workbookRows(format: RecordFormat) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    typealias Cell = Differential.Cell
    let rows: [[Cell]] = [
      [.text("2024-01-05"), .text("USD"), .text("EUR"), .number("109.21"), .number("10.921")],
      [.text("2024-01-05"), .text("USD"), .text("EUR"), .number("109.21"), .text("abc")],
      [.text("2024-01-05"), .text("USD"), .text("EUR"), .text("1,092.10"), .number("10.921")],
      [.text("2024-01-05"), .text("USD"), .text("EUR"), .number("218.42"), .none],
      [.text("2024-01-05"), .text("USD"), .text("EUR"), .number("218.42"), .number("0")],
    ]
    let header = ["date", "from", "to", "Gross", "Fee"]
    let input: String
    if format == .xlsx {
      let columns = ["A", "B", "C", "D", "E"]
      var sheetRows = ["<row r=\"1\">" + zip(columns, header).map { XLSXOnePassTests.text("\($0)1", $1) }.joined() + "</row>"]
      for (index, cells) in rows.enumerated() {
        var markup = ""
        for (column, cell) in zip(columns, cells) {
          switch cell {
          case .text(let value): markup += XLSXOnePassTests.text("\(column)\(index + 2)", value)
          case .number(let value): markup += XLSXOnePassTests.number("\(column)\(index + 2)", value)
          default: break
          }
        }
        sheetRows.append("<row r=\"\(index + 2)\">\(markup)</row>")
      }
      input = try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(sheetRows), in: directory, "in")
    } else {
      func row(_ cells: [Cell]) -> String {
        "<table:table-row>"
          + cells.map { cell in
            switch cell {
            case .text(let value): return EndToEndODSTests.text(value)
            case .number(let value):
              return
                "<table:table-cell office:value-type=\"float\" office:value=\"\(value)\"><text:p>\(value)</text:p></table:table-cell>"
            default: return "<table:table-cell/>"
            }
          }.joined() + "</table:table-row>"
      }
      try EndToEndODSTests.spreadsheet(
        content: EndToEndODSTests.content(
          rows: row(header.map { .text($0) }) + rows.map(row).joined(),
          columns: "<table:table-column table:number-columns-repeated=\"5\"/>"),
        named: "in.ods", in: directory)
      input = directory.path + "/in.ods"
    }
    let fast = try Self.fastRun(input, format: format) {
      $0.fieldNames = FieldNames(amounts: [AmountField(path: "Gross"), AmountField(path: "Fee")])
    }
    // Rows 1, 3 and 5 on the fast path (row 3's grouped text read by the general rules, converted by the
    // engine's rule like the others); rows 2 and 4 fail.
    #expect(fast.fastRecords == 3)
    #expect(fast.totals.ok == 3 && fast.totals.error == 2)
    #expect(fast.reconciliation.contains { $0.amount == "Fee" })
    let text = String(decoding: fast.output.joined(), as: UTF8.self)
    #expect(text.contains("invalid_amount: Fee: "))
    #expect(text.contains("missing_field: Fee: "))
  }
}
