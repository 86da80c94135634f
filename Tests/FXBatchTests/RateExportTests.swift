import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `rates export`: the embedded history's rates, daily or per period, as CSV, JSON Lines, Beancount and Ledger.
/// Expected rates are the ECB's published figures (read off `eurofxref-hist.csv`) and the period rates of
/// ``PeriodRateTests`` (Python fractions); e.g. USD → JPY on 2024-02-29 is 162.53 ÷ 1.0826 = 150.1293183… .
@Suite("Rates export")
struct RateExportTests {
  static let table = EmbeddedECBHistory.table

  static func day(_ text: String) -> CalendarDay { CalendarDay(iso8601: text) ?? CalendarDay(daysSinceEpoch: 0) }

  static func codes(_ texts: String...) -> [CurrencyCode] { texts.compactMap { CurrencyCode($0) } }

  @Test func dailyRatesAreWrittenAsPublished() {
    let export = RateExport(
      table: Self.table, base: .euro, quotes: Self.codes("USD", "JPY"), from: Self.day("2024-02-24"),
      to: Self.day("2024-03-01"), rule: .spot)
    #expect(export.skipped.isEmpty)
    let expected = [
      ("2024-02-26", "1.0852", "163.38"), ("2024-02-27", "1.0856", "163.04"), ("2024-02-28", "1.0808", "162.87"),
      ("2024-02-29", "1.0826", "162.53"), ("2024-03-01", "1.0813", "162.82"),
    ]
    let csv = export.text(.csv, heading: "")
    var lines = ["date,base,quote,rate,period,source"]
    for (date, usd, jpy) in expected {
      lines.append("\(date),EUR,USD,\(usd),,ecb-embedded EUR/USD=\(usd)")
      lines.append("\(date),EUR,JPY,\(jpy),,ecb-embedded EUR/JPY=\(jpy)")
    }
    #expect(csv == lines.joined(separator: "\n") + "\n")
  }

  @Test func crossRatesAndFormats() throws {
    let usd = try #require(CurrencyCode("USD"))
    let export = RateExport(
      table: Self.table, base: usd, quotes: Self.codes("JPY"), from: Self.day("2024-02-29"), to: Self.day("2024-02-29"),
      rule: .spot)
    #expect(
      export.text(.jsonl, heading: "")
        == #"{"date":"2024-02-29","base":"USD","quote":"JPY","rate":150.1293183,"period":null,"source":"ecb-embedded EUR/USD=1.0826 EUR/JPY=162.53"}"#
        + "\n")
    #expect(
      export.text(.beancount, heading: "h")
        == "; h\n2024-02-29 price USD 150.1293183 JPY\n  source: \"ecb-embedded EUR/USD=1.0826 EUR/JPY=162.53\"\n")
    #expect(
      export.text(.ledger, heading: "h")
        == "; h\n; ecb-embedded EUR/USD=1.0826 EUR/JPY=162.53\nP 2024-02-29 USD 150.1293183 JPY\n")
  }

  @Test func periodRatesAreDatedOnTheirLastDayAndNameTheirPeriod() {
    let average = RateExport(
      table: Self.table, base: .euro, quotes: Self.codes("USD"), from: Self.day("2024-02-10"), to: Self.day("2024-03-05"),
      rule: .average(.month))
    #expect(
      average.rows.map { "\($0.date) \($0.rateText) \($0.period ?? "-")" } == [
        "2024-02-29 1.079471429 2024-02", "2024-03-28 1.08722 2024-03",
      ])
    let closing = RateExport(
      table: Self.table, base: .euro, quotes: Self.codes("USD"), from: Self.day("2024-01-01"), to: Self.day("2024-03-31"),
      rule: .closing(.quarter))
    let last = "2024-03-28,EUR,USD,1.0811,2024-Q1,ecb-embedded closing 2024-Q1 EUR/USD=1.0811\n"
    #expect(closing.text(.csv, heading: "").hasSuffix(last))
  }

  @Test func unfinishedPeriodsAreLeftOutAndSaid() {
    let export = RateExport(
      table: Self.table, base: .euro, quotes: Self.codes("USD"), from: Self.day("2026-09-01"), to: Self.day("2026-10-30"),
      rule: .average(.month))
    #expect(export.rows.map(\.period) == ["2026-09"])
    #expect(export.skipped.map(\.what) == ["2026-10 EUR/USD"])
    #expect(export.skipped.first?.error.code == .periodIncomplete)
  }

  @Test func everyPublishedCurrencyByDefault() {
    let export = RateExport(
      table: Self.table, base: .euro, quotes: [], from: Self.day("2024-02-29"), to: Self.day("2024-02-29"), rule: .spot)
    // The ECB published 30 currencies on 2024-02-29 (eurofxref-hist.csv; AUD 1.6684), no HRK, RUB or legacy codes.
    #expect(export.rows.count == 30)
    #expect(export.rows.first.map { "\($0.quote) \($0.rateText)" } == "AUD 1.6684")
    #expect(!export.rows.contains { $0.quote.description == "HRK" })
  }

  /// By default each period exports the currencies published in it: HRK's last month is 2022-12 and it is not
  /// reported missing in 2023 (a full-history export listed thousands of such periods; break-it run). Asked for
  /// by name, its missing period is said.
  @Test func periodsExportTheirOwnCurrenciesByDefault() throws {
    let hrk = try #require(CurrencyCode("HRK"))
    let quarters = RateExport(
      table: Self.table, base: .euro, quotes: [], from: Self.day("2022-10-01"), to: Self.day("2023-03-31"),
      rule: .average(.quarter))
    #expect(quarters.skipped.isEmpty)
    #expect(quarters.rows.filter { $0.quote == hrk }.map(\.period) == ["2022-Q4"])
    #expect(quarters.rows.filter { $0.period == "2023-Q1" }.count == 30)
    let named = RateExport(
      table: Self.table, base: .euro, quotes: [hrk], from: Self.day("2022-10-01"), to: Self.day("2023-03-31"),
      rule: .average(.quarter))
    #expect(named.skipped.map(\.what) == ["2023-Q1 EUR/HRK"])
  }

  @Test func cliWritesAFileAndSaysWhatItLeftOut() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(
      [
        "rates", "export", "--from", "2026-08-15", "--to", "2026-10-30", "--quotes", "USD", "--rate-kind", "closing",
        "--format", "ledger", "-o", "rates.journal",
      ], in: directory.url)
    #expect(result.status == 1)
    #expect(result.standardError.contains("fxbatch: 2026-10 EUR/USD not exported: period_incomplete:"))
    let text = try String(contentsOfFile: directory.path + "/rates.journal", encoding: .utf8)
    #expect(text.contains("P 2026-08-31 EUR "))
    #expect(text.contains("P 2026-09-30 EUR "))
    #expect(!text.contains("P 2026-10"))
    let usage = try cli.run(["rates", "export", "--from", "2024-01-01"], in: directory.url)
    #expect(usage.status == 64)
    #expect(usage.standardError.contains("rates export needs --from YYYY-MM-DD and --to YYYY-MM-DD"))
  }

  /// A quote named twice would write each price twice into a ledger, and the base as a quote would be left out
  /// without a word: both are usage errors (break-it run).
  @Test(arguments: [
    (["--quotes", "USD,USD"], "--quotes USD,USD: USD is named twice"),
    (["--quotes", "USD,EUR"], "--quotes USD,EUR: EUR is the base (the rates' pivot; --base for another)"),
    (["--base", "USD", "--quotes", "EUR,JPY,USD"], "--quotes EUR,JPY,USD: USD is the base; its rate to itself is 1"),
  ])
  func quotesAreEachNamedOnceAndNotTheBase(options: [String], message: String) throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(
      ["rates", "export", "--from", "2024-01-02", "--to", "2024-01-02"] + options, in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("fxbatch: error: " + message))
  }
}

/// The exports load unchanged in Beancount and hledger: every price, with its number as written.
@Suite("Rates export in Beancount and hledger")
struct RateExportLedgerToolTests {
  static func export(_ rule: RateRule, format: RateExport.Format, in directory: TemporaryDirectory) throws -> (
    RateExport, String
  ) {
    let export = RateExport(
      table: EmbeddedECBHistory.table, base: .euro, quotes: [], from: RateExportTests.day("2024-01-01"),
      to: RateExportTests.day("2024-12-31"), rule: rule)
    let path = try directory.write(export.text(format, heading: "test"), named: "rates.\(format.rawValue)")
    return (export, path)
  }

  @Test(.enabled(if: LedgerTools.beancountPython != nil), arguments: [RateRule.spot, .average(.month), .closing(.quarter)])
  func beancountLoadsEveryPrice(rule: RateRule) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (export, path) = try Self.export(rule, format: .beancount, in: directory)
    #expect(export.rows.count > 100)
    let loaded = try LedgerTools.beancountPrices(path)
    guard case .success(let prices) = loaded else {
      Issue.record("Beancount refused the file: \(loaded)")
      return
    }
    let expected = export.rows.map { "\($0.date) \($0.base) \($0.rateText) \($0.quote) \($0.period ?? "-")" }
    #expect(prices.sorted() == expected.sorted())
  }

  @Test(.enabled(if: LedgerTools.hledger != nil), arguments: [RateRule.spot, .average(.month), .closing(.quarter)])
  func hledgerReadsEveryPrice(rule: RateRule) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (export, path) = try Self.export(rule, format: .ledger, in: directory)
    let hledger = try #require(LedgerTools.hledger)
    let result = try TestTools.run(hledger, ["-f", path, "prices"])
    #expect(result.status == 0)
    let expected = export.rows.map { "P \($0.date) \($0.base) \($0.rateText) \($0.quote)" }
    #expect(result.output.split(separator: "\n").map(String.init).sorted() == expected.sorted())
  }
}
