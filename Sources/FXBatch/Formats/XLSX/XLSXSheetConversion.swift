/// The annotated copy of one `.xlsx` sheet as it is written: the fx_* cells of each row (converted by
/// ``WorkbookRowConverter``, written by ``XLSXRowSide``), the sheet deflated as it comes (``ZipDeflater``), and
/// the package with it and the styles part (with the new number formats) replaced, written on a thread of its
/// own from the start (``ZipPackage/startWriting(to:replacing:)``): the deflated sheet goes into the package as
/// it comes (``ZipDeflatedStream``).
///
/// On the scanner's roads the rows are converted on the deflater's thread: the reading thread places each row
/// in the markup (``scannedRow(_:whole:markup:rowStart:)``: its decoded key and amount, or the row read whole), and when
/// a block of markup is handed over (``flush(_:)``) the deflater's thread converts its rows and writes their
/// cells in their places before deflating it (``XLSXRowSide``). The libxml2 road converts and writes at once
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
  /// Converts the rows and writes their cells: on the deflater's thread once blocks are handed over.
  private let side: XLSXRowSide
  /// The rows placed in the markup not yet handed over.
  private var placed: [XLSXRowSide.Placed] = []
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
    lastColumn = firstColumn + AnnotationColumn.allCases.count - 1
    headerRow = header?.row ?? Int.max
    mapping = header?.mapping ?? FieldMapping(amount: 0, from: nil, to: nil, date: nil)
    // The fx_* columns' letters, written once; a column past XFD gets no cell (as a reference cannot name it).
    let columns: [[UInt8]?] = AnnotationColumn.allCases.indices.map { offset in
      XLSXCellReference(column: firstColumn + offset, row: 1).map { Array(XLSXCellReference.letters(ofColumn: $0.column).utf8) }
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
        throw XLSXBook.fileError(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
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
    side = XLSXRowSide(
      rows: WorkbookRowConverter(context: context, scan: scan, quotes: quotes), columns: columns, styles: styles,
      book: book, displayPath: scan.displayPath, headerRow: headerRow, mapping: mapping)
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

  /// Sets the header once the one-pass road has read it (the rows' side learns it in its place).
  func setHeader(row: Int, mapping: FieldMapping) {
    headerRow = row
    self.mapping = mapping
    placed.append(.header(row: row, mapping: mapping))
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
    XLSXBook.fileError(error.description, readPath: outputPath, displayPath: scan.displayPath)
  }

  /// Hands the markup over to be deflated, with the rows placed in it (``scannedRow(_:whole:markup:rowStart:)``), which
  /// the deflater's thread converts and writes the cells of in their places first; empties it.
  func flush(_ markup: inout ByteBuffer) throws(FileError) {
    guard markup.count > 0 || !placed.isEmpty else { return }
    // The block goes to the deflater's thread as it is; the markup goes on in a buffer of its own (of a block's
    // size: one that grew for a big row does not make every later block as big).
    let block = markup
    markup = ByteBuffer(capacity: 2 * XLSXFormat.writeBlockSize)
    guard !placed.isEmpty else {
      do { return try deflater.write(block) } catch { throw failure(error) }
    }
    let (rows, side) = (placed, side)
    placed = []
    do { try deflater.write(block, making: { side.merging($0, rows: rows) }) } catch {
      throw failure(error)
    }
  }

  /// Converts one row of the sheet at once; `false` for the rows that get no fx_* cells (before the header,
  /// blank).
  func convertRow(_ row: XLSXRow) -> Bool { side.convertRow(row) }

  /// Appends the fx_* cells of the row converted last, `number`, at once.
  func appendCells(row number: Int, prefix: ByteView, markup: inout ByteBuffer) {
    side.appendCells(row: number, prefix: prefix, to: &markup)
  }

  /// Places the scanner's row at the markup's end, to be converted and given its fx_* cells there on the
  /// deflater's thread: a record row the simple rules read by its decoded key and amount (and its bytes in the
  /// markup, from `rowStart` to its end tag, read whole there if the fast path declines it), every other row read
  /// whole (`whole`: the row read already, if it was).
  ///
  /// - Returns: the row's number, and whether it gets cells.
  func scannedRow(_ scanner: borrowing XLSXSheetScanner, whole: XLSXRow? = nil, markup: inout ByteBuffer, rowStart: Int)
    throws(FileError) -> (number: Int, cells: Bool)
  {
    let number = scanner.rowNumber
    let prefix = scanner.rowPrefix.isEmpty ? [] : scanner.bytes.array(scanner.rowPrefix)
    if whole == nil, scanner.rowIsSimple, scanner.rowHasValue, number > headerRow, let decoder,
      let amount = decoder.amount(scanner.cells, in: scanner.bytes),
      let found = decoder.key(scanner.cells, in: scanner.bytes)
    {
      // A row with a value is no blank row: it gets cells, converted on the fast path or, declined, whole. Its
      // bytes in the markup go on to its end tag, which follows (its `spans` widened, which reading ignores).
      let end = markup.count + (scanner.rowRange.upperBound - scanner.rowEndTagStart)
      placed.append(
        .decoded(
          offset: markup.count, row: number, prefix: prefix, key: found.key, usedDefaultDay: found.usedDefaultDay,
          amount: amount, bytes: rowStart..<end, previousRow: scanner.rowPreviousRow))
      return (number, true)
    }
    let row: XLSXRow
    if let whole { row = whole } else { row = try XLSXFormat.wholeRow(scanner, book: book, scan: scan) }
    guard XLSXRowSide.getsCells(row, headerRow: headerRow) else { return (row.number, false) }
    placed.append(.whole(offset: markup.count, prefix: prefix, row: row))
    return (row.number, true)
  }

  /// Ends the sheet and waits for the package's writing: the sheet and the styles part replaced, every other
  /// entry copied.
  ///
  /// - Parameter scan: the file's scan as it stands after the pass.
  /// - Throws: ``FileError`` for a row the deflater's thread read otherwise than the reading thread, a write that
  ///   failed.
  func finish(scan: FileScan) throws(FileError) -> FileConversion {
    let content: (size: UInt64, crc: UInt32)
    do { content = try deflater.finish() } catch { throw failure(error) }
    // Every block is deflated: the rows' side is this thread's again. A failure abandons the package (deinit).
    if let failure = side.failure { throw failure }
    guard deflated.mayPassZip32Limits || content.size <= UInt64(UInt32.max) else {
      throw FileError(
        path: scan.displayPath,
        message: "the converted sheet is \(content.size) bytes of XML, more than the 4 GiB a Zip32 entry holds")
    }
    deflated.finish(size: content.size, crc: content.crc)
    do { try writing.wait() } catch { throw writeFailure(error) }
    let (counts, withoutDate, ledger) = side.finishRows()
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }
}

/// The rows' side of an ``XLSXSheetConversion``: converts rows (``WorkbookRowConverter``) and writes their
/// fx_* cells (the one writer of them), at once or in the places the reading thread left them in a block of markup
/// (``merging(_:rows:)``).
///
/// `@unchecked Sendable`: it is used by one thread at a time — the deflater's serial queue while blocks are in
/// flight (the conversion's thread then only places rows), the conversion's thread otherwise (the libxml2 road,
/// which writes its cells at once; ``XLSXSheetConversion/finish(scan:)`` once the deflater has finished).
final class XLSXRowSide: @unchecked Sendable {
  /// A row placed in a block of markup, with where its cells go.
  enum Placed: Sendable {
    /// A record row by its decoded key and amount; its bytes (in the block) and the row before it are for
    /// reading it whole when the fast path declines it.
    case decoded(
      offset: Int, row: Int, prefix: [UInt8], key: RateKey, usedDefaultDay: Bool, amount: ExactDecimal,
      bytes: Range<Int>, previousRow: Int)
    /// A row read whole that gets cells (the header, a record).
    case whole(offset: Int, prefix: [UInt8], row: XLSXRow)
    /// The header found (by the one-pass road): the rows after it are records under its mapping.
    case header(row: Int, mapping: FieldMapping)
  }

  /// Everything the side changes, in a struct: a call works on it through one access (the rows of a block in
  /// one call), with no access checks or reference counting of the class's properties for each cell.
  private var state: State

  init(
    rows: WorkbookRowConverter, columns: [[UInt8]?], styles: XLSXAnnotationStyles, book: XLSXBook,
    displayPath: String, headerRow: Int, mapping: FieldMapping
  ) {
    state = State(
      rows: rows, columns: columns, styles: styles, book: book, displayPath: displayPath, headerRow: headerRow,
      mapping: mapping)
  }

  /// The first row read otherwise here than on the reading thread (it changed meanwhile).
  var failure: FileError? { state.failure }

  /// The run's figures for the sheet, once every row is converted.
  func finishRows() -> (counts: RunReport.Counts, withoutDate: Int, ledger: ReconciliationLedger) {
    state.rows.finish()
  }

  /// Whether a row gets fx_* cells: the header (their names), and every record row that is not blank.
  static func getsCells(_ row: XLSXRow, headerRow: Int) -> Bool {
    row.number == headerRow || (row.number > headerRow && !XLSXBook.isBlank(row))
  }

  /// Converts one row; `false` for the rows that get no fx_* cells (``getsCells(_:headerRow:)``).
  func convertRow(_ row: XLSXRow) -> Bool { state.convertRow(row) }

  /// Appends the fx_* cells of the row converted last, `number` (``State/appendCells(row:prefix:to:)``).
  func appendCells(row number: Int, prefix: ByteView, to markup: inout ByteBuffer) {
    state.appendCells(row: number, prefix: prefix, to: &markup)
  }

  /// A block of markup with its placed rows converted and their cells written in their places.
  func merging(_ block: ByteBuffer, rows placed: [Placed]) -> ByteBuffer {
    state.merging(block, rows: placed)
  }

  private struct State {
    var rows: WorkbookRowConverter
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
    private let book: XLSXBook
    private let displayPath: String
    private var headerRow: Int
    private var mapping: FieldMapping
    private(set) var failure: FileError? = nil

    init(
      rows: WorkbookRowConverter, columns: [[UInt8]?], styles: XLSXAnnotationStyles, book: XLSXBook,
      displayPath: String, headerRow: Int, mapping: FieldMapping
    ) {
      self.rows = rows
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
      self.book = book
      self.displayPath = displayPath
      self.headerRow = headerRow
      self.mapping = mapping
    }

    mutating func convertRow(_ row: XLSXRow) -> Bool {
      guard XLSXRowSide.getsCells(row, headerRow: headerRow) else { return false }
      if row.number == headerRow {
        rows.setHeader()
      } else {
        rows.convert(book.fields(of: row, mapping: mapping))
      }
      return true
    }

    /// Appends the fx_* cells of the row converted last, `number`: `fx_rate` and `fx_converted` numbers (the
    /// amount in the number format of its decimals), `fx_rate_date` a date serial in the date style, the rest
    /// inline strings (``XLSXSheetRewriter/CellMarkup``); `prefix` is the row element's namespace prefix.
    mutating func appendCells(row number: Int, prefix: ByteView, to markup: inout ByteBuffer) {
      if prefix.count != cellPrefix.count || !prefix.elementsEqual(cellPrefix) {
        cellPrefix = prefix.array
        cellMarkup = XLSXSheetRewriter.CellMarkup(
          prefix: cellPrefix, columns: columnLetters, styles: markupStyles)
      }
      rowDigits.removeAll()
      XLSXSheetRewriter.appendDecimal(number, to: &rowDigits)
      let digits = ByteView(rowDigits.bytes)
      let isRecord = number != headerRow
      var offset = 0
      for annotation in Self.annotations {
        defer { offset += 1 }
        let value = rows.value(offset)
        guard !value.isEmpty, let column = markupColumns[offset] else { continue }
        switch annotation {
        case .rate where isRecord:
          cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: nil)
        case .converted where isRecord:
          let style = rows.decimals.flatMap { $0 >= 0 && $0 < amountStyles.count ? amountStyles[$0] : nil }
          cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: style)
        case .rateDate where isRecord:
          if let style = dateStyle, let day = rows.rateDay ?? CalendarDay(iso8601UTF8: Array(value.buffer)[...]),
            let serial = book.dateSystem.serial(of: day)
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

    /// The annotation columns in order (made once: `allCases` is made anew at each use).
    private static let annotations = AnnotationColumn.allCases

    mutating func merging(_ block: ByteBuffer, rows placed: [Placed]) -> ByteBuffer {
      var result = ByteBuffer(capacity: block.count + placed.count * 512)
      let source = ByteView(block.bytes)
      var last = 0
      func cells(at offset: Int, row number: Int, prefix: [UInt8], state: inout State) {
        result.append(source.slice(last..<offset))
        last = offset
        prefix.withUnsafeBufferPointer { state.appendCells(row: number, prefix: ByteView($0), to: &result) }
      }
      for row in placed {
        switch row {
        case .decoded(let offset, let number, let prefix, let key, let usedDefaultDay, let amount, let range, let previous):
          if rows.convert(key: key, usedDefaultDay: usedDefaultDay, amount: amount) {
            cells(at: offset, row: number, prefix: prefix, state: &self)
            continue
          }
          do throws(XLSXError) {
            let whole = try XLSXFormat.collectedRow(source.slice(range).array, after: previous, book: book)
            if convertRow(whole) { cells(at: offset, row: number, prefix: prefix, state: &self) }
          } catch {
            failure = failure ?? XLSXFormat.sheetChanged(displayPath)
          }
        case .whole(let offset, let prefix, let row):
          if convertRow(row) { cells(at: offset, row: row.number, prefix: prefix, state: &self) }
        case .header(let row, let mapping):
          (headerRow, self.mapping) = (row, mapping)
        }
      }
      result.append(source.slice(last..<source.count))
      return result
    }
  }
}
