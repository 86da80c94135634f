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
    let beancount = "2024-02-29 price USD 150.1293183 JPY\n  source: \"ecb-embedded EUR/USD=1.0826 EUR/JPY=162.53\"\n"
    #expect(
      export.text(.beancount, heading: "h")
        == "; h\n2024-02-29 commodity JPY\n2024-02-29 commodity USD\n" + beancount)
    #expect(export.text(.beancount, heading: "h", commodities: false) == "; h\n" + beancount)
    let ledger = "; ecb-embedded EUR/USD=1.0826 EUR/JPY=162.53\nP 2024-02-29 USD 150.1293183 JPY\n"
    #expect(
      export.text(.ledger, heading: "h")
        == "; h\ncommodity JPY\n  format JPY 1000.\ncommodity USD\n  format 1000.00 USD\n" + ledger)
    #expect(export.text(.ledger, heading: "h", commodities: false) == "; h\n" + ledger)
  }

  /// Ledger and hledger show a currency with the decimals of its declared format: its ISO 4217 minor units,
  /// the number first, except for a currency without decimals (hledger needs the mark, Ledger refuses it after
  /// the number); a code without a minor unit is declared without a format.
  @Test(arguments: [
    ("USD", "commodity USD\n  format 1000.00 USD\n"), ("JPY", "commodity JPY\n  format JPY 1000.\n"),
    ("KWD", "commodity KWD\n  format 1000.000 KWD\n"), ("CLF", "commodity CLF\n  format 1000.0000 CLF\n"),
    ("XAU", "commodity XAU\n"),
  ])
  func ledgerCommodityFormats(code: String, expected: String) throws {
    let currency = try #require(CurrencyCode(code))
    #expect(RateExport.commodityText([currency: Self.day("2024-01-02")], format: .ledger) == expected)
    #expect(RateExport.commodityText([currency: Self.day("2024-01-02")], format: .beancount) == "2024-01-02 commodity \(code)\n")
    #expect(RateExport.commodityText([currency: Self.day("2024-01-02")], format: .csv).isEmpty)
  }

  /// A Beancount commodity entry is dated on the first day a price names the currency (on or before its first
  /// use), whatever the order of the rows.
  @Test func beancountCommoditiesAreDatedOnTheirFirstUse() throws {
    let (usd, jpy, gbp) = try (#require(CurrencyCode("USD")), #require(CurrencyCode("JPY")), #require(CurrencyCode("GBP")))
    let rows = [
      RateExport.Row(date: Self.day("2024-03-01"), base: .euro, quote: usd, rateText: "1", period: nil, source: ""),
      RateExport.Row(date: Self.day("2024-02-27"), base: usd, quote: jpy, rateText: "1", period: nil, source: ""),
      RateExport.Row(date: Self.day("2024-02-28"), base: .euro, quote: gbp, rateText: "1", period: nil, source: ""),
    ]
    #expect(
      RateExport.commodityText(RateExport.firstUses(rows), format: .beancount)
        == "2024-02-28 commodity EUR\n2024-02-28 commodity GBP\n2024-02-27 commodity JPY\n2024-02-27 commodity USD\n")
  }

  /// `--date-at start` dates each period rate on its period's first calendar day (February's average on
  /// 2024-02-01, not on its last publication day 2024-02-29); the rates are the same.
  @Test func periodRatesDatedAtTheStart() {
    for rule in [RateRule.average(.month), .closing(.month)] {
      let end = RateExport(
        table: Self.table, base: .euro, quotes: Self.codes("USD"), from: Self.day("2024-02-10"),
        to: Self.day("2024-03-05"), rule: rule)
      let start = RateExport(
        table: Self.table, base: .euro, quotes: Self.codes("USD"), from: Self.day("2024-02-10"),
        to: Self.day("2024-03-05"), rule: rule, dateAt: .start)
      #expect(start.rows.map(\.date.description) == ["2024-02-01", "2024-03-01"])
      // Both the last publication day averaged and the closing day (Good Friday 2024-03-29 was a holiday).
      #expect(end.rows.map(\.date.description) == ["2024-02-29", "2024-03-28"])
      #expect(start.rows.map(\.rateText) == end.rows.map(\.rateText))
      #expect(start.rows.map(\.period) == ["2024-02", "2024-03"])
    }
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

/// The exports load unchanged in Beancount, hledger and Ledger: every price, with its number as written, and the
/// currencies' declarations at work.
@Suite("Rates export in Beancount, hledger and Ledger")
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
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == expected.count)
    #expect(LedgerTools.priceLines(result.output).sorted() == expected.sorted())
  }

  /// Ledger reads the same file: `pricedb` lists every price of the commodities a journal uses (one EUR posting
  /// here), with its number as written.
  @Test(.enabled(if: LedgerTools.ledger != nil), arguments: [RateRule.spot, .average(.month)])
  func ledgerReadsEveryPrice(rule: RateRule) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (export, _) = try Self.export(rule, format: .ledger, in: directory)
    let main = try directory.write(
      "include rates.ledger\n2025-01-02 opening\n  assets  1 EUR\n  equity\n", named: "main.ledger")
    let ledger = try #require(LedgerTools.ledger)
    let result = try TestTools.run(ledger, ["-f", main, "pricedb"])
    #expect(result.status == 0)
    let expected = export.rows.map { "P \($0.date) \($0.base) \(LedgerTools.number($0.rateText)) \($0.quote)" }
    #expect(LedgerTools.priceLines(result.output).sorted() == expected.sorted())
  }

  /// 5000 USD on 2024-03-01, valued through the export's 2024-02-29 prices (USD→JPY 150.1293183, USD→EUR
  /// 1 ÷ 1.0826): 750646.5915 JPY and 4618.510992… EUR, shown by both tools with the currency's decimals
  /// when the export declares its currencies — `JPY 750647`, `4618.51 EUR` — and with the price's digits (hledger)
  /// or the wrong decimals (Ledger: `EUR4619`) when it does not (`--no-commodities`).
  @Test(.enabled(if: LedgerTools.hledger != nil && LedgerTools.ledger != nil), arguments: [true, false])
  func valuesShowTheCurrencysDecimals(declared: Bool) throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let export = try cli.run(
      [
        "rates", "export", "--from", "2024-02-29", "--to", "2024-02-29", "--base", "USD", "--quotes", "EUR,JPY",
        "--format", "ledger", "-o", "rates.journal",
      ] + (declared ? [] : ["--no-commodities"]), in: directory.url)
    #expect(export.status == 0)
    let main = try directory.write(
      "include rates.journal\n2024-03-01 pay\n  assets  5000 USD\n  equity\n", named: "main.journal")
    for tool in [LedgerTools.hledger, LedgerTools.ledger].compactMap({ $0 }) {
      let jpy = try TestTools.run(tool, ["-f", main, "bal", "-X", "JPY", "assets"])
      let eur = try TestTools.run(tool, ["-f", main, "bal", "-X", "EUR", "assets"])
      #expect(jpy.status == 0 && eur.status == 0)
      let shown = (jpy.output + eur.output).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      if declared {
        #expect(shown.contains("JPY 750647  assets"), "\(tool): \(shown)")
        #expect(shown.contains("4618.51 EUR  assets"), "\(tool): \(shown)")
      } else {
        #expect(!shown.contains("4618.51 EUR  assets"), "\(tool): \(shown)")
        #expect(!shown.contains("JPY 750647  assets"), "\(tool): \(shown)")
      }
    }
  }

  /// `--value=then` values a posting at the latest price on or before its day: 100 EUR on 2024-02-15 is
  /// 107.95 USD at February's average (1.079471429, dated 2024-02-01 with `--date-at start`) and 109.05 USD at
  /// January's (1.090513636, the latest price then when averages are dated on their last day, 2024-01-31).
  @Test(.enabled(if: LedgerTools.hledger != nil), arguments: [("start", "107.95 USD"), ("end", "109.05 USD")])
  func valueThenUsesThePeriodDatedBefore(dateAt: String, value: String) throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let export = try cli.run(
      [
        "rates", "export", "--from", "2024-01-01", "--to", "2024-03-31", "--quotes", "USD", "--rate-kind", "average",
        "--date-at", dateAt, "--format", "ledger", "-o", "avg.journal",
      ], in: directory.url)
    #expect(export.status == 0)
    let main = try directory.write(
      "include avg.journal\n2024-02-15 sale\n  assets  100 EUR\n  income\n", named: "main.journal")
    let hledger = try #require(LedgerTools.hledger)
    let result = try TestTools.run(hledger, ["-f", main, "reg", "assets", "--value=then,USD"])
    #expect(result.status == 0)
    #expect(result.output.contains("  \(value)  "), "\(result.output)")
  }

  /// Beancount's `check_commodity` plugin wants a `commodity` entry of every currency a price names: the export
  /// has them, and without them (`--no-commodities`) the plugin names each.
  @Test(.enabled(if: LedgerTools.beancountPython != nil), arguments: [true, false])
  func beancountCommodityCheck(declared: Bool) throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let export = try cli.run(
      [
        "rates", "export", "--from", "2024-02-28", "--to", "2024-02-29", "--quotes", "USD,JPY", "--format", "beancount",
        "-o", "rates.beancount",
      ] + (declared ? [] : ["--no-commodities"]), in: directory.url)
    #expect(export.status == 0)
    let main = try directory.write(
      "plugin \"beancount.plugins.check_commodity\"\ninclude \"rates.beancount\"\n", named: "main.beancount")
    switch try LedgerTools.beancountPrices(main) {
    case .success(let prices):
      #expect(declared)
      #expect(prices.count == 4)
    case .failure(let errors):
      #expect(!declared, "\(errors.text)")
      #expect(errors.text.contains("Missing Commodity directive for 'USD'"))
    }
  }
}
