import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Average and closing rates of a month, quarter or year over the embedded ECB history.
///
/// Every expected rate was computed independently with Python's `fractions` over the ECB's own
/// `eurofxref-hist.csv` (the script: mean of each currency's published rates over the period's publication days as
/// an exact `Fraction`, the pair's rate mean(EUR→quote) ÷ mean(EUR→base); a closing rate the last day of the
/// period with both currencies; texts rounded half-even to 10 significant digits, amounts half-up to minor units).
@Suite("Period rates: average and closing")
struct PeriodRateTests {
  static let table = EmbeddedECBHistory.table

  static func day(_ text: String) -> CalendarDay { CalendarDay(iso8601: text) ?? CalendarDay(daysSinceEpoch: 0) }

  /// The quote of a key under a rule, through the currency lifecycle as `convert` and `rates show` route it.
  static func quote(_ base: String, _ quote: String, _ day: String, _ rule: RateRule) -> Result<RateQuote, RowError> {
    guard let base = CurrencyCode(base), let quote = CurrencyCode(quote) else {
      return .failure(RowError(.unknownCurrency, "test"))
    }
    let key = RateKey(base: base, quote: quote, day: Self.day(day))
    return CurrencyLifecycle.route(for: key).flatMap { route in
      route.quote(from: table.quote(for: route.marketKey, rule: rule, maxStaleness: 5))
    }
  }

  /// An exact rate as a fraction in lowest terms.
  static func fraction(_ rate: ExchangeRate) -> (Int128, Int128) {
    func power(_ exponent: Int) -> Int128 { (0..<exponent).reduce(1) { value, _ in value * 10 } }
    var numerator = rate.numerator.significand * power(rate.denominator.scale)
    var denominator = rate.denominator.significand * power(rate.numerator.scale)
    var (a, b) = (numerator, denominator)
    while b != 0 { (a, b) = (b, a % b) }
    numerator /= a
    denominator /= a
    return (numerator, denominator)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let base: String
    let quote: String
    let day: String
    let rule: RateRule
    let numerator: Int128
    let denominator: Int128
    let rateText: String
    let rateDate: String
    let isFallback: Bool
    let source: String
    /// 1000 units of the base converted, half-up to the quote's minor units.
    let thousand: String
    var testDescription: String { "\(base)→\(quote) \(day) \(rule)" }
  }

  static let cases: [Case] = [
    // February of a leap year: 21 publication days, 2024-02-29 included.
    Case(
      base: "USD", quote: "EUR", day: "2024-02-10", rule: .average(.month), numerator: 70_000, denominator: 75_563,
      rateText: "0.9263793126", rateDate: "2024-02", isFallback: false,
      source: "ecb-embedded average 2024-02 of 21 days EUR/USD=1.079471429", thousand: "926.38"),
    Case(
      base: "GBP", quote: "USD", day: "2024-02-29", rule: .average(.month), numerator: 23_370, denominator: 18_503,
      rateText: "1.263038426", rateDate: "2024-02", isFallback: false,
      source: "ecb-embedded average 2024-02 of 21 days EUR/GBP=0.854662381 EUR/USD=1.079471429", thousand: "1263.04"),
    Case(
      base: "GBP", quote: "USD", day: "2024-03-31", rule: .average(.quarter), numerator: 201_190, denominator: 158_661,
      rateText: "1.268049489", rateDate: "2024-Q1", isFallback: false,
      source: "ecb-embedded average 2024-Q1 of 63 days EUR/GBP=0.8562657143 EUR/USD=1.085787302", thousand: "1268.05"),
    // March 2024 ends on a Sunday, and Good Friday (29th) was a TARGET holiday: it closes on Thursday the 28th.
    Case(
      base: "USD", quote: "JPY", day: "2024-03-01", rule: .closing(.month), numerator: 1_634_500, denominator: 10_811,
      rateText: "151.1886042", rateDate: "2024-03-28", isFallback: false,
      source: "ecb-embedded closing 2024-03 EUR/USD=1.0811 EUR/JPY=163.45", thousand: "151189"),
    Case(
      base: "USD", quote: "EUR", day: "2024-03-30", rule: .closing(.month), numerator: 10_000, denominator: 10_811,
      rateText: "0.9249838128", rateDate: "2024-03-28", isFallback: false,
      source: "ecb-embedded closing 2024-03 EUR/USD=1.0811", thousand: "924.98"),
    // ISK was published on 7 of December 2008's 21 publication days (to the 9th): averaged over the days it has,
    // said in fx_source, a fallback.
    Case(
      base: "ISK", quote: "USD", day: "2008-12-15", rule: .average(.month), numerator: 47_073, denominator: 10_150_000,
      rateText: "0.00463773399", rateDate: "2008-12", isFallback: true,
      source: "ecb-embedded average 2008-12 of 21 days EUR/ISK=290 (7 of 21 days) EUR/USD=1.344942857", thousand: "4.64"),
    Case(
      base: "EUR", quote: "ISK", day: "2008-12-31", rule: .closing(.month), numerator: 290, denominator: 1,
      rateText: "290", rateDate: "2008-12-09", isFallback: true,
      source: "ecb-embedded closing 2008-12 (none on 2008-12-31, the period's last publication day) EUR/ISK=290",
      thousand: "290000"),
    // HRK's last year: its own average, then (2023) the fixed conversion into the euro and the euro's average.
    Case(
      base: "HRK", quote: "USD", day: "2022-07-01", rule: .average(.year), numerator: 2_706_335, denominator: 19_364_624,
      rateText: "0.1397566511", rateDate: "2022", isFallback: false,
      source: "ecb-embedded average 2022 of 257 days EUR/HRK=7.534873152 EUR/USD=1.053048638", thousand: "139.76"),
    Case(
      base: "HRK", quote: "USD", day: "2023-03-15", rule: .average(.year), numerator: 551_447, denominator: 3_842_595,
      rateText: "0.1435090089", rateDate: "2023", isFallback: true,
      source:
        "fixed EUR/HRK=7.53450 (Council Regulation (EU) 2022/1211) + ecb-embedded average 2023 of 255 days EUR/USD=1.081268627",
      thousand: "143.51"),
    // The rates start on 1999-01-04: January 1999 closes (its end is covered) on the 29th.
    Case(
      base: "USD", quote: "EUR", day: "1999-01-10", rule: .closing(.month), numerator: 1_250, denominator: 1_423,
      rateText: "0.8784258609", rateDate: "1999-01-29", isFallback: false,
      source: "ecb-embedded closing 1999-01 EUR/USD=1.1384", thousand: "878.43"),
    Case(
      base: "USD", quote: "JPY", day: "2026-09-30", rule: .average(.month), numerator: 39_609_700, denominator: 253_291,
      rateText: "156.3802109", rateDate: "2026-09", isFallback: false,
      source: "ecb-embedded average 2026-09 of 22 days EUR/USD=1.151322727 EUR/JPY=180.0440909", thousand: "156380"),
  ]

  @Test(arguments: cases)
  func periodRateIsTheExactFraction(_ expected: Case) throws {
    let quote = try Self.quote(expected.base, expected.quote, expected.day, expected.rule).get()
    let (numerator, denominator) = Self.fraction(quote.rate)
    #expect(numerator == expected.numerator && denominator == expected.denominator)
    #expect(quote.rateText == expected.rateText)
    #expect(quote.rateDateText == expected.rateDate)
    #expect(quote.isFallback == expected.isFallback)
    #expect(quote.source == expected.source)
    let to = try #require(CurrencyCode(expected.quote))
    let minorUnits = ISO4217.currency(for: to)?.minorUnits ?? 2
    let converted = quote.rate.convert(ExactDecimal("1000") ?? .zero, minorUnits: minorUnits, rounding: .halfUp)
    #expect(converted?.description == expected.thousand)
  }

  @Test func everyDayOfAPeriodGetsTheSameRate() throws {
    let first = try Self.quote("GBP", "USD", "2024-02-01", .average(.month)).get()
    for text in ["2024-02-03", "2024-02-14", "2024-02-29"] {
      #expect(try Self.quote("GBP", "USD", text, .average(.month)).get() == first)
    }
    #expect(try Self.quote("GBP", "USD", "2024-03-01", .average(.month)).get().rateDateText == "2024-03")
  }

  @Test(arguments: [
    ("2024-02-10", RatePeriod.month, "2024-02-01", "2024-02-29", "2024-02"),
    ("2023-02-28", .month, "2023-02-01", "2023-02-28", "2023-02"),
    ("2024-12-31", .month, "2024-12-01", "2024-12-31", "2024-12"),
    ("2024-05-17", .quarter, "2024-04-01", "2024-06-30", "2024-Q2"),
    ("2024-10-01", .quarter, "2024-10-01", "2024-12-31", "2024-Q4"),
    ("2024-01-01", .year, "2024-01-01", "2024-12-31", "2024"),
  ])
  func periodContainingADay(day: String, period: RatePeriod, first: String, last: String, label: String) {
    let span = period.span(containing: Self.day(day))
    #expect(span.first.description == first)
    #expect(span.last.description == last)
    #expect(span.label == label)
  }

  // The embedded history ends on Friday 2026-10-30: October's last calendar day (Saturday the 31st) is not
  // covered, so October 2026, its quarter and its year are unfinished (January 1999 is complete: the days
  // before the ECB's first publication are no publication days, PeriodCompletenessTests).
  @Test(arguments: [
    ("2026-10-15", RateRule.average(.month), "the ECB rates end 2026-10-30, before 2026-10 ends (2026-10-31)"),
    ("2026-10-30", .closing(.month), "the ECB rates end 2026-10-30, before 2026-10 ends (2026-10-31)"),
    ("2026-11-20", .average(.month), "the ECB rates end 2026-10-30, before 2026-11 ends (2026-11-30)"),
    ("2026-01-05", .average(.year), "the ECB rates end 2026-10-30, before 2026 ends (2026-12-31)"),
  ])
  func unfinishedPeriodIsAnError(day: String, rule: RateRule, message: String) {
    guard case .failure(let error) = Self.quote("USD", "GBP", day, rule) else {
      Issue.record("\(day) \(rule) answered")
      return
    }
    #expect(error.code == .periodIncomplete)
    #expect(error.message.hasPrefix(message))
  }

  // A period that ends before the rates start is out of their range, as a day before them is (break-it run: a
  // closing rate of 1998-12 was no_rate and an average of 1899-Q4 period_incomplete).
  @Test(arguments: [
    ("1998-12-31", RateRule.closing(.month), "1998-12 ends (1998-12-31) before the ECB rates start (1999-01-04)"),
    ("1899-12-30", .average(.quarter), "1899-Q4 ends (1899-12-31) before the ECB rates start (1999-01-04)"),
  ])
  func periodBeforeTheRatesIsOutOfRange(day: String, rule: RateRule, message: String) {
    guard case .failure(let error) = Self.quote("USD", "GBP", day, rule) else {
      Issue.record("\(day) \(rule) answered")
      return
    }
    #expect(error.code == .dateOutOfRange)
    #expect(error.message.hasPrefix(message))
  }

  @Test func lastFinishedQuarterCloses() throws {
    // 2026-Q3 ends on Wednesday 2026-09-30, a publication day the history holds.
    let quote = try Self.quote("USD", "GBP", "2026-07-01", .closing(.quarter)).get()
    #expect(quote.rateDateText == "2026-09-30")
    #expect(quote.source.hasPrefix("ecb-embedded closing 2026-Q3 EUR/USD="))
  }

  @Test func currencyNotPublishedInThePeriodIsNoRate() {
    // RUB's last publication was 2022-03-01.
    guard case .failure(let error) = Self.quote("RUB", "EUR", "2022-04-10", .average(.month)) else {
      Issue.record("RUB in 2022-04 answered")
      return
    }
    #expect(error.description == "no_rate: ECB published no RUB rate in 2022-04")
    guard case .failure(let closing) = Self.quote("RUB", "EUR", "2022-04-10", .closing(.month)) else {
      Issue.record("RUB closing 2022-04 answered")
      return
    }
    #expect(closing.description == "no_rate: ECB published no day of 2022-04 with both RUB and EUR rates")
  }

  // The ratio of means keeps A → B → C consistent: the GBP → USD average times the USD → JPY average is the
  // GBP → JPY average, exactly.
  @Test func averagesChainExactly() throws {
    let gbpUSD = try Self.quote("GBP", "USD", "2024-02-10", .average(.month)).get().rate
    let usdJPY = try Self.quote("USD", "JPY", "2024-02-10", .average(.month)).get().rate
    let gbpJPY = try Self.quote("GBP", "JPY", "2024-02-10", .average(.month)).get().rate
    let chained = try #require(gbpUSD.chained(with: usdJPY))
    #expect(Self.fraction(chained) == Self.fraction(gbpJPY))
  }

  /// A rates file's table: EUR/USD, and USD/JPY published directly (not on 2024-02-02).
  static func fileTable() throws -> RateTable {
    let usd = try #require(CurrencyCode("USD"))
    let jpy = try #require(CurrencyCode("JPY"))
    let values = ["1.08", "148", "1.09", "149", "1.10", nil, "1.11", "150"].map { $0.flatMap { ExactDecimal($0) } }
    return RateTable(
      info: testSourceInfo, pairs: [CurrencyPair(base: .euro, quote: usd), CurrencyPair(base: usd, quote: jpy)],
      days: ["2024-01-31", "2024-02-01", "2024-02-02", "2024-03-01"].map(Self.day), values: values)
  }

  @Test func ratesFileDirectPairsAreAveragedAsPublished() throws {
    let table = try Self.fileTable()
    let usd = try #require(CurrencyCode("USD"))
    let jpy = try #require(CurrencyCode("JPY"))
    let february = Self.day("2024-02-15")
    let direct = try table.quote(for: RateKey(base: jpy, quote: usd, day: february), rule: .average(.month), maxStaleness: 5)
      .get()
    #expect(Self.fraction(direct.rate) == (1, 149))
    #expect(direct.source == "test average 2024-02 of 2 days USD/JPY=149 (1 of 2 days)")
    #expect(direct.isFallback)
    let euro = try table.quote(
      for: RateKey(base: .euro, quote: usd, day: february), rule: .average(.month), maxStaleness: 5
    ).get()
    #expect(Self.fraction(euro.rate) == (219, 200))  // (1.09 + 1.10) ÷ 2 = 1.095
    #expect(euro.source == "test average 2024-02 of 2 days EUR/USD=1.095")
    // Closing skips 2024-02-02, which has no USD/JPY rate: a fallback to 2024-02-01, saying so.
    let closing = try table.quote(
      for: RateKey(base: usd, quote: jpy, day: february), rule: .closing(.month), maxStaleness: 5
    ).get()
    #expect(closing.rateDateText == "2024-02-01")
    #expect(closing.source == "test closing 2024-02 (none on 2024-02-02, the period's last publication day) USD/JPY=149")
    #expect(closing.isFallback)
    // The file starts on 2024-01-31: January's average would be of one day of it; its closing rate is known.
    let january = Self.day("2024-01-10")
    let partial = table.quote(for: RateKey(base: .euro, quote: usd, day: january), rule: .average(.month), maxStaleness: 5)
    #expect((try? partial.get()) == nil)
    let closingJanuary = table.quote(
      for: RateKey(base: .euro, quote: usd, day: january), rule: .closing(.month), maxStaleness: 5)
    #expect((try? closingJanuary.get())?.rateText == "1.08")
  }

  @Test func sameCurrencyIsOneOfThePeriod() throws {
    let quote = try Self.quote("EUR", "EUR", "2024-02-10", .average(.month)).get()
    #expect(quote.rate == .one)
    #expect(quote.rateDateText == "2024-02")
  }
}
