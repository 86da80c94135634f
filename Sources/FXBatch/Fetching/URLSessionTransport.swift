import Foundation
import Synchronization

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
  private let timeout: TimeInterval

  /// - Parameters:
  ///   - maximumConnections: connections per host, the run's `--jobs`.
  ///   - timeout: seconds a request may wait for its answer.
  public init(maximumConnections: Int, timeout: TimeInterval) {
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = maximumConnections
    // FoundationNetworking truncates timeouts to whole seconds (0.5 s fires at once), so the transport keeps
    // its own timer (below); URLSession's is only a backstop a little later.
    configuration.timeoutIntervalForRequest = timeout.rounded(.up) + 1
    configuration.timeoutIntervalForResource = timeout.rounded(.up) * 2 + 1
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpAdditionalHeaders = ["User-Agent": "fxbatch/0.1", "Accept": "application/json, application/xml"]
    session = URLSession(configuration: configuration)
  }

  deinit { session.finishTasksAndInvalidate() }

  public func get(_ url: URL, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
    let once = CompletionOnce(completion)
    let task = session.dataTask(with: url) { data, response, error in
      let completion: @Sendable (Result<HTTPResponse, TransportError>) -> Void = { once.call($0) }
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
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
      if once.call(.failure(.timeout)) { task.cancel() }
    }
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

/// Calls a completion handler at most once: whichever of the answer and the timeout comes first wins.
private final class CompletionOnce: Sendable {
  private let handler: Mutex<(@Sendable (Result<HTTPResponse, TransportError>) -> Void)?>

  init(_ handler: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) { self.handler = Mutex(handler) }

  /// Calls the handler unless it was called before.
  ///
  /// - Returns: whether this call delivered the result.
  @discardableResult
  func call(_ result: Result<HTTPResponse, TransportError>) -> Bool {
    guard
      let handler = self.handler.withLock({ handler in
        defer { handler = nil }; return handler
      })
    else { return false }
    handler(result)
    return true
  }
}
