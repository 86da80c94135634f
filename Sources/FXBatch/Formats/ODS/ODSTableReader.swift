import CLibXML2

/// One `table:table-row` element of a table: the row it starts at, how many rows it stands for
/// (`table:number-rows-repeated`) and its used cells (see ``ODSTableReader``) as they are written, each standing
/// for its `table:number-columns-repeated` columns: a repeated cell is one run until its cells are asked for, and
/// only the columns asked for are made (a run of 16,000 columns in each of thousands of rows took 30 s).
struct ODSRowElement: Equatable {
  let number: Int
  let repeated: Int
  /// Its used cell elements, in order.
  let runs: [WorkbookRecords.CellRun]

  /// The last column a used cell stands for; `nil` when the element has none.
  var lastColumn: Int? { runs.last.map { $0.column + $0.count - 1 } }

  /// Whether the element holds no value: its rows are not records, and it stands for them all at no cost.
  var isBlank: Bool { runs.allSatisfy { WorkbookRecords.isBlank($0.value) } }

  /// The row `offset` rows after its first (each of a repeated row's rows holds the same cells), with its cells
  /// in the first `columns` columns.
  func row(_ offset: Int, columns: Int = .max) -> SheetRow {
    var cells: [SheetCell] = []
    for run in runs where run.column < columns {
      for column in run.column..<min(run.column + run.count, columns) {
        if let reference = CellReference(column: column, row: number + offset) {
          cells.append(SheetCell(reference: reference, style: 0, value: run.value))
        }
      }
    }
    return SheetRow(number: number + offset, cells: cells)
  }
}

/// Reads one table (a sheet) of an `.ods` spreadsheet's `content.xml` as it inflates, row element by row
/// element, through libxml2's streaming reader (``PackagePartReader``), so that memory holds one row.
///
/// Rows are the `table:table-row` elements of the table at any depth of its row groups (`table:table-row-group`,
/// `table:table-header-rows`, `table:table-rows`); cells are `table:table-cell` and `table:covered-table-cell`
/// (which occupies its column under a merged cell), each standing for `table:number-columns-repeated` columns.
/// A cell is used when it holds a value, a formula or content, spans columns, or is covered; the others (the
/// thousands of trailing empty cells and rows LibreOffice writes as one repeated element) only move the column
/// or row on. Values by `office:value-type` (ODF 1.3 part 3, 19.385): float, currency and percentage are the
/// decimal text of `office:value` (never `Double`), a date its `office:date-value`, a boolean, and text the
/// cell's paragraphs; LibreOffice's `calcext:value-type="error"` is an error cell with the text it shows.
final class ODSTableReader {
  /// How a table is chosen.
  enum Choice {
    case name(String)
    /// From 1.
    case number(Int)
  }

  static let officeNamespace: StaticString = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
  static let tableNamespace: StaticString = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
  static let textNamespace: StaticString = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
  static let calcextNamespace: StaticString = "urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"

  private let part: PackagePartReader
  /// The table's name and its place among the spreadsheet's tables, from 0.
  let name: String
  let index: Int
  private let tableDepth: Int
  private var nextNumber = 1
  private var ended = false
  /// The repeated row element ``nextRow()`` is handing out, and the offset of its next row.
  private var repeating: (element: ODSRowElement, offset: Int)? = nil
  /// The spaces the `text:s` elements of the row element being read stand for so far (``maximumRowSpaces``).
  private var rowSpaces = 0

  /// Opens `content.xml` and reads up to the start of the chosen table; `nil` when there is no such table.
  ///
  /// - Throws: ``ODSError``.
  init?(package: ZipPackage, entry: ZipEntry, choice: Choice) throws(ODSError) {
    let part: PackagePartReader
    do { part = try PackagePartReader(package: package, entry: entry) } catch { throw .part(error) }
    self.part = part
    var found: (name: String, index: Int, depth: Int)? = nil
    var index = 0
    try Self.forEachTable(part) { () throws(ODSError) -> Bool in
      let name = part.attribute("name", namespace: Self.tableNamespace) ?? ""
      defer { index += 1 }
      let isChosen: Bool
      switch choice {
      case .name(let wanted): isChosen = name == wanted
      case .number(let number): isChosen = number == index + 1
      }
      if isChosen { found = (name, index, part.depth) }
      return isChosen
    }
    guard let found else { return nil }
    (name, self.index, tableDepth) = (found.name, found.index, found.depth)
    ended = part.isEmptyElement
  }

  /// The names of a spreadsheet's tables, in order.
  static func tableNames(package: ZipPackage, entry: ZipEntry) throws(ODSError) -> [String] {
    let part: PackagePartReader
    do { part = try PackagePartReader(package: package, entry: entry) } catch { throw .part(error) }
    var names: [String] = []
    try forEachTable(part) { () throws(ODSError) -> Bool in
      names.append(part.attribute("name", namespace: tableNamespace) ?? "")
      return false
    }
    return names
  }

  /// Calls `body` on each table element of the spreadsheet (the reader on its start tag) until it says `true`,
  /// skipping the tables it does not take.
  private static func forEachTable(_ part: PackagePartReader, _ body: () throws(ODSError) -> Bool) throws(ODSError) {
    var spreadsheetDepth: Int? = nil
    do {
      while try part.read() {
        guard part.nodeType == XML_READER_TYPE_ELEMENT else { continue }
        if spreadsheetDepth == nil, part.isElement(XML_READER_TYPE_ELEMENT, named: "spreadsheet") {
          spreadsheetDepth = part.depth
        } else if let depth = spreadsheetDepth, part.depth == depth + 1,
          part.isElement(XML_READER_TYPE_ELEMENT, named: "table")
        {
          if try body() { return }
          try part.forEachNodeInside {}
        }
      }
    } catch {
      throw odsError(error, part: part)
    }
  }

  /// The next row of the table, a repeated row element's rows one by one (a blank one as its first row only).
  ///
  /// - Throws: ``ODSError``.
  func nextRow() throws(ODSError) -> SheetRow? {
    if let (element, offset) = repeating, offset < element.repeated {
      repeating = (element, offset + 1)
      return element.row(offset)
    }
    guard let element = try nextElement() else { return nil }
    if !element.isBlank, element.repeated > 1 { repeating = (element, 1) }
    return element.row(0)
  }

  /// The next row element of the table, or `nil` after its last.
  ///
  /// - Throws: ``ODSError``.
  func nextElement() throws(ODSError) -> ODSRowElement? {
    guard !ended else { return nil }
    do {
      while try part.read() {
        if part.nodeType == XML_READER_TYPE_END_ELEMENT, part.depth == tableDepth {
          ended = true
          return nil
        }
        guard part.nodeType == XML_READER_TYPE_ELEMENT else { continue }
        if part.isElement(XML_READER_TYPE_ELEMENT, named: "table-row") {
          requireTableNamespace("table-row")
          return try rowElement()
        }
        // Row groups hold rows; anything else (columns, shapes, named expressions) holds none.
        if part.isElement(XML_READER_TYPE_ELEMENT, named: "table-row-group")
          || part.isElement(XML_READER_TYPE_ELEMENT, named: "table-header-rows")
          || part.isElement(XML_READER_TYPE_ELEMENT, named: "table-rows")
        {
          requireTableNamespace("row group")
          continue
        }
        try inside {}
      }
    } catch {
      throw Self.odsError(error, part: part)
    }
    ended = true
    return nil
  }

  /// Reads the rest of `content.xml` (the tables after this one), so that pass 1 refuses malformed XML anywhere
  /// in the part that pass 2 copies.
  ///
  /// - Throws: ``ODSError``.
  func readToEnd() throws(ODSError) {
    do throws(WorkbookError) {
      while try part.read() {}
    } catch {
      throw .part(error)
    }
    ended = true
  }

  /// A repetition count (`table:number-rows-repeated`, `table:number-columns-repeated`): 1 when absent.
  private func repetition(_ attribute: StaticString) throws(ODSError) -> Int {
    guard let text = part.attribute(attribute, namespace: Self.tableNamespace) else { return 1 }
    guard let count = Int(text), count >= 1 else {
      throw .malformed(
        path: part.path, entry: part.entry, line: part.line,
        reason: "table:\(attribute)=\(RowError.quoted(text)) is not a count from 1")
    }
    return count
  }

  /// The row element the reader is on, read to its end.
  private func rowElement() throws(ODSError) -> ODSRowElement {
    let number = nextNumber
    let repeated = try repetition("number-rows-repeated")
    let line = part.line
    rowSpaces = 0
    nextNumber = Self.row(after: number, repeated: repeated)
    var runs: [WorkbookRecords.CellRun] = []
    var column = 0
    try inside { () throws(ODSError) in
      let covered = part.isElement(XML_READER_TYPE_ELEMENT, named: "covered-table-cell")
      guard covered || part.isElement(XML_READER_TYPE_ELEMENT, named: "table-cell") else {
        if part.nodeType == XML_READER_TYPE_ELEMENT { try inside {} }
        return
      }
      requireTableNamespace("cell")
      let count = try repetition("number-columns-repeated")
      if let value = try cellValue(covered: covered) {
        guard repeated - 1 <= CellReference.rowCount - number, count <= CellReference.columnCount - column
        else {
          throw .beyondSheet(
            path: part.path, entry: part.entry, line: line,
            reason:
              count > CellReference.columnCount - column
              ? "row \(number) has a cell with a value in column \(column + count)"
              : "row \(number), repeated, has cells with a value down to row \(number + repeated - 1)"
          )
        }
        runs.append(WorkbookRecords.CellRun(column: column, count: count, value: value))
      }
      column += min(count, CellReference.columnCount + 1 - column)
    }
    return ODSRowElement(number: number, repeated: repeated, runs: runs)
  }

  /// The first row, row group or cell element read (found by its local name) outside ODF's table namespace, as
  /// the error that refuses the part: the rewriter (``ODSContentRewriter``) knows only `table:` ones, and would
  /// write the fx_* cells of a row it does not see into the next one. Kept, not thrown, so that pass 1 refuses
  /// malformed XML and unbound prefixes first (``ODSFormat/scanInTwoPasses(_:context:)``).
  private(set) var foreignElement: ODSError? = nil

  private func requireTableNamespace(_ what: String) {
    guard foreignElement == nil, !part.isInNamespace(Self.tableNamespace) else { return }
    foreignElement = .malformed(
      path: part.path, entry: part.entry, line: part.line,
      reason: "a \(what) element outside the namespace \(Self.tableNamespace)")
  }

  /// The number of the row after a row element of `repeated` rows starting at `number`. Counts past any sheet
  /// saturate (without overflow): such rows can only be blank, as a used one is refused.
  static func row(after number: Int, repeated: Int) -> Int {
    number > CellReference.rowCount ? number : number + min(repeated, CellReference.rowCount)
  }

  /// The value of the cell element the reader is on, read to its end; `nil` for an unused cell.
  private func cellValue(covered: Bool) throws(ODSError) -> SheetCellValue? {
    let type = part.attribute("value-type", namespace: Self.officeNamespace)
    let calcextType = part.attribute("value-type", namespace: Self.calcextNamespace)
    let formula = part.attribute("formula", namespace: Self.tableNamespace)
    let spanned = part.attribute("number-columns-spanned", namespace: Self.tableNamespace) != nil
    let attributes = (
      value: part.attribute("value", namespace: Self.officeNamespace),
      date: part.attribute("date-value", namespace: Self.officeNamespace),
      boolean: part.attribute("boolean-value", namespace: Self.officeNamespace),
      string: part.attribute("string-value", namespace: Self.officeNamespace)
    )
    let hasContent = !part.isEmptyElement
    let text = try paragraphs()
    if calcextType == "error" { return .error(text) }
    switch type {
    case "float", "currency", "percentage":
      guard let value = attributes.value else { throw missing("office:value", type: type) }
      return .number(value)
    case "date":
      guard let date = attributes.date else { throw missing("office:date-value", type: type) }
      return .date(date)
    case "boolean":
      guard let flag = attributes.boolean else { throw missing("office:boolean-value", type: type) }
      return .boolean(flag == "true")
    case "string":
      return .text(attributes.string ?? text)
    case .some:
      // A time (`PT12H30M00S`), or a type of a later ODF: the text the cell shows.
      return .text(text)
    case nil:
      if let formula { return .formulaWithoutValue(formula: formula.hasPrefix("of:=") ? String(formula.dropFirst(4)) : formula) }
      if !text.isEmpty { return .text(text) }
      return hasContent || covered || spanned ? .empty : nil
    }
  }

  private func missing(_ attribute: String, type: String?) -> ODSError {
    .malformed(
      path: part.path, entry: part.entry, line: part.line,
      reason: "a cell of office:value-type \(RowError.quoted(type ?? "")) without its \(attribute)")
  }

  /// The text of the cell element the reader is on, up to its end: its paragraphs (`text:p`, `text:h`) joined by
  /// line breaks, with `text:s` spaces, `text:tab` tabs and `text:line-break` line breaks, the text of spans and
  /// links; without annotations (comments) and notes, which are not the cell's value.
  private func paragraphs() throws(ODSError) -> String {
    var paragraphs: [String] = []
    try inside { () throws(ODSError) in
      guard part.nodeType == XML_READER_TYPE_ELEMENT else { return }
      guard part.isElement(XML_READER_TYPE_ELEMENT, named: "p") || part.isElement(XML_READER_TYPE_ELEMENT, named: "h")
      else {
        try inside {}
        return
      }
      var text = ""
      try inside { () throws(ODSError) in
        if let piece = part.text {
          text += piece
        } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "s") {
          let count = part.attribute("c", namespace: Self.textNamespace).map { Int($0) } ?? 1
          guard let count, (1...Self.maximumSpaces).contains(count) else {
            throw .malformed(
              path: part.path, entry: part.entry, line: part.line,
              reason: "text:s with a count of spaces that is not 1 to \(Self.maximumSpaces)")
          }
          rowSpaces += count
          guard rowSpaces <= Self.maximumRowSpaces else {
            throw .malformed(
              path: part.path, entry: part.entry, line: part.line,
              reason: "a row whose text:s elements stand for more than \(Self.maximumRowSpaces) spaces")
          }
          text += String(repeating: " ", count: count)
        } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "tab") {
          text += "\t"
        } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "line-break") {
          text += "\n"
        } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "annotation")
          || part.isElement(XML_READER_TYPE_ELEMENT, named: "note")
        {
          try inside {}
        }
      }
      paragraphs.append(text)
    }
    return paragraphs.joined(separator: "\n")
  }

  /// Reads the nodes inside the element the reader is on, calling `body` on each (``PackagePartReader/forEachNodeInside(_:)``
  /// with this reader's errors); `inside {}` skips the element.
  private func inside(_ body: () throws(ODSError) -> Void) throws(ODSError) {
    var failure: ODSError? = nil
    do throws(WorkbookError) {
      try part.forEachNodeInside { () throws(WorkbookError) in
        do throws(ODSError) { try body() } catch {
          failure = error
          throw .missingPart(path: part.path, part: part.entry)
        }
      }
    } catch {
      throw failure ?? .part(error)
    }
  }

  /// An error of the reader or of ``PackagePartReader`` as this reader's.
  private static func odsError(_ error: any Error, part: PackagePartReader) -> ODSError {
    switch error {
    case let error as ODSError: return error
    case let error as WorkbookError: return .part(error)
    default: return .malformed(path: part.path, entry: part.entry, line: part.line, reason: "\(error)")
    }
  }

  /// The most spaces one `text:s` may stand for: a cell holds at most 32767 characters in LibreOffice and Excel.
  static let maximumSpaces = 32767

  /// The most spaces the `text:s` elements of one row element may stand for in all: 1 MiB. A `text:s` of 25 bytes
  /// stands for up to 32,767 spaces, so an 11 KB part of them made a cell of 327 million (65 s, 595 MB); a row
  /// of real text never has a megabyte of runs of spaces.
  static let maximumRowSpaces = 1 << 20
}
