import Dispatch
import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The loopback HTTP server that fetching tests run against, exercised with a real `URLSession`.
///
/// Requests are waited for with semaphores rather than `await`: synchronous tests elsewhere in the run (the
/// end-to-end ones) occupy the concurrency pool's threads, and an awaiting test would then stall for seconds.
@Suite("LoopbackHTTPServer")
struct LoopbackHTTPServerTests {
  let server: LoopbackHTTPServer

  init() throws { server = try LoopbackHTTPServer() }

  /// An ephemeral session with a request timeout and a connection limit per host.
  ///
  /// FoundationNetworking on Linux truncates the timeout to whole seconds (`Int(timeoutInterval) * 1000` ms):
  /// below one second it times out at once.
  static func session(timeout: TimeInterval = 5, connections: Int = 6) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    configuration.httpMaximumConnectionsPerHost = connections
    return URLSession(configuration: configuration)
  }

  /// Fetches a request and waits for the body and the HTTP response.
  static func fetch(_ request: URLRequest, in session: URLSession) throws -> (Data, HTTPURLResponse) {
    try PendingFetch(request, in: session).wait()
  }

  static func fetch(_ url: URL, in session: URLSession) throws -> (Data, HTTPURLResponse) {
    try fetch(URLRequest(url: url), in: session)
  }

  @Test func jsonRouteAnswersWithBodyAndHeaders() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.route("/latest", [.json(#"{"base":"EUR","rates":{"USD":1.0856}}"#, headers: ["X-Source": "test"])])

    let (data, response) = try Self.fetch(server.url("/latest?symbols=USD"), in: session)

    #expect(response.statusCode == 200)
    #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(response.value(forHTTPHeaderField: "X-Source") == "test")
    #expect(String(decoding: data, as: UTF8.self) == #"{"base":"EUR","rates":{"USD":1.0856}}"#)
    let request = try #require(server.requests.first)
    #expect(request.method == "GET")
    #expect(request.path == "/latest")
    #expect(request.query == "symbols=USD")
    #expect(request.queryItems == [URLQueryItem(name: "symbols", value: "USD")])
    #expect(request.header("Host") == "127.0.0.1:\(server.port)")
    #expect(server.requestCount(path: "/latest") == 1)
  }

  @Test func successiveRequestsPlayTheScriptAndRepeatTheLastResponse() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.route("/flaky", [.status(500), .text("ok")])

    var statuses: [Int] = []
    for _ in 0..<3 { statuses.append(try Self.fetch(server.url("/flaky"), in: session).1.statusCode) }

    #expect(statuses == [500, 200, 200])
    #expect(server.requestCount(path: "/flaky") == 3)
    #expect(server.requestCount == 3)
    #expect(server.connectionCount == 1, "URLSession should keep the connection alive")
  }

  @Test func unknownPathIsNotFoundWithJSONMessage() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.route("/known", [.text("known")])

    let (data, response) = try Self.fetch(server.url("/unknown"), in: session)

    #expect(response.statusCode == 404)
    #expect(String(decoding: data, as: UTF8.self) == #"{"message":"not found"}"#)
    #expect(server.requestCount(path: "/unknown") == 1)
  }

  @Test func predicateRouteMatchesQueryAndPostBodyIsRecorded() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.routeMatching({ $0.path == "/rates" && $0.query == "date=2024-01-02" }, [.xml("<rates/>")])
    var request = URLRequest(url: server.url("/rates?date=2024-01-02"))
    request.httpMethod = "POST"
    request.httpBody = Data(repeating: UInt8(ascii: "a"), count: 5000)  // large enough for Expect: 100-continue

    let (data, response) = try Self.fetch(request, in: session)
    let (_, other) = try Self.fetch(server.url("/rates?date=2024-01-03"), in: session)

    #expect(response.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self) == "<rates/>")
    #expect(other.statusCode == 404)
    #expect(server.requests.first?.method == "POST")
    #expect(server.requests.first?.body.count == 5000)
  }

  @Test func delayedResponseTakesAtLeastTheDelay() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.route("/slow", [.json("{}", delay: .milliseconds(300))])

    let start = ContinuousClock.now
    let (_, response) = try Self.fetch(server.url("/slow"), in: session)

    #expect(response.statusCode == 200)
    #expect(ContinuousClock.now - start >= .milliseconds(300))
  }

  @Test func closeWithoutAnswerGivesURLError() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.route("/drop", [.closeWithoutAnswer])

    #expect(throws: URLError.self) { try Self.fetch(server.url("/drop"), in: session) }
    #expect(server.requestCount(path: "/drop") >= 1)
  }

  @Test func neverAnswerTimesOutAndStopStillReturnsPromptly() throws {
    let session = Self.session(timeout: 1)  // the shortest timeout FoundationNetworking honours
    defer { session.finishTasksAndInvalidate() }
    server.route("/hang", [.neverAnswer])

    let requested = ContinuousClock.now
    let error = #expect(throws: URLError.self) { try Self.fetch(server.url("/hang"), in: session) }
    #expect(error?.code == .timedOut)
    #expect(ContinuousClock.now - requested >= .milliseconds(900))

    // A second hanging request whose connection is still open when the server stops.
    let patient = Self.session(timeout: 10)
    defer { patient.finishTasksAndInvalidate() }
    let hanging = PendingFetch(URLRequest(url: server.url("/hang")), in: patient)
    let deadline = ContinuousClock.now + .seconds(5)
    while server.requestCount(path: "/hang") < 2, ContinuousClock.now < deadline { usleep(5000) }
    #expect(server.requestCount(path: "/hang") == 2)
    let start = ContinuousClock.now
    server.stop()
    server.stop()
    #expect(ContinuousClock.now - start < .milliseconds(500))
    #expect(throws: URLError.self) { try hanging.wait() }
  }

  @Test func concurrentDelayedRequestsOverlap() throws {
    defer { server.stop() }
    let session = Self.session(connections: 16)
    defer { session.finishTasksAndInvalidate() }
    server.route("/concurrent", [.json("{}", delay: .milliseconds(200))])

    let fetches = (0..<16).map { _ in PendingFetch(URLRequest(url: server.url("/concurrent")), in: session) }
    let statuses = try fetches.map { try $0.wait().1.statusCode }

    #expect(statuses == Array(repeating: 200, count: 16))
    #expect(server.requestCount == 16)
    #expect(server.peakConcurrentRequests > 1)
  }

  @Test func partialBodyGivesAnErrorOrAShortBody() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    let body = String(repeating: "0123456789", count: 100)
    server.route("/partial", [.partialBody(body)])

    do {
      let (data, _) = try Self.fetch(server.url("/partial"), in: session)
      #expect(data.count < body.utf8.count)
    } catch {
      #expect(error is URLError)
    }
  }

  @Test func connectionCloseAnswerIsDeliveredWhole() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.route("/bye", [.text("bye", headers: ["Connection": "close"])])

    for _ in 0..<2 {
      let (data, response) = try Self.fetch(server.url("/bye"), in: session)
      #expect(response.statusCode == 200)
      #expect(String(decoding: data, as: UTF8.self) == "bye")
    }
    #expect(server.connectionCount == 2)
  }

  @Test func sequentialRequestsOnAKeptAliveConnectionAreFast() throws {
    defer { server.stop() }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    server.route("/quick", [.json(#"{"ok":true}"#)])

    var durations: [Duration] = []
    for _ in 0..<50 {
      let start = ContinuousClock.now
      _ = try Self.fetch(server.url("/quick"), in: session)
      durations.append(ContinuousClock.now - start)
    }

    // Head and body go out in one write: split writes stall all but the first request about 40 ms on Nagle's
    // algorithm and delayed ACKs (measured: median 44 ms; one write: under 1 ms, about 1.3 ms on a loaded
    // machine). The median, not the total, so a few slow requests on a busy machine do not fail the test.
    #expect(durations.sorted()[durations.count / 2] < .milliseconds(20))
    #expect(server.requestCount(path: "/quick") == 50)
    #expect(server.connectionCount == 1)
  }
}

/// A data task started at once, whose outcome a test waits for on its own thread.
private final class PendingFetch: Sendable {
  private let outcome = Mutex<Result<(Data, HTTPURLResponse), any Error>?>(nil)
  private let finished = DispatchSemaphore(value: 0)

  init(_ request: URLRequest, in session: URLSession) {
    session.dataTask(with: request) { [self] data, response, error in
      let result: Result<(Data, HTTPURLResponse), any Error>
      if let error {
        result = .failure(error)
      } else if let response = response as? HTTPURLResponse {
        result = .success((data ?? Data(), response))
      } else {
        result = .failure(URLError(.badServerResponse))
      }
      outcome.withLock { $0 = result }
      finished.signal()
    }.resume()
  }

  /// The body and response, or the task's error.
  ///
  /// - Throws: the task's error; `URLError(.timedOut)` when it has not finished after 15 seconds.
  func wait() throws -> (Data, HTTPURLResponse) {
    guard finished.wait(timeout: .now() + 15) == .success else { throw URLError(.timedOut) }
    return try outcome.withLock { $0 ?? .failure(URLError(.unknown)) }.get()
  }
}
