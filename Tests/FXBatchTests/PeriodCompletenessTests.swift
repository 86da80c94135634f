import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// A period is complete when the source has every publication day of it: the days before the source's first
/// publication are none (the ECB's first is Monday 1999-01-04; 1999-01-01 was a holiday, the 2nd and 3rd a
/// weekend), so January, Q1 and the year 1999 average every 1999 publication day of the embedded history.
///
/// The ECB's published annual averages of 1999 (USD 1.0658, JPY 121.32, GBP 0.65874, CHF 1.6003: five
/// significant digits, as its reference rates are published) are compared with the exact mean fxbatch computes
/// over the embedded history, rounded half-even to five significant digits. The exact sums and day counts were
/// computed independently with Python's `fractions` over `eurofxref-hist.csv`: 259 days in 1999, 20 in January
/// (1999-01-04 .. 01-29), 63 in Q1 (.. 03-31); e.g. the USD rates of 1999 sum to 276.0361, and
/// 276.0361 ÷ 259 = 1.0657764… → 1.0658.
@Suite("Period completeness by publication days")
struct PeriodCompletenessTests {
  static func day(_ text: String) -> CalendarDay { PeriodRateTests.day(text) }

  static func average(
    _ quote: String, _ day: String, _ period: RatePeriod, in table: RateTable = EmbeddedECBHistory.table
  ) -> Result<RateQuote, RowError> {
    let key = RateKey(base: .euro, quote: CurrencyCode(quote) ?? .euro, day: Self.day(day))
    return table.quote(for: key, rule: .average(period), maxStaleness: 0)
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let quote: String
    let period: RatePeriod
    /// The sum of the period's published EUR/quote rates and their count (Python, from `eurofxref-hist.csv`).
    let sum: (Int128, Int128)
    let days: Int128
    /// The mean to five significant digits; for the year, the ECB's published 1999 annual average.
    let fiveDigits: String
    var testDescription: String { "EUR/\(quote) \(period)" }
  }

  static let cases: [Case] = [
    Case(quote: "USD", period: .year, sum: (2_760_361, 10_000), days: 259, fiveDigits: "1.0658"),
    Case(quote: "JPY", period: .year, sum: (785_528, 25), days: 259, fiveDigits: "121.32"),
    Case(quote: "GBP", period: .year, sum: (3_412_249, 20_000), days: 259, fiveDigits: "0.65874"),
    Case(quote: "CHF", period: .year, sum: (518_111, 1_250), days: 259, fiveDigits: "1.6003"),
    // January 1999: 23.2156 ÷ 20 = 1.16078; 2626.97 ÷ 20 = 131.3485 (half-even at five digits: 131.35).
    Case(quote: "USD", period: .month, sum: (58_039, 2_500), days: 20, fiveDigits: "1.1608"),
    Case(quote: "JPY", period: .month, sum: (262_697, 100), days: 20, fiveDigits: "131.35"),
    // Q1 1999: 70.6617 ÷ 63 = 1.12161428…; 100.7618 ÷ 63 = 1.59939365… .
    Case(quote: "USD", period: .quarter, sum: (706_617, 10_000), days: 63, fiveDigits: "1.1216"),
    Case(quote: "CHF", period: .quarter, sum: (503_809, 5_000), days: 63, fiveDigits: "1.5994"),
  ]

  @Test(arguments: cases)
  func theFirstPeriodsOfTheEuroAreComplete(_ test: Case) throws {
    let quote = try Self.average(test.quote, "1999-01-20", test.period).get()
    // sum ÷ days in lowest terms.
    var (numerator, denominator) = (test.sum.0, test.sum.1 * test.days)
    var (a, b) = (numerator, denominator)
    while b != 0 { (a, b) = (b, a % b) }
    numerator /= a
    denominator /= a
    let exact = PeriodRateTests.fraction(quote.rate)
    #expect(exact.0 == numerator && exact.1 == denominator)
    #expect(quote.rate.decimalText(significantDigits: 5) == test.fiveDigits)
    #expect(!quote.isFallback)
    let label = test.period == .year ? "1999" : test.period == .month ? "1999-01" : "1999-Q1"
    #expect(quote.source.hasPrefix("ecb-embedded average \(label) of \(test.days) days EUR/\(test.quote)="))
  }

  /// A table whose rows start after the source's first publication lacks publication days of the period: still
  /// `period_incomplete`, as is a period that has not ended.
  @Test func periodsWithoutEveryPublicationDayStayIncomplete() throws {
    // The ECB's 90-day file, or a history cut short: the table covers from a later day than the source began.
    var cut = EmbeddedECBHistory.table
    cut.coverage.firstDay = Self.day("2024-03-04")
    for (day, period) in [("2024-03-10", RatePeriod.month), ("2024-03-10", .quarter), ("2024-03-10", .year)] {
      guard case .failure(let error) = Self.average("USD", day, period, in: cut) else {
        Issue.record("\(period) of \(day) answered from a table starting 2024-03-04")
        continue
      }
      #expect(error.code == .periodIncomplete)
      #expect(error.message.hasPrefix("the ECB rates start 2024-03-04, after 2024"))
    }
    // 2024-04 starts after the cut: complete.
    #expect((try? Self.average("USD", "2024-04-10", .month, in: cut).get()) != nil)
    cut.coverage.firstDay = Self.day("1999-01-05")
    #expect(throws: RowError.self) { try Self.average("USD", "1999-06-30", .year, in: cut).get() }
    // The current month (the history ends on Friday 2026-10-30) and a month past the history's end.
    for day in ["2026-10-15", "2026-11-15"] {
      guard case .failure(let error) = Self.average("USD", day, .month) else {
        Issue.record("\(day) answered")
        continue
      }
      #expect(error.code == .periodIncomplete)
    }
  }

  /// The ECB's own layouts (its history CSV and its XML feed) are the ECB's rates, first published 1999-01-04; a
  /// rates file of another layout says nothing of its publisher's first day, so January 1999 from it stays
  /// incomplete, and an ECB file that starts later than the ECB did lacks the days before.
  @Test func whichRatesFilesKnowTheirSourcesFirstPublication() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let history = "Date,USD,\n1999-02-01,1.1,\n1999-01-29,1.2,\n1999-01-04,1.0,\n"
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
        <Cube>
          <Cube time="1999-02-01"><Cube currency="USD" rate="1.1"/></Cube>
          <Cube time="1999-01-29"><Cube currency="USD" rate="1.2"/></Cube>
          <Cube time="1999-01-04"><Cube currency="USD" rate="1.0"/></Cube>
        </Cube>
      </gesmes:Envelope>
      """
    let simple = "date,base,quote,rate\n1999-01-04,EUR,USD,1.0\n1999-01-29,EUR,USD,1.2\n1999-02-01,EUR,USD,1.1\n"
    let laterHistory = "Date,USD,\n1999-02-01,1.1,\n1999-01-29,1.2,\n1999-01-05,1.0,\n"
    for (name, text, complete) in [
      ("hist.csv", history, true), ("feed.xml", xml, true), ("simple.csv", simple, false),
      ("later.csv", laterHistory, false),
    ] {
      let table = try RatesFile.load(path: try directory.write(text, named: name))
      switch Self.average("USD", "1999-01-15", .month, in: table) {
      case .success(let quote):
        #expect(complete, "\(name): \(quote.source)")
        #expect(quote.rateText == "1.1", "\(name)")  // (1.0 + 1.2) ÷ 2
      case .failure(let error):
        #expect(!complete, "\(name): \(error)")
        #expect(error.code == .periodIncomplete, "\(name)")
      }
    }
  }

  @Test func ratesShowAndExportGiveTheYear1999() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let show = try cli.run(
      ["rates", "show", "EUR", "USD", "--date", "1999-07-01", "--rate-kind", "average", "--period", "year"],
      in: directory.url)
    #expect(show.status == 0)
    // 276.0361 ÷ 259 to 10 significant digits.
    #expect(
      show.standardOutput
        == "1 EUR = 1.065776448 USD  period 1999  source ecb-embedded average 1999 of 259 days EUR/USD=1.065776448\n")
    let export = try cli.run(
      [
        "rates", "export", "--from", "1999-01-01", "--to", "1999-03-31", "--quotes", "USD", "--rate-kind", "average",
      ], in: directory.url)
    #expect(export.status == 0)
    #expect(export.standardError.isEmpty)
    // January 1999's average (23.2156 ÷ 20), dated on its last publication day; February and March follow.
    let periods = export.standardOutput.split(separator: "\n").dropFirst().map {
      $0.split(separator: ",").prefix(5).joined(separator: ",")
    }
    #expect(periods.first == "1999-01-29,EUR,USD,1.16078,1999-01")
    #expect(periods.count == 3)
  }
}
