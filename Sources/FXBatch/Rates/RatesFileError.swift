/// A rates file (`--rates FILE`, or the embedded history) that cannot be used, with the place of the problem.
public struct RatesFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file's path as the user gave it.
  public let path: String
  /// 1-based line of the problem.
  public let line: Int
  /// 1-based column (in bytes) of the problem.
  public let column: Int
  /// What is wrong, one line.
  public let message: String

  public init(path: String, line: Int, column: Int, message: String) {
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// `path:line:column: error: message`, like a compiler.
  public var description: String { "\(path):\(line):\(column): error: \(message)" }
}
