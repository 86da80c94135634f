#if canImport(Glibc)
  import Glibc
#endif

/// The annotated copy of one `.xlsx` sheet as it is written: the fx_* cells of each row (converted by
/// ``WorkbookRowConverter``, written by ``XLSXSheetRewriter/CellMarkup``), the sheet deflated as it comes
/// (``ZipDeflater``, into an unnamed temporary file), the styles part with the new number formats, and at the
/// end the package with both replaced.
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
  private var rows: WorkbookRowConverter
  private var replacements: [(name: String, content: ZipEntryContent)] = []
  /// The writer of the cells on this thread (``appendCells(row:prefix:markup:)``), and the one the deflater's
  /// thread writes the placed cells with (``placeCells(row:prefix:markup:)``, ``flush(_:)``).
  private var writer: XLSXCellWriter
  private let deferredWriter: XLSXCellWriter
  /// The cells placed in the markup not yet handed over: where each row's go, and their values back to back.
  private var placed: [XLSXCellWriter.PlacedCells] = []
  private var placedValues: [UInt8] = []
  private var placedEnds: [Int] = []
  private let temporary: Int32
  private let deflater: ZipDeflater
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
    rows = WorkbookRowConverter(context: context, scan: scan, quotes: quotes)
    // The fx_* columns' letters, written once; a column past XFD gets no cell (as a reference cannot name it).
    let columns: [[UInt8]?] = AnnotationColumn.allCases.indices.map { offset in
      XLSXCellReference(column: firstColumn + offset, row: 1).map { Array(XLSXCellReference.letters(ofColumn: $0.column).utf8) }
    }
    var styles = XLSXAnnotationStyles.none
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
    do { temporary = try UnnamedTemporaryFile.create(prefix: "fxbatch-sheet") } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
    // The sheet is deflated as it is written, and copied into the package as it is (ZipDeflater).
    do { deflater = try ZipDeflater(descriptor: temporary, path: outputPath) } catch {
      close(temporary)
      throw XLSXBook.fileError(error.description, readPath: outputPath, displayPath: scan.displayPath)
    }
    writer = XLSXCellWriter(columns: columns, styles: styles, dateSystem: book.dateSystem)
    deferredWriter = XLSXCellWriter(columns: columns, styles: styles, dateSystem: book.dateSystem)
    if header != nil { makeDecoder() }
  }

  /// A conversion dropped unfinished (a one-pass road that failed its check) leaves nothing behind: the
  /// deflater drops its blocks, and the temporary file has no name.
  deinit { close(temporary) }

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
    do { try deflater.write(bytes) } catch { throw FileError(path: scan.displayPath, message: "\(error)") }
  }

  /// Hands the markup over to be deflated, with the cells placed in it (``placeCells(row:prefix:markup:)``),
  /// which the deflater's thread writes in their places first; empties it.
  func flush(_ markup: inout ByteBuffer) throws(FileError) {
    guard markup.count > 0 else { return }
    let block = Array(markup.bytes)
    markup.removeAll()
    guard !placed.isEmpty else { return try write(block) }
    let (cells, values, ends, writer) = (placed, placedValues, placedEnds, deferredWriter)
    (placed, placedValues, placedEnds) = ([], [], [])
    do {
      try deflater.write(making: { writer.merging(block, cells: cells, values: values, ends: ends) })
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
    }
  }

  /// Converts one row of the sheet; `false` for the rows that get no fx_* cells (before the header, blank).
  func convertRow(_ row: XLSXRow) -> Bool {
    if row.number == headerRow {
      rows.setHeader()
    } else if row.number > headerRow, !XLSXBook.isBlank(row) {
      rows.convert(book.fields(of: row, mapping: mapping))
    } else {
      return false
    }
    return true
  }

  /// Converts a record row from its decoded key and amount on the fast path; `false` (nothing converted) leaves
  /// the row to ``convertRow(_:)``.
  func convert(key: RateKey, usedDefaultDay: Bool, amount: ExactDecimal) -> Bool {
    rows.convert(key: key, usedDefaultDay: usedDefaultDay, amount: amount)
  }

  /// Converts the scanner's row and places its fx_* cells (or none) in `markup`
  /// (``placeCells(row:prefix:markup:)``): a record row the simple rules read converts from its decoded key and
  /// amount where it can, every other row is read whole (`whole`: the row read already, if it was).
  ///
  /// - Returns: the row's number, and whether it got cells.
  func scannedRow(_ scanner: borrowing XLSXSheetScanner, whole: XLSXRow? = nil, markup: inout ByteBuffer)
    throws(FileError) -> (number: Int, cells: Bool)
  {
    let number = scanner.rowNumber
    if whole == nil, scanner.rowIsSimple, scanner.rowHasValue, number > headerRow, let decoder,
      let amount = decoder.amount(scanner.cells, in: scanner.bytes),
      let found = decoder.key(scanner.cells, in: scanner.bytes),
      rows.convert(key: found.key, usedDefaultDay: found.usedDefaultDay, amount: amount)
    {
      placeCells(row: number, prefix: scanner.bytes.slice(scanner.rowPrefix), markup: markup)
      return (number, true)
    }
    let row: XLSXRow
    if let whole { row = whole } else { row = try XLSXFormat.wholeRow(scanner, book: book, scan: scan) }
    guard convertRow(row) else { return (row.number, false) }
    placeCells(row: row.number, prefix: scanner.bytes.slice(scanner.rowPrefix), markup: markup)
    return (row.number, true)
  }

  /// Appends the fx_* cells of the row converted last, `number`.
  func appendCells(row number: Int, prefix: ByteView, markup: inout ByteBuffer) {
    writer.append(
      row: number, isRecord: number != headerRow, values: rows.valueBytes[...], ends: rows.valueEnds[...],
      decimals: rows.decimals, rateDay: rows.rateDay, prefix: prefix, to: &markup)
  }

  /// Places the fx_* cells of the row converted last, `number`, at the markup's end: its values are kept, and
  /// the deflater's thread writes the cells there when the markup is handed over (``flush(_:)``).
  func placeCells(row number: Int, prefix: ByteView, markup: borrowing ByteBuffer) {
    placed.append(
      XLSXCellWriter.PlacedCells(
        offset: markup.count, row: number, isRecord: number != headerRow, decimals: rows.decimals,
        rateDay: rows.rateDay, prefix: prefix.count == 0 ? [] : prefix.array, valuesStart: placedValues.count))
    placedValues += rows.valueBytes
    placedEnds += rows.valueEnds
  }

  /// Ends the sheet and writes the package: the sheet and the styles part replaced, every other entry copied.
  ///
  /// - Parameter scan: the file's scan as it stands after the pass.
  func finish(scan: FileScan) throws(FileError) -> FileConversion {
    let deflated: (size: UInt64, crc: UInt32)
    do { deflated = try deflater.finish() } catch { throw FileError(path: scan.displayPath, message: "\(error)") }
    do {
      try book.package.write(
        to: outputPath,
        replacing: replacements + [
          (
            book.sheetEntry.name,
            .deflatedFile(path: "/proc/self/fd/\(temporary)", size: deflated.size, crc: deflated.crc)
          )
        ])
    } catch {
      throw XLSXBook.fileError(error.description, readPath: outputPath, displayPath: scan.displayPath)
    }
    let (counts, withoutDate, ledger) = rows.finish()
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }
}

/// Writes the fx_* cells of rows: each value in its cell (``XLSXSheetRewriter/CellMarkup``), `fx_rate` and
/// `fx_converted` numbers (the amount in the number format of its decimals), `fx_rate_date` a date serial in the
/// date style, the rest inline strings.
///
/// `@unchecked Sendable`: a writer keeps the pieces it made (cell markup by prefix, digits); each is used by one
/// thread only — ``XLSXSheetConversion`` has one for its own thread and one that only the deflater's serial queue
/// uses.
final class XLSXCellWriter: @unchecked Sendable {
  /// A row's cells placed in a block of markup: where they go, and what they hold (the values from
  /// `valuesStart` of the block's values, their ends 7 a row in the block's ends).
  struct PlacedCells: Sendable {
    let offset: Int
    let row: Int
    let isRecord: Bool
    let decimals: Int?
    let rateDay: CalendarDay?
    let prefix: [UInt8]
    let valuesStart: Int
  }

  private let columns: [[UInt8]?]
  private let styles: XLSXAnnotationStyles
  private let dateSystem: XLSXDateSystem
  private var cellMarkup = XLSXSheetRewriter.CellMarkup(prefix: [])
  private var cellPrefix: [UInt8] = []
  /// The digits of the row written and of its rate date's serial (kept: written for every row).
  private var rowDigits: [UInt8] = []
  private var serialDigits: [UInt8] = []

  init(columns: [[UInt8]?], styles: XLSXAnnotationStyles, dateSystem: XLSXDateSystem) {
    self.columns = columns
    self.styles = styles
    self.dateSystem = dateSystem
  }

  /// Appends a row's fx_* cells.
  ///
  /// - Parameters:
  ///   - values: the row's values back to back in ``AnnotationColumn`` order; `ends`: where each ends, counted
  ///     from the values' start.
  ///   - decimals: the digits after the converted amount's point (`nil`: not converted); `rateDay`: the rate's
  ///     day when known as a day (else read from its text).
  ///   - prefix: the row element's namespace prefix with its colon, for the cells' names.
  func append(
    row number: Int, isRecord: Bool, values: ArraySlice<UInt8>, ends: ArraySlice<Int>, decimals: Int?,
    rateDay: CalendarDay?, prefix: ByteView, to markup: inout ByteBuffer
  ) {
    if prefix.count != cellPrefix.count || !prefix.elementsEqual(cellPrefix) {
      cellPrefix = prefix.array
      cellMarkup = XLSXSheetRewriter.CellMarkup(prefix: cellPrefix)
    }
    rowDigits.removeAll(keepingCapacity: true)
    XLSXSheetRewriter.appendDecimal(number, to: &rowDigits)
    let digits = rowDigits[...]
    let base = values.startIndex
    for (offset, annotation) in AnnotationColumn.allCases.enumerated() {
      let start = offset == 0 ? 0 : ends[ends.startIndex + offset - 1]
      let value = values[(base + start)..<(base + ends[ends.startIndex + offset])]
      guard !value.isEmpty, let column = columns[offset] else { continue }
      switch annotation {
      case .rate where isRecord:
        cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: nil)
      case .converted where isRecord:
        let style = decimals.flatMap(styles.amountStyle(decimals:))
        cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: style)
      case .rateDate where isRecord:
        if let style = styles.date, let day = rateDay ?? CalendarDay(iso8601UTF8: value),
          let serial = dateSystem.serial(of: day)
        {
          serialDigits.removeAll(keepingCapacity: true)
          if serial < 0 { serialDigits.append(UInt8(ascii: "-")) }
          XLSXSheetRewriter.appendDecimal(serial < 0 ? -serial : serial, to: &serialDigits)
          cellMarkup.appendNumber(to: &markup, column: column, row: digits, serialDigits[...], style: style)
        } else {
          cellMarkup.appendText(to: &markup, column: column, row: digits, value)
        }
      default:
        cellMarkup.appendText(to: &markup, column: column, row: digits, value)
      }
    }
  }

  /// A block of markup with the cells placed in it written in their places.
  func merging(_ block: [UInt8], cells: [PlacedCells], values: [UInt8], ends: [Int]) -> [UInt8] {
    let count = AnnotationColumn.allCases.count
    var result = ByteBuffer(capacity: block.count + cells.count * 512)
    var last = 0
    for (index, cell) in cells.enumerated() {
      result.append(block[last..<cell.offset])
      cell.prefix.withUnsafeBufferPointer { prefix in
        append(
          row: cell.row, isRecord: cell.isRecord, values: values[cell.valuesStart...],
          ends: ends[(index * count)..<((index + 1) * count)], decimals: cell.decimals, rateDay: cell.rateDay,
          prefix: ByteView(prefix), to: &result)
      }
      last = cell.offset
    }
    result.append(block[last...])
    return Array(result.bytes)
  }
}
