import FXBatch
import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

/// The run's fetch deadline (`--deadline`) and the transport's minimum transfer rate, against loopback servers
/// that refuse, hang or drip. Bounds are generous (a loaded 2-core machine, a debug build); what they catch is a
/// run that waits out `Retry-After`, every retry or every `--timeout`.
@Suite("Fetch deadline and minimum transfer rate")
struct FetchDeadlineTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// 24 currencies, one calculator request each (USD → each).
  static let currencies = [
    "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "RON", "TRY", "INR", "CNY",
    "HKD", "SGD", "KRW", "MXN", "BRL", "ZAR", "THB",
  ]

  static func fetch(_ urls: [URL], jobs: Int, timeout: TimeInterval, deadline: FetchDeadline) -> [Result<
    HTTPResponse, FetchError
  >] {
    let fetcher = RateFetcher(
      transport: CurlTransport(maximumConnections: jobs, timeout: timeout), jobs: jobs, timeout: timeout,
      retryPolicy: RetryPolicy(retries: 3, baseDelay: 0.05), deadline: deadline)
    return fetcher.fetch(urls).results
  }

  /// The failure of a fetch, or `nil` when it was answered.
  static func failure(_ result: Result<HTTPResponse, FetchError>) -> FetchError? {
    guard case .failure(let error) = result else { return nil }
    return error
  }

  // Issue 30: 503 with Retry-After: 999999 made each request wait the 30 s cap three times: 24 requests at 8 at
  // once took 270 s. A wait that would pass the deadline is not made: the key fails at once, naming both.
  // Delay-seconds past Int (99999999999999999999) were ignored: each key was asked four times in 2 s.
  @Test(.timeLimit(.minutes(1)), arguments: ["999999", "99999999999999999999"])
  func aRetryAfterPastTheDeadlineIsNotWaited(retryAfter: String) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.routeMatching({ $0.path.hasPrefix("/r/") }, [.status(503, headers: ["Retry-After": retryAfter])])
    let started = ContinuousClock.now
    let results = Self.fetch(
      (0..<24).map { server.url("/r/\($0)") }, jobs: 8, timeout: 10, deadline: FetchDeadline(seconds: 3))
    #expect(ContinuousClock.now - started < .seconds(15))
    #expect(server.requestCount == 24, "each asked once: no retry fits")
    for result in results {
      guard case .failure(let error) = result else {
        Issue.record("answered: \(result)")
        continue
      }
      #expect(
        error.rowError
          == RowError(
            .timeout, "HTTP 503 (Retry-After: \(retryAfter)); the fetch deadline (--deadline 3 s) leaves no time to retry"))
    }
  }

  // A hung server with a long --timeout: the attempts in flight end at the deadline, the requests waiting for a
  // permit are never sent.
  @Test(.timeLimit(.minutes(1)))
  func attemptsEndAtTheDeadlineAndTheRestIsNotSent() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.routeMatching({ $0.path.hasPrefix("/r/") }, [.neverAnswer])
    let started = ContinuousClock.now
    let results = Self.fetch((0..<6).map { server.url("/r/\($0)") }, jobs: 2, timeout: 60, deadline: FetchDeadline(seconds: 2))
    let elapsed = ContinuousClock.now - started
    #expect(elapsed >= .seconds(1.9) && elapsed < .seconds(12), "\(elapsed)")
    #expect(server.requestCount == 2)
    let failures = results.map(Self.failure)
    let inFlight = FetchError.deadline(seconds: 2, attempts: 1, last: nil, retryAfter: nil)
    let notSent = FetchError.deadline(seconds: 2, attempts: 0, last: nil, retryAfter: nil)
    #expect(failures.filter { $0 == inFlight }.count == 2, "\(failures)")
    #expect(failures.filter { $0 == notSent }.count == 4, "\(failures)")
    #expect(inFlight.rowError == RowError(.timeout, "no answer within the fetch deadline (--deadline 2 s)"))
    #expect(notSent.rowError == RowError(.timeout, "not sent: the fetch deadline (--deadline 2 s) had passed"))
  }

  // The deadline is the run's: a second fetch after it passed sends nothing.
  @Test func aPassedDeadlineSendsNothingMore() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/a", [.text("ok")])
    let deadline = FetchDeadline(seconds: 0.2)
    #expect(try Self.fetch([server.url("/a")], jobs: 1, timeout: 5, deadline: deadline)[0].get().status == 200)
    Thread.sleep(forTimeInterval: 0.3)
    let late = Self.fetch([server.url("/a")], jobs: 1, timeout: 5, deadline: deadline)
    #expect(late.map(Self.failure) == [.deadline(seconds: 0.2, attempts: 0, last: nil, retryAfter: nil)])
    #expect(server.requestCount == 1)
  }

  // A server dripping a byte a second: cut by the minimum rate (1 KB/s over 5 s), not held for the 60 s timeout.
  @Test(.timeLimit(.minutes(1)))
  func aDrippingAnswerIsCutByTheMinimumRate() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/drip", [.drip(String(repeating: "x", count: 120), every: .seconds(1))])
    let transport = CurlTransport(maximumConnections: 1, timeout: 60)
    let started = ContinuousClock.now
    let failure = CurlTransportTests.failure(server.url("/drip"), on: transport)
    let elapsed = ContinuousClock.now - started
    #expect(failure == .tooSlow(bytesPerSecond: 1024, seconds: 5))
    #expect(elapsed >= .seconds(4) && elapsed < .seconds(20), "\(elapsed)")
    #expect(
      FetchError.tooSlow(bytesPerSecond: 1024, seconds: 5, attempts: 2).rowError
        == RowError(.timeout, "the answer came slower than 1024 bytes per second for 5 s after 2 attempts"))
  }

  // A transfer's own timeout is cut to the time left before the deadline.
  @Test(.timeLimit(.minutes(1)))
  func aTransferEndsByTheDeadline() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/hang", [.neverAnswer])
    let transport = CurlTransport(maximumConnections: 1, timeout: 60)
    let started = ContinuousClock.now
    let done = DispatchSemaphore(value: 0)
    let outcome = LockedBox<Result<HTTPResponse, TransportError>?>(nil)
    transport.get(server.url("/hang"), before: started.advanced(by: .seconds(1))) { result in
      outcome.set(result)
      done.signal()
    }
    done.wait()
    let elapsed = ContinuousClock.now - started
    #expect(outcome.get().map { (try? $0.get()) == nil } == true)
    if case .failure(let error)? = outcome.get() { #expect(error == .timeout) }
    #expect(elapsed >= .seconds(0.9) && elapsed < .seconds(10), "\(elapsed)")
  }

  // The issue's run end to end: 24 records in 24 currencies against a server answering 503 with Retry-After:
  // 999999, and against one that never answers (--timeout 60): both end within about the deadline, every record
  // `timeout` naming it.
  @Test(.timeLimit(.minutes(2)))
  func convertEndsByTheDeadline() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/busy/ig/calculator", [.status(503, headers: ["Retry-After": "999999"])])
    server.route("/hung/ig/calculator", [.neverAnswer])
    try directory.write(
      "in.csv", "date,amount,from,to\n" + Self.currencies.map { "2026-11-29,100,USD,\($0)\n" }.joined())
    for (path, message) in [
      ("busy", "HTTP 503 (Retry-After: 999999); the fetch deadline (--deadline 3 s) leaves no time to retry"),
      ("hung", "the fetch deadline (--deadline 3 s)"),
    ] {
      let started = ContinuousClock.now
      let result = try cli.run(
        [
          "convert", "-q", "--source", "calculator", "--endpoint", server.url("/\(path)/ig/calculator").absoluteString,
          "--no-cache", "--timeout", "60", "--deadline", "3", "-o", "-", "in.csv",
        ], in: directory.url)
      let elapsed = ContinuousClock.now - started
      #expect(elapsed < .seconds(15), "\(path): \(elapsed)")
      #expect(result.status == 3)
      let rows = result.standardOutput.split(separator: "\n").dropFirst()
      #expect(rows.count == 24)
      for row in rows {
        #expect(row.contains(",error,timeout: ") && row.contains(message), "\(path): \(row)")
      }
    }
  }

  // The dripping server end to end: the record fails with timeout naming the minimum rate, long before --timeout.
  @Test(.timeLimit(.minutes(1)))
  func convertCutsADrippingAnswer() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route(
      "/ig/calculator",
      [.drip(#"{lhs: "1 U.S. dollar",rhs: "0.9216 Euros",error: "",icc: true}"#, every: .seconds(1))])
    try directory.write("in.csv", "date,amount,from,to\n2026-11-29,100,USD,EUR\n")
    let started = ContinuousClock.now
    let result = try cli.run(
      [
        "convert", "-q", "--source", "calculator", "--endpoint", server.url("/ig/calculator").absoluteString, "--no-cache",
        "--timeout", "60", "--retries", "0", "-o", "-", "in.csv",
      ], in: directory.url)
    #expect(ContinuousClock.now - started < .seconds(20))
    #expect(
      result.standardOutput.contains(",error,timeout: the answer came slower than 1024 bytes per second for 5 s\n"),
      "\(result.standardOutput)")
  }

  // rates update shares the engine and the option; a usage error for a bad value or a source without network.
  @Test(.timeLimit(.minutes(1)))
  func ratesCommandsTakeTheDeadline() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/eurofxref-hist.xml", [.neverAnswer])
    let started = ContinuousClock.now
    let update = try cli.run(
      ["rates", "update", "--endpoint", server.baseURL.absoluteString + "/", "--cache-dir", "cache", "--deadline", "2"],
      in: directory.url)
    #expect(ContinuousClock.now - started < .seconds(15))
    #expect(update.status == 3)
    #expect(
      update.standardError.contains("timeout: no answer within the fetch deadline (--deadline 2 s)"), "\(update.standardError)")
    for arguments in [
      ["convert", "--deadline", "0", "in.csv"], ["convert", "--deadline", "soon", "in.csv"],
      ["convert", "--source", "embedded", "--deadline", "5", "in.csv"],
      ["rates", "currencies", "--source", "embedded", "--deadline", "5"],
    ] {
      let refused = try cli.run(arguments, in: directory.url)
      #expect(refused.status == 64, "\(arguments)")
      #expect(refused.standardError.contains("--deadline"), "\(arguments): \(refused.standardError)")
    }
  }
}

/// A value set by one thread and read by another.
private final class LockedBox<Value: Sendable>: Sendable {
  private let storage: Mutex<Value>
  init(_ value: Value) { storage = Mutex(value) }
  func set(_ value: Value) { storage.withLock { $0 = value } }
  func get() -> Value { storage.withLock { $0 } }
}
