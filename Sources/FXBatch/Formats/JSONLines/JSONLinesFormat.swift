extension RecordFormat {
  /// JSON Lines (NDJSON): one record object per line: ``JSONLinesReader``.
  public static let jsonl = RecordFormat(rawValue: "jsonl")
}

/// JSON Lines in the registry (asked after JSON documents, which also start with `{`).
enum JSONLinesFormat: JSONRecordFormat {
  static let format = RecordFormat.jsonl
  static let displayName = "JSON Lines"
  static let fileExtensions = ["jsonl", "ndjson"]
  static let isLineBased = true
  static let options: FormatOptions = [.firstLine]

  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool {
    content.first == UInt8(ascii: "{")
  }

  /// `{"` of a first line that is a whole JSON object.
  static func unmistakableStart(of content: ArraySlice<UInt8>) -> String? {
    let firstLine = content.prefix { $0 != 0x0A }
    guard firstLine.first == UInt8(ascii: "{"),
      firstLine.dropFirst().first(where: { ![0x20, 0x09, 0x0D].contains($0) }) == UInt8(ascii: "\""),
      case .success = JSONRecordText(bytes: Array(firstLine), line: 1, column: 1).members(maximumValues: 1 << 16)
    else { return nil }
    return "`{\"`"
  }

  /// Its reader makes a bad line an `invalid_record` and goes on, so a stream is held to one rule of its own: a
  /// line that is a record object starts within the first ``RecordLimits/maxRecordBytes``.
  static func streamRule(head: ArraySlice<UInt8>, options: BatchOptions, inputPath: String) throws(FileError)
    -> StreamRule
  {
    StreamRule(
      bytes: .anyBytes,
      recordLine: StreamRule.RecordLine(
        isRecord: { line, limits in
          let record = JSONRecordText(bytes: line, line: 1, column: 1)
          if case .success = record.members(maximumValues: limits.maxFields) { return true }
          return false
        }, what: "a JSON object"))
  }

  /// Under a table (or a table provider, whose pass 1 needs only the span of days: ``KeySpan``) the byte-level
  /// path (``scanJSONLinesFile(displayPath:readPath:outputPath:context:)``), else the general path of JSON records.
  /// A file of known objects (``JSONDocumentShape``, Stripe objects one per line) is read under its shape's options.
  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    let (context, document) = JSONDocumentShape.shaped(context, readPath: file.readPath, lines: true)
    try JSONRecords.checkPaths(context.options, displayPath: file.displayPath)
    if context.options.fastPath, context.hasConvertingTable || context.passOneKeys != nil {
      var (scan, span) = try scanJSONLinesFile(
        displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, context: context)
      scan.document = document
      return (scan, RateKeyIndex(Set(span)))
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
      scan.document == nil ? context : JSONDocumentShape.shaped(context, readPath: scan.readPath, lines: true).context
    let done: (RunReport.Counts, Int, ReconciliationLedger)
    if let fastPass = JSONRecords.fastPass(scan, context: context, quotes: quotes) {
      done = try convertJSONLines(scan, fastPass: fastPass, context: context, quotes: quotes, standardOutput: standardOutput)
    } else {
      done = try JSONRecords.convertFile(self, scan: scan, context: context, quotes: quotes, standardOutput: standardOutput)
    }
    return FileConversion(counts: done.0, withoutDate: done.1, ledger: done.2, scan: scan)
  }

  /// One record per line (``JSONLinesReader``): blank lines and line ends are copied, a byte order mark too.
  static func forEachRecord(
    path: String, options: BatchOptions, copy: @escaping ([UInt8]) throws -> Void,
    record: @escaping (JSONRecordText) throws -> Bool
  ) throws {
    let reader = try JSONLinesReader(path: path, limits: options.limits, firstLine: options.firstLine)
    var first = true
    while let line = try reader.next() {
      if first, reader.hasByteOrderMark { try copy([0xEF, 0xBB, 0xBF]) }
      first = false
      if line.isBlank {
        try copy(line.record.bytes + line.terminator)
        continue
      }
      guard try record(line.record) else { return }
      try copy(line.terminator)
    }
    if first, reader.hasByteOrderMark { try copy([0xEF, 0xBB, 0xBF]) }  // a file of only a byte order mark
  }

  /// Its first record object ends with the annotation members.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    JSONRecords.isAnnotatedOutput(self, path: path, context: context)
  }

  static func describe(_ scan: FileScan, options: BatchOptions, in file: inout RunReport.File) {
    file.document = scan.document?.description
  }

  static func summaryDetails(of file: RunReport.File) -> [String] {
    ["JSON Lines" + (file.document.map { ", \($0)" } ?? "")]
  }
}
