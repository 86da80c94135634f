/// Reads an `.ods` spreadsheet's `content.xml` directly as it inflates, for documents in a conservative,
/// well-formed subset of XML 1.0 and Namespaces in XML; anything outside it makes the scanner decline
/// (``Stop/declined(_:)``), and the caller reads the part with libxml2 instead (``ODSTableReader``, then
/// ``ODSContentRewriter``), whose errors and messages stay the ones users see. libxml2's streaming reader took
/// most of the 10.5 s of a 300,000-row table.
///
/// The subset (as ``XLSXSheetScanner``'s):
/// - UTF-8 without a byte order mark; no XML declaration, or one in ``XMLDeclarationRule``'s subset; white
///   space around the root element; no comment, processing instruction, CDATA section or document type anywhere.
/// - Names of ASCII letters, digits, `_`, `-`, `.` with at most one colon; namespaces declared on the root element
///   only, no two prefixes for one namespace, every prefix used declared there; the root binds `office:`,
///   `table:`, `text:`, `style:` and `number:` to ODF's namespaces (as the rewriter requires); no attribute twice
///   in a tag; end tags that match; at most 256 levels.
/// - Text and attribute values: XML `Char`s in well-formed UTF-8, no carriage return, no tab or line feed in an
///   attribute value, `&` only as one of the five predefined entities or a character reference.
/// - The spreadsheet: one `office:spreadsheet` (no other element named `spreadsheet`), its tables `table:table`
///   (no other element named `table` among its children). The chosen table holds only column declarations
///   (`table:table-column`, empty, in any column groups), `office:forms` (empty), row groups
///   (`table:table-row-group`, `table:table-header-rows`, `table:table-rows`) and rows; a row only
///   `table:table-cell`s (no covered cell); a cell only `text:p` paragraphs; a paragraph text, `text:s`, `text:tab`,
///   `text:line-break` (empty) and `text:span`, `text:a` (holding the same).
///
/// Within the subset each row of the chosen table is read as ``ODSTableReader`` reads it (``row``), by the same
/// rules; `ODSContentScannerTests` and `FastGeneralDifferentialTests` compare both.
struct ODSContentScanner {
  /// Why the scanner stopped.
  enum Stop: Error {
    /// The buffer ends inside the item being read (internal: the scanner reads more and starts it again).
    case needMore
    /// The part is outside the subset (or malformed): not shown to users.
    case declined(String)
    /// The entry's stream refused its bytes (a zip bomb, a damaged entry, a DTD).
    case package(ZipError)
  }

  /// One piece of the part, in order: every byte is in exactly one item (``rowsBegin`` holds none).
  enum Item: Equatable {
    /// Bytes copied as they are.
    case markup(Range<Int>)
    /// `</office:automatic-styles>`: the fx_* cells' styles go before it.
    case automaticStylesEnd(Range<Int>)
    /// `<office:automatic-styles/>`: replaced by the element holding the styles.
    case automaticStylesEmpty(Range<Int>)
    /// A `style:style` start tag named as fxbatch's date style: an earlier run's styles are there.
    case dateStyle(Range<Int>)
    /// An `office:body` tag: the styles go before it when there were no automatic styles.
    case body(Range<Int>)
    /// A `table:table-column` of the chosen table, standing for `count` columns as the rewriter counts them.
    case column(Range<Int>, count: Int)
    /// Before the chosen table's first row or row group: where its columns end.
    case rowsBegin
    /// The chosen table's end tag.
    case tableEnd(Range<Int>)
    /// A row of the chosen table, described by ``row`` … ``rowColumns``.
    case row
  }

  /// The most bytes of one item (the prolog with the root's start tag, a row, a run of text): libxml2's limit
  /// of a text node.
  static let maximumItemSize = 10_000_000
  static let maximumDepth = 256
  static let maximumAttributes = 64
  static let padding = 16
  static let readSize = 1 << 18

  private let stream: any ZipEntryReading
  private let buffer: ReadBuffer
  private var streamError: ZipError? = nil
  private var chunk = [UInt8](repeating: 0, count: ODSContentScanner.readSize)
  /// The bytes read: the entry's bytes from the buffer's start (a view renewed when the buffer changes).
  private(set) var bytes: ByteView
  var loaded = 0
  private var position = 0
  private var ended = false

  private enum Phase { case prolog, content, epilog }
  private var phase = Phase.prolog
  var asciiOnly = false
  /// The open elements' qualified names, in ``names``.
  var open: [(start: Int, length: Int)] = []
  var names: [UInt8] = []
  /// The prefixes the root declares, and the one bound to LibreOffice's `calcext` namespace (if any).
  var prefixes: [[UInt8]] = []
  var calcextPrefix: [UInt8]? = nil
  /// Whether that prefix is `calcext` (``quickCell(at:)`` reads its attributes by their names).
  var calcextIsLiteral = false
  /// Each prefix of ``prefixes`` as a little-endian word, when it has at most 8 bytes.
  var prefixWords: [UInt64?] = []
  /// The attributes of the tag read last: name, prefix length (0: none), value, whether the value is as stored.
  var attributeList: [(name: Range<Int>, prefix: Int, value: Range<Int>, isPlain: Bool)] = []
  var attributeCount = 0

  /// The table chosen, and where the scan is in the document: saved at an item's start and restored when it is
  /// read again (``Stop/needMore``).
  private let choice: ODSTableReader.Choice
  private struct Place {
    var spreadsheetDepth: Int? = nil
    var tables = 0
    /// The chosen table's depth while it is open; whether it was found and ended.
    var tableDepth: Int? = nil
    var tableFound = false
    var rowsBegun = false
    var nextRow = 1
  }
  private var place = Place()
  /// The names of the spreadsheet's tables, in order.
  private(set) var tableNames: [String] = []
  /// The chosen table's name and its place among the tables (from 0), once found.
  private(set) var tableName = ""
  private(set) var tableIndex = 0
  var tableFound: Bool { place.tableFound }

  // MARK: The row of the last ``Item/row``

  /// A used cell of the row read last (``cells``): the cells LibreOffice writes by their value's bytes (read by
  /// ``ODSRowDecoder`` with no `String` per cell), any other by the value the general reader gives.
  struct Cell {
    enum Value {
      /// The `office:value` of a `float`, `currency` or `percentage` cell, as stored (no reference).
      case number(Range<Int>)
      /// The `office:date-value` of a `date` cell, as stored.
      case date(Range<Int>)
      /// The text of a `string` cell without `office:string-value`: its one paragraph's text, as stored (no
      /// reference, no element in it).
      case text(Range<Int>)
      /// Any other value, as ``ODSTableReader`` reads it.
      case other(SheetCellValue)
    }

    /// Its first column (from 0), and how many it stands for.
    let column: Int
    let count: Int
    let value: Value

    /// The last column it stands for.
    var lastColumn: Int { column + count - 1 }
  }

  /// The used cells of the row element, in order (reused from row to row).
  private(set) var cells: [Cell] = []
  /// Its first row's number and how many rows it stands for; whether its start tag has a
  /// `table:number-rows-repeated`.
  private(set) var rowNumber = 1
  private(set) var rowRepeated = 1
  private(set) var rowHasRepeatCount = false

  /// The row element as ``ODSTableReader/nextElement()`` reads it (made from ``cells``: valid until the next item).
  var row: ODSRowElement {
    ODSRowElement(
      number: rowNumber, repeated: rowRepeated,
      runs: cells.map { WorkbookRecords.CellRun(column: $0.column, count: $0.count, value: value(of: $0)) })
  }

  /// A used cell's value as ``ODSTableReader`` reads it.
  func value(of cell: Cell) -> SheetCellValue {
    switch cell.value {
    case .number(let range): .number(bytes.slice(range).text)
    case .date(let range): .date(bytes.slice(range).text)
    case .text(let range): .text(bytes.slice(range).text)
    case .other(let value): value
    }
  }

  /// The row element's bytes: from its `<` to after its end.
  private(set) var rowRange = 0..<0
  /// The end of its start tag (after `>`), and the `<` of its end tag (its start tag's end for `<…/>`).
  private(set) var rowTagEnd = 0
  private(set) var rowEndTagStart = 0
  private(set) var rowIsEmptyElement = false
  /// The columns its cells stand for as ``ODSContentRewriter`` counts them (each at most 2^32).
  private(set) var rowColumns = 0
  /// A cell's text as it is read (reused), and whether it is its paragraph's bytes as stored (no reference,
  /// no element in it), which end at ``paragraphEnd``.
  var text: [UInt8] = []
  var textIsStored = true
  var paragraphEnd = 0
  private var rowSpaces = 0

  /// - Parameters:
  ///   - stream: `content.xml`, unread.
  ///   - choice: the table whose rows are read.
  init(stream: any ZipEntryReading, choice: ODSTableReader.Choice) {
    self.stream = stream
    self.choice = choice
    buffer = ReadBuffer(capacity: 1 << 20, padding: Self.padding)
    bytes = buffer.view(count: 0)
  }

  /// The next item, or `nil` after the part's last byte.
  mutating func next() throws(Stop) -> Item? {
    while true {
      if position == loaded {
        guard try refill(keepingFrom: position) else {
          guard phase == .epilog else { throw .declined("the part ends inside its root element") }
          return nil
        }
      }
      let start = position
      let (openCount, namesCount, saved, savedPhase) = (open.count, names.count, place, phase)
      do throws(Stop) {
        let found = try item()
        guard position - start <= Self.maximumItemSize else { throw Stop.declined("an item too large") }
        return found
      } catch {
        guard case .needMore = error else { throw error }
        open.removeSubrange(openCount...)
        names.removeSubrange(namesCount...)
        (place, phase, position) = (saved, savedPhase, start)
        guard try refill(keepingFrom: start) else { throw .declined("the part ends inside markup") }
      }
    }
  }

  /// Reads more of the entry, keeping the bytes from `start` on (moved to the buffer's front: ``XMLPartRefill``).
  private mutating func refill(keepingFrom start: Int) throws(Stop) -> Bool {
    guard !ended else { return false }
    if start > 0 { position -= start }
    let outcome = XMLPartRefill.refill(
      stream, into: buffer, chunk: &chunk, streamError: &streamError, loaded: &loaded, keepingFrom: start,
      readSize: Self.readSize, maximumItemSize: Self.maximumItemSize)
    switch outcome {
    case .tooLarge: throw .declined("an item too large")
    case .failed(let error): throw .package(error)
    case .read, .ended:
      bytes = buffer.view(count: loaded)
      if case .ended = outcome { ended = true }
      return !ended
    }
  }

  @inline(__always)
  func byte(_ index: Int) throws(Stop) -> UInt8 {
    guard index < loaded else { throw .needMore }
    return bytes[index]
  }

  // MARK: Items

  private mutating func item() throws(Stop) -> Item {
    let start = position
    switch phase {
    case .prolog:
      try prolog()
      phase = .content
      return .markup(start..<position)
    case .epilog:
      while position < loaded, XMLCharacterRule.isSpace(bytes[position]) { position += 1 }
      guard position > start else { throw .declined("content after the root element") }
      return .markup(start..<position)
    case .content:
      guard bytes[position] == UInt8(ascii: "<") else {
        position = try textEnd(from: position)
        return .markup(start..<position)
      }
      if try byte(position + 1) == UInt8(ascii: "/") {
        let closed = try endTag(at: position)
        position = closed.end
        if open.isEmpty { phase = .epilog }
        if let depth = place.tableDepth, open.count == depth {
          place.tableDepth = nil
          return .tableEnd(start..<position)
        }
        if bytes.slice(closed.name).equals("office:automatic-styles") { return .automaticStylesEnd(start..<position) }
        if bytes.slice(closed.name).equals("office:body") { return .body(start..<position) }
        return .markup(start..<position)
      }
      let tag: Tag
      if place.tableDepth != nil, let quick = quickRowTag(at: position) { tag = quick } else { tag = try startTag(at: position) }
      let name = bytes.slice(tag.name)
      if let depth = place.tableDepth {
        return try tableItem(tag, name: name, start: start, tableDepth: depth)
      }
      let local = bytes.slice(localName(tag.name))
      if local.equals("spreadsheet") {
        guard name.equals("office:spreadsheet"), !tag.isEmptyElement else { throw .declined("a spreadsheet element") }
        if place.spreadsheetDepth == nil { place.spreadsheetDepth = open.count }
      } else if let depth = place.spreadsheetDepth, open.count == depth + 1, local.equals("table") {
        // An empty table counts for libxml2's reader, not for the rewriter's count of tables.
        guard name.equals("table:table"), !tag.isEmptyElement else { throw .declined("a table element") }
        try table(tag)
      }
      if !tag.isEmptyElement { try push(tag.name) }
      position = tag.end
      if name.equals("office:automatic-styles"), tag.isEmptyElement { return .automaticStylesEmpty(start..<position) }
      if name.equals("office:body") { return .body(start..<position) }
      if name.equals("style:style"), let value = rawValue(named: "style:name"), value.equals("fxbatch-rate-date") {
        return .dateStyle(start..<position)
      }
      return .markup(start..<position)
    }
  }

  /// A table of the spreadsheet's (its start tag read): its name, and whether it is the chosen one.
  private mutating func table(_ tag: Tag) throws(Stop) {
    var name = ""
    if let index = attribute(prefix: "table", local: "name") { name = try attributeText(index) }
    tableNames.append(name)
    defer { place.tables += 1 }
    guard !place.tableFound else { return }
    let isChosen: Bool
    switch choice {
    case .name(let wanted): isChosen = name == wanted
    case .number(let number): isChosen = number == place.tables + 1
    }
    guard isChosen else { return }
    place.tableFound = true
    place.tableDepth = open.count
    (tableName, tableIndex) = (name, place.tables)
  }

  /// An element inside the chosen table (outside its rows), its start tag read.
  private mutating func tableItem(_ tag: Tag, name: ByteView, start: Int, tableDepth: Int) throws(Stop) -> Item {
    let isRow = name.equals("table:table-row")
    let isRowGroup =
      name.equals("table:table-row-group") || name.equals("table:table-header-rows") || name.equals("table:table-rows")
    if isRow || isRowGroup, !inRowGroupsOnly(tableDepth: tableDepth) {
      throw .declined("a row in an element other than a row group")
    }
    if (isRow || isRowGroup), !place.rowsBegun {
      // The tag is read again after the marker.
      place.rowsBegun = true
      return .rowsBegin
    }
    if isRow {
      try readRow(at: start, tag: tag)
      return .row
    }
    if isRowGroup || name.equals("table:table-column-group") || name.equals("table:table-header-columns")
      || name.equals("table:table-columns")
    {
      if !tag.isEmptyElement { try push(tag.name) }
      position = tag.end
      return .markup(start..<position)
    }
    guard tag.isEmptyElement else { throw .declined("an element of the table with content") }
    position = tag.end
    if name.equals("table:table-column") {
      // As the rewriter counts it: the attribute's text as written, 1 when it is no count.
      let count = rawValue(named: "table:number-columns-repeated").flatMap { Int($0.text) }.map { max($0, 1) } ?? 1
      return .column(start..<position, count: count)
    }
    guard name.equals("office:forms") else { throw .declined("an element of the table") }
    return .markup(start..<position)
  }

  /// Whether every element open inside the chosen table is a row group: libxml2's reader passes over any other
  /// element whole (a column group's rows are no rows to it).
  private func inRowGroupsOnly(tableDepth: Int) -> Bool {
    open[(tableDepth + 1)...].allSatisfy { element in
      let name = names[element.start..<(element.start + element.length)]
      return Self.rowGroupNames.contains { $0.elementsEqual(name) }
    }
  }

  private static let rowGroupNames = ["table:table-row-group", "table:table-header-rows", "table:table-rows"].map {
    Array($0.utf8)
  }

  /// The XML declaration, white space and the root's start tag, which binds ODF's prefixes.
  private mutating func prolog() throws(Stop) {
    var at = position
    if try byte(at) == UInt8(ascii: "<"), try byte(at + 1) == UInt8(ascii: "?") {
      guard bytes.slice(at..<min(loaded, at + 5)).equals("<?xml") else {
        if at + 5 > loaded { throw .needMore }
        throw .declined("a processing instruction")
      }
      switch XMLDeclarationRule.read(bytes, at: at, loaded: loaded) {
      case .declaration(let end, _, let ascii):
        asciiOnly = ascii
        at = end
      case .needsMore: throw .needMore
      case .refused(let reason): throw .declined(reason)
      }
    }
    while XMLCharacterRule.isSpace(try byte(at)) { at += 1 }
    guard try byte(at) == UInt8(ascii: "<") else { throw .declined("no root element") }
    let tag = try startTag(at: at, isRoot: true)
    guard !tag.isEmptyElement else { throw .declined("an empty root element") }
    for (prefix, namespace) in ODSContentRewriter.prefixes {
      guard let value = rawValue(named: "xmlns:" + prefix), value.elementsEqual(namespace.utf8) else {
        throw .declined("the root does not bind \(prefix):")
      }
    }
    try push(tag.name)
    position = tag.end
  }

  // MARK: Rows

  /// Reads a row element of the chosen table whose start tag (`tag`) is at `start`, and its cells as
  /// ``ODSTableReader`` reads them.
  private mutating func readRow(at start: Int, tag: Tag) throws(Stop) {
    rowRange = start..<tag.end
    rowTagEnd = tag.end
    rowIsEmptyElement = tag.isEmptyElement
    rowEndTagStart = tag.end
    rowColumns = 0
    rowSpaces = 0
    let number = place.nextRow
    let repeated = try count(prefix: "table", local: "number-rows-repeated")
    rowHasRepeatCount = attribute(prefix: "table", local: "number-rows-repeated") != nil
    place.nextRow = ODSTableReader.row(after: number, repeated: repeated)
    (rowNumber, rowRepeated) = (number, repeated)
    cells.removeAll(keepingCapacity: true)
    var column = 0
    if !tag.isEmptyElement {
      try push(tag.name)
      let rowDepth = open.count
      var at = tag.end
      while true {
        if try byte(at) != UInt8(ascii: "<") {
          at = try textEnd(from: at)
          continue
        }
        if try byte(at + 1) == UInt8(ascii: "/") {
          let tagStart = at
          at = try endTag(at: at).end
          guard open.count == rowDepth - 1 else { throw .declined("an end tag in a row") }
          rowEndTagStart = tagStart
          break
        }
        let count: Int
        let value: Cell.Value?
        if let quick = quickCell(at: at) {
          (value, count, at) = quick
        } else {
          let cell = try startTag(at: at)
          guard bytes.slice(cell.name).equals("table:table-cell") else { throw .declined("an element of a row") }
          at = cell.end
          count = try self.count(prefix: "table", local: "number-columns-repeated")
          (value, at) = try cellValue(cell)
        }
        if let value {
          guard repeated - 1 <= CellReference.rowCount - number, count <= CellReference.columnCount - column else {
            throw .declined("a cell past the sheet")
          }
          cells.append(Cell(column: column, count: count, value: value))
        }
        column += min(count, CellReference.columnCount + 1 - column)
        rowColumns += min(count, 1 << 32)
      }
      position = at
    } else {
      position = tag.end
    }
    rowRange = start..<position
  }

  /// A cell at `index` (its `<`) in the markup LibreOffice writes, read at once: `<table:table-cell`, then
  /// attributes each once, ` name="value"` with a value of printable ASCII but `&` and `<`, named
  /// `office:value-type`, `office:value`, `office:date-value`, `table:style-name`,
  /// `table:number-columns-repeated` (a count without sign) or, when the root binds `calcext:` to LibreOffice's
  /// namespace, `calcext:value-type` (not `error`); then `/>`, or `>`, one `<text:p>` of printable ASCII but
  /// `&`, `<` and `]`, `</text:p></table:table-cell>`. Its value is what ``startTag(at:isRoot:)`` and
  /// ``cellValue(_:)`` read of the same bytes: a float, currency or percentage's value, a date's, a string's
  /// paragraph, no value for an empty cell without a type. `nil` for anything else (or bytes not read yet),
  /// which those read (and decline, or throw ``Stop/needMore``); nothing is changed then.
  ///
  /// - Returns: the cell's value (`nil`: unused), how many columns it stands for, and the index after it.
  @inline(__always)
  private func quickCell(at index: Int) -> (value: Cell.Value?, count: Int, end: Int)? {
    let (bytes, loaded) = (self.bytes, self.loaded)
    guard index + 17 < loaded, bytes.slice(index..<(index + 17)).equals("<table:table-cell"),
      open.count + 2 <= Self.maximumDepth
    else { return nil }
    var at = index + 17
    var (type, value, date, count) = (Range<Int>?.none, Range<Int>?.none, Range<Int>?.none, 1)
    var seen: UInt8 = 0
    while true {
      // The longest name with its `="` and a byte after it must be read (else the steps read the tag).
      guard at + 33 <= loaded else { return nil }
      if bytes[at] != UInt8(ascii: " ") { break }
      // The name, known by its first 8 bytes and then compared whole, with its `="`.
      let bit: UInt8
      let valueStart: Int
      switch bytes.word(at: at + 1) {
      case Self.officeV where bytes.slice((at + 9)..<(at + 20)).equals("alue-type=\""):
        (bit, valueStart) = (1, at + 20)
      case Self.officeV where bytes.slice((at + 9)..<(at + 15)).equals("alue=\""):
        (bit, valueStart) = (2, at + 15)
      case Self.officeD where bytes.slice((at + 9)..<(at + 20)).equals("ate-value=\""):
        (bit, valueStart) = (4, at + 20)
      case Self.tableSt where bytes.slice((at + 9)..<(at + 19)).equals("yle-name=\""):
        (bit, valueStart) = (8, at + 19)
      case Self.calcext where calcextIsLiteral && bytes.slice((at + 9)..<(at + 21)).equals("value-type=\""):
        (bit, valueStart) = (16, at + 21)
      case Self.tableNu where bytes.slice((at + 9)..<(at + 32)).equals("mber-columns-repeated=\""):
        (bit, valueStart) = (32, at + 32)
      default:
        return nil
      }
      guard seen & bit == 0 else { return nil }
      seen |= bit
      at = valueStart
      while at < loaded {
        let byte = bytes[at]
        guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&")
        else { break }
        at += 1
      }
      guard at < loaded, bytes[at] == UInt8(ascii: "\"") else { return nil }
      let found = valueStart..<at
      at += 1
      switch bit {
      case 1: type = found
      case 2: value = found
      case 4: date = found
      case 16: guard !bytes.slice(found).equals("error") else { return nil }
      case 32:
        guard let number = Self.decimal(bytes.slice(found)), number >= 1 else { return nil }
        count = number
      default: break
      }
    }
    var end: Int
    var text = 0..<0
    if bytes[at] == UInt8(ascii: "/") {
      guard at + 1 < loaded, bytes[at + 1] == UInt8(ascii: ">") else { return nil }
      end = at + 2
      // An empty cell without a type (a style, a count): unused. One with a type is read by the steps.
      guard type == nil else { return nil }
      return (nil, count, end)
    }
    guard bytes[at] == UInt8(ascii: ">"), at + 9 <= loaded, bytes.slice((at + 1)..<(at + 9)).equals("<text:p>") else {
      return nil
    }
    at += 9
    let textStart = at
    at = plainTextEnd(from: at)
    text = textStart..<at
    guard at + 28 <= loaded, bytes.slice(at..<(at + 28)).equals("</text:p></table:table-cell>") else { return nil }
    end = at + 28
    guard let type else { return nil }
    let kind = bytes.slice(type)
    if kind.equals("float") || kind.equals("currency") || kind.equals("percentage") {
      guard let value else { return nil }
      return (.number(value), count, end)
    }
    if kind.equals("date") {
      guard let date else { return nil }
      return (.date(date), count, end)
    }
    guard kind.equals("string") else { return nil }
    return (.text(text), count, end)
  }

  /// A row's start tag at `index` (its `<`) as LibreOffice writes it, read at once: `<table:table-row`, then
  /// ` table:style-name="…"` and ` table:number-rows-repeated="…"`, each at most once and in either order, with
  /// values of printable ASCII but `&` and `<`, then `>` or `/>`. Its attributes go into the attribute list as
  /// ``startTag(at:isRoot:)`` puts them; `nil` for any other tag (or bytes not read yet), which that reads.
  @inline(__always)
  private mutating func quickRowTag(at index: Int) -> Tag? {
    let (bytes, loaded) = (self.bytes, self.loaded)
    guard index + 16 < loaded, bytes.slice(index..<(index + 16)).equals("<table:table-row") else { return nil }
    var at = index + 16
    var count = 0
    var seen: UInt8 = 0
    while true {
      // The longer name with its `="` and a byte after it must be read.
      guard at + 30 <= loaded else { return nil }
      if bytes[at] != UInt8(ascii: " ") { break }
      let bit: UInt8
      let nameEnd: Int
      if bytes.slice((at + 1)..<(at + 19)).equals("table:style-name=\"") {
        (bit, nameEnd) = (1, at + 17)
      } else if bytes.slice((at + 1)..<(at + 29)).equals("table:number-rows-repeated=\"") {
        (bit, nameEnd) = (2, at + 27)
      } else {
        return nil
      }
      guard seen & bit == 0 else { return nil }
      seen |= bit
      let name = (at + 1)..<nameEnd
      let valueStart = nameEnd + 2
      at = valueStart
      while at < loaded {
        let byte = bytes[at]
        guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&")
        else { break }
        at += 1
      }
      guard at < loaded, bytes[at] == UInt8(ascii: "\"") else { return nil }
      let read = (name, 5, valueStart..<at, true)  // `table`, 5 bytes, is the prefix
      if count < attributeList.count { attributeList[count] = read } else { attributeList.append(read) }
      count += 1
      at += 1
    }
    let isEmpty = bytes[at] == UInt8(ascii: "/")
    if isEmpty {
      guard at + 1 < loaded, bytes[at + 1] == UInt8(ascii: ">") else { return nil }
    } else {
      guard bytes[at] == UInt8(ascii: ">") else { return nil }
    }
    attributeCount = count
    return Tag(name: (index + 1)..<(index + 16), end: at + (isEmpty ? 2 : 1), isEmptyElement: isEmpty)
  }

  /// The first 8 bytes of the names ``quickCell(at:)`` reads, as little-endian words (``ByteView/word(at:)``):
  /// `office:v`, `office:d`, `table:st`, `calcext:`, `table:nu` (`ODSRowDecoderTests` checks them).
  static var officeV: UInt64 { 0x763a_6563_6966_666f }
  static var officeD: UInt64 { 0x643a_6563_6966_666f }
  static var tableSt: UInt64 { 0x7473_3a65_6c62_6174 }
  static var calcext: UInt64 { 0x3a74_7865_636c_6163 }
  static var tableNu: UInt64 { 0x756e_3a65_6c62_6174 }

  /// A repetition count of the tag read last: 1 when absent; the general reader refuses one that is no count
  /// from 1 (the scanner declines), and the rewriter reads one as written (the scanner declines a reference).
  private func count(prefix: StaticString, local: StaticString) throws(Stop) -> Int {
    guard let index = attribute(prefix: prefix, local: local) else { return 1 }
    let attribute = attributeList[index]
    guard attribute.isPlain else { throw .declined("a count written with a reference") }
    let value = bytes.slice(attribute.value)
    if let number = Self.decimal(value), number >= 1 { return number }
    guard let number = Int(try attributeText(index)), number >= 1 else { throw .declined("a count") }
    return number
  }

  /// The value of a cell whose start tag was read last (its content, up to its end, read from `at`), as
  /// ``ODSTableReader`` gives it (``value(of:)``); `nil` for an unused cell.
  ///
  /// - Returns: the value and the index after the cell.
  private mutating func cellValue(_ tag: Tag) throws(Stop) -> (Cell.Value?, Int) {
    var (type, calcextType, formula, spanned) = (Int?.none, Int?.none, Int?.none, false)
    var (value, date, boolean, string) = (Int?.none, Int?.none, Int?.none, Int?.none)
    for index in 0..<attributeCount {
      let attribute = attributeList[index]
      guard attribute.prefix > 0 else { continue }
      let prefix = bytes.slice(attribute.name.lowerBound..<(attribute.name.lowerBound + attribute.prefix))
      let local = bytes.slice((attribute.name.lowerBound + attribute.prefix + 1)..<attribute.name.upperBound)
      if prefix.equals("office") {
        if local.equals("value-type") {
          type = index
        } else if local.equals("value") {
          value = index
        } else if local.equals("date-value") {
          date = index
        } else if local.equals("boolean-value") {
          boolean = index
        } else if local.equals("string-value") {
          string = index
        }
      } else if prefix.equals("table") {
        if local.equals("formula") {
          formula = index
        } else if local.equals("number-columns-spanned") {
          spanned = true
        }
      } else if let calcext = calcextPrefix, prefix.elementsEqual(calcext), local.equals("value-type") {
        calcextType = index
      }
    }
    let hasContent = !tag.isEmptyElement
    var at = tag.end
    text.removeAll(keepingCapacity: true)
    textIsStored = true
    // The one paragraph's text as stored, when it is (``textIsStored``).
    var storedText: Range<Int>? = nil
    if hasContent {
      try push(tag.name)
      let cellDepth = open.count
      var paragraphs = 0
      while true {
        if try byte(at) != UInt8(ascii: "<") {
          at = try textEnd(from: at)
          continue
        }
        if try byte(at + 1) == UInt8(ascii: "/") {
          at = try endTag(at: at).end
          guard open.count == cellDepth - 1 else { throw .declined("an end tag in a cell") }
          break
        }
        let child = try startTag(at: at)
        guard bytes.slice(child.name).equals("text:p") else { throw .declined("an element of a cell") }
        if paragraphs > 0 { text.append(UInt8(ascii: "\n")) }
        paragraphs += 1
        at = child.end
        if !child.isEmptyElement {
          try push(child.name)
          let contentStart = at
          at = try paragraph(from: at)
          storedText = contentStart..<paragraphEnd
        } else {
          storedText = nil
        }
      }
      if paragraphs != 1 { storedText = nil }
    }
    func attributeValue(_ index: Int?) throws(Stop) -> String? {
      try index.map { index throws(Stop) in try attributeText(index) }
    }
    /// The value of an attribute: its bytes when stored as they are.
    func stored(_ index: Int, _ make: (Range<Int>) -> Cell.Value, _ other: (String) -> SheetCellValue) throws(Stop)
      -> Cell.Value
    {
      attributeList[index].isPlain ? make(attributeList[index].value) : .other(other(try attributeText(index)))
    }
    func cellText() -> String { String(decoding: text, as: UTF8.self) }
    if let calcextType {
      let calcext = attributeList[calcextType]
      let isError = calcext.isPlain ? bytes.slice(calcext.value).equals("error") : try attributeText(calcextType) == "error"
      if isError { return (.other(.error(cellText())), at) }
    }
    guard let type else {
      if let formula = try attributeValue(formula) {
        return (
          .other(.formulaWithoutValue(formula: formula.hasPrefix("of:=") ? String(formula.dropFirst(4)) : formula)), at
        )
      }
      if !text.isEmpty { return (.other(.text(cellText())), at) }
      return (hasContent || spanned ? .other(.empty) : nil, at)
    }
    /// A string cell's text: its `office:string-value`, else its paragraphs'.
    func stringValue() throws(Stop) -> Cell.Value {
      if let string { return try stored(string, Cell.Value.text, SheetCellValue.text) }
      if textIsStored, let storedText { return .text(storedText) }
      return .other(.text(cellText()))
    }
    let typeValue = attributeList[type]
    let typeBytes = bytes.slice(typeValue.value)
    if typeValue.isPlain, typeBytes.equals("float") || typeBytes.equals("currency") || typeBytes.equals("percentage") {
      guard let value else { throw .declined("a number without its value") }
      return (try stored(value, Cell.Value.number, SheetCellValue.number), at)
    }
    if typeValue.isPlain, typeBytes.equals("date") {
      guard let date else { throw .declined("a date without its value") }
      return (try stored(date, Cell.Value.date, SheetCellValue.date), at)
    }
    if typeValue.isPlain, typeBytes.equals("string") { return (try stringValue(), at) }
    switch try attributeText(type) {
    case "float", "currency", "percentage":
      guard let value else { throw .declined("a number without its value") }
      return (try stored(value, Cell.Value.number, SheetCellValue.number), at)
    case "date":
      guard let date else { throw .declined("a date without its value") }
      return (try stored(date, Cell.Value.date, SheetCellValue.date), at)
    case "boolean":
      guard let flag = try attributeValue(boolean) else { throw .declined("a boolean without its value") }
      return (.other(.boolean(flag == "true")), at)
    case "string":
      return (try stringValue(), at)
    default:
      return (.other(.text(cellText())), at)
    }
  }

  /// Reads the content of a paragraph (or a span in it) from `at` up to its end tag, appending its text.
  ///
  /// - Returns: the index after its end tag.
  private mutating func paragraph(from index: Int) throws(Stop) -> Int {
    let depth = open.count
    var at = index
    while true {
      if try byte(at) != UInt8(ascii: "<") {
        at = try textEnd(from: at, capture: true)
        continue
      }
      if try byte(at + 1) == UInt8(ascii: "/") {
        paragraphEnd = at
        at = try endTag(at: at).end
        guard open.count == depth - 1 else { throw .declined("an end tag in a paragraph") }
        return at
      }
      textIsStored = false
      let child = try startTag(at: at)
      let name = bytes.slice(child.name)
      at = child.end
      if name.equals("text:span") || name.equals("text:a") {
        if !child.isEmptyElement {
          try push(child.name)
          at = try paragraph(from: at)
        }
        continue
      }
      guard child.isEmptyElement else { throw .declined("an element of a paragraph with content") }
      if name.equals("text:s") {
        var spaces = 1
        if let index = attribute(prefix: "text", local: "c") {
          guard let count = Int(try attributeText(index)), (1...ODSTableReader.maximumSpaces).contains(count) else {
            throw .declined("a count of spaces")
          }
          spaces = count
        }
        rowSpaces += spaces
        guard rowSpaces <= ODSTableReader.maximumRowSpaces else { throw .declined("too many spaces") }
        text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
      } else if name.equals("text:tab") {
        text.append(UInt8(ascii: "\t"))
      } else if name.equals("text:line-break") {
        text.append(UInt8(ascii: "\n"))
      } else {
        throw .declined("an element of a paragraph")
      }
    }
  }

  /// A number without sign, as `Int(text)` reads it (at most 18 digits here); `nil` otherwise.
  static func decimal(_ text: ByteView) -> Int? {
    guard text.count > 0, text.count <= 18 else { return nil }
    var value = 0
    for byte in text {
      guard byte &- UInt8(ascii: "0") < 10 else { return nil }
      value = value * 10 + Int(byte &- UInt8(ascii: "0"))
    }
    return value
  }
}
