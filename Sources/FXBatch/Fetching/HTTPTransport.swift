import Foundation

/// An HTTP answer: status, headers (names lower-cased) and body.
public struct HTTPResponse: Sendable {
  public let status: Int
  /// Header fields by lower-cased name.
  public let headers: [String: String]
  public let body: Data

  public init(status: Int, headers: [String: String], body: Data) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// Why no HTTP answer arrived.
public enum TransportError: Error, Equatable, Sendable {
  /// No answer within the request timeout.
  case timeout
  /// The answer came slower than the transport's minimum rate: fewer than `bytesPerSecond` for `seconds`.
  case tooSlow(bytesPerSecond: Int, seconds: Int)
  /// The connection could not be made or broke (refused, reset, closed without an answer, DNS failure).
  case connection(String)
  /// The answer's body grew past the transport's limit (bytes); it was cut off, not buffered.
  case tooLarge(limit: Int)
  /// The answer's header fields grew past the transport's limit (bytes); the transfer was stopped.
  case headersTooLarge(limit: Int)
  /// The server redirected to another origin, which is not followed.
  case redirected(to: String)
  /// The server's answer cannot be used and asking again would not change that: not HTTP, a redirect loop, a
  /// compression that cannot be decoded.
  case unusable(String)
}

/// Sends GET requests: the seam between the fetch engine and the network, so tests drive the same engine
/// over a loopback server.
public protocol HTTPTransport: Sendable {
  /// Starts a GET request and calls `completion` once, on any thread, with the answer or the failure.
  /// Implementations must not block the caller.
  func get(_ url: URL, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void)

  /// Starts a GET request that ends, answered or not, by `deadline` (the run's fetch deadline): its own
  /// timeout is cut to the time left. `nil`: no limit but the transport's timeout.
  func get(
    _ url: URL, before deadline: ContinuousClock.Instant?,
    completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void)
}

extension HTTPTransport {
  /// A transport without a deadline of its own: the fetch engine still stops waiting for retries at the
  /// deadline, but an attempt in flight runs to its timeout.
  public func get(
    _ url: URL, before deadline: ContinuousClock.Instant?,
    completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
  ) {
    get(url, completion: completion)
  }
}
