import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Stripe lists and Stripe objects one per line are known JSON documents (``JSONDocumentShape``): their records,
/// amounts in minor units, currencies and `created` unix times are read without options, on the fast path and
/// the general path (`FXBATCH_GENERAL_PATH=1`) alike. Records are written as Stripe's API reference shows them.
///
/// Rates (`rates.csv`): 2024-01-31 EUR/USD 2; 2024-02-01 EUR/USD 1.25, EUR/JPY 125.
/// 1706812800 is 2024-02-01 18:40:00 UTC; 1706745599 the last second of 2024-01-31. A balance transaction's
/// `amount`, `fee` and `net` convert at its one rate, each rounded once (half-up) to EUR cents:
///   txn 1: 1250 usd at 1706812800 → 12.50 USD ÷ 1.25 = 10.00 EUR (2024-02-01); fee 67 → 0.536 → 0.54;
///          net 1183 → 9.464 → 9.46
///   txn 2: -400 usd at 1706745599 → -4.00 USD ÷ 2 = -2.00 EUR (2024-01-31); fee 0 → 0.00; net -400 → -2.00
///   txn 3: 1250 jpy at 1706812800 → 1250 JPY ÷ 125 = 10.00 EUR (JPY has no minor unit); fee 66 → 0.528 →
///          0.53; net 1184 → 9.472 → 9.47
@Suite("Stripe documents")
struct StripeDocumentTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = "date,base,quote,rate\n2024-01-31,EUR,USD,2\n2024-02-01,EUR,USD,1.25\n2024-02-01,EUR,JPY,125\n"

  /// A balance transaction as Stripe's API reference writes one: a fee assessed is a positive integer, and
  /// `net` is `amount - fee`.
  static func transaction(
    _ id: String, amount: Int, fee: Int, currency: String, created: Int, object: String = "balance_transaction"
  ) -> String {
    """
    {
          "id": "txn_\(id)",
          "object": "\(object)",
          "amount": \(amount),
          "available_on": \(created + 172800),
          "created": \(created),
          "currency": "\(currency)",
          "description": null,
          "exchange_rate": null,
          "fee": \(fee),
          "fee_details": [],
          "net": \(amount - fee),
          "reporting_category": "charge",
          "source": "ch_\(id)",
          "status": "available",
          "type": "charge"
        }
    """
  }

  static func transactions(secondObject: String = "balance_transaction") -> [String] {
    [
      transaction("1OaB2c", amount: 1250, fee: 67, currency: "usd", created: 1_706_812_800),
      transaction("1OaB2d", amount: -400, fee: 0, currency: "usd", created: 1_706_745_599, object: secondObject),
      transaction("1OaB2e", amount: 1250, fee: 66, currency: "jpy", created: 1_706_812_800),
    ]
  }

  /// A list as `GET /v1/balance_transactions` answers.
  static func list(secondObject: String = "balance_transaction") -> String {
    """
    {
      "object": "list",
      "url": "/v1/balance_transactions",
      "has_more": false,
      "data": [
        \(transactions(secondObject: secondObject).joined(separator: ",\n    "))
      ]
    }

    """
  }

  /// The same objects one per line (compact, as an export of the list's `data` writes them).
  static func lines(secondObject: String = "balance_transaction") throws -> String {
    try transactions(secondObject: secondObject).map { text in
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
      return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }.joined(separator: "\n") + "\n"
  }

  /// Runs fxbatch on the fast path and the general path; both must give the same output.
  func run(_ name: String, _ text: String, _ options: [String] = []) throws -> (CLIRunner.Result, [[String: Any]]) {
    var results: [CLIRunner.Result] = []
    for general in [false, true] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("rates.csv", Self.rates)
      try directory.write(name, text)
      var runner = cli
      if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
      results.append(
        try runner.run(["convert", "--to", "EUR", "--rates", "rates.csv", "-o", "-"] + options + [name], in: directory.url))
    }
    #expect(results[0].standardOutput == results[1].standardOutput, "\(name) \(options)")
    #expect(results[0].standardError == results[1].standardError, "\(name) \(options)")
    let output = results[0].standardOutput
    let records: [Any]
    if name.hasSuffix(".jsonl") {
      records = output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
    } else {
      let document = (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]
      records = document?["data"] as? [Any] ?? []
    }
    return (results[0], records.compactMap { $0 as? [String: Any] })
  }

  /// Each record's converted amounts (`fx_converted`, or `fx_converted_amount/fee/net` joined by `/`), rate
  /// date, status and error.
  static func annotations(_ records: [[String: Any]]) -> [String] {
    records.map { record in
      let names =
        record["fx_converted"] != nil ? ["fx_converted"] : ["fx_converted_amount", "fx_converted_fee", "fx_converted_net"]
      let converted = names.map { (record[$0] as? String) ?? "?" }.joined(separator: "/")
      return ([converted] + [record["fx_rate_date"], record["fx_status"], record["fx_error"]].map { ($0 as? String) ?? "?" })
        .joined(separator: " ")
    }
  }

  @Test func aListIsRecognized() {
    let shape = JSONDocumentShape.recognize(head: Array(Self.list().utf8), lines: false)
    #expect(shape?.name == "Stripe list of balance_transaction")
    #expect(shape?.recordsPath == ["data"] && shape?.amounts == ["amount", "fee", "net"] && shape?.date == "created")
    // Each object's money members that Stripe documents as always integers (an invoice's nullable `tax` is not).
    let expected = [
      "balance_transaction": ["amount", "fee", "net"], "charge": ["amount", "amount_captured", "amount_refunded"],
      "refund": ["amount"], "payout": ["amount"], "payment_intent": ["amount", "amount_received"],
      "invoice": ["total", "amount_due", "amount_paid", "amount_remaining"],
    ]
    for (object, amounts) in expected {
      let text = #"{"object": "list", "data": [{"id": "x_1", "object": "\#(object)", "currency": "eur", "created": 1}]}"#
      #expect(JSONDocumentShape.recognize(head: Array(text.utf8), lines: false)?.amounts == amounts, "\(object)")
    }
    #expect(JSONDocumentShape.stripeObjects.count == expected.count)
    // Not Stripe: another list object, another record type, records elsewhere, no records.
    for text in [
      #"{"object": "search_result", "data": [{"object": "charge", "amount": 1}]}"#,
      #"{"object": "list", "data": [{"object": "customer", "id": "cus_1"}]}"#,
      #"{"object": "list", "items": [{"object": "charge", "amount": 1}]}"#,
      #"{"object": "list", "data": []}"#,
      #"[{"object": "charge", "amount": 1}]"#,
    ] {
      #expect(JSONDocumentShape.recognize(head: Array(text.utf8), lines: false) == nil, "\(text)")
    }
    // Members before `data` are stepped over whatever they hold; "object" after "data" is not needed.
    let sorted = #"{"data": [{"object": "refund", "amount": 5}], "has_more": false, "object": "list"}"#
    #expect(JSONDocumentShape.recognize(head: Array(sorted.utf8), lines: false)?.objectType == "refund")
    let nested = #"{"url": "/v1/charges?x=\"[{\"", "meta": {"a": [1, {"b": "}"}]}, "data": [{"object": "charge"}]}"#
    #expect(JSONDocumentShape.recognize(head: Array(nested.utf8), lines: false)?.objectType == "charge")
  }

  @Test func aListConvertsWithoutOptions() throws {
    let (result, records) = try run("balance.json", Self.list())
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      Self.annotations(records) == [
        "10.00/0.54/9.46 2024-02-01 ok ", "-2.00/0.00/-2.00 2024-01-31 ok ", "10.00/0.53/9.47 2024-02-01 ok ",
      ])
    #expect(
      result.standardError.contains(
        "balance.json -> -: 3 records: 3 ok, 0 fallback, 0 error [JSON, records at data, recognized Stripe list of "
          + "balance_transaction: amounts amount, fee, net, amounts in minor units, from-currency currency, date "
          + "created (unix seconds)]"),
      "\(result.standardError)")
    // Each amount reconciled on its own: 10.00 - 2.00 + 10.00; 0.54 + 0.00 + 0.53; 9.46 - 2.00 + 9.47.
    for (name, total) in [("amount", "18.00"), ("fee", "1.07"), ("net", "16.93")] {
      #expect(
        result.standardError.contains(
          "reconciliation EUR fx_converted_\(name), 3 records: sum of rounded amounts \(total), exact sum rounded once "),
        "\(name)")
    }
    // The members come in the shape's order, after the record's own, each on its line as the record writes them.
    #expect(
      result.standardOutput.contains(
        "\"fx_rate\": \"0.8\",\n      \"fx_converted_amount\": \"10.00\",\n      \"fx_converted_fee\": \"0.54\",\n"
          + "      \"fx_converted_net\": \"9.46\",\n      \"fx_currency\": \"EUR\""))
  }

  @Test func objectsOnePerLineConvertWithoutOptions() throws {
    let (result, records) = try run("balance.jsonl", try Self.lines())
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      Self.annotations(records) == [
        "10.00/0.54/9.46 2024-02-01 ok ", "-2.00/0.00/-2.00 2024-01-31 ok ", "10.00/0.53/9.47 2024-02-01 ok ",
      ])
    #expect(
      result.standardError.contains(
        "[JSON Lines, recognized Stripe balance_transaction objects: amounts amount, fee, net, amounts in minor units, "
          + "from-currency currency, date created (unix seconds)]"), "\(result.standardError)")
  }

  /// A record of another type is never read with the list's members.
  @Test(arguments: [false, true])
  func aRecordOfAnotherTypeIsAnInvalidRecord(lines: Bool) throws {
    let (result, records) =
      lines
      ? try run("balance.jsonl", try Self.lines(secondObject: "charge"))
      : try run("balance.json", Self.list(secondObject: "charge"))
    #expect(result.status == 1, "\(result.standardError)")
    let document = lines ? "Stripe balance_transaction objects say" : "Stripe list of balance_transaction says"
    #expect(
      Self.annotations(records) == [
        "10.00/0.54/9.46 2024-02-01 ok ",
        "//  error invalid_record: the record is a \"charge\", not a \"balance_transaction\" as the \(document); "
          + "fxbatch reads a record by its own type's members only",
        "10.00/0.53/9.47 2024-02-01 ok ",
      ])
  }

  /// A bigger list and its lines, converted in parts: records of another type, without one, with an escaped or
  /// non-string type, with the type twice, amounts that are not integers: the fast path gives the general
  /// path's output byte for byte (at the embedded ECB rates).
  @Test(arguments: [false, true])
  func fastAndGeneralPathsAgree(lines: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let variants = [
      #""object": "balance_transaction", "amount": 1250"#, #""object": "charge", "amount": 1250"#,
      #""amount": 1250"#, #""object": "balance\u005ftransaction", "amount": 1250"#, #""object": 7, "amount": 1250"#,
      #""object": "balance_transaction", "object": "balance_transaction", "amount": 1250"#,
      #""object": "balance_transaction", "amount": 12.5"#, #""object": "balance_transaction", "amount": "1250""#,
      #""object": "balance_transaction", "amount": -99"#,
    ]
    var records: [String] = []
    for index in 0..<600 {
      let variant = index == 0 || index % 7 != 0 ? variants[0] : variants[index % variants.count]
      let currency = ["usd", "jpy", "gbp", "chf"][index % 4]
      records.append(
        #"{"id": "txn_\#(index)", \#(variant), "created": \#(1_706_812_800 + 3600 * index), "currency": "\#(currency)", "fee": 0, "net": 0}"#
      )
    }
    let text =
      lines
      ? records.joined(separator: "\n") + "\n"
      : "{\n  \"object\": \"list\",\n  \"data\": [\n    " + records.joined(separator: ",\n    ")
        + "\n  ],\n  \"has_more\": false\n}\n"
    let path = try directory.write(text, named: lines ? "balance.jsonl" : "balance.json")
    let configure: (inout BatchOptions) -> Void = { $0.fixedTo = CurrencyCode("EUR") }
    let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 3, configure: configure)
    let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
    XMLFastPathTests.compare(fast, general, "lines \(lines)")
    #expect(general.totals.ok + general.totals.fallback > 400 && general.totals.error > 40, "\(general.totals)")
    #expect(general.file.document?.hasPrefix("recognized Stripe") == true)
  }

  /// Options override the shape's choices: `--amount-unit major`, `--amount-field`, `--date-field` with
  /// `--date-format`, `--from`; `--records-path` elsewhere leaves the document to the options alone.
  @Test func optionsOverrideTheShape() throws {
    let (major, majorRecords) = try run("balance.json", Self.list(), ["--amount-unit", "major"])
    #expect(major.status == 0, "\(major.standardError)")
    // 1250 USD ÷ 1.25 = 1000.00, fee 67 → 53.60, net 1183 → 946.40; -400 USD ÷ 2 = -200.00; 1250 JPY ÷ 125 =
    // 10.00, fee 66 → 0.528 → 0.53, net 1184 → 9.472 → 9.47.
    #expect(
      Self.annotations(majorRecords).map { $0.split(separator: " ").first ?? "" } == [
        "1000.00/53.60/946.40", "-200.00/0.00/-200.00", "10.00/0.53/9.47",
      ])
    #expect(
      major.standardError.contains("recognized Stripe list of balance_transaction: amounts amount, fee, net, from-currency"))

    // The net amount, and the day the funds are available (two days after `created`).
    let (net, netRecords) = try run(
      "balance.json", Self.list(), ["--amount-field", "net", "--date-field", "available_on", "--date-format", "unix"])
    #expect(net.status == 0, "\(net.standardError)")
    // `--amount-field` replaces the shape's list: one amount, `fx_converted`. Available on 2024-02-03 and
    // 2024-02-02, days without rates: 2024-02-01's (11.83 USD ÷ 1.25 = 9.464 → 9.46; -4.00 USD ÷ 1.25 = -3.20;
    // 1184 JPY ÷ 125 = 9.472 → 9.47).
    #expect(
      Self.annotations(netRecords) == [
        "9.46 2024-02-01 fallback ", "-3.20 2024-02-01 fallback ", "9.47 2024-02-01 fallback ",
      ])
    #expect(
      net.standardError.contains(
        "recognized Stripe list of balance_transaction: amounts in minor units, from-currency currency]"), "\(net.standardError)")

    let (fixed, fixedRecords) = try run("balance.json", Self.list(), ["--from", "USD", "--override-currency-fields"])
    #expect(fixed.status == 0, "\(fixed.standardError)")
    // JPY 1250 read as USD cents: 12.50 USD ÷ 1.25 = 10.00, fee 0.66 → 0.528 → 0.53, net 11.84 → 9.472 → 9.47.
    #expect(
      Self.annotations(fixedRecords).map { $0.split(separator: " ").first ?? "" } == [
        "10.00/0.54/9.46", "-2.00/0.00/-2.00", "10.00/0.53/9.47",
      ])

    // Every choice spelled out: the shape only checks each record's type.
    let (spelled, spelledRecords) = try run(
      "balance.json", Self.list(secondObject: "refund"),
      [
        "--records-path", "data", "--amount-field", "amount", "--from-field", "currency", "--date-field", "created",
        "--date-format", "unix", "--amount-unit", "minor",
      ])
    #expect(spelled.standardError.contains("[JSON, records at data, recognized Stripe list of balance_transaction]"))
    #expect(Self.annotations(spelledRecords).map { $0.split(separator: " ").first ?? "" } == ["10.00", "error", "10.00"])

    let (elsewhere, _) = try run("balance.json", Self.list(), ["--records-path", "items"])
    #expect(elsewhere.status != 0)
    #expect(!elsewhere.standardError.contains("recognized"))
  }

  /// The other Stripe objects convert the money members of ``JSONDocumentShape/stripeObjects`` at 2024-02-01's
  /// EUR/USD 1.25, each rounded once: a charge's 2000, 2000 and 500 cents → 16.00, 16.00, 4.00; an invoice's
  /// 1999, 1999, 1000 and 999 → 15.992 → 15.99, 15.99, 8.00, 7.992 → 7.99; a payment intent's 1050 and 1050 →
  /// 8.40, 8.40; a refund's one amount, 333 → 2.664 → 2.66, is `fx_converted`.
  @Test func otherObjectsConvertTheirMoneyMembers() throws {
    let cases: [(object: String, members: String, converted: [String: String])] = [
      (
        "charge", #""amount": 2000, "amount_captured": 2000, "amount_refunded": 500, "application_fee_amount": null"#,
        [
          "fx_converted_amount": "16.00", "fx_converted_amount_captured": "16.00",
          "fx_converted_amount_refunded": "4.00",
        ]
      ),
      (
        "invoice",
        #""total": 1999, "amount_due": 1999, "amount_paid": 1000, "amount_remaining": 999, "tax": null, "subtotal": 1999"#,
        [
          "fx_converted_total": "15.99", "fx_converted_amount_due": "15.99", "fx_converted_amount_paid": "8.00",
          "fx_converted_amount_remaining": "7.99",
        ]
      ),
      (
        "payment_intent", #""amount": 1050, "amount_received": 1050, "amount_capturable": 0"#,
        ["fx_converted_amount": "8.40", "fx_converted_amount_received": "8.40"]
      ),
      ("refund", #""amount": 333"#, ["fx_converted": "2.66"]),
    ]
    for (object, members, converted) in cases {
      let list =
        #"{"object": "list", "data": [{"id": "x_1", "object": "\#(object)", \#(members), "created": 1706812800, "currency": "usd"}], "has_more": false}"#
      let (result, records) = try run("\(object).json", list)
      #expect(result.status == 0, "\(object): \(result.standardError)")
      let record = try #require(records.first)
      let found = record.filter { $0.key.hasPrefix("fx_converted") }.mapValues { ($0 as? String) ?? "?" }
      #expect(found == converted, "\(object)")
      #expect(record["fx_status"] as? String == "ok", "\(object)")
    }
  }

  /// A `null` amount (a member Stripe leaves null in some records) fails its record, naming the member; the
  /// others convert: why the shape leaves nullable members out.
  @Test func aNullAmountFailsItsRecord() throws {
    let list = Self.list().replacingOccurrences(of: #""fee": 67"#, with: #""fee": null"#)
    let (result, records) = try run("balance.json", list)
    #expect(result.status == 1, "\(result.standardError)")
    #expect(
      Self.annotations(records) == [
        "//  error missing_field: fee: the amount is null", "-2.00/0.00/-2.00 2024-01-31 ok ",
        "10.00/0.53/9.47 2024-02-01 ok ",
      ])
  }

  /// Under a period rule pass 1 gathers keys at the byte level for one amount (``FormatContext/passOneKeys``);
  /// the shape's three amounts take the general path instead, and convert at the month's average, here of
  /// rates the same every day (EUR/USD 2 in January, 1.25 in February; EUR/JPY 125), so the values are the spot
  /// ones above, dated by month.
  @Test(arguments: [false, true])
  func aPeriodRuleConvertsEveryAmount(lines: Bool) throws {
    var rates = "date,base,quote,rate\n"
    for day in 1...31 { rates += String(format: "2024-01-%02d,EUR,USD,2\n", day) }
    for day in 1...29 { rates += String(format: "2024-02-%02d,EUR,USD,1.25\n2024-02-%02d,EUR,JPY,125\n", day, day) }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", rates)
    let name = lines ? "balance.jsonl" : "balance.json"
    try directory.write(name, lines ? try Self.lines() : Self.list())
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--rate-kind", "average", "--period", "month", "-o", "-", name],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let output = result.standardOutput
    let records: [Any] =
      lines
      ? output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) }
      : ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any])?["data"] as? [Any] ?? []
    #expect(
      Self.annotations(records.compactMap { $0 as? [String: Any] }) == [
        "10.00/0.54/9.46 2024-02 ok ", "-2.00/0.00/-2.00 2024-01 ok ", "10.00/0.53/9.47 2024-02 ok ",
      ])
  }
}
