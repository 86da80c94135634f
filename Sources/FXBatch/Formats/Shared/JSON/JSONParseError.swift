/// Why a JSON document could not be parsed, with the place: byte offset (0-based), line and column (1-based).
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public let offset: Int
  public let line: Int
  public let column: Int

  public var description: String { "line \(line), column \(column): \(message)" }
}
