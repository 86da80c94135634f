import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Runs the built `fxbatch` on a small sheet with a total row: the row is copied with `fx_status` `skipped` and
/// counted as skipped, not as an error; `--no-skip-totals` and `--skip-rows-matching` change that; and the
/// report's totals per currency are the sums of the file's own values.
///
/// Rates (`rates.csv`) on 2024-01-05: EUR/USD 1.25, EUR/GBP 0.8. By hand, to EUR (half-up to cents):
///   A 100.00 USD → 100.00 / 1.25 = 80.00
///   B 12.345 USD → 12.345 / 1.25 = 9.876 → 9.88
///   C 70 GBP     → 70 / 0.8 = 87.50
///   D N/A USD    → invalid_amount
///   Total        → no currency, no date: skipped
/// Totals: from USD 100.00 + 12.345 = 112.345 (2 records), GBP 70.00 (1); to EUR 80.00 + 9.88 + 87.50 = 177.38.
@Suite("fxbatch end to end: summary rows and totals per currency")
struct SummaryRowsAndTotalsTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = "date,base,quote,rate\n2024-01-05,EUR,USD,1.25\n2024-01-05,EUR,GBP,0.8\n"
  static let sheet = """
    label,date,amount,currency
    A,2024-01-05,100.00,USD
    B,2024-01-05,12.345,USD
    C,2024-01-05,70,GBP
    D,2024-01-05,N/A,USD
    Total:,,182.345,

    """

  func run(_ extra: [String], in directory: TemporaryDirectory, general: Bool = false) throws -> CLIRunner.Result {
    try directory.write("rates.csv", Self.rates)
    try directory.write("in.csv", Self.sheet)
    var runner = cli
    if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
    return try runner.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "in.csv", "--report", "report.json"] + extra, in: directory.url)
  }

  func report(in directory: TemporaryDirectory, _ name: String = "report.json") throws -> RunReport {
    try JSONDecoder().decode(RunReport.self, from: Data(try directory.read(name).utf8))
  }

  @Test(arguments: [false, true])
  func totalRowIsSkipped(general: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run([], in: directory, general: general)
    // Only D's error counts: the total row is no error.
    #expect(result.status == 1, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "in.csv -> in.converted.csv: 4 records: 3 ok, 0 fallback, 1 error (invalid_amount 1); 1 summary row skipped"),
      "\(result.standardError)")
    #expect(result.standardError.contains("exit status 1 (record-errors): 1 record failed on its own data"))
    let lines = try directory.read("in.converted.csv").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[5] == "Total:,,182.345,,,,,,,skipped,")
    let report = try report(in: directory)
    #expect(report.totals.skipped == 1)
    #expect(report.totals.records == 4)
    #expect(report.files.first?.counts.skipped == 1)
  }

  @Test func noSkipTotalsMakesTheRowAnError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["--no-skip-totals"], in: directory)
    #expect(result.status == 1)
    #expect(result.standardError.contains("5 records: 3 ok, 0 fallback, 2 error (invalid_amount 1, missing_field 1)"))
    #expect(try report(in: directory).totals.skipped == nil)
  }

  /// A pattern skips a row that has every field (`D` would be an error otherwise): the run exits 0.
  @Test func patternSkipsMatchingRows() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["--skip-rows-matching", "^D$"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("3 records: 3 ok, 0 fallback, 0 error; 2 summary rows skipped"))
  }

  @Test(arguments: ["(", "[a-", "*"])
  func invalidPatternIsAUsageError(pattern: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["--skip-rows-matching", pattern], in: directory)
    #expect(result.status == 64)
    #expect(result.standardError.contains("is not a valid regular expression"), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/in.converted.csv"))
  }

  /// A pattern that backtracks without end on a label (`(a+)+$` on 40 `a`s and a `!`: hours in ICU) is stopped
  /// after 0.2 s, and that record is its `invalid_record` error, neither skipped nor converted; the other
  /// records are judged as usual, on both paths.
  @Test(.timeLimit(.minutes(1)), arguments: [false, true])
  func catastrophicPatternIsTheRecordsError(general: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    let label = String(repeating: "a", count: 40) + "!"
    try directory.write(
      "in.csv", "label,date,amount,currency\n\(label),2024-01-05,1,USD\naaa,2024-01-05,1,USD\nB,2024-01-05,1,USD\n")
    var runner = cli
    if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
    let result = try runner.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--skip-rows-matching", "(a+)+$", "in.csv"], in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let lines = try directory.read("in.converted.csv").split(separator: "\n")
    #expect(lines[1].contains(",error,\"invalid_record: --skip-rows-matching \"\"(a+)+$\"\" did not finish matching"))
    #expect(lines[2].hasSuffix(",skipped,"))
    #expect(lines[3].contains(",ok,"))
    #expect(result.standardError.contains("2 records: 1 ok, 0 fallback, 1 error (invalid_record 1); 1 summary row skipped"))
  }

  /// The labels compare without case, accents, spaces and a trailing colon; other words are no labels.
  @Test(arguments: [
    ("Total", true), ("  TOTAL: ", true), ("Total général", true), ("TOTAL GENERAL", true), ("Gesamtsumme", true),
    ("summe:", true), ("Totaal", true), ("Totale", true), ("Soma", true), ("Suma", true), ("Somme", true),
    ("Totals", true), ("Total amount", false), ("Totally", false), ("Client", false), ("", false),
  ])
  func labels(label: String, isTotal: Bool) {
    #expect(RowSkipRule.totalLabels.contains(RowSkipRule.normalized(label)) == isTotal, "\(label)")
  }

  /// The report's `to` sum is the sum of the output file's `fx_converted` values, exactly; the `from` sums are
  /// the amounts as read; the summary prints them; failed and skipped rows are not counted.
  @Test(arguments: [false, true])
  func totalsAreTheSumsOfTheFilesValues(general: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run([], in: directory, general: general)
    #expect(result.standardError.contains("  totals from: 70.00 GBP (1 record), 112.345 USD (2 records)\n"))
    let lines = try directory.read("in.converted.csv").split(separator: "\n").dropFirst()
    var sum = ExactDecimal.zero
    for line in lines {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields[9] == "ok" else { continue }
      let value = try #require(ExactDecimal(fields[5]))
      sum = try #require(sum.adding(value))
    }
    #expect(sum.description == "177.38")
    let totals = try #require(try report(in: directory).currencyTotals)
    #expect(totals.to == [CurrencyTotals.Total(currency: "EUR", records: 3, total: sum.description)])
    #expect(
      totals.from == [
        CurrencyTotals.Total(currency: "GBP", records: 1, total: "70.00"),
        CurrencyTotals.Total(currency: "USD", records: 2, total: "112.345"),
      ])
    #expect(try report(in: directory).files.first?.currencyTotals == totals)
  }

  /// `report merge` adds the parts' totals: two runs over the same sheet give twice each sum.
  @Test func mergeAddsTotals() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try run([], in: directory)
    try directory.write("copy.csv", Self.sheet)
    _ = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "copy.csv", "--report", "two.json"], in: directory.url)
    let merged = try cli.run(["report", "merge", "report.json", "two.json", "-o", "total.json"], in: directory.url)
    #expect(merged.status == 0, "\(merged.standardError)")
    let totals = try #require(try report(in: directory, "total.json").currencyTotals)
    #expect(totals.to == [CurrencyTotals.Total(currency: "EUR", records: 6, total: "354.76")])
    #expect(
      totals.from == [
        CurrencyTotals.Total(currency: "GBP", records: 2, total: "140.00"),
        CurrencyTotals.Total(currency: "USD", records: 4, total: "224.690"),
      ])
    #expect(try report(in: directory, "total.json").totals.skipped == 2)
  }
}

extension SummaryRowsAndTotalsTests {
  /// A report whose run totals are not its files' added up (edited by hand) is not merged.
  @Test func mergeRefusesEditedTotals() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try run([], in: directory)
    let original = try directory.read("report.json")
    // The file's USD sum (the last: the run's members are sorted, `currencyTotals` before `files`).
    let last = try #require(original.range(of: #""total" : "112.345""#, options: .backwards))
    try directory.write("edited.json", original.replacingCharacters(in: last, with: #""total" : "112.346""#))
    try directory.write("copy.csv", Self.sheet)
    _ = try cli.run(["convert", "--to", "EUR", "--rates", "rates.csv", "copy.csv", "--report", "two.json"], in: directory.url)
    let refused = try cli.run(["report", "merge", "edited.json", "two.json", "-o", "total.json"], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("its currencyTotals are not its files' added up"), "\(refused.standardError)")
  }
}
