extension RecordFormat {
  /// An OpenDocument spreadsheet (`.ods`): one table's rows are the records, its first non-empty row the header.
  public static let ods = RecordFormat(rawValue: "ods")
}

/// `.ods` spreadsheets in the registry: one table converted (`--sheet`, else the first), `content.xml`
/// rewritten (``ODSContentRewriter``) and every other entry of the package copied as it is stored
/// (``ZipPackage/write(to:replacing:)``), the `mimetype` entry first and uncompressed as ODF requires.
enum ODSFormat: FileFormat {
  static let format = RecordFormat.ods
  static let displayName = "ODS"
  static let fileExtensions = ["ods"]
  static let kind = FormatKind.package
  /// OpenDocument's spreadsheet template, which fxbatch does not write.
  static let relatedExtensions = ["ots"]
  static let options: FormatOptions = [.headerRow]

  /// A zip whose first entry is `mimetype` holding the spreadsheet media type (ODF 1.3 part 2, 3.3: stored,
  /// first, so that its bytes stand at offset 38 of the file).
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    isOpenDocumentPackage(raw) && raw.dropFirst(38).starts(with: ODSBook.mediaType.utf8)
  }

  /// Any OpenDocument package (a text document, a presentation), which ODS's reader refuses for what it is.
  static func claimsPackage(_ prefix: ArraySlice<UInt8>) -> Bool { isOpenDocumentPackage(prefix) }

  /// Whether a file starts as an OpenDocument package of any kind: a zip whose first entry is `mimetype`.
  static func isOpenDocumentPackage(_ raw: ArraySlice<UInt8>) -> Bool {
    raw.starts(with: [0x50, 0x4B, 0x03, 0x04]) && raw.dropFirst(30).starts(with: "mimetype".utf8)
  }

  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    guard file.outputPath != nil else {
      throw FileError(
        path: file.displayPath, message: "the annotated copy of a workbook is a zip package, not text for standard output",
        hint: "give -o FILE or --output-dir DIR")
    }
    let book = try ODSBook(readPath: file.readPath, displayPath: file.displayPath, verify: true)
    let table = try book.table(context.options.sheet)
    let result = try WorkbookRecords.scan(
      file, context: context, format: format, sheetName: table.name,
      otherSheets: {
        // Read again from the content's start, for this message only.
        ((try? ODSTableReader.tableNames(package: book.package, entry: book.contentEntry)) ?? []).filter { $0 != table.name }
      },
      nextRow: { columns throws(FileError) in
        // A row element at a time: a repeated row is added once, for all the rows it stands for, with the cells
        // of the columns the scan reads (none of a blank one).
        do throws(ODSError) {
          return try table.nextElement().map { element in
            WorkbookRecords.ScannedRow(
              row: element.row(0, columns: element.isBlank ? 0 : columns(element.number, element.repeated)),
              repeated: element.repeated, lastColumn: element.lastColumn ?? 0, isBlank: element.isBlank,
              runs: element.runs)
          }
        } catch {
          throw book.fileError(error)
        }
      }, fields: { WorkbookRecords.fields(of: $0, mapping: $1) })
    do throws(ODSError) { try table.readToEnd() } catch { throw book.fileError(error) }
    // After the part is read, so that malformed XML is refused for what it is.
    do { try ODSContentRewriter.checkRoot(of: try book.package.stream(book.contentEntry)) } catch let error as FileError {
      throw FileError(path: file.displayPath, message: error.message)
    } catch {
      throw FileError.package("\(error)", readPath: file.readPath, displayPath: file.displayPath)
    }
    return result
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    let options = context.options
    let details = scan.workbook
    guard let outputPath = scan.outputPath else {
      throw FileError(path: scan.displayPath, message: "a workbook cannot be written to standard output")
    }
    let book = try ODSBook(readPath: scan.readPath, displayPath: scan.displayPath)
    let table = try book.table(options.sheet)
    let layout = context.annotationLayout
    let rewriter = ODSContentRewriter(
      tableIndex: table.index, firstColumn: details.lastColumn + 1, columnCount: layout.count)
    var rows = WorkbookRowConverter(context: context, scan: scan, quotes: quotes)

    /// The fx_* cells of each row of a row element (none for the rows before the header and blank rows), handed
    /// to `emit` a run of rows at a time: the rows above the header, the header, the records. The records of a
    /// repeated row hold the same cells, and their fields name them as one range, so they convert once, are
    /// counted for each, and are written back as one repeated row: memory and time do not grow with the repeat.
    func cells(row number: Int, repeated: Int, emit: ODSContentRewriter.Emit) throws(FileError) {
      let element: ODSRowElement?
      do throws(ODSError) { element = try table.nextElement() } catch { throw book.fileError(error) }
      guard let element, element.number == number, element.repeated == repeated else {
        throw FileError(path: scan.displayPath, message: "row \(number) of the sheet changed while it was read")
      }
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
      let columns =
        (([details.mapping.amount, details.mapping.from, details.mapping.to, details.mapping.date].compactMap { $0 }
          + details.mapping.amounts).max() ?? 0) + 1
      let fields = WorkbookRecords.fields(
        of: element.row(offset, columns: columns), mapping: details.mapping,
        cellName: { cell in
          let column = cell.reference.column
          guard records > 1, let from = CellReference(column: column, row: first),
            let to = CellReference(column: column, row: last)
          else { return "cell \(cell.reference)" }
          return "cells \(from):\(to) (a repeated row)"
        })
      rows.convert(fields, count: records)
      try emit(ODSCells.markup(rows.values, isHeader: false, layout: layout), records)
    }

    try WorkbookPackageRewrite.write(
      book.package, replacing: book.contentEntry, to: outputPath, displayPath: scan.displayPath
    ) { stream, write throws(FileError) in
      try rewriter.rewrite(stream, write: write, cells: cells)
    }
    let (counts, withoutDate, ledger) = rows.finish()
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }

  /// Its converted table's header row ends with the fx_* cells.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    guard let book = try? ODSBook(readPath: path, displayPath: path), let table = try? book.table(context.options.sheet)
    else { return false }
    // Blank row elements are passed over without making their cells.
    return WorkbookRecords.isAnnotated(nextRow: { () throws -> SheetRow? in
      while let element = try table.nextElement() {
        if !element.isBlank { return element.row(0) }
      }
      return nil
    })
  }
}
