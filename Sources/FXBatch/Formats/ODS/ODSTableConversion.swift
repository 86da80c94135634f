/// The annotated copy of one `.ods` table as it is written: the fx_* cells of each row element (converted by
/// ``WorkbookRowConverter``, written by ``ODSCells``), `content.xml` deflated as it comes (``ZipDeflater``, ISA-L
/// on a thread of its own), and the package with it replaced written on another from the start
/// (``ZipPackage/startWriting(to:replacing:)``): the deflated content goes into the package as it comes
/// (``ZipDeflatedStream``). Both roads use it: libxml2's (``ODSContentRewriter``) and the scanner's
/// (``ODSFormat/rewriteScanned(_:book:conversion:)``).
///
/// On the scanner's road a record row the decoder reads (``ODSRowDecoder``) is converted from its cells' bytes
/// (``convertScanned(_:)``), and its fx_* cells are written on the deflater's thread, as `.xlsx`'s are
/// (``XLSXSheetConversion``): the reading thread places the row's values in the markup (``place(at:)``), and
/// when a block is handed over (``flush(_:)``) the deflater's thread writes their cells in their places
/// (``ODSCellWriter``) before deflating it. Every other row's cells are written at once (``cells(of:emit:)``),
/// by the same writer of the cells (``ODSCells/appendMarkup(_:isHeader:columns:to:)``).
///
/// A class: the rewriters' row closures call it for every row element.
final class ODSTableConversion {
  let scan: FileScan
  let rewriter: ODSContentRewriter
  private let details: WorkbookScanDetails
  private let layout: AnnotationLayout
  /// Its columns (``AnnotationLayout/columns``, made once).
  private let columns: [AnnotationColumn]
  /// The columns of the record fields: only they are made of a record's cells.
  private let fieldColumns: Int
  /// Converts the rows and places them, on the reading thread.
  private var rows: Rows
  /// Reads a record row's key and amounts from the scanner's cells.
  private let decoder: ODSRowDecoder
  /// Writes the placed rows' cells on the deflater's thread.
  private let writer: ODSCellWriter
  /// A record's fx_* cells (reused).
  private var markup = ByteBuffer(capacity: 1 << 10)
  private let deflater: ZipDeflater
  private let deflated: ZipDeflatedStream
  private let writing: ZipPackageWriting
  private let outputPath: String

  init(scan: FileScan, book: ODSBook, tableIndex: Int, context: FormatContext, quotes: QuoteBook) throws(FileError) {
    guard let outputPath = scan.outputPath else {
      throw FileError(path: scan.displayPath, message: "a workbook cannot be written to standard output")
    }
    self.scan = scan
    self.outputPath = outputPath
    details = scan.workbook
    layout = context.annotationLayout
    columns = layout.columns
    rewriter = ODSContentRewriter(tableIndex: tableIndex, firstColumn: details.lastColumn + 1, columnCount: layout.count)
    let mapping = details.mapping
    fieldColumns =
      (([mapping.amount, mapping.from, mapping.to, mapping.date].compactMap { $0 } + mapping.amounts).max() ?? 0) + 1
    rows = Rows(converter: WorkbookRowConverter(context: context, scan: scan, quotes: quotes))
    decoder = ODSRowDecoder(mapping: mapping, normalizer: scan.normalizer)
    writer = ODSCellWriter(columns: columns)
    // A content.xml near 4 GiB already may pass it with the fx_* cells: its entry is Zip64.
    deflated = ZipDeflatedStream(mayPassZip32Limits: book.contentEntry.size >= Self.zip64Threshold)
    deflater = ZipDeflater(into: deflated)
    writing = book.package.startWriting(to: outputPath, replacing: [(book.contentEntry.name, .deflatedStream(deflated))])
  }

  /// The content's size from which its entry is written as Zip64: 2 GiB (the fx_* cells cannot take an entry
  /// written as Zip32 past 4 GiB).
  static let zip64Threshold: UInt64 = 1 << 31

  /// A conversion dropped unfinished leaves nothing behind (as ``XLSXSheetConversion``'s).
  deinit {
    deflated.abandon()
    try? writing.wait()
  }

  /// How much rewritten content is gathered before it is handed to the deflater.
  static let writeBlockSize = 1 << 18

  /// Hands the bytes over to be deflated, with the rows placed in them (``place(at:)``), whose cells the
  /// deflater's thread writes in their places first; empties them.
  func flush(_ bytes: inout ByteBuffer) throws(FileError) {
    guard bytes.count > 0 || !rows.placed.rows.isEmpty else { return }
    let block = bytes
    bytes = ByteBuffer(capacity: 2 * Self.writeBlockSize)
    guard !rows.placed.rows.isEmpty else {
      do { return try deflater.write(block) } catch { throw failure(error) }
    }
    let (placed, writer) = (rows.placed, self.writer)
    rows.placed = ODSCellWriter.Placed()
    do { try deflater.write(block, making: { writer.merging($0, rows: placed) }) } catch { throw failure(error) }
  }

  /// Converts the scanner's row from its cells' bytes when it is one record row (not repeated, after the
  /// header) whose key and amounts the decoder reads and the fast path converts; `false` (nothing converted)
  /// leaves it to ``cells(of:emit:)``.
  func convertScanned(_ scanner: borrowing ODSContentScanner) -> Bool {
    guard scanner.rowRepeated == 1, scanner.rowNumber > details.headerRow else { return false }
    let (cells, bytes, decoder) = (scanner.cells, scanner.bytes, self.decoder)
    return rows.converter.convert(reading: { decoder.read(cells, in: bytes, keys: &$0, amounts: &$1) })
  }

  /// `<table:table-cell/>` standing for `count` columns (as ``ODSContentRewriter/repeating(_:_:)`` writes it),
  /// made again only when the count changes.
  func emptyCells(_ count: Int) -> [UInt8] {
    if filler.count != count { filler = (count, ODSContentRewriter.repeating(Array("<table:table-cell/>".utf8), count)) }
    return filler.bytes
  }

  private var filler: (count: Int, bytes: [UInt8]) = (0, [])

  /// Places the values of the row converted last (``convertScanned(_:)``) at `offset` in the markup being
  /// gathered, for the deflater's thread to write its fx_* cells there.
  func place(at offset: Int) {
    rows.place(at: offset)
  }

  /// The rows' converter and the rows placed in the markup not yet handed over, in a struct: a call works on
  /// them through one access (as ``XLSXSheetConversion``'s).
  private struct Rows {
    var converter: WorkbookRowConverter
    var placed = ODSCellWriter.Placed()

    mutating func place(at offset: Int) {
      let start = placed.values.count
      let found = converter.appendValues(to: &placed.values)
      placed.rows.append(ODSCellWriter.PlacedRow(offset: offset, valuesStart: start, values: found))
    }
  }

  private func failure(_ error: OutputError) -> FileError {
    if deflated.writerStopped {
      do { try writing.wait() } catch { return writeFailure(error) }
    }
    return FileError(path: scan.displayPath, message: "\(error)")
  }

  private func writeFailure(_ error: ZipError) -> FileError {
    FileError.package(error.description, readPath: outputPath, displayPath: scan.displayPath)
  }

  /// Hands the fx_* cells of each row of a row element (none for the rows before the header and blank rows) to
  /// `emit`, a run of rows at a time: the rows above the header, the header, the records. The records of a
  /// repeated row hold the same cells, and their fields name them as one range, so they convert once, are
  /// counted for each, and are written back as one repeated row: memory and time do not grow with the repeat.
  func cells(of element: ODSRowElement, emit: ODSContentRewriter.Emit) throws(FileError) {
    let (number, repeated) = (element.number, element.repeated)
    if element.isBlank || number + repeated - 1 < details.headerRow { return }
    var offset = min(repeated, max(0, details.headerRow - number))
    if offset > 0 { try emit(ODSCells.markup([], isHeader: false), offset) }
    if offset < repeated, number + offset == details.headerRow {
      try emit(ODSCells.markup(layout.fieldNames, isHeader: true, layout: layout), 1)
      offset += 1
    }
    guard offset < repeated else { return }
    let records = repeated - offset
    let first = number + offset
    let last = first + records - 1
    // Only the fields' columns are made: a record's cells may stand for thousands of columns.
    let fields = WorkbookRecords.fields(
      of: element.row(offset, columns: fieldColumns), mapping: details.mapping,
      cellName: { cell in
        let column = cell.reference.column
        guard records > 1, let from = CellReference(column: column, row: first),
          let to = CellReference(column: column, row: last)
        else { return "cell \(cell.reference)" }
        return "cells \(from):\(to) (a repeated row)"
      })
    rows.converter.convert(fields, count: records)
    markup.removeAll()
    ODSCells.appendMarkup({ self.rows.converter.value($0) }, isHeader: false, columns: columns, to: &markup)
    try emit(Array(markup.bytes), records)
  }

  /// Ends the content and waits for the package's writing.
  ///
  /// - Parameter finished: the file's scan as it stands after the pass (the one-pass road's); the scan the
  ///   conversion was made with when `nil`.
  func finish(scan finished: FileScan? = nil) throws(FileError) -> FileConversion {
    let content: (size: UInt64, crc: UInt32)
    do { content = try deflater.finish() } catch { throw failure(error) }
    guard deflated.mayPassZip32Limits || content.size <= UInt64(UInt32.max) else {
      throw FileError(
        path: scan.displayPath,
        message: "the converted content.xml is \(content.size) bytes, more than the 4 GiB a Zip32 entry holds")
    }
    deflated.finish(size: content.size, crc: content.crc)
    do { try writing.wait() } catch { throw writeFailure(error) }
    let (counts, withoutDate, ledger) = rows.converter.finish()
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: finished ?? scan)
  }
}

/// Writes the fx_* cells of the rows an ``ODSTableConversion`` placed in a block of markup, in their places
/// (``merging(_:rows:)``), on the deflater's thread (``ODSCells/appendMarkup(_:isHeader:columns:to:)``).
///
/// `@unchecked Sendable`: it holds only constants; the blocks and their placed rows are handed over whole.
final class ODSCellWriter: @unchecked Sendable {
  /// A record row placed in a block of markup: where its cells go, and its values.
  struct PlacedRow {
    let offset: Int
    /// Where its values start in ``Placed/values``.
    let valuesStart: Int
    let values: WorkbookRowValues
  }

  /// The rows placed in a block, and their values back to back.
  struct Placed: @unchecked Sendable {
    var rows: [PlacedRow] = []
    var values = ByteBuffer(capacity: 1 << 14)
  }

  /// The run's annotation columns (``AnnotationLayout/columns``).
  private let columns: [AnnotationColumn]

  init(columns: [AnnotationColumn]) { self.columns = columns }

  /// A block of markup with the cells of its placed rows written in their places.
  func merging(_ block: ByteBuffer, rows placed: Placed) -> ByteBuffer {
    var result = ByteBuffer(capacity: block.count + placed.rows.count * 640)
    let source = ByteView(block.bytes)
    let values = ByteView(placed.values.bytes)
    var last = 0
    for row in placed.rows {
      result.append(source.slice(last..<row.offset))
      last = row.offset
      let bytes = values.slice(from: row.valuesStart)
      ODSCells.appendMarkup({ row.values.value($0, in: bytes) }, isHeader: false, columns: columns, to: &result)
    }
    result.append(source.slice(last..<source.count))
    return result
  }
}
