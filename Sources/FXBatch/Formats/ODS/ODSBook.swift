/// An `.ods` spreadsheet a run converts: its package and its `content.xml`, which holds every table.
struct ODSBook {
  /// The name the user gave.
  let displayPath: String
  let package: ZipPackage
  /// `content.xml`.
  let contentEntry: ZipEntry

  /// The media type of an OpenDocument spreadsheet, as its `mimetype` entry holds it (ODF 1.3 part 2, 3.3).
  static let mediaType = "application/vnd.oasis.opendocument.spreadsheet"

  /// Opens a spreadsheet.
  ///
  /// - Parameters:
  ///   - readPath: the file.
  ///   - displayPath: the name the user gave, for messages.
  ///   - verify: whether to inflate every entry first (pass 1), so that a hostile part anywhere in the package
  ///     refuses it before anything is written.
  /// - Throws: ``FileError`` with the package's one-line reason: a zip bomb, a DTD, a password (the manifest's
  ///   `encryption-data`, refused by ``ZipPackage``), another kind of package.
  init(readPath: String, displayPath: String, verify: Bool = false) throws(FileError) {
    self.displayPath = displayPath
    let package: ZipPackage
    do throws(ZipError) {
      package = try ZipPackage(path: readPath)
      if verify { try package.inflateEveryEntry() }
    } catch {
      throw FileError.package(error.description, readPath: readPath, displayPath: displayPath)
    }
    let mediaType: String
    do throws(ZipError) {
      let entry = package.entry(named: "mimetype")
      mediaType =
        try entry.map { entry throws(ZipError) in String(decoding: try package.contents(of: entry), as: UTF8.self) } ?? ""
    } catch {
      throw FileError.package(error.description, readPath: readPath, displayPath: displayPath)
    }
    guard mediaType == Self.mediaType || mediaType == Self.mediaType + "-template" else {
      if package.entry(named: "xl/workbook.xml") != nil {
        throw FileError(
          path: displayPath, message: "an .xlsx workbook, not an .ods spreadsheet", hint: "convert it with --format xlsx")
      }
      let kind =
        mediaType.hasPrefix("application/vnd.oasis.opendocument.")
        ? "an OpenDocument \(mediaType.dropFirst("application/vnd.oasis.opendocument.".count)) document"
        : "a zip package without the mimetype of an OpenDocument spreadsheet"
      throw FileError(path: displayPath, message: "\(kind), not an .ods spreadsheet")
    }
    guard let content = package.entry(named: "content.xml") else {
      throw FileError(path: displayPath, message: "the package has no content.xml: a damaged .ods spreadsheet")
    }
    self.package = package
    contentEntry = content
  }

  /// A reader of the table `sheet` names (by name, else its number from 1; the first when `nil`), on its first row.
  func table(_ sheet: String?) throws(FileError) -> ODSTableReader {
    let found: ODSTableReader?
    var names: [String] = []
    do throws(ODSError) {
      var choice = sheet.map(ODSTableReader.Choice.name) ?? .number(1)
      // A number is a sheet's number unless a sheet has it as its name.
      if let sheet, let number = Int(sheet) {
        names = try ODSTableReader.tableNames(package: package, entry: contentEntry)
        if !names.contains(sheet) { choice = .number(number) }
      }
      found = try ODSTableReader(package: package, entry: contentEntry, choice: choice)
      if found == nil { names = try ODSTableReader.tableNames(package: package, entry: contentEntry) }
    } catch {
      throw fileError(error)
    }
    guard let found else {
      guard let sheet else { throw FileError(path: displayPath, message: "the spreadsheet has no tables") }
      throw FileError(
        path: displayPath,
        message:
          "--sheet \(RowError.quoted(sheet)): the spreadsheet has no such sheet (its sheets: \(WorkbookRecords.sheetList(names)))"
      )
    }
    return found
  }

  /// An error of the content as a ``FileError`` of the file the user named.
  func fileError(_ error: ODSError) -> FileError {
    FileError.package(error.description, readPath: package.path, displayPath: displayPath)
  }
}
