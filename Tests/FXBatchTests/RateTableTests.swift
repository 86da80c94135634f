import FXBatchTestSupport
import Testing

@testable import FXBatch

@Suite("RateTable date rules and cross rates")
struct RateTableTests {
  /// How a test builds the ECB-style table 2019-12-31 USD 1.1234, 2020-01-02 USD 1.1193, 2020-01-03 USD 1.1147
  /// (real ECB rates; 2020-01-01 was a TARGET holiday).
  enum Builder: String, CaseIterable, Sendable {
    case initializer
    case simpleRatesCSV

    func table() throws -> RateTable {
      switch self {
      case .initializer:
        return RateTable(
          info: testSourceInfo, pairs: [CurrencyPair(base: .euro, quote: try code("USD"))],
          days: [try day("2019-12-31"), try day("2020-01-02"), try day("2020-01-03")],
          values: [try decimal("1.1234"), try decimal("1.1193"), try decimal("1.1147")])
      case .simpleRatesCSV:
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try directory.write(
          "date,base,quote,rate\n2020-01-03,EUR,USD,1.1147\n2019-12-31,EUR,USD,1.1234\n2020-01-02,EUR,USD,1.1193\n",
          named: "rates.csv")
        return try SimpleRatesCSV.parse(path: path, info: testSourceInfo)
      }
    }
  }

  @Test(
    "weekends and holidays fall back to the latest earlier publication day",
    arguments: Builder.allCases,
    [
      // (day, EUR → USD of 100, rate day, fallback)
      ("2019-12-31", "112.34", "2019-12-31", false),  // 100 × 1.1234
      ("2020-01-01", "112.34", "2019-12-31", true),  // holiday: 100 × 1.1234
      ("2020-01-02", "111.93", "2020-01-02", false),  // 100 × 1.1193
      ("2020-01-03", "111.47", "2020-01-03", false),  // 100 × 1.1147
      ("2020-01-04", "111.47", "2020-01-03", true),  // Saturday
      ("2020-01-05", "111.47", "2020-01-03", true),  // Sunday
      ("2020-01-08", "111.47", "2020-01-03", true),  // 5 days after, the default limit
    ] as [(day: String, amount: String, rateDay: String, isFallback: Bool)])
  func fallback(builder: Builder, row: (day: String, amount: String, rateDay: String, isFallback: Bool)) throws {
    let result = try convert("100", "EUR", to: "USD", on: row.day, with: builder.table()).get()
    #expect(result.amount.description == row.amount)
    #expect(result.quote.rateDay == (try day(row.rateDay)))
    #expect(result.quote.isFallback == row.isFallback)
  }

  @Test("the inverse direction divides by the published rate", arguments: Builder.allCases)
  func inverse(builder: Builder) throws {
    // 100 ÷ 1.1147 = 89.7102359… → 89.71
    let result = try convert("100", "USD", to: "EUR", on: "2020-01-04", with: builder.table()).get()
    #expect(result.amount.description == "89.71")
    #expect(result.quote.rateDay == (try day("2020-01-03")))
  }

  @Test("a rate never comes from a later day", arguments: Builder.allCases)
  func neverALaterDay(builder: Builder) throws {
    let table = try builder.table()
    var current = try day("2019-12-31")
    while current <= (try day("2020-01-08")) {
      let quote = try table.quote(for: RateKey(base: .euro, quote: try code("USD"), day: current), maxStaleness: 5).get()
      let rateDay = try #require(quote.rateDay)
      #expect(rateDay <= current)
      #expect(quote.isFallback == (rateDay != current))
      current = current.adding(days: 1)
    }
  }

  @Test(
    "beyond the staleness limit, before the data, or after its end: an error",
    arguments: [
      ("2020-01-09", 5, RowError.Code.dateOutOfRange),  // 6 days after the last publication
      ("2020-01-05", 1, .dateOutOfRange),  // 2 days after the last publication, limit 1
      ("2019-12-30", 5, .dateOutOfRange),  // before the first publication
      ("2020-01-01", 0, .staleRate),  // holiday with no staleness allowed; a later publication exists
    ] as [(String, Int, RowError.Code)])
  func limits(dayText: String, maxStaleness: Int, code: RowError.Code) throws {
    for builder in Builder.allCases {
      guard
        case .failure(let error) = try convert(
          "100", "EUR", to: "USD", on: dayText, with: builder.table(), maxStaleness: maxStaleness)
      else {
        Issue.record("\(dayText) with --max-staleness \(maxStaleness) should be refused (\(builder))")
        continue
      }
      #expect(error.code == code)
    }
  }

  @Test("the end-of-data message says what to do")
  func endOfDataMessage() throws {
    guard case .failure(let error) = try convert("100", "EUR", to: "USD", on: "2020-01-09", with: Builder.initializer.table())
    else {
      Issue.record("2020-01-09 is beyond the data")
      return
    }
    #expect(error.message.contains("2020-01-03"))
    #expect(error.message.contains("--max-staleness 6"))
  }

  /// EUR/USD and EUR/GBP (real ECB rates), with GBP missing (N/A) on 2020-01-02.
  private func tableWithGap() throws -> RateTable {
    RateTable(
      info: testSourceInfo,
      pairs: [CurrencyPair(base: .euro, quote: try code("USD")), CurrencyPair(base: .euro, quote: try code("GBP"))],
      days: [try day("2019-12-31"), try day("2020-01-02"), try day("2020-01-03")],
      values: [
        try decimal("1.1234"), try decimal("0.8508"), try decimal("1.1193"), nil, try decimal("1.1147"), try decimal("0.85115"),
      ])
  }

  @Test("a currency not published on the deciding day is an error, not another day's rate")
  func notPublished() throws {
    let table = try tableWithGap()
    for (base, quote) in [("EUR", "GBP"), ("USD", "GBP"), ("GBP", "USD")] {
      guard case .failure(let error) = try convert("100", base, to: quote, on: "2020-01-02", with: table) else {
        Issue.record("\(base) → \(quote) on 2020-01-02 must not use the 2019-12-31 or 2020-01-03 GBP rate")
        continue
      }
      #expect(error.code == .noRate)
      #expect(error.message == "TEST published no GBP rate on 2020-01-02")
    }
    // The same day still converts the currencies that were published.
    #expect(try convert("100", "EUR", to: "USD", on: "2020-01-02", with: table).get().amount.description == "111.93")
  }

  @Test("cross rates go through the pivot and round once")
  func crossRate() throws {
    let table = try tableWithGap()
    #expect(table.pivot == .euro)
    // 100 GBP → USD on 2020-01-04 (Saturday, 2020-01-03 rates): 100 × 1.1147 / 0.85115 = 130.96398989… → 130.96
    let result = try convert("100", "GBP", to: "USD", on: "2020-01-04", with: table).get()
    #expect(result.amount.description == "130.96")
    #expect(result.quote.isFallback)
    #expect(result.quote.source == "test EUR/GBP=0.85115 EUR/USD=1.1147")
    // 100 EUR → GBP on 2020-01-03: 100 × 0.85115 = 85.115, a tie: half-up 85.12, down 85.11.
    #expect(try convert("100", "EUR", to: "GBP", on: "2020-01-03", with: table).get().amount.description == "85.12")
    #expect(
      try convert("100", "EUR", to: "GBP", on: "2020-01-03", with: table, rounding: .down).get().amount.description == "85.11")
  }

  @Test("a currency the table never has is a no_rate error")
  func unknownToTable() throws {
    guard case .failure(let error) = try convert("100", "EUR", to: "JPY", on: "2020-01-02", with: tableWithGap()) else {
      Issue.record("the table has no JPY")
      return
    }
    #expect(error.code == .noRate)
    #expect(error.message == "the TEST rates have no JPY rates at all")
  }

  @Test("an undated table serves every day, without fallback")
  func undated() throws {
    let table = RateTable(
      info: testSourceInfo,
      pairs: [CurrencyPair(base: .euro, quote: try code("USD")), CurrencyPair(base: .euro, quote: try code("GBP"))],
      days: [], values: [try decimal("1.10"), try decimal("0.85")])
    #expect(table.isUndated)
    for dayText in ["1999-01-04", "2020-01-04", "2030-12-31"] {
      // 100 × 0.85 / 1.10 = 77.2727… → 77.27
      let result = try convert("100", "USD", to: "GBP", on: dayText, with: table).get()
      #expect(result.amount.description == "77.27")
      #expect(result.quote.rateDay == nil)
      #expect(!result.quote.isFallback)
    }
  }

  @Test("a pair published the other way round is used as published")
  func publishedInverse() throws {
    // A company table quoting USD/EUR 0.8 (1 USD = 0.8 EUR): 100 EUR → USD = 100 ÷ 0.8 = 125.00, 100 USD → EUR = 80.00.
    let table = RateTable(
      info: testSourceInfo, pairs: [CurrencyPair(base: try code("USD"), quote: .euro)], days: [], values: [try decimal("0.8")])
    #expect(try convert("100", "EUR", to: "USD", on: "2020-01-02", with: table).get().amount.description == "125.00")
    #expect(try convert("100", "USD", to: "EUR", on: "2020-01-02", with: table).get().amount.description == "80.00")
  }

  @Test("the same currency converts at 1 on any day, even outside the data")
  func sameCurrency() throws {
    let result = try convert("10", "EUR", to: "EUR", on: "1990-01-01", with: Builder.initializer.table()).get()
    #expect(result.amount.description == "10.00")
    #expect(result.quote.rate == .one)
    #expect(!result.quote.isFallback)
  }
}
