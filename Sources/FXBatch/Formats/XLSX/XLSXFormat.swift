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
    let reader = try book.rows()
    return try WorkbookRecords.scan(
      file, context: context, format: format, sheetName: book.sheetName,
      nextRow: { () throws(FileError) in
        do throws(XLSXError) { return try reader.nextRow() } catch { throw book.fileError(error) }
      }, fields: book.fields(of:mapping:))
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
    let reader = try book.rows()
    let parser = scan.amountParser(currencies: options.currencies)
    let firstColumn = details.lastColumn + 1
    let rewriter = XLSXSheetRewriter(lastColumn: firstColumn + AnnotationColumn.allCases.count - 1)
    var counts = RunReport.Counts()
    var withoutDate = 0
    var ledger = ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies)

    /// The fx_* cells of one row of the sheet (none for the rows before the header and blank rows).
    func cells(row number: Int, prefix: String) throws(FileError) -> [UInt8] {
      let row: XLSXRow
      do {
        guard let next = try reader.nextRow(), next.number == number else {
          throw FileError(path: scan.displayPath, message: "row \(number) of the sheet changed while it was read")
        }
        row = next
      } catch let error as XLSXError {
        throw book.fileError(error)
      } catch let error as FileError {
        throw error
      } catch {
        throw FileError(path: scan.displayPath, message: "\(error)")
      }
      let values: [String]
      if number == details.headerRow {
        values = AnnotationColumn.allCases.map(\.rawValue)
      } else if number > details.headerRow, !XLSXBook.isBlank(row) {
        let outcome = context.recordConverter.outcome(
          of: book.fields(of: row, mapping: details.mapping), normalizer: scan.normalizer, parser: parser,
          quotes: quotes, withoutDate: &withoutDate, ledger: &ledger)
        counts.add(outcome)
        values = outcome.cells(decimalMark: .point)
      } else {
        return []
      }
      var markup = ""
      for (offset, value) in values.enumerated() where !value.isEmpty {
        guard let reference = XLSXCellReference(column: firstColumn + offset, row: number) else { continue }
        let isNumber = number != details.headerRow && offset < 2
        markup +=
          isNumber
          ? XLSXSheetRewriter.numberCell(reference, value, prefix: prefix)
          : XLSXSheetRewriter.textCell(reference, value, prefix: prefix)
      }
      return Array(markup.utf8)
    }

    let temporary: Int32
    do { temporary = try UnnamedTemporaryFile.create(prefix: "fxbatch-sheet") } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
    defer { close(temporary) }
    let sink = ByteSink(descriptor: temporary)
    let stream: ZipEntryStream
    do { stream = try book.package.stream(book.sheetEntry) } catch {
      throw XLSXBook.fileError(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
    }
    try rewriter.rewrite(
      stream,
      write: { bytes throws(FileError) in
        do { try sink.write(bytes) } catch { throw FileError(path: scan.displayPath, message: "\(error)") }
      }, cells: cells)
    do { try sink.flush() } catch { throw FileError(path: scan.displayPath, message: "\(error)") }
    do {
      try book.package.write(
        to: outputPath, replacing: [(book.sheetEntry.name, .file(path: "/proc/self/fd/\(temporary)"))])
    } catch {
      throw XLSXBook.fileError(error.description, readPath: outputPath, displayPath: scan.displayPath)
    }
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
