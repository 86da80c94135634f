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

  /// `<` after the byte order mark and whitespace, in UTF-8 or in UTF-16 (after a UTF-16 byte order mark, or
  /// `<?` in two-byte units without one). A UTF-16 byte order mark alone does not make XML: CSV is read in
  /// UTF-16 too (Excel's "Unicode Text" export), and such a file or stream without a name was refused as
  /// "malformed XML: Document is empty".
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    if raw.starts(with: [0x3C, 0x00, 0x3F, 0x00]) || raw.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return true }
    let bigEndian: Bool
    if raw.starts(with: [0xFF, 0xFE]) {
      bigEndian = false
    } else if raw.starts(with: [0xFE, 0xFF]) {
      bigEndian = true
    } else {
      return content.first == UInt8(ascii: "<")
    }
    var index = raw.startIndex + 2
    while index + 1 < raw.endIndex {
      let (first, second) = (UInt16(raw[index]), UInt16(raw[index + 1]))
      let unit = bigEndian ? first << 8 | second : second << 8 | first
      if unit == 0x3C { return true }
      guard [0x20, 0x09, 0x0A, 0x0D].contains(unit) else { return false }
      index += 2
    }
    return false
  }

  /// `<?xml`, or a first element's start tag (`<rows>`) on the first line, followed on it by nothing or another
  /// tag (a CSV header of bracketed names, `<Amount>,<Date>`, is no XML).
  static func unmistakableStart(of content: ArraySlice<UInt8>) -> String? {
    if content.starts(with: Array("<?xml".utf8)) { return "`<?xml`" }
    let firstLine = content.prefix { $0 != 0x0A }
    guard firstLine.first == UInt8(ascii: "<"), let name = firstLine.dropFirst().first,
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(name & ~0x20),
      let close = firstLine.firstIndex(of: UInt8(ascii: ">")), close - firstLine.startIndex < 64,
      firstLine[(close + 1)...].first(where: { ![0x20, 0x09, 0x0D].contains($0) }).map({ $0 == UInt8(ascii: "<") })
        ?? true
    else { return nil }
    return "`\(String(decoding: firstLine[...close], as: UTF8.self))`"
  }

  /// UTF-8 (or UTF-16, or a single-byte encoding, as the document declares it) without control characters.
  static func streamRule(head: ArraySlice<UInt8>, options: BatchOptions, inputPath: String) throws(FileError)
    -> StreamRule
  {
    let encoding: XMLDocumentEncoding
    do { encoding = try XMLDocumentEncoding.detect(head) } catch {
      throw FileError(path: inputPath, line: error.line, column: error.column, message: error.message, hint: error.hint)
    }
    var rule: StreamRule
    switch encoding.form {
    case .utf16LittleEndian: rule = StreamRule(bytes: .utf16(bigEndian: false, refusesControls: true))
    case .utf16BigEndian: rule = StreamRule(bytes: .utf16(bigEndian: true, refusesControls: true))
    case .asciiCompatible:
      rule = StreamRule(bytes: encoding.name == "UTF-8" ? .utf8(refusesControls: true) : .controls)
    }
    rule.utf8Wording = "without an encoding declaration is UTF-8"
    rule.hint =
      "give --format if the stream is not XML; XML in another encoding declares it (<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>)"
    return rule
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
    file.document = scan.xml?.shaped?.description
  }

  static func summaryDetails(of file: RunReport.File) -> [String] {
    ["XML" + (file.recordElement.map { ", records <\($0)>" } ?? "") + (file.document.map { ", \($0)" } ?? "")]
  }
}
