/// Why a part of a workbook package cannot be read (an `.xlsx` part, or an `.ods` part through
/// ``PackagePartReader``): its package refused it, or its XML or its cells are malformed.
public enum WorkbookError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The zip package or the entry refused (a zip bomb, a DTD, …).
  case package(ZipError)
  /// A part the workbook needs is not in the package, or its relationships do not lead to it.
  case missingPart(path: String, part: String)
  /// A zip archive of files (a CSV zipped for e-mail), no workbook package: neither `[Content_Types].xml` and
  /// `_rels/.rels` (OOXML) nor `mimetype` (ODF). Its first entries' names and how many it has.
  case zipArchive(path: String, names: [String], count: Int)
  /// libxml2 could not parse the part.
  case malformedXML(path: String, entry: String, line: Int, column: Int, message: String)
  /// A cell whose `r` reference is not a cell of a sheet, or not where the row and the cells before it put it.
  case misplacedCell(path: String, entry: String, line: Int, reference: String, reason: String)
  /// A row whose `r` number is not a row of a sheet, or not after the row before it.
  case misplacedRow(path: String, entry: String, line: Int, row: String)
  /// A shared-string cell whose index is not in the shared strings table.
  case noSuchSharedString(path: String, entry: String, line: Int, reference: String, index: String)
  /// A cell with a value whose type (`t`) is none of ECMA-376's (`b`, `d`, `e`, `inlineStr`, `n`, `s`, `str`):
  /// what its value means is unknown (read as a number, `t=" s"` would give a shared string's index).
  case unknownCellType(path: String, entry: String, line: Int, reference: String, type: String)
  /// A part declares more sheets or relationships than a workbook may have (``XLSXWorkbook/maximumDeclarations``).
  case tooManyDeclarations(path: String, entry: String, what: String, limit: Int)

  public var description: String {
    switch self {
    case .package(let error):
      return error.description
    case .missingPart(let path, let part):
      return "\(path): error: the package has no \(part): not an .xlsx workbook, or a damaged one"
    case .zipArchive(let path, let names, let count):
      let listed = names.map(RowError.visible).joined(separator: ", ") + (count > names.count ? ", …" : "")
      return
        "\(path): error: this file is a zip archive of files (\(listed)), not an .xlsx or .ods workbook: extract its "
        + "files (`unzip FILE`) and convert them"
    case .malformedXML(let path, let entry, let line, let column, let message):
      return "\(path): error: \(entry):\(line):\(column): malformed XML: \(message)"
    case .misplacedCell(let path, let entry, let line, let reference, let reason):
      return "\(path): error: \(entry):\(line): cell reference \(reference): \(reason)"
    case .misplacedRow(let path, let entry, let line, let row):
      return "\(path): error: \(entry):\(line): row number \(row) is not a row after the one before it (1 to 1048576)"
    case .noSuchSharedString(let path, let entry, let line, let reference, let index):
      return
        "\(path): error: \(entry):\(line): cell \(reference) refers to shared string \(index), which the workbook does not have"
    case .unknownCellType(let path, let entry, let line, let reference, let type):
      return
        "\(path): error: \(entry):\(line): cell \(reference) has the type \"\(type)\", which is none of a sheet's (b, d, e, inlineStr, n, s, str)"
    case .tooManyDeclarations(let path, let entry, let what, let limit):
      return
        "\(path): error: \(entry): more than \(limit.groupedText) \(what); the file is refused so that memory stays bounded (a workbook of Excel or LibreOffice has far fewer)"
    }
  }
}
