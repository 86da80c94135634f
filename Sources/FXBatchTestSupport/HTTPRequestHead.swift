import Foundation

/// A request as ``LoopbackHTTPServer`` received it, for assertions in tests.
public struct HTTPRequestHead: Sendable, Equatable {
  /// The method, such as `GET` or `POST`, as sent.
  public var method: String
  /// The path of the request target, percent-encoded as sent, without the query: `/v1/latest`.
  public var path: String
  /// The query of the request target, as sent, without the `?`; `nil` when the target has no `?`.
  public var query: String?
  /// The protocol version from the request line, such as `HTTP/1.1`.
  public var version: String
  /// Header fields by lowercased name (`accept`, `user-agent`); repeated fields are joined with `, `.
  public var headers: [String: String]
  /// The body, as many bytes as `Content-Length` announced; empty without one.
  public var body: Data

  /// A request from its parts.
  public init(
    method: String, path: String, query: String? = nil, version: String = "HTTP/1.1",
    headers: [String: String] = [:], body: Data = Data()
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.version = version
    self.headers = headers
    self.body = body
  }

  /// The request target as sent: the path, then `?` and the query if there is one.
  public var target: String { query.map { "\(path)?\($0)" } ?? path }

  /// The query's name–value pairs, percent-decoded; empty without a query.
  public var queryItems: [URLQueryItem] {
    guard let query else { return [] }
    var components = URLComponents()
    components.percentEncodedQuery = query
    return components.queryItems ?? []
  }

  /// The value of a header field.
  ///
  /// - Parameter name: the field name, in any case.
  /// - Returns: the value, or `nil` when the request did not have the field.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }

  /// Whether the client asked to close the connection after this request (`Connection: close`, or HTTP/1.0
  /// without `Connection: keep-alive`).
  var asksToClose: Bool {
    let connection = header("connection")?.lowercased() ?? ""
    if connection.contains("close") { return true }
    return version == "HTTP/1.0" && !connection.contains("keep-alive")
  }
}
