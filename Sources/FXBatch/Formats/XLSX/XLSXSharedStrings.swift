import CLibXML2

/// A workbook's shared strings (`xl/sharedStrings.xml`): the text of every string cell that refers to one by
/// index (`<c t="s"><v>3</v></c>`), rich text read as its plain text.
///
/// The table is held in memory (issue 14 allows a conversion the memory of its shared strings); the part is
/// still parsed as a stream.
public struct XLSXSharedStrings: Sendable, Equatable {
  /// The strings, by index.
  public let strings: [String]

  public init(strings: [String]) { self.strings = strings }

  /// Reads the table of a package's shared-strings part.
  ///
  /// - Parameters:
  ///   - package: the workbook.
  ///   - entry: the part (`xl/sharedStrings.xml`, or where the workbook's relationships put it).
  /// - Throws: ``WorkbookError``.
  public static func read(from package: ZipPackage, entry: ZipEntry) throws(WorkbookError) -> XLSXSharedStrings {
    let part = try PackagePartReader(package: package, entry: entry)
    var strings: [String] = []
    while try part.read() {
      if part.isElement(XML_READER_TYPE_ELEMENT, named: "si") { strings.append(try part.richText()) }
    }
    return XLSXSharedStrings(strings: strings)
  }
}
