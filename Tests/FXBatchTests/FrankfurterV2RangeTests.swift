import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Frankfurter v2 range requests (issue 34): ranges of up to the service's five years, cut by the answer's size,
/// a 422 "date range exceeds N years" honoured by splitting (again if refused again, a bounded number of
/// rounds), and the margin of the answer-size limit. Against ``FrankfurterV2Server`` on a loopback server.
@Suite("Frankfurter v2 ranges")
struct FrankfurterV2RangeTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let header = "date,amount,from,to\n"

  /// EUR-pivot rows of AED and USD on some weekdays of 2020 to 2024.
  static let days = ["2020-03-02", "2020-09-01", "2021-03-01", "2021-09-01", "2022-03-01", "2022-03-04", "2024-03-04"]
  static let rows: [(String, String, String)] = days.enumerated().flatMap { index, day in
    [(day, "AED", "3.98\(index)"), (day, "USD", "1.08\(index)")]
  }

  /// Runs `convert` of some records with the service on a loopback server; the queries it was asked, in order.
  func convert(_ service: FrankfurterV2Server, _ records: String, arguments: [String] = []) throws -> (
    result: CLIRunner.Result, queries: [String]
  ) {
    let server = try LoopbackHTTPServer()
    service.install(on: server)
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", Self.header + records)
    let result = try cli.run(
      [
        "convert", "-q", "--source", "frankfurter", "--endpoint", server.baseURL.absoluteString, "--no-cache",
        "--jobs", "1", "--retry-delay", "0.01", "-o", "-",
      ] + arguments + ["in.csv"], in: directory.url)
    return (result, server.requests.map { $0.query ?? "" })
  }

  func range(of request: RateRequest) throws -> (from: CalendarDay, to: CalendarDay)? {
    let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    guard let from = items.first(where: { $0.name == "from" })?.value, let to = items.first(where: { $0.name == "to" })?.value
    else { return nil }
    return (try day(from), try day(to))
  }

  // Ten years of sparse keys over several bases: at most two requests per base (the 366-day spans made about
  // six), each range within 60 months of its first day, every key in one request whose range reaches back
  // --max-staleness days before it.
  @Test func tenYearsOfSparseKeysCostAtMostTwoRequestsPerBase() throws {
    let provider = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9")!)
    let bases = try ["AED", "CHF", "GBP", "JPY", "NGN", "USD", "VND"].map { try code($0) }
    let quotes = try ["EUR", "USD", "GBP"].map { try code($0) }
    let first = try day("2015-01-01")
    var seed: UInt64 = 20_240_101
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    var keys = Set<RateKey>()
    for base in bases {
      // The first and last weeks of the ten years, and 11 days between.
      for offset in [next(7), 3646 + next(7)] + (0..<11).map({ _ in next(3653) }) {
        let quote = quotes.filter { $0 != base }[next(2)]
        keys.insert(RateKey(base: base, quote: quote, day: first.adding(days: offset)))
      }
    }
    let requests = provider.requests(for: Array(keys), today: try day("2026-12-01"), maxStaleness: 5)
    for base in bases {
      #expect(requests.filter { $0.keys.first?.pair.base == base }.count == 2, "\(base)")
    }
    var asked: [RateKey] = []
    for request in requests {
      let (from, to) = try #require(try range(of: request))
      #expect(to.days(since: from) <= 1825)
      #expect(to <= FrankfurterV2Server.adding(months: 60, to: from))
      for key in request.keys { #expect(key.day.adding(days: -5) >= from && key.day <= to) }
      #expect(provider.maximumValues(for: request, maxStaleness: 5) <= FrankfurterProvider.maximumPlannedValues)
      asked += request.keys
    }
    #expect(asked.count == keys.count && Set(asked) == keys)
  }

  // The answer's size cuts a range too: with 16 providers pinned a row holds 70 values, so five quotes over five
  // years (about 646,000 values) are asked in two requests, each within the planned budget; one provider's
  // rows (10 values) fit one.
  @Test func anAnswerIsPlannedWithinItsValueBudget() throws {
    let quotes = try ["AED", "GBP", "NGN", "USD", "VND"].map { try code($0) }
    let keys = try ["2020-01-02", "2024-12-20"].flatMap { text in
      try quotes.map { RateKey(base: try code("EUR"), quote: $0, day: try day(text)) }
    }
    let providers = (0..<16).map { "P\(Character(UnicodeScalar(UInt8(ascii: "A") + UInt8($0))))" }
    let pinned = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9")!, providers: providers)
    let requests = pinned.requests(for: keys, today: try day("2026-12-01"), maxStaleness: 5)
    #expect(requests.map(\.keys.count) == [5, 5])
    #expect(requests.allSatisfy { pinned.maximumValues(for: $0, maxStaleness: 5) <= FrankfurterProvider.maximumPlannedValues })
    let one = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9")!, providers: ["ECB"])
    #expect(one.requests(for: keys, today: try day("2026-12-01"), maxStaleness: 5).map(\.keys.count) == [10])
  }

  // A service that computes ranges live refuses one over a year ("date range exceeds 1 years"): the refused
  // request is split into requests within a year, the other base is unaffected, every record converts and the
  // refusal is nobody's error.
  @Test func aRangeRefusedAsTooLongIsSplit() throws {
    var service = FrankfurterV2Server(rows: Self.rows)
    service.blendedTableReady = false
    service.rangeYears = 1
    let (result, queries) = try convert(
      service,
      "2020-03-02,100,EUR,AED\n2022-03-01,100,EUR,AED\n2022-03-04,100,EUR,AED\n2024-03-04,100,EUR,AED\n"
        + "2024-03-04,100,USD,EUR\n")
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines[1] == "2020-03-02,100,EUR,AED,3.98,398.00,AED,2020-03-02,frankfurter-v2 EUR/AED=3.98,ok,")
    #expect(lines[3] == "2022-03-04,100,EUR,AED,3.985,398.50,AED,2022-03-04,frankfurter-v2 EUR/AED=3.985,ok,")
    #expect(lines[4] == "2024-03-04,100,EUR,AED,3.986,398.60,AED,2024-03-04,frankfurter-v2 EUR/AED=3.986,ok,")
    #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(",ok,") })
    #expect(
      queries.sorted() == [
        "base=EUR&quotes=AED&date=2020-03-02", "base=EUR&quotes=AED&date=2024-03-04",
        "base=EUR&quotes=AED&from=2020-02-26&to=2024-03-04", "base=EUR&quotes=AED&from=2022-02-24&to=2022-03-04",
        "base=USD&quotes=EUR&date=2024-03-04",
      ])
  }

  // A service that says 2 years but serves only 400 days: the 2-year split is refused again, and narrowed again
  // to half the refused range; every record converts.
  @Test func aSplitRefusedAgainIsNarrowedAgain() throws {
    var service = FrankfurterV2Server(rows: Self.rows)
    service.blendedTableReady = false
    service.rangeYears = 2
    service.refusedRangeDays = 400
    let records = ["2020-03-02", "2020-09-01", "2021-03-01", "2021-09-01", "2022-03-01", "2024-03-04"]
      .map { "\($0),100,EUR,AED\n" }.joined()
    let (result, queries) = try convert(service, records)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.split(separator: "\n").dropFirst().allSatisfy { $0.hasSuffix(",ok,") })
    #expect(
      queries == [
        "base=EUR&quotes=AED&from=2020-02-26&to=2024-03-04",
        // Within 2 years (730 days): the first range is 553 days, refused again.
        "base=EUR&quotes=AED&from=2020-02-26&to=2021-09-01", "base=EUR&quotes=AED&date=2022-03-01",
        "base=EUR&quotes=AED&date=2024-03-04",
        // Within half of 553 days.
        "base=EUR&quotes=AED&from=2020-02-26&to=2020-09-01", "base=EUR&quotes=AED&from=2021-02-24&to=2021-09-01",
      ])
  }

  // A service that refuses every range: the narrowing ends at ranges of one day, which are not split; their keys
  // keep the service's refusal. Four requests, never a loop.
  @Test func aServiceThatRefusesEveryRangeCostsBoundedRequests() throws {
    var service = FrankfurterV2Server(rows: Self.rows)
    service.blendedTableReady = false
    service.refusedRangeDays = 0
    let (result, queries) = try convert(
      service, "2020-03-02,100,EUR,AED\n2022-03-01,100,EUR,AED\n2024-03-04,100,EUR,AED\n", arguments: ["--max-staleness", "30"])
    #expect(
      queries == [
        "base=EUR&quotes=AED&from=2020-02-01&to=2024-03-04", "base=EUR&quotes=AED&from=2020-02-01&to=2020-03-02",
        "base=EUR&quotes=AED&from=2022-01-30&to=2022-03-01", "base=EUR&quotes=AED&from=2024-02-03&to=2024-03-04",
      ])
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(
      lines.dropFirst().allSatisfy {
        $0.hasSuffix(
          #",error,"bad_response: Frankfurter: date range exceeds 5 years at daily granularity; filter with quotes= "#
            + #"(5 currencies or fewer), aggregate with group=week or group=month, or split the range into shorter requests""#)
      }, "\(lines)")
  }

  // Many keys and a service that refuses every range: the narrowing stops after 4 rounds (1 + 3 + 4 + 8 + 16
  // requests), not when ranges of one day are reached (a fifth round would send 48 more).
  @Test func narrowingStopsAfterFourRounds() throws {
    var service = FrankfurterV2Server(rows: Self.rows)
    service.blendedTableReady = false
    service.refusedRangeDays = 0
    let first = try day("2020-03-02")
    let records = (0..<49).map { "\(first.adding(days: 30 * $0)),100,EUR,AED\n" }.joined()
    let (result, queries) = try convert(service, records, arguments: ["--max-staleness", "30"])
    #expect(queries.count == 32, "\(queries.count)")
    #expect(queries.allSatisfy { $0.contains("&from=") })
    let lines = result.standardOutput.split(separator: "\n")
    #expect(
      lines.count == 50 && lines.dropFirst().allSatisfy { $0.contains(",error,\"bad_response: Frankfurter: date range exceeds") })
  }

  // The years a refusal names, and what is not such a refusal.
  @Test func theRefusedYearsAreRead() {
    func years(_ status: Int, _ message: String) -> Int? {
      FrankfurterProvider.refusedRangeYears(
        .httpStatus(
          status, url: "http://127.0.0.1:9/v2/rates", attempts: 1, body: #"{"status":\#(status),"message":"\#(message)"}"#))
    }
    #expect(years(422, "date range exceeds 5 years at daily granularity; split the range") == 5)
    #expect(years(422, "date range exceeds 1 year") == 1)
    #expect(years(422, "date range exceeds 0 years") == nil)
    #expect(years(422, "date range exceeds many years") == nil)
    #expect(years(422, "date range exceeds 5 days") == nil)
    #expect(years(503, "date range exceeds 5 years") == nil)
    #expect(years(422, "invalid currency: BOB") == nil)
  }

  // The answer-size limit is for memory, not shape: 4 times the strict count (1 quote × 20 days: 106 values,
  // read up to 424). An identity row every day, each row with a providers array, is read; 10 times the strict
  // count is refused while it is parsed.
  @Test func anAnswerALittleLargerIsReadAndAHugeOneRefused() throws {
    let provider = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9/")!)
    let key = RateKey(base: try code("EUR"), quote: try code("VND"), day: try day("2024-03-04"))
    let request = RateRequest(url: URL(string: "http://127.0.0.1:9/v2/rates")!, keys: [key])
    #expect(provider.maximumValues(for: request, maxStaleness: 5) == 106)
    func answer(_ rows: [String]) -> Result<RateQuote, RowError>? {
      let response = HTTPResponse(status: 200, headers: [:], body: Data(("[" + rows.joined(separator: ",") + "]").utf8))
      return provider.answers(to: request, response: response, maxStaleness: 5)[key]
    }
    let days = (0..<20).map { key.day.adding(days: -19 + $0) }
    let withIdentity = days.flatMap { day in
      [
        #"{"date":"\#(day)","base":"EUR","quote":"EUR","rate":1.0,"providers":[{"key":"ECB","rate":1.0}]}"#,
        #"{"date":"\#(day)","base":"EUR","quote":"VND","rate":26801,"providers":[{"key":"ECB","rate":26801}]}"#,
      ]
    }
    #expect(try answer(withIdentity)?.get().rateText == "26801")
    let plain = #"{"date":"2024-03-04","base":"EUR","quote":"VND","rate":26801}"#
    #expect(
      answer(Array(repeating: plain, count: 212))
        == .failure(RowError(.badResponse, "Frankfurter: the answer holds more than 424 values (members and array elements)")))
  }
}
