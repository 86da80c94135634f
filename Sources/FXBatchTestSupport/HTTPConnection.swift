import Foundation
import Glibc

/// One accepted client connection of ``LoopbackHTTPServer``: reads requests and writes answers with blocking
/// socket calls, each wait also watching the server's stop signal.
///
/// Used by the one thread that serves the connection, never shared; the thread closes the socket.
final class HTTPConnection {
  /// What reading a request ended with.
  enum ReadOutcome {
    case request(HTTPRequestHead)
    /// The client closed the connection, it failed, or the server is stopping.
    case closed
    /// The bytes are not an HTTP/1.x request the server understands.
    case malformed
  }

  /// Request heads larger than this are refused as malformed.
  static let maximumHeadBytes = 64 * 1024

  private let socket: Int32
  private let stopSignal: Int32
  /// Bytes received but not yet consumed: the start of the next request, if the client pipelines.
  private var buffer: [UInt8] = []
  /// Scratch space for `recv`.
  private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

  init(socket: Int32, stopSignal: Int32) {
    self.socket = socket
    self.stopSignal = stopSignal
  }

  /// Reads the next request: request line, header fields and a `Content-Length` body.
  ///
  /// Answers `Expect: 100-continue` with `100 Continue` so clients do not wait before sending a body.
  /// Bodies with `Transfer-Encoding: chunked` are not supported and read as malformed.
  func readRequest() -> ReadOutcome {
    var scanned = 0
    var found = Self.headEnd(in: buffer, from: scanned)
    while found == nil {
      if buffer.count > Self.maximumHeadBytes { return .malformed }
      scanned = max(0, buffer.count - 3)
      guard receive() else { return .closed }
      found = Self.headEnd(in: buffer, from: scanned)
    }
    guard let headEnd = found else { return .closed }
    let text = String(decoding: buffer[..<headEnd], as: UTF8.self)
    buffer.removeFirst(headEnd + 4)
    guard var head = Self.parseHead(text) else { return .malformed }
    if head.header("transfer-encoding") != nil { return .malformed }
    let length: Int
    if let value = head.header("content-length") {
      guard let parsed = Int(value.trimmingCharacters(in: .whitespaces)), parsed >= 0 else { return .malformed }
      length = parsed
    } else {
      length = 0
    }
    if buffer.count < length, head.header("expect")?.lowercased() == "100-continue" {
      guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return .closed }
    }
    while buffer.count < length {
      guard receive() else { return .closed }
    }
    head.body = Data(buffer[..<length])
    buffer.removeFirst(length)
    return .request(head)
  }

  /// Writes all bytes, in as few `send` calls as the kernel allows.
  ///
  /// - Returns: `false` when the connection failed or the server is stopping.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw in
        // MSG_NOSIGNAL: a client that went away gives EPIPE, not a SIGPIPE that kills the test process.
        Glibc.send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += sent
    }
    return true
  }

  /// Waits for a delay, ending early when the server stops.
  ///
  /// - Returns: `false` when the server is stopping.
  func pause(for delay: Duration) -> Bool {
    guard delay > .zero else { return true }
    return SocketPoll.wait(for: nil, stopSignal: stopSignal, timeout: delay) == .timedOut
  }

  /// Holds the connection without answering until the client closes it or the server stops; discards what the
  /// client sends meanwhile.
  func waitUntilClosed() {
    while receive() { buffer.removeAll(keepingCapacity: true) }
  }

  /// Ends the connection without losing the last answer: shuts down sending, then reads until the client
  /// closes (at most one second), so closing does not reset a connection with unread bytes and cut the answer.
  func closeGracefully() {
    shutdown(socket, Int32(SHUT_WR))
    let deadline = ContinuousClock.now.advanced(by: .seconds(1))
    while true {
      let remaining = ContinuousClock.now.duration(to: deadline)
      guard remaining > .zero, SocketPoll.wait(for: socket, stopSignal: stopSignal, timeout: remaining) == .readable
      else { return }
      guard chunk.withUnsafeMutableBytes({ recv(socket, $0.baseAddress, $0.count, 0) }) > 0 else { return }
    }
  }

  /// Receives whatever bytes are available into the buffer, waiting for some.
  ///
  /// - Returns: `false` at end of stream, on an error, or when the server is stopping.
  private func receive() -> Bool {
    while true {
      guard SocketPoll.wait(for: socket, stopSignal: stopSignal) == .readable else { return false }
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR || errno == EAGAIN { continue }
      guard count > 0 else { return false }
      buffer.append(contentsOf: chunk[..<count])
      return true
    }
  }

  /// The offset of the `\r\n\r\n` that ends a request head, searching from an offset.
  private static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= 4 else { return nil }
    var index = start
    while index + 3 < bytes.count {
      if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
        return index
      }
      index += 1
    }
    return nil
  }

  /// Parses a request line and header fields (RFC 9112 sections 3 and 5), without the final blank line.
  private static func parseHead(_ text: String) -> HTTPRequestHead? {
    // Clients may send empty lines before the request line (RFC 9112 section 2.2).
    var lines = text.components(separatedBy: "\r\n").drop { $0.isEmpty }[...]
    guard let requestLine = lines.popFirst() else { return nil }
    let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true)
    guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
    let target = String(parts[1])
    var head = HTTPRequestHead(method: String(parts[0]), path: target, version: String(parts[2]))
    if let question = target.firstIndex(of: "?") {
      head.path = String(target[..<question])
      head.query = String(target[target.index(after: question)...])
    }
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let name = line[..<colon].lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      head.headers[name] = head.headers[name].map { "\($0), \(value)" } ?? value
    }
    return head
  }
}
