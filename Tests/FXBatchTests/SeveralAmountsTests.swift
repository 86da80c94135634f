import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `--amount-field A,B,C`: how the value is read, the NAMEs, the annotation fields, and the one place that sends
/// several amounts to the general path.
@Suite("several amounts")
struct SeveralAmountsTests {
  @Test(arguments: [
    ("Gross", "Gross"),
    ("total_price_set.shop_money.amount", "amount"),
    ("LegalMonetaryTotal/cbc:PayableAmount", "PayableAmount"),
    ("cbc:TaxAmount", "TaxAmount"),
    ("Amt/@Ccy", "Ccy"),
    ("@value", "value"),
    (#"a\.b"#, "a.b"),
    ("Net amount", "Net amount"),
  ])
  func localName(path: String, name: String) {
    #expect(AmountField.localName(of: path) == name)
  }

  @Test func parsesPathsNamesAndEscapes() throws {
    #expect(
      try AmountField.parse("Gross,Fee,Net") == [
        AmountField(name: "Gross", path: "Gross"), AmountField(name: "Fee", path: "Fee"), AmountField(name: "Net", path: "Net"),
      ])
    #expect(
      try AmountField.parse("price=total_price_set.shop_money,tax=total_tax_set.shop_money") == [
        AmountField(name: "price", path: "total_price_set.shop_money"),
        AmountField(name: "tax", path: "total_tax_set.shop_money"),
      ])
    // `\,` is a comma and `\=` an equals sign inside a name; `\.` stays for the JSON path.
    #expect(try AmountField.parse(#"Amount\, EUR,fee"#).map(\.path) == ["Amount, EUR", "fee"])
    #expect(try AmountField.parse(#"a\=b"#) == [AmountField(name: "a=b", path: "a=b")])
    #expect(try AmountField.parse(#"x=report\.total.amount"#) == [AmountField(name: "x", path: #"report\.total.amount"#)])
    // One amount: its path alone.
    #expect(try AmountField.parse("g=Gross") == [AmountField(name: "g", path: "Gross")])
  }

  @Test(arguments: ["a,,b", "a,", "=a", "a=", ""])
  func refusesEmptyParts(text: String) {
    #expect(throws: AmountFieldError.self) { try AmountField.parse(text) }
  }

  @Test func refusesOneNameTwice() {
    #expect(throws: AmountFieldError.sameName("amount", paths: ["a.amount", "b.amount"])) {
      try AmountField.parse("a.amount,b.amount")
    }
    #expect(throws: AmountFieldError.sameName("x", paths: ["Gross", "Fee"])) { try AmountField.parse("x=Gross,x=Fee") }
    #expect(throws: Never.self) { try AmountField.parse("price=a.amount,tax=b.amount") }
  }

  @Test func fieldNamesOfOneAmountAreUnchanged() {
    let one = FieldNames(amounts: [AmountField(name: "g", path: "Gross")])
    #expect(one == FieldNames(amount: "Gross"))
    #expect(one.amountNames.isEmpty)
    let several = FieldNames(amounts: [AmountField(path: "Gross"), AmountField(path: "Fee")])
    #expect(several.amount == "Gross")
    #expect(several.amountNames == ["Gross", "Fee"])
    #expect(several.reading(amount: 1).amount == "Fee")
  }

  @Test func layoutNamesTheFields() {
    #expect(AnnotationLayout.single.fieldNames == AnnotationColumn.allCases.map(\.rawValue))
    #expect(AnnotationLayout(amountNames: ["only"]) == .single)
    let layout = AnnotationLayout(amountNames: ["Gross", "Fee"])
    #expect(
      layout.fieldNames == [
        "fx_rate", "fx_converted_Gross", "fx_converted_Fee", "fx_currency", "fx_rate_date", "fx_source", "fx_status",
        "fx_error",
      ])
    #expect(
      layout.xmlAttributeNames == [
        "rate", "converted-Gross", "converted-Fee", "currency", "rate-date", "source", "status", "error",
      ])
    #expect(layout.count == 8)
    #expect(layout.columns.filter { $0 == .converted }.count == 2)
  }

  @Test func annotatedOutputsAreRecognised() {
    #expect(AnnotationColumn.endAnnotated(["a"] + AnnotationColumn.allCases.map(\.rawValue)))
    #expect(AnnotationColumn.endAnnotated(["a"] + AnnotationLayout(amountNames: ["x", "y", "z"]).fieldNames))
    // Not fxbatch output: one fx_converted_ field, or none after fx_rate.
    let after = ["fx_currency", "fx_rate_date", "fx_source", "fx_status", "fx_error"]
    #expect(!AnnotationColumn.endAnnotated(["fx_rate", "fx_converted_x"] + after))
    #expect(!AnnotationColumn.endAnnotated(["a", "fx_converted_x", "fx_converted_y"] + after))
  }

  @Test func failedRecordsLeaveEveryConvertedCellEmpty() {
    let layout = AnnotationLayout(amountNames: ["a", "b", "c"])
    let cells = RowOutcome.failed(RowError(.invalidAmount, "b: x"), currency: nil, source: nil).cells(
      decimalMark: .point, layout: layout)
    #expect(cells == ["", "", "", "", "", "", "", "error", "invalid_amount: b: x"])
  }

  /// Several amounts keep the fast path (CSV, JSON, JSON Lines); only what was asked turns it off.
  @Test func severalAmountsKeepTheFastPath() throws {
    var options = BatchOptions(today: try day("2026-01-01"))
    #expect(options.fastPath)
    options.fieldNames = FieldNames(amounts: [AmountField(path: "Gross"), AmountField(path: "Fee")])
    #expect(options.fastPath)
    options.fastPath = false
    #expect(!options.fastPath)
  }

  /// The fast path's templates hold up to eight converted amounts, with NAMEs written as they are only when
  /// plain; any other run of several amounts has no template (its records take the general path).
  @Test func templatesOfSeveralAmounts() {
    #expect(InlineList<ExactDecimal>.capacity == 8)
    let three = AnnotationLayout(amountNames: ["amount", "fee", "net"])
    let csv = AnnotationTemplate.csv(delimiter: UInt8(ascii: ","), amountCount: 8)
    #expect(csv.pieceCount == 15 && csv.amountCount == 8)
    let json = AnnotationTemplate.jsonMembers(layout: three)
    #expect(json?.amountCount == 3)
    #expect(json.map { String(decoding: $0.bytes.prefix($0.lastStart), as: UTF8.self) }
      == #","fx_rate":"","fx_converted_amount":"","fx_converted_fee":"","fx_converted_net":"","fx_currency":"","#
      + #""fx_rate_date":"","fx_source":"","fx_status":"","fx_error":"""#)
    #expect(AnnotationTemplate.xmlElement(layout: three)?.amountCount == 3)
    #expect(AnnotationTemplate.jsonMembers(layout: AnnotationLayout(amountNames: ["a\"b", "c"])) == nil)
    #expect(AnnotationTemplate.xmlElement(layout: AnnotationLayout(amountNames: ["1a", "b"])) == nil)
    let long = AnnotationLayout(amountNames: (0..<8).map { "an_amount_with_a_long_name_\($0)" })
    #expect(AnnotationTemplate.jsonMembers(layout: long) == nil, "too long for a template of 255 bytes")
  }

  /// CSV headers: every amount's column found as the one amount's is, the others kept from other roles.
  @Test func csvHeaderMapsEveryAmount() throws {
    let names = FieldNames(amounts: [AmountField(path: "gross"), AmountField(path: "Fee"), AmountField(path: "NET")])
    let mapping = try FieldMapping.resolve(
      header: ["Date", "Currency", "Gross", "Fee", "Net"], names: names, fixedFrom: false, fixedTo: true)
    #expect(mapping.amounts == [2, 3, 4])
    #expect(mapping.from == 1)
    #expect(throws: FieldMappingError.self) {
      try FieldMapping.resolve(
        header: ["Date", "Currency", "Gross", "Net"], names: names, fixedFrom: false, fixedTo: true)
    }
  }
}

/// The library refuses several amounts of one NAME too (a job made without the CLI), before anything is written.
@Suite("several amounts: the job")
struct SeveralAmountsJobTests {
  @Test func oneNameTwiceIsAFileError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write("a.csv", "date,currency,Gross,Fee\n2024-03-01,USD,1.00,0.10\n")
    var options = BatchOptions(today: try day("2024-03-10"))
    options.inputPaths = [input]
    options.fixedTo = try code("EUR")
    options.fieldNames = FieldNames(amounts: [AmountField(name: "x", path: "Gross"), AmountField(name: "x", path: "Fee")])
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.exitStatus == 2)
    #expect(report.files.first?.fileError?.contains("two amounts are named \"x\"") == true)
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/a.converted.csv"))
  }
}
