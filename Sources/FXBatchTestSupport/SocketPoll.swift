import Glibc

/// Waiting on a socket with `poll(2)` while also watching the server's stop signal.
///
/// The stop signal is the read end of a pipe whose write end the server closes when it stops: every waiter
/// sees `POLLHUP` on it at once, so no thread stays blocked in a socket call after ``LoopbackHTTPServer/stop()``.
enum SocketPoll {
  /// What a wait ended with.
  enum Outcome: Equatable {
    /// The socket has data, an end of stream, or an error to read.
    case readable
    /// The server is stopping.
    case stopped
    /// The timeout passed.
    case timedOut
  }

  /// Waits until a socket is readable, the server stops, or a timeout passes.
  ///
  /// - Parameters:
  ///   - socket: the descriptor to wait on; `nil` to wait only for the stop signal or the timeout.
  ///   - stopSignal: the read end of the server's stop pipe.
  ///   - timeout: how long to wait at most; `nil` waits without limit.
  /// - Returns: what ended the wait; ``Outcome/stopped`` wins when both are ready.
  static func wait(for socket: Int32?, stopSignal: Int32, timeout: Duration? = nil) -> Outcome {
    let clock = ContinuousClock()
    let deadline = timeout.map { clock.now.advanced(by: $0) }
    var descriptors = [pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0)]
    if let socket { descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
    while true {
      var milliseconds: Int32 = -1
      if let deadline {
        let remaining = clock.now.duration(to: deadline)
        guard remaining > .zero else { return .timedOut }
        let (seconds, attoseconds) = remaining.components
        // Round up so the wait never ends before the deadline.
        milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
      }
      for index in descriptors.indices { descriptors[index].revents = 0 }
      let result = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
      if result < 0 {
        if errno == EINTR { continue }
        return .stopped  // Only a programming error (a closed descriptor) gets here: give up waiting.
      }
      if descriptors[0].revents != 0 { return .stopped }
      if descriptors.count > 1, descriptors[1].revents != 0 { return .readable }
    }
  }
}
