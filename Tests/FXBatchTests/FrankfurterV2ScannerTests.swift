import Dispatch
import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

@testable import FXBatch

/// The byte scanner of Frankfurter v2 answers (``FrankfurterProvider/scannedAnswers(to:response:maxStaleness:)``)
/// against the JSON reader (``FrankfurterProvider/readerAnswers(to:response:maxStaleness:)``): the same answers and
/// errors for every key, on the test server's answers and on mutated ones; the scanner reads the service's shapes
/// and declines the rest. And the resolver reading each answer as it arrives.
@Suite("Frankfurter v2 answer scanner", .tags(.sanitized))
struct FrankfurterV2ScannerTests {
  static let provider = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9")!)

  static func day(_ text: String) -> CalendarDay { CalendarDay(iso8601: text)! }

  /// Keys of some bases and quotes on every day from one day to another.
  static func keys(bases: [String], quotes: [String], from: String, to: String) -> [RateKey] {
    var keys: [RateKey] = []
    var day = Self.day(from)
    while day <= Self.day(to) {
      for base in bases {
        for quote in quotes where quote != base {
          keys.append(RateKey(base: CurrencyCode(base)!, quote: CurrencyCode(quote)!, day: day))
        }
      }
      day = day.adding(days: 1)
    }
    return keys
  }

  /// The test server's answer to a request, as the transport gives it.
  static func response(_ service: FrankfurterV2Server, to request: RateRequest) -> HTTPResponse {
    let scripted = service.response(
      to: HTTPRequestHead(method: "GET", path: request.url.path, query: request.url.query))
    return HTTPResponse(
      status: scripted.status, headers: Dictionary(uniqueKeysWithValues: scripted.headers.map { ($0.lowercased(), $1) }),
      body: scripted.body)
  }

  /// Whether the scanner reads a body, and the answers of both readings agree.
  static func readAlike(
    _ body: String, provider: FrankfurterProvider = provider, keys: [RateKey], maxStaleness: Int = 5,
    contentType: String = "application/json; charset=utf-8"
  ) -> (scanned: Bool, alike: Bool) {
    let request = RateRequest(url: URL(string: "http://127.0.0.1:9/v2/rates")!, keys: keys)
    let response = HTTPResponse(status: 200, headers: ["content-type": contentType], body: Data(body.utf8))
    let scanned = provider.scannedAnswers(to: request, response: response, maxStaleness: maxStaleness)
    let reader = provider.readerAnswers(to: request, response: response, maxStaleness: maxStaleness)
    let answers = provider.answers(to: request, response: response, maxStaleness: maxStaleness)
    // The batch the resolver takes holds the same answers (scanned, or the reader's when the scanner declines).
    let batch = provider.answerBatch(to: request, response: response, maxStaleness: maxStaleness)
    let batchScanned = provider.scannedBatch(to: request, response: response, maxStaleness: maxStaleness) != nil
    return (
      scanned != nil,
      answers == reader && (scanned == nil || scanned == reader) && batch.values == reader && batchScanned == (scanned != nil)
    )
  }

  /// EUR-pivot rows over March 2024 (weekdays), with gaps: ARS not on Mondays, JPY not from the 20th, VND's rates
  /// make crosses of VND write exponents (`3.7e-05`).
  static let service: FrankfurterV2Server = {
    var rows: [(String, String, String)] = []
    var day = Self.day("2024-03-01")
    var step = 0
    while day <= Self.day("2024-03-29") {
      let weekday = (day.daysSinceEpoch + 4) % 7  // 0: Sunday
      if weekday != 0, weekday != 6 {
        let text = day.description
        rows += [
          (text, "USD", "1.08\(50 + step)"), (text, "GBP", "0.85\(10 + step)"), (text, "VND", "267\(10 + step)"),
          (text, "AED", "3.98\(10 + step)"),
        ]
        if weekday != 1 { rows.append((text, "ARS", "925.\(10 + step)")) }
        if day < Self.day("2024-03-20") { rows.append((text, "JPY", "161.\(10 + step)")) }
        step += 1
      }
      day = day.adding(days: 1)
    }
    return FrankfurterV2Server(
      rows: rows, alsoKnown: ["CHF"], today: "2024-04-02",
      providers: ["USD": "FED", "GBP": "BOE", "VND": "SBV", "ARS": "BCRA", "JPY": "BOJ"])
  }()

  // The server's answers to the provider's own requests (ranges and single days, bases EUR, USD and VND, plain
  // and with pinned providers): scanned, and answered as the reader answers them.
  @Test func serverAnswersAreScannedAndReadAlike() throws {
    let quotes = ["EUR", "USD", "GBP", "VND", "AED", "ARS", "JPY", "CHF"]
    let pinned = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9")!, providers: ["ECB", "FED", "SBV"])
    var scanned = 0
    for provider in [Self.provider, pinned] {
      for (from, to, staleness) in [
        ("2024-02-26", "2024-04-01", 5), ("2024-03-09", "2024-03-10", 1), ("2024-03-25", "2024-03-25", 0),
      ] {
        let keys = Self.keys(bases: ["EUR", "USD", "VND"], quotes: quotes, from: from, to: to)
        for request in provider.requests(for: keys, today: Self.day("2024-04-02"), maxStaleness: staleness) {
          let response = Self.response(Self.service, to: request)
          #expect(response.status == 200)
          let reader = provider.readerAnswers(to: request, response: response, maxStaleness: staleness)
          let fast = provider.scannedAnswers(to: request, response: response, maxStaleness: staleness)
          #expect(fast != nil, "declined: \(request.url)")
          #expect(fast == reader, "\(request.url)")
          #expect(reader.count == request.keys.count)
          let batch = try #require(provider.scannedBatch(to: request, response: response, maxStaleness: staleness))
          #expect(batch.values == reader, "\(request.url)")
          var table = AnswerTable()
          table.take(batch)
          for (key, answer) in reader { #expect(table.answer(for: key) == answer, "\(key)") }
          if fast != nil { scanned += 1 }
        }
      }
    }
    #expect(scanned >= 12)
    // The answers hold rates, fallbacks, exponents, providers, errors.
    let keys = Self.keys(bases: ["VND"], quotes: ["EUR", "CHF", "JPY"], from: "2024-03-23", to: "2024-03-25")
    let request = try #require(pinned.requests(for: keys, today: Self.day("2024-04-02"), maxStaleness: 5).first)
    let answers = pinned.answers(to: request, response: Self.response(Self.service, to: request), maxStaleness: 5)
    let euro = try #require(try? answers[RateKey(base: CurrencyCode("VND")!, quote: .euro, day: Self.day("2024-03-23"))]?.get())
    #expect(euro.source.hasPrefix("frankfurter-v2(SBV) VND/EUR=3.7"))
    #expect(euro.source.contains("e-05"))
    #expect(euro.isFallback)
  }

  static let body = """
    [{"date":"2024-03-01","base":"EUR","quote":"USD","rate":1.0856},{"date":"2024-03-01","base":"EUR","quote":"VND","rate":26750},\
    {"date":"2024-03-04","base":"EUR","quote":"USD","rate":1.0851},{"date":"2024-03-04","base":"EUR","quote":"VND","rate":26801}]
    """
  static let oddKeys = keys(bases: ["EUR"], quotes: ["USD", "VND", "GBP"], from: "2024-02-28", to: "2024-03-10")

  /// Bodies the scanner reads (`true`) or declines (`false`), each answered as the reader answers it.
  static let oddBodies: [(String, String, Bool)] = [
    ("the service's shape", body, true),
    (
      "whitespace between every token",
      body.replacingOccurrences(of: ",", with: " ,\n\t").replacingOccurrences(of: ":", with: "\r: "), true
    ),
    ("around the document", " \n" + body + "\n ", true),
    ("exponent", body.replacingOccurrences(of: "1.0856", with: "10856e-4"), true),
    ("exponent with a sign", body.replacingOccurrences(of: "26801", with: "2.6801E+4"), true),
    ("exponent of zero digits", body.replacingOccurrences(of: "1.0851", with: "0.0e5"), false),
    (
      "members in another order",
      body.replacingOccurrences(
        of: #""date":"2024-03-04","base":"EUR","quote":"USD","rate":1.0851"#,
        with: #""rate":1.0851,"quote":"USD","base":"EUR","date":"2024-03-04""#), true
    ),
    (
      "a missing day",
      body.replacingOccurrences(of: #"{"date":"2024-03-04","base":"EUR","quote":"USD","rate":1.0851},"#, with: ""), true
    ),
    ("rows out of day order", body.replacingOccurrences(of: "2024-03-01", with: "2024-03-05"), true),
    ("an empty list", "[]", true),
    ("an empty list with spaces", "[ ]", true),
    ("38 digits", body.replacingOccurrences(of: "1.0856", with: "1.0856000000000000000000000000000000000"), true),
    ("39 digits", body.replacingOccurrences(of: "1.0856", with: "1.08560000000000000000000000000000000000"), false),
    ("an extra member", body.replacingOccurrences(of: #""rate":1.0856"#, with: #""rate":1.0856,"note":"x""#), false),
    (
      "an escape in a quote",
      body.replacingOccurrences(of: #""quote":"VND","rate":26801"#, with: #""quote":"\u0056ND","rate":26801"#), false
    ),
    (
      "an escape in a date",
      body.replacingOccurrences(
        of: #""2024-03-04","base":"EUR","quote":"USD""#, with: #""2024-03-0\u0034","base":"EUR","quote":"USD""#), false
    ),
    (
      "an escaped member name", body.replacingOccurrences(of: #"{"date":"2024-03-01""#, with: #"{"d\u0061te":"2024-03-01""#),
      false
    ),
    ("a null rate", body.replacingOccurrences(of: "1.0851", with: "null"), false),
    ("a rate as a string", body.replacingOccurrences(of: "1.0851", with: #""1.0851""#), false),
    ("a zero rate", body.replacingOccurrences(of: "1.0851", with: "0.000"), false),
    ("a negative rate", body.replacingOccurrences(of: "1.0851", with: "-1.0851"), false),
    ("a leading zero", body.replacingOccurrences(of: "1.0851", with: "01.0851"), false),
    ("a date as a number", body.replacingOccurrences(of: #""2024-03-04""#, with: "20240304"), false),
    ("a date that is no day", body.replacingOccurrences(of: "2024-03-04", with: "2024-02-30"), false),
    ("a null quote", body.replacingOccurrences(of: #""quote":"VND""#, with: #""quote":null"#), false),
    (
      "another base",
      body.replacingOccurrences(
        of: #""base":"EUR","quote":"VND","rate":26801"#, with: #""base":"USD","quote":"VND","rate":26801"#), false
    ),
    (
      "a lower-case quote", body.replacingOccurrences(of: #""quote":"VND","rate":26801"#, with: #""quote":"vnd","rate":26801"#),
      false
    ),
    (
      "a quote beyond ASCII", body.replacingOccurrences(of: #""quote":"VND","rate":26801"#, with: #""quote":"VNĐ","rate":26801"#),
      false
    ),
    ("a member twice", body.replacingOccurrences(of: #""rate":1.0856"#, with: #""rate":1.0856,"rate":2"#), false),
    (
      "a missing member",
      body.replacingOccurrences(of: #""base":"EUR","quote":"VND","rate":26801"#, with: #""quote":"VND","rate":26801"#), false
    ),
    (
      "two rows of a day, one rate",
      body.replacingOccurrences(of: "}]", with: #"},{"date":"2024-03-04","base":"EUR","quote":"VND","rate":26801}]"#), false
    ),
    ("two rows of a day, two rates", body.replacingOccurrences(of: "2024-03-01", with: "2024-03-04"), false),
    ("a byte order mark", "\u{FEFF}" + body, false),
    ("text after the list", body + "x", false),
    ("a comma after the last row", body.replacingOccurrences(of: "}]", with: "},]"), false),
    ("a truncated list", String(body.dropLast()), false),
    ("an error object", #"{"status":404,"message":"not found"}"#, false),
    ("an object of rates", #"{"rates":[]}"#, false),
    ("an empty body", "", false),
    ("a row that is a list", body.replacingOccurrences(of: "}]", with: "},[1]]"), false),
    ("an empty row", body.replacingOccurrences(of: "}]", with: "},{}]"), false),
    (
      "providers",
      body.replacingOccurrences(
        of: #""rate":1.0856"#,
        with:
          #""rate":1.0856,"providers":[{"key":"ECB","date":"2024-03-01","rate":1.0856},{"key":"FED","rate":1.0857,"excluded":false}]"#
      ), true
    ),
    (
      "an excluded provider",
      body.replacingOccurrences(
        of: #""rate":1.0851"#,
        with: #""rate":1.0851,"providers":[{"key":"ECB","rate":1.0851,"excluded":true},{"key":"BOC","rate":1.0852}]"#), true
    ),
    ("no providers", body.replacingOccurrences(of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":[ ]"#), true),
    (
      "providers that are no list", body.replacingOccurrences(of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":"ECB""#),
      false
    ),
    (
      "a provider key in lower case",
      body.replacingOccurrences(of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":[{"key":"ecb"}]"#), false
    ),
    (
      "a provider without a key",
      body.replacingOccurrences(of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":[{"rate":1.0851}]"#), false
    ),
    (
      "excluded that is no boolean",
      body.replacingOccurrences(of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":[{"key":"ECB","excluded":1}]"#), false
    ),
    (
      "a provider with another member",
      body.replacingOccurrences(of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":[{"key":"ECB","weight":1}]"#), false
    ),
  ]

  // Every odd body: scanned or declined as listed, and answered as the reader answers it.
  @Test func oddAnswersReadAlike() {
    for (name, body, scanned) in Self.oddBodies {
      let result = Self.readAlike(body, keys: Self.oddKeys)
      #expect(result.alike, "\(name)")
      #expect(result.scanned == scanned, "\(name)")
    }
    // NDJSON is the reader's.
    let lines = Self.body.dropFirst().dropLast().replacingOccurrences(of: "},{", with: "}\n{")
    let ndjson = Self.readAlike(lines, keys: Self.oddKeys, contentType: "application/x-ndjson")
    #expect(ndjson.alike && !ndjson.scanned)
    // A provider not pinned: the reader's bad_response.
    let pinned = FrankfurterProvider(endpoint: URL(string: "http://127.0.0.1:9")!, providers: ["ECB"])
    let named = Self.body.replacingOccurrences(of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":[{"key":"BOC"}]"#)
    let refused = Self.readAlike(named, provider: pinned, keys: Self.oddKeys)
    #expect(refused.alike && !refused.scanned)
    let asked = Self.readAlike(named.replacingOccurrences(of: "BOC", with: "ECB"), provider: pinned, keys: Self.oddKeys)
    #expect(asked.alike && asked.scanned)
  }

  // More values than the answer's limit: the reader's refusal, whichever reads first.
  @Test func answersPastTheLimitAreTheReaders() {
    let keys = Self.keys(bases: ["EUR"], quotes: ["USD"], from: "2024-03-04", to: "2024-03-04")
    let limit = Self.provider.answerLimit(
      for: RateRequest(url: URL(string: "http://127.0.0.1:9")!, keys: keys), maxStaleness: 0)
    func rows(_ count: Int) -> String {
      "["
        + (0..<count).map {
          #"{"date":"2024-03-04","base":"EUR","quote":"X\#(String(UnicodeScalar(65 + $0 / 26)!))\#(String(UnicodeScalar(65 + $0 % 26)!))","rate":1}"#
        }
        .joined(separator: ",") + "]"
    }
    // Each row is 5 values, the list 1.
    let fits = Self.readAlike(rows((limit - 1) / 5), keys: keys, maxStaleness: 0)
    #expect(fits.alike && fits.scanned)
    let over = Self.readAlike(rows((limit - 1) / 5 + 1), keys: keys, maxStaleness: 0)
    #expect(over.alike && !over.scanned)
  }

  // Random edits of the service's shapes (a byte replaced, dropped or doubled): answered as the reader answers.
  @Test func mutatedAnswersReadAlike() {
    var generator = SplitMix(seed: 34)
    let alphabet = Array(#"0123456789.eE+-"\{}[],: nuAEUSDV"#.utf8)
    let providers = Self.body.replacingOccurrences(
      of: #""rate":1.0851"#, with: #""rate":1.0851,"providers":[{"key":"ECB","rate":1.0851,"excluded":false}]"#)
    var scanned = 0
    for (round, base) in [Self.body, providers].enumerated() {
      for _ in 0..<300 {
        var bytes = Array(base.utf8)
        let at = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 3 {
        case 0: bytes[at] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
        case 1: bytes.remove(at: at)
        default: bytes.insert(bytes[at], at: at)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let result = Self.readAlike(text, keys: Self.oddKeys)
        #expect(result.alike, "round \(round): \(text)")
        if result.scanned { scanned += 1 }
      }
    }
    // Many edits keep the shape (a digit for a digit): the scanner reads those.
    #expect(scanned > 30)
  }

  // The resolver reads each answer as it arrives: the first request's answer waits until the second's has been
  // read (read while the fetch goes on, its body dropped), and answers are taken in request order.
  @Test func answersAreReadAsTheyArrive() {
    let transport = GatedTransport()
    var settings = FetchSettings()
    settings.transport = transport
    settings.jobs = 2
    let resolver = RateResolver(
      source: .provider(Self.provider, settings), sourceTable: nil, tableFailure: nil, maxStaleness: 0,
      today: Self.day("2024-04-02"))
    let requests = ["first", "second"].map { RateRequest(url: URL(string: "http://127.0.0.1:9/\($0)")!, keys: []) }
    var taken: [(Int, String)] = []
    _ = resolver.fetch(
      requests, settings: settings,
      read: { _, result in
        let text = (try? result.get()).map { String(decoding: $0.body, as: UTF8.self) } ?? "failed"
        if text == "second" { transport.gate.signal() }
        return text
      },
      take: { taken.append(($0, $1)) })
    #expect(taken.map(\.0) == [0, 1])
    #expect(taken.map(\.1) == ["first, in time", "second"])
  }
}

/// Answers `/first` once `gate` is signalled (or after 5 s: "late"), `/second` at once.
private final class GatedTransport: HTTPTransport {
  let gate = DispatchSemaphore(value: 0)

  func get(_ url: URL, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
    let gate = self.gate
    DispatchQueue.global().async {
      var text = "second"
      if url.path == "/first" { text = gate.wait(timeout: .now() + 5) == .success ? "first, in time" : "first, late" }
      completion(.success(HTTPResponse(status: 200, headers: [:], body: Data(text.utf8))))
    }
  }
}

/// A seeded generator (SplitMix64), so that a failing edit can be replayed.
private struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
