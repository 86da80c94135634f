/// A problem that makes a whole CSV file unreadable (a bad row is a per-row error instead, see ``RowError``).
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A quoted field opened at this 1-based line and column is never closed before the end of the file.
  case unterminatedQuote(line: Int, column: Int)
  /// The file has no header record (it is empty or holds only blank lines).
  case missingHeader
  /// The file could not be opened or read; `reason` is the system's message.
  case unreadable(reason: String)
  /// The record at this 1-based line and column passes one of the ``RecordLimits``; `message` says which.
  case recordLimit(line: Int, column: Int, message: String, hint: String?)

  public var line: Int {
    switch self {
    case .unterminatedQuote(let line, _), .recordLimit(let line, _, _, _): return line
    default: return 1
    }
  }

  public var column: Int {
    switch self {
    case .unterminatedQuote(_, let column), .recordLimit(_, let column, _, _): return column
    default: return 1
    }
  }

  /// What to do about it, when something can be done.
  public var hint: String? {
    if case .recordLimit(_, _, _, let hint) = self { return hint }
    return nil
  }

  public var description: String {
    switch self {
    case .unterminatedQuote:
      return "quoted field is never closed (RFC 4180: a quote inside a quoted field is written as two quotes)"
    case .missingHeader: return "no header record: the file is empty"
    case .unreadable(let reason): return "cannot read the file: \(reason)"
    case .recordLimit(_, _, let message, _): return message
    }
  }
}
