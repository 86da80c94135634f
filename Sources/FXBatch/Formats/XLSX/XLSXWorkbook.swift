import CLibXML2

/// What an `.xlsx` package's workbook part says about its sheets, found the way OOXML readers find them (ECMA-376
/// part 2, Open Packaging Conventions): the package relationships (`_rels/.rels`) lead to the workbook part, its
/// relationships (`xl/_rels/workbook.xml.rels`) to the sheets, the shared strings and the styles.
public struct XLSXWorkbook: Equatable, Sendable {
  /// A sheet, in tab order.
  public struct Sheet: Equatable, Sendable {
    /// Its name on its tab.
    public let name: String
    /// Its part (`xl/worksheets/sheet1.xml`); `nil` for a sheet that is not a worksheet (a chart sheet).
    public let entry: String?
  }

  /// The workbook part (`xl/workbook.xml`).
  public let entry: String
  /// The sheets, in tab order.
  public let sheets: [Sheet]
  /// The shared strings part, when the workbook has one (openpyxl writes none).
  public let sharedStringsEntry: String?
  /// The styles part, when the workbook has one.
  public let stylesEntry: String?
  /// Whether its dates count from 1904 (`<workbookPr date1904="1"/>`, old Mac Excel) rather than 1900.
  public let usesDate1904: Bool

  private static let relationshipsNamespace: StaticString =
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

  /// The most sheets a workbook part, and relationships a relationships part, may declare: each costs a few hundred
  /// bytes read (1,000,000 relationships in a 2.9 MB package took 440 MB); 200,000 keep that under 100 MB.
  public static let maximumDeclarations = 200_000

  /// Reads a package's workbook structure.
  ///
  /// - Throws: ``WorkbookError/missingPart(path:part:)`` when the relationships lead nowhere, or as the parts' reads.
  public static func read(from package: ZipPackage) throws(WorkbookError) -> XLSXWorkbook {
    try refuseNamesDifferingInCase(package)
    // A CSV zipped for e-mail is no package at all: say so, not that a workbook's part is missing.
    if package.entry(named: "[Content_Types].xml") == nil, package.entry(named: "_rels/.rels") == nil,
      package.entry(named: "mimetype") == nil
    {
      throw .zipArchive(path: package.path, names: package.entries.prefix(3).map(\.name), count: package.entries.count)
    }
    let root = try relationships(of: "", in: package)
    guard let entry = root.first(where: { $0.type.hasSuffix("/officeDocument") })?.target,
      let workbook = package.entry(named: entry)
    else { throw .missingPart(path: package.path, part: "workbook (no officeDocument relationship in _rels/.rels)") }
    let related = try relationships(of: entry, in: package)
    // Each sheet's `r:id` is looked up in a dictionary of the worksheet relationships (the first of an id, as a
    // search in order found it): a search per sheet took over 30 s for 100,000 sheets.
    var worksheets: [String: String] = [:]
    for relationship in related where relationship.type.hasSuffix("/worksheet") && worksheets[relationship.id] == nil {
      worksheets[relationship.id] = relationship.target
    }
    let ids = Set(related.lazy.map(\.id))
    let part = try PackagePartReader(package: package, entry: workbook)
    var sheets: [Sheet] = []
    var usesDate1904 = false
    while try part.read() {
      if part.isElement(XML_READER_TYPE_ELEMENT, named: "workbookPr") {
        // An xsd:boolean after its white space is collapsed: "1" or "true" (openpyxl also reads "TRUE").
        usesDate1904 = ["1", "true"].contains((part.attribute("date1904") ?? "").trimmingWhitespace.lowercased())
      } else if part.isElement(XML_READER_TYPE_ELEMENT, named: "sheet") {
        let name = part.attribute("name") ?? ""
        let id = part.attribute("id", namespace: relationshipsNamespace) ?? ""
        // A sheet whose r:id names no relationship at all is damaged (not a chart sheet, whose names one).
        guard ids.contains(id) else {
          throw .missingPart(
            path: package.path,
            part: "relationship \"\(id)\" of sheet \"\(name)\" in \(PathText.lastComponent(of: entry)).rels")
        }
        guard sheets.count < maximumDeclarations else {
          throw .tooManyDeclarations(path: package.path, entry: entry, what: "sheets", limit: maximumDeclarations)
        }
        sheets.append(Sheet(name: name, entry: worksheets[id]))
      }
    }
    for sheet in sheets {
      if let entry = sheet.entry, package.entry(named: entry) == nil {
        throw .missingPart(path: package.path, part: "\(entry), the part of sheet \(sheet.name)")
      }
    }
    return XLSXWorkbook(
      entry: entry, sheets: sheets,
      sharedStringsEntry: related.first { $0.type.hasSuffix("/sharedStrings") }?.target,
      stylesEntry: related.first { $0.type.hasSuffix("/styles") }?.target, usesDate1904: usesDate1904)
  }

  /// Refuses two entries whose names differ only in ASCII case: OPC compares part names case-insensitively
  /// (ECMA-376 part 2, 9.1.1.1.2), so they are one part twice, and which one a reader takes is a guess
  /// (`XL/worksheets/sheet1.xml` beside `xl/worksheets/sheet1.xml` was accepted, the second left in the copy).
  static func refuseNamesDifferingInCase(_ package: ZipPackage) throws(WorkbookError) {
    var names: [String: String] = [:]
    for entry in package.entries {
      let folded = String(decoding: entry.name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
      if let other = names.updateValue(entry.name, forKey: folded) {
        throw .package(
          .duplicateEntry(
            path: package.path, name: "\(other) (and \(entry.name): an .xlsx part name's case does not count)"))
      }
    }
  }

  /// A part's relationships (`<folder>/_rels/<name>.rels`; `_rels/.rels` for the package, `part` ""), their
  /// targets resolved to entry names; none when the part has no relationships part. External targets are left out.
  static func relationships(of part: String, in package: ZipPackage) throws(WorkbookError)
    -> [(id: String, type: String, target: String)]
  {
    let folder = PathText.directory(of: part)
    let name = PathText.appending("_rels/" + PathText.lastComponent(of: part) + ".rels", to: folder)
    guard let entry = package.entry(named: name) else { return [] }
    let reader = try PackagePartReader(package: package, entry: entry)
    var relationships: [(id: String, type: String, target: String)] = []
    while try reader.read() {
      guard reader.isElement(XML_READER_TYPE_ELEMENT, named: "Relationship"), reader.attribute("TargetMode") != "External",
        let id = reader.attribute("Id"), let type = reader.attribute("Type"), let target = reader.attribute("Target")
      else { continue }
      guard relationships.count < maximumDeclarations else {
        throw .tooManyDeclarations(path: package.path, entry: name, what: "relationships", limit: maximumDeclarations)
      }
      relationships.append((id, type, resolve(target, from: folder)))
    }
    return relationships
  }

  /// A relationship's target as an entry name: `/xl/a.xml` from the package root, `a.xml` or `../a.xml` from
  /// the source part's folder.
  static func resolve(_ target: String, from folder: String) -> String {
    let path = target.hasPrefix("/") ? String(target.dropFirst()) : PathText.appending(target, to: folder)
    if isResolved(path) { return path }
    var segments: [Substring] = []
    for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch segment {
      case ".": continue
      case "..": _ = segments.popLast()
      default: segments.append(segment)
      }
    }
    return segments.joined(separator: "/")
  }

  /// Whether a path has no segment to resolve (empty, `.` or `..`): as it is, without splitting it (a workbook
  /// may have a hundred thousand relationships).
  private static func isResolved(_ path: String) -> Bool {
    var (length, dots) = (0, 0)
    for byte in path.utf8 {
      if byte == UInt8(ascii: "/") {
        if length == 0 || (length == dots && dots <= 2) { return false }
        (length, dots) = (0, 0)
      } else {
        length += 1
        if byte == UInt8(ascii: ".") { dots += 1 }
      }
    }
    return length > 0 && !(length == dots && dots <= 2)
  }
}
