import CCurl
import Foundation
import Synchronization

/// ``HTTPTransport`` over libcurl (Debian's `libcurl4-openssl-dev`): a transport that really stops reading.
///
/// FoundationNetworking's `URLSession` kept buffering a cancelled transfer: a server streaming without end, or
/// a gzip bomb, drove the process to 2.3–3.5 GB although each answer was cut off at its limit. Here every body
/// byte passes through a write callback that appends it to the answer or, past ``maximumBodySize``, returns 0,
/// which makes libcurl abort the transfer and close its connection at once. Compressed answers (gzip, deflate,
/// brotli, zstd) are decoded by libcurl in small chunks before that callback, so the limit holds for the decoded
/// size and a bomb costs at most the limit; a `Content-Length` above the limit is refused before the body is
/// read. Header lines have a limit of their own (``maximumHeaderBytes``). Memory for answers thus stays within
/// the number of transfers in flight (at most `maximumConnections`) times the limit.
///
/// Requests run on up to `maximumConnections` worker threads, each blocking in `curl_easy_perform` with an
/// easy handle of its own; handles are kept between requests, so connections are reused (keep-alive). The
/// timeout covers a whole exchange, redirects included, and is cut to the time left before the run's fetch
/// deadline; an answer slower than ``minimumBytesPerSecond`` for ``slowAnswerSeconds`` (a server dripping bytes,
/// or silent after the request) is given up sooner, whatever the timeout. A redirect is followed only within the
/// same origin (scheme, host and port; at most ``maximumRedirects``): an answer from elsewhere would be filed,
/// and cached, under the endpoint the user named. Only `http` and `https` are spoken; proxies come from the usual
/// environment variables (`https_proxy`, `no_proxy`, …), as with the `curl` tool.
public final class CurlTransport: HTTPTransport {
  /// The largest answer accepted, decoded: the ECB's full history is about 7 MB.
  public static let maximumBodySize = 32 << 20
  /// The most header bytes accepted in one exchange (below libcurl's own limit of 300 KB, so the message is
  /// this transport's).
  static let maximumHeaderBytes = 256 << 10
  /// The most redirects followed within one exchange.
  static let maximumRedirects = 5
  /// The slowest answer accepted, in bytes per second averaged over ``slowAnswerSeconds`` (libcurl's
  /// `CURLOPT_LOW_SPEED_LIMIT`): far below any working link, while a server dripping a byte a second is cut after
  /// ``slowAnswerSeconds`` instead of holding each attempt for its whole `--timeout`.
  public static let minimumBytesPerSecond = 1024
  /// How long an answer may stay slower than ``minimumBytesPerSecond`` (`CURLOPT_LOW_SPEED_TIME`), seconds:
  /// also how long a server may stay silent after the request.
  public static let slowAnswerSeconds = 5

  private let workers: CurlWorkers
  private let timeout: TimeInterval

  /// - Parameters:
  ///   - maximumConnections: transfers run at once (each on a connection of its own), the run's `--jobs`;
  ///     further requests wait for a free worker.
  ///   - timeout: seconds a request may take for its whole answer, from the moment a worker starts it.
  public init(maximumConnections: Int, timeout: TimeInterval) {
    CurlHandle.ensureGlobalInitialization()
    workers = CurlWorkers(limit: max(1, maximumConnections))
    self.timeout = timeout
  }

  public func get(_ url: URL, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
    get(url, before: nil, completion: completion)
  }

  public func get(
    _ url: URL, before deadline: ContinuousClock.Instant?,
    completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
  ) {
    let timeout = self.timeout
    workers.submit { handle in
      guard let handle else {
        completion(.failure(.connection("libcurl could not start a transfer")))
        return
      }
      completion(Self.exchange(url, on: handle, timeout: timeout, before: deadline))
    }
  }

  /// One request with its same-origin redirects, within one timeout, counted from now (when a worker starts it)
  /// and ending at `fetchDeadline` at the latest.
  static func exchange(
    _ url: URL, on handle: CurlHandle, timeout: TimeInterval, before fetchDeadline: ContinuousClock.Instant? = nil
  ) -> Result<HTTPResponse, TransportError> {
    let origin = Self.origin(of: url)
    var deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64((timeout * 1000).rounded(.up))))
    if let fetchDeadline, fetchDeadline < deadline { deadline = fetchDeadline }
    var target = url.absoluteString
    for _ in 0...maximumRedirects {
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero else { return .failure(.timeout) }
      let milliseconds = max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
      switch handle.get(target, timeoutMilliseconds: Int(milliseconds)) {
      case .failure(let error):
        return .failure(error)
      case .success(let answer):
        guard (300...399).contains(answer.response.status), let location = answer.redirect else {
          return .success(answer.response)
        }
        guard let next = URL(string: location), Self.origin(of: next) == origin else {
          return .failure(.redirected(to: location))
        }
        target = location
      }
    }
    return .failure(.unusable("more than \(maximumRedirects) redirects"))
  }

  static func origin(of url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? ""
    return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
  }
}

/// The transport's worker threads: at most `limit` run at once, each takes requests until none is waiting
/// and then ends, leaving its easy handle (and the handle's open connections) for the next worker.
final class CurlWorkers: Sendable {
  typealias Job = @Sendable (CurlHandle?) -> Void

  private struct State {
    var waiting: [Job] = []
    var running = 0
    var idleHandles: [CurlHandle] = []
  }

  private let state = Mutex(State())
  private let limit: Int

  init(limit: Int) { self.limit = limit }

  func submit(_ job: @escaping Job) {
    let startWorker = state.withLock { state in
      state.waiting.append(job)
      guard state.running < limit else { return false }
      state.running += 1
      return true
    }
    if startWorker { Thread { self.work() }.start() }
  }

  private func work() {
    var handle: CurlHandle?
    while true {
      let next: Job? = state.withLock { state in
        guard !state.waiting.isEmpty else {
          state.running -= 1
          if let handle { state.idleHandles.append(handle) }
          return nil
        }
        if handle == nil { handle = state.idleHandles.popLast() }
        return state.waiting.removeFirst()
      }
      guard let next else { return }
      if handle == nil { handle = CurlHandle() }
      next(handle)
    }
  }
}

/// A libcurl easy handle: used by one worker thread at a time (the workers' lock hands it over), cleaned up
/// when the last worker lets it go.
final class CurlHandle: @unchecked Sendable {
  // @unchecked: the handle is only touched by the thread holding it; CurlWorkers passes it between threads
  // under its Mutex, which orders the accesses.
  private let handle: UnsafeMutableRawPointer

  /// libcurl's global set-up, once, before the first handle (`curl_global_init` is not thread-safe).
  private static let globalInitialization: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

  static func ensureGlobalInitialization() { _ = globalInitialization }

  init?() {
    Self.ensureGlobalInitialization()
    guard let handle = curl_easy_init() else { return nil }
    self.handle = handle
  }

  deinit { curl_easy_cleanup(handle) }

  /// What one GET brought: the answer, and for a redirect the absolute address it points to.
  struct Answer {
    let response: HTTPResponse
    let redirect: String?
  }

  /// Sends one GET (no redirect followed) and collects the answer within the limits.
  func get(_ url: String, timeoutMilliseconds: Int) -> Result<Answer, TransportError> {
    curl_easy_reset(handle)  // keeps the handle's live connections and DNS cache
    let transfer = CurlTransfer()
    let acceptHeader = curl_slist_append(nil, "Accept: application/json, application/xml")
    defer { curl_slist_free_all(acceptHeader) }
    var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    let body = CurlReceiver(transfer.receiveBody)
    let headers = CurlReceiver(transfer.receiveHeader)
    let code = withExtendedLifetime((body, headers)) {
      errorText.withUnsafeMutableBufferPointer { [handle] errorBuffer -> CURLcode in
        let errorAddress = errorBuffer.baseAddress
        let options: [() -> CURLcode] = [
          { fxcurl_set_string(handle, CURLOPT_URL, url) },
          { fxcurl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https") },
          { fxcurl_set_long(handle, CURLOPT_NOSIGNAL, 1) },
          { fxcurl_set_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds) },
          { fxcurl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, CurlTransport.minimumBytesPerSecond) },
          { fxcurl_set_long(handle, CURLOPT_LOW_SPEED_TIME, CurlTransport.slowAnswerSeconds) },
          { fxcurl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "") },  // every encoding libcurl decodes
          { fxcurl_set_string(handle, CURLOPT_USERAGENT, "fxbatch/0.1") },
          { fxcurl_set_list(handle, CURLOPT_HTTPHEADER, acceptHeader) },
          { fxcurl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(CurlTransport.maximumBodySize)) },
          { fxcurl_set_write_callback(handle, CURLOPT_WRITEFUNCTION, curlReceive) },
          { fxcurl_set_pointer(handle, CURLOPT_WRITEDATA, Unmanaged.passUnretained(body).toOpaque()) },
          { fxcurl_set_write_callback(handle, CURLOPT_HEADERFUNCTION, curlReceive) },
          { fxcurl_set_pointer(handle, CURLOPT_HEADERDATA, Unmanaged.passUnretained(headers).toOpaque()) },
          { fxcurl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorAddress) },
        ]
        for option in options {
          let code = option()
          guard code == CURLE_OK else { return code }
        }
        let code = curl_easy_perform(handle)
        // The buffers lent to the handle end with this call: take them back before it returns.
        _ = fxcurl_set_pointer(handle, CURLOPT_ERRORBUFFER, nil)
        _ = fxcurl_set_list(handle, CURLOPT_HTTPHEADER, nil)
        return code
      }
    }
    if let overflow = transfer.overflow { return .failure(overflow) }
    guard code == CURLE_OK else {
      let written = errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      let detail = written.isEmpty ? String(cString: curl_easy_strerror(code)) : String(decoding: written, as: UTF8.self)
      var systemError = 0
      _ = fxcurl_get_long(handle, CURLINFO_OS_ERRNO, &systemError)
      // libcurl names the address it could not reach, a proxy's when one is used: "Failed to connect to
      // 127.0.0.1 port 9 after 0 ms: …".
      var peer = ""
      if let start = detail.range(of: "Failed to connect to "),
        let end = detail.range(of: " after ", range: start.upperBound..<detail.endIndex)
      {
        peer = " (\(detail[start.upperBound..<end.lowerBound]))"
      }
      return .failure(
        Self.failure(
          code, detail: detail, systemError: Int32(truncatingIfNeeded: systemError), host: URL(string: url)?.host ?? url,
          peer: peer))
    }
    var status = 0
    _ = fxcurl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
    var redirect: UnsafeMutablePointer<CChar>?
    _ = fxcurl_get_string(handle, CURLINFO_REDIRECT_URL, &redirect)
    let response = HTTPResponse(status: status, headers: transfer.headers, body: transfer.body)
    return .success(Answer(response: response, redirect: redirect.map { String(cString: $0) }))
  }

  /// The transport's failure for a libcurl error, with libcurl's message, the system's `errno` (0 if none), the
  /// host asked and the address connected to (` (127.0.0.1 port 9)`, a proxy's when one is used; empty if none).
  static func failure(_ code: CURLcode, detail: String, systemError: Int32, host: String, peer: String) -> TransportError {
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      // libcurl ends both limits with this code; the minimum rate's message says "Operation too slow".
      guard detail.lowercased().contains("too slow") else { return .timeout }
      return .tooSlow(bytesPerSecond: CurlTransport.minimumBytesPerSecond, seconds: CurlTransport.slowAnswerSeconds)
    case CURLE_FILESIZE_EXCEEDED: return .tooLarge(limit: CurlTransport.maximumBodySize)
    case CURLE_COULDNT_CONNECT:
      return .connection(systemError == ECONNREFUSED ? "connection refused\(peer)" : "cannot connect (\(detail))")
    case CURLE_COULDNT_RESOLVE_HOST: return .connection("host not found (\(host))")
    case CURLE_COULDNT_RESOLVE_PROXY: return .connection("proxy host not found (\(detail))")
    case CURLE_GOT_NOTHING: return .connection("connection closed without an answer")
    case CURLE_PARTIAL_FILE: return .connection("connection closed before the whole answer arrived")
    case CURLE_RECV_ERROR, CURLE_SEND_ERROR: return .connection("connection broken (\(detail))")
    case CURLE_BAD_CONTENT_ENCODING: return .unusable("the answer's compression is broken (\(detail))")
    case CURLE_WEIRD_SERVER_REPLY: return .unusable("the answer is not HTTP (\(detail))")
    case CURLE_UNSUPPORTED_PROTOCOL where detail.contains("HTTP/0.9"):
      return .unusable("the answer is not HTTP: no status line")
    case CURLE_OUT_OF_MEMORY:
      // libcurl's own limit of 100 KB for one header line ends the transfer this way.
      return .unusable("the answer cannot be read: a header line is too long, or memory ran out (\(detail))")
    default: return .connection(detail)
    }
  }
}

/// One GET's answer as it arrives through libcurl's callbacks, on the thread running the transfer.
final class CurlTransfer {
  private(set) var body = Data()
  private(set) var headers: [String: String] = [:]
  private var headerBytes = 0
  /// Set when the answer passed a limit; the callback then made libcurl abort.
  private(set) var overflow: TransportError?

  /// Bytes the body has room for: grown by doubling, but never past the limit (a plain append would double a
  /// 17 MB body to 34 MB of storage).
  private var reserved = 0

  /// Appends body bytes; `false` (abort) past the body limit.
  func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let needed = body.count + bytes.count
    guard needed <= CurlTransport.maximumBodySize else {
      overflow = .tooLarge(limit: CurlTransport.maximumBodySize)
      body = Data()
      return false
    }
    if needed > reserved {
      // Room for the length the answer announces (within the limit) at once: no copies while it grows.
      if reserved == 0, let announced = headers["content-length"].flatMap({ Int($0) }), announced >= needed,
        announced <= CurlTransport.maximumBodySize
      {
        reserved = announced
      } else {
        reserved = min(CurlTransport.maximumBodySize, max(needed, reserved * 2, 16 << 10))
      }
      body.reserveCapacity(reserved)
    }
    body.append(contentsOf: bytes)
    return true
  }

  /// Files one header line (libcurl hands over whole lines, the status line and the blank line included);
  /// `false` (abort) past the header limit.
  func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
    headerBytes += bytes.count
    guard headerBytes <= CurlTransport.maximumHeaderBytes else {
      overflow = .headersTooLarge(limit: CurlTransport.maximumHeaderBytes)
      return false
    }
    let line = String(decoding: bytes, as: UTF8.self)
    if line.hasPrefix("HTTP/") {
      headers = [:]  // a new response begins (after a 100 Continue, say): only the last one's fields count
      return true
    }
    guard let colon = line.firstIndex(of: ":") else { return true }
    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
    let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
    headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    return true
  }
}

/// Where one of libcurl's callbacks delivers: the transfer's body or its header lines.
final class CurlReceiver {
  let receive: (UnsafeRawBufferPointer) -> Bool

  init(_ receive: @escaping (UnsafeRawBufferPointer) -> Bool) { self.receive = receive }
}

/// libcurl's write and header callback: hands the bytes to the ``CurlReceiver`` behind `context`; a count other
/// than the bytes given (0) makes libcurl abort with `CURLE_WRITE_ERROR`.
private func curlReceive(
  _ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
  guard let context else { return 0 }
  let receiver = Unmanaged<CurlReceiver>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  return receiver.receive(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
}
