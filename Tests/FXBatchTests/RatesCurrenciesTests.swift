import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `fxbatch rates currencies`: what each source covers, against loopback services (never the internet) and the
/// embedded history.
@Suite("rates currencies")
struct RatesCurrenciesTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The v2 test service over FrankfurterV2Tests' rows (2024-03-01 and 2024-03-04; ARS only on the first),
  /// with names for two currencies and BOB known without rates.
  func v2Service() -> FrankfurterV2Server {
    var service = FrankfurterV2Server(rows: FrankfurterV2Tests.table, alsoKnown: ["BOB"])
    service.names = ["AED": "United Arab Emirates Dirham", "EUR": "Euro"]
    return service
  }

  func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> CLIRunner.Result {
    try cli.run(["rates", "currencies", "--no-cache"] + arguments, in: directory.url)
  }

  // v2: GET /v2/currencies?scope=all, one line per currency: code, first and last day, source, name (the code
  // when the service has no name; - for the days of a currency without rates).
  @Test func frankfurterListsItsCurrenciesWithDaysAndNames() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    v2Service().install(on: server)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["--source", "frankfurter", "--endpoint", server.baseURL.absoluteString], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput == """
        AED 2024-03-01 2024-03-04 frankfurter United Arab Emirates Dirham
        ARS 2024-03-01 2024-03-01 frankfurter ARS
        BOB - - frankfurter BOB
        EUR 2024-03-01 2024-03-04 frankfurter Euro
        NGN 2024-03-01 2024-03-04 frankfurter NGN
        USD 2024-03-01 2024-03-04 frankfurter USD
        VND 2024-03-01 2024-03-04 frankfurter VND

        """)
    #expect(server.requests.map(\.target) == ["/v2/currencies?scope=all"])
  }

  // The embedded ECB history: the first and last day each currency has a rate. The Cyprus pound was last
  // published on 2007-12-31 (Cyprus adopted the euro on 2008-01-01); the lev first on 2000-07-19 and last on
  // 2025-12-31 (Bulgaria adopted the euro on 2026-01-01); the euro and the dollar from the first publication,
  // 1999-01-04, to the history's last day, 2026-10-30.
  @Test func embeddedListsTheDaysOfTheECBHistory() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run([], in: directory)
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.contains("CYP 1999-01-04 2007-12-31 embedded -"))
    #expect(lines.contains("BGN 2000-07-19 2025-12-31 embedded -"))
    #expect(lines.contains("EUR 1999-01-04 2026-10-30 embedded -"))
    #expect(lines.contains("USD 1999-01-04 2026-10-30 embedded -"))
    #expect(lines.map { $0.prefix(3) } == lines.map { $0.prefix(3) }.sorted())
  }

  // A chain lists each currency once, with the first source that covers it: the ECB's from the embedded
  // history, the others (AED, ARS, BOB, NGN, VND) from the service.
  @Test func aChainNamesTheFirstSourceOfEachCurrency() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    v2Service().install(on: server)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["--source", "embedded,frankfurter", "--endpoint", server.baseURL.absoluteString], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.contains("USD 1999-01-04 2026-10-30 embedded -"))
    #expect(lines.contains("EUR 1999-01-04 2026-10-30 embedded -"))
    #expect(lines.contains("AED 2024-03-01 2024-03-04 frankfurter United Arab Emirates Dirham"))
    #expect(lines.filter { $0.contains(" frankfurter ") }.map { $0.prefix(3) } == ["AED", "ARS", "BOB", "NGN", "VND"])
    #expect(Set(lines.map { $0.prefix(3) }).count == lines.count)
  }

  // v1 publishes names only: its days are -, and a line on standard error says so. The ECB feed: the days of its
  // history file.
  @Test func frankfurterV1AndTheECBFeed() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/v1/currencies", [.json(#"{"AUD":"Australian Dollar","USD":"United States Dollar"}"#)])
    server.route(
      "/eurofxref-hist.xml",
      [
        .xml(
          #"<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>"#
            + #"<Cube time="2026-11-27"><Cube currency="USD" rate="1.13"/></Cube>"#
            + #"<Cube time="2026-11-26"><Cube currency="USD" rate="1.12"/><Cube currency="GBP" rate="0.84"/></Cube>"#
            + "</Cube></gesmes:Envelope>")
      ])
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let v1 = try run(["--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString], in: directory)
    #expect(v1.status == 0)
    #expect(v1.standardOutput == "AUD - - frankfurter-v1 Australian Dollar\nUSD - - frankfurter-v1 United States Dollar\n")
    #expect(v1.standardError == "fxbatch: frankfurter-v1 does not publish first and last days (-)\n")
    let ecb = try run(["--source", "ecb", "--endpoint", server.baseURL.absoluteString + "/"], in: directory)
    #expect(ecb.status == 0, "\(ecb.standardError)")
    #expect(
      ecb.standardOutput == "EUR 2026-11-26 2026-11-27 ecb -\nGBP 2026-11-26 2026-11-26 ecb -\nUSD 2026-11-26 2026-11-27 ecb -\n")
  }

  // A name with control characters (an escape sequence, a line break that would forge a line of its own) is
  // printed with them written \u{…}: one currency a line (break-it run).
  @Test func controlCharactersInNamesStayOnTheirLine() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route(
      "/v1/currencies",
      [.json(#"{"AED":"Dirham\u001b[31mRED\r\nEUR 1999-01-04 2026-10-30 embedded FAKE","USD":"Dollar\u202e"}"#)])
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try run(["--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString], in: directory)
    #expect(result.status == 0)
    #expect(
      result.standardOutput
        == #"AED - - frankfurter-v1 Dirham\u{1b}[31mRED\u{d}\u{a}EUR 1999-01-04 2026-10-30 embedded FAKE"# + "\n"
        + #"USD - - frankfurter-v1 Dollar\u{202e}"# + "\n")
  }

  // A service down is exit 1, an answer that is not a currency list exit 2, each one line; usage errors 64.
  @Test func failuresAndUsageErrors() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/v2/currencies", [.status(503), .status(503)])
    server.route("/v1/currencies", [.json(#"[{"iso_code":"USD"}]"#)])
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let endpoint = server.baseURL.absoluteString
    let down = try run(["--source", "frankfurter", "--endpoint", endpoint, "--timeout", "5"], in: directory)
    #expect(down.status == 3)
    #expect(down.standardOutput.isEmpty)
    #expect(down.standardError.hasPrefix("fxbatch: \(endpoint)/v2/currencies?scope=all: source_unavailable: HTTP 503"))
    #expect(down.standardError.split(separator: "\n").count == 1)
    let bad = try run(["--source", "frankfurter-v1", "--endpoint", endpoint], in: directory)
    #expect(bad.status == 3, "a bad answer is the source's failure")
    #expect(
      bad.standardError
        == "fxbatch: \(endpoint)/v1/currencies: not a currency list: the answer is not an object of codes and names\n")
    for arguments in [
      ["--source", "calculator"], ["--source", "frankfurter,ecb", "--endpoint", endpoint], ["--source", "nope"],
      ["--source", "embedded", "--timeout", "3"], ["--source", "file"], ["extra"],
    ] {
      let usage = try run(arguments, in: directory)
      #expect(usage.status == 64, "\(arguments)")
      #expect(usage.standardError.hasPrefix("fxbatch: error: "), "\(arguments)")
    }
    let embedded = try run(["--source", "embedded", "--endpoint", endpoint], in: directory)
    #expect(embedded.status == 64)
    #expect(
      embedded.standardError.hasPrefix(
        "fxbatch: error: --endpoint is the root of one service, and --source embedded names none\n"))
    let two = try run(["--source", "frankfurter,ecb", "--endpoint", endpoint], in: directory)
    #expect(
      two.standardError.hasPrefix(
        "fxbatch: error: --endpoint is the root of one service, and --source frankfurter,ecb names 2 (frankfurter, ecb)\n"))
  }

  // The v2 list's shape is checked: a code that is not three capitals, a date that is not one, a code twice.
  @Test(arguments: [
    (#"[{"iso_code":"usd","name":"x"}]"#, "a currency has no valid iso_code"),
    (#"[{"iso_code":"USD","name":"x","start_date":"2024-13-01"}]"#, "USD's start_date 2024-13-01 is not a date"),
    (
      #"[{"iso_code":"USD","name":"x","start_date":"2024-03-02","end_date":"2024-03-01"}]"#,
      "USD's start_date is after its end_date"
    ),
    (#"[{"iso_code":"USD","name":"x"},{"iso_code":"USD","name":"y"}]"#, "USD is listed twice"),
    (#"[{"iso_code":"USD","iso_code":"EUR","name":"x"}]"#, "a currency is not an object with each member once"),
    (#"{"USD":"x"}"#, "the answer is not an array"),
  ])
  func v2ListShapeIsChecked(body: String, reason: String) throws {
    let url = try #require(URL(string: "http://127.0.0.1:9/v2/currencies"))
    #expect(throws: CurrencyListingError.badAnswer(url: url.displayText, reason: reason)) {
      try FrankfurterProvider.currencies(from: Data(body.utf8), url: url, source: "frankfurter")
    }
  }
}
