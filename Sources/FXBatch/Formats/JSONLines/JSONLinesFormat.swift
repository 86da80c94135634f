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

  static func scan(_ file: BatchJob.FileInput, job: BatchJob) throws(FileError) -> (BatchJob.FileScan, RateKeyIndex) {
    let (scan, keys) = try job.scanJSONFile(
      displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, format: format)
    return (scan, RateKeyIndex(keys))
  }

  static func convert(_ scan: BatchJob.FileScan, job: BatchJob, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> BatchJob.FileConversion
  {
    let (counts, withoutDate, ledger) = try job.convertJSON(scan, quotes: quotes, standardOutput: standardOutput)
    return BatchJob.FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }

  /// Its first record object ends with the annotation members.
  static func isAnnotatedOutput(_ path: String, job: BatchJob) -> Bool { job.isAnnotatedJSONOutput(path) }
}
