import CLibXML2

/// Reads a worksheet part (`xl/worksheets/sheet1.xml`) row by row as it inflates, so that memory holds one row.
///
/// Rows and cells are placed by their `r` attributes (`<row r="7">`, `<c r="C7">`); one without `r` follows the
/// one before it, as Excel reads them. A row before or at the row before it, a cell before or at the cell before
/// it, or a cell reference in another row is refused, as is a shared-string index the table does not have.
public final class XLSXSheetReader {
  private let part: PackagePartReader
  private let sharedStrings: XLSXSharedStrings
  private var previousRow = 0

  /// - Parameters:
  ///   - package: the workbook.
  ///   - entry: the worksheet part.
  ///   - sharedStrings: the workbook's shared strings (empty when it has none).
  /// - Throws: ``WorkbookError``.
  public init(package: ZipPackage, entry: ZipEntry, sharedStrings: XLSXSharedStrings) throws(WorkbookError) {
    part = try PackagePartReader(package: package, entry: entry)
    self.sharedStrings = sharedStrings
  }

  /// The next row, or `nil` after the last one.
  ///
  /// - Throws: ``WorkbookError``.
  public func nextRow() throws(WorkbookError) -> SheetRow? {
    while try part.read() {
      guard part.isElement(XML_READER_TYPE_ELEMENT, named: "row") else { continue }
      let number = try rowNumber()
      previousRow = number
      var cells: [SheetCell] = []
      try part.forEachNodeInside { () throws(WorkbookError) in
        guard part.isElement(XML_READER_TYPE_ELEMENT, named: "c") else { return }
        cells.append(try cell(row: number, after: cells.last?.reference.column ?? -1))
      }
      return SheetRow(number: number, cells: cells)
    }
    return nil
  }

  /// Reads the part to its end after the last row, checking its entry's size and checksum there.
  ///
  /// - Throws: ``WorkbookError``.
  public func finish() throws(WorkbookError) {
    while try part.read() {}
    try part.readToEnd()
  }

  /// The number of the row element the reader is on.
  private func rowNumber() throws(WorkbookError) -> Int {
    guard let number = Self.rowNumber(part.attribute("r"), after: previousRow) else {
      throw .misplacedRow(
        path: part.path, entry: part.entry, line: part.line, row: part.attribute("r") ?? String(previousRow + 1))
    }
    return number
  }

  /// A row's number from its `r` attribute (`nil`: none, then the row after `previous`); `nil` when it is not
  /// after `previous` or past the last row. Every reader of sheets places rows by this rule.
  static func rowNumber(_ text: String?, after previous: Int) -> Int? {
    guard let text else { return previous < CellReference.rowCount ? previous + 1 : nil }
    guard let number = Int(text), number > previous, number <= CellReference.rowCount else { return nil }
    return number
  }

  /// The cell element the reader is on, read to its end.
  private func cell(row: Int, after previousColumn: Int) throws(WorkbookError) -> SheetCell {
    let line = part.line
    let referenceText = part.attribute("r")
    let type = part.attribute("t")
    let style = part.attribute("s")
    var value: String? = nil
    var formula: String? = nil
    var inline: String? = nil
    try part.forEachNodeInside { () throws(WorkbookError) in
      if part.isElement(XML_READER_TYPE_ELEMENT, named: "v") {
        value = try part.elementText()
      } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "f") {
        formula = try part.elementText()
      } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "is") {
        inline = try part.richText()
      }
    }
    return try Self.cell(
      reference: referenceText, type: type, style: style, value: value, formula: formula, inline: inline, row: row,
      after: previousColumn, sharedStrings: sharedStrings, path: part.path, entry: part.entry, line: line)
  }

  /// A cell from its attributes (`r`, `t`, `s`, as written, `nil` when absent) and the text of its `<v>`,
  /// `<f>` and `<is>` (``PackagePartReader/richText()``): every reader of sheets makes cells by this rule.
  ///
  /// - Throws: ``WorkbookError`` for a reference out of place, a shared string the table does not have, or a value of a
  ///   type no sheet has.
  static func cell(
    reference referenceText: String?, type: String?, style: String?, value: String?, formula: String?, inline: String?,
    row: Int, after previousColumn: Int, sharedStrings: XLSXSharedStrings, path: String, entry: String, line: Int
  ) throws(WorkbookError) -> SheetCell {
    let reference = try cellReference(
      referenceText, row: row, after: previousColumn, path: path, entry: entry, line: line)
    return SheetCell(
      reference: reference, style: style.flatMap { Int($0) } ?? 0,
      value: try cellValue(
        type: type ?? "n", value: value, formula: formula, inline: inline, reference: reference,
        sharedStrings: sharedStrings, path: path, entry: entry, line: line))
  }

  /// Where a cell is: its `r`, else the column after the previous cell's.
  private static func cellReference(
    _ text: String?, row: Int, after previousColumn: Int, path: String, entry: String, line: Int
  ) throws(WorkbookError) -> CellReference {
    guard let text else {
      guard let reference = CellReference(column: previousColumn + 1, row: row) else {
        throw .misplacedCell(path: path, entry: entry, line: line, reference: "(none)", reason: "past the last column, XFD")
      }
      return reference
    }
    guard let reference = CellReference(text) else {
      throw .misplacedCell(path: path, entry: entry, line: line, reference: text, reason: "not a cell (A1 to XFD1048576)")
    }
    guard reference.row == row else {
      throw .misplacedCell(path: path, entry: entry, line: line, reference: text, reason: "not in row \(row)")
    }
    guard reference.column > previousColumn else {
      throw .misplacedCell(path: path, entry: entry, line: line, reference: text, reason: "not after the cell before it")
    }
    return reference
  }

  /// A value without the XML white space (space, tab, line feed, carriage return) around it.
  private static func collapsingSpace(_ value: String) -> String {
    let isSpace = XMLCharacterRule.isSpace
    let bytes = value.utf8
    guard let first = bytes.first, let last = bytes.last, isSpace(first) || isSpace(last) else { return value }
    guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(decoding: bytes[start...end], as: UTF8.self)
  }

  /// A cell's value from its type and the text of its `<v>`, `<f>` and `<is>`.
  private static func cellValue(
    type: String, value: String?, formula: String?, inline: String?, reference: CellReference,
    sharedStrings: XLSXSharedStrings, path: String, entry: String, line: Int
  ) throws(WorkbookError) -> SheetCellValue {
    if type == "inlineStr" { return inline.map(SheetCellValue.text) ?? .empty }
    // The values of numbers, shared-string indexes, booleans and typed dates are XML Schema values whose white
    // space collapses (xsd:double, xsd:int, xsd:boolean, xsd:dateTime): `<v> 389.9 </v>` is 389.9.
    let value = ["n", "s", "b", "d"].contains(type) ? value.map(Self.collapsingSpace) : value
    // openpyxl writes a formula without a cached value as `<f>…</f><v />`.
    guard let value, !value.isEmpty || type == "str" else {
      return formula.map { .formulaWithoutValue(formula: $0) } ?? .empty
    }
    switch type {
    case "s":
      guard let index = Int(value), sharedStrings.strings.indices.contains(index) else {
        throw .noSuchSharedString(path: path, entry: entry, line: line, reference: reference.description, index: value)
      }
      return .text(sharedStrings.strings[index])
    case "str": return .text(XLSXText.unescaped(value))
    case "b": return .boolean(value == "1" || value == "true")
    case "e": return .error(value)
    case "d": return .date(value)
    case "n": return .number(value)
    default:
      throw .unknownCellType(path: path, entry: entry, line: line, reference: reference.description, type: type)
    }
  }
}
