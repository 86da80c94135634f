import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Runs the built `fxbatch` with several amounts per record (`--amount-field A,B,C`) in every format, to euros,
/// from a rates file of one day:
///   2024-03-01: EUR/USD 1.25 (USD→EUR 0.8), EUR/GBP 0.8 (GBP→EUR 1.25), EUR/JPY 160 (JPY→EUR 0.00625)
/// Every record's amounts convert at its one rate, each rounded once, half-up, to EUR's 2 decimals; the
/// expected values are worked out by hand in each test.
@Suite("fxbatch end to end: several amounts")
struct EndToEndSeveralAmountsTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = """
    date,base,quote,rate
    2024-03-01,EUR,USD,1.25
    2024-03-01,EUR,GBP,0.8
    2024-03-01,EUR,JPY,160

    """

  /// A directory with `rates.csv` and one input file.
  static func directory(_ name: String, _ contents: String) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    try directory.write("rates.csv", rates)
    try directory.write(name, contents)
    return directory
  }

  /// A PayPal activity export: `Gross`, `Fee` (negative), `Net`; one record without a fee, one with a fee that
  /// is no number. By hand:
  ///   1. USD 100.00 −3.20 96.80 × 0.8 → 80.00, −2.56, 77.44
  ///   2. USD 25.55, empty Fee → missing_field naming Fee; no converted cell
  ///   3. GBP 10.01 −0.35 9.66 × 1.25 → 12.5125 → 12.51, −0.4375 → −0.44, 12.075 → 12.08 (half-up)
  ///   4. USD 1.05 −0.07 0.98 × 0.8 → 0.84, −0.056 → −0.06, 0.784 → 0.78
  ///   5. USD 2.00 "x" 2.00 → invalid_amount naming Fee
  /// Totals per amount: Gross 80.00 + 12.51 + 0.84 = 93.35 (exact 93.3525 → 93.35, difference 0.00); Fee −2.56
  /// − 0.44 − 0.06 = −3.06 (exact −3.0535 → −3.05, difference −0.01); Net 77.44 + 12.08 + 0.78 = 90.30 (exact
  /// 90.299 → 90.30, difference 0.00).
  static let paypal = """
    Date,Name,Currency,Gross,Fee,Net
    2024-03-01,Alice,USD,100.00,-3.20,96.80
    2024-03-01,Bob,USD,25.55,,25.55
    2024-03-01,Carol,GBP,10.01,-0.35,9.66
    2024-03-01,Dan,USD,1.05,-0.07,0.98
    2024-03-01,Eve,USD,2.00,x,2.00

    """

  @Test func payPalCSV() throws {
    let directory = try Self.directory("paypal.csv", Self.paypal)
    defer { directory.remove() }
    let result = try cli.run(
      [
        "convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "Gross,Fee,Net", "paypal.csv", "--report",
        "report.json",
      ],
      in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let lines = try directory.read("paypal.converted.csv").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines[0]
        == "Date,Name,Currency,Gross,Fee,Net,fx_rate,fx_converted_Gross,fx_converted_Fee,fx_converted_Net,fx_currency,fx_rate_date,fx_source,fx_status,fx_error"
    )
    #expect(
      lines[1] == "2024-03-01,Alice,USD,100.00,-3.20,96.80,0.8,80.00,-2.56,77.44,EUR,2024-03-01,file:rates.csv EUR/USD=1.25,ok,")
    #expect(lines[2] == "2024-03-01,Bob,USD,25.55,,25.55,,,,,EUR,,,error,missing_field: Fee: the amount is empty")
    #expect(
      lines[3] == "2024-03-01,Carol,GBP,10.01,-0.35,9.66,1.25,12.51,-0.44,12.08,EUR,2024-03-01,file:rates.csv EUR/GBP=0.8,ok,")
    #expect(lines[4] == "2024-03-01,Dan,USD,1.05,-0.07,0.98,0.8,0.84,-0.06,0.78,EUR,2024-03-01,file:rates.csv EUR/USD=1.25,ok,")
    #expect(lines[5] == #"2024-03-01,Eve,USD,2.00,x,2.00,,,,,EUR,,,error,"invalid_amount: Fee: ""x"" is not a number""#)
    #expect(
      result.standardError.contains(
        "reconciliation EUR fx_converted_Fee, 3 records: sum of rounded amounts -3.06, exact sum rounded once -3.05, difference -0.01"
      ),
      "\(result.standardError)")
    let report = try JSONDecoder().decode(RunReport.self, from: Data(try directory.read("report.json").utf8))
    #expect(
      report.reconciliation == [
        Reconciliation(
          amount: "Gross", currency: "EUR", records: 3, roundedRecordsTotal: "93.35", exactTotalRounded: "93.35",
          difference: "0.00"),
        Reconciliation(
          amount: "Fee", currency: "EUR", records: 3, roundedRecordsTotal: "-3.06", exactTotalRounded: "-3.05",
          difference: "-0.01"),
        Reconciliation(
          amount: "Net", currency: "EUR", records: 3, roundedRecordsTotal: "90.30", exactTotalRounded: "90.30",
          difference: "0.00"),
      ])
    #expect(report.unroundedTotals?.map(\.amount) == ["Gross", "Fee", "Net"])
    #expect(report.files.first?.reconciliation == report.reconciliation)
    #expect(report.totals.errorsByCode == ["missing_field": 1, "invalid_amount": 1])
    // The reports of two runs over parts add up per amount (`report merge`).
    let merged = try RunReport.merged([("a", report), ("b", Self.renamed(report))])
    #expect(merged.reconciliation.map(\.roundedRecordsTotal) == ["186.70", "-6.12", "180.60"])
    #expect(merged.reconciliation.map(\.amount) == ["Gross", "Fee", "Net"])

    // The annotated copy is fxbatch output: a second run over it refuses it.
    let again = try cli.run(
      [
        "convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "Gross,Fee,Net", "paypal.converted.csv", "-o",
        "again.csv",
      ],
      in: directory.url)
    #expect(again.status == 2)
    #expect(again.standardError.contains("fx_* fields"), "\(again.standardError)")
  }

  /// A report whose file is named otherwise (a run over another part of the data).
  static func renamed(_ report: RunReport) -> RunReport {
    var other = report
    for index in other.files.indices { other.files[index].input = "other-" + other.files[index].input }
    return other
  }

  /// With one amount nothing changes: `NAME=PATH` of one amount reads PATH and writes `fx_converted`, the same
  /// bytes as the plain name and as before (values by hand as in ``payPalCSV()``).
  @Test func oneAmountIsUnchanged() throws {
    let directory = try Self.directory("paypal.csv", Self.paypal)
    defer { directory.remove() }
    var outputs: [String] = []
    for (index, field) in ["Gross", "g=Gross"].enumerated() {
      let result = try cli.run(
        ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", field, "paypal.csv", "-o", "out\(index).csv"],
        in: directory.url)
      #expect(result.status == 0, "\(result.standardError)")
      // 80.00 + 25.55 × 0.8 (20.44) + 12.51 + 0.84 + 2.00 × 0.8 (1.60) = 115.39.
      #expect(result.standardError.contains("reconciliation EUR, 5 records: sum of rounded amounts 115.39"))
      outputs.append(try directory.read("out\(index).csv"))
    }
    #expect(outputs[0] == outputs[1])
    let lines = outputs[0].split(separator: "\n")
    #expect(
      lines[0] == "Date,Name,Currency,Gross,Fee,Net,fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error")
    #expect(lines[3] == "2024-03-01,Carol,GBP,10.01,-0.35,9.66,1.25,12.51,EUR,2024-03-01,file:rates.csv EUR/GBP=0.8,ok,")
  }

  /// Invoices with `net`, `tax`, `gross`, in yen and pounds. By hand: 10000 1000 11000 JPY × 0.00625 → 62.50,
  /// 6.25, 68.75; 100.00 20.00 120.00 GBP × 1.25 → 125.00, 25.00, 150.00.
  @Test func invoiceCSV() throws {
    let directory = try Self.directory(
      "invoices.csv", "date,currency,net,tax,gross\n2024-03-01,JPY,10000,1000,11000\n2024-03-01,GBP,100.00,20.00,120.00\n")
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "net,tax,gross", "invoices.csv", "-o", "-"],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput == """
        date,currency,net,tax,gross,fx_rate,fx_converted_net,fx_converted_tax,fx_converted_gross,fx_currency,fx_rate_date,fx_source,fx_status,fx_error
        2024-03-01,JPY,10000,1000,11000,0.00625,62.50,6.25,68.75,EUR,2024-03-01,file:rates.csv EUR/JPY=160,ok,
        2024-03-01,GBP,100.00,20.00,120.00,1.25,125.00,25.00,150.00,EUR,2024-03-01,file:rates.csv EUR/GBP=0.8,ok,

        """)
  }

  /// A Stripe balance-transaction list: amounts in minor units, unix seconds (1709251200 is 2024-03-01 00:00
  /// UTC: day 19783 × 86400). By hand:
  ///   1. 1250 −67 1183 usd → 12.50 −0.67 11.83 × 0.8 → 10.00, −0.536 → −0.54, 9.464 → 9.46
  ///   2. 100000 −2930 97070 jpy (no minor units) × 0.00625 → 625.00, −18.3125 → −18.31, 606.6875 → 606.69
  ///   3. fee "12.5" → not a whole number of cents: invalid_amount naming fee
  ///   4. no net → missing_field naming net
  @Test func stripeList() throws {
    let directory = try Self.directory(
      "balance.json",
      """
      {"object": "list", "data": [
        {"id": "txn_1", "amount": 1250, "fee": -67, "net": 1183, "currency": "usd", "created": 1709251200},
        {"id": "txn_2", "amount": 100000, "fee": -2930, "net": 97070, "currency": "jpy", "created": 1709251200},
        {"id": "txn_3", "amount": 1250, "fee": "12.5", "net": 1183, "currency": "usd", "created": 1709251200},
        {"id": "txn_4", "amount": 1250, "fee": -67, "currency": "usd", "created": 1709251200}
      ], "has_more": false}

      """)
    defer { directory.remove() }
    let result = try cli.run(
      [
        "convert", "--to", "EUR", "--rates", "rates.csv", "--records-path", "data", "--amount-field", "amount,fee,net",
        "--amount-unit", "minor", "--date-field", "created", "--date-format", "unix", "balance.json", "-o", "out.json",
      ], in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(try directory.read("out.json").utf8)) as? [String: Any]
    let records = try #require(document?["data"] as? [[String: Any]])
    func values(_ record: [String: Any]) -> [String] {
      ["fx_converted_amount", "fx_converted_fee", "fx_converted_net", "fx_status"].map { record[$0] as? String ?? "?" }
    }
    #expect(values(records[0]) == ["10.00", "-0.54", "9.46", "ok"])
    #expect(values(records[1]) == ["625.00", "-18.31", "606.69", "ok"])
    #expect(values(records[2]) == ["", "", "", "error"])
    #expect((records[2]["fx_error"] as? String)?.hasPrefix("invalid_amount: fee: \"12.5\" is not a whole number") == true)
    #expect(values(records[3]) == ["", "", "", "error"])
    #expect((records[3]["fx_error"] as? String)?.hasPrefix("missing_field: net: ") == true, "\(records[3])")
    #expect(records[0]["fx_converted"] == nil)
  }

  static let shopify = """
    {"id":1,"created_at":"2024-03-01T10:00:00Z","total_price_set":{"shop_money":{"amount":"12.50","currency_code":"USD"}},"total_tax_set":{"shop_money":{"amount":"2.08","currency_code":"USD"}}}
    {"id":2,"created_at":"2024-03-01T11:00:00Z","total_price_set":{"shop_money":{"amount":"30.00","currency_code":"USD"}},"total_tax_set":{"shop_money":{"amount":"5.00","currency_code":"GBP"}}}

    """

  /// Shopify orders as JSON Lines, each amount a money object giving its currency. By hand: 12.50 and 2.08 USD
  /// × 0.8 → 10.00 and 1.664 → 1.66; the second order's tax is in GBP, its price in USD: invalid_record.
  @Test func shopifyMoneyObjects() throws {
    let directory = try Self.directory("orders.jsonl", Self.shopify)
    defer { directory.remove() }
    let result = try cli.run(
      [
        "convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field",
        "price=total_price_set.shop_money,tax=total_tax_set.shop_money", "--date-field", "created_at", "orders.jsonl",
        "-o", "-",
      ], in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let records = result.standardOutput.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
    }
    #expect(records.count == 2)
    #expect(records[0]["fx_converted_price"] as? String == "10.00")
    #expect(records[0]["fx_converted_tax"] as? String == "1.66")
    #expect(records[0]["fx_status"] as? String == "ok")
    #expect(records[1]["fx_converted_price"] as? String == "")
    #expect(
      records[1]["fx_error"] as? String
        == "invalid_record: the amounts disagree on the from-currency: \"price\" is in USD and \"tax\" in GBP; all amounts of a record convert from its one from-currency"
    )
  }

  /// Two amounts of one NAME (both paths end in `amount`) are refused before anything is written, with the fix.
  @Test func oneNameTwiceIsRefused() throws {
    let directory = try Self.directory("orders.jsonl", Self.shopify)
    defer { directory.remove() }
    let result = try cli.run(
      [
        "convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field",
        "total_price_set.shop_money.amount,total_tax_set.shop_money.amount", "orders.jsonl",
      ], in: directory.url)
    #expect(result.status == 64, "\(result.standardError)")
    #expect(result.standardError.contains("two amounts are named \"amount\""), "\(result.standardError)")
    #expect(result.standardError.contains("NAME1=total_price_set.shop_money.amount,NAME2=total_tax_set.shop_money.amount"))
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/orders.converted.jsonl"))
  }

  /// XML invoices: the `fx` element gets `converted-NAME` attributes in `converted`'s place. By hand: 100.00
  /// 20.00 120.00 GBP × 1.25 → 125.00, 25.00, 150.00; the second invoice has no tax: missing_field naming tax.
  /// A NAME that cannot end an attribute name is refused.
  @Test func xmlConvertedAttributes() throws {
    let directory = try Self.directory(
      "invoices.xml",
      """
      <invoices>
        <invoice currency="GBP"><date>2024-03-01</date><net>100.00</net><tax>20.00</tax><gross>120.00</gross></invoice>
        <invoice currency="GBP"><date>2024-03-01</date><net>100.00</net><gross>120.00</gross></invoice>
      </invoices>

      """)
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "net,tax,gross", "invoices.xml", "-o", "-"],
      in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    #expect(
      result.standardOutput.contains(
        #"<fx rate="1.25" converted-net="125.00" converted-tax="25.00" converted-gross="150.00" currency="EUR" rate-date="2024-03-01" source="file:rates.csv EUR/GBP=0.8" status="ok" error=""/></invoice>"#
      ), "\(result.standardOutput)")
    #expect(
      result.standardOutput.contains(
        #"<fx rate="" converted-net="" converted-tax="" converted-gross="" currency="EUR" rate-date="" source="" status="error" error="missing_field: tax: the record has no amount field"/>"#
      ), "\(result.standardOutput)")
    let refused = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "net amount=net,tax", "invoices.xml", "-o", "-"],
      in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("the amount NAME \"net amount\" (of \"net\") cannot name an XML attribute"))
    #expect(refused.standardOutput.isEmpty)
  }

  /// A sheet with `Gross`, `Fee`, `Net` number cells: the fx_* cells after them are `fx_rate`, a numeric cell
  /// per amount, `fx_currency`, …. Values by hand as in ``payPalCSV()`` (rows 2 and 3 of it: USD 100.00 −3.20
  /// 96.80 → 80.00 −2.56 77.44; GBP 10.01 −0.35 9.66 → 12.51 −0.44 12.08).
  @Test func xlsxThreeAmounts() throws {
    let directory = try Self.directory("rates-only.txt", "")
    defer { directory.remove() }
    let records = [("USD", "100", "-3.2", "96.8"), ("GBP", "10.01", "-0.35", "9.66")]
    var rows = [
      #"<row r="1">"# + XLSXOnePassTests.text("A1", "date") + XLSXOnePassTests.text("B1", "currency")
        + XLSXOnePassTests.text("C1", "Gross") + XLSXOnePassTests.text("D1", "Fee") + XLSXOnePassTests.text("E1", "Net")
        + "</row>"
    ]
    for (index, record) in records.enumerated() {
      let row = index + 2
      rows.append(
        #"<row r="\#(row)">"# + XLSXOnePassTests.text("A\(row)", "2024-03-01") + XLSXOnePassTests.text("B\(row)", record.0)
          + XLSXOnePassTests.number("C\(row)", record.1) + XLSXOnePassTests.number("D\(row)", record.2)
          + XLSXOnePassTests.number("E\(row)", record.3) + "</row>")
    }
    _ = try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(rows), in: directory, "activity")
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "Gross,Fee,Net", "activity.xlsx"],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let path = directory.path + "/activity.converted.xlsx"
    let styles = try EndToEndXLSXTests.dateStyles(of: path)
    let sheet = try EndToEndXLSXTests.rows(of: path)
    #expect(
      EndToEndXLSXTests.values(of: sheet[0], from: 5, count: 9) == [
        "fx_rate", "fx_converted_Gross", "fx_converted_Fee", "fx_converted_Net", "fx_currency", "fx_rate_date",
        "fx_source", "fx_status", "fx_error",
      ])
    #expect(
      EndToEndXLSXTests.values(of: sheet[1], from: 5, count: 9, dateStyles: styles) == [
        "0.8", "80.00", "-2.56", "77.44", "EUR", "2024-03-01", "file:rates.csv EUR/USD=1.25", "ok", "",
      ])
    #expect(
      EndToEndXLSXTests.values(of: sheet[2], from: 5, count: 9, dateStyles: styles) == [
        "1.25", "12.51", "-0.44", "12.08", "EUR", "2024-03-01", "file:rates.csv EUR/GBP=0.8", "ok", "",
      ])
    // Each converted amount is a number cell.
    let converted = sheet[1].cells.filter { (6...8).contains($0.reference.column) }
    #expect(converted.count == 3)
    #expect(converted.allSatisfy { if case .number = $0.value { return true } else { return false } })
  }

  /// The same as an `.ods` table: a float cell per amount.
  @Test func odsThreeAmounts() throws {
    let directory = try Self.directory("rates-only.txt", "")
    defer { directory.remove() }
    func float(_ value: String) -> String {
      #"<table:table-cell office:value-type="float" office:value="\#(value)"><text:p>\#(value)</text:p></table:table-cell>"#
    }
    let rows =
      "<table:table-row>" + ["date", "currency", "Gross", "Fee", "Net"].map(EndToEndODSTests.text).joined()
      + "</table:table-row>" + "<table:table-row>" + EndToEndODSTests.text("2024-03-01") + EndToEndODSTests.text("USD")
      + float("100") + float("-3.2") + float("96.8") + "</table:table-row>"
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: rows), named: "activity.ods", in: directory)
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "Gross,Fee,Net", "activity.ods"],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let sheet = try EndToEndODSTests.rows(of: directory.path + "/activity.converted.ods")
    #expect(
      EndToEndODSTests.values(of: sheet[0], from: 5, count: 9) == [
        "fx_rate", "fx_converted_Gross", "fx_converted_Fee", "fx_converted_Net", "fx_currency", "fx_rate_date",
        "fx_source", "fx_status", "fx_error",
      ])
    #expect(
      EndToEndODSTests.values(of: sheet[1], from: 5, count: 8) == [
        "0.8", "80.00", "-2.56", "77.44", "EUR", "2024-03-01", "file:rates.csv EUR/USD=1.25", "ok",
      ])
    let converted = sheet[1].cells.filter { (6...8).contains($0.reference.column) }
    #expect(converted.allSatisfy { if case .number = $0.value { return true } else { return false } })
  }

  /// Whose problem a record's error is: one of the whole record (a member twice) names no amount; one of an
  /// amount's own field (an object that is no money object, a path that leads nowhere) names it. By hand:
  /// 10.00 and −0.30 USD × 0.8 → 8.00 and −0.24.
  @Test func errorsNameTheirAmount() throws {
    let directory = try Self.directory(
      "charges.jsonl",
      """
      {"date":"2024-03-01","currency":"USD","amount":"10.00","fee":{"value":"-0.30","currency":"USD"}}
      {"date":"2024-03-01","currency":"USD","currency":"USD","amount":"10.00","fee":{"value":"-0.30","currency":"USD"}}
      {"date":"2024-03-01","currency":"USD","amount":"10.00","fee":{"value":"-0.30"}}
      {"date":"2024-03-01","currency":"USD","fee":{"value":"-0.30","currency":"USD"}}
      {"date":"2024-03-01","currency":"USD","amount":"10.00","fee":{"value":"-0.30","currency":"GBP"}}

      """)
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "amount,fee", "charges.jsonl", "-o", "-"],
      in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let records = result.standardOutput.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
    }
    #expect(records.count == 5)
    #expect(records[0]["fx_converted_amount"] as? String == "8.00")
    #expect(records[0]["fx_converted_fee"] as? String == "-0.24")
    #expect((records[1]["fx_error"] as? String)?.hasPrefix("invalid_record: the member \"currency\" occurs twice") == true)
    #expect(
      (records[2]["fx_error"] as? String)?.hasPrefix(
        "invalid_amount: fee: the amount \"fee\" is an object that has no currency member")
        == true, "\(records[2])")
    #expect((records[3]["fx_error"] as? String)?.hasPrefix("missing_field: amount: ") == true, "\(records[3])")
    // A money object's currency against the record's from-currency field: the record's own rule.
    #expect((records[4]["fx_error"] as? String)?.hasPrefix("invalid_record: ") == true, "\(records[4])")
    #expect(records[4]["fx_converted_amount"] as? String == "")
    for record in records.dropFirst() { #expect(record["fx_converted_fee"] as? String == "") }
  }

  /// A record whose only currency is a later amount's money object converts from it, and pass 1 asks for its key
  /// (`rates lock` writes it). By hand: 10.00 and −0.30 USD × 0.8 → 8.00 and −0.24.
  @Test func aLaterAmountsCurrencyIsTheRecords() throws {
    let directory = try Self.directory(
      "late.jsonl", #"{"date":"2024-03-01","total":"10.00","fee":{"value":"-0.30","currency":"USD"}}"# + "\n")
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "total,fee", "late.jsonl", "-o", "-"],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(#""fx_converted_total":"8.00","fx_converted_fee":"-0.24""#))
    let lock = try cli.run(
      ["rates", "lock", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "total,fee", "late.jsonl", "-o", "rates.lock"],
      in: directory.url)
    #expect(lock.status == 0, "\(lock.standardError)")
    #expect(try directory.read("rates.lock").contains("USD"))
  }

  /// XML money elements under prefixed paths: a UBL invoice's payable and tax amounts, each with its
  /// `currencyID`, their paths' prefixes bound by the document. By hand: 119.00 and 19.00 USD × 0.8 → 95.20 and
  /// 15.20. A bank statement's entry and its charges (`Amt`, `Chrgs/Amt`): a charge in another currency is
  /// invalid_record; one without charges is missing_field naming them.
  @Test func xmlMoneyElements() throws {
    let directory = try Self.directory(
      "invoice.xml",
      #"""
      <?xml version="1.0" encoding="UTF-8"?>
      <Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
        <cbc:ID>INV-1</cbc:ID>
        <cbc:IssueDate>2024-03-01</cbc:IssueDate>
        <cbc:DocumentCurrencyCode>USD</cbc:DocumentCurrencyCode>
        <cac:TaxTotal>
          <cbc:TaxAmount currencyID="USD">19.00</cbc:TaxAmount>
        </cac:TaxTotal>
        <cac:LegalMonetaryTotal>
          <cbc:PayableAmount currencyID="USD">119.00</cbc:PayableAmount>
        </cac:LegalMonetaryTotal>
      </Invoice>
      """#)
    defer { directory.remove() }
    let result = try cli.run(
      [
        "convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field",
        "cac:LegalMonetaryTotal/cbc:PayableAmount,cac:TaxTotal/cbc:TaxAmount", "invoice.xml", "-o", "-",
      ], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.contains(
        #"<fx rate="0.8" converted-PayableAmount="95.20" converted-TaxAmount="15.20" currency="EUR" rate-date="2024-03-01""#
      ), "\(result.standardOutput)")
    try directory.write(
      "statement.xml",
      """
      <Stmt>
        <Ntry><Amt Ccy="USD">100.00</Amt><Chrgs><Amt Ccy="USD">1.25</Amt></Chrgs><BookgDt><Dt>2024-03-01</Dt></BookgDt></Ntry>
        <Ntry><Amt Ccy="USD">100.00</Amt><Chrgs><Amt Ccy="GBP">1.25</Amt></Chrgs><BookgDt><Dt>2024-03-01</Dt></BookgDt></Ntry>
        <Ntry><Amt Ccy="USD">100.00</Amt><BookgDt><Dt>2024-03-01</Dt></BookgDt></Ntry>
      </Stmt>

      """)
    let statement = try cli.run(
      [
        "convert", "--to", "EUR", "--rates", "rates.csv", "--record-element", "Ntry", "--amount-field",
        "Amt,charges=Chrgs/Amt", "--date-field", "BookgDt/Dt", "statement.xml", "-o", "-",
      ], in: directory.url)
    #expect(statement.status == 1, "\(statement.standardError)")
    let output = statement.standardOutput
    // 100.00 and 1.25 USD × 0.8 → 80.00 and 1.00.
    #expect(output.contains(#"<fx rate="0.8" converted-Amt="80.00" converted-charges="1.00" currency="EUR""#), "\(output)")
    #expect(
      output.contains(
        #"error="invalid_record: the amounts disagree on the from-currency: &quot;Amt&quot; is in USD and &quot;charges&quot; in GBP;"#
      ))
    #expect(output.contains(#"error="missing_field: charges: the record has no &quot;Chrgs/Amt&quot;"/>"#))
  }
}
