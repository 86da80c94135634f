/// The one-pass road of an `.xlsx` sheet under a local rate table (records convert from the table as they come,
/// with no keys to collect first): pass 1 leaves the sheet unread (``provisionalScan(_:context:)``), and pass 2
/// reads it once, doing pass 1's work (``WorkbookRecords/ScanState``, fed as ``scanSheet(_:book:context:)``
/// feeds it) and writing the annotated sheet as pass 2 writes it (``appendRewritten(_:of:columns:to:row:)``,
/// ``XLSXSheetConversion``) at once.
///
/// Writing before the sheet is read to its end takes for granted what only its end says: that the sheet's last
/// used column is the one its `<dimension>` names, or without one, the last of its header (the first row; the
/// fx_* cells follow it), that the decimal mark is the one given, or `.` when no text amount gives evidence
/// of one, and that no date proves an order of slash dates. Pass 1's state says all three at the end; when one
/// differs (or the first row is blank in a sheet without a `<dimension>`, or the header is refused) the written
/// copy is dropped and pass 2 runs from pass 1's scan, as it would have. Anything the scanner declines or pass 1
/// refuses goes the two-pass road from the start, so messages and output are the two passes' in every case
/// (`XLSXOnePassTests`).
extension XLSXFormat {
  /// The scan of a sheet not read yet: its reading is left to ``convertInOnePass(_:context:quotes:)``.
  static func provisionalScan(_ file: FileInput, context: FormatContext) -> FileScan {
    let mark = context.options.decimalMark
    return FileScan(
      displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, format: format,
      decimalMark: mark ?? .point, decimalMarkInferred: mark == nil, decimalMarkBasis: nil,
      normalizer: context.recordNormalizer, fields: [:],
      details: WorkbookScanDetails(
        headerRow: 0, mapping: FieldMapping(amount: 0, from: nil, to: nil, date: nil), lastColumn: 0,
        sheetScanned: true, isProvisional: true))
  }

  /// Reads a provisionally scanned sheet once, converting and writing as it reads (see the extension's
  /// comment); falls back to the two passes when the sheet is not as the road assumed.
  static func convertInOnePass(_ provisional: FileScan, context: FormatContext, quotes: QuoteBook) throws(FileError)
    -> FileConversion
  {
    let file = FileInput(
      displayPath: provisional.displayPath, readPath: provisional.readPath, outputPath: provisional.outputPath)
    let book = try XLSXBook(
      readPath: file.readPath, displayPath: file.displayPath, sheet: context.options.sheet,
      unixDates: context.options.dateFormat.isUnix)
    /// The two passes, from pass 1 (`scanned`: its scan, when the one pass read the sheet to its end).
    func twoPasses(_ scanned: FileScan? = nil) throws(FileError) -> FileConversion {
      var scan: FileScan
      if let scanned { scan = scanned } else { (scan, _) = try Self.scan(file, book: book, context: context) }
      (scan.encoding, scan.readPathIsTemporary) = (provisional.encoding, provisional.readPathIsTemporary)
      return try convert(scan, context: context, quotes: quotes, standardOutput: -1)
    }
    guard let stream = try? book.package.stream(book.sheetEntry) else { return try twoPasses() }
    var scanner = XLSXSheetScanner(stream: stream, sharedStringCount: book.sharedStrings.strings.count)
    var state = WorkbookRecords.ScanState(
      file, context: context, format: format, sheetName: book.sheetName, otherSheets: { book.otherSheetNames },
      fields: book.fields(of:mapping:),
      cellText: book.sampleText(of:))
    var decoder: XLSXRowDecoder? = nil
    // The copy being written, while the road holds, and the last column it assumed (decided at the first
    // `<dimension>` before the rows, else at the first row when it is the header; -1 before).
    var conversion: XLSXSheetConversion? = nil
    var assumedLastColumn = -1
    var decided = false
    var columns = RewriteColumns(lastColumn: 0)
    // The markup before the decision is kept here (a sheet's first elements: small in every real sheet).
    var output = ByteBuffer(capacity: 2 * writeBlockSize)
    var rowsBegun = false
    func start(lastColumn: Int) {
      decided = true
      assumedLastColumn = lastColumn
      conversion = try? XLSXSheetConversion(
        scan: provisional, book: book, context: context, quotes: quotes, sheetLastColumn: lastColumn,
        header: state.header.map { ($0.number, state.mapping) })
      columns = RewriteColumns(lastColumn: conversion?.lastColumn ?? 0)
    }
    do {
      while let item = try scanner.next() {
        var whole: SheetRow? = nil
        switch item {
        case .dimension(let range):
          if !decided, !rowsBegun {
            if let last = XLSXSheetRewriter.dimensionLastColumn(scanner.bytes.slice(range).buffer) {
              start(lastColumn: last)
            } else {
              // A `ref` naming no last column is kept as it is, as the rewriters keep it
              // (XLSXSheetRewriter.widened); the decision waits for the first row.
              output.append(scanner.bytes.slice(range))
            }
          }
        case .row:
          let first = !rowsBegun
          rowsBegun = true
          guard !state.isRefused else { break }
          let hadHeader = state.hasHeader
          whole = try addRow(scanner, to: &state, decoder: &decoder, book: book, context: context)
          if let whole { scanner.previousRow = whole.number }
          if state.isRefused {
            conversion = nil
          } else if !hadHeader, let header = state.header {
            if first, !decided {
              start(lastColumn: header.cells.last?.reference.column ?? 0)
            } else {
              conversion?.setHeader(row: header.number, mapping: state.mapping)
            }
          }
          decided = true
          // What the road assumed no longer holds: pass 1 reads on alone (the copy is not written in vain).
          if state.lastColumn > assumedLastColumn || state.amountsDependOnTheMark || state.datesProveAnOrder {
            conversion = nil
          }
        case .markup(let range):
          if !decided {
            output.append(scanner.bytes.slice(range))
            if output.count > writeBlockSize { decided = true }  // no road
          }
        }
        guard let conversion else { continue }
        try appendRewritten(item, of: &scanner, columns: columns, to: &output) {
          (scanner: borrowing XLSXSheetScanner, markup: inout ByteBuffer, rowStart: Int) throws(FileError) in
          try conversion.scannedRow(scanner, whole: whole, markup: &markup, rowStart: rowStart)
        }
        if output.count >= writeBlockSize { try conversion.flush(&output) }
      }
    } catch {
      // Outside the scanner's subset, a row it cannot read, a write that failed: the two passes from the start
      // (whose messages the sheet gets). The copy is dropped first (its deflater stops).
      conversion = nil
      return try twoPasses()
    }
    var (scan, _) = try state.finish(sheetScanned: true)
    (scan.encoding, scan.readPathIsTemporary) = (provisional.encoding, provisional.readPathIsTemporary)
    guard let kept = conversion, scan.workbook.lastColumn == assumedLastColumn,
      scan.decimalMark == provisional.decimalMark, scan.decimalMarkBasis == provisional.decimalMarkBasis,
      scan.normalizer.dateFormat == provisional.normalizer.dateFormat
    else {
      conversion = nil
      return try twoPasses(scan)
    }
    conversion = nil
    try kept.flush(&output)
    var details = scan.workbook
    details.readInOnePass = true
    scan.details = details
    return try kept.finish(scan: scan)
  }
}
