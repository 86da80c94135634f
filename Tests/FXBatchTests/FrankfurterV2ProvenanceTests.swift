import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Frankfurter v2 provenance (`--providers`, `expand=providers`, `fx_source`, the lock) and NDJSON answers,
/// against ``FrankfurterV2Server`` on a loopback server. Never the internet.
@Suite("Frankfurter v2 provenance")
struct FrankfurterV2ProvenanceTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// FrankfurterV2Tests' rows, each quote published by one provider.
  static let providers = ["USD": "ECB", "AED": "CBUAE", "NGN": "CBN", "ARS": "BCRA", "VND": "SBV"]

  func service() -> FrankfurterV2Server { FrankfurterV2Server(rows: FrankfurterV2Tests.table, providers: Self.providers) }

  func withService(_ test: (LoopbackHTTPServer, TemporaryDirectory) throws -> Void) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    service().install(on: server)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try test(server, directory)
  }

  // --providers ECB,CBN pins providers= and asks expand=providers: fx_source names each rate's provider; AED,
  // published by CBUAE alone, has no rate from them. The lock records the pin and each rate's provider, and a
  // frozen run replays them byte for byte.
  @Test func pinnedProvidersAreNamedInFxSourceAndTheLock() throws {
    try withService { server, directory in
      try directory.write(
        "in.csv", FrankfurterV2Tests.header + "2024-03-04,100,EUR,USD\n2024-03-04,250,EUR,NGN\n2024-03-04,5,EUR,AED\n")
      let endpoint = server.baseURL.absoluteString
      let result = try cli.run(
        [
          "convert", "-q", "--source", "frankfurter", "--endpoint", endpoint, "--providers", "ECB,CBN", "--no-cache",
          "--lock", "p.lock", "-o", "out.csv", "in.csv",
        ], in: directory.url)
      #expect(result.status == 1, "\(result.standardError)")
      let lines = try directory.read("out.csv").split(separator: "\n").map(String.init)
      // 100 × 1.0851 = 108.51 USD; 250 × 1731.8 = 432950.00 NGN.
      #expect(lines[1] == "2024-03-04,100,EUR,USD,1.0851,108.51,USD,2024-03-04,frankfurter-v2(ECB) EUR/USD=1.0851,ok,")
      #expect(lines[2] == "2024-03-04,250,EUR,NGN,1731.8,432950.00,NGN,2024-03-04,frankfurter-v2(CBN) EUR/NGN=1731.8,ok,")
      #expect(lines[3].hasSuffix(",error,no_rate: Frankfurter has no EUR/AED rate on or before 2024-03-04"))
      #expect(
        server.requests.map { $0.query ?? "" } == [
          "base=EUR&quotes=AED,NGN,USD&date=2024-03-04&providers=ECB,CBN&expand=providers"
        ])
      let lock = try directory.read("p.lock")
      #expect(lock.contains("\ndescription Frankfurter v2 rates API (\(endpoint)) of the providers ECB,CBN\n"))
      #expect(lock.contains("\nquote EUR USD 2024-03-04 1.0851 1 1.0851 2024-03-04 ok frankfurter-v2(ECB) EUR/USD=1.0851\n"))
      server.stop()
      let frozen = try cli.run(
        ["convert", "-q", "--lock", "p.lock", "--frozen", "-o", "frozen.csv", "in.csv"], in: directory.url)
      #expect(frozen.status == 1)
      #expect(try directory.read("frozen.csv") == directory.read("out.csv"))
    }
  }

  // The rate cache keeps a pinned run's rates apart from the blend's: a pinned run after an unpinned one asks
  // again, and the reverse.
  @Test func theCacheKeepsPinnedAndBlendedRatesApart() throws {
    try withService { server, directory in
      try directory.write("in.csv", FrankfurterV2Tests.header + "2024-03-04,100,EUR,USD\n")
      func run(_ extra: [String]) throws -> String {
        let result = try cli.run(
          [
            "convert", "-q", "--source", "frankfurter", "--endpoint", server.baseURL.absoluteString, "--cache-dir", "cache", "-o",
            "-",
          ]
            + extra + ["in.csv"], in: directory.url)
        return result.standardOutput
      }
      #expect(try run([]).contains(",frankfurter-v2 EUR/USD=1.0851,ok,"))
      #expect(try run(["--providers", "ECB"]).contains(",frankfurter-v2(ECB) EUR/USD=1.0851,ok,"))
      #expect(try run([]).contains(",frankfurter-v2 EUR/USD=1.0851,ok,"))
      #expect(try run(["--providers", "ECB"]).contains(",frankfurter-v2(ECB) EUR/USD=1.0851,ok,"))
      #expect(server.requestCount == 2)
    }
  }

  // A bad --providers is a usage error naming it (exit 64, nothing asked), as is --providers without the
  // frankfurter source.
  @Test(arguments: [
    (["--providers", "ecb"], "--providers ecb: 'ecb' is not a provider key as Frankfurter spells them"),
    (["--providers", "ECB,"], "--providers ECB,: '' is not a provider key"),
    (["--providers", "ECB,ECB"], "--providers ECB,ECB: a provider is named twice"),
    (["--providers", "E CB"], "--providers E CB: 'E CB' is not a provider key"),
    (["--source", "embedded", "--providers", "ECB"], "--providers is for --source frankfurter (v2)"),
    (["--source", "frankfurter-v1", "--providers", "ECB"], "--providers is for --source frankfurter (v2)"),
  ])
  func badProvidersAreUsageErrors(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", FrankfurterV2Tests.header + "2024-03-04,100,EUR,USD\n")
    let source = arguments.contains("--source") ? [] : ["--source", "frankfurter", "--endpoint", "http://127.0.0.1:9"]
    let result = try cli.run(["convert", "-q", "--no-cache", "-o", "-"] + source + arguments + ["in.csv"], in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix("fxbatch: error: \(message)"), "\(result.standardError)")
    #expect(result.standardOutput.isEmpty)
  }

  // The reading of `providers` members: excluded providers are not named; a provider not asked for, or a list
  // that is not one, fails its quote only.
  @Test func providerMembersAreReadStrictly() throws {
    let provider = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9/")!, providers: ["ECB", "BOC"])
    let usd = RateKey(base: try code("EUR"), quote: try code("USD"), day: try day("2024-03-04"))
    let cad = RateKey(base: try code("EUR"), quote: try code("CAD"), day: try day("2024-03-04"))
    let request = RateRequest(url: URL(string: "http://127.0.0.1:9/v2/rates")!, keys: [usd, cad])
    func answers(_ body: String, headers: [String: String] = [:]) -> [RateKey: Result<RateQuote, RowError>] {
      provider.answers(to: request, response: HTTPResponse(status: 200, headers: headers, body: Data(body.utf8)), maxStaleness: 5)
    }
    let blended = answers(
      #"[{"date":"2024-03-04","base":"EUR","quote":"USD","rate":1.0851,"providers":[{"key":"ECB","rate":1.0851},"#
        + #"{"key":"BOC","rate":1.2,"excluded":true}]},"#
        + #"{"date":"2024-03-04","base":"EUR","quote":"CAD","rate":1.4671,"providers":[{"key":"BOC","rate":1.4671},{"key":"ECB","rate":1.4671}]}]"#
    )
    #expect(try blended[usd]?.get().source == "frankfurter-v2(ECB) EUR/USD=1.0851")
    #expect(try blended[cad]?.get().source == "frankfurter-v2(BOC+ECB) EUR/CAD=1.4671")
    let other = answers(
      #"[{"date":"2024-03-04","base":"EUR","quote":"USD","rate":1.0851,"providers":[{"key":"FED","rate":1.0851}]},"#
        + #"{"date":"2024-03-04","base":"EUR","quote":"CAD","rate":1.4671,"providers":"BOC"}]"#)
    #expect(
      other[usd]
        == .failure(RowError(.badResponse, "Frankfurter: the USD rate of 2024-03-04 names providers not asked for (FED)")))
    #expect(
      other[cad] == .failure(RowError(.badResponse, "Frankfurter: the CAD rate of 2024-03-04: its providers are not a list")))
    // Without a providers member (a service that ignores expand), the pinned providers are named.
    let bare = answers(#"[{"date":"2024-03-04","base":"EUR","quote":"USD","rate":1.0851}]"#)
    #expect(try bare[usd]?.get().source == "frankfurter-v2(ECB+BOC) EUR/USD=1.0851")
  }

  // NDJSON: the test service answers `Accept: application/x-ndjson` with one object a line, and the provider
  // reads such an answer as it reads the array, within the same limit of values.
  @Test func ndjsonAnswersAreRead() throws {
    let query = "base=EUR&quotes=AED,ARS,NGN&from=2024-02-25&to=2024-03-04"
    let head = HTTPRequestHead(method: "GET", path: "/v2/rates", query: query, headers: ["accept": "application/x-ndjson"])
    let served = service().response(to: head)
    #expect(served.headers["Content-Type"] == "application/x-ndjson")
    let text = String(decoding: served.body, as: UTF8.self)
    #expect(
      text == """
        {"date":"2024-03-01","base":"EUR","quote":"AED","rate":3.9876}
        {"date":"2024-03-01","base":"EUR","quote":"ARS","rate":925.37}
        {"date":"2024-03-01","base":"EUR","quote":"NGN","rate":1702.5}
        {"date":"2024-03-04","base":"EUR","quote":"AED","rate":3.9912}
        {"date":"2024-03-04","base":"EUR","quote":"NGN","rate":1731.8}

        """)
    let provider = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9/")!)
    let keys = try [("AED", "2024-03-02"), ("ARS", "2024-03-04"), ("NGN", "2024-03-04")].map {
      RateKey(base: try code("EUR"), quote: try code($0.0), day: try day($0.1))
    }
    let request = RateRequest(url: URL(string: "http://127.0.0.1:9/v2/rates?\(query)")!, keys: keys)
    let response = HTTPResponse(status: 200, headers: ["content-type": "application/x-ndjson"], body: served.body)
    let read = provider.answers(to: request, response: response, maxStaleness: 5)
    // AED on Saturday: Friday's 3.9876 (fallback); ARS on Monday: Friday's 925.37; NGN: Monday's 1731.8.
    #expect(try read[keys[0]]?.get().rateText == "3.9876")
    #expect(try read[keys[0]]?.get().isFallback == true)
    #expect(try read[keys[1]]?.get().rateText == "925.37")
    #expect(try read[keys[2]]?.get().rateText == "1731.8")
    // One key, one day: 1 quote × 20 days × 5 + 5 + 1 = 106 values, read up to 4 × 106 = 424; 220 lines are more.
    let one = RateRequest(url: request.url, keys: [keys[2]])
    let line = #"{"date":"2024-03-04","base":"EUR","quote":"NGN","rate":1731.8}"# + "\n"
    let huge = HTTPResponse(
      status: 200, headers: ["content-type": "application/x-ndjson"], body: Data(String(repeating: line, count: 220).utf8))
    #expect(
      provider.answers(to: one, response: huge, maxStaleness: 5)[keys[2]]
        == .failure(RowError(.badResponse, "Frankfurter: the answer holds more than 424 values (members and array elements)")))
    let broken = HTTPResponse(status: 200, headers: ["content-type": "application/x-ndjson"], body: Data((line + "{\n").utf8))
    #expect(
      provider.answers(to: one, response: broken, maxStaleness: 5)[keys[2]]
        == .failure(
          RowError(.badResponse, "Frankfurter: line 2 is not JSON (column 2: unexpected end of the document inside an object)")))
  }
}
