/// The annotated copy of one `.xlsx` sheet as it is written: the fx_* cells of each row (converted by
/// ``WorkbookRowConverter``, written by ``XLSXCellWriter``), the sheet deflated as it comes (``ZipDeflater``), and
/// the package with it and the styles part (with the new number formats) replaced, written on a thread of its
/// own from the start (``ZipPackage/startWriting(to:replacing:)``): the deflated sheet goes into the package as
/// it comes (``ZipDeflatedStream``).
///
/// The rows are converted on the reading thread, as they are read. On the scanner's roads their cells are
/// written on the deflater's thread: the reading thread places each converted row's values in the markup
/// (``scannedRow(_:whole:markup:rowStart:)``), and when a block of markup is handed over (``flush(_:)``) the
/// deflater's thread writes their cells in their places before deflating it (``XLSXCellWriter``): the work of
/// a row is shared by the two threads about evenly. The libxml2 road writes the cells at once
/// (``convertRow(_:)``, ``appendCells(row:prefix:markup:)``).
///
/// Pass 2 makes one with what pass 1 learned of the sheet; the one-pass road
/// (``XLSXFormat/convertInOnePass(_:context:quotes:)``) makes one before the sheet is read, with the last column
/// its `<dimension>` gives, and sets the header and its mapping when it reads them.
///
/// A class: the rewriters' row closures call it for every row.
final class XLSXSheetConversion {
  let book: XLSXBook
  let scan: FileScan
  /// The last column of the fx_* cells.
  let lastColumn: Int
  /// The header's row number: rows before it (and blank rows) get no fx_* cells. `Int.max` until it is known.
  private(set) var headerRow: Int
  /// The header's mapping of the record fields, and the decoder of record rows under it.
  private(set) var mapping: FieldMapping
  private(set) var decoder: XLSXRowDecoder? = nil
  /// Converts the rows and places them, on the reading thread.
  private var rows: Rows
  /// Writes the rows' cells: on the deflater's thread once blocks are handed over.
  private let writer: XLSXCellWriter
  private let deflater: ZipDeflater
  private let deflated: ZipDeflatedStream
  private let writing: ZipPackageWriting
  private let outputPath: String

  /// - Parameters:
  ///   - sheetLastColumn: the last column (0-based) the sheet uses: the fx_* cells follow it.
  ///   - header: the header's row number and mapping, when pass 1 found them.
  init(
    scan: FileScan, book: XLSXBook, context: FormatContext, quotes: QuoteBook, sheetLastColumn: Int,
    header: (row: Int, mapping: FieldMapping)?
  ) throws(FileError) {
    guard let outputPath = scan.outputPath else {
      throw FileError(path: scan.displayPath, message: "a workbook cannot be written to standard output")
    }
    self.book = book
    self.scan = scan
    self.outputPath = outputPath
    let firstColumn = sheetLastColumn + 1
    let layout = context.annotationLayout
    lastColumn = firstColumn + layout.count - 1
    headerRow = header?.row ?? Int.max
    mapping = header?.mapping ?? FieldMapping(amount: 0, from: nil, to: nil, date: nil)
    // The fx_* columns' letters, written once; a column past XFD gets no cell (as a reference cannot name it).
    let columns: [[UInt8]?] = (0..<layout.count).map { offset in
      CellReference(column: firstColumn + offset, row: 1).map { Array(CellReference.letters(ofColumn: $0.column).utf8) }
    }
    var styles = XLSXAnnotationStyles.none
    var replacements: [(name: String, content: ZipEntryContent)] = []
    if let name = book.workbook.stylesEntry, let entry = book.package.entry(named: name) {
      // The part is edited whole in memory (it is read through libxml2's stream in pass 1); real ones are a few
      // kilobytes to a few megabytes. The stream checks the declared size.
      guard entry.size <= XLSXAnnotationStyles.largestPart else {
        throw FileError(
          path: scan.displayPath,
          message:
            "\(name) declares \(entry.size) bytes, more than the \(XLSXAnnotationStyles.largestPart) fxbatch edits in a styles part"
        )
      }
      let part: [UInt8]
      do { part = try book.package.contents(of: entry) } catch {
        throw FileError.package(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
      }
      if let added = XLSXAnnotationStyles.adding(to: part) {
        styles = added.styles
        replacements.append((name, .bytes(added.part)))
      }
    }
    // The sheet is deflated as it is written, and goes into the package as it comes. A sheet whose XML is near
    // 4 GiB already may pass it with the fx_* cells: its entry is Zip64 (ZipDeflatedStream).
    deflated = ZipDeflatedStream(mayPassZip32Limits: book.sheetEntry.size >= XLSXSheetConversion.zip64Threshold)
    deflater = ZipDeflater(into: deflated)
    writing = book.package.startWriting(
      to: outputPath, replacing: replacements + [(book.sheetEntry.name, .deflatedStream(deflated))])
    rows = Rows(converter: WorkbookRowConverter(context: context, scan: scan, quotes: quotes))
    writer = XLSXCellWriter(
      columns: columns, annotations: layout.columns, styles: styles, dateSystem: book.dateSystem)
    if header != nil { makeDecoder() }
  }

  /// The sheet XML's size from which its entry is written as Zip64: 2 GiB, so that the fx_* cells (at most a few
  /// hundred bytes for each of a sheet's 1,048,576 rows) cannot take an entry written as Zip32 past 4 GiB.
  static let zip64Threshold: UInt64 = 1 << 31

  /// A conversion dropped unfinished (an error, a one-pass road that failed its check) leaves nothing behind:
  /// the package's writing fails and discards its file, and the deflater drops its blocks (and waits for the
  /// one it may be on).
  deinit {
    deflated.abandon()
    try? writing.wait()
  }

  /// Sets the header once the one-pass road has read it.
  func setHeader(row: Int, mapping: FieldMapping) {
    headerRow = row
    self.mapping = mapping
    makeDecoder()
  }

  private func makeDecoder() {
    decoder = XLSXRowDecoder(book: book, mapping: mapping, normalizer: scan.normalizer)
  }

  /// Deflates more of the sheet.
  func write(_ bytes: [UInt8]) throws(FileError) {
    do { try deflater.write(bytes) } catch { throw failure(error) }
  }

  /// The error of a failed hand-over: the package's writing's own, when it stopped (a full disk, say: the
  /// deflater's error then only says so, and the writing is ending), else the deflater's.
  private func failure(_ error: OutputError) -> FileError {
    if deflated.writerStopped {
      do { try writing.wait() } catch { return writeFailure(error) }
    }
    return FileError(path: scan.displayPath, message: "\(error)")
  }

  private func writeFailure(_ error: ZipError) -> FileError {
    FileError.package(error.description, readPath: outputPath, displayPath: scan.displayPath)
  }

  /// Hands the markup over to be deflated, with the rows placed in it (``scannedRow(_:whole:markup:rowStart:)``),
  /// whose cells the deflater's thread writes in their places first; empties it.
  func flush(_ markup: inout ByteBuffer) throws(FileError) {
    guard markup.count > 0 || !rows.placed.rows.isEmpty else { return }
    // The block goes to the deflater's thread as it is; the markup goes on in a buffer of its own (of a block's
    // size: one that grew for a big row does not make every later block as big).
    let block = markup
    markup = ByteBuffer(capacity: 2 * XLSXFormat.writeBlockSize)
    guard !rows.placed.rows.isEmpty else {
      do { return try deflater.write(block) } catch { throw failure(error) }
    }
    let (placed, writer) = (rows.placed, self.writer)
    rows.placed = XLSXCellWriter.Placed()
    do { try deflater.write(block, making: { writer.merging($0, rows: placed) }) } catch {
      throw failure(error)
    }
  }

  /// Converts one row of the sheet; `false` for the rows that get no fx_* cells (before the header, blank).
  func convertRow(_ row: SheetRow) -> Bool {
    guard Self.getsCells(row, headerRow: headerRow) else { return false }
    if row.number == headerRow {
      rows.converter.setHeader()
    } else {
      rows.converter.convert(book.fields(of: row, mapping: mapping))
    }
    return true
  }

  /// Whether a row gets fx_* cells: the header (their names), and every record row that is not blank.
  static func getsCells(_ row: SheetRow, headerRow: Int) -> Bool {
    row.number == headerRow || (row.number > headerRow && !XLSXBook.isBlank(row))
  }

  /// Appends the fx_* cells of the row converted last, `number`, at once.
  func appendCells(row number: Int, prefix: ByteView, markup: inout ByteBuffer) {
    let found = rows.valuesAtOnce()
    writer.appendCells(
      row: number, prefix: prefix, isRecord: number != headerRow, values: found, in: ByteView(rows.values.bytes),
      to: &markup)
  }

  /// Converts the scanner's row and places its values at the markup's end, for the deflater's thread to write
  /// its fx_* cells there: a record row the simple rules read by its decoded key and amount when the fast path
  /// converts it, every other row read whole (`whole`: the row read already, if it was). Its bytes in the
  /// markup, from `rowStart`, go on to its end tag, which follows: its cells go before it.
  ///
  /// - Returns: the row's number, and whether it gets cells.
  func scannedRow(_ scanner: borrowing XLSXSheetScanner, whole: SheetRow? = nil, markup: inout ByteBuffer, rowStart: Int)
    throws(FileError) -> (number: Int, cells: Bool)
  {
    let number = scanner.rowNumber
    if whole == nil, scanner.rowIsSimple, scanner.rowHasValue, number > headerRow, let decoder,
      case (let cells, let bytes) = (scanner.cells, scanner.bytes),
      rows.converter.convert(reading: { decoder.read(cells, in: bytes, keys: &$0, amounts: &$1) })
    {
      // A row with a value is no blank row: it gets cells.
      rows.place(row: number, isRecord: true, prefix: prefix(of: scanner), at: markup.count)
      return (number, true)
    }
    let row: SheetRow
    if let whole { row = whole } else { row = try XLSXFormat.wholeRow(scanner, book: book, scan: scan) }
    guard convertRow(row) else { return (row.number, false) }
    rows.place(row: row.number, isRecord: row.number != headerRow, prefix: prefix(of: scanner), at: markup.count)
    return (row.number, true)
  }

  /// The namespace prefix of the scanner's row element (`x:`; empty without one).
  private func prefix(of scanner: borrowing XLSXSheetScanner) -> [UInt8] {
    scanner.rowPrefix.isEmpty ? [] : scanner.bytes.array(scanner.rowPrefix)
  }

  /// The rows' converter and the rows placed in the markup not yet handed over, in a struct: a call works on
  /// them through one access (a call on the class's properties themselves copied the converter for each row).
  private struct Rows {
    var converter: WorkbookRowConverter
    var placed = XLSXCellWriter.Placed()
    /// The values of a row whose cells are written at once.
    var values = ByteBuffer(capacity: 1 << 10)

    /// Places the values of the row converted last, `number`, at `offset` in the markup.
    mutating func place(row number: Int, isRecord: Bool, prefix: [UInt8], at offset: Int) {
      let start = placed.values.count
      let found = converter.appendValues(to: &placed.values)
      placed.rows.append(
        XLSXCellWriter.PlacedRow(
          offset: offset, row: number, prefix: prefix, isRecord: isRecord, valuesStart: start, values: found))
    }

    /// The values of the row converted last, in ``values``.
    mutating func valuesAtOnce() -> WorkbookRowValues {
      values.removeAll()
      return converter.appendValues(to: &values)
    }
  }

  /// Ends the sheet and waits for the package's writing: the sheet and the styles part replaced, every other
  /// entry copied.
  ///
  /// - Parameter scan: the file's scan as it stands after the pass.
  /// - Throws: ``FileError`` for a write that failed, a sheet too big for a Zip32 entry.
  func finish(scan: FileScan) throws(FileError) -> FileConversion {
    let content: (size: UInt64, crc: UInt32)
    do { content = try deflater.finish() } catch { throw failure(error) }
    // Every block is deflated. A failure abandons the package (deinit).
    guard deflated.mayPassZip32Limits || content.size <= UInt64(UInt32.max) else {
      throw FileError(
        path: scan.displayPath,
        message: "the converted sheet is \(content.size) bytes of XML, more than the 4 GiB a Zip32 entry holds")
    }
    deflated.finish(size: content.size, crc: content.crc)
    do { try writing.wait() } catch { throw writeFailure(error) }
    let (counts, withoutDate, ledger) = rows.converter.finish()
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }
}

/// Writes the fx_* cells of the rows of an ``XLSXSheetConversion`` (the one writer of them) from their values
/// (``WorkbookRowValues``): at once, or in the places the reading thread left them in a block of markup
/// (``merging(_:rows:)``).
///
/// `@unchecked Sendable`: it is used by one thread at a time — the deflater's serial queue on the scanner's roads
/// (the reading thread only places rows), the conversion's thread on the libxml2 road (which writes its cells at
/// once and places none).
final class XLSXCellWriter: @unchecked Sendable {
  /// A row placed in a block of markup: where its cells go, and its values.
  struct PlacedRow {
    let offset: Int
    let row: Int
    /// Its element's namespace prefix (`x:`; empty without one).
    let prefix: [UInt8]
    /// Whether it is a record row (not the header).
    let isRecord: Bool
    /// Where its values start in ``Placed/values``.
    let valuesStart: Int
    let values: WorkbookRowValues
  }

  /// The rows placed in a block, and their values back to back.
  struct Placed: @unchecked Sendable {
    var rows: [PlacedRow] = []
    var values = ByteBuffer(capacity: 1 << 14)
  }

  /// Everything the writer changes, in a struct: a call works on it through one access (the rows of a block in
  /// one call), with no access checks or reference counting of the class's properties for each cell.
  private var state: State

  /// - Parameter annotations: each fx_* column's kind (``AnnotationLayout/columns``: `converted` once per amount).
  init(columns: [[UInt8]?], annotations: [AnnotationColumn], styles: XLSXAnnotationStyles, dateSystem: XLSXDateSystem) {
    state = State(columns: columns, annotations: annotations, styles: styles, dateSystem: dateSystem)
  }

  /// Appends the fx_* cells of row `number` (``State/appendCells(row:prefix:isRecord:values:in:to:)``).
  func appendCells(
    row number: Int, prefix: ByteView, isRecord: Bool, values: WorkbookRowValues, in bytes: ByteView,
    to markup: inout ByteBuffer
  ) {
    state.appendCells(row: number, prefix: prefix, isRecord: isRecord, values: values, in: bytes, to: &markup)
  }

  /// A block of markup with the cells of its placed rows written in their places.
  func merging(_ block: ByteBuffer, rows placed: Placed) -> ByteBuffer {
    state.merging(block, rows: placed)
  }

  private struct State {
    /// The letters of the fx_* columns that get cells (not those past XFD), and the pieces made for the cells
    /// (their markup by prefix, columns and styles; the digits of a row and of a serial, kept: written every row).
    private let columnLetters: [[UInt8]]
    /// Each fx_* column's index in the cell markup's columns (`nil`: no cell); the styles' indexes in its styles:
    /// the date's, and the amounts' by their decimals.
    private let markupColumns: [Int?]
    private let markupStyles: [Int]
    private let dateStyle: Int?
    private let amountStyles: [Int?]
    private var cellMarkup: XLSXSheetRewriter.CellMarkup
    private var cellPrefix: [UInt8] = []
    private var rowDigits = ByteBuffer(capacity: 32)
    private var serialDigits = ByteBuffer(capacity: 32)
    private let dateSystem: XLSXDateSystem

    init(columns: [[UInt8]?], annotations: [AnnotationColumn], styles: XLSXAnnotationStyles, dateSystem: XLSXDateSystem) {
      self.annotations = annotations
      columnLetters = columns.compactMap { $0 }
      var next = 0
      markupColumns = columns.map { letters in
        guard letters != nil else { return nil }
        defer { next += 1 }
        return next
      }
      var markupStyles: [Int] = []
      if let date = styles.date { markupStyles.append(date) }
      dateStyle = styles.date == nil ? nil : 0
      let largest = styles.amounts.keys.max() ?? -1
      amountStyles = (0..<(largest + 1)).map { decimals in
        guard let style = styles.amountStyle(decimals: decimals) else { return nil }
        markupStyles.append(style)
        return markupStyles.count - 1
      }
      self.markupStyles = markupStyles
      cellMarkup = XLSXSheetRewriter.CellMarkup(prefix: [], columns: columnLetters, styles: markupStyles)
      self.dateSystem = dateSystem
    }

    /// Appends the fx_* cells of row `number` from its values (`values`, among `bytes`): for a record row,
    /// `fx_rate` and `fx_converted` numbers (the amount in the number format of its decimals), `fx_rate_date` a
    /// date serial in the date style, the rest inline strings; every cell of the header an inline string
    /// (``XLSXSheetRewriter/CellMarkup``). `prefix` is the row element's namespace prefix.
    mutating func appendCells(
      row number: Int, prefix: ByteView, isRecord: Bool, values: WorkbookRowValues, in bytes: ByteView,
      to markup: inout ByteBuffer
    ) {
      if prefix.count != cellPrefix.count || !prefix.elementsEqual(cellPrefix) {
        cellPrefix = prefix.array
        cellMarkup = XLSXSheetRewriter.CellMarkup(
          prefix: cellPrefix, columns: columnLetters, styles: markupStyles)
      }
      rowDigits.removeAll()
      XLSXSheetRewriter.appendDecimal(number, to: &rowDigits)
      let digits = ByteView(rowDigits.bytes)
      var offset = 0
      for annotation in annotations {
        defer { offset += 1 }
        let value = values.value(offset, in: bytes)
        guard !value.isEmpty, let column = markupColumns[offset] else { continue }
        switch annotation {
        case .rate where isRecord:
          cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: nil)
        case .converted where isRecord:
          let style = values.decimals.flatMap { $0 >= 0 && $0 < amountStyles.count ? amountStyles[$0] : nil }
          cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: style)
        case .rateDate where isRecord:
          if let style = dateStyle, let day = values.rateDay ?? CalendarDay(iso8601UTF8: Array(value.buffer)[...]),
            let serial = dateSystem.serial(of: day)
          {
            serialDigits.removeAll()
            if serial < 0 { serialDigits.append(UInt8(ascii: "-")) }
            XLSXSheetRewriter.appendDecimal(serial < 0 ? -serial : serial, to: &serialDigits)
            cellMarkup.appendNumber(to: &markup, column: column, row: digits, ByteView(serialDigits.bytes), style: style)
          } else {
            cellMarkup.appendText(to: &markup, column: column, row: digits, value)
          }
        default:
          cellMarkup.appendText(to: &markup, column: column, row: digits, value)
        }
      }
    }

    /// The annotation columns in order (``AnnotationLayout/columns``, made once).
    private let annotations: [AnnotationColumn]

    mutating func merging(_ block: ByteBuffer, rows placed: Placed) -> ByteBuffer {
      var result = ByteBuffer(capacity: block.count + placed.rows.count * 512)
      let source = ByteView(block.bytes)
      let values = ByteView(placed.values.bytes)
      var last = 0
      for row in placed.rows {
        result.append(source.slice(last..<row.offset))
        last = row.offset
        row.prefix.withUnsafeBufferPointer {
          appendCells(
            row: row.row, prefix: ByteView($0), isRecord: row.isRecord, values: row.values,
            in: values.slice(from: row.valuesStart), to: &result)
        }
      }
      result.append(source.slice(last..<source.count))
      return result
    }
  }
}
