/// The rate cache could not be opened or used.
public struct RateCacheError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The cache database's path.
  public let path: String
  /// SQLite's or the file system's message.
  public let message: String

  public var description: String { "\(path): error: rate cache: \(message)" }
}
