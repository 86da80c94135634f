#if canImport(Glibc)
  import Glibc
#endif

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

  /// A zip package (or a Compound File): no other format is a zip, and the package then says what it is when it
  /// is no `.xlsx` workbook (a legacy `.xls`, a password-protected workbook, an `.xlsb`, an `.ods`).
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    raw.starts(with: CompoundFile.signature) || raw.starts(with: [0x50, 0x4B, 0x03, 0x04])
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
    if options.fastPath, let scanned = try scanSheet(file, book: book, context: context) { return scanned }
    let reader = try book.rows()
    return try WorkbookRecords.scan(
      file, context: context, format: format, sheetName: book.sheetName,
      nextRow: { () throws(FileError) in
        do throws(XLSXError) { return try reader.nextRow() } catch { throw book.fileError(error) }
      }, fields: book.fields(of:mapping:), cellText: book.sampleText(of:),
      finish: { () throws(FileError) in
        do throws(XLSXError) { try reader.finish() } catch { throw book.fileError(error) }
      })
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    let options = context.options
    let details = scan.workbook
    let book = try XLSXBook(readPath: scan.readPath, displayPath: scan.displayPath, sheet: options.sheet)
    guard let outputPath = scan.outputPath else {
      throw FileError(path: scan.displayPath, message: "a workbook cannot be written to standard output")
    }
    // The sheet is inflated once: the rewriter copies its bytes and reads its rows from them
    // (XLSXRowCollector); libxml2 read and checked the part in pass 1.
    let stream: ZipEntryStream
    do { stream = try book.package.stream(book.sheetEntry) } catch {
      throw XLSXBook.fileError(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
    }
    let firstColumn = details.lastColumn + 1
    let rewriter = XLSXSheetRewriter(lastColumn: firstColumn + AnnotationColumn.allCases.count - 1)
    var replacements: [(name: String, content: ZipEntryContent)] = []
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

    // The fx_* columns' letters, written once; a column past XFD gets no cell (as a reference cannot name it).
    let columns: [[UInt8]?] = AnnotationColumn.allCases.indices.map { offset in
      XLSXCellReference(column: firstColumn + offset, row: 1).map { Array(XLSXCellReference.letters(ofColumn: $0.column).utf8) }
    }

    var rows = WorkbookRowConverter(context: context, scan: scan, quotes: quotes)

    /// Converts one row of the sheet; `false` for the rows that get no fx_* cells (before the header, blank).
    func convertRow(_ row: XLSXRow) -> Bool {
      if row.number == details.headerRow {
        rows.setHeader()
      } else if row.number > details.headerRow, !XLSXBook.isBlank(row) {
        rows.convert(book.fields(of: row, mapping: details.mapping))
      } else {
        return false
      }
      return true
    }

    /// Appends the fx_* cells of one row of the sheet (none for the rows before the header and blank rows).
    var buffer = ByteBuffer(capacity: 1 << 10)
    func cells(row: XLSXRow, prefix: [UInt8], markup: inout [UInt8]) throws(FileError) {
      guard convertRow(row) else { return }
      buffer.removeAll()
      prefix.withUnsafeBufferPointer { appendCells(row: row.number, prefix: ByteView($0), markup: &buffer) }
      markup += buffer.bytes
    }

    var cellMarkup = XLSXSheetRewriter.CellMarkup(prefix: [])
    var cellPrefix: [UInt8] = []
    /// Appends the fx_* cells of the row converted last, `number`.
    func appendCells(row number: Int, prefix: ByteView, markup: inout ByteBuffer) {
      if prefix.count != cellPrefix.count || !prefix.elementsEqual(cellPrefix) {
        cellPrefix = prefix.array
        cellMarkup = XLSXSheetRewriter.CellMarkup(prefix: cellPrefix)
      }
      let isRecord = number != details.headerRow
      let digits = Array(String(number).utf8)[...]
      for (offset, annotation) in AnnotationColumn.allCases.enumerated() {
        let value = rows.value(offset)
        guard !value.isEmpty, let column = columns[offset] else { continue }
        switch annotation {
        case .rate where isRecord:
          cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: nil)
        case .converted where isRecord:
          let style = rows.decimals.flatMap(styles.amountStyle(decimals:))
          cellMarkup.appendNumber(to: &markup, column: column, row: digits, value, style: style)
        case .rateDate where isRecord:
          if let style = styles.date, let day = rows.rateDay ?? CalendarDay(iso8601UTF8: value),
            let serial = book.dateSystem.serial(of: day)
          {
            cellMarkup.appendNumber(to: &markup, column: column, row: digits, Array(String(serial).utf8)[...], style: style)
          } else {
            cellMarkup.appendText(to: &markup, column: column, row: digits, value)
          }
        default:
          cellMarkup.appendText(to: &markup, column: column, row: digits, value)
        }
      }
    }

    let temporary: Int32
    do { temporary = try UnnamedTemporaryFile.create(prefix: "fxbatch-sheet") } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
    defer { close(temporary) }
    // The sheet is deflated as it is written, and copied into the package as it is (ZipDeflater).
    let deflater: ZipDeflater
    do { deflater = try ZipDeflater(descriptor: temporary, path: outputPath) } catch {
      throw XLSXBook.fileError(error.description, readPath: outputPath, displayPath: scan.displayPath)
    }
    let write = { (bytes: [UInt8]) throws(FileError) in
      do { try deflater.write(bytes) } catch { throw FileError(path: scan.displayPath, message: "\(error)") }
    }
    if details.sheetScanned {
      let decoder = XLSXRowDecoder(book: book, mapping: details.mapping, normalizer: scan.normalizer)
      try rewriteScanned(
        stream, book: book, scan: scan, lastColumn: rewriter.lastColumn, write: write,
        row: { (scanner: borrowing XLSXSheetScanner, markup: inout ByteBuffer) throws(FileError) in
          // A record row the simple rules read converts from its decoded key and amount where it can.
          let number = scanner.rowNumber
          if scanner.rowIsSimple, scanner.rowHasValue, number > details.headerRow,
            let amount = decoder.amount(scanner.cells, in: scanner.bytes),
            let found = decoder.key(scanner.cells, in: scanner.bytes),
            rows.convert(key: found.key, usedDefaultDay: found.usedDefaultDay, amount: amount)
          {
            appendCells(row: number, prefix: scanner.bytes.slice(scanner.rowPrefix), markup: &markup)
            return number
          }
          let row = try wholeRow(scanner, book: book, scan: scan)
          if convertRow(row) {
            appendCells(row: row.number, prefix: scanner.bytes.slice(scanner.rowPrefix), markup: &markup)
          }
          return row.number
        })
    } else {
      let collector = XLSXRowCollector(sharedStrings: book.sharedStrings, path: scan.readPath, entry: book.sheetEntry.name)
      try rewriter.rewrite(
        stream, rows: collector,
        rowError: { _ in Self.sheetChanged(scan.displayPath) }, write: write, cells: cells)
    }
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

  /// Its converted sheet's header row ends with the fx_* cells.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    guard let book = try? XLSXBook(readPath: path, displayPath: path, sheet: context.options.sheet),
      let reader = try? book.rows()
    else { return false }
    return WorkbookRecords.isAnnotated(nextRow: reader.nextRow)
  }

  static func summaryDetails(of file: RunReport.File) -> [String] { [displayName] }
}
