import FXBatchTestSupport
import Foundation
import Testing

/// Runs the built `fxbatch` binary on files and compares output files, standard error and exit status with
/// golden files whose values were computed by hand (see the comments) from the ECB history.
@Suite("fxbatch end to end")
struct EndToEndTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// A golden file's bytes from `Fixtures/e2e/`.
  static func fixture(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/e2e/\(name)")
    return try Data(contentsOf: url)
  }

  /// A temporary directory holding copies of the named fixtures.
  static func directory(with fixtures: [String]) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    for name in fixtures { try fixture(name).write(to: directory.url.appendingPathComponent(name)) }
    return directory
  }

  // mixed.converted.csv, by hand from eurofxref-hist.csv:
  //  1: 100 USD→GBP 2017-03-08 = 100 × 0.86753 / 1.0556 = 82.1835… → 82.18
  //  2: 1000 JPY→EUR 2017-03-08 = 1000 / 120.65 = 8.2884… → 8.29
  //  3: 2020-01-01 has no publication → 2019-12-31 USD 1.1234 → 112.34, fallback
  //  4: Saturday 2020-01-04 → Friday 2020-01-03 USD 1.1147 → 111.47, fallback; " eur ", "Usd" normalised
  //  5: ISK is N/A on 2014-08-25 → no_rate
  //  6: 1000000 TRL→EUR 1999-01-04 = 1000000 / 372274 = 2.6861… → 2.69
  //  7: EUR→EUR at rate 1 → 10.00
  // 10: 100 GBP→JPY 2017-03-08 = 100 × 120.65 / 0.86753 = 13907.30… → 13907 (JPY has 0 minor units)
  // 11: 2026-11-20 is 21 days after the data ends (2026-10-30) > 5 → date_out_of_range
  // 12: no date → newest day 2026-10-30: 2500.50 × 1.1172 / 0.9194 = 3038.458… → 3038.46
  // Reconciliation (mixed.stderr.txt), the rounded records against their exact sum rounded once:
  //  EUR rows 2, 6, 7: 8.29 + 2.69 + 10.00 = 20.98; 8.28843… + 2.68619… + 10 = 20.97463… → 20.97; +0.01
  //  GBP row 1: 82.18 against 82.1835… → 82.18; JPY row 10: 13907 against 13907.30… → 13907
  //  USD rows 3, 4, 12: 112.34 + 111.47 + 3038.46 = 3262.27; 112.34 + 111.47 + 3038.4587… = 3262.2687… → 3262.27
  @Test func convertsMixedFileExactlyLikeTheGoldenFile() throws {
    let directory = try Self.directory(with: ["mixed.csv"])
    defer { directory.remove() }
    let before = try Self.fixture("mixed.csv")
    let result = try cli.run(["convert", "mixed.csv"], in: directory.url)
    #expect(result.status == 1)
    #expect(try directory.read("mixed.converted.csv") == String(decoding: try Self.fixture("mixed.converted.csv"), as: UTF8.self))
    #expect(result.standardError == String(decoding: try Self.fixture("mixed.stderr.txt"), as: UTF8.self))
    #expect(result.standardOutput.isEmpty)
    #expect(try Data(contentsOf: directory.url.appendingPathComponent("mixed.csv")) == before, "the input is never modified")
    #expect(try directory.fileNames() == ["mixed.converted.csv", "mixed.csv"], "no temporary files left behind")
  }

  // bom-crlf-semicolon.converted.csv, by hand (2022-07-08: EUR/CHF 0.9913, EUR/USD 1.0163, EUR/SEK 10.6665):
  // 42.42 EUR→CHF = 42.050946 → 42.05; 99.99 USD→EUR = 98.386… → 98.39; 1 USD→SEK = 10.4954… → 10.50.
  @Test func keepsByteOrderMarkLineEndsQuotingAndBlankLines() throws {
    let directory = try Self.directory(with: ["bom-crlf-semicolon.csv"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "bom-crlf-semicolon.csv"], in: directory.url)
    #expect(result.status == 0)
    let output = try Data(contentsOf: directory.url.appendingPathComponent("bom-crlf-semicolon.converted.csv"))
    #expect(output == (try Self.fixture("bom-crlf-semicolon.converted.csv")))
    #expect(
      result.standardError.contains(
        "3 records: 3 ok, 0 fallback, 0 error [delimiter ;, decimal comma (inferred from the amounts)]"))
  }

  @Test func malformedFileIsAFileErrorWithLocationAndNothingWritten() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("bad.csv", "date,amount,from,to\n2020-01-02,1,USD,EUR\n2020-01-02,\"2,USD,EUR\n2020-01-02,3,USD,EUR\n")
    try directory.write("good.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    let result = try cli.run(["convert", "bad.csv", "good.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains("bad.csv:3:12: error: quoted field is never closed"))
    #expect(try directory.fileNames() == ["bad.csv", "good.converted.csv", "good.csv"])
    #expect(try directory.read("good.converted.csv").contains(",111.93,USD,2020-01-02,"))
  }

  // Issue 13: the messages read "no amount field in the header" and "no record has a amount field".
  @Test(arguments: [
    (
      "no-amount.csv", "date,from,to\n2020-01-02,USD,EUR\n",
      "no-amount.csv:1:1: error: the header has no amount field (\"date\", \"from\", \"to\"); use --amount-field NAME"
    ),
    (
      "no-amount.jsonl", "{\"from\":\"USD\",\"to\":\"EUR\"}\n",
      "no-amount.jsonl:1:1: error: no record has an amount field (the first record's members: \"from\", \"to\");"
        + " use --amount-field NAME"
    ),
    // No from-currency field is a record's own missing_field (its amount may name the currency: `USD 12.50`).
    (
      "no-to.jsonl", "{\"amount\":1,\"from\":\"USD\"}\n",
      "no-to.jsonl:1:1: error: no record has a to-currency field (the first record's members: \"amount\", \"from\");"
        + " use --to-field NAME or --to CODE"
    ),
  ])
  func missingFieldMessageReadsNaturally(name: String, text: String, message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(name, text)
    let result = try cli.run(["convert", name], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }

  @Test func missingTargetFieldIsAFileErrorThatNamesTheFix() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("no-to.csv", "date,amount,currency\n2020-01-02,1,USD\n")
    let result = try cli.run(["convert", "no-to.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        "no-to.csv:1:1: error: the header has no to-currency field (\"date\", \"amount\", \"currency\");"
          + " use --to-field NAME or --to CODE"))
    let fixed = try cli.run(["convert", "--to", "EUR", "no-to.csv"], in: directory.url)
    #expect(fixed.status == 0)
    // 1 USD→EUR on 2020-01-02 = 1 / 1.1193 = 0.89341552756… → rate shown to 10 digits 0.8934155276, amount 0.89
    #expect(try directory.read("no-to.converted.csv").contains("2020-01-02,1,USD,0.8934155276,0.89,EUR,2020-01-02,"))
  }

  @Test(arguments: [
    ([String](), "fxbatch: error:"),
    (["convert", "--bogus", "a.csv"], "fxbatch: error: unknown option --bogus"),
    (["convert", "-o", "out.csv", "a.csv", "b.csv"], "fxbatch: error: -o takes one input file"),
    (
      ["convert", "--rounding", "sideways", "a.csv"],
      "fxbatch: error: --rounding sideways: expected one of half-up, half-even, down, up"
    ),
    (["convert", "--to", "XYZ", "a.csv"], "fxbatch: error: --to XYZ: not an ISO 4217 currency code"),
    (["convert", "--max-staleness", "-1", "a.csv"], "fxbatch: error: --max-staleness -1"),
    (["frobnicate"], "fxbatch: error: no command 'frobnicate'"),
    (["convert", "--symbol", "€=USD", "a.csv"], "fxbatch: error: --symbol €=USD: € names EUR, not USD"),
    // Found by trying to break it: the lock and the report replaced an input or an output, exit 0.
    (
      ["convert", "a.csv", "--lock", "./a.csv", "-o", "o.csv"],
      "fxbatch: error: --lock ./a.csv: it is the input a.csv; fxbatch never modifies its input"
    ),
    (["convert", "a.csv", "--lock", "o.csv", "-o", "o.csv"], "fxbatch: error: --lock o.csv: it is the output of a.csv"),
    (["convert", "a.csv", "--report", "a.converted.csv"], "fxbatch: error: --report a.converted.csv: it is the output of a.csv"),
    (
      ["convert", "a.csv", "b.csv", "--report", "b.csv"],
      "fxbatch: error: --report b.csv: it is the input b.csv; fxbatch never modifies its input"
    ),
    (["convert", "a.csv", "--lock", "r.json", "--report", "r.json"], "fxbatch: error: --lock and --report name the same file"),
  ])
  func usageErrorsExitWith64(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(message))
    #expect(result.standardError.contains("USAGE:"))
  }

  @Test(arguments: [["--help"], ["convert", "--help"], ["rates", "--help"], ["help", "convert"], ["--version"]])
  func helpAndVersion(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == 0)
    #expect(result.standardOutput.contains(arguments == ["--version"] ? "fxbatch " : "USAGE: fxbatch"))
  }

  @Test func standardInputToStandardOutput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // 100 EUR→USD on 2020-01-02 = 100 × 1.1193 = 111.93
    let result = try cli.run(
      ["convert", "-q", "-"], in: directory.url, input: Data("amount,from,to,date\n100,EUR,USD,2020-01-02".utf8))
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        amount,from,to,date,fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error
        100,EUR,USD,2020-01-02,1.1193,111.93,USD,2020-01-02,ecb-embedded EUR/USD=1.1193,ok,
        """)
    #expect(try directory.fileNames().isEmpty)
  }

  // Issue 13, first use: `cat f.csv | fxbatch convert` was the usage error "no input files" (exit 64).
  @Test(arguments: [
    ("amount,from,to,date\n100,EUR,USD,2020-01-02\n,,,\nx,EUR,USD,2020-01-02\n", [String]()),
    ("{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\"}\n", []),
    ("[{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\"}]\n", ["-q"]),
    ("amount;from;to\n100;EUR;USD\n", ["--date", "2020-01-02"]),
  ])
  func pipedDataWithoutAFileIsReadLikeStandardInput(text: String, options: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let piped = try cli.run(["convert"] + options, in: directory.url, input: Data(text.utf8))
    let explicit = try cli.run(["convert"] + options + ["-", "-o", "-"], in: directory.url, input: Data(text.utf8))
    #expect(piped.status == explicit.status)
    #expect(piped.standardOutput == explicit.standardOutput)
    #expect(piped.standardError == explicit.standardError)
    // 100 EUR→USD on 2020-01-02 = 100 × 1.1193 = 111.93
    #expect(piped.standardOutput.contains("111.93"), "\(piped.standardError)")
    #expect(try directory.fileNames().isEmpty)
  }

  /// From a terminal nothing would come: no file is still a usage error, which says what to give.
  @Test func noFileFromATerminalIsAUsageError() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(["convert"], in: directory.url, inputIsTerminal: true)
    #expect(result.status == 64)
    #expect(
      result.standardError.contains(
        "fxbatch: error: no input files; give FILE..., or pipe the data in (standard input is a terminal)"),
      "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
  }

  @Test func reportIsJSONWithCountsAndExitStatus() throws {
    let directory = try Self.directory(with: ["mixed.csv"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--report", "report.json", "--output-dir", ".", "mixed.csv"], in: directory.url)
    #expect(result.status == 1)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: directory.url.appendingPathComponent("report.json")))
        as? [String: Any])
    #expect(json["exitStatus"] as? Int == 1)
    let totals = try #require(json["totals"] as? [String: Any])
    #expect(totals["records"] as? Int == 13)
    #expect(totals["ok"] as? Int == 6)
    #expect(totals["fallback"] as? Int == 2)
    #expect(totals["error"] as? Int == 5)
    #expect(
      (totals["errorsByCode"] as? [String: Int]) == [
        "invalid_amount": 2, "no_rate": 1, "unknown_currency": 1, "date_out_of_range": 1,
      ])
    let rates = try #require(json["rates"] as? [String: Any])
    #expect(rates["lastDay"] as? String == "2026-10-30")
    #expect(rates["daysSinceLastPublication"] as? Int == 30)
  }

  @Test func userRatesFileWithHalfEvenRounding() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("month-end.csv", "date,base,quote,rate\n2024-01-31,EUR,USD,1.005\n2024-02-29,EUR,USD,1.015\n")
    try directory.write("in.csv", "date,amount,from,to\n2024-01-31,1,EUR,USD\n2024-02-29,1,EUR,USD\n2024-02-15,1,EUR,USD\n")
    // 1 × 1.005 = 1.005 → half-even 1.00 (half-up would give 1.01); 1 × 1.015 → 1.02;
    // 2024-02-15 is 15 days after 2024-01-31 > 5 → stale_rate.
    let result = try cli.run(["convert", "--rates", "month-end.csv", "--rounding", "half-even", "in.csv"], in: directory.url)
    #expect(result.status == 1)
    let lines = try directory.read("in.converted.csv").split(separator: "\n")
    #expect(lines[1] == "2024-01-31,1,EUR,USD,1.005,1.00,USD,2024-01-31,file:month-end.csv EUR/USD=1.005,ok,")
    #expect(lines[2] == "2024-02-29,1,EUR,USD,1.015,1.02,USD,2024-02-29,file:month-end.csv EUR/USD=1.015,ok,")
    #expect(
      lines[3].hasSuffix(
        ",error,stale_rate: month-end.csv published no rates in the 5 days up to 2024-02-15 (latest: 2024-01-31); use --max-staleness 15 to accept it"
      ))
    let halfUp = try cli.run(["convert", "--rates", "month-end.csv", "-o", "-", "-q", "in.csv"], in: directory.url)
    #expect(halfUp.standardOutput.contains("2024-01-31,1,EUR,USD,1.005,1.01,USD,"))
  }

  @Test func badRatesFileNamesItsLine() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", "date,base,quote,rate\n2024-01-31,EUR,USD,1.08\n2024-01-31,EUR,GBP,zero\n")
    try directory.write("in.csv", "amount,from,to\n1,EUR,USD\n")
    let result = try cli.run(["convert", "--rates", "rates.csv", "in.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError == "rates.csv:3:20: error: \"zero\" is not a positive decimal rate\n")
    #expect(try directory.fileNames() == ["in.csv", "rates.csv"])
  }

  // 1 USD→GBP on 2017-03-08 = 0.86753 / 1.0556 = 0.82183592269…
  @Test func ratesShowPrintsRateDayAndSource() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(["rates", "show", "usd", "GBP", "--date", "2017-03-08"], in: directory.url)
    #expect(result.status == 0)
    #expect(
      result.standardOutput
        == "1 USD = 0.8218359227 GBP  rate date 2017-03-08  source ecb-embedded EUR/USD=1.0556 EUR/GBP=0.86753\n")
    let weekend = try cli.run(["rates", "show", "EUR", "USD", "--date", "2020-01-04"], in: directory.url)
    #expect(weekend.standardOutput.contains("1.1147 USD  rate date 2020-01-03 (no publication on 2020-01-04)"))
    let missing = try cli.run(["rates", "show", "EUR", "ISK", "--date", "2014-08-25"], in: directory.url)
    #expect(missing.status == 1)
    #expect(missing.standardError == "fxbatch: no_rate: ECB published no ISK rate on 2014-08-25\n")
  }

  @Test func binaryCopiedAloneStillHasItsRates() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let copy = directory.url.appendingPathComponent("fxbatch")
    try FileManager.default.copyItem(at: cli.executable, to: copy)
    let result = try CLIRunner(executable: copy).run(["rates", "show", "EUR", "USD", "--date", "1999-01-04"], in: directory.url)
    #expect(result.standardOutput.hasPrefix("1 EUR = 1.1789 USD  rate date 1999-01-04"))
  }

  @Test func secondRunOverAGlobSkipsLastRunsOutputs() throws {
    let directory = try Self.directory(with: ["mixed.csv"])
    defer { directory.remove() }
    let first = try cli.run(["convert", "-q", "mixed.csv"], in: directory.url)
    #expect(first.status == 1)
    // What `fxbatch convert *.csv` passes on the second run.
    let second = try cli.run(["convert", "mixed.converted.csv", "mixed.csv"], in: directory.url)
    #expect(second.status == 1)
    #expect(second.standardError.contains("  mixed.converted.csv: skipped, it is the output of mixed.csv in this run"))
    #expect(try directory.fileNames() == ["mixed.converted.csv", "mixed.csv"])
    #expect(try directory.read("mixed.converted.csv") == String(decoding: try Self.fixture("mixed.converted.csv"), as: UTF8.self))
  }

  // The 2017-03-08 ECB daily XML as --rates: 100 USD→GBP = 100 × 0.86753 / 1.0556 = 82.1835… → 82.18;
  // on 2017-03-10 (two days later, within 5) the same rates are used as a fallback.
  @Test func ecbXMLFeedAsRatesFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let feed = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/e2e/ecb-eurofxref-daily-2017-03-08.xml")
    try FileManager.default.copyItem(at: feed, to: directory.url.appendingPathComponent("daily.xml"))
    try directory.write("in.csv", "date,amount,from,to\n2017-03-08,100,USD,GBP\n2017-03-10,100,USD,GBP\n2017-03-07,100,USD,GBP\n")
    let result = try cli.run(["convert", "--rates", "daily.xml", "-o", "-", "-q", "in.csv"], in: directory.url)
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(
      lines[1] == "2017-03-08,100,USD,GBP,0.8218359227,82.18,GBP,2017-03-08,file:daily.xml EUR/USD=1.0556 EUR/GBP=0.86753,ok,")
    #expect(
      lines[2]
        == "2017-03-10,100,USD,GBP,0.8218359227,82.18,GBP,2017-03-08,file:daily.xml EUR/USD=1.0556 EUR/GBP=0.86753,fallback,")
    #expect(
      lines[3].hasSuffix(
        ",error,date_out_of_range: 2017-03-07 is before the daily.xml rates start (2017-03-08); no earlier rate exists"))
  }
}
