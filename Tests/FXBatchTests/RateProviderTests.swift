import Foundation
import Testing

@testable import FXBatch

@Suite("Rate providers and the planner (no network)")
struct RateProviderTests {
  let endpoint = URL(string: "http://127.0.0.1:9/")!

  func key(_ base: String, _ quote: String, _ dayText: String) throws -> RateKey {
    RateKey(base: try code(base), quote: try code(quote), day: try day(dayText))
  }

  func response(_ body: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: [:], body: Data(body.utf8))
  }

  @Test func frankfurterGroupsOneRequestPerBaseAndDay() throws {
    let provider = FrankfurterV1Provider(endpoint: endpoint)
    let keys = [
      try key("EUR", "USD", "2020-01-02"), try key("EUR", "GBP", "2020-01-02"), try key("USD", "JPY", "2020-01-02"),
      try key("EUR", "USD", "2020-01-03"),
    ]
    let plan = RatePlanner.plan(
      keys: Set(keys + [try key("EUR", "EUR", "2020-01-02")]), provider: provider, today: try day("2026-11-29"))
    #expect(plan.keyCount == 5)
    #expect(plan.localAnswers.count == 1)
    #expect(
      plan.requests.map(\.url.absoluteString).sorted() == [
        "http://127.0.0.1:9/v1/2020-01-02?base=EUR&symbols=GBP,USD",
        "http://127.0.0.1:9/v1/2020-01-02?base=USD&symbols=JPY",
        "http://127.0.0.1:9/v1/2020-01-03?base=EUR&symbols=USD",
      ])
  }

  @Test func plannerNeverSendsWhatCannotSucceed() throws {
    let provider = FrankfurterV1Provider(endpoint: endpoint)
    let today = try day("2026-11-29")
    let plan = RatePlanner.plan(
      keys: [try key("AED", "EUR", "2020-01-02"), try key("EUR", "USD", "1998-12-31"), try key("EUR", "USD", "2027-01-01")],
      provider: provider, today: today)
    #expect(plan.requests.isEmpty)
    #expect(plan.localAnswers.values.compactMap { (try? $0.get()) == nil ? $0 : nil }.count == 3)
    #expect(
      plan.localAnswers[try key("AED", "EUR", "2020-01-02")]
        == .failure(RowError(.noRate, "Frankfurter has no AED rates (it serves the ECB reference rates)")))
  }

  // 2020-01-04 is a Saturday: Frankfurter answers Friday's rates; 100 EUR at 1.1147 = 111.47 (fallback).
  @Test func frankfurterAnswerWithAnEarlierDayIsAFallback() throws {
    let provider = FrankfurterV1Provider(endpoint: endpoint)
    let saturday = try key("EUR", "USD", "2020-01-04")
    let request = RateRequest(url: endpoint, keys: [saturday, try key("EUR", "GBP", "2020-01-04")])
    let answers = provider.answers(
      to: request, response: response(#"{"amount":1.0,"base":"EUR","date":"2020-01-03","rates":{"USD":1.1147}}"#), maxStaleness: 5
    )
    let quote = try #require(try answers[saturday]?.get())
    #expect(quote.rateDay == (try day("2020-01-03")))
    #expect(quote.isFallback)
    #expect(quote.rate.convert(try decimal("100"), minorUnits: 2, rounding: .halfUp)?.description == "111.47")
    #expect(
      answers[try key("EUR", "GBP", "2020-01-04")] == .failure(RowError(.noRate, "Frankfurter has no GBP rate on 2020-01-03")))
  }

  @Test(arguments: [
    (#"{"error":"Rate limit exceeded"}"#, "bad_response: Frankfurter: Rate limit exceeded"),
    (#"{"amount":1.0,"base":"EUR","date":"2020-01-02"}"#, "bad_response: Frankfurter: the answer has no rates"),
    (
      #"{"amount":1.0,"base":"EUR","date":"2020-01-02","rates":{"USD":1.1"#,
      "bad_response: Frankfurter: not JSON (line 1, column 66: unexpected end of the document inside an object)"
    ),
    (
      #"{"amount":1.0,"base":"USD","date":"2020-01-02","rates":{"USD":1}}"#,
      "bad_response: Frankfurter: the answer is for another base currency"
    ),
    // A valid answer far larger than any Frankfurter answer is refused while it is parsed (memory).
    (
      #"{"amount":1.0,"base":"EUR","date":"2020-01-02","rates":{"#
        + (0..<10_001).map { #""C\#($0)":1"# }.joined(separator: ",") + "}}",
      "bad_response: Frankfurter: the answer holds more than 10000 values (members and array elements)"
    ),
  ])
  func invalidAnswersFailTheKeyWithTheReason(body: String, expected: String) throws {
    let provider = FrankfurterV1Provider(endpoint: endpoint)
    let request = RateRequest(url: endpoint, keys: [try key("EUR", "USD", "2020-01-02")])
    let answers = provider.answers(to: request, response: response(body), maxStaleness: 5)
    #expect(answers.count == 1)
    #expect(answers.values.first.map { (try? $0.get()) == nil } == true)
    if case .failure(let error)? = answers.values.first { #expect(error.description == expected) }
  }

  @Test func frankfurter404CarriesTheServiceMessage() throws {
    let provider = FrankfurterV1Provider(endpoint: endpoint)
    let request = RateRequest(url: endpoint, keys: [try key("EUR", "USD", "2020-01-02")])
    let error = provider.rowError(
      for: .httpStatus(404, url: "u", attempts: 1, body: #"{"message":"not found"}"#), request: request)
    #expect(error.description == "no_rate: Frankfurter: not found")
  }

  @Test func ecbPicksTheSmallestFileThatCoversTheDates() throws {
    let provider = ECBFeedProvider(endpoint: endpoint)
    let today = try day("2026-11-27")
    func file(_ days: [String]) throws -> String? {
      provider.requests(for: try days.map { try key("EUR", "USD", $0) }, today: today, maxStaleness: 5).first?.url
        .lastPathComponent
    }
    #expect(try file(["2026-11-27"]) == "eurofxref-daily.xml")
    #expect(try file(["2026-11-27", "2026-10-01"]) == "eurofxref-hist-90d.xml")
    #expect(try file(["2026-11-27", "2020-01-02"]) == "eurofxref-hist.xml")
    #expect(provider.requests(for: [], today: today, maxStaleness: 5).isEmpty)
  }

  // The real 2017-03-08 daily file served as the answer: 100 USD→GBP = 100 × 0.86753 / 1.0556 → 82.18.
  @Test func ecbAnswerIsReadWithTheFeedParser() throws {
    let provider = ECBFeedProvider(endpoint: endpoint)
    let body = try Data(contentsOf: try Fixture.url("ecb", "ecb-eurofxref-daily-2017-03-08.xml"))
    let usdGBP = try key("USD", "GBP", "2017-03-08")
    let request = RateRequest(url: endpoint.appendingPathComponent("eurofxref-daily.xml"), keys: [usdGBP])
    let quote = try #require(
      try provider.answers(to: request, response: HTTPResponse(status: 200, headers: [:], body: body), maxStaleness: 5)[usdGBP]?
        .get())
    #expect(quote.rate.convert(try decimal("100"), minorUnits: 2, rounding: .halfUp)?.description == "82.18")
    #expect(quote.source == "ecb EUR/USD=1.0556 EUR/GBP=0.86753")
    let truncated = provider.answers(
      to: request, response: HTTPResponse(status: 200, headers: [:], body: body.prefix(400)), maxStaleness: 5)
    #expect(truncated[usdGBP].map { (try? $0.get()) == nil } == true)
  }
}
