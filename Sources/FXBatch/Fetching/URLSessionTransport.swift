import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// ``HTTPTransport`` over one `URLSession` for the whole run (FoundationNetworking on Linux).
///
/// The session allows as many connections per host as the run allows requests in flight (URLSession's
/// default is 6, which would silently cap `--jobs`) and never caches. Answers arrive through a delegate, so
/// the transport can enforce what URLSession alone does not: a body larger than ``maximumBodySize`` is cut off
/// (never buffered without bound), a redirect to another origin is refused, and the timeout is the
/// transport's own timer (FoundationNetworking truncates timeouts to whole seconds, so 0.5 s fired at once);
/// a cancelled transfer's late bytes are dropped.
public final class URLSessionTransport: HTTPTransport {
  /// The largest answer accepted: the ECB's full history is about 7 MB.
  public static let maximumBodySize = 32 << 20

  private let session: URLSession
  private let delegate: TransportDelegate
  private let timeout: TimeInterval

  /// - Parameters:
  ///   - maximumConnections: connections per host, the run's `--jobs`.
  ///   - timeout: seconds a request may wait for its whole answer.
  public init(maximumConnections: Int, timeout: TimeInterval) {
    self.timeout = timeout
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = maximumConnections
    configuration.timeoutIntervalForRequest = timeout.rounded(.up) + 1
    configuration.timeoutIntervalForResource = timeout.rounded(.up) * 2 + 1
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpAdditionalHeaders = ["User-Agent": "fxbatch/0.1", "Accept": "application/json, application/xml"]
    delegate = TransportDelegate()
    session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
  }

  deinit { session.finishTasksAndInvalidate() }

  public func get(_ url: URL, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
    let task = session.dataTask(with: url)
    let exchange = Exchange(origin: Self.origin(of: url), completion: completion)
    delegate.register(exchange, for: task.taskIdentifier)
    task.resume()
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [delegate] in
      if exchange.finish(.failure(.timeout)) {
        delegate.forget(task.taskIdentifier)
        task.cancel()
      }
    }
  }

  static func origin(of url: URL) -> String {
    "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
  }

  static func describe(_ error: Error) -> String {
    guard let urlError = error as? URLError else { return error.localizedDescription }
    switch urlError.code {
    case .cannotConnectToHost: return "connection refused"
    case .networkConnectionLost: return "connection closed without an answer"
    case .badServerResponse: return "connection closed without an answer"
    case .cannotFindHost, .dnsLookupFailed: return "host not found"
    case .notConnectedToInternet: return "no network"
    default: return urlError.localizedDescription
    }
  }
}

/// One request's answer as it arrives; finished once, by the answer, a failure or the timer.
private final class Exchange: Sendable {
  let origin: String
  private let state:
    Mutex<(completion: (@Sendable (Result<HTTPResponse, TransportError>) -> Void)?, response: HTTPURLResponse?, body: Data)>

  init(origin: String, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
    self.origin = origin
    state = Mutex((completion, nil, Data()))
  }

  /// Delivers the result unless one was delivered before; returns whether this call delivered it.
  @discardableResult
  func finish(_ result: Result<HTTPResponse, TransportError>) -> Bool {
    guard
      let completion = state.withLock({ state in
        defer { state.completion = nil }; return state.completion
      })
    else { return false }
    completion(result)
    return true
  }

  func received(_ response: HTTPURLResponse) { state.withLock { $0.response = response } }

  /// Appends body bytes; returns `false` when the body grew past the limit.
  func received(_ data: Data) -> Bool {
    state.withLock { state in
      guard state.completion != nil else { return true }
      guard state.body.count + data.count <= URLSessionTransport.maximumBodySize else { return false }
      state.body.append(data)
      return true
    }
  }

  func completed(error: Error?) {
    if let error {
      let code = (error as? URLError)?.code
      finish(.failure(code == .timedOut ? .timeout : .connection(URLSessionTransport.describe(error))))
      return
    }
    let (response, body) = state.withLock { ($0.response, $0.body) }
    guard let response else {
      finish(.failure(.connection("no HTTP response")))
      return
    }
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
    }
    finish(.success(HTTPResponse(status: response.statusCode, headers: headers, body: body)))
  }
}

/// The session's delegate: routes callbacks to each task's ``Exchange``. Callbacks run on the session's
/// serial delegate queue; they only store, check and hand over, never block.
private final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: the only state is the Mutex-protected table below.
  private let exchanges = Mutex<[Int: Exchange]>([:])

  func register(_ exchange: Exchange, for task: Int) { exchanges.withLock { $0[task] = exchange } }
  func forget(_ task: Int) { _ = exchanges.withLock { $0.removeValue(forKey: task) } }
  private func exchange(_ task: URLSessionTask) -> Exchange? { exchanges.withLock { $0[task.taskIdentifier] } }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    if let http = response as? HTTPURLResponse { exchange(dataTask)?.received(http) }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let exchange = exchange(dataTask) else { return }  // finished (timeout): late bytes are dropped
    if !exchange.received(data) {
      forget(dataTask.taskIdentifier)
      exchange.finish(.failure(.tooLarge(limit: URLSessionTransport.maximumBodySize)))
      dataTask.cancel()
    }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    // Follow a redirect only within the same origin: an answer from elsewhere would be filed (and cached)
    // under the endpoint the user named.
    guard let exchange = exchange(task), let target = request.url, URLSessionTransport.origin(of: target) == exchange.origin
    else {
      let destination = request.url?.absoluteString ?? "?"
      if let exchange = exchange(task) {
        forget(task.taskIdentifier)
        exchange.finish(.failure(.redirected(to: destination)))
      }
      completionHandler(nil)
      task.cancel()
      return
    }
    completionHandler(request)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
    exchange.completed(error: error)
  }
}
