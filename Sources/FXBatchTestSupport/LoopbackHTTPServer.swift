import Foundation

/// A scripted HTTP/1.1 server on 127.0.0.1 for tests: real sockets, no outside packages, no internet.
///
/// Each server listens on its own kernel-assigned port, so tests running in parallel each make their own.
/// Every connection is served on its own thread and kept alive across requests, so a delayed or hanging route
/// never holds up another request.
///
/// Routes answer from a script: the first request to a route gets its first ``ScriptedResponse``, the next
/// request the next one, and the last response repeats once the script is used up. A request goes to the
/// route of its exact path (``route(_:_:)``, query ignored); failing that, to the first route added with
/// ``routeMatching(_:_:)`` whose predicate accepts it; failing that, it is answered
/// `404` with the JSON body `{"message":"not found"}`.
///
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// server.route("/rates", [.status(503), .json(#"{"EUR":1}"#)])
/// let url = server.url("/rates?date=2024-01-02")
/// ```
///
/// Request bodies are read by `Content-Length`; chunked request bodies are answered `400`.
public final class LoopbackHTTPServer: Sendable {
  private let core: LoopbackServerCore

  /// Starts a server on 127.0.0.1 at a port the kernel picks.
  ///
  /// - Throws: ``LoopbackHTTPServerError`` when a socket call fails.
  public init() throws {
    core = try LoopbackServerCore()
  }

  deinit { core.stop() }

  /// The TCP port the server listens on.
  public var port: Int { core.port }

  /// `http://127.0.0.1:PORT`, without a trailing slash.
  public var baseURL: URL { URL(string: "http://127.0.0.1:\(core.port)")! }

  /// The URL of a path on this server.
  ///
  /// - Parameter pathAndQuery: a percent-encoded path starting with `/`, optionally with `?` and a query.
  /// - Returns: ``baseURL`` followed by the path.
  public func url(_ pathAndQuery: String) -> URL {
    guard let url = URL(string: baseURL.absoluteString + pathAndQuery) else {
      preconditionFailure("not a percent-encoded path: \(pathAndQuery)")
    }
    return url
  }

  /// Scripts the answers to requests for a path, replacing any earlier script for it.
  ///
  /// - Parameters:
  ///   - path: the path to match exactly, percent-encoded as sent, without the query: `/v1/rates`.
  ///   - responses: the answers in order; the last repeats. An empty script leaves the path unrouted.
  public func route(_ path: String, _ responses: [ScriptedResponse]) {
    core.state.withLock { $0.routes.set(path: path, responses) }
  }

  /// Answers the requests for a path with what a responder computes from each request (a service
  /// implemented in the test, such as ``FrankfurterV2Server``), replacing any earlier script for it.
  ///
  /// - Parameters:
  ///   - path: the path to match exactly, percent-encoded as sent, without the query.
  ///   - responder: the answer to a request. Called while the server's lock is held: it must not call this
  ///     server.
  public func route(_ path: String, responder: @escaping @Sendable (HTTPRequestHead) -> ScriptedResponse) {
    core.state.withLock { $0.routes.set(path: path, responder: responder) }
  }

  /// Scripts the answers to the requests a predicate accepts, for matching on query, method or headers.
  ///
  /// Exact-path routes come first; predicate routes are tried in the order they were added.
  ///
  /// - Parameters:
  ///   - predicate: whether the route takes a request. Called while the server's lock is held: it must not
  ///     call this server.
  ///   - responses: the answers in order; the last repeats.
  public func routeMatching(
    _ predicate: @escaping @Sendable (HTTPRequestHead) -> Bool, _ responses: [ScriptedResponse]
  ) {
    core.state.withLock { $0.routes.add(matching: predicate, responses) }
  }

  /// Stops accepting, closes every connection (hanging ones too) and waits for the server's threads to end.
  ///
  /// Returns within milliseconds. Calling it again does nothing; `deinit` calls it.
  public func stop() { core.stop() }

  /// How many requests the server has read, on all paths, including unrouted ones.
  public var requestCount: Int { core.state.withLock { $0.requests.count } }

  /// How many requests the server has read for a path.
  ///
  /// - Parameter path: the path without the query, percent-encoded as sent.
  /// - Returns: the number of requests.
  public func requestCount(path: String) -> Int {
    core.state.withLock { $0.requests.count { $0.path == path } }
  }

  /// The most requests in progress at one time: counted from the request read to its answer written, or to
  /// the connection's end for answers that drop or hang.
  public var peakConcurrentRequests: Int { core.state.withLock { $0.peakInFlight } }

  /// How many connections the server has accepted: fewer than ``requestCount`` when clients keep them alive.
  public var connectionCount: Int { core.state.withLock { $0.accepted } }

  /// The requests read so far, in the order they were read.
  public var requests: [HTTPRequestHead] { core.state.withLock { $0.requests } }
}
