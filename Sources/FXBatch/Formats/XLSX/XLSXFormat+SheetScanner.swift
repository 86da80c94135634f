/// Both passes over a sheet in ``XLSXSheetScanner``'s subset: its bytes are read directly instead of through
/// libxml2, record rows the simple rules read are summed up (pass 1) and converted (pass 2) from their decoded
/// key and amount (``XLSXRowDecoder``), and every other row is read whole by ``XLSXRowCollector`` and goes
/// through the general rules. A sheet outside the subset is read by libxml2 from its start (pass 1 returns
/// `nil`), so its errors are libxml2's.
extension XLSXFormat {
  /// Pass 1 through the scanner; `nil` when the sheet is outside its subset or the scanner meets anything the
  /// general path reports (a damaged entry, a row out of place): the general path then reads it again.
  ///
  /// - Throws: ``FileError`` for what the rows read say (no header, a field the run would pass over, no room for
  ///   the fx_* columns: ``WorkbookRecords/ScanState/finish(sheetScanned:)``, the same state the general path
  ///   fills with the same rows).
  static func scanSheet(_ file: FileInput, book: XLSXBook, context: FormatContext) throws(FileError) -> (
    FileScan, RateKeyIndex
  )? {
    guard let stream = try? book.package.stream(book.sheetEntry) else { return nil }
    var scanner = XLSXSheetScanner(stream: stream, sharedStringCount: book.sharedStrings.strings.count)
    var state = WorkbookRecords.ScanState(
      file, context: context, format: format, sheetName: book.sheetName, otherSheets: { book.otherSheetNames },
      fields: book.fields(of:mapping:),
      cellText: book.sampleText(of:))
    var decoder: XLSXRowDecoder? = nil
    do {
      while let item = try scanner.next() {
        guard case .row = item, !state.isRefused else { continue }
        if let row = try addRow(scanner, to: &state, decoder: &decoder, book: book, context: context) {
          scanner.previousRow = row.number
        }
      }
    } catch {
      return nil
    }
    return try state.finish(sheetScanned: true)
  }

  /// Adds the scanner's row to pass 1's state: a record row of plain cells by its last column, decoded key (no
  /// key when the run collects none) and its date's evidence of the order of slash dates, every other row read
  /// whole.
  ///
  /// - Returns: the row read whole, if it was.
  static func addRow(
    _ scanner: borrowing XLSXSheetScanner, to state: inout WorkbookRecords.ScanState, decoder: inout XLSXRowDecoder?,
    book: XLSXBook, context: FormatContext
  ) throws(WorkbookError) -> SheetRow? {
    if !state.needsWholeRow, scanner.rowIsSimple, scanner.rowHasValue, let last = scanner.cells.last {
      if decoder == nil {
        decoder = XLSXRowDecoder(book: book, mapping: state.mapping, normalizer: context.recordNormalizer)
      }
      // A text amount is read whole, for the decimal mark's evidence.
      let textAmount = context.options.decimalMark == nil && decoder?.amountIsText(scanner.cells) == true
      let evidence = state.infersDates ? decoder?.dateEvidence(scanner.cells, in: scanner.bytes) : .neutral
      if !textAmount, let evidence {
        if !state.collectsKeys {
          state.addRecord(row: scanner.rowNumber, lastColumn: last.column, key: nil, dateEvidence: evidence)
          return nil
        }
        if let found = decoder?.key(scanner.cells, in: scanner.bytes) {
          state.addRecord(row: scanner.rowNumber, lastColumn: last.column, key: found.key, dateEvidence: evidence)
          return nil
        }
      }
    }
    let row = try collectedRow(scanner, book: book)
    state.add(row)
    return row
  }

  /// A row the simple rules did not convert, read whole (the same bytes pass 1 read and placed).
  static func wholeRow(_ scanner: borrowing XLSXSheetScanner, book: XLSXBook, scan: FileScan) throws(FileError) -> SheetRow {
    do { return try collectedRow(scanner, book: book) } catch { throw sheetChanged(scan.displayPath) }
  }

  /// The scanner's row read whole by ``XLSXRowCollector``.
  private static func collectedRow(_ scanner: borrowing XLSXSheetScanner, book: XLSXBook) throws(WorkbookError) -> SheetRow {
    try collectedRow(Array(scanner.bytes.slice(scanner.rowRange).buffer), after: scanner.rowPreviousRow, book: book)
  }

  /// A row's bytes (`<row …>…</row>`) read whole by ``XLSXRowCollector``, after row `previous`.
  static func collectedRow(_ bytes: [UInt8], after previous: Int, book: XLSXBook) throws(WorkbookError) -> SheetRow {
    try XLSXRowCollector.row(
      bytes, after: previous, sharedStrings: book.sharedStrings, path: book.package.path, entry: book.sheetEntry.name)
  }

  /// The error of a sheet that reads otherwise in pass 2 than it did in pass 1.
  static func sheetChanged(_ displayPath: String) -> FileError {
    FileError(path: displayPath, message: "the sheet changed while it was read (it differs from its first reading)")
  }

  /// Pass 2 through the scanner: copies the sheet's bytes as they inflate, byte for byte, but for a row's
  /// `spans`, the `<dimension ref>` (widened to `lastColumn`, as ``XLSXSheetRewriter`` does) and the cells `row`
  /// appends before each row's end (``appendRewritten(_:of:columns:to:row:)``).
  ///
  /// - Parameters:
  ///   - flush: hands the markup over (and empties it).
  ///   - row: converts the scanner's row, appends or places its fx_* cells (or none) at the markup's end, and
  ///     returns its number and whether it has cells; it is given where the row's start tag is in the markup.
  static func rewriteScanned(
    _ stream: any ZipEntryReading, book: XLSXBook, scan: FileScan, lastColumn: Int,
    flush: (inout ByteBuffer) throws(FileError) -> Void,
    row: (_ scanner: borrowing XLSXSheetScanner, _ markup: inout ByteBuffer, _ rowStart: Int) throws(FileError) -> (
      Int, Bool
    )
  ) throws(FileError) {
    var scanner = XLSXSheetScanner(stream: stream, sharedStringCount: book.sharedStrings.strings.count)
    var output = ByteBuffer(capacity: 2 * writeBlockSize)
    let rewrite = RewriteColumns(lastColumn: lastColumn)
    while true {
      let item: XLSXSheetScanner.Item?
      do { item = try scanner.next() } catch {
        if case .package(let error) = error {
          throw FileError.package(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
        }
        throw sheetChanged(scan.displayPath)
      }
      guard let item else { break }
      try appendRewritten(item, of: &scanner, columns: rewrite, to: &output, row: row)
      if output.count >= writeBlockSize { try flush(&output) }
    }
    try flush(&output)
  }

  /// How much rewritten sheet is gathered before it is handed to the deflater: 256 KiB (against 64 KiB, a
  /// quarter of the hand-overs and thread wake-ups, about 4% of a million-row sheet's CPU; about 7 MB more
  /// memory with the blocks in flight).
  static let writeBlockSize = 1 << 18

  /// The last column of the fx_* cells, as a rewrite widens the `<dimension>` and the rows' `spans` to it.
  struct RewriteColumns {
    let lastColumn: Int
    /// Its number as a `spans` writes it (1-based).
    let lastColumnNumber: [UInt8]

    init(lastColumn: Int) {
      self.lastColumn = lastColumn
      lastColumnNumber = Array(String(lastColumn + 1).utf8)
    }
  }

  /// Appends the rewrite of one item the scanner read: markup as it is, the `<dimension>` widened, a row with
  /// its `spans` widened and the cells `row` appends before its end (a `<row …/>` that gets cells is written
  /// `<row …>cells</row>`); sets the scanner's previous row to the number `row` returns.
  static func appendRewritten(
    _ item: XLSXSheetScanner.Item, of scanner: inout XLSXSheetScanner, columns: RewriteColumns,
    to output: inout ByteBuffer,
    row: (_ scanner: borrowing XLSXSheetScanner, _ markup: inout ByteBuffer, _ rowStart: Int) throws(FileError) -> (
      Int, Bool
    )
  ) throws(FileError) {
    let bytes = scanner.bytes
    switch item {
    case .markup(let range):
      output.append(bytes.slice(range))
    case .dimension(let range):
      output.append(XLSXSheetRewriter.widenedDimension(bytes.slice(range).buffer, to: columns.lastColumn))
    case .row:
      // The start tag, its `spans` ending at the new last column (the first number as written).
      let start = scanner.rowRange.lowerBound
      let tagEnd = scanner.rowTagEnd
      let rowStart = output.count
      if let spans = scanner.rowSpans {
        output.append(bytes.slice(start..<spans.lowerBound))
        output.append(
          XLSXSheetRewriter.widenedSpans(bytes.slice(spans).buffer, lastColumnNumber: columns.lastColumnNumber))
        output.append(bytes.slice(spans.upperBound..<tagEnd))
      } else {
        output.append(bytes.slice(start..<tagEnd))
      }
      if scanner.rowIsEmptyElement {
        // `<row …/>`: written `<row …>cells</row>` when it gets cells.
        output.removeLast(2)
        output.append(UInt8(ascii: ">"))
        let cells: Bool
        (scanner.previousRow, cells) = try row(scanner, &output, rowStart)
        if !cells {
          output.removeLast(1)
          output.append(Array("/>".utf8))
        } else {
          output.append(Array("</".utf8))
          output.append(bytes.slice(scanner.rowPrefix))
          output.append(Array("row>".utf8))
        }
      } else {
        output.append(bytes.slice(tagEnd..<scanner.rowEndTagStart))
        (scanner.previousRow, _) = try row(scanner, &output, rowStart)
        output.append(bytes.slice(scanner.rowEndTagStart..<scanner.rowRange.upperBound))
      }
    }
  }
}
