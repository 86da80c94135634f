import Foundation

/// One scripted answer of ``LoopbackHTTPServer``: what to send for one request, after how long, or how to misbehave.
///
/// The server always adds `Content-Length` (the byte count of ``body``) and `Connection` (`keep-alive`, or `close`
/// when the answer closes the connection); values given for those two names in ``headers`` are not sent, except
/// that `Connection: close` makes the server close the connection after answering.
public struct ScriptedResponse: Sendable, Equatable {
  /// How the server answers a request.
  public enum Action: Sendable, Equatable {
    /// Sends status line, headers and body, then keeps the connection open for the next request.
    case respond
    /// Closes the connection without sending anything, as a dropped connection would.
    case closeWithoutAnswer
    /// Sends nothing and holds the connection open until the client closes it or the server stops, as a hung
    /// server would. Does not delay ``LoopbackHTTPServer/stop()``.
    case neverAnswer
    /// Sends the headers with the full `Content-Length` but only the first half of the body (rounded down),
    /// then closes the connection, as a transfer cut off midway would.
    case partialBody
    /// Sends the status line and headers without `Content-Length`, then ``ScriptedResponse/body`` over and over
    /// until the client closes the connection or the server stops, as a server streaming without end would.
    case endlessBody
    /// Sends the status line, then header fields without end (1 KB each) until the client closes the connection
    /// or the server stops.
    case endlessHeaders
    /// Sends the status line and headers with the full `Content-Length`, then the body one byte at a time, each
    /// after the interval, as a server dripping its answer would.
    case dripBody(interval: Duration)
  }

  /// The HTTP status code, such as 200 or 503.
  public var status: Int
  /// Header fields to send, by name as written.
  public var headers: [String: String]
  /// The body bytes.
  public var body: Data
  /// How long the server waits after reading the request before answering (or misbehaving).
  public var delay: Duration
  /// How the server answers.
  public var action: Action

  /// A response from its parts.
  ///
  /// - Parameters:
  ///   - status: the HTTP status code.
  ///   - headers: header fields to send, by name as written.
  ///   - body: the body bytes.
  ///   - delay: how long to wait before answering.
  ///   - action: how to answer; ``Action/respond`` sends the response normally.
  public init(
    status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Duration = .zero,
    action: Action = .respond
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.delay = delay
    self.action = action
  }

  /// A JSON body with `Content-Type: application/json`.
  ///
  /// - Parameters:
  ///   - string: the JSON text, sent as UTF-8.
  ///   - status: the HTTP status code.
  ///   - headers: further header fields.
  ///   - delay: how long to wait before answering.
  /// - Returns: the response.
  public static func json(
    _ string: String, status: Int = 200, headers: [String: String] = [:], delay: Duration = .zero
  ) -> ScriptedResponse {
    typed(string, contentType: "application/json", status: status, headers: headers, delay: delay)
  }

  /// A plain text body with `Content-Type: text/plain; charset=utf-8`.
  ///
  /// - Parameters:
  ///   - string: the text, sent as UTF-8.
  ///   - status: the HTTP status code.
  ///   - headers: further header fields.
  ///   - delay: how long to wait before answering.
  /// - Returns: the response.
  public static func text(
    _ string: String, status: Int = 200, headers: [String: String] = [:], delay: Duration = .zero
  ) -> ScriptedResponse {
    typed(string, contentType: "text/plain; charset=utf-8", status: status, headers: headers, delay: delay)
  }

  /// An XML body with `Content-Type: application/xml`.
  ///
  /// - Parameters:
  ///   - string: the XML text, sent as UTF-8.
  ///   - status: the HTTP status code.
  ///   - headers: further header fields.
  ///   - delay: how long to wait before answering.
  /// - Returns: the response.
  public static func xml(
    _ string: String, status: Int = 200, headers: [String: String] = [:], delay: Duration = .zero
  ) -> ScriptedResponse {
    typed(string, contentType: "application/xml", status: status, headers: headers, delay: delay)
  }

  /// A response with an empty body.
  ///
  /// - Parameters:
  ///   - code: the HTTP status code.
  ///   - headers: header fields, such as `Retry-After` or `Location`.
  ///   - delay: how long to wait before answering.
  /// - Returns: the response.
  public static func status(
    _ code: Int, headers: [String: String] = [:], delay: Duration = .zero
  ) -> ScriptedResponse {
    ScriptedResponse(status: code, headers: headers, delay: delay)
  }

  /// Closes the connection without an answer (``Action/closeWithoutAnswer``).
  public static var closeWithoutAnswer: ScriptedResponse { ScriptedResponse(action: .closeWithoutAnswer) }

  /// Never answers (``Action/neverAnswer``).
  public static var neverAnswer: ScriptedResponse { ScriptedResponse(action: .neverAnswer) }

  /// Sends the headers and half of a body, then closes the connection (``Action/partialBody``).
  ///
  /// - Parameters:
  ///   - string: the whole body, sent as UTF-8; `Content-Length` announces all of it.
  ///   - status: the HTTP status code.
  /// - Returns: the response.
  public static func partialBody(_ string: String, status: Int = 200) -> ScriptedResponse {
    ScriptedResponse(status: status, body: Data(string.utf8), action: .partialBody)
  }

  /// A body without end: `chunk` sent again and again after headers without `Content-Length`
  /// (``Action/endlessBody``).
  ///
  /// - Parameters:
  ///   - chunk: the bytes repeated; must not be empty.
  ///   - headers: header fields to send, such as `Content-Type`.
  /// - Returns: the response.
  public static func endless(_ chunk: Data, headers: [String: String] = [:]) -> ScriptedResponse {
    precondition(!chunk.isEmpty, "an endless body needs bytes to repeat")
    return ScriptedResponse(headers: headers, body: chunk, action: .endlessBody)
  }

  /// The body one byte per interval after the headers (``Action/dripBody(interval:)``).
  ///
  /// - Parameters:
  ///   - string: the whole body, sent as UTF-8; `Content-Length` announces all of it.
  ///   - interval: the wait before each byte.
  /// - Returns: the response.
  public static func drip(_ string: String, every interval: Duration) -> ScriptedResponse {
    ScriptedResponse(body: Data(string.utf8), action: .dripBody(interval: interval))
  }

  /// Header fields without end (``Action/endlessHeaders``).
  public static var endlessHeaders: ScriptedResponse { ScriptedResponse(action: .endlessHeaders) }

  /// This response, answered after a delay instead.
  ///
  /// - Parameter delay: how long to wait before answering.
  /// - Returns: the response with ``delay`` replaced.
  public func delayed(by delay: Duration) -> ScriptedResponse {
    var copy = self
    copy.delay = delay
    return copy
  }

  private static func typed(
    _ string: String, contentType: String, status: Int, headers: [String: String], delay: Duration
  ) -> ScriptedResponse {
    var all = ["Content-Type": contentType]
    all.merge(headers) { _, given in given }
    return ScriptedResponse(status: status, headers: all, body: Data(string.utf8), delay: delay)
  }
}
