/// A problem that makes a whole CSV file unreadable (a bad row is a per-row error instead, see ``RowError``).
public enum CSVError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A quoted field opened at this 1-based line and column is never closed before the end of the file.
  case unterminatedQuote(line: Int, column: Int)
  /// The file has no header record (it is empty or holds only blank lines).
  case missingHeader
  /// The file could not be opened or read; `reason` is the system's message.
  case unreadable(reason: String)
  /// The byte at this 1-based line and column (in bytes) starts no UTF-8 character: the file is in another
  /// encoding (``TextEncoding``, `--encoding`).
  case notUTF8(line: Int, column: Int, byte: UInt8)
  /// The record at this 1-based line and column passes one of the ``RecordLimits``; `message` says which.
  case recordLimit(line: Int, column: Int, message: String, hint: String?)
  /// The file holds Excel's first line `sep=X` and nothing else but blank lines: no header record.
  case onlySeparatorLine(declared: UInt8)
  /// Excel's first line `sep=X` names one delimiter and `--delimiter` another.
  case separatorLineConflict(declared: UInt8, given: UInt8)

  public var line: Int {
    switch self {
    case .unterminatedQuote(let line, _), .notUTF8(let line, _, _), .recordLimit(let line, _, _, _): return line
    default: return 1
    }
  }

  public var column: Int {
    switch self {
    case .unterminatedQuote(_, let column), .notUTF8(_, let column, _), .recordLimit(_, let column, _, _): return column
    default: return 1
    }
  }

  public var description: String {
    switch self {
    case .unterminatedQuote:
      return "quoted field is never closed (RFC 4180: a quote inside a quoted field is written as two quotes)"
    case .missingHeader: return "no header record: the file is empty"
    case .onlySeparatorLine(let declared):
      return "no header record: the file holds only Excel's first line sep=\(Self.shown(declared)), which names its delimiter"
    case .unreadable(let reason): return "cannot read the file: \(reason)"
    case .notUTF8(let line, let column, let byte):
      let hex = String(byte, radix: 16, uppercase: true)
      return "the byte 0x\(hex) at line \(line), column \(column) is not UTF-8: the file is in another encoding; "
        + "nothing is converted"
    case .recordLimit(_, _, let message, _): return message
    case .separatorLineConflict(let declared, let given):
      return "Excel's first line sep=… names \(Self.shown(declared)) as the delimiter, but --delimiter says "
        + Self.shown(given)
    }
  }

  /// What to do, when the error says.
  public var hint: String? {
    switch self {
    case .notUTF8:
      return "a Windows or Excel export is usually Windows-1252: use --encoding windows-1252 (or iso-8859-1, "
        + "iso-8859-15, utf-16le, utf-16be)"
    case .recordLimit(_, _, _, let hint): return hint
    case .separatorLineConflict: return "leave out --delimiter: Excel's sep= line says which it is"
    default: return nil
    }
  }

  /// A delimiter as messages show it: `tab`, else the character.
  static func shown(_ delimiter: UInt8) -> String {
    delimiter == UInt8(ascii: "\t") ? "tab" : String(UnicodeScalar(delimiter))
  }
}
