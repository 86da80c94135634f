import FXBatchTestSupport
import Foundation
import Testing

/// Runs the built `fxbatch` binary on nested documents as payment APIs export them (issue 31): Shopify orders
/// read through paths, PayPal/Adyen money objects, a Stripe list document; and on paths that lead nowhere,
/// through arrays, into strings, or past a member named twice. Every record keeps its bytes; values are
/// computed by hand from the rates file the tests write.
@Suite("fxbatch end to end: JSON field paths and money objects")
struct EndToEndJSONPathTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// One day of rates: EUR/USD 1.08, EUR/GBP 0.85, EUR/JPY 162.
  static let rates = """
    date,base,quote,rate
    2024-03-01,EUR,USD,1.08
    2024-03-01,EUR,GBP,0.85
    2024-03-01,EUR,JPY,162

    """

  /// Runs `fxbatch convert --rates rates.csv OPTIONS NAME` on `text` written as NAME; returns the result and the
  /// output's lines.
  func convert(_ name: String, _ text: String, _ options: [String]) throws -> (CLIRunner.Result, [String]) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write(name, text)
    let result = try cli.run(["convert", "--rates", "rates.csv"] + options + [name, "-o", "out"], in: directory.url)
    let output = (try? String(contentsOf: directory.url.appendingPathComponent("out"), encoding: .utf8)) ?? ""
    return (result, output.components(separatedBy: "\n"))
  }

  /// The members of an output record (a line of JSON).
  static func members(_ line: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(object as? [String: Any])
  }

  /// The record's own bytes come first, unchanged, then the annotation members.
  static func keepsItsBytes(_ output: String, _ input: String) -> Bool {
    output.hasPrefix(String(input.dropLast())) && output.hasSuffix("}")
  }

  // Shopify orders, --to EUR, at 2024-03-01 (their created_at):
  //  1: 12.50 USD → 12.50 / 1.08 = 11.5740… → 11.57
  //  2: 100.00 GBP → 100 / 0.85 = 117.6470… → 117.65
  //  3: "1500" JPY → 1500 / 162 = 9.2592… → 9.26
  //  4–7: a missing step, a path through an array, a path into a string, a member twice
  @Test func shopifyOrdersThroughPaths() throws {
    func order(_ id: Int, _ totals: String) -> String {
      "{\"id\":\(id),\"created_at\":\"2024-03-01T10:00:00Z\",\"total_price_set\":\(totals),"
        + "\"line_items\":[{\"price\":\"1.00\",\"tax_lines\":[]}]}"
    }
    func money(_ amount: String, _ code: String) -> String { "{\"amount\":\"\(amount)\",\"currency_code\":\"\(code)\"}" }
    let records = [
      order(1, "{\"shop_money\":\(money("12.50", "USD")),\"presentment_money\":\(money("11.00", "EUR"))}"),
      order(2, "{\"presentment_money\":\(money("1", "EUR")),\"shop_money\":\(money("100.00", "GBP"))}"),
      order(3, "{\"shop_money\":\(money("1500", "JPY"))}"),
      order(4, "{\"presentment_money\":\(money("1", "EUR"))}"),
      order(5, "{\"shop_money\":[\(money("1", "USD"))]}"),
      order(6, "\"12.50 USD\""),
      order(7, "{\"shop_money\":\(money("1", "USD")),\"shop_money\":\(money("2", "USD"))}"),
    ]
    let (result, lines) = try convert(
      "orders.jsonl", records.joined(separator: "\n") + "\n",
      [
        "--to", "EUR", "--amount-field", "total_price_set.shop_money.amount", "--from-field",
        "total_price_set.shop_money.currency_code",
      ])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains("7 records: 3 ok, 0 fallback, 4 error (invalid_record 3, missing_field 1) [JSON Lines]"))
    try #require(lines.count == 8)
    for (line, record) in zip(lines, records) { #expect(Self.keepsItsBytes(line, record), "\(line)") }
    let converted = try lines.prefix(3).map { try Self.members($0)["fx_converted"] as? String }
    #expect(converted == ["11.57", "117.65", "9.26"])
    let errors = try lines[3..<7].map { try Self.members($0)["fx_error"] as? String }
    #expect(
      errors == [
        "missing_field: the record has no member \"shop_money\" in \"total_price_set\" (--amount-field total_price_set.shop_money.amount)",
        "invalid_record: the path \"total_price_set.shop_money.amount\" meets an array at \"total_price_set.shop_money\"; a path names members of objects, not elements of arrays",
        "invalid_record: the path \"total_price_set.shop_money.amount\" meets a string at \"total_price_set\", not an object",
        "invalid_record: the member \"shop_money\" occurs twice in \"total_price_set\"",
      ])
  }

  // PayPal/Adyen money objects, found without options (the member "amount"), --to USD at 2024-03-01:
  //  1: 12.50 EUR → 12.50 × 1.08 = 13.50
  //  2: 20.00 GBP → 20 × 1.08 / 0.85 = 25.4117… → 25.41
  //  3: an object with no currency member; 4: neither member; 5: both "value" and "amount" → invalid_amount
  //  6: "value" twice → invalid_record
  @Test func moneyObjectsGiveTheAmountAndTheCurrency() throws {
    let records = [
      "{\"id\":\"PAY-1\",\"amount\":{\"value\":\"12.50\",\"currency\":\"EUR\"},\"date\":\"2024-03-01\"}",
      "{\"id\":\"PAY-2\",\"amount\":{\"currency_code\":\"GBP\",\"value\":\"20.00\"},\"date\":\"2024-03-01\"}",
      "{\"id\":\"PAY-3\",\"amount\":{\"value\":\"5\"},\"date\":\"2024-03-01\"}",
      "{\"id\":\"PAY-4\",\"amount\":{\"total\":\"5\"},\"date\":\"2024-03-01\"}",
      "{\"id\":\"PAY-5\",\"amount\":{\"value\":\"5\",\"amount\":\"6\",\"currency\":\"EUR\"},\"date\":\"2024-03-01\"}",
      "{\"id\":\"PAY-6\",\"amount\":{\"value\":\"5\",\"value\":\"6\",\"currency\":\"EUR\"},\"date\":\"2024-03-01\"}",
    ]
    let (result, lines) = try convert("payments.jsonl", records.joined(separator: "\n") + "\n", ["--to", "USD"])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains("6 records: 2 ok, 0 fallback, 4 error (invalid_amount 3, invalid_record 1) [JSON Lines]"))
    try #require(lines.count == 7)
    let first = try Self.members(lines[0])
    #expect(first["fx_converted"] as? String == "13.50")
    #expect(first["fx_currency"] as? String == "USD")
    #expect(try Self.members(lines[1])["fx_converted"] as? String == "25.41")
    let errors = try lines[2..<6].map { try Self.members($0)["fx_error"] as? String }
    let table =
      "a money object has one member \"value\" or \"amount\" and one member \"currency\", \"currency_code\" or \"currencyCode\""
    #expect(
      errors == [
        "invalid_amount: the amount \"amount\" is an object that has no currency member; \(table)",
        "invalid_amount: the amount \"amount\" is an object that has neither an amount nor a currency member; \(table)",
        "invalid_amount: the amount \"amount\" is an object that has both \"value\" and \"amount\"; \(table)",
        "invalid_record: the member \"value\" occurs twice in \"amount\"",
      ])
    for (line, record) in zip(lines, records) { #expect(Self.keepsItsBytes(line, record), "\(line)") }
  }

  // A Stripe list document, a known document (``JSONDocumentShape``): amounts are minor units, --to EUR on
  // 2024-03-01 (`created` 1709251200 is that day's first second):
  //  1250 USD → 12.50 / 1.08 = 11.574… → 11.57;  4200 GBP ("gbp") → 42.00 / 0.85 = 49.411… → 49.41
  // With --amount-unit major they are read as written: 1250 / 1.08 → 1157.41; 4200 / 0.85 → 4941.18.
  @Test func stripeListDocumentWithRecordsPath() throws {
    let document = """
      {
        "object": "list",
        "data": [
          {"id": "txn_1", "object": "balance_transaction", "amount": 1250, "currency": "usd", "created": 1709251200, "source": {"id": "ch_1", "object": "charge"}, "fee_details": [{"amount": 67, "currency": "usd"}]},
          {"id": "txn_2", "object": "balance_transaction", "amount": 4200, "currency": "gbp", "created": 1709251200, "source": {"id": "ch_2", "object": "charge"}, "fee_details": []}
        ],
        "has_more": false
      }

      """
    let (result, lines) = try convert(
      "balance.json", document,
      ["--records-path", "data", "--amount-field", "amount", "--from-field", "currency", "--to", "EUR", "--date", "2024-03-01"])
    #expect(result.status == 0)
    #expect(
      result.standardError.contains(
        "2 records: 2 ok, 0 fallback, 0 error [JSON, records at data, recognized Stripe list of balance_transaction: "
          + "amounts in minor units, date created (unix seconds)]"), "\(result.standardError)")
    let output = lines.joined(separator: "\n")
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let data = try #require(parsed["data"] as? [[String: Any]])
    #expect(data.map { $0["fx_converted"] as? String } == ["11.57", "49.41"])
    let (major, majorLines) = try convert(
      "balance.json", document,
      [
        "--records-path", "data", "--amount-field", "amount", "--from-field", "currency", "--to", "EUR", "--date",
        "2024-03-01", "--amount-unit", "major",
      ])
    #expect(major.status == 0)
    let majorData = try #require(
      (try JSONSerialization.jsonObject(with: Data(majorLines.joined(separator: "\n").utf8)) as? [String: Any])?["data"]
        as? [[String: Any]])
    #expect(majorData.map { $0["fx_converted"] as? String } == ["1157.41", "4941.18"])
    #expect(parsed["has_more"] as? Bool == false)
    // Everything around the records and inside them is kept.
    #expect(output.hasPrefix("{\n  \"object\": \"list\",\n  \"data\": [\n    {\"id\": \"txn_1\""))
    #expect(output.contains("\"fee_details\": [{\"amount\": 67, \"currency\": \"usd\"}], \"fx_rate\": "))
  }

  // A member named "a.b" (a flattened export) is read by the path a.b when the record has no member "a"; with both
  // the record is invalid_record; a\.b names the member. 10 USD → 10 / 1.08 = 9.259… → 9.26; 20 → 18.518… → 18.52.
  @Test func aDottedMemberNameAndTheEscape() throws {
    let records = [
      "{\"a.b\":\"10\",\"from\":\"USD\",\"date\":\"2024-03-01\"}",
      "{\"a\":{\"b\":\"20\"},\"from\":\"USD\",\"date\":\"2024-03-01\"}",
      "{\"a.b\":\"10\",\"a\":{\"b\":\"20\"},\"from\":\"USD\",\"date\":\"2024-03-01\"}",
    ]
    let text = records.joined(separator: "\n") + "\n"
    let (path, pathLines) = try convert("dotted.jsonl", text, ["--to", "EUR", "--amount-field", "a.b"])
    #expect(path.status == 1)
    let converted = try pathLines.prefix(3).map { try Self.members($0)["fx_converted"] as? String }
    #expect(converted == ["9.26", "18.52", ""])
    #expect(
      try Self.members(pathLines[2])["fx_error"] as? String
        == "invalid_record: --amount-field \"a.b\" names both the member \"a.b\" and a path into the member \"a\"; fxbatch does not pick one (write a\\.b for the member \"a.b\")"
    )
    let (escaped, escapedLines) = try convert("dotted.jsonl", text, ["--to", "EUR", "--amount-field", "a\\.b"])
    #expect(escaped.status == 1)
    let statuses = try escapedLines.prefix(3).map { try Self.members($0)["fx_status"] as? String }
    #expect(statuses == ["ok", "error", "ok"])
  }

  // A date path that leads nowhere is the record's missing_field, as in XML (a path names a field the records are
  // meant to have); a date member found by one name may be missing and means no date. 10 USD → EUR at the file's
  // rate 2024-03-01.
  @Test func aDatePathThatLeadsNowhereIsMissingField() throws {
    let text = [
      "{\"amount\":\"10\",\"from\":\"USD\",\"meta\":{\"created_at\":\"2024-03-01\"}}",
      "{\"amount\":\"10\",\"from\":\"USD\",\"meta\":{\"id\":\"x\"}}",
      "{\"amount\":\"10\",\"from\":\"USD\"}",
    ].joined(separator: "\n") + "\n"
    for general in [false, true] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("rates.csv", Self.rates)
      try directory.write("dated.jsonl", text)
      var runner = cli
      if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
      let result = try runner.run(
        ["convert", "--rates", "rates.csv", "--date-field", "meta.created_at", "--to", "EUR", "dated.jsonl", "-o", "-"],
        in: directory.url)
      #expect(result.status == 1, "\(result.standardError)")
      let lines = result.standardOutput.split(separator: "\n").map(String.init)
      #expect(lines.count == 3)
      #expect(lines[0].contains("\"fx_status\":\"ok\""), "\(lines[0])")
      #expect(lines.count == 3 && lines[1].contains(#""fx_error":"missing_field: the record has no member \"created_at\" in \"meta\" (--date-field meta.created_at)""#), "\(lines)")
      #expect(lines.count == 3 && lines[2].contains(#""fx_error":"missing_field: the record has no member \"meta\" (--date-field meta.created_at)""#), "\(lines)")
    }
  }

  // --from over a money object's currency is refused as over a currency member; with --override-currency-fields
  // the amount is read from the object and converted from GBP: 12.50 GBP → 12.50 / 0.85 = 14.7058… → 14.71.
  @Test func fromOverAMoneyObjectIsRefusedUnlessOverridden() throws {
    let text = "{\"id\":\"PAY-1\",\"amount\":{\"value\":\"12.50\",\"currency\":\"EUR\"},\"date\":\"2024-03-01\"}\n"
    let (refused, _) = try convert("payments.jsonl", text, ["--from", "GBP", "--to", "EUR"])
    #expect(refused.status == 2)
    #expect(
      refused.standardError.contains(
        "payments.jsonl:1:1: error: the file has a from-currency field \"amount.currency\" (the amount is a money object); --from GBP would override it"
      ))
    let (overridden, lines) = try convert(
      "payments.jsonl", text, ["--from", "GBP", "--to", "EUR", "--override-currency-fields"])
    #expect(overridden.status == 0)
    #expect(try Self.members(lines[0])["fx_converted"] as? String == "14.71")
  }

  /// A path no record has is a file error naming it, as a missing member is.
  @Test func aPathNoRecordHasIsAFileError() throws {
    let (result, _) = try convert(
      "orders.jsonl", "{\"total\":{\"amount\":\"1\"},\"from\":\"USD\",\"date\":\"2024-03-01\"}\n",
      ["--to", "EUR", "--amount-field", "total.value"])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "orders.jsonl:1:1: error: --amount-field \"total.value\": no record has such a field (the first record's members:"
          + " \"total\", \"from\", \"date\"); the first record: the record has no member \"value\" in \"total\""
          + " (--amount-field total.value)"))
  }

  /// A one-step name given to a field option that no record has is a file error naming the option and the
  /// name, not one asking for the option that was given.
  @Test(arguments: [("--amount-field", "Betrag"), ("--from-field", "waehrung")])
  func aGivenNameNoRecordHasIsNamed(option: String, name: String) throws {
    let (result, _) = try convert(
      "orders.jsonl", "{\"amount\":\"1\",\"currency\":\"USD\",\"date\":\"2024-03-01\"}\n",
      ["--to", "EUR", option, name])
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "orders.jsonl:1:1: error: \(option) \"\(name)\": no record has such a field (the first record's members:"
          + " \"amount\", \"currency\", \"date\")\n"))
    #expect(!result.standardError.contains("use \(option) NAME"))
  }

  /// A path with an empty step (jq's leading dot, two dots) is refused before any record is read.
  @Test(arguments: [".amount", "amount..value", "amount."])
  func aPathWithAnEmptyStepIsRefused(path: String) throws {
    let (result, _) = try convert(
      "orders.jsonl", "{\"amount\":{\"value\":\"1\",\"currency\":\"USD\"}}\n", ["--to", "EUR", "--amount-field", path])
    #expect(result.status == 2)
    #expect(result.standardError.contains("error: --amount-field \"\(path)\": a path has an empty step"))
  }
}
