/// The annotated copy of one `.ods` table as it is written: the fx_* cells of each row element (converted by
/// ``WorkbookRowConverter``, written by ``ODSCells``), `content.xml` deflated as it comes (``ZipDeflater``, ISA-L
/// on a thread of its own), and the package with it replaced written on another from the start
/// (``ZipPackage/startWriting(to:replacing:)``): the deflated content goes into the package as it comes
/// (``ZipDeflatedStream``). Both roads use it: libxml2's (``ODSContentRewriter``) and the scanner's
/// (``ODSFormat/rewriteScanned(_:book:conversion:)``).
///
/// A class: the rewriters' row closures call it for every row element.
final class ODSTableConversion {
  let scan: FileScan
  let rewriter: ODSContentRewriter
  private let details: WorkbookScanDetails
  private let layout: AnnotationLayout
  /// The columns of the record fields: only they are made of a record's cells.
  private let fieldColumns: Int
  private var rows: WorkbookRowConverter
  /// A record's fx_* cells (reused).
  private var markup: [UInt8] = []
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
    rewriter = ODSContentRewriter(tableIndex: tableIndex, firstColumn: details.lastColumn + 1, columnCount: layout.count)
    let mapping = details.mapping
    fieldColumns =
      (([mapping.amount, mapping.from, mapping.to, mapping.date].compactMap { $0 } + mapping.amounts).max() ?? 0) + 1
    rows = WorkbookRowConverter(context: context, scan: scan, quotes: quotes)
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

  /// Hands the bytes over to be deflated, and empties them.
  func flush(_ bytes: inout ByteBuffer) throws(FileError) {
    guard bytes.count > 0 else { return }
    let block = bytes
    bytes = ByteBuffer(capacity: 2 * Self.writeBlockSize)
    do { try deflater.write(block) } catch { throw failure(error) }
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
    rows.convert(fields, count: records)
    markup.removeAll(keepingCapacity: true)
    ODSCells.appendMarkup({ self.rows.value($0) }, isHeader: false, layout: layout, to: &markup)
    try emit(markup, records)
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
    let (counts, withoutDate, ledger) = rows.finish()
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: finished ?? scan)
  }
}
