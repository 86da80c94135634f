/// The one-pass road of an `.ods` table under a local rate table (records convert from the table as they come,
/// with no keys to collect first), as `.xlsx`'s (``XLSXFormat``'s one pass): pass 1 leaves `content.xml` unread
/// (``provisionalScan(_:context:)``), and pass 2 reads it once through the scanner, doing pass 1's work
/// (``WorkbookRecords/ScanState``) and writing the annotated copy (``rewriteScanned(_:book:makeConversion:scannerFailed:row:)``)
/// at once.
///
/// The copy's fx_* cells go after the last column the rows use, which only the table's end says: the road reads
/// the rows up to the header first (a first reading that stops there: a few kilobytes in real tables), takes the
/// last column used so far as the last, and writes from the content's start with the header's mapping. It also
/// takes for granted that the decimal mark is the one given, or `.` when no text amount gives evidence of one,
/// and that no date proves an order of slash dates. When the rows say otherwise (a wider row, a text amount, a
/// slash date), or the scanner declines, or pass 1 refuses the table, the written copy is dropped and the two
/// passes run from the start, so messages and output are the two passes' in every case (`ODSOnePassTests`).
extension ODSFormat {
  /// The scan of a table not read yet: its reading is left to ``convertInOnePass(_:context:quotes:)``.
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

  /// A marker of the one-pass road giving up (never shown: the two passes run instead).
  private struct GivenUp: Error {}

  /// Reads a provisionally scanned table once, converting and writing as it reads (see the extension's
  /// comment); falls back to the two passes when the table is not as the road assumed.
  static func convertInOnePass(_ provisional: FileScan, context: FormatContext, quotes: QuoteBook) throws(FileError)
    -> FileConversion
  {
    let file = FileInput(
      displayPath: provisional.displayPath, readPath: provisional.readPath, outputPath: provisional.outputPath)
    /// The two passes, from pass 1 (`scanned`: its scan, when the one pass read the table to its end).
    func twoPasses(_ scanned: FileScan? = nil) throws(FileError) -> FileConversion {
      var scan: FileScan
      if let scanned { scan = scanned } else { (scan, _) = try scanInTwoPasses(file, context: context) }
      (scan.encoding, scan.readPathIsTemporary) = (provisional.encoding, provisional.readPathIsTemporary)
      return try convert(scan, context: context, quotes: quotes, standardOutput: -1)
    }
    guard let choice = scannerChoice(context.options.sheet),
      let book = try? ODSBook(readPath: file.readPath, displayPath: file.displayPath),
      let first = try? book.package.stream(book.contentEntry), let again = try? book.package.stream(book.contentEntry)
    else { return try twoPasses() }
    func makeState(_ name: String) -> WorkbookRecords.ScanState {
      WorkbookRecords.ScanState(
        file, context: context, format: format, sheetName: name,
        otherSheets: {
          ((try? ODSTableReader.tableNames(package: book.package, entry: book.contentEntry)) ?? []).filter { $0 != name }
        }, fields: { WorkbookRecords.fields(of: $0, mapping: $1) }, cellText: { WorkbookRecords.sampleText($0) })
    }
    // The rows up to the header.
    var scanner = ODSContentScanner(stream: first, choice: choice)
    var state: WorkbookRecords.ScanState? = nil
    var elementsRead = 0
    do {
      while state?.hasHeader != true, state?.isRefused != true, let item = try scanner.next() {
        guard case .row = item else { continue }
        if state == nil { state = makeState(scanner.tableName) }
        if let current = state { state?.add(scannedRow(scanner.row, current)) }
        elementsRead += 1
      }
    } catch {
      return try twoPasses()
    }
    guard var state, state.hasHeader, !state.isRefused, let header = state.header, !state.amountsDependOnTheMark,
      !state.datesProveAnOrder
    else { return try twoPasses() }
    let assumedLastColumn = state.lastColumn
    var assumed = provisional
    assumed.details = WorkbookScanDetails(
      headerRow: header.number, mapping: state.mapping, lastColumn: assumedLastColumn, sheetScanned: true)
    // The copy, written as the content is read again from its start; the rows after those read are added to
    // pass 1's state as they come.
    var conversion: ODSTableConversion? = nil
    var seen = 0
    var gaveUp = false
    var decoder: ODSRowDecoder? = nil
    do {
      conversion = try rewriteScanned(
        ODSContentScanner(stream: again, choice: choice), book: book,
        makeConversion: { index throws(FileError) in
          try ODSTableConversion(scan: assumed, book: book, tableIndex: index, context: context, quotes: quotes)
        },
        scannerFailed: { _ in
          gaveUp = true
          return FileError(path: file.displayPath, message: "the one pass gave up")
        },
        row: { (scanner: borrowing ODSContentScanner) throws(FileError) in
          seen += 1
          guard seen > elementsRead else { return }
          addRow(scanner, to: &state, decoder: &decoder, context: context)
          if state.isRefused || state.lastColumn > assumedLastColumn || state.amountsDependOnTheMark
            || state.datesProveAnOrder
          {
            gaveUp = true
            throw FileError(path: file.displayPath, message: "the one pass gave up")
          }
        })
    } catch {
      // The copy is dropped first (its package's writing ends and leaves nothing).
      conversion = nil
      if gaveUp { return try twoPasses() }
      throw error
    }
    // content.xml was read to its end; every other entry is checked as pass 1 checks it.
    do { try book.package.inflateEveryEntry(except: book.contentEntry) } catch {
      conversion = nil
      throw FileError.package(error.description, readPath: file.readPath, displayPath: file.displayPath)
    }
    var scan: FileScan
    do { (scan, _) = try state.finish(sheetScanned: true) } catch {
      conversion = nil
      throw error
    }
    (scan.encoding, scan.readPathIsTemporary) = (provisional.encoding, provisional.readPathIsTemporary)
    guard let kept = conversion, scan.workbook.lastColumn == assumedLastColumn,
      scan.workbook.headerRow == header.number, scan.decimalMark == provisional.decimalMark,
      scan.decimalMarkBasis == provisional.decimalMarkBasis,
      scan.normalizer.dateFormat == provisional.normalizer.dateFormat
    else {
      conversion = nil
      return try twoPasses(scan)
    }
    conversion = nil
    var details = scan.workbook
    details.readInOnePass = true
    scan.details = details
    return try kept.finish(scan: scan)
  }
}
