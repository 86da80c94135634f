extension RecordFormat {
  /// JSON Lines (NDJSON): one record object per line: ``JSONLinesReader``.
  public static let jsonl = RecordFormat(rawValue: "jsonl")
}

/// JSON Lines in the registry (asked after JSON documents, which also start with `{`).
enum JSONLinesFormat: FileFormat {
  static let format = RecordFormat.jsonl
  static let displayName = "JSON Lines"
  static let fileExtensions = ["jsonl", "ndjson"]

  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    content.first == UInt8(ascii: "{")
  }

  /// Read as JSON documents are (``JSONFormat/scanJSONFile(displayPath:readPath:outputPath:format:context:)``),
  /// which takes the byte-level path of JSON Lines files where it can.
  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    let (scan, keys) = try JSONFormat.scanJSONFile(
      displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, format: format,
      context: context)
    return (scan, RateKeyIndex(keys))
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    let (counts, withoutDate, ledger) = try JSONFormat.convertJSON(
      scan, context: context, quotes: quotes, standardOutput: standardOutput)
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }

  /// Its first record object ends with the annotation members.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    JSONFormat.isAnnotatedJSONOutput(path, context: context)
  }
}
