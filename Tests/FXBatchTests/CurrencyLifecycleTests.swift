import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Legacy currencies (fxbatch issue 6, "Currency lifecycle"): euro changeovers at the EU Council's fixed rates,
/// redenominations at their legal ratios, and codes past their lifetime refused.
@Suite("Currency lifecycle")
struct CurrencyLifecycleTests {
  enum Expected: Sendable {
    case converted(String)
    case failed(RowError.Code)
  }

  /// One record's conversion and what it must give.
  struct Case: CustomTestStringConvertible, Sendable {
    let amount: String
    let from: String
    let to: String
    let day: String
    /// The converted amount, or the error code.
    let expected: Expected
    /// Whether the quote goes through a fixed change (status `fallback`).
    let fixed: Bool

    init(_ amount: String, _ from: String, _ to: String, _ day: String, _ expected: String, fixed: Bool) {
      (self.amount, self.from, self.to, self.day, self.expected, self.fixed) = (
        amount, from, to, day, .converted(expected), fixed
      )
    }

    init(_ amount: String, _ from: String, _ to: String, _ day: String, error: RowError.Code) {
      (self.amount, self.from, self.to, self.day, self.expected, self.fixed) = (amount, from, to, day, .failed(error), false)
    }

    var testDescription: String { "\(amount) \(from)→\(to) on \(day)" }
  }

  /// Converts like the batch job: route the key, ask the table for the market key, compose, round once half-up.
  static func convert(_ testCase: Case, with table: RateTable) throws -> Result<(String, RateQuote), RowError> {
    let key = RateKey(base: try code(testCase.from), quote: try code(testCase.to), day: try day(testCase.day))
    let answer = CurrencyLifecycle.route(for: key).flatMap { route in
      route.quote(from: table.quote(for: route.marketKey, maxStaleness: 5))
    }
    switch answer {
    case .failure(let error): return .failure(error)
    case .success(let quote):
      let minorUnits = try #require(ISO4217.currency(for: key.pair.quote)).minorUnits
      let converted = try #require(quote.rate.convert(try decimal(testCase.amount), minorUnits: minorUnits, rounding: .halfUp))
      return .success((converted.description, quote))
    }
  }

  static func check(_ testCase: Case, with table: RateTable) throws {
    let result = try convert(testCase, with: table)
    switch (testCase.expected, result) {
    case (.converted(let expected), .success(let (converted, quote))):
      #expect(converted == expected)
      // Every day here is an ECB publication day, so only a fixed change makes the quote a fallback.
      #expect(quote.isFallback == testCase.fixed)
    case (.failed(let expected), .failure(let error)):
      #expect(error.code == expected, "\(error)")
    default:
      Issue.record("expected \(testCase.expected), got \(result)")
    }
  }

  // By hand, exact, with the ECB history (Sources/FXBatch/RateSources/Embedded/eurofxref-hist.csv):
  static let embeddedCases: [Case] = [
    // 753.45 ÷ 7.53450 = 100 exactly (Council Regulation (EU) 2022/1211).
    Case("753.45", "HRK", "EUR", "2023-03-01", "100.00", fixed: true),
    // 100 ÷ 1.95583 = 51.12918… → 51.13; the ECB never published DEM, and the fixed rate needs no publication
    // (1999-01-01 was not an ECB working day).
    Case("100", "DEM", "EUR", "2005-06-01", "51.13", fixed: true),
    Case("100", "DEM", "EUR", "1999-01-01", "51.13", fixed: true),
    // Cross through EUR at the day's market rate: 753.45 ÷ 7.53450 = 100 EUR × 1.0684 (EUR/USD 2023-03-01) = 106.84.
    Case("753.45", "HRK", "USD", "2023-03-01", "106.84", fixed: true),
    // The other way: 100 USD ÷ 1.0684 × 7.53450 = 705.2134… → 705.21.
    Case("100", "USD", "HRK", "2023-03-01", "705.21", fixed: true),
    // Before its changeover HRK has its market rate: 100 ÷ 7.5085 (EUR/HRK 2021-06-01) = 13.31823… → 13.32.
    Case("100", "HRK", "EUR", "2021-06-01", "13.32", fixed: false),
    // Same for BGN before 2026: 100 ÷ 1.9558 (EUR/BGN 2025-06-02, the ECB's rounding) = 51.12997… → 51.13; and
    // after: 1955.83 ÷ 1.95583 = 1000 exactly.
    Case("100", "BGN", "EUR", "2025-06-02", "51.13", fixed: false),
    Case("1955.83", "BGN", "EUR", "2026-01-02", "1000.00", fixed: true),
    // Into a legacy currency: 100 × 1.95583 = 195.583 → 195.58 DEM.
    Case("100", "EUR", "DEM", "2010-01-04", "195.58", fixed: true),
    // Between two legacy currencies, through the euro (Regulation (EC) No 1103/97, art. 4):
    // 100 × 6.55957 ÷ 1.95583 = 335.38548… → 335.39 FRF.
    Case("100", "DEM", "FRF", "2000-01-03", "335.39", fixed: true),
    // Redenomination, then the market: 1000000 TRL = 1 TRY; 1 ÷ 1.598 (EUR/TRY 2006-01-02) = 0.62578… → 0.63.
    Case("1000000", "TRL", "EUR", "2006-01-02", "0.63", fixed: true),
    // Before 2005 the ECB published TRL itself: 1000000 ÷ 372274 = 2.6861… → 2.69.
    Case("1000000", "TRL", "EUR", "1999-01-04", "2.69", fixed: false),
    // VEF in 2022: VES was redenominated again on 2021-10-01 under the same code, so no conversion is safe.
    Case("100", "VEF", "USD", "2022-03-01", error: .currencyWithdrawn),
    // VEF in 2019 is 1 ÷ 100000 VES, but the ECB has no VES rate.
    Case("100", "VEF", "USD", "2019-03-01", error: .noRate),
    // ZWL → ZWG (2024-04-05) had no fixed ratio; CUC was withdrawn (ISO 4217, 2021-06) with none.
    Case("100", "ZWL", "USD", "2024-06-03", error: .currencyWithdrawn),
    Case("100", "CUC", "USD", "2022-03-01", error: .currencyWithdrawn),
    Case("100", "USD", "CUC", "2022-03-01", error: .currencyWithdrawn),
    // Before the data starts the ECB has no DEM at all.
    Case("100", "DEM", "EUR", "1998-12-31", error: .noRate),
  ]

  @Test(arguments: embeddedCases)
  func convertsWithTheEmbeddedHistory(_ testCase: Case) throws {
    try Self.check(testCase, with: EmbeddedECBHistory.table)
  }

  /// A rates file that has VES: `USD/VES = 3300` on 2019-03-01.
  static func ratesWithBolivar() throws -> RateTable {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write("rates.csv", "date,base,quote,rate\n2019-03-01,USD,VES,3300\n2019-03-01,EUR,USD,1.1351\n")
    return try RatesFile.load(path: path)
  }

  // 495000000 VEF ÷ 100000 = 4950 VES; ÷ 3300 = 1.5 USD exactly. VEB first becomes VEF (÷ 1000, 2008-01-01):
  // 495000000000 VEB = 495000000 VEF = 1.50 USD. After 2021-10-01 the file's VES is not used for VEF.
  static let bolivarCases: [Case] = [
    Case("495000000", "VEF", "USD", "2019-03-01", "1.50", fixed: true),
    Case("495000000000", "VEB", "USD", "2019-03-01", "1.50", fixed: true),
    Case("100", "VEF", "USD", "2022-03-01", error: .currencyWithdrawn),
    Case("100", "VEB", "USD", "2022-03-01", error: .currencyWithdrawn),
  ]

  @Test(arguments: bolivarCases)
  func redenominatesBolivarsThroughAFileRate(_ testCase: Case) throws {
    try Self.check(testCase, with: try Self.ratesWithBolivar())
  }

  @Test func fixedQuoteNamesTheRegulationAndTheMarketLeg() throws {
    let result = try Self.convert(
      Case("753.45", "HRK", "USD", "2023-03-01", "106.84", fixed: true), with: EmbeddedECBHistory.table)
    let (_, quote) = try result.get()
    #expect(
      quote.source == "fixed EUR/HRK=7.53450 (Council Regulation (EU) 2022/1211) + ecb-embedded EUR/USD=1.0684")
    // 1.0684 ÷ 7.53450 exactly: the ratio is kept, never a rounded inverse.
    #expect(quote.rate == ExchangeRate(numerator: try decimal("1.0684"), denominator: try decimal("7.5345")))
    #expect(quote.rateDay == (try day("2023-03-01")))
  }

  @Test func redenominationQuoteNamesTheRatio() throws {
    let result = try Self.convert(
      Case("495000000", "VEF", "USD", "2019-03-01", "1.50", fixed: true), with: try Self.ratesWithBolivar())
    let (_, quote) = try result.get()
    #expect(
      quote.source
        == "redenomination VES/VEF=100000 (Banco Central de Venezuela, reconversión monetaria 2018) + file:rates.csv USD/VES=3300"
    )
  }

  @Test func legacyAndSuccessorKeysShareOneMarketKey() throws {
    let day = try day("2023-03-01")
    let keys: Set<RateKey> = [
      RateKey(base: try code("HRK"), quote: try code("USD"), day: day),
      RateKey(base: try code("EUR"), quote: try code("USD"), day: day),
      RateKey(base: try code("VEF"), quote: try code("USD"), day: day),  // withdrawn: not asked
    ]
    #expect(RateResolver.marketKeys(of: keys) == [RateKey(base: .euro, quote: try code("USD"), day: day)])
  }

  /// The table's euro rates are those of the EU Council regulations (units per 1 EUR), each from its day.
  @Test(arguments: [
    ("ATS", "13.7603", "1999-01-01"), ("BEF", "40.3399", "1999-01-01"), ("DEM", "1.95583", "1999-01-01"),
    ("ESP", "166.386", "1999-01-01"), ("FIM", "5.94573", "1999-01-01"), ("FRF", "6.55957", "1999-01-01"),
    ("IEP", "0.787564", "1999-01-01"), ("ITL", "1936.27", "1999-01-01"), ("LUF", "40.3399", "1999-01-01"),
    ("NLG", "2.20371", "1999-01-01"), ("PTE", "200.482", "1999-01-01"), ("GRD", "340.750", "2001-01-01"),
    ("SIT", "239.640", "2007-01-01"), ("CYP", "0.585274", "2008-01-01"), ("MTL", "0.429300", "2008-01-01"),
    ("SKK", "30.1260", "2009-01-01"), ("EEK", "15.6466", "2011-01-01"), ("LVL", "0.702804", "2014-01-01"),
    ("LTL", "3.45280", "2015-01-01"), ("HRK", "7.53450", "2023-01-01"), ("BGN", "1.95583", "2026-01-01"),
  ])
  func euroConversionRates(_ legacy: String, _ rate: String, _ effective: String) throws {
    let change = try #require(CurrencyLifecycle.change(replacing: try code(legacy)))
    #expect(change.kind == .euroChangeover)
    #expect(change.successor == .euro)
    #expect(change.legacyPerSuccessor?.description == rate, "written with the regulation's six significant figures")
    #expect(change.effective == (try day(effective)))
  }

  /// Redenominations: legacy units per new unit, and the day.
  @Test(arguments: [
    ("VEF", "VES", "100000", "2018-08-20"), ("SLL", "SLE", "1000", "2022-07-01"), ("TRL", "TRY", "1000000", "2005-01-01"),
    ("ROL", "RON", "10000", "2005-07-01"), ("BYR", "BYN", "10000", "2016-07-01"), ("MRO", "MRU", "10", "2018-01-01"),
    ("STD", "STN", "1000", "2018-01-01"),
  ])
  func redenominations(_ legacy: String, _ successor: String, _ ratio: String, _ effective: String) throws {
    let change = try #require(CurrencyLifecycle.change(replacing: try code(legacy)))
    #expect(change.kind == .redenomination)
    #expect(change.successor == (try code(successor)))
    #expect(change.legacyPerSuccessor?.description == ratio)
    #expect(change.effective == (try day(effective)))
  }

  /// A day before a change uses the legacy code itself; the change's own day converts.
  @Test(arguments: [
    ("HRK", "2022-12-31", false), ("HRK", "2023-01-01", true), ("SLL", "2022-06-30", false), ("SLL", "2022-07-01", true),
  ])
  func changeAppliesFromItsDay(_ legacy: String, _ dayText: String, _ changed: Bool) throws {
    let key = RateKey(base: try code(legacy), quote: try code("USD"), day: try day(dayText))
    let route = try CurrencyLifecycle.route(for: key).get()
    #expect(route.isDirect == !changed)
  }

  @Test func everyChangeIsBetweenKnownCodesWithAPositiveRatio() {
    for change in CurrencyLifecycle.changes {
      #expect(ISO4217.currency(for: change.legacy) != nil, "\(change.legacy)")
      #expect(ISO4217.currency(for: change.successor) != nil, "\(change.successor)")
      #expect(change.legacyPerSuccessor != nil || change.kind == .replacement)
    }
  }

  @Test func aWithdrawnCurrencyIsRefusedEvenAgainstItself() throws {
    let key = RateKey(base: try code("VEF"), quote: try code("VEF"), day: try day("2025-01-01"))
    guard case .failure(let error) = CurrencyLifecycle.route(for: key) else {
      Issue.record("VEF→VEF in 2025 was routed")
      return
    }
    #expect(error.code == .currencyWithdrawn)
    let alive = RateKey(base: try code("USD"), quote: try code("USD"), day: try day("2025-01-01"))
    #expect((try? CurrencyLifecycle.route(for: alive).get()) != nil)
  }
}
