import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Field options as a newcomer types them: a list with spaces after its commas, one field twice, a path written
/// with the other format's separator.
@Suite("field option spellings")
struct FieldOptionSpellingTests {
  @Test func spacesAroundListElementsAreNotPartOfNamesOrPaths() throws {
    #expect(
      try AmountField.parse("Gross, Fee, Net") == [
        AmountField(name: "Gross", path: "Gross"), AmountField(name: "Fee", path: "Fee"), AmountField(name: "Net", path: "Net"),
      ])
    #expect(
      try AmountField.parse("price = total_price_set.shop_money , tax=total_tax_set.shop_money") == [
        AmountField(name: "price", path: "total_price_set.shop_money"),
        AmountField(name: "tax", path: "total_tax_set.shop_money"),
      ])
    // A name with a space inside keeps it; an element of spaces only is still empty.
    #expect(try AmountField.parse("Net amount, Fee").map(\.name) == ["Net amount", "Fee"])
    #expect(throws: AmountFieldError.emptyElement("Gross, ,Fee")) { try AmountField.parse("Gross, ,Fee") }
  }

  @Test func aListWithSpacesWritesTheColumnsOfTheNames() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(
      "pp.csv", "Date,Currency,Gross,Fee,Net\n2024-03-01,USD,100.00,-3.79,96.21\n")
    var options = BatchOptions(today: try day("2024-03-10"))
    options.inputPaths = [input]
    options.fixedTo = try code("EUR")
    options.fieldNames = FieldNames(amounts: try AmountField.parse("Gross, Fee, Net"))
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.exitStatus == 0)
    let output = try String(contentsOfFile: directory.path + "/pp.converted.csv", encoding: .utf8)
    #expect(output.hasPrefix("Date,Currency,Gross,Fee,Net,fx_rate,fx_converted_Gross,fx_converted_Fee,fx_converted_Net,"))
  }

  @Test func oneFieldTwiceSaysSo() {
    #expect(throws: AmountFieldError.samePath("Gross")) { try AmountField.parse("Gross,Fee,Gross") }
    #expect(
      AmountFieldError.samePath("Gross").description == #"--amount-field: "Gross" is given twice; name each amount once"#)
    // Two NAMEs for one field are the user's choice.
    #expect(throws: Never.self) { try AmountField.parse("a=Gross,b=Gross") }
  }

  @Test(arguments: [
    (
      "o.jsonl",
      #"{"id":1,"created_at":"2025-02-03","total_price_set":{"shop_money":{"amount":"1.00","currency_code":"USD"}}}"# + "\n",
      "total_price_set/shop_money",
      #"hint: a JSON field path joins member names with ".", not "/": write total_price_set.shop_money"#
    ),
    (
      "s.xml",
      #"<s><e><Amt Ccy="USD">1.00</Amt><BookgDt><Dt>2025-03-03</Dt></BookgDt></e><e><Amt Ccy="USD">2.00</Amt>"#
        + "<BookgDt><Dt>2025-03-04</Dt></BookgDt></e></s>\n",
      "BookgDt.Dt",
      #"hint: an XML field path joins element names with "/", not ".": write BookgDt/Dt"#
    ),
  ])
  func aPathWithTheOtherSeparatorGetsAHint(name: String, text: String, field: String, hint: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(name, text)
    var options = BatchOptions(today: try day("2025-03-10"))
    options.inputPaths = [input]
    options.fixedTo = try code("EUR")
    options.fieldNames =
      field.hasPrefix("total") ? FieldNames(amounts: [AmountField(path: field)]) : FieldNames(date: field)
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.exitStatus == 2)
    let error = report.files.first?.fileError ?? ""
    #expect(error.contains("no record has such a field"), "\(error)")
    #expect(error.contains(hint), "\(error)")
  }

  @Test func otherMissingNamesGetNoSeparatorHint() {
    #expect(FileError.separatorHint("Gros", nameKind: "members") == nil)
    #expect(FileError.separatorHint("@cur.code", nameKind: "fields") == nil)
    #expect(FileError.separatorHint("a.b/c", nameKind: "fields") == nil)
  }
}

