extension RecordFormat {
  /// XML, its records the elements named by `--record-element` (or the root's repeated child):
  /// ``XMLRecordReader``.
  public static let xml = RecordFormat(rawValue: "xml")
}

/// XML in the registry.
enum XMLFormat: FileFormat {
  static let format = RecordFormat.xml
  static let displayName = "XML"
  static let fileExtensions = ["xml"]

  /// `<` after the byte order mark and whitespace; or UTF-16 (a byte order mark, or `<?` in two-byte units),
  /// the only format fxbatch reads in UTF-16.
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    let utf16Starts: [[UInt8]] = [[0xFF, 0xFE], [0xFE, 0xFF], [0x3C, 0x00, 0x3F, 0x00], [0x00, 0x3C, 0x00, 0x3F]]
    return utf16Starts.contains { raw.starts(with: $0) } || content.first == UInt8(ascii: "<")
  }

  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    let (scan, keys) = try scanXMLFile(
      displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, context: context)
    return (scan, RateKeyIndex(keys))
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    let (counts, withoutDate, ledger) = try convertXML(
      scan, context: context, quotes: quotes, standardOutput: standardOutput)
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }

  /// Its first record ends with an `fx` element.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    isAnnotatedXMLOutput(path, context: context)
  }

  static func describe(_ scan: FileScan, options: BatchOptions, in file: inout RunReport.File) {
    file.recordElement = scan.xml?.recordElement
  }

  static func summaryDetails(of file: RunReport.File) -> [String] {
    ["XML" + (file.recordElement.map { ", records <\($0)>" } ?? "")]
  }
}
