import Dispatch
import Foundation
import Glibc
import Synchronization

/// The sockets, threads and records behind ``LoopbackHTTPServer``.
///
/// Kept apart from the server so that the server's threads, which hold this core, do not keep the server alive:
/// dropping the last reference to the server runs its `deinit`, which calls ``stop()``.
final class LoopbackServerCore: Sendable {
  /// Everything the server's threads share.
  struct State {
    var routes = RouteTable()
    var requests: [HTTPRequestHead] = []
    /// Requests read but not yet answered (or dropped).
    var inFlight = 0
    var peakInFlight = 0
    /// Connections accepted since the start.
    var accepted = 0
    /// Accepted sockets not yet closed; the serving thread removes its socket here before closing it, so
    /// ``stop()`` never touches a descriptor number the kernel has already reused.
    var connections: Set<Int32> = []
    var stopped = false
  }

  /// Answer to requests no route takes.
  static let notFound = ScriptedResponse.json(#"{"message":"not found"}"#, status: 404)
  /// Answer to bytes that are not a request the server understands.
  static let badRequest = ScriptedResponse.json(#"{"message":"bad request"}"#, status: 400)

  let port: Int
  let state = Mutex(State())
  private let listener: Int32
  /// Read end of the stop pipe: every wait watches it, and it hangs up once ``stopTrigger`` is closed.
  private let stopSignal: Int32
  private let stopTrigger: Int32
  /// Entered for the accept thread and each connection thread, left when the thread ends.
  private let threads = DispatchGroup()

  /// Binds a listening socket on 127.0.0.1 at a port the kernel picks, and starts accepting connections.
  ///
  /// - Throws: ``LoopbackHTTPServerError/systemCall(_:errno:)`` when a socket call fails.
  init() throws {
    var pipeEnds: [Int32] = [-1, -1]
    guard pipe(&pipeEnds) == 0 else { throw LoopbackHTTPServerError.systemCall("pipe", errno: errno) }
    // Glibc's module does not export pipe2 or accept4 (they need _GNU_SOURCE): set close-on-exec afterwards, so
    // processes that tests spawn meanwhile do not inherit the server's descriptors.
    for end in pipeEnds { Self.setCloseOnExec(end) }
    // Non-blocking, so an accept after a connection was aborted between poll and accept cannot hang.
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
    do {
      guard listener >= 0 else { throw LoopbackHTTPServerError.systemCall("socket", errno: errno) }
      port = try Self.bindLoopback(listener)
    } catch {
      if listener >= 0 { close(listener) }
      close(pipeEnds[0])
      close(pipeEnds[1])
      throw error
    }
    self.listener = listener
    stopSignal = pipeEnds[0]
    stopTrigger = pipeEnds[1]
    threads.enter()
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "LoopbackHTTPServer :\(port) accept"
    thread.start()
  }

  /// Stops accepting, closes every connection and waits for the server's threads to end. Later calls do nothing.
  func stop() {
    let first = state.withLock { state in
      guard !state.stopped else { return false }
      state.stopped = true
      // Wakes threads blocked in send; those waiting in poll wake from the stop signal.
      for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
      return true
    }
    guard first else { return }
    close(stopTrigger)
    if threads.wait(timeout: .now() + .seconds(5)) == .success {
      close(listener)
      close(stopSignal)
    }
    // Otherwise a thread is stuck somewhere unexpected: leave the two descriptors open rather than close ones
    // it may still use.
  }

  private static func setCloseOnExec(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
  }

  private static func bindLoopback(_ listener: Int32) throws -> Int {
    var one: Int32 = 1
    let size = socklen_t(MemoryLayout<Int32>.size)
    guard setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, size) == 0 else {
      throw LoopbackHTTPServerError.systemCall("setsockopt", errno: errno)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0 else { throw LoopbackHTTPServerError.systemCall("bind", errno: errno) }
    guard listen(listener, 128) == 0 else { throw LoopbackHTTPServerError.systemCall("listen", errno: errno) }
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    guard named == 0 else { throw LoopbackHTTPServerError.systemCall("getsockname", errno: errno) }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private func acceptLoop() {
    defer { threads.leave() }
    while SocketPoll.wait(for: listener, stopSignal: stopSignal) != .stopped {
      let socket = accept(listener, nil, nil)
      guard socket >= 0 else {
        let failure = errno
        if failure == EAGAIN || failure == EINTR || failure == ECONNABORTED { continue }
        // Out of descriptors or similar: back off instead of spinning.
        if SocketPoll.wait(for: nil, stopSignal: stopSignal, timeout: .milliseconds(10)) == .stopped { return }
        continue
      }
      Self.setCloseOnExec(socket)
      // Belt and braces with the single write per response: no Nagle delay on small answers.
      var one: Int32 = 1
      setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      let admitted = state.withLock { state in
        guard !state.stopped else { return false }
        state.connections.insert(socket)
        state.accepted += 1
        threads.enter()
        return true
      }
      guard admitted else {
        close(socket)
        return
      }
      // One thread per connection, so a delayed or hanging route never holds up another connection.
      let thread = Thread { [self] in serve(socket) }
      thread.name = "LoopbackHTTPServer :\(port) connection"
      thread.start()
    }
  }

  /// Answers requests on one connection until the client closes it, an answer closes it, or the server stops.
  private func serve(_ socket: Int32) {
    defer {
      state.withLock { _ = $0.connections.remove(socket) }
      close(socket)
      threads.leave()
    }
    let connection = HTTPConnection(socket: socket, stopSignal: stopSignal)
    while true {
      switch connection.readRequest() {
      case .closed:
        return
      case .malformed:
        if connection.send(Self.badRequest.encoded(closing: true, bodyBytes: .max)) { connection.closeGracefully() }
        return
      case .request(let request):
        let response = begin(request)
        let keepOpen = answer(request, with: response, on: connection)
        state.withLock { $0.inFlight -= 1 }
        guard keepOpen else { return }
      }
    }
  }

  /// Records a request and picks its response.
  private func begin(_ request: HTTPRequestHead) -> ScriptedResponse {
    state.withLock { state in
      state.requests.append(request)
      state.inFlight += 1
      state.peakInFlight = max(state.peakInFlight, state.inFlight)
      return state.routes.next(for: request) ?? Self.notFound
    }
  }

  /// Plays one scripted response.
  ///
  /// - Returns: whether the connection stays open for another request.
  private func answer(_ request: HTTPRequestHead, with response: ScriptedResponse, on connection: HTTPConnection) -> Bool {
    guard connection.pause(for: response.delay) else { return false }
    switch response.action {
    case .respond:
      let closing = response.asksToClose || request.asksToClose
      let bodyBytes = request.method == "HEAD" ? 0 : response.body.count
      guard connection.send(response.encoded(closing: closing, bodyBytes: bodyBytes)) else { return false }
      if closing { connection.closeGracefully() }
      return !closing
    case .closeWithoutAnswer:
      return false
    case .neverAnswer:
      connection.waitUntilClosed()
      return false
    case .partialBody:
      if connection.send(response.encoded(closing: true, bodyBytes: response.body.count / 2)) {
        connection.closeGracefully()
      }
      return false
    case .endlessBody:
      guard connection.send(response.encoded(closing: true, bodyBytes: 0, announcingLength: false)) else { return false }
      let chunk = Array(response.body)
      while connection.send(chunk) {}
      return false
    case .dripBody(let interval):
      guard connection.send(response.encoded(closing: true, bodyBytes: 0)) else { return false }
      for byte in response.body {
        guard connection.pause(for: interval), connection.send([byte]) else { return false }
      }
      connection.closeGracefully()
      return false
    case .endlessHeaders:
      guard connection.send(Array("HTTP/1.1 \(response.status) OK\r\n".utf8)) else { return false }
      let field = Array(("X-Filler: " + String(repeating: "a", count: 1000) + "\r\n").utf8)
      while connection.send(field) {}
      return false
    }
  }
}
