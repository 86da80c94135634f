import FXBatchTestSupport
import Foundation
import Testing

/// `fxbatch convert --source frankfurter|ecb` against a real HTTP server on 127.0.0.1 that the test starts,
/// scripted per route (latency, failures). Never the internet.
@Suite("fxbatch end to end: rates over HTTP")
struct NetworkEndToEndTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// A Frankfurter v1 answer for one base and day.
  static func frankfurter(base: String = "EUR", date: String, rates: [String: String]) -> String {
    let members = rates.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
    return #"{"amount":1.0,"base":"\#(base)","date":"\#(date)","rates":{\#(members)}}"#
  }

  func run(_ arguments: [String], server: LoopbackHTTPServer, in directory: TemporaryDirectory) throws -> CLIRunner.Result {
    try cli.run(
      [
        "convert", "--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString, "--no-cache", "--retry-delay",
        "0.05",
      ]
        + arguments, in: directory.url)
  }

  // 40 days × 200 records of EUR→USD: 40 distinct keys, one request each; at most 8 in flight, and 8 reached.
  // Rate for day d: 1.1000 + d/10000 (the server's script); 100 EUR × 1.1001 = 110.01 on day 1.
  @Test func eachDistinctKeyIsAskedOnceWithBoundedConcurrency() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var csv = "date,amount,from,to\n"
    for index in 1...40 {
      let date = "2024-02-\(String(format: "%02d", (index - 1) % 28 + 1))"
      let day = index <= 28 ? date : "2024-03-\(String(format: "%02d", index - 28))"
      server.route(
        "/v1/\(day)",
        [
          .json(
            Self.frankfurter(date: day, rates: ["USD": "1.\(String(format: "%04d", 1000 + index))"]), delay: .milliseconds(150))
        ])
      for _ in 0..<200 { csv += "\(day),100,EUR,USD\n" }
    }
    try directory.write("many.csv", csv)
    let result = try run(["--jobs", "8", "many.csv"], server: server, in: directory)
    #expect(result.status == 0)
    #expect(server.requestCount == 40)
    #expect(server.peakConcurrentRequests == 8)
    #expect(result.standardError.contains("8000 records: 8000 ok, 0 fallback, 0 error"))
    #expect(result.standardError.contains("requests: 40 sent, 0 retries, 0 failed"))
    let lines = try directory.read("many.converted.csv").split(separator: "\n")
    #expect(lines.count == 8001)
    #expect(lines[1] == "2024-02-01,100,EUR,USD,1.1001,110.01,USD,2024-02-01,frankfurter-v1 EUR/USD=1.1001,ok,")
    #expect(lines[8000] == "2024-03-12,100,EUR,USD,1.104,110.40,USD,2024-03-12,frankfurter-v1 EUR/USD=1.1040,ok,")
  }

  // Each failure mode fails only its own records; the rest converts; the run ends in bounded time.
  @Test func failuresStayWithTheirOwnKeys() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let ok = Self.frankfurter(date: "2024-03-01", rates: ["USD": "1.0833"])
    server.route("/v1/2024-03-01", [.json(ok)])
    server.route(
      "/v1/2024-03-04",
      [.status(429, headers: ["Retry-After": "1"]), .json(Self.frankfurter(date: "2024-03-04", rates: ["USD": "1.0855"]))])
    server.route("/v1/2024-03-05", [.json(#"{"error":"Rate limit exceeded"}"#)])
    server.route("/v1/2024-03-06", [.neverAnswer])
    server.route("/v1/2024-03-07", [.status(500)])
    server.route("/v1/2024-03-08", [.closeWithoutAnswer])
    server.route("/v1/2024-03-11", [.json(#"{"message":"not found"}"#, status: 404)])
    try directory.write(
      "mixed.csv",
      """
      date,amount,from,to
      2024-03-01,100,EUR,USD
      2024-03-04,100,EUR,USD
      2024-03-05,100,EUR,USD
      2024-03-06,100,EUR,USD
      2024-03-07,100,EUR,USD
      2024-03-08,100,EUR,USD
      2024-03-11,100,EUR,USD
      2024-03-01,100,EUR,EUR
      2024-03-01,100,AED,EUR

      """)
    let started = Date()
    let result = try run(["--timeout", "1", "--retries", "2", "mixed.csv"], server: server, in: directory)
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.status == 3)
    #expect(elapsed < 20, "the run ends in bounded time")
    let lines = try directory.read("mixed.converted.csv").split(separator: "\n").map(String.init)
    // 100 × 1.0833 = 108.33
    #expect(lines[1] == "2024-03-01,100,EUR,USD,1.0833,108.33,USD,2024-03-01,frankfurter-v1 EUR/USD=1.0833,ok,")
    // 429 with Retry-After: 1, then 200: 100 × 1.0855 = 108.55, at least a second later.
    #expect(lines[2] == "2024-03-04,100,EUR,USD,1.0855,108.55,USD,2024-03-04,frankfurter-v1 EUR/USD=1.0855,ok,")
    #expect(server.requestCount(path: "/v1/2024-03-04") == 2)
    #expect(elapsed >= 1)
    #expect(lines[3].hasSuffix(",error,bad_response: Frankfurter: Rate limit exceeded"))
    #expect(lines[4].hasSuffix(",error,timeout: no answer in 1 s after 3 attempts"))
    #expect(lines[5].hasSuffix(",error,source_unavailable: HTTP 500 after 3 attempts"))
    #expect(server.requestCount(path: "/v1/2024-03-07") == 3)
    #expect(lines[6].contains(",error,source_unavailable: "))
    #expect(lines[7].hasSuffix(",error,no_rate: Frankfurter: not found"))
    #expect(server.requestCount(path: "/v1/2024-03-11") == 1, "a 404 is not retried")
    #expect(lines[8] == "2024-03-01,100,EUR,EUR,1,100.00,EUR,2024-03-01,same currency,ok,")
    #expect(lines[9].hasSuffix(",error,no_rate: Frankfurter has no AED rates (it serves the ECB reference rates)"))
    #expect(server.requests.allSatisfy { $0.path.hasPrefix("/v1/2024-03-") }, "nothing is asked for AED or EUR→EUR")
  }

  @Test func planPrintsRequestsAndFetchesNothing() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "in.csv", "date,amount,from,to\n2024-03-01,1,EUR,USD\n2024-03-01,2,EUR,GBP\n2024-03-01,3,USD,EUR\n2024-03-01,3,USD,USD\n")
    let result = try run(["--plan", "in.csv"], server: server, in: directory)
    #expect(result.status == 0)
    #expect(server.requestCount == 0)
    #expect(try directory.fileNames() == ["in.csv"])
    #expect(
      result.standardOutput == """
        plan: 1 file, 4 distinct (base, quote, day) keys
          answered without the network: 1 (same currency or cached 1, refused before asking 0)
          requests to Frankfurter v1 rates API (\(server.baseURL.absoluteString)): 2
            GET \(server.baseURL.absoluteString)/v1/2024-03-01?base=EUR&symbols=GBP,USD  (2 keys)
            GET \(server.baseURL.absoluteString)/v1/2024-03-01?base=USD&symbols=EUR  (1 key)
          cache hits: 0

        """)
  }

  // A query in --endpoint (an access key) was dropped for Frankfurter and the calculator while --plan and the
  // summary showed it: it is kept, before the request's own parameters. 100 EUR × 1.0833 = 108.33.
  @Test func endpointQueryIsKept() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.routeMatching(
      { $0.path == "/api/v1/2024-03-01" && $0.queryItems.contains { $0.name == "access_key" && $0.value == "S" } },
      [.json(Self.frankfurter(date: "2024-03-01", rates: ["USD": "1.0833"]))])
    server.routeMatching(
      { $0.path == "/calc" && $0.queryItems.contains { $0.name == "access_key" && $0.value == "S" } },
      [.text(#"{lhs: "1 Euro",rhs: "1.0833 U.S. dollars",error: "",icc: true}"#)])
    try directory.write("in.csv", "date,amount,from,to\n2024-03-01,100,EUR,USD\n")
    let frankfurter = try cli.run(
      [
        "convert", "-q", "--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString + "/api?access_key=S",
        "--no-cache", "--retries", "0", "-o", "-", "in.csv",
      ], in: directory.url)
    #expect(frankfurter.standardOutput.contains(",1.0833,108.33,USD,2024-03-01,"), "\(frankfurter.standardOutput)")
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2024-03-01"
    let calculator = try runner.run(
      [
        "convert", "-q", "--source", "calculator", "--endpoint", server.baseURL.absoluteString + "/calc?access_key=S",
        "--no-cache", "--retries", "0", "-o", "-", "in.csv",
      ], in: directory.url)
    #expect(calculator.standardOutput.contains(",1.0833,108.33,USD,"), "\(calculator.standardOutput)")
  }

  // A redirect loop is not retried: 6 requests (the first and 5 redirects) for its key, not 6 per attempt.
  @Test func permanentFailuresAreNotRetried() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/v1/2024-03-01", [.status(302, headers: ["Location": "/v1/2024-03-01"])])
    try directory.write("in.csv", "date,amount,from,to\n2024-03-01,100,EUR,USD\n")
    let result = try run(["--retries", "2", "-q", "-o", "-", "in.csv"], server: server, in: directory)
    #expect(result.standardOutput.hasSuffix(",error,bad_response: more than 5 redirects\n"))
    #expect(server.requestCount == 6)
  }

  @Test func cacheOfflineAndFrozenLockFile() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/v1/2024-03-01", [.json(Self.frankfurter(date: "2024-03-01", rates: ["GBP": "0.85553", "USD": "1.0833"]))])
    try directory.write("in.csv", "date,amount,from,to\n2024-03-01,100,EUR,USD\n2024-03-01,100,EUR,GBP\n")
    let endpoint = server.baseURL.absoluteString
    let first = try cli.run(
      [
        "convert", "-q", "--source", "frankfurter-v1", "--endpoint", endpoint, "--cache-dir", "cache", "--lock", "rates.lock",
        "in.csv",
      ],
      in: directory.url)
    #expect(first.status == 0)
    #expect(server.requestCount == 1)
    let converted = try directory.read("in.converted.csv")
    // 100 × 1.0833 = 108.33 USD; 100 × 0.85553 = 85.553 → 85.55 GBP
    #expect(converted.contains("2024-03-01,100,EUR,USD,1.0833,108.33,USD,"))
    #expect(converted.contains("2024-03-01,100,EUR,GBP,0.85553,85.55,GBP,"))
    server.stop()
    // Second run: the server is gone; the cache answers everything.
    let offline = try cli.run(
      [
        "convert", "--offline", "--source", "frankfurter-v1", "--endpoint", endpoint, "--cache-dir", "cache", "-o", "again.csv",
        "in.csv",
      ],
      in: directory.url)
    #expect(offline.status == 0)
    #expect(offline.standardError.contains("requests: 0 sent, 0 retries, 0 failed; 2 rates from the cache"))
    #expect(try directory.read("again.csv") == converted)
    // Frozen: only the lock file; byte for byte the same output.
    let frozen = try cli.run(
      ["convert", "-q", "--lock", "rates.lock", "--frozen", "-o", "frozen.csv", "in.csv"], in: directory.url)
    #expect(frozen.status == 0)
    #expect(try directory.read("frozen.csv") == converted)
    try directory.write("other.csv", "date,amount,from,to\n2024-03-04,100,EUR,USD\n")
    let missing = try cli.run(["convert", "-q", "--lock", "rates.lock", "--frozen", "-o", "-", "other.csv"], in: directory.url)
    #expect(missing.status == 1)
    #expect(missing.standardOutput.contains("error,no_rate: EUR/USD on 2024-03-04 is not in the lock file rates.lock (--frozen)"))
    // Offline without a cached answer: no_rate naming the reason.
    try directory.write("new.csv", "date,amount,from,to\n2024-03-05,100,EUR,USD\n")
    let uncached = try cli.run(
      [
        "convert", "-q", "--offline", "--source", "frankfurter-v1", "--endpoint", endpoint, "--cache-dir", "cache", "-o", "-",
        "new.csv",
      ],
      in: directory.url)
    #expect(
      uncached.standardOutput.contains("error,no_rate: offline (--offline): no cached Frankfurter rate for EUR/USD on 2024-03-05")
    )
  }

  // A newcomer locked a run made without network: the lock kept `source_unavailable host not found` and every
  // --frozen run replayed it. A lock keeps the source's answers about keys (rates, no_rate), never a passing
  // failure of the exchange (503, timeout, an unusable answer): the run says it left them out, and a frozen run
  // reports them as not in the lock. 100 EUR × 1.0834 = 108.34.
  @Test func lockLeavesOutFailuresOfTheExchange() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/v1/2024-03-01", [.json(Self.frankfurter(date: "2024-03-01", rates: ["USD": "1.0834"]))])
    server.route("/v1/2024-03-04", [.status(503)])
    server.route("/v1/2024-03-05", [.json(#"{"message":"not found"}"#, status: 404)])
    server.route("/v1/2024-03-06", [.text("<html>", status: 200)])
    try directory.write(
      "in.csv",
      "date,amount,from,to\n2024-03-01,100,EUR,USD\n2024-03-04,100,EUR,USD\n2024-03-05,100,EUR,USD\n2024-03-06,100,EUR,USD\n")
    let locked = try run(["--retries", "0", "--lock", "rates.lock", "-o", "out.csv", "in.csv"], server: server, in: directory)
    #expect(locked.status == 3)
    #expect(
      locked.standardError.contains(
        "lock file: rates.lock written without the 2 keys the source could not answer this time (source_unavailable, "
          + "timeout or bad_response): a --frozen run gives them no rate; run again when the source answers to lock them"))
    let lock = try String(contentsOf: directory.url.appendingPathComponent("rates.lock"), encoding: .utf8)
    #expect(lock.contains("quote EUR USD 2024-03-01 "))
    #expect(lock.contains("error EUR USD 2024-03-05 no_rate "))
    #expect(!lock.contains("2024-03-04") && !lock.contains("2024-03-06"))
    server.stop()
    let frozen = try cli.run(["convert", "-q", "--lock", "rates.lock", "--frozen", "-o", "-", "in.csv"], in: directory.url)
    let lines = frozen.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines[1].hasPrefix("2024-03-01,100,EUR,USD,1.0834,108.34,USD,2024-03-01,"))
    #expect(lines[2].hasSuffix("error,no_rate: EUR/USD on 2024-03-04 is not in the lock file rates.lock (--frozen)"))
    #expect(lines[3].contains(",error,no_rate: Frankfurter"))
    #expect(lines[4].hasSuffix("error,no_rate: EUR/USD on 2024-03-06 is not in the lock file rates.lock (--frozen)"))
  }

  // The ECB source asks for one file for the whole batch: here the 90-day file (dates within 85 days of
  // "today", 2017-03-09). 100 USD→GBP on 2017-03-08 = 100 × 0.86753 / 1.0556 = 82.18.
  @Test func ecbSourceMakesOneRequest() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let feed = try String(
      contentsOf: try #require(Bundle.module.resourceURL).appendingPathComponent(
        "Fixtures/e2e/ecb-eurofxref-daily-2017-03-08.xml"),
      encoding: .utf8)
    server.route("/eurofxref-hist-90d.xml", [.xml(feed)])
    try directory.write(
      "in.csv", "date,amount,from,to\n2017-03-08,100,USD,GBP\n2017-03-09,100,USD,GBP\n2017-03-08,1000,JPY,EUR\n")
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2017-03-09"
    let result = try runner.run(
      ["convert", "-q", "--source", "ecb", "--endpoint", server.baseURL.absoluteString + "/", "--no-cache", "-o", "-", "in.csv"],
      in: directory.url)
    #expect(result.status == 0)
    #expect(server.requestCount == 1)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines[1] == "2017-03-08,100,USD,GBP,0.8218359227,82.18,GBP,2017-03-08,ecb EUR/USD=1.0556 EUR/GBP=0.86753,ok,")
    #expect(lines[2] == "2017-03-09,100,USD,GBP,0.8218359227,82.18,GBP,2017-03-08,ecb EUR/USD=1.0556 EUR/GBP=0.86753,fallback,")
    // 1000 / 120.65 = 8.288… → 8.29
    #expect(lines[3].hasPrefix("2017-03-08,1000,JPY,EUR,0.00828843763,8.29,EUR,"))
  }

  // `rates update` keeps a newer history; `rates show` and conversions then use its days (source ecb-cache)
  // and the embedded history for older days. 1 EUR = 1.13 USD on 2026-11-27 (the served file).
  @Test func ratesUpdateExtendsTheEmbeddedHistory() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route(
      "/eurofxref-hist.xml",
      [
        .xml(
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
          <Cube><Cube time="2026-11-27"><Cube currency="USD" rate="1.1300"/><Cube currency="GBP" rate="0.8400"/></Cube></Cube>
          </gesmes:Envelope>
          """)
      ])
    let update = try cli.run(
      ["rates", "update", "--endpoint", server.baseURL.absoluteString + "/", "--cache-dir", "cache"], in: directory.url)
    #expect(update.status == 0)
    #expect(
      update.standardOutput.hasPrefix(
        "fetched 1 days, 2026-11-27 .. 2026-11-27, into cache/rates.sqlite3; newer than the embedded history"))
    let newest = try cli.run(["rates", "show", "EUR", "USD", "--cache-dir", "cache"], in: directory.url)
    #expect(newest.standardOutput == "1 EUR = 1.13 USD  rate date 2026-11-27  source ecb-cache EUR/USD=1.1300\n")
    let older = try cli.run(["rates", "show", "EUR", "USD", "--cache-dir", "cache", "--date", "2020-01-02"], in: directory.url)
    #expect(older.standardOutput == "1 EUR = 1.1193 USD  rate date 2020-01-02  source ecb-embedded EUR/USD=1.1193\n")
    let ignored = try cli.run(["rates", "show", "EUR", "USD", "--no-cache"], in: directory.url)
    #expect(ignored.standardOutput.contains("rate date 2026-10-30  source ecb-embedded"))
    server.route("/eurofxref-hist.xml", [.status(503)])
    let failed = try cli.run(
      ["rates", "update", "--endpoint", server.baseURL.absoluteString + "/", "--cache-dir", "cache"], in: directory.url)
    #expect(failed.status == 3)
  }

  // The legacy calculator format over the loopback server: one request per pair, for one unit of the base.
  // 1 USD = 54.836587 INR: 100 USD → 5483.6587 → 5483.66 INR; 1 GBP = 1.6399 USD: 250 GBP → 409.975 → 409.98
  // USD (half-up). The unknown unit (error "4") fails only its own record.
  @Test func calculatorSourceWithOneUnknownCode() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func answering(_ question: String, _ body: String) {
      server.routeMatching({ head in head.queryItems.contains { $0.name == "q" && $0.value == question } }, [.text(body)])
    }
    answering("1USD=?INR", #"{lhs: "1 U.S. dollar",rhs: "54.836587 Indian rupees",error: "",icc: true}"#)
    answering("1GBP=?USD", #"{lhs: "1 British pound",rhs: "1.6399 U.S. dollars",error: "",icc: true}"#)
    answering("1USD=?ZWG", #"{lhs: "",rhs: "",error: "4",icc: false}"#)
    try directory.write(
      "calc.csv",
      """
      date,amount,from,to
      2026-11-29,100,USD,INR
      2026-11-29,250,GBP,USD
      2026-11-29,7,USD,ZWG
      2026-11-29,50,USD,INR
      2026-11-28,100,USD,INR

      """)
    let endpoint = server.baseURL.appendingPathComponent("ig/calculator").absoluteString
    let result = try cli.run(
      ["convert", "--source", "calculator", "--endpoint", endpoint, "--no-cache", "calc.csv"], in: directory.url)
    #expect(result.status == 1)
    #expect(server.requestCount == 3, "one request per distinct pair; the record of another day is not asked")
    #expect(
      server.requests.allSatisfy { $0.path == "/ig/calculator" && $0.queryItems.contains { $0.name == "hl" && $0.value == "en" } }
    )
    let lines = try directory.read("calc.converted.csv").split(separator: "\n").map(String.init)
    #expect(lines[1] == "2026-11-29,100,USD,INR,54.836587,5483.66,INR,2026-11-29,calculator USD/INR=54.836587,ok,")
    #expect(lines[2] == "2026-11-29,250,GBP,USD,1.6399,409.98,USD,2026-11-29,calculator GBP/USD=1.6399,ok,")
    #expect(lines[3] == #"2026-11-29,7,USD,ZWG,,,ZWG,,calculator,error,"no_rate: calculator error ""4"" (unknown unit)""#)
    #expect(lines[4].hasPrefix("2026-11-29,50,USD,INR,54.836587,2741.83,INR,"))  // 50 × 54.836587 = 2741.82935 → 2741.83
    #expect(
      lines[5]
        == #"2026-11-28,100,USD,INR,,,INR,,calculator,error,"no_rate: the calculator has no historical rates (record dated 2026-11-28, today is 2026-11-29); --date-policy latest uses today's rate""#
    )
    // --date-policy latest: today's rate for the older record, marked fallback.
    let latest = try cli.run(
      [
        "convert", "-q", "--source", "calculator", "--endpoint", endpoint, "--no-cache", "--date-policy", "latest", "-o", "-",
        "calc.csv",
      ],
      in: directory.url)
    #expect(
      latest.standardOutput.contains(
        "2026-11-28,100,USD,INR,54.836587,5483.66,INR,2026-11-29,calculator USD/INR=54.836587,fallback,"))
  }

  // Found by trying to break it: answers that must never become rates, and cached rates that must not outlive
  // the rules of a later run.
  @Test func hostileAnswersAreRefused() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/v1/2024-03-01", [.json(#"{"amount":"100","base":"EUR","date":"2024-03-01","rates":{"USD":110.5}}"#)])
    server.route("/v1/2024-03-04", [.json(#"{"amount":1.0,"base":"EUR","date":"2024-03-04","rates":{"USD":1.1,"USD":9.9}}"#)])
    server.route("/v1/2024-03-05", [.status(302, headers: ["Location": "http://localhost:9/v1/2024-03-05"])])
    server.route("/v1/2024-03-06", [.text(String(repeating: " ", count: 33 << 20))])
    server.route("/v1/2024-03-07", [.text("<html>Not Found</html>", status: 404)])
    try directory.write(
      "in.csv",
      "date,amount,from,to\n2024-03-01,100,EUR,USD\n2024-03-04,100,EUR,USD\n2024-03-05,100,EUR,USD\n2024-03-06,100,EUR,USD\n2024-03-07,100,EUR,USD\n"
    )
    let result = try run(["--retries", "0", "-q", "-o", "-", "in.csv"], server: server, in: directory)
    #expect(result.status == 3)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines[1].hasSuffix(",error,bad_response: Frankfurter: the amount is not a positive number"))
    #expect(lines[2].hasSuffix(",error,bad_response: Frankfurter: the answer has a member twice"))
    #expect(
      lines[3].contains(
        ",error,\"bad_response: redirected elsewhere (http://localhost:9/v1/2024-03-05), which is not followed: only"
          + " redirects within the same scheme, host and port are\""))
    #expect(lines[4].hasSuffix(",error,bad_response: the answer is larger than 32 MB"))
    #expect(lines[5].hasSuffix(",error,bad_response: HTTP 404"))
  }

  @Test func cachedAndLockedRatesObeyTheRunsRules() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Asked for 2024-03-11, the service answers rates of 2024-03-01 (10 days older).
    server.route("/v1/2024-03-11", [.json(Self.frankfurter(date: "2024-03-01", rates: ["USD": "1.0833"]))])
    try directory.write("in.csv", "date,amount,from,to\n2024-03-11,100,EUR,USD\n")
    let endpoint = server.baseURL.absoluteString
    let loose = try cli.run(
      [
        "convert", "-q", "--source", "frankfurter-v1", "--endpoint", endpoint, "--cache-dir", "cache", "--max-staleness", "10",
        "--lock", "rates.lock", "-o", "-", "in.csv",
      ], in: directory.url)
    #expect(loose.standardOutput.contains(",108.33,USD,2024-03-01,frankfurter-v1 EUR/USD=1.0833,fallback,"))
    let strict = try cli.run(
      ["convert", "-q", "--source", "frankfurter-v1", "--endpoint", endpoint, "--cache-dir", "cache", "-o", "-", "in.csv"],
      in: directory.url)
    #expect(server.requestCount == 2, "the cached 10-day-old answer is not used under the default 5-day limit")
    #expect(strict.standardOutput.contains(",error,stale_rate: "))
    let frozen = try cli.run(["convert", "-q", "--lock", "rates.lock", "--frozen", "-o", "-", "in.csv"], in: directory.url)
    #expect(
      frozen.standardOutput.contains(
        ",error,\"stale_rate: the lock file's rate for EUR/USD on 2024-03-11 is of 2024-03-01, older than --max-staleness 5\""))
  }

  // A record without a date uses the locked run's day, so --frozen reproduces it on a later day.
  @Test func frozenRunOnALaterDayReproducesUndatedRecords() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/v1/2026-11-27", [.json(Self.frankfurter(date: "2026-11-27", rates: ["USD": "1.13"]))])
    try directory.write("undated.csv", "amount,from,to\n100,EUR,USD\n")
    var first = cli
    first.environment["FXBATCH_TODAY"] = "2026-11-27"
    let locked = try first.run(
      [
        "convert", "-q", "--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString, "--no-cache", "--lock",
        "l.lock",
        "-o", "a.csv", "undated.csv",
      ], in: directory.url)
    #expect(locked.status == 0)
    var later = cli
    later.environment["FXBATCH_TODAY"] = "2026-12-02"
    let frozen = try later.run(
      ["convert", "-q", "--lock", "l.lock", "--frozen", "-o", "b.csv", "undated.csv"], in: directory.url)
    #expect(frozen.status == 0)
    #expect(try directory.read("a.csv") == directory.read("b.csv"))
    #expect(try directory.read("b.csv").contains("100,EUR,USD,1.13,113.00,USD,2026-11-27,"))
  }

  @Test func ratesUpdateRefusesFutureOrRevisedHistories() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func feed(_ cubes: String) -> ScriptedResponse {
      .xml(
        #"<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>\#(cubes)</Cube></gesmes:Envelope>"#
      )
    }
    let endpoint = server.baseURL.absoluteString + "/"
    server.route("/eurofxref-hist.xml", [feed(#"<Cube time="2099-12-31"><Cube currency="USD" rate="42"/></Cube>"#)])
    let future = try cli.run(["rates", "update", "--endpoint", endpoint, "--cache-dir", "cache"], in: directory.url)
    #expect(future.status == 3)
    #expect(future.standardError.contains("it has rates for 2099-12-31, after today (2026-11-29); nothing was kept"))
    // 2026-10-30 is in the embedded history with EUR/USD 1.1172.
    server.route("/eurofxref-hist.xml", [feed(#"<Cube time="2026-10-30"><Cube currency="USD" rate="9.99"/></Cube>"#)])
    let revised = try cli.run(["rates", "update", "--endpoint", endpoint, "--cache-dir", "cache"], in: directory.url)
    #expect(revised.status == 3)
    #expect(revised.standardError.contains("its EUR/USD rate on 2026-10-30 (9.99) differs from the ECB's published 1.1172"))
    let badOptions = try cli.run(
      ["rates", "update", "--endpoint", "http://", "--timeout", "inf", "--cache-dir", "cache"], in: directory.url)
    #expect(badOptions.status == 64)
  }

  // Issue 30: "1 British pound" = "1.17 Euros" in reply to USD→EUR became "calculator USD/EUR=1.17", status ok
  // (the unit check trusted a name that is not ISO's "Pound Sterling"). Now every record of the pair fails.
  @Test func calculatorAnswerInAnotherCurrencyIsABadResponse() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.routeMatching(
      { head in head.queryItems.contains { $0.name == "q" && $0.value == "1USD=?EUR" } },
      [.text(#"{lhs: "1 British pound",rhs: "1.17 Euros",error: "",icc: true}"#)])
    try directory.write("calc.csv", "date,amount,from,to\n2026-11-29,100,USD,EUR\n2026-11-29,5,USD,EUR\n")
    let endpoint = server.baseURL.appendingPathComponent("ig/calculator").absoluteString
    let result = try cli.run(
      ["convert", "-q", "--source", "calculator", "--endpoint", endpoint, "--no-cache", "-o", "-", "calc.csv"], in: directory.url)
    #expect(result.status == 3)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    let refusal =
      #",,,EUR,,calculator,error,"bad_response: calculator: asked for 1 USD in EUR, answered 1 GBP in EUR (""1 British pound"" = ""1.17 Euros"")""#
    #expect(lines[1] == "2026-11-29,100,USD,EUR" + refusal, "\(result.standardOutput)")
    #expect(lines[2] == "2026-11-29,5,USD,EUR" + refusal)
    #expect(!result.standardOutput.contains("1.17,"))
  }

  // The calculator's answer must be for the pair asked, and today's rate must not reach a record whose currency
  // changed since its date.
  @Test func calculatorAnswersForAnotherPairOrAnotherEraAreRefused() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func answering(_ question: String, _ body: String) {
      server.routeMatching({ head in head.queryItems.contains { $0.name == "q" && $0.value == question } }, [.text(body)])
    }
    answering("1USD=?INR", #"{lhs: "1 Indian rupee",rhs: "0.0182 U.S. dollars",error: "",icc: true}"#)
    answering("1TRL=?USD", #"{lhs: "1 Turkish lira",rhs: "0.03 U.S. dollars",error: "",icc: true}"#)
    try directory.write("calc.csv", "date,amount,from,to\n2026-11-29,1000,USD,INR\n2004-06-01,1000000,TRL,USD\n")
    let endpoint = server.baseURL.appendingPathComponent("ig/calculator").absoluteString
    let result = try cli.run(
      [
        "convert", "-q", "--source", "calculator", "--endpoint", endpoint, "--no-cache", "--date-policy", "latest", "-o", "-",
        "calc.csv",
      ],
      in: directory.url)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines[1].hasSuffix(
        #",error,"bad_response: calculator: asked for 1 USD in INR, answered 1 INR in USD (""1 Indian rupee"" = ""0.0182 U.S. dollars"")""#
      ))
    #expect(
      lines[2].contains(
        ",error,\"no_rate: the calculator has only today's rates, and TRL/USD has changed between 2004-06-01 and today"))
    #expect(server.requestCount == 1, "TRL/USD of 2004 is never asked")
  }
}
