import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``HTTPTransport`` over one `URLSession` for the whole run (FoundationNetworking on Linux).
///
/// The session allows as many connections per host as the run allows requests in flight (URLSession's
/// default is 6, which would silently cap `--jobs`), never caches, and times a request out after `timeout`
/// seconds without an answer.
public final class URLSessionTransport: HTTPTransport {
  private let session: URLSession

  /// - Parameters:
  ///   - maximumConnections: connections per host, the run's `--jobs`.
  ///   - timeout: seconds a request may wait for its answer.
  public init(maximumConnections: Int, timeout: TimeInterval) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = maximumConnections
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 2
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpAdditionalHeaders = ["User-Agent": "fxbatch/0.1", "Accept": "application/json, application/xml"]
    session = URLSession(configuration: configuration)
  }

  deinit { session.finishTasksAndInvalidate() }

  public func get(_ url: URL, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
    let task = session.dataTask(with: url) { data, response, error in
      // Runs on the session's serial delegate queue: only classify and hand over, never block here.
      if let error {
        let code = (error as? URLError)?.code
        completion(.failure(code == .timedOut ? .timeout : .connection(Self.describe(error))))
        return
      }
      guard let http = response as? HTTPURLResponse else {
        completion(.failure(.connection("no HTTP response")))
        return
      }
      var headers: [String: String] = [:]
      for (name, value) in http.allHeaderFields {
        if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
      }
      completion(.success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())))
    }
    task.resume()
  }

  private static func describe(_ error: Error) -> String {
    guard let urlError = error as? URLError else { return error.localizedDescription }
    switch urlError.code {
    case .cannotConnectToHost: return "connection refused"
    case .networkConnectionLost: return "connection closed without an answer"
    case .cannotFindHost, .dnsLookupFailed: return "host not found"
    case .notConnectedToInternet: return "no network"
    default: return urlError.localizedDescription
    }
  }
}
