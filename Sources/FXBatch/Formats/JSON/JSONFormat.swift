extension RecordFormat {
  /// A JSON document holding an array of record objects, at the top or at `--records-path`:
  /// ``JSONDocumentWalker``.
  public static let json = RecordFormat(rawValue: "json")
}

/// JSON documents in the registry.
enum JSONFormat: JSONRecordFormat {
  static let format = RecordFormat.json
  static let displayName = "JSON"
  static let fileExtensions = ["json"]

  /// `[` starts a JSON document; so does `{` when `--records-path` is given or the first line is not a whole
  /// JSON value (else it is JSON Lines). The question is the line's shape, not its encoding: bytes of 0x80 and
  /// above (which JSON allows only in strings) are read as `x`, so a first line that is not UTF-8 still makes
  /// JSON Lines, whose record it is then refuses with its `invalid_record` error.
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    switch content.first {
    case UInt8(ascii: "["): return true
    case UInt8(ascii: "{"):
      if !recordsPath.isEmpty { return true }
      let firstLine = content.prefix { $0 != 0x0A }.map { $0 >= 0x80 ? UInt8(ascii: "x") : $0 }
      return (try? JSONParser.parse(firstLine)) == nil
    default: return false
    }
  }

  /// `[` before a value's start (`[{`, `[[`, `["`, `[1`, `[]`), or `{"` of a first line that is no whole value.
  static func unmistakableStart(of content: ArraySlice<UInt8>) -> String? {
    let next = content.dropFirst().first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    switch (content.first, next) {
    case (UInt8(ascii: "[")?, let next?) where Array("{[\"]-0123456789".utf8).contains(next):
      return "`[\(String(UnicodeScalar(next)))`"
    case (UInt8(ascii: "{")?, UInt8(ascii: "\"")?) where recognizes(raw: content, content: content, recordsPath: []):
      return "`{\"`"
    default: return nil
    }
  }

  /// UTF-8 without control bytes, as JSON text is.
  static func streamRule(head: ArraySlice<UInt8>, options: BatchOptions, inputPath: String) throws(FileError)
    -> StreamRule
  { StreamRule(bytes: .utf8(refusesControls: true)) }

  /// A known document (``JSONDocumentShape``, a Stripe list) is read under its shape's options.
  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    let (context, document) = JSONDocumentShape.shaped(context, readPath: file.readPath, lines: false)
    try JSONRecords.checkPaths(context.options, displayPath: file.displayPath)
    if let found = try scanJSONDocumentFile(
      displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, context: context)
    {
      var scan = found.0
      scan.document = document
      return (scan, RateKeyIndex(Set(found.1)))
    }
    var (scan, keys) = try JSONRecords.scanFile(
      self, displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, context: context)
    scan.document = document
    return (scan, RateKeyIndex(keys))
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    let context =
      scan.document == nil ? context : JSONDocumentShape.shaped(context, readPath: scan.readPath, lines: false).context
    let done: (RunReport.Counts, Int, ReconciliationLedger)
    if let extent = scan.jsonArray, let fastPass = JSONRecords.fastPass(scan, context: context, quotes: quotes) {
      done = try convertJSONDocument(
        scan, extent: extent, fastPass: fastPass, context: context, quotes: quotes, standardOutput: standardOutput)
    } else {
      done = try JSONRecords.convertFile(self, scan: scan, context: context, quotes: quotes, standardOutput: standardOutput)
    }
    return FileConversion(counts: done.0, withoutDate: done.1, ledger: done.2, scan: scan)
  }

  /// The elements of the records array (``JSONDocumentWalker``), and the document around them.
  static func forEachRecord(
    path: String, options: BatchOptions, copy: @escaping ([UInt8]) throws -> Void,
    record: @escaping (JSONRecordText) throws -> Bool
  ) throws {
    try JSONDocumentWalker(path: path, recordsPath: options.recordsPath, limits: options.limits)
      .walk(copy: copy, record: record)
  }

  /// Its first record object ends with the annotation members.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    JSONRecords.isAnnotatedOutput(self, path: path, context: context)
  }

  static func describe(_ scan: FileScan, options: BatchOptions, in file: inout RunReport.File) {
    let recordsPath = scan.document?.recordsPath ?? options.recordsPath
    if !recordsPath.isEmpty { file.recordsPath = recordsPath.joined(separator: ".") }
    file.document = scan.document?.description
  }

  static func summaryDetails(of file: RunReport.File) -> [String] {
    ["JSON" + (file.recordsPath.map { ", records at \($0)" } ?? "") + (file.document.map { ", \($0)" } ?? "")]
  }
}
