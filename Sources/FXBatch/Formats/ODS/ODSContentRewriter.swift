/// Copies an `.ods` spreadsheet's `content.xml` as it inflates, byte for byte, except in the converted table:
/// its column declarations get columns for the fx_* cells, and each row its caller gives cells for gets them
/// after the last used column. A repeated row (`table:number-rows-repeated`) whose rows get cells is written
/// once for each run of its rows that get the same cells, repeated as many times as the run is long (its
/// records converted the same way are one row element again); trailing empty cells that reach past the last
/// used column are cut to make room (the part past the fx_* cells is kept). Memory holds one chunk and one row
/// element.
///
/// Tags are found by ``XMLMarkup/end(in:from:)`` (quoted attribute values, comments, CDATA sections,
/// processing instructions); libxml2 has read the part in pass 1, so it is well-formed XML. The cells it writes
/// and styles use the `table:`, `office:`, `text:`, `style:` and `number:` prefixes, which it checks the document binds to ODF's namespaces.
struct ODSContentRewriter {
  /// The converted table's place among the spreadsheet's tables, from 0.
  let tableIndex: Int
  /// The first column (0-based) of the fx_* cells, and how many there are.
  let firstColumn: Int
  let columnCount: Int

  /// Where the caller hands the fx_* cells of a row element's rows: their markup, and for how many consecutive
  /// rows (from the element's first, or from the rows given before).
  typealias Emit = (_ markup: [UInt8], _ rows: Int) throws(FileError) -> Void

  /// What a cell start tag is to the rewriter.
  private struct CellTag {
    /// How many columns it stands for.
    let repeated: Int
    /// Whether it holds nothing (a self-closing `table:table-cell` with no value, formula or span): it may be cut.
    let isEmpty: Bool
  }

  /// Rewrites the part.
  ///
  /// - Parameters:
  ///   - stream: `content.xml`, unread.
  ///   - write: where the bytes go.
  ///   - cells: gives the markup of the fx_* cells of each row of a row element, by its first row's number and
  ///     how many rows it stands for, to ``Emit`` in runs that cover all its rows; nothing to leave the element as
  ///     it is.
  /// - Throws: ``FileError``.
  func rewrite(
    _ stream: ZipEntryStream, write: ([UInt8]) throws(FileError) -> Void,
    cells: (_ row: Int, _ repeated: Int, _ emit: Emit) throws(FileError) -> Void
  ) throws(FileError) {
    let path = stream.package.path
    var scanner = ODSMarkupScanner(stream: stream)
    var depth = 0
    var spreadsheetDepth: Int? = nil
    var tables = 0
    var tableDepth: Int? = nil
    var tableFound = false
    var declaredColumns = 0
    var columnsExtended = false
    var row = 1
    var checkedPrefixes = false
    var stylesWritten = false
    while let piece = try scanner.next() {
      guard piece.first == UInt8(ascii: "<"), piece.count > 1, !"!?".utf8.contains(piece[1]) else {
        try write(piece)
        continue
      }
      let element = ODSMarkupScanner.element(of: piece)
      let isEnd = piece[1] == UInt8(ascii: "/")
      let isEmpty = piece[piece.count - 2] == UInt8(ascii: "/")
      if !checkedPrefixes {
        try Self.checkPrefixes(piece, path: path)
        checkedPrefixes = true
      }
      if !stylesWritten {
        switch element {
        case .automaticStyles where isEnd:
          try write(ODSCells.automaticStyles)
          stylesWritten = true
        case .automaticStyles where isEmpty:
          try write(Array("<office:automatic-styles>".utf8) + ODSCells.automaticStyles + Array("</office:automatic-styles>".utf8))
          stylesWritten = true
          continue
        case .style where ODSMarkupScanner.value(of: "style:name", in: piece) == ODSCells.dateStyle:
          // An earlier run converted another table of the document: its styles serve.
          stylesWritten = true
        case .body:
          try write(Array("<office:automatic-styles>".utf8) + ODSCells.automaticStyles + Array("</office:automatic-styles>".utf8))
          stylesWritten = true
        default: break
        }
      }
      if tableDepth != nil, !isEnd {
        if [.tableRow, .tableRowGroup, .tableHeaderRows, .tableRows].contains(element), !columnsExtended {
          try write(extraColumns(declared: declaredColumns))
          columnsExtended = true
        }
        if element == .tableColumn {
          declaredColumns = min(declaredColumns, 1 << 32) + min(Self.count("table:number-columns-repeated", of: piece), 1 << 32)
        } else if element == .tableRow {
          var pieces = [piece]
          if !isEmpty { try scanner.readElement(into: &pieces, element: .tableRow) }
          let repeated = Self.count("table:number-rows-repeated", of: piece)
          let first = row
          var given = 0
          // `cells` runs `emit` only while it runs: `write` does not escape.
          try withoutActuallyEscaping(write) { write throws(FileError) in
            try cells(first, repeated) { markup, rows throws(FileError) in
              try write(annotated(pieces, with: markup, rows: rows, row: first + given, path: path))
              given += rows
            }
          }
          row = ODSTableReader.row(after: first, repeated: repeated)
          if given == 0 {
            for piece in pieces { try write(piece) }
          }
          continue
        }
      }
      if isEnd {
        depth -= 1
        if depth == tableDepth, element == .table {
          if !columnsExtended { try write(extraColumns(declared: declaredColumns)) }
          columnsExtended = true
          tableDepth = nil
        }
      } else if !isEmpty {
        // The first element named `spreadsheet`, as the reader finds it (by its local name, at any depth).
        if spreadsheetDepth == nil, Self.hasLocalName(piece, "spreadsheet") { spreadsheetDepth = depth }
        if let spreadsheet = spreadsheetDepth, depth == spreadsheet + 1, Self.hasLocalName(piece, "table") {
          if tables == tableIndex, element == .table {
            tableDepth = depth
            tableFound = true
          }
          tables += 1
        }
        depth += 1
      } else if spreadsheetDepth == nil, Self.hasLocalName(piece, "spreadsheet") {
        spreadsheetDepth = depth
      } else if let spreadsheet = spreadsheetDepth, depth == spreadsheet + 1, Self.hasLocalName(piece, "table") {
        tables += 1
      }
      try write(piece)
    }
    // The reader found the table and its records there: a table not found here would leave them unwritten.
    guard tableFound else {
      throw FileError(
        path: path,
        message: "content.xml: sheet \(tableIndex + 1) is not a table:table element, where fxbatch writes its fx_* cells")
    }
  }

  /// Whether a start tag's element has this local name in any namespace: the reader (``ODSTableReader``) finds
  /// the spreadsheet as the first element named `spreadsheet`, and counts every child of it named `table`, empty
  /// or not, among the tables `tableIndex` counts.
  static func hasLocalName(_ piece: [UInt8], _ wanted: StaticString) -> Bool {
    var end = 1
    while end < piece.count, !" \t\r\n/>".utf8.contains(piece[end]) { end += 1 }
    let name = piece[1..<end]
    let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
    return local.elementsEqual(UnsafeBufferPointer(start: wanted.utf8Start, count: wanted.utf8CodeUnitCount))
  }

  /// A column declaration for the fx_* columns the table's declarations do not reach.
  func extraColumns(declared: Int) -> [UInt8] {
    let missing = firstColumn + columnCount - declared
    guard missing > 0 else { return [] }
    let repeated = missing > 1 ? " table:number-columns-repeated=\"\(missing)\"" : ""
    return Array("<table:table-column\(repeated)/>".utf8)
  }

  /// `rows` rows of a row element, from row `row`, with the fx_* cells after the last used column: the
  /// element's start tag (repeated `rows` times), its cells up to that column, the fx_* cells, what is left of
  /// its cells, its end.
  func annotated(_ pieces: [[UInt8]], with markup: [UInt8], rows: Int, row: Int, path: String)
    throws(FileError) -> [UInt8]
  {
    guard let start = pieces.first else { return [] }
    let selfClosing = pieces.count == 1
    var output = Self.rowStartTag(start, rows: rows, selfClosing: selfClosing)
    var column = 0
    var inserted = false
    var cellDepth = 0
    let zone = firstColumn..<firstColumn + columnCount
    for piece in pieces.dropFirst().dropLast() {
      let element = ODSMarkupScanner.element(of: piece)
      let isCell = element == .tableCell || element == .coveredTableCell
      let isEnd = piece.count > 1 && piece[1] == UInt8(ascii: "/")
      guard cellDepth == 0, isCell, !isEnd else {
        if isCell { cellDepth += isEnd ? -1 : (piece[piece.count - 2] == UInt8(ascii: "/") ? 0 : 1) }
        output += piece
        continue
      }
      let cell = Self.cellTag(piece, isCovered: element == .coveredTableCell)
      if piece[piece.count - 2] != UInt8(ascii: "/") { cellDepth = 1 }
      let span = column..<column + cell.repeated
      defer { column = span.upperBound }
      guard span.overlaps(zone) || (!inserted && span.lowerBound >= zone.upperBound) else {
        output += piece
        continue
      }
      guard cell.isEmpty else {
        throw FileError(
          path: path, message: "row \(row) of the sheet has a used cell in column \(column + 1) where fx_* cells go")
      }
      if span.lowerBound < zone.lowerBound { output += Self.repeating(piece, zone.lowerBound - span.lowerBound) }
      if !inserted { output += markup }
      inserted = true
      if span.upperBound > zone.upperBound {
        output += Self.repeating(piece, span.upperBound - max(zone.upperBound, span.lowerBound))
      }
    }
    if !inserted {
      if column < firstColumn { output += Self.repeating(Array("<table:table-cell/>".utf8), firstColumn - column) }
      output += markup
    }
    output += selfClosing ? Array("</table:table-row>".utf8) : (pieces.last ?? [])
    return output
  }

  /// A row element's start tag standing for `rows` rows (its `table:number-rows-repeated` set, or added when
  /// `rows` is more than 1), ending with `>` (a `<table:table-row …/>` opened: its cells follow).
  static func rowStartTag(_ tag: [UInt8], rows: Int, selfClosing: Bool) -> [UInt8] {
    var start = tag
    let count = Array(String(rows).utf8)
    if let range = ODSMarkupScanner.valueRange(of: "table:number-rows-repeated", in: start) {
      start.replaceSubrange(range, with: count)
    } else if rows > 1 {
      let end = start.count - (start[start.count - 2] == UInt8(ascii: "/") ? 2 : 1)
      start.insert(contentsOf: Array(" table:number-rows-repeated=\"".utf8) + count + [UInt8(ascii: "\"")], at: end)
    }
    if selfClosing { start.replaceSubrange(start.count - 2..<start.count, with: Array(">".utf8)) }
    return start
  }

  /// A cell's start tag standing for `count` columns.
  static func repeating(_ tag: [UInt8], _ count: Int) -> [UInt8] {
    var tag = tag
    let value = Array(String(count).utf8)
    if let range = ODSMarkupScanner.valueRange(of: "table:number-columns-repeated", in: tag) {
      tag.replaceSubrange(range, with: value)
    } else {
      let end = tag.count - (tag[tag.count - 2] == UInt8(ascii: "/") ? 2 : 1)
      tag.insert(contentsOf: Array(" table:number-columns-repeated=\"".utf8) + value + [UInt8(ascii: "\"")], at: end)
    }
    return tag
  }

  private static func cellTag(_ tag: [UInt8], isCovered: Bool) -> CellTag {
    let isEmpty =
      !isCovered && tag[tag.count - 2] == UInt8(ascii: "/")
      && ODSMarkupScanner.valueRange(of: "office:value-type", in: tag) == nil
      && ODSMarkupScanner.valueRange(of: "table:formula", in: tag) == nil
      && ODSMarkupScanner.valueRange(of: "table:number-columns-spanned", in: tag) == nil
    // Bounded so that columns add up without overflow (no sheet has 2^32 columns).
    return CellTag(repeated: min(count("table:number-columns-repeated", of: tag), 1 << 32), isEmpty: isEmpty)
  }

  /// A repetition attribute's count; 1 when it is absent (pass 1 refused one that is not a count).
  private static func count(_ attribute: String, of tag: [UInt8]) -> Int {
    ODSMarkupScanner.value(of: attribute, in: tag).flatMap { Int($0) }.map { max($0, 1) } ?? 1
  }

  /// The namespaces of the prefixes the written cells use, as ODF names them.
  static let prefixes = [
    ("office", "urn:oasis:names:tc:opendocument:xmlns:office:1.0"),
    ("table", "urn:oasis:names:tc:opendocument:xmlns:table:1.0"),
    ("text", "urn:oasis:names:tc:opendocument:xmlns:text:1.0"),
    ("style", "urn:oasis:names:tc:opendocument:xmlns:style:1.0"),
    ("number", "urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"),
  ]

  /// Reads a `content.xml` up to its root element and refuses it as ``rewrite(_:write:cells:)`` would, when the
  /// root does not bind the prefixes the written cells use (pass 1, so that nothing is written).
  ///
  /// - Throws: ``FileError``.
  static func checkRoot(of stream: ZipEntryStream) throws(FileError) {
    var scanner = ODSMarkupScanner(stream: stream)
    while let piece = try scanner.next() {
      guard piece.first == UInt8(ascii: "<"), piece.count > 1, !"!?".utf8.contains(piece[1]) else { continue }
      return try checkPrefixes(piece, path: stream.package.path)
    }
  }

  /// Refuses a document whose root does not bind `office:`, `table:` and `text:` to ODF's namespaces (every
  /// ODF program writes them so; cells written with other bindings would be read as other elements).
  private static func checkPrefixes(_ root: [UInt8], path: String) throws(FileError) {
    for (prefix, namespace) in prefixes where ODSMarkupScanner.value(of: "xmlns:" + prefix, in: root) != namespace {
      throw FileError(
        path: path,
        message:
          "content.xml does not bind the prefix \(prefix): to \(namespace) on its root element, as fxbatch writes its cells")
    }
  }
}
