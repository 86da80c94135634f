import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `--source A,B` through the CLI: the embedded ECB history chained with Frankfurter v2 (``FrankfurterV2Server``
/// on a loopback server). Each key comes from the first source with a rate for it; a failed exchange is the
/// record's error, never another source's rate.
@Suite("Source chains")
struct SourceChainTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The service's EUR-pivot rows: its USD differs from the ECB's 1.0846 of 2024-03-04, so which source
  /// answered shows in the rate. It publishes on Saturday 2024-03-02, the ECB does not; 2026-11-27 is after
  /// the embedded history ends (2026-10-30).
  static let table: [(String, String, String)] = [
    ("2024-03-02", "USD", "1.0849"),
    ("2024-03-04", "AED", "3.9912"), ("2024-03-04", "NGN", "1731.8"), ("2024-03-04", "USD", "1.0851"),
    ("2026-11-27", "USD", "1.1612"),
  ]

  static let header = "date,amount,from,to\n"

  /// Runs `convert` with `--source LIST` against the service (served by a fresh loopback server, gone after).
  func convert(
    _ list: String, _ arguments: [String], input: String, service: FrankfurterV2Server = FrankfurterV2Server(rows: table)
  ) throws -> (result: CLIRunner.Result, queries: [String]) {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    service.install(on: server)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", Self.header + input)
    let result = try cli.run(
      [
        "convert", "--source", list, "--endpoint", server.baseURL.absoluteString, "--no-cache", "--retry-delay", "0.01",
        "-o", "-",
      ] + arguments + ["in.csv"], in: directory.url)
    return (result, server.requests.map { $0.query ?? "" }.sorted())
  }

  /// The output's lines, padded with empty ones (a missing line fails its expectation, not the test process).
  func lines(_ result: CLIRunner.Result) -> [String] {
    result.standardOutput.split(separator: "\n").map(String.init) + Array(repeating: "", count: 8)
  }

  // ECB currencies from the embedded history, the rest from the service, asked only for what the history
  // lacks: one request per base (EUR for AED, NGN for EUR), none for USD.
  @Test func embeddedAnswersECBCurrenciesAndTheServiceTheRest() throws {
    let (result, queries) = try convert(
      "embedded,frankfurter", [],
      input: "2024-03-04,100,EUR,USD\n2024-03-04,100,USD,EUR\n2024-03-04,100,EUR,AED\n2024-03-04,10000,NGN,EUR\n"
        + "2024-03-04,100,EUR,EUR\n")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = lines(result)
    // Embedded ECB 2024-03-04: EUR/USD 1.0846; 100 × 1.0846 = 108.46 USD (not the service's 1.0851).
    #expect(lines[1] == "2024-03-04,100,EUR,USD,1.0846,108.46,USD,2024-03-04,ecb-embedded EUR/USD=1.0846,ok,")
    // 100 / 1.0846 = 92.2000… → 92.20 EUR.
    #expect(lines[2] == "2024-03-04,100,USD,EUR,0.9219988936,92.20,EUR,2024-03-04,ecb-embedded EUR/USD=1.0846,ok,")
    // The service: 100 × 3.9912 = 399.12 AED.
    #expect(lines[3] == "2024-03-04,100,EUR,AED,3.9912,399.12,AED,2024-03-04,frankfurter-v2 EUR/AED=3.9912,ok,")
    // The service divides: 1 / 1731.8 = 0.000577…, rounded to 5 decimals 0.00058; 10000 × 0.00058 = 5.80 EUR.
    #expect(lines[4] == "2024-03-04,10000,NGN,EUR,0.00058,5.80,EUR,2024-03-04,frankfurter-v2 NGN/EUR=0.00058,ok,")
    #expect(lines[5] == "2024-03-04,100,EUR,EUR,1,100.00,EUR,2024-03-04,same currency,ok,")
    #expect(queries == ["base=EUR&quotes=AED&date=2024-03-04", "base=NGN&quotes=EUR&date=2024-03-04"])
    #expect(result.standardError.contains("chain: embedded answered 3 of 5, then frankfurter answered 2 of 2 distinct keys"))
    #expect(result.standardError.contains("requests: 2 sent"))
  }

  // A file of ECB currencies costs no request at all; --plan says so before the run.
  @Test func ecbCurrenciesCostNoRequest() throws {
    let input = "2024-03-04,100,EUR,USD\n2024-03-01,100,GBP,JPY\n"
    let (result, queries) = try convert("embedded,frankfurter", ["-q"], input: input)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(lines(result)[1].hasSuffix(",ecb-embedded EUR/USD=1.0846,ok,"))
    #expect(queries.isEmpty)
    let (plan, planQueries) = try convert("embedded,frankfurter", ["--plan"], input: input + "2024-03-04,1,EUR,AED\n")
    #expect(plan.status == 0)
    #expect(plan.standardOutput.contains("  embedded: 2 of 3 keys answered without the network, 0 failed\n"))
    #expect(
      plan.standardOutput.contains("  frankfurter: asked the 1 keys the sources before it have no rate for (planned below)\n"))
    #expect(plan.standardOutput.contains("/v2/rates?base=EUR&quotes=AED&date=2024-03-04  (1 key)"))
    #expect(planQueries.isEmpty)
  }

  // Only a rate older than --max-staleness is no rate for the day: with --max-staleness 0 the history's
  // Friday rate is stale for Saturday 2024-03-02 (stale_rate alone), and the service's Saturday row answers:
  // 100 × 1.0849 = 108.49 USD.
  @Test func aStaleRatePassesOn() throws {
    let (result, queries) = try convert(
      "embedded,frankfurter", ["-q", "--max-staleness", "0"], input: "2024-03-02,100,EUR,USD\n")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(lines(result)[1] == "2024-03-02,100,EUR,USD,1.0849,108.49,USD,2024-03-02,frankfurter-v2 EUR/USD=1.0849,ok,")
    #expect(queries == ["base=EUR&quotes=USD&date=2024-03-02"])
    // GBP, unknown to the service, then stale in the history: no link has a rate, each says why.
    let neither = try convert("frankfurter,embedded", ["-q", "--max-staleness", "0"], input: "2024-03-02,100,EUR,GBP\n")
    let line = lines(neither.result)[1]
    #expect(line.contains(",error,no_rate: no source of the chain has a rate for EUR/GBP on 2024-03-02 (frankfurter: no_rate: "))
    #expect(line.contains("; embedded: stale_rate: "), "\(line)")
  }

  // A date outside a source's coverage passes on: the embedded history ends 2026-10-30, so a record of
  // 2026-11-27 is the service's (100 × 1.1612 = 116.12 USD); 2026-10-30 stays embedded.
  @Test func anOutOfRangeDatePassesOn() throws {
    let (result, queries) = try convert(
      "embedded,frankfurter", [], input: "2026-11-27,100,EUR,USD\n2026-10-30,100,EUR,USD\n")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(lines(result)[1] == "2026-11-27,100,EUR,USD,1.1612,116.12,USD,2026-11-27,frankfurter-v2 EUR/USD=1.1612,ok,")
    #expect(lines(result)[2].hasPrefix("2026-10-30,100,EUR,USD,") && lines(result)[2].contains(",ecb-embedded EUR/USD="))
    #expect(queries == ["base=EUR&quotes=USD&date=2026-11-27"])
    #expect(result.standardError.contains("chain: embedded answered 1 of 2, then frankfurter answered 1 of 1 distinct keys"))
  }

  // A service that fails (503) is the record's error, whichever link it is: the embedded history's EUR/USD
  // is not used when the service, asked first, is down for EUR; a later service down for NGN fails NGN.
  @Test func aFailedExchangeIsNotPassedOn() throws {
    var down = FrankfurterV2Server(rows: Self.table)
    down.unavailableBases = ["EUR", "NGN"]
    let first = try convert("frankfurter,embedded", ["-q", "--retries", "0"], input: "2024-03-04,100,EUR,USD\n", service: down)
    #expect(first.result.status == 3)
    #expect(
      lines(first.result)[1].hasPrefix("2024-03-04,100,EUR,USD,,,USD,,chain:frankfurter+embedded,error,source_unavailable: "))
    let later = try convert(
      "embedded,frankfurter", ["-q", "--retries", "0"], input: "2024-03-04,100,EUR,USD\n2024-03-04,10000,NGN,EUR\n",
      service: down)
    #expect(later.result.status == 3)
    #expect(lines(later.result)[1].hasSuffix(",ecb-embedded EUR/USD=1.0846,ok,"))
    #expect(
      lines(later.result)[2].hasPrefix("2024-03-04,10000,NGN,EUR,,,EUR,,chain:embedded+frankfurter,error,source_unavailable: "))
  }

  // A pair no link has: no_rate, with each link's reason.
  @Test func aPairNoLinkHasIsNoRateNamingEach() throws {
    let (result, _) = try convert("embedded,frankfurter", ["-q"], input: "2024-03-04,5,EUR,BOB\n")
    #expect(result.status == 1)
    #expect(
      lines(result)[1]
        == "2024-03-04,5,EUR,BOB,,,BOB,,chain:embedded+frankfurter,error,no_rate: no source of the chain has a rate for "
        + "EUR/BOB on 2024-03-04 (embedded: no_rate: the ECB rates have no BOB rates at all; "
        + "frankfurter: no_rate: Frankfurter: invalid currency: BOB)")
  }

  @Test(
    arguments: [
      (["--source", "embedded,ecbx"], "--source embedded,ecbx: unknown source ecbx"),
      (["--source", "embedded,,frankfurter"], "an empty name in the list"),
      (["--source", "embedded,frankfurter,embedded"], "embedded is named twice"),
      (["--source", "embedded,frankfurter", "--rates", "r.csv"], "--rates is for the source file; add file to --source"),
      (["--source", "embedded,file"], "--source file needs --rates FILE"),
      (["--source", "embedded,file", "--rates", "r.csv", "--jobs", "2"], "--jobs is for a network source"),
      (
        ["--source", "ecb,frankfurter", "--endpoint", "http://127.0.0.1:9"],
        "--endpoint is the root of one service, and --source ecb,frankfurter names 2 (ecb, frankfurter)"
      ),
      (["--source", "embedded,frankfurter", "--date-policy", "latest"], "--date-policy is for the source calculator"),
    ])
  func usageErrors(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", Self.header + "2024-03-04,1,EUR,USD\n")
    try directory.write("r.csv", "date,base,quote,rate\n2024-03-04,EUR,USD,1.1\n")
    let result = try cli.run(["convert", "-o", "-"] + arguments + ["in.csv"], in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.contains(message), "\(result.standardError)")
  }
}
