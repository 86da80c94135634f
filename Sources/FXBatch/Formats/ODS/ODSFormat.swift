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
    let options = context.options
    if options.fastPath, context.hasConvertingTable, context.allowsProvisionalScan, scannerChoice(options.sheet) != nil {
      return (provisionalScan(file, context: context), RateKeyIndex())
    }
    return try scanInTwoPasses(file, context: context)
  }

  /// Pass 1 over the table: through the scanner where it reads the content, else libxml2's.
  static func scanInTwoPasses(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    if context.options.fastPath, let scanned = try scanContent(file, context: context) { return scanned }
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
    if let foreign = table.foreignElement { throw book.fileError(foreign) }
    return result
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    if scan.workbook.isProvisional { return try convertInOnePass(scan, context: context, quotes: quotes) }
    let book = try ODSBook(readPath: scan.readPath, displayPath: scan.displayPath)
    if scan.workbook.sheetScanned { return try convertScanned(scan, book: book, context: context, quotes: quotes) }
    let table = try book.table(context.options.sheet)
    let conversion = try ODSTableConversion(
      scan: scan, book: book, tableIndex: table.index, context: context, quotes: quotes)
    var output = ByteBuffer(capacity: 2 * ODSTableConversion.writeBlockSize)
    let stream: ZipEntryStream
    do { stream = try book.package.stream(book.contentEntry) } catch {
      throw FileError.package(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
    }
    try conversion.rewriter.rewrite(
      stream,
      write: { bytes throws(FileError) in
        output.append(bytes)
        if output.count >= ODSTableConversion.writeBlockSize { try conversion.flush(&output) }
      },
      cells: { number, repeated, emit throws(FileError) in
        let element: ODSRowElement?
        do throws(ODSError) { element = try table.nextElement() } catch { throw book.fileError(error) }
        guard let element, element.number == number, element.repeated == repeated else {
          throw FileError(path: scan.displayPath, message: "row \(number) of the sheet changed while it was read")
        }
        try conversion.cells(of: element, emit: emit)
      })
    try conversion.flush(&output)
    return try conversion.finish()
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
