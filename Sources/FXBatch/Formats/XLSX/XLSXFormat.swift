extension RecordFormat {
  /// An Office Open XML workbook (`.xlsx`): one sheet's rows are the records, its first non-empty row the header.
  public static let xlsx = RecordFormat(rawValue: "xlsx")
}

/// `.xlsx` workbooks in the registry: one sheet converted (`--sheet`, else the first), every other part of the
/// package copied as it is stored (``ZipPackage/write(to:replacing:)``).
enum XLSXFormat: FileFormat {
  static let format = RecordFormat.xlsx
  static let displayName = "XLSX"
  static let fileExtensions = ["xlsx"]
  static let kind = FormatKind.package
  /// Excel's other workbooks (and Numbers'), which fxbatch does not write.
  static let relatedExtensions = ["xls", "xlsm", "xlsb", "xltx", "xltm", "numbers"]
  static let options: FormatOptions = [.headerRow]

  /// A zip package (or a Compound File): no other format is a zip, and the package then says what it is when it
  /// is no `.xlsx` workbook (a legacy `.xls`, a password-protected workbook, an `.xlsb`, an `.ods`).
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    RecordFormat.isPackage(raw)
  }

  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    let options = context.options
    guard file.outputPath != nil else {
      throw FileError(
        path: file.displayPath, message: "the annotated copy of a workbook is a zip package, not text for standard output",
        hint: "give -o FILE or --output-dir DIR")
    }
    let book = try XLSXBook(
      readPath: file.readPath, displayPath: file.displayPath, sheet: options.sheet, verify: true)
    if options.fastPath, context.hasConvertingTable, context.allowsProvisionalScan {
      return (provisionalScan(file, context: context), RateKeyIndex())
    }
    return try scan(file, book: book, context: context)
  }

  /// Pass 1 over the sheet of a workbook opened (and its package checked) already.
  static func scan(_ file: FileInput, book: XLSXBook, context: FormatContext) throws(FileError) -> (
    FileScan, RateKeyIndex
  ) {
    if context.options.fastPath, let scanned = try scanSheet(file, book: book, context: context) { return scanned }
    let reader = try book.rows()
    return try WorkbookRecords.scan(
      file, context: context, format: format, sheetName: book.sheetName, otherSheets: { book.otherSheetNames },
      nextRow: { _ throws(FileError) in
        do throws(WorkbookError) { return try reader.nextRow().map(WorkbookRecords.ScannedRow.init) } catch {
          throw book.fileError(error)
        }
      }, fields: book.fields(of:mapping:), cellText: book.sampleText(of:),
      finish: { () throws(FileError) in
        do throws(WorkbookError) { try reader.finish() } catch { throw book.fileError(error) }
      })
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    if scan.workbook.isProvisional { return try convertInOnePass(scan, context: context, quotes: quotes) }
    let details = scan.workbook
    let book = try XLSXBook(readPath: scan.readPath, displayPath: scan.displayPath, sheet: context.options.sheet)
    let conversion = try XLSXSheetConversion(
      scan: scan, book: book, context: context, quotes: quotes, sheetLastColumn: details.lastColumn,
      header: (details.headerRow, details.mapping))
    // The sheet is inflated once: the rewriter copies its bytes and reads its rows from them
    // (XLSXRowCollector, or the scanner's rows); pass 1 read and checked the part.
    let stream: ZipEntryStream
    do { stream = try book.package.stream(book.sheetEntry) } catch {
      throw FileError.package(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
    }
    if details.sheetScanned {
      try rewriteScanned(
        stream, book: book, scan: scan, lastColumn: conversion.lastColumn, flush: conversion.flush,
        row: { (scanner: borrowing XLSXSheetScanner, markup: inout ByteBuffer, rowStart: Int) throws(FileError) in
          try conversion.scannedRow(scanner, markup: &markup, rowStart: rowStart)
        })
    } else {
      /// Appends the fx_* cells of one row of the sheet (none for the rows before the header and blank rows).
      var buffer = ByteBuffer(capacity: 1 << 10)
      func cells(row: SheetRow, prefix: [UInt8], markup: inout [UInt8]) throws(FileError) {
        guard conversion.convertRow(row) else { return }
        buffer.removeAll()
        prefix.withUnsafeBufferPointer { conversion.appendCells(row: row.number, prefix: ByteView($0), markup: &buffer) }
        markup += buffer.bytes
      }
      let collector = XLSXRowCollector(sharedStrings: book.sharedStrings, path: scan.readPath, entry: book.sheetEntry.name)
      try XLSXSheetRewriter(lastColumn: conversion.lastColumn).rewrite(
        stream, rows: collector,
        rowError: { _ in Self.sheetChanged(scan.displayPath) }, write: conversion.write, cells: cells)
    }
    return try conversion.finish(scan: scan)
  }

  /// Its converted sheet's header row ends with the fx_* cells.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    guard let book = try? XLSXBook(readPath: path, displayPath: path, sheet: context.options.sheet),
      let reader = try? book.rows()
    else { return false }
    return WorkbookRecords.isAnnotated(nextRow: reader.nextRow)
  }

  static func summaryDetails(of file: RunReport.File) -> [String] { [displayName] }
}
