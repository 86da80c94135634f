import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Defects found by trying to break several amounts per record (`--amount-field A,B,C`) as a hostile user would,
/// each with the test that failed before its fix.
///
/// Rates (one day): 2024-03-01 EUR/USD 1.25, so USD→EUR 0.8; values by hand, half-up to EUR's 2 decimals.
@Suite("break it: several amounts")
struct BreakItSeveralAmountsTests {
  static let rates = """
    date,base,quote,rate
    2024-03-01,EUR,USD,1.25

    """

  /// A directory with `rates.csv` and one input file.
  static func directory(_ name: String, _ contents: String) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("rates.csv", Self.rates)
    try directory.write(name, contents)
    return directory
  }

  // MARK: - A member of the run's fx_converted_NAME already in a JSON record

  /// A JSON record that already has `fx_converted_fee` would get a second member of that name (duplicate keys,
  /// read differently by every JSON reader). With one amount a record with `fx_converted` is refused; with
  /// several amounts so is one with the run's `fx_converted_NAME`: invalid_record, the record copied as it is.
  /// The other record converts: 100.00 and −3.20 USD × 0.8 → 80.00 and −2.56.
  @Test func jsonRecordWithTheRunsConvertedMember() throws {
    let cli = try CLIRunner()
    let directory = try Self.directory(
      "in.json",
      """
      [{"date":"2024-03-01","currency":"USD","gross":"100.00","fee":"-3.20","fx_converted_fee":"1"},
       {"date":"2024-03-01","currency":"USD","gross":"100.00","fee":"-3.20"}]

      """)
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "gross,fee", "in.json", "-o", "out.json"],
      in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let output = try directory.read("out.json")
    let first = try #require(output.split(separator: "\n").first)
    #expect(first.components(separatedBy: "\"fx_converted_fee\"").count == 2, "\(first)")
    #expect(
      first.contains(
        #""fx_status":"error","fx_error":"invalid_record: the record already has the member \"fx_converted_fee\"; is it fxbatch output?""#
      ), "\(first)")
    #expect(output.contains(#""fx_converted_gross":"80.00","fx_converted_fee":"-2.56""#), "\(output)")
  }

  /// The same in JSON Lines, whose records are read by the same locator.
  @Test func jsonLinesRecordWithTheRunsConvertedMember() throws {
    let cli = try CLIRunner()
    let directory = try Self.directory(
      "in.jsonl",
      """
      {"date":"2024-03-01","currency":"USD","gross":"1.00","fee":"2.00","fx_converted_gross":"x"}
      {"date":"2024-03-01","currency":"USD","gross":"1.00","fee":"2.00"}

      """)
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "gross,fee", "in.jsonl", "-o", "out.jsonl"],
      in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let output = try directory.read("out.jsonl")
    let lines = output.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].components(separatedBy: "\"fx_converted_gross\"").count == 2, "\(output)")
    #expect(lines[0].contains("already has the member \\\"fx_converted_gross\\\""), "\(output)")
    // 1.00 and 2.00 USD × 0.8 → 0.80 and 1.60.
    #expect(lines[1].contains(#""fx_converted_gross":"0.80","fx_converted_fee":"1.60""#), "\(output)")
  }

  /// The names a record must not have already, for one amount and for several.
  @Test func existingNames() {
    #expect(AnnotationLayout.single.existingNames.contains("fx_converted"))
    #expect(!AnnotationLayout.single.existingNames.contains("fx_converted_fee"))
    let several = AnnotationLayout(amountNames: ["gross", "fee"])
    #expect(several.existingNames.isSuperset(of: ["fx_converted_gross", "fx_converted_fee", "fx_converted", "fx_input"]))
    #expect(!several.existingNames.contains("fx_converted_net"))
  }

  // MARK: - Ten thousand amounts: nothing quadratic per amount

  /// Two amounts of one NAME are still refused among 10,000, found by a dictionary (it compared each NAME with
  /// every one before it: 50 million comparisons).
  @Test func tenThousandNamesAreCheckedOnce() throws {
    let text = (0..<10_000).map { "A\($0)" }.joined(separator: ",")
    var fields: [AmountField] = []
    fields = try AmountField.parse(text)
    #expect(fields.count == 10_000)
    #expect(throws: AmountFieldError.sameName("A17", paths: ["A17", "x.A17"])) {
      try AmountField.parse(text + ",x.A17")
    }
    #expect(throws: AmountFieldError.samePath("A17")) { try AmountField.parse(text + ",A17") }
  }

  /// 4,000 amounts over a header of 4,000 columns are found in linear time (each amount's column was found by
  /// looking every other amount's name up in the whole header again: 64 billion comparisons), with the same
  /// checks: a missing amount and two columns of one normalized name are still refused.
  @Test func thousandsOfAmountColumnsResolveInLinearTime() throws {
    let count = 4_000
    let header = ["Date", "Currency"] + (0..<count).map { "A\($0)" }
    let names = FieldNames(amounts: (0..<count).map { AmountField(path: "A\($0)") })
    var mapping: FieldMapping?
    do {
      mapping = try FieldMapping.resolve(header: header, names: names, fixedFrom: false, fixedTo: true)
    }
    #expect(mapping?.amounts == Array(2..<(count + 2)))
    #expect(mapping?.from == 1)
    #expect(mapping?.date == 0)
    // The same checks as before.
    let missing = FieldNames(amounts: [AmountField(path: "A0"), AmountField(path: "Nope")])
    #expect(throws: FieldMappingError.namedFieldMissing(role: .amount, name: "Nope", header: header)) {
      try FieldMapping.resolve(header: header, names: missing, fixedFrom: false, fixedTo: true)
    }
    let twice = ["Date", "Currency", "Gross", "Fee", "fee"]
    #expect(throws: FieldMappingError.ambiguousField(role: .amount, names: ["Fee", "fee"], columns: [3, 4])) {
      try FieldMapping.resolve(
        header: twice, names: FieldNames(amounts: [AmountField(path: "Gross"), AmountField(path: "FEE")]),
        fixedFrom: false, fixedTo: true)
    }
    // A name exactly one column has chooses it.
    let exact = try FieldMapping.resolve(
      header: twice, names: FieldNames(amounts: [AmountField(path: "Gross"), AmountField(path: "fee")]),
      fixedFrom: false, fixedTo: true)
    #expect(exact.amounts == [2, 4])
  }

  /// 10,000 amounts per record are added to the reconciliation ledger in linear time (each NAME was looked up in
  /// the list of NAMEs met: 50 million comparisons a record), and listed in the amounts' order.
  @Test func tenThousandAmountsReconcileInLinearTime() throws {
    let count = 10_000
    let rate = ExchangeRate(numerator: try #require(ExactDecimal("0.8")))
    let amount = try #require(ExactDecimal("1.25"))
    let rounded = try #require(ExactDecimal("1.00"))
    var ledger = ReconciliationLedger()
    let names = (0..<count).map { "A\(count - $0)" }
    do {
      for _ in 0..<3 {
        for name in names { ledger.add(amount: amount, rate: rate, rounded: rounded, currency: .euro, name: name) }
      }
    }
    let reconciliations = ledger.reconciliations(rounding: .halfUp)
    #expect(reconciliations.map(\.amount) == names)
    #expect(reconciliations.allSatisfy { $0.records == 3 && $0.roundedRecordsTotal == "3.00" })
    // Merging keeps the order of NAMEs first met, the other's new NAMEs after.
    var other = ReconciliationLedger()
    for name in ["B", "A1", "C"] { other.add(amount: amount, rate: rate, rounded: rounded, currency: .euro, name: name) }
    var merged = ReconciliationLedger()
    for name in ["A1", "A2"] { merged.add(amount: amount, rate: rate, rounded: rounded, currency: .euro, name: name) }
    merged.add(other)
    #expect(merged.reconciliations(rounding: .halfUp).map(\.amount) == ["A1", "A2", "B", "C"])
  }

  /// 300 amounts × 10 JSON Lines records of 300 members: each amount was found by locating every other amount
  /// in the record again (cubic per record: 0.4 s a record at 100 amounts in a debug build, minutes at 300).
  @Test func hundredsOfJSONAmountsPerRecord() throws {
    let cli = try CLIRunner()
    let count = 300
    let record =
      "{\"date\":\"2024-03-01\",\"currency\":\"USD\","
      + (0..<count).map { "\"A\($0)\":\"\($0).25\"" }.joined(separator: ",") + "}\n"
    let directory = try Self.directory("wide.jsonl", String(repeating: record, count: 10))
    defer { directory.remove() }
    let fields = (0..<count).map { "A\($0)" }.joined(separator: ",")
    var result: CLIRunner.Result?
    do {
      result = try cli.run(
        ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", fields, "wide.jsonl", "-o", "out.jsonl"],
        in: directory.url)
    }
    #expect(result?.status == 0, "\(result?.standardError ?? "")")
    let lines = try directory.read("out.jsonl").split(separator: "\n")
    #expect(lines.count == 10)
    // A299: 299.25 × 0.8 = 239.40; A1: 1.25 × 0.8 = 1.00.
    #expect(lines.allSatisfy { $0.contains(#""fx_converted_A1":"1.00""#) && $0.contains(#""fx_converted_A299":"239.40""#) })
  }

  /// 800 amounts × 5 XML records of 800 child elements: each amount's locator looked up every other amount's
  /// element again (cubic per record: 3.8 s a record at 400 amounts in a debug build, 0.8 s now).
  @Test func hundredsOfXMLAmountsPerRecord() throws {
    let cli = try CLIRunner()
    let count = 800
    let record =
      "<row><date>2024-03-01</date><currency>USD</currency>"
      + (0..<count).map { "<A\($0)>\($0).25</A\($0)>" }.joined() + "</row>\n"
    let directory = try Self.directory("wide.xml", "<rows>\n" + String(repeating: record, count: 5) + "</rows>\n")
    defer { directory.remove() }
    let fields = (0..<count).map { "A\($0)" }.joined(separator: ",")
    var result: CLIRunner.Result?
    do {
      result = try cli.run(
        ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", fields, "wide.xml", "-o", "out.xml"],
        in: directory.url)
    }
    #expect(result?.status == 0, "\(result?.standardError ?? "")")
    let output = try directory.read("out.xml")
    // A1: 1.25 × 0.8 = 1.00; A799: 799.25 × 0.8 = 639.40.
    #expect(output.components(separatedBy: #"converted-A1="1.00""#).count == 6, "\(output.prefix(2000))")
    #expect(output.components(separatedBy: #"converted-A799="639.40""#).count == 6)
  }

  // MARK: - report merge of parts that converted other amounts

  /// `report merge` of a part converted with `--amount-field Gross` and one with `Gross,Fee,Net` listed the
  /// one amount's total beside the three amounts' as one run's (and two parts of `Gross,Fee` and `Gross,Fee,Net`
  /// reconciled Net over half the records): the parts ran with other options, refused as other rates are. Parts
  /// of the same amounts still merge: Gross 100.00 and 10.00 USD × 0.8 → 80.00 + 8.00 = 88.00 per part.
  @Test func mergingPartsOfOtherAmountsIsRefused() throws {
    let cli = try CLIRunner()
    let directory = try Self.directory(
      "a.csv",
      """
      Date,Currency,Gross,Fee,Net
      2024-03-01,USD,100.00,-3.20,96.80
      2024-03-01,USD,10.00,-0.35,9.65

      """)
    defer { directory.remove() }
    try directory.write("b.csv", try directory.read("a.csv"))
    func convert(_ file: String, _ fields: String, _ report: String) throws {
      let result = try cli.run(
        ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", fields, file, "-o", "out-" + report + ".csv",
         "--report", report],
        in: directory.url)
      #expect(result.status == 0, "\(result.standardError)")
    }
    try convert("a.csv", "Gross", "one.json")
    try convert("b.csv", "Gross,Fee,Net", "three.json")
    try convert("a.csv", "Gross,Fee", "two.json")
    try convert("a.csv", "Gross,Fee,Net", "three-a.json")
    let mixed = try cli.run(["report", "merge", "one.json", "three.json", "-o", "total.json"], in: directory.url)
    #expect(mixed.status != 0)
    #expect(
      mixed.standardError.contains(
        "three.json: its amounts (fx_converted_Fee, fx_converted_Gross, fx_converted_Net) differ from one.json's (fx_converted)"
      ), "\(mixed.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("total.json").path))
    let twoAndThree = try cli.run(["report", "merge", "two.json", "three.json", "-o", "total.json"], in: directory.url)
    #expect(twoAndThree.status != 0)
    #expect(twoAndThree.standardError.contains("its amounts"), "\(twoAndThree.standardError)")
    let same = try cli.run(["report", "merge", "three-a.json", "three.json", "-o", "total.json"], in: directory.url)
    #expect(same.status == 0, "\(same.standardError)")
    let total = try JSONDecoder().decode(RunReport.self, from: Data(try directory.read("total.json").utf8))
    #expect(total.reconciliation.map(\.amount) == ["Gross", "Fee", "Net"])
    #expect(total.reconciliation.first?.roundedRecordsTotal == "176.00")
    #expect(total.reconciliation.allSatisfy { $0.records == 4 })
  }
}
