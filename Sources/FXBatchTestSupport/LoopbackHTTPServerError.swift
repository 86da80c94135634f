import Foundation

/// Why ``LoopbackHTTPServer`` could not start.
public enum LoopbackHTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A socket call failed.
  ///
  /// - Parameters:
  ///   - call: the name of the system call, such as `bind`.
  ///   - errno: the error number it set.
  case systemCall(_ call: String, errno: Int32)

  public var description: String {
    switch self {
    case .systemCall(let call, let errno):
      "loopback HTTP server: \(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }
  }
}
