/// The sheet of an `.xlsx` workbook a run converts, with what reading its cells needs: the package, the sheet's
/// part, the shared strings, which styles are dates and the date system.
struct XLSXBook {
  /// The name the user gave.
  let displayPath: String
  let package: ZipPackage
  let workbook: XLSXWorkbook
  /// The converted sheet's name and part.
  let sheetName: String
  let sheetEntry: ZipEntry
  let sharedStrings: XLSXSharedStrings
  let dateStyles: Set<Int>

  var dateSystem: XLSXDateSystem { workbook.usesDate1904 ? .from1904 : .from1900 }

  /// The names of the workbook's other worksheets (not chart sheets), in tab order.
  var otherSheetNames: [String] {
    workbook.sheets.filter { $0.entry != nil && $0.entry != sheetEntry.name }.map(\.name)
  }

  /// Opens a workbook and finds its sheet: `sheet` by tab name, else by its number from 1; the first sheet when
  /// `nil`.
  ///
  /// - Throws: ``FileError`` with the package's or the workbook's one-line reason.
  ///   - verify: whether to inflate every entry but the sheet's (pass 1), so that a hostile part anywhere in the
  ///     package (a zip bomb, an entry that lies about its size or fails its checksum, a DTD) refuses it for its
  ///     own reason before anything is written, even a part the conversion would copy without reading. The
  ///     sheet's entry is checked as pass 1 reads it to its end (``XLSXFormat``'s scan), which is the same
  ///     check, and would inflate the biggest part twice.
  ///   - unixDates: whether dates are unix times (``DateFormat/isUnix``): then a number is the number it holds
  ///     whatever its style, never a serial date.
  init(readPath: String, displayPath: String, sheet: String?, verify: Bool = false, unixDates: Bool = false)
    throws(FileError)
  {
    self.displayPath = displayPath
    do {
      package = try ZipPackage(path: readPath)
      if package.entry(named: "xl/workbook.xml") == nil, let mimetype = package.entry(named: "mimetype"),
        String(decoding: try package.contents(of: mimetype), as: UTF8.self).contains("opendocument.spreadsheet")
      {
        throw FileError(
          path: displayPath, message: "an OpenDocument spreadsheet, not an .xlsx workbook",
          hint: "convert it with --format ods")
      }
    } catch let error as FileError {
      throw error
    } catch {
      throw FileError.package("\(error)", readPath: readPath, displayPath: displayPath)
    }
    let found: (workbook: XLSXWorkbook, sheet: XLSXWorkbook.Sheet, entry: ZipEntry)
    do { found = try Self.findSheet(sheet, in: package, readPath: readPath, displayPath: displayPath) } catch {
      // A hostile part anywhere is refused for its own reason first, as it is when the sheet is found.
      if verify { try Self.verify(package, except: nil, readPath: readPath, displayPath: displayPath) }
      throw error
    }
    workbook = found.workbook
    sheetName = found.sheet.name
    sheetEntry = found.entry
    if verify { try Self.verify(package, except: found.entry, readPath: readPath, displayPath: displayPath) }
    let package = package
    do throws(WorkbookError) {
      var strings = XLSXSharedStrings(strings: [])
      if let entry = workbook.sharedStringsEntry.flatMap(package.entry(named:)) {
        strings = try XLSXSharedStrings.read(from: package, entry: entry)
      }
      sharedStrings = strings
      var styles: Set<Int> = []
      if let entry = workbook.stylesEntry.flatMap(package.entry(named:)) {
        styles = try XLSXStyles.read(from: package, entry: entry).dateStyles
      }
      dateStyles = unixDates ? [] : styles
    } catch {
      throw FileError.package(error.description, readPath: readPath, displayPath: displayPath)
    }
  }

  /// The workbook's part, and the sheet `choice` names with its entry.
  private static func findSheet(_ choice: String?, in package: ZipPackage, readPath: String, displayPath: String)
    throws(FileError) -> (workbook: XLSXWorkbook, sheet: XLSXWorkbook.Sheet, entry: ZipEntry)
  {
    let workbook: XLSXWorkbook
    do { workbook = try XLSXWorkbook.read(from: package) } catch {
      throw FileError.package(error.description, readPath: readPath, displayPath: displayPath)
    }
    let chosen = try Self.choose(choice, in: workbook.sheets, displayPath: displayPath)
    guard let name = chosen.entry, let entry = package.entry(named: name) else {
      throw FileError(
        path: displayPath, message: "sheet \(RowError.quoted(chosen.name)) is a chart sheet, not a worksheet",
        hint: "choose a worksheet with --sheet NAME|NUMBER")
    }
    // The copy rewrites the sheet's part: a part another sheet shows too would give that sheet the fx cells.
    let sharing = workbook.sheets.filter { $0.entry == name }
    if sharing.count > 1 {
      let other = sharing.first { $0.name != chosen.name } ?? chosen
      throw FileError(
        path: displayPath,
        message:
          "sheet \(RowError.quoted(chosen.name)) shares its part \(name) with sheet \(RowError.quoted(other.name)), which the annotated copy would change too: a damaged workbook")
    }
    return (workbook, chosen, entry)
  }

  /// Reads every entry of a package to its end but `skipped` (``ZipPackage/inflateEveryEntry(except:)``).
  private static func verify(_ package: ZipPackage, except skipped: ZipEntry?, readPath: String, displayPath: String)
    throws(FileError)
  {
    do { try package.inflateEveryEntry(except: skipped) } catch {
      throw FileError.package(error.description, readPath: readPath, displayPath: displayPath)
    }
  }

  /// The sheet `choice` names.
  private static func choose(_ choice: String?, in sheets: [XLSXWorkbook.Sheet], displayPath: String) throws(FileError)
    -> XLSXWorkbook.Sheet
  {
    guard let choice else {
      guard let first = sheets.first else { throw FileError(path: displayPath, message: "the workbook has no sheets") }
      return first
    }
    if let named = sheets.first(where: { $0.name == choice }) { return named }
    if let number = Int(choice), sheets.indices.contains(number - 1) { return sheets[number - 1] }
    throw FileError(
      path: displayPath,
      message: "--sheet \(RowError.quoted(choice)): the workbook has no such sheet (its sheets: \(WorkbookRecords.sheetList(sheets.map(\.name))))")
  }

  /// A reader of the converted sheet's rows, from its start.
  func rows() throws(FileError) -> XLSXSheetReader {
    do {
      return try XLSXSheetReader(package: package, entry: sheetEntry, sharedStrings: sharedStrings)
    } catch {
      throw fileError(error)
    }
  }

  /// An error of the package or its parts as a ``FileError`` of the file the user named.
  func fileError(_ error: WorkbookError) -> FileError {
    FileError.package(error.description, readPath: package.path, displayPath: displayPath)
  }

  // MARK: Cells

  /// The header's text of a cell (``WorkbookRecords/headerName(_:)``).
  static func headerName(_ cell: SheetCell) -> String { WorkbookRecords.headerName(cell) }

  /// Whether a row has no value at all (``WorkbookRecords/isBlank(_:)``).
  static func isBlank(_ row: SheetRow) -> Bool { WorkbookRecords.isBlank(row) }

  /// The fields of a record row (``WorkbookRecords/fields(of:mapping:dateField:)``): a number in a
  /// date-formatted cell of the date field is its day (elsewhere it is the number it holds).
  func fields(of row: SheetRow, mapping: FieldMapping) -> RecordFields {
    WorkbookRecords.fields(of: row, mapping: mapping) { cell, text in
      guard dateStyles.contains(cell.style) else { return .number(text) }
      guard let day = dateSystem.day(ofSerial: text) else {
        return .other("the number \(RowError.quoted(text)) of date cell \(cell.reference), which is not a day")
      }
      return .text(day.description)
    }
  }

  /// A cell's text as evidence for ``FieldSamples``: a number in a date style as its day.
  func sampleText(of cell: SheetCell) -> String? {
    if case .number(let text) = cell.value, dateStyles.contains(cell.style) {
      return dateSystem.day(ofSerial: ExactDecimal.spreadsheetNumberText(text))?.description ?? text
    }
    return WorkbookRecords.sampleText(cell)
  }
}
