/// Why the content of an `.ods` spreadsheet cannot be read: its package or XML refused it (``WorkbookError``, the
/// shared part reader's), or a table's rows and cells are malformed.
public enum ODSError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The package or the XML of `content.xml` refused (a zip bomb, a DTD, malformed XML, …).
  case part(WorkbookError)
  /// An element of the table whose attributes or content cannot be read.
  case malformed(path: String, entry: String, line: Int, reason: String)
  /// A row or column that holds values past the last row (1048576) or column (16384) of a sheet.
  case beyondSheet(path: String, entry: String, line: Int, reason: String)

  public var description: String {
    switch self {
    case .part(let error):
      return error.description
    case .malformed(let path, let entry, let line, let reason):
      return "\(path): error: \(entry):\(line): \(reason)"
    case .beyondSheet(let path, let entry, let line, let reason):
      return "\(path): error: \(entry):\(line): \(reason), past the last row or column of a sheet (1048576 rows, 16384 columns)"
    }
  }
}
