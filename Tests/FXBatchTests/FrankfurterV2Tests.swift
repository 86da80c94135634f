import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `--source frankfurter` (v2) against ``FrankfurterV2Server``, an in-memory implementation of the service's
/// `GET /v2/rates` on a loopback server; the provider's reading of answers and its request plan. Never the
/// internet.
@Suite("Frankfurter v2")
struct FrankfurterV2Tests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// EUR-pivot rows: Friday 2024-03-01 and Monday 2024-03-04; ARS is not published on the Monday (the
  /// service carries it forward), nothing on the weekend.
  static let table: [(String, String, String)] = [
    ("2024-03-01", "AED", "3.9876"), ("2024-03-01", "ARS", "925.37"), ("2024-03-01", "NGN", "1702.5"),
    ("2024-03-01", "USD", "1.0856"), ("2024-03-01", "VND", "26750"),
    ("2024-03-04", "AED", "3.9912"), ("2024-03-04", "NGN", "1731.8"), ("2024-03-04", "USD", "1.0851"),
    ("2024-03-04", "VND", "26801"),
  ]

  static let header = "date,amount,from,to\n"

  func serve(_ service: FrankfurterV2Server = FrankfurterV2Server(rows: table)) throws -> LoopbackHTTPServer {
    let server = try LoopbackHTTPServer()
    service.install(on: server)
    return server
  }

  /// Runs a test with the service on a loopback server and a temporary directory, both gone after.
  func withService(
    _ service: FrankfurterV2Server = FrankfurterV2Server(rows: table),
    _ test: (LoopbackHTTPServer, TemporaryDirectory) throws -> Void
  ) throws {
    let server = try serve(service)
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try test(server, directory)
  }

  func convert(_ arguments: [String], server: LoopbackHTTPServer, in directory: TemporaryDirectory) throws
    -> CLIRunner.Result
  {
    try cli.run(
      [
        "convert", "-q", "--source", "frankfurter", "--endpoint", server.baseURL.absoluteString, "--no-cache",
        "--retry-delay", "0.01", "-o", "-",
      ] + arguments, in: directory.url)
  }

  /// The requests' queries, sorted.
  func queries(_ server: LoopbackHTTPServer) -> [String] { server.requests.map { $0.query ?? "" }.sorted() }

  // Currencies outside the ECB set, crosses computed by the service, weekend fallbacks and a carried currency:
  // one request per base (EUR, VND, USD, AED): EUR's over a range reaching back --max-staleness (5) days
  // before its first day, the others (one day each) with date=.
  @Test func worldCurrenciesConvertExactlyAtOneRequestPerBase() throws {
    try withService { server, directory in
      try directory.write(
        "in.csv",
        Self.header + """
          2024-03-01,100,EUR,AED
          2024-03-02,100,EUR,AED
          2024-03-03,100,EUR,AED
          2024-03-04,250,EUR,NGN
          2024-03-04,10,EUR,ARS
          2024-03-04,1000000,VND,EUR
          2024-03-04,1,USD,VND
          2024-03-04,50,AED,NGN
          2024-03-04,100,EUR,EUR

          """)
      let result = try convert(["in.csv"], server: server, in: directory)
      #expect(result.status == 0, "\(result.standardError)")
      let lines = result.standardOutput.split(separator: "\n").map(String.init)
      // 100 × 3.9876 = 398.76 AED (Friday, its own day).
      #expect(lines[1] == "2024-03-01,100,EUR,AED,3.9876,398.76,AED,2024-03-01,frankfurter-v2 EUR/AED=3.9876,ok,")
      // Saturday and Sunday: Friday's row, the latest on or before the day: 398.76 AED, fallback.
      #expect(lines[2] == "2024-03-02,100,EUR,AED,3.9876,398.76,AED,2024-03-01,frankfurter-v2 EUR/AED=3.9876,fallback,")
      #expect(lines[3] == "2024-03-03,100,EUR,AED,3.9876,398.76,AED,2024-03-01,frankfurter-v2 EUR/AED=3.9876,fallback,")
      // 250 × 1731.8 = 432950 NGN (2 minor units).
      #expect(lines[4] == "2024-03-04,250,EUR,NGN,1731.8,432950.00,NGN,2024-03-04,frankfurter-v2 EUR/NGN=1731.8,ok,")
      // ARS is not published on Monday: its Friday row, 10 × 925.37 = 9253.70 ARS, fallback.
      #expect(lines[5] == "2024-03-04,10,EUR,ARS,925.37,9253.70,ARS,2024-03-01,frankfurter-v2 EUR/ARS=925.37,fallback,")
      // Base VND: the service divides, 1 / 26801 = 3.7312e-05, rounds to 6 decimals (0.000037) and writes it
      // as Ruby does, 3.7e-05: read exactly, 1,000,000 × 0.000037 = 37.00 EUR.
      #expect(lines[6] == "2024-03-04,1000000,VND,EUR,0.000037,37.00,EUR,2024-03-04,frankfurter-v2 VND/EUR=3.7e-05,ok,")
      // Base USD: 26801 / 1.0851 = 24699.106…, over 5000 rounded whole: 24699; 1 USD = 24699 VND (no minor unit).
      #expect(lines[7] == "2024-03-04,1,USD,VND,24699,24699,VND,2024-03-04,frankfurter-v2 USD/VND=24699,ok,")
      // Base AED: 1731.8 / 3.9912 = 433.9046…, over 80 rounded to 2 decimals: 433.90, written 433.9;
      // 50 × 433.9 = 21695.00 NGN.
      #expect(lines[8] == "2024-03-04,50,AED,NGN,433.9,21695.00,NGN,2024-03-04,frankfurter-v2 AED/NGN=433.9,ok,")
      // The same currency is 1, asked of no one.
      #expect(lines[9] == "2024-03-04,100,EUR,EUR,1,100.00,EUR,2024-03-04,same currency,ok,")
      #expect(
        queries(server) == [
          "base=AED&quotes=NGN&date=2024-03-04",
          "base=EUR&quotes=AED,ARS,NGN&from=2024-02-25&to=2024-03-04",
          "base=USD&quotes=VND&date=2024-03-04",
          "base=VND&quotes=EUR&date=2024-03-04",
        ])
      #expect(server.requests.allSatisfy { $0.path == "/v2/rates" })
    }
  }

  // Two weekend days that fall back to the same Friday cost one request; one day alone within the service's
  // carry-forward asks `date=` and gets Friday's row, dated Friday.
  @Test func weekendDaysCostOneRequest() throws {
    try withService { server, directory in
      try directory.write("weekend.csv", Self.header + "2024-03-02,10,EUR,AED\n2024-03-03,20,EUR,AED\n")
      let weekend = try convert(["weekend.csv"], server: server, in: directory)
      // 10 × 3.9876 = 39.876 → 39.88; 20 × 3.9876 = 79.752 → 79.75 AED.
      #expect(
        weekend.standardOutput.contains(
          "2024-03-02,10,EUR,AED,3.9876,39.88,AED,2024-03-01,frankfurter-v2 EUR/AED=3.9876,fallback,")
      )
      #expect(
        weekend.standardOutput.contains(
          "2024-03-03,20,EUR,AED,3.9876,79.75,AED,2024-03-01,frankfurter-v2 EUR/AED=3.9876,fallback,")
      )
      #expect(queries(server) == ["base=EUR&quotes=AED&from=2024-02-26&to=2024-03-03"])

      let single = try serve()
      defer { single.stop() }
      try directory.write("sunday.csv", Self.header + "2024-03-03,20,EUR,AED\n")
      let sunday = try convert(["sunday.csv"], server: single, in: directory)
      #expect(
        sunday.standardOutput.contains(
          "2024-03-03,20,EUR,AED,3.9876,79.75,AED,2024-03-01,frankfurter-v2 EUR/AED=3.9876,fallback,"))
      #expect(queries(single) == ["base=EUR&quotes=AED&date=2024-03-03"])
    }
  }

  // fxbatch's --max-staleness decides, not the service's 14-day carry-forward: ARS was last published on
  // 2024-03-01. On 03-04 with --max-staleness 2 its row is 3 days old: stale_rate. On 03-21 with
  // --max-staleness 30 the range reaches back 30 days and the 20-day-old row is taken (fallback:
  // 3 × 925.37 = 2776.11 ARS); with the default 5 it is out of reach of the request and of the rule: no_rate.
  @Test func stalenessIsFxbatchsRule() throws {
    try withService { server, directory in
      try directory.write("monday.csv", Self.header + "2024-03-04,10,EUR,ARS\n")
      let stale = try convert(["--max-staleness", "2", "monday.csv"], server: server, in: directory)
      #expect(
        stale.standardOutput.contains(
          ",error,stale_rate: Frankfurter's latest EUR/ARS rate before 2024-03-04 is of 2024-03-01; use --max-staleness 3 to accept it"
        ))
      try directory.write("late.csv", Self.header + "2024-03-21,3,EUR,ARS\n")
      let accepted = try convert(["--max-staleness", "30", "late.csv"], server: server, in: directory)
      #expect(
        accepted.standardOutput.contains(
          "2024-03-21,3,EUR,ARS,925.37,2776.11,ARS,2024-03-01,frankfurter-v2 EUR/ARS=925.37,fallback,"))
      let refused = try convert(["late.csv"], server: server, in: directory)
      #expect(refused.standardOutput.contains(",error,no_rate: Frankfurter has no EUR/ARS rate on or before 2024-03-21"))
    }
  }

  // A year of records over five bases (EUR and four others): one request per base, each over the year. The
  // table has a row for every weekday of 2024 for four currencies against EUR: the n-th currency's rate on
  // day offset d (0 = 2024-01-01) is n + d/10000.
  @Test func aYearOverSeveralBasesCostsOneRequestPerBase() throws {
    let currencies = ["AED", "GBP", "NGN", "USD"]
    var rows: [(String, String, String)] = []
    let january1 = try #require(CalendarDay(year: 2024, month: 1, day: 1))  // a Monday
    for offset in 0..<366 where offset % 7 < 5 {
      let day = january1.adding(days: offset)
      for (index, currency) in currencies.enumerated() {
        rows.append((day.description, currency, "\(index + 1).\(String(format: "%04d", offset))"))
      }
    }
    try withService(FrankfurterV2Server(rows: rows)) { server, directory in
      // EUR base: every day of the year (weekends fall back to Friday); the other bases: every fifth day.
      var csv = Self.header
      var records = 0
      for offset in 0..<366 {
        let day = january1.adding(days: offset)
        csv += "\(day),100,EUR,\(currencies[offset % 4])\n"
        records += 1
        if offset % 5 == 0 {
          for base in currencies { csv += "\(day),100,\(base),EUR\n" }
          records += 4
        }
      }
      try directory.write("year.csv", csv)
      let result = try convert(["year.csv"], server: server, in: directory)
      #expect(result.status == 0, "\(result.standardError)")
      let lines = result.standardOutput.split(separator: "\n")
      #expect(lines.count == records + 1)
      #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(",ok,") || $0.hasSuffix(",fallback,") })
      #expect(
        queries(server) == [
          "base=AED&quotes=EUR&from=2023-12-27&to=2024-12-31",
          "base=EUR&quotes=AED,GBP,NGN,USD&from=2023-12-27&to=2024-12-31",
          "base=GBP&quotes=EUR&from=2023-12-27&to=2024-12-31",
          "base=NGN&quotes=EUR&from=2023-12-27&to=2024-12-31",
          "base=USD&quotes=EUR&from=2023-12-27&to=2024-12-31",
        ])
      // 2024-06-15 is a Saturday (offset 166): Friday 06-14 (offset 165), EUR/NGN = 3.0165; 100 × 3.0165 = 301.65 NGN.
      #expect(lines.contains("2024-06-15,100,EUR,NGN,3.0165,301.65,NGN,2024-06-14,frankfurter-v2 EUR/NGN=3.0165,fallback,"))
      // 2024-12-31, a Tuesday (offset 365): AED/EUR = 1 / 1.0365 = 0.964785…, 5 decimals 0.96479; 100 AED = 96.48 EUR.
      #expect(lines.contains("2024-12-31,100,AED,EUR,0.96479,96.48,EUR,2024-12-31,frankfurter-v2 AED/EUR=0.96479,ok,"))
    }
  }

  // An unknown currency is the service's 422 for the whole request: no_rate for the keys in that currency, and
  // the request is asked once more without them (EUR/BOB does not cost EUR/AED). A base the service cannot
  // answer now (503) is source_unavailable for its keys; the other bases convert.
  @Test func unknownCurrencyAndServiceDownAreDistinctRowErrors() throws {
    var service = FrankfurterV2Server(rows: Self.table)
    service.unavailableBases = ["USD"]
    try withService(service) { server, directory in
      try directory.write(
        "in.csv", Self.header + "2024-03-04,100,EUR,AED\n2024-03-04,1,USD,VND\n2024-03-04,5,BOB,EUR\n2024-03-04,7,EUR,BOB\n")
      let result = try convert(["--retries", "1", "in.csv"], server: server, in: directory)
      #expect(result.status == 3)
      let lines = result.standardOutput.split(separator: "\n").map(String.init)
      // 100 × 3.9912 = 399.12 AED
      #expect(lines[1] == "2024-03-04,100,EUR,AED,3.9912,399.12,AED,2024-03-04,frankfurter-v2 EUR/AED=3.9912,ok,")
      #expect(lines[2].hasSuffix(",error,source_unavailable: HTTP 503 after 2 attempts"))
      #expect(lines[3].hasSuffix(",error,no_rate: Frankfurter: invalid currency: BOB"))
      #expect(lines[4].hasSuffix(",error,no_rate: Frankfurter: invalid currency: BOB"))
      // 422 is not retried but narrowed once; 503 is retried, once.
      #expect(
        queries(server) == [
          "base=BOB&quotes=EUR&date=2024-03-04", "base=EUR&quotes=AED&date=2024-03-04",
          "base=EUR&quotes=AED,BOB&date=2024-03-04", "base=USD&quotes=VND&date=2024-03-04",
          "base=USD&quotes=VND&date=2024-03-04",
        ])
    }
  }

  // A lock of a v2 run, then --frozen without the service: byte for byte the same output. The cache answers an
  // --offline run the same way.
  @Test func lockAndFrozenReproduceAV2Run() throws {
    try withService { server, directory in
      try directory.write(
        "in.csv",
        Self.header
          + "2024-03-01,100,EUR,AED\n2024-03-02,100,EUR,AED\n2024-03-04,10,EUR,ARS\n2024-03-04,1000000,VND,EUR\n2024-03-04,5,EUR,BOB\n"
      )
      let endpoint = server.baseURL.absoluteString
      let locked = try cli.run(
        [
          "convert", "-q", "--source", "frankfurter", "--endpoint", endpoint, "--cache-dir", "cache", "--lock", "v2.lock",
          "-o", "locked.csv", "in.csv",
        ], in: directory.url)
      #expect(locked.status == 1)  // BOB: no_rate
      let written = try directory.read("locked.csv")
      #expect(written.contains("2024-03-04,1000000,VND,EUR,0.000037,37.00,EUR,2024-03-04,frankfurter-v2 VND/EUR=3.7e-05,ok,"))
      let lock = try directory.read("v2.lock")
      #expect(lock.contains("\nsource frankfurter-v2\n"))
      #expect(lock.contains("\nquote VND EUR 2024-03-04 0.000037 1 0.000037 2024-03-04 ok frankfurter-v2 VND/EUR=3.7e-05\n"))
      server.stop()
      let frozen = try cli.run(
        ["convert", "-q", "--lock", "v2.lock", "--frozen", "-o", "frozen.csv", "in.csv"], in: directory.url)
      #expect(frozen.status == 1)
      #expect(try directory.read("frozen.csv") == written)
      let offline = try cli.run(
        [
          "convert", "-q", "--offline", "--source", "frankfurter", "--endpoint", endpoint, "--cache-dir", "cache", "-o",
          "offline.csv", "in.csv",
        ], in: directory.url)
      #expect(offline.status == 1)
      let offlineLines = try directory.read("offline.csv").split(separator: "\n")
      #expect(Array(offlineLines.prefix(5)) == Array(written.split(separator: "\n").prefix(5)))
    }
  }

  // The test service itself, as documented: carry-forward on one day, a range's snap-back, a cross rate
  // written as Ruby writes it, validation errors.
  @Test func testServiceAnswersAsV2Does() {
    let service = FrankfurterV2Server(rows: Self.table)
    func body(_ query: String) -> String {
      String(decoding: service.response(to: HTTPRequestHead(method: "GET", path: "/v2/rates", query: query)).body, as: UTF8.self)
    }
    #expect(
      body("date=2024-03-03&quotes=AED,ARS") == """
        [{"date":"2024-03-01","base":"EUR","quote":"AED","rate":3.9876},\
        {"date":"2024-03-01","base":"EUR","quote":"ARS","rate":925.37}]
        """)
    #expect(
      body("from=2024-03-02&to=2024-03-04&quotes=ARS,NGN") == """
        [{"date":"2024-03-01","base":"EUR","quote":"ARS","rate":925.37},\
        {"date":"2024-03-01","base":"EUR","quote":"NGN","rate":1702.5},\
        {"date":"2024-03-04","base":"EUR","quote":"NGN","rate":1731.8}]
        """)
    #expect(
      body("date=2024-03-04&base=VND&quotes=EUR,VND") == """
        [{"date":"2024-03-04","base":"VND","quote":"EUR","rate":3.7e-05},\
        {"date":"2024-03-04","base":"VND","quote":"VND","rate":1.0}]
        """)
    #expect(body("date=2024-03-04&base=AED&quotes=EUR") == #"[{"date":"2024-03-04","base":"AED","quote":"EUR","rate":0.25055}]"#)
    #expect(body("date=2024-02-01&quotes=AED") == "[]")
    #expect(body("quotes=AED,BOB,XYZ") == #"{"status":422,"message":"invalid currency: BOB,XYZ"}"#)
    #expect(body("date=2024-03-04&from=2024-03-01") == #"{"status":422,"message":"conflicting params"}"#)
    #expect(body("symbols=USD") == #"{"status":422,"message":"unknown parameter: symbols"}"#)
    #expect(FrankfurterV2Server.rubyText(FrankfurterV2Server.round(0.00004)) == "4.0e-05")
  }

  // The plan: a base's keys are cut where a range — from the first key's day less --max-staleness (at most 366)
  // to the last key's day — would pass 1,825 days (within the service's 5 years); one day within the service's
  // 14-day carry-forward asks date=.
  @Test func requestsSplitOnlyWhereARangeWouldBeHuge() throws {
    let provider = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9")!)
    func requests(_ keys: [(String, String, String)], maxStaleness: Int) throws -> [String] {
      let keys = try keys.map { RateKey(base: try code($0.0), quote: try code($0.1), day: try day($0.2)) }
      return provider.requests(for: keys, today: try day("2026-11-29"), maxStaleness: maxStaleness).map {
        "\($0.url.query ?? "") \($0.keys.count)"
      }
    }
    let keys = [
      ("EUR", "USD", "2020-01-02"), ("EUR", "AED", "2020-06-01"), ("EUR", "USD", "2021-01-02"),
      ("EUR", "NGN", "2021-01-03"), ("EUR", "USD", "2024-12-26"), ("EUR", "GBP", "2024-12-27"),
      ("USD", "VND", "2020-03-03"),
    ]
    // 2019-12-28 + 1,825 days is 2024-12-26.
    #expect(
      try requests(keys, maxStaleness: 5) == [
        "base=EUR&quotes=AED,NGN,USD&from=2019-12-28&to=2024-12-26 5", "base=EUR&quotes=GBP&date=2024-12-27 1",
        "base=USD&quotes=VND&date=2020-03-03 1",
      ])
    // The endpoint's own query (an access key) is kept, before the request's parameters.
    let keyed = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9/api?access_key=S")!)
    #expect(
      keyed.requests(
        for: [RateKey(base: try code("EUR"), quote: try code("AED"), day: try day("2024-03-04"))],
        today: try day("2026-11-29"), maxStaleness: 5
      ).map(\.url.absoluteString)
        == ["http://127.0.0.1:9/api/v2/rates?access_key=S&base=EUR&quotes=AED&date=2024-03-04"])
    #expect(
      try requests(keys, maxStaleness: 10_000) == [
        "base=EUR&quotes=AED,NGN,USD&from=2019-01-01&to=2021-01-03 4",
        "base=EUR&quotes=GBP,USD&from=2023-12-26&to=2024-12-27 2", "base=USD&quotes=VND&from=2019-03-03&to=2020-03-03 1",
      ])
  }

  // The provider's reading: exponents read exactly, a member twice, a row it cannot read fails only its quote.
  @Test func answersAreReadExactly() throws {
    let provider = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9/")!)
    let vnd = RateKey(base: try code("EUR"), quote: try code("VND"), day: try day("2024-03-04"))
    let aed = RateKey(base: try code("EUR"), quote: try code("AED"), day: try day("2024-03-04"))
    let request = RateRequest(url: URL(string: "http://127.0.0.1:9/v2/rates")!, keys: [vnd, aed])
    func answers(_ body: String) -> [RateKey: Result<RateQuote, RowError>] {
      provider.answers(to: request, response: HTTPResponse(status: 200, headers: [:], body: Data(body.utf8)), maxStaleness: 5)
    }
    let read = answers(
      #"[{"date":"2024-03-04","base":"EUR","quote":"VND","rate":2.6801E4},{"date":"2024-03-04","base":"EUR","quote":"AED","rate":"3.9"}]"#
    )
    #expect(try read[vnd]?.get().rateText == "26801")
    #expect(read[aed] == .failure(RowError(.badResponse, "Frankfurter: the AED rate of 2024-03-04 is not a positive number")))
    let twice = answers(#"[{"date":"2024-03-04","base":"EUR","quote":"VND","rate":1,"rate":2}]"#)
    #expect(twice[vnd] == .failure(RowError(.badResponse, "Frankfurter: a rate is not an object with each member once")))
    let other = answers(#"[{"date":"2024-03-04","base":"USD","quote":"VND","rate":1}]"#)
    #expect(other[aed] == .failure(RowError(.badResponse, "Frankfurter: the answer is for another base currency")))
    // At most a row per quote and day from 2024-03-04 less 5 + 14 days: 2 × 20 rows of 5 values, the identity
    // row and the array: 206 values; read up to 4 times that (824). A little more is read (memory, not shape);
    // ten times more is refused while it is parsed, never read.
    let row = #"{"date":"2024-03-04","base":"EUR","quote":"VND","rate":1}"#
    #expect(try answers("[" + Array(repeating: row, count: 42).joined(separator: ",") + "]")[vnd]?.get().rateText == "1")
    let huge = answers("[" + Array(repeating: row, count: 420).joined(separator: ",") + "]")
    #expect(
      huge[vnd]
        == .failure(RowError(.badResponse, "Frankfurter: the answer holds more than 824 values (members and array elements)")))
  }
}
