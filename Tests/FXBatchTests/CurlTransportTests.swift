import FXBatch
import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

/// The libcurl transport on its own, against the loopback server: answers, limits, redirects, timeouts,
/// connection reuse and the bound on transfers at once.
@Suite("CurlTransport", .tags(.sanitized))
struct CurlTransportTests {
  /// One GET, waited for.
  static func get(_ url: URL, on transport: CurlTransport) -> Result<HTTPResponse, TransportError> {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<HTTPResponse, TransportError>?>(nil)
    transport.get(url) { answer in
      result.withLock { $0 = answer }
      done.signal()
    }
    done.wait()
    return result.withLock { $0! }
  }

  /// The failure of one GET, or `nil` when it was answered.
  static func failure(_ url: URL, on transport: CurlTransport) -> TransportError? {
    guard case .failure(let error) = get(url, on: transport) else { return nil }
    return error
  }

  @Test func answersWithStatusLowerCasedHeadersAndBody() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/a", [.json(#"{"ok":true}"#, status: 203, headers: ["X-Rate-Day": "2024-03-01"])])
    let transport = CurlTransport(maximumConnections: 2, timeout: 5)
    let response = try Self.get(server.url("/a"), on: transport).get()
    #expect(response.status == 203)
    #expect(response.headers["x-rate-day"] == "2024-03-01")
    #expect(response.headers["content-type"] == "application/json")
    #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
    let request = try #require(server.requests.first)
    #expect(request.header("user-agent") == "fxbatch/0.1")
    #expect(request.header("accept") == "application/json, application/xml")
  }

  /// A gzip answer arrives decoded; the limit counts the decoded bytes (the bomb test measures memory).
  @Test func gzipAnswersAreDecoded() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let compressed = try HostileHTTPMemoryTests.gzipBomb(megabytes: 1)
    server.route("/small", [ScriptedResponse(headers: ["Content-Encoding": "gzip"], body: compressed)])
    let big = try HostileHTTPMemoryTests.gzipBomb(megabytes: 33)
    server.route("/big", [ScriptedResponse(headers: ["Content-Encoding": "gzip"], body: big)])
    let transport = CurlTransport(maximumConnections: 1, timeout: 5)
    let response = try Self.get(server.url("/small"), on: transport).get()
    #expect(response.body == Data(repeating: 0x20, count: 1 << 20))
    #expect(Self.failure(server.url("/big"), on: transport) == .tooLarge(limit: 32 << 20))
  }

  /// A `Content-Length` over the limit is refused before the body is read; an answer of exactly the limit is
  /// taken whole.
  @Test func bodyLimitIsExact() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/limit", [ScriptedResponse(body: Data(repeating: 0x41, count: 32 << 20))])
    server.route("/over", [ScriptedResponse(body: Data(repeating: 0x41, count: (32 << 20) + 1))])
    let transport = CurlTransport(maximumConnections: 1, timeout: 10)
    #expect(try Self.get(server.url("/limit"), on: transport).get().body.count == 32 << 20)
    #expect(Self.failure(server.url("/over"), on: transport) == .tooLarge(limit: 32 << 20))
  }

  @Test func sameOriginRedirectsAreFollowedOthersRefused() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/old", [.status(301, headers: ["Location": "/new"])])
    server.route("/new", [.text("moved here")])
    server.route("/away", [.status(302, headers: ["Location": "http://localhost:\(server.port)/new"])])
    server.route("/loop", Array(repeating: .status(307, headers: ["Location": "/loop"]), count: 10))
    let transport = CurlTransport(maximumConnections: 1, timeout: 5)
    #expect(try String(decoding: Self.get(server.url("/old"), on: transport).get().body, as: UTF8.self) == "moved here")
    // localhost is another host name than 127.0.0.1: another origin, even on the same machine.
    #expect(Self.failure(server.url("/away"), on: transport) == .redirected(to: "http://localhost:\(server.port)/new"))
    #expect(Self.failure(server.url("/loop"), on: transport) == .unusable("more than 5 redirects"))
    #expect(server.requestCount(path: "/loop") == 6)
  }

  /// Sub-second timeouts hold (FoundationNetworking truncated them to whole seconds).
  @Test(.timeLimit(.minutes(1)))
  func timeoutsEndHungAndDrippingServers() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/hang", [.neverAnswer])
    server.route("/drip", [.endless(Data("x".utf8))])  // a steady stream that never ends inside the limit
    server.route("/late", [.text("late", delay: .seconds(2))])
    let transport = CurlTransport(maximumConnections: 1, timeout: 0.3)
    let started = ContinuousClock.now
    #expect(Self.failure(server.url("/hang"), on: transport) == .timeout)
    #expect(Self.failure(server.url("/late"), on: transport) == .timeout)
    #expect(ContinuousClock.now - started < .seconds(1.5))
    let slow = CurlTransport(maximumConnections: 1, timeout: 0.3)
    let dripped = Self.failure(server.url("/drip"), on: slow)
    #expect(dripped == .timeout || dripped == .tooLarge(limit: 32 << 20))
  }

  @Test func connectionFailuresSayWhatHappened() throws {
    let server = try LoopbackHTTPServer()
    server.route("/drop", [.closeWithoutAnswer])
    server.route("/half", [.partialBody("0123456789")])
    let transport = CurlTransport(maximumConnections: 1, timeout: 5)
    #expect(Self.failure(server.url("/drop"), on: transport) == .connection("connection closed without an answer"))
    #expect(
      Self.failure(server.url("/half"), on: transport) == .connection("connection closed before the whole answer arrived"))
    let closed = server.url("/x")
    server.stop()
    // The address that refused is named: with a proxy in the environment it is the proxy's.
    #expect(Self.failure(closed, on: transport) == .connection("connection refused (127.0.0.1 port \(server.port))"))
    // Only http and https are spoken.
    let ftp = Self.failure(URL(string: "ftp://127.0.0.1/x")!, on: transport)
    guard case .connection(let reason) = ftp else {
      Issue.record("ftp: \(String(describing: ftp))")
      return
    }
    #expect(reason.lowercased().contains("protocol"), "\(reason)")
  }

  /// Requests beyond `maximumConnections` wait for a worker; each worker keeps its connection alive.
  @Test func transfersAtOnceAreBoundedAndConnectionsReused() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.routeMatching({ $0.path.hasPrefix("/r/") }, [.text("ok", delay: .milliseconds(50))])
    let transport = CurlTransport(maximumConnections: 3, timeout: 5)
    let group = DispatchGroup()
    let statuses = Mutex<[Int]>([])
    for index in 0..<24 {
      group.enter()
      transport.get(server.url("/r/\(index)")) { result in
        statuses.withLock { $0.append((try? result.get().status) ?? -1) }
        group.leave()
      }
    }
    group.wait()
    #expect(statuses.withLock { $0 } == Array(repeating: 200, count: 24))
    #expect(server.peakConcurrentRequests <= 3)
    #expect(server.peakConcurrentRequests >= 2)
    #expect(server.connectionCount <= 3, "connections were not reused: \(server.connectionCount)")
  }
}
