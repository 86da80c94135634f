import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Records with nested objects and arrays, read through field paths and money objects: the fast paths (JSON
/// Lines lines and a JSON document's records array, read in place: ``FlatJSONObject``, ``JSONFieldValues``)
/// must give byte for byte the output and the report of the general path (``JSONFieldLocator`` over
/// ``JSONValue``), for records that convert and for every mutation that does not (a missing step, a path through
/// an array or into a string, a member twice, an object that is not a money object). This suite holds the
/// generators and the direct checks; the differential runs are JSON Lines cases of ``FastGeneralDifferentialTests``
/// (`FastGeneralDifferentialTests+JSONLinesCases.swift`, `FastGeneralDifferentialTests+JSONDocumentCases.swift`).
@Suite("JSON nested records and paths: fast path = general path", .tags(.sanitized))
struct JSONNestedFastPathTests {
  typealias Random = JSONLinesFastPathTests.Random

  static let amounts = ["\"12.50\"", "1250", "\"1.234,50\"", "-3.25", "0.005", "null", "\"\"", "true", "[1]", "{\"v\":1}", "1e3"]
  static let currencies = ["\"USD\"", "\"usd\"", "\"GBP\"", "\"JPY\"", "\"XXX\"", "null", "12", "\"\"", "{\"c\":\"USD\"}"]
  static let days = ["\"2024-01-05\"", "\"2024-03-01\"", "\"2024-02-30\"", "null", "\"\"", "20240105", "{\"d\":1}"]
  /// Nested values no path reads: skipped by the fast path, some of them refused by the parser.
  static let noise = [
    "{\"id\":\"ch_3\",\"object\":\"charge\"}", "[1,2,{\"a\":[]}]", "[]", "{}", "{\"a\\\"b\":\"c\\n\\u00e9\\ud83d\\ude00\"}",
    "[\"\\ud83d\"]", "{\"a\":[1,]}", "[[[[[[[[[[1]]]]]]]]]]", "{\"k\": [ true , false , null ] }", "[\"\\x\"]", "\"plain\"",
  ]

  /// A value chosen mostly from the plain ones, sometimes from the messy ones.
  static func pick(_ random: inout Random, _ values: [String], plain: Int) -> String {
    random.next(5) == 0 ? random.pick(values) : values[random.next(plain)]
  }

  /// A money object (`{"amount": "12.50", "currency_code": "USD"}`) or a mutation of one.
  static func money(_ random: inout Random) -> String {
    let amount = pick(&random, amounts, plain: 2)
    let currency = pick(&random, currencies, plain: 4)
    let names = [
      ("amount", "currency_code"), ("value", "currency"), ("amount", "currency"), ("value", "currencyCode"),
    ]
    let (amountName, currencyName) = random.pick(names)
    var members = ["\"\(amountName)\":\(amount)", "\"\(currencyName)\":\(currency)"]
    switch random.next(14) {
    case 0: members.append("\"\(amountName)\":\"1\"")  // the amount twice
    case 1: members.append("\"currencyCode\":\"EUR\"")  // two currency members (or one twice)
    case 2: members.removeFirst()  // no amount
    case 3: members.removeLast()  // no currency
    case 4: members.append("\"value\":\"2\"")  // value and amount, or value twice
    case 5: members = []
    case 6: members.insert("\"note\":" + random.pick(noise), at: random.next(2))
    case 7: members.append("\"curr\u{0065}\u{0301}ncy\":\"EUR\"")  // a name that is not ASCII
    case 8: members.append("\"v\\u0061lue\":\"3\"")  // an escaped name: "value" twice once decoded
    default: break
    }
    if random.next(3) == 0 { members.swapAt(0, members.count - 1 < 0 ? 0 : members.count - 1) }
    let (colon, comma) = random.next(4) == 0 ? (": ", ", ") : (":", ",")
    return "{" + members.map { $0.replacingOccurrences(of: "\":", with: "\"\(colon)") }.joined(separator: comma) + "}"
  }

  /// One record: Shopify-shaped (`total_price_set.shop_money`), PayPal-shaped (`amount` a money object) or
  /// Stripe-shaped (flat amount beside nested objects), often mutated.
  static func record(_ random: inout Random, index: Int) -> String {
    var members: [(String, String)] = [("id", "\(index)")]
    switch random.next(3) {
    case 0:
      var shop = money(&random)
      switch random.next(12) {
      case 0: shop = "[\(shop)]"  // a path through an array
      case 1: shop = "\"12.50 USD\""  // a path into a string
      case 2: shop = "null"
      default: break
      }
      var set = [("shop_money", shop), ("presentment_money", money(&random))]
      switch random.next(12) {
      case 0: set.removeFirst()  // a missing step
      case 1: set.append(("shop_money", money(&random)))  // a step's member twice
      case 2: set.insert(("Shop_Money", money(&random)), at: 0)  // another case: not the step
      case 3: set.append(("shop_mone\u{0079}\u{0301}", money(&random)))  // not ASCII, not the step
      case 4: set.append(("shop_mon\\u0065y", money(&random)))  // the step twice once decoded
      default: break
      }
      var total = "{" + set.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
      if random.next(15) == 0 { total = random.pick(["[]", "\"x\"", "{}", "[\(total)]"]) }
      members.append(("total_price_set", total))
      if random.next(15) == 0 { members.append(("total_price_set.shop_money.amount", "\"7.00\"")) }  // a flattened name
      members.append(("line_items", "[{\"price\":\"1.00\",\"tax_lines\":[{\"rate\":0.2}]}]"))
    case 1:
      members.append(("amount", random.next(10) == 0 ? pick(&random, amounts, plain: 2) : money(&random)))
      if random.next(6) == 0 { members.append(("currency", "\"GBP\"")) }  // beside a money object
    default:
      members += [
        ("object", "\"balance_transaction\""), ("amount", pick(&random, amounts, plain: 2)),
        ("currency", pick(&random, currencies, plain: 4)), ("created", "1706812800"),
        ("source", random.next(4) == 0 ? random.pick(noise) : "{\"id\":\"ch_\(index)\",\"object\":\"charge\"}"),
      ]
    }
    members.append(("date", pick(&random, days, plain: 2)))
    if random.next(2) == 0 { members.append(("meta", "{\"day\":\(pick(&random, days, plain: 2)),\"tags\":[\"a\"]}")) }
    if random.next(2) == 0 { members.append(("to", random.pick(["\"EUR\"", "\"JPY\"", "\"CHF\""]))) }
    if random.next(6) == 0 { members.append(("extra", random.pick(noise))) }
    if random.next(25) == 0 { members.append(("id", "0")) }  // a top-level member twice
    if random.next(4) == 0 {
      for position in members.indices.reversed() where position > 0 { members.swapAt(position, random.next(position + 1)) }
    }
    return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: random.next(5) == 0 ? ", " : ",") + "}"
  }

  /// Option sets: paths, a path to a money object, money objects found by name, a date path, an escaped name.
  static let configurations: [(String, @Sendable (inout BatchOptions) -> Void)] = [
    (
      "Shopify paths",
      {
        $0.fieldNames = FieldNames(
          amount: "total_price_set.shop_money.amount", from: "total_price_set.shop_money.currency_code")
        $0.fixedTo = CurrencyCode("EUR")
        $0.overrideCurrencyFields = true
      }
    ),
    ("money objects by name", { $0.fixedTo = CurrencyCode("EUR") }),
    ("path to a money object", { $0.fieldNames = FieldNames(amount: "total_price_set.shop_money", to: "to") }),
    (
      "date path, fixed from",
      {
        $0.fieldNames = FieldNames(amount: "amount", date: "meta.day")
        $0.fixedFrom = CurrencyCode("USD")
        $0.fixedTo = CurrencyCode("EUR")
        $0.overrideCurrencyFields = true
      }
    ),
    (
      "escaped flattened name",
      {
        $0.fieldNames = FieldNames(amount: "total_price_set\\.shop_money\\.amount")
        $0.fixedFrom = CurrencyCode("USD")
        $0.fixedTo = CurrencyCode("EUR")
        $0.overrideCurrencyFields = true
      }
    ),
    (
      "Stripe, decimal comma",
      {
        $0.decimalMark = .comma
        $0.fieldNames = FieldNames(amount: "amount", from: "currency")
        $0.fixedTo = CurrencyCode("EUR")
      }
    ),
  ]

  static func lines(_ count: Int, seed: UInt64) -> [String] {
    var random = Random(state: seed)
    return (0..<count).map { record(&random, index: $0) }
  }

  /// The fast path reads nested records itself (the differential checks above would pass if it declined them
  /// all): Shopify, PayPal and Stripe shapes are found in place, with the general locator's values.
  @Test(arguments: [
    (
      "{\"id\":1,\"total_price_set\":{\"shop_money\":{\"amount\":\"12.50\",\"currency_code\":\"USD\"}},\"x\":[1,{\"y\":2}]}",
      FieldNames(amount: "total_price_set.shop_money.amount", from: "total_price_set.shop_money.currency_code"),
      "12.50", "USD"
    ),
    ("{\"id\":1,\"amount\":{\"value\":\"7.5\",\"currency\":\"EUR\"}}", FieldNames(), "7.5", "EUR"),
    (
      "{\"id\":\"txn_1\",\"amount\":1250,\"currency\":\"usd\",\"source\":{\"id\":\"ch_1\",\"object\":\"charge\"},\"fee_details\":[{\"amount\":67}]}",
      FieldNames(amount: "amount", from: "currency"), "1250", "usd"
    ),
    ("{\"p\":{\"q\":{\"amount\":1,\"currencyCode\":\"JPY\"}}}", FieldNames(amount: "p.q"), "1", "JPY"),
  ])
  func fastPathReadsNestedRecords(record: String, names: FieldNames, amount: String, currency: String) throws {
    let locator = JSONFieldLocator(names: names, fixedFrom: false, fixedTo: true)
    let general = locator.fields(of: JSONRecordText(bytes: Array(record.utf8), line: 1, column: 1)).fields
    #expect(general.amount == .text(amount) || general.amount == .number(amount))
    #expect(general.from == .text(currency))
    #expect(general.problem == nil)
    let bytes = Array(record.utf8)
    try bytes.withUnsafeBufferPointer { pointer in
      let view = ByteView(pointer)
      var object = FlatJSONObject()
      var inner = FlatJSONObject()
      let scanned = object.scan(view)
      #expect(scanned)
      let names = (0..<object.count).map { object.name($0, in: view).text }
      let shape = JSONMemberShape(names: names, locator: locator)
      #expect(shape.isUsable)
      let found = JSONFieldValues.find(in: object, shape: shape, bytes: view, locator: locator, inner: &inner)
      let fields = try #require(found)
      let foundAmount = try #require(fields.amount)
      let foundFrom = try #require(fields.from)
      #expect(JSONFieldValues.value(foundAmount, in: view).text == amount)
      #expect(JSONFieldValues.value(foundFrom, in: view).text == currency)
    }
  }

  /// `.` separates steps; `\.` is a dot and `\\` a backslash inside a name; any other backslash is itself.
  @Test(arguments: [
    ("amount", ["amount"]), ("a.b.c", ["a", "b", "c"]), ("a\\.b", ["a.b"]), ("a\\\\.b", ["a\\", "b"]),
    ("a\\b", ["a\\b"]), ("a.", ["a", ""]), (".a", ["", "a"]), ("\\", ["\\"]), ("x\\.y.z", ["x.y", "z"]),
  ])
  func pathSteps(written: String, steps: [String]) {
    let path = JSONFieldPath(written)
    #expect(path.steps == steps)
    #expect(path.isPath == (steps.count > 1))
    #expect(path.written == written)
  }
}
