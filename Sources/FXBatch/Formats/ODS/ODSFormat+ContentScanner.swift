/// Both passes over a table in ``ODSContentScanner``'s subset: `content.xml`'s bytes are read directly instead of
/// through libxml2. A record row whose key and amounts the row decoder reads from its cells' bytes
/// (``ODSRowDecoder``, as `.xlsx`'s ``XLSXRowDecoder``) is summed up (pass 1, ``addRow(_:to:decoder:context:)``) and
/// converted (pass 2, ``ODSTableConversion/convertScanned(_:)``) from them, its fx_* cells written on the
/// deflater's thread; every other row is read by the general reader's rules (``ODSRowElement``) and handed to the
/// same pass 1 state and row conversion as libxml2's rows. A document outside the subset is read by libxml2 from
/// its start (pass 1 returns `nil`), so its errors and output are libxml2's road's.
extension ODSFormat {
  /// The table the scanner finds alone: by name, or the first; `nil` for a number, which names a table by its
  /// place only when no table has it as its name (the general road reads every name first).
  static func scannerChoice(_ sheet: String?) -> ODSTableReader.Choice? {
    guard let sheet else { return .number(1) }
    return Int(sheet) == nil ? .name(sheet) : nil
  }

  /// Pass 1 through the scanner; `nil` when the document is outside its subset, the table is not there, or the
  /// package refuses anything first: the general road then reads it again and says why.
  ///
  /// - Throws: ``FileError`` for what the rows read say (``WorkbookRecords/ScanState/finish(sheetScanned:)``, the
  ///   same state the general road fills with the same rows), and for a hostile entry other than `content.xml`
  ///   (checked after it, as the general road checks every entry first: the first it refuses is the same).
  static func scanContent(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex)? {
    guard file.outputPath != nil, let choice = scannerChoice(context.options.sheet),
      let book = try? ODSBook(readPath: file.readPath, displayPath: file.displayPath),
      let stream = try? book.package.stream(book.contentEntry)
    else { return nil }
    var scanner = ODSContentScanner(stream: stream, choice: choice)
    var state: WorkbookRecords.ScanState? = nil
    var decoder: ODSRowDecoder? = nil
    func makeState(_ scanner: borrowing ODSContentScanner) -> WorkbookRecords.ScanState {
      let name = scanner.tableName
      return WorkbookRecords.ScanState(
        file, context: context, format: format, sheetName: name,
        otherSheets: {
          // Read again from the content's start, for this message only (as the general road does).
          ((try? ODSTableReader.tableNames(package: book.package, entry: book.contentEntry)) ?? []).filter { $0 != name }
        }, fields: { WorkbookRecords.fields(of: $0, mapping: $1) }, cellText: { WorkbookRecords.sampleText($0) })
    }
    do {
      while let item = try scanner.next() {
        guard case .row = item else { continue }
        if state == nil { state = makeState(scanner) }
        if state != nil { addRow(scanner, to: &state!, decoder: &decoder, context: context) }
      }
    } catch {
      return nil
    }
    guard scanner.tableFound else { return nil }
    do { try book.package.inflateEveryEntry(except: book.contentEntry) } catch {
      throw FileError.package(error.description, readPath: file.readPath, displayPath: file.displayPath)
    }
    return try (state ?? makeState(scanner)).finish(sheetScanned: true)
  }

  /// Adds the scanner's row to pass 1's state: a record row (one row, after the header and the samples) whose
  /// amounts are number cells by its last column, its decoded key (none when the run collects none) and its
  /// date's evidence of the order of slash dates (``ODSRowDecoder``, as `.xlsx`'s ``XLSXFormat/addRow(_:to:decoder:book:context:)``),
  /// every other row element read whole.
  static func addRow(
    _ scanner: borrowing ODSContentScanner, to state: inout WorkbookRecords.ScanState, decoder: inout ODSRowDecoder?,
    context: FormatContext
  ) {
    if state.isRefused { return }  // the rest of the table is read, not looked at
    if !state.needsWholeRow, scanner.rowRepeated == 1, let last = scanner.cells.last {
      if decoder == nil { decoder = ODSRowDecoder(mapping: state.mapping, normalizer: context.recordNormalizer) }
      if let decoder, decoder.amountsAreNumbers(scanner.cells) {
        let (cells, bytes) = (scanner.cells, scanner.bytes)
        let evidence = state.infersDates ? decoder.dateEvidence(cells, in: bytes) : .neutral
        if let evidence {
          if !state.collectsKeys {
            state.addRecord(row: scanner.rowNumber, lastColumn: last.lastColumn, key: nil, dateEvidence: evidence)
            return
          }
          if let found = decoder.key(cells, in: bytes) {
            state.addRecord(row: scanner.rowNumber, lastColumn: last.lastColumn, key: found.key, dateEvidence: evidence)
            return
          }
        }
      }
    }
    state.add(scannedRow(scanner.row, state))
  }

  /// A row element as pass 1's state is given it whole.
  static func scannedRow(_ element: ODSRowElement, _ state: WorkbookRecords.ScanState) -> WorkbookRecords.ScannedRow {
    let columns = element.isBlank ? 0 : state.columnsNeeded(row: element.number, rows: element.repeated)
    return WorkbookRecords.ScannedRow(
      row: element.row(0, columns: columns), repeated: element.repeated, lastColumn: element.lastColumn ?? 0,
      isBlank: element.isBlank, runs: element.runs)
  }

  /// The error of a table that reads otherwise in pass 2 than it did in pass 1.
  static func contentChanged(_ displayPath: String) -> FileError {
    FileError(path: displayPath, message: "content.xml changed while it was read (it differs from its first reading)")
  }

  /// Pass 2 through the scanner (``rewriteScanned(_:book:makeConversion:scannerFailed:row:)``).
  static func convertScanned(_ scan: FileScan, book: ODSBook, context: FormatContext, quotes: QuoteBook)
    throws(FileError) -> FileConversion
  {
    guard let choice = scannerChoice(context.options.sheet) else { throw contentChanged(scan.displayPath) }
    let stream: ZipEntryStream
    do { stream = try book.package.stream(book.contentEntry) } catch {
      throw FileError.package(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
    }
    let conversion = try rewriteScanned(
      ODSContentScanner(stream: stream, choice: choice), book: book,
      makeConversion: { index throws(FileError) in
        try ODSTableConversion(scan: scan, book: book, tableIndex: index, context: context, quotes: quotes)
      },
      scannerFailed: { error in
        if case .package(let error) = error {
          return FileError.package(error.description, readPath: scan.readPath, displayPath: scan.displayPath)
        }
        return contentChanged(scan.displayPath)
      }, row: { (_: borrowing ODSContentScanner) throws(FileError) in })
    return try conversion.finish()
  }

  /// Copies `content.xml` as the scanner reads it, byte for byte, but for what ``ODSContentRewriter`` changes,
  /// changed the same way: the styles of the fx_* cells, the table's column declarations, and each row element
  /// given cells (the conversion `makeConversion` makes, by the table's place, once the table is found).
  ///
  /// - Parameters:
  ///   - scannerFailed: the error of the scanner's stop.
  ///   - row: is given each row element before it is converted.
  /// - Returns: the conversion, every byte handed over (not finished).
  static func rewriteScanned(
    _ scanner: consuming ODSContentScanner, book: ODSBook,
    makeConversion: (_ tableIndex: Int) throws(FileError) -> ODSTableConversion,
    scannerFailed: (ODSContentScanner.Stop) -> FileError,
    row: (borrowing ODSContentScanner) throws(FileError) -> Void
  ) throws(FileError) -> ODSTableConversion {
    var scanner = scanner
    var conversion: ODSTableConversion? = nil
    var output = ByteBuffer(capacity: 2 * ODSTableConversion.writeBlockSize)
    var (stylesWritten, declared, columnsExtended) = (false, 0, false)
    let styles =
      Array("<office:automatic-styles>".utf8) + ODSCells.automaticStyles + Array("</office:automatic-styles>".utf8)
    while true {
      let item: ODSContentScanner.Item?
      do { item = try scanner.next() } catch { throw scannerFailed(error) }
      guard let item else { break }
      if conversion == nil, scanner.tableFound { conversion = try makeConversion(scanner.tableIndex) }
      let bytes = scanner.bytes
      switch item {
      case .markup(let range):
        output.append(bytes.slice(range))
      case .automaticStylesEnd(let range):
        if !stylesWritten { output.append(ODSCells.automaticStyles) }
        stylesWritten = true
        output.append(bytes.slice(range))
      case .automaticStylesEmpty(let range):
        output.append(stylesWritten ? bytes.array(range) : styles)
        stylesWritten = true
      case .dateStyle(let range):
        stylesWritten = true
        output.append(bytes.slice(range))
      case .body(let range):
        if !stylesWritten { output.append(styles) }
        stylesWritten = true
        output.append(bytes.slice(range))
      case .column(let range, let count):
        declared = min(declared, 1 << 32) + min(count, 1 << 32)
        output.append(bytes.slice(range))
      case .rowsBegin:
        if let conversion { output.append(conversion.rewriter.extraColumns(declared: declared)) }
        columnsExtended = true
      case .tableEnd(let range):
        if !columnsExtended, let conversion { output.append(conversion.rewriter.extraColumns(declared: declared)) }
        columnsExtended = true
        output.append(bytes.slice(range))
      case .row:
        guard let conversion else { throw scannerFailed(.declined("a row before its table")) }
        try row(scanner)
        try appendRow(scanner, conversion: conversion, to: &output)
      }
      if output.count >= ODSTableConversion.writeBlockSize, let conversion { try conversion.flush(&output) }
    }
    guard let conversion else { throw scannerFailed(.declined("no table")) }
    try conversion.flush(&output)
    return conversion
  }

  /// Appends the scanner's row element: as it is, or, for each run of its rows that gets fx_* cells, repeated
  /// that many rows with the cells after its last used column (``ODSContentRewriter/annotated(_:with:rows:row:path:)``'s
  /// bytes; a row whose cells reach the fx_* columns is rewritten by it).
  private static func appendRow(
    _ scanner: borrowing ODSContentScanner, conversion: ODSTableConversion, to output: inout ByteBuffer
  ) throws(FileError) {
    let bytes = scanner.bytes
    let rewriter = conversion.rewriter
    let selfClosing = scanner.rowIsEmptyElement
    let simple = scanner.rowColumns <= rewriter.firstColumn
    // A record row converted from its cells' bytes: its start tag as it is (no count of rows to set), its cells,
    // the empty cells up to the fx_* cells, and the fx_* cells, written on the deflater's thread.
    if simple, !selfClosing, !scanner.rowHasRepeatCount, conversion.convertScanned(scanner) {
      output.append(bytes.slice(scanner.rowRange.lowerBound..<scanner.rowEndTagStart))
      if scanner.rowColumns < rewriter.firstColumn {
        output.append(conversion.emptyCells(rewriter.firstColumn - scanner.rowColumns))
      }
      conversion.place(at: output.count)
      output.append(bytes.slice(scanner.rowEndTagStart..<scanner.rowRange.upperBound))
      return
    }
    let element = scanner.row
    var given = 0
    let start = bytes.array(scanner.rowRange.lowerBound..<scanner.rowTagEnd)
    var pieces: [[UInt8]] = []
    if !simple { pieces = ODSMarkupScanner.pieces(of: bytes.array(scanner.rowRange)) }
    let path = conversion.scan.readPath
    try conversion.cells(of: element) { markup, rows throws(FileError) in
      defer { given += rows }
      guard simple else {
        output.append(try rewriter.annotated(pieces, with: markup, rows: rows, row: element.number + given, path: path))
        return
      }
      output.append(ODSContentRewriter.rowStartTag(start, rows: rows, selfClosing: selfClosing))
      output.append(bytes.slice(scanner.rowTagEnd..<scanner.rowEndTagStart))
      if scanner.rowColumns < rewriter.firstColumn {
        output.append(
          ODSContentRewriter.repeating(Array("<table:table-cell/>".utf8), rewriter.firstColumn - scanner.rowColumns))
      }
      output.append(markup)
      if selfClosing {
        output.append(Array("</table:table-row>".utf8))
      } else {
        output.append(bytes.slice(scanner.rowEndTagStart..<scanner.rowRange.upperBound))
      }
    }
    if given == 0 { output.append(bytes.slice(scanner.rowRange)) }
  }
}
