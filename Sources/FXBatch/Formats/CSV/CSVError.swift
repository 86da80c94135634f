/// A problem that makes a whole CSV file unreadable (a bad row is a per-row error instead, see ``RowError``).
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A quoted field opened at this 1-based line and column is never closed before the end of the file.
  case unterminatedQuote(line: Int, column: Int)
  /// The file has no header record (it is empty or holds only blank lines).
  case missingHeader
  /// The file could not be opened or read; `reason` is the system's message.
  case unreadable(reason: String)

  public var line: Int {
    if case .unterminatedQuote(let line, _) = self { return line }
    return 1
  }

  public var column: Int {
    if case .unterminatedQuote(_, let column) = self { return column }
    return 1
  }

  public var description: String {
    switch self {
    case .unterminatedQuote:
      return "quoted field is never closed (RFC 4180: a quote inside a quoted field is written as two quotes)"
    case .missingHeader: return "no header record: the file is empty"
    case .unreadable(let reason): return "cannot read the file: \(reason)"
    }
  }
}
