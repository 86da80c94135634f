extension RecordFormat {
  /// RFC 4180 CSV (`,`, `;` or tab delimited): ``CSVReader``.
  public static let csv = RecordFormat(rawValue: "csv")
}

/// CSV in the registry: the format of any file no other format recognises.
enum CSVFormat: FileFormat {
  static let format = RecordFormat.csv
  static let displayName = "CSV"
  static let fileExtensions = ["csv", "tsv", "txt"]

  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool { true }

  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    try scanCSVFile(
      displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, context: context)
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    let (counts, withoutDate, ledger, scan) = try convertCSV(
      scan, context: context, quotes: quotes, standardOutput: standardOutput)
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }

  /// Its header (first non-blank record) ends with the annotation fields.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    guard let reader = try? CSVReader(path: path, delimiter: context.options.delimiter) else { return false }
    while let record = try? reader.next() {
      if record.isBlank { continue }
      return AnnotationColumn.endAnnotated((0..<record.fieldCount).map { record.field($0).trimmingWhitespace })
    }
    return false
  }

  static func describe(_ scan: FileScan, options: BatchOptions, in file: inout RunReport.File) {
    file.delimiter = String(UnicodeScalar(scan.csv.delimiter))
  }

  /// CSV says nothing of itself; a delimiter other than `,` and an encoding other than UTF-8 are named.
  static func summaryDetails(of file: RunReport.File) -> [String] {
    var details: [String] = []
    if let delimiter = file.delimiter, delimiter != "," {
      details.append("delimiter \(delimiter == "\t" ? "tab" : delimiter)")
    }
    if let encoding = file.encoding, encoding != TextEncoding.utf8.rawValue { details.append("encoding \(encoding)") }
    return details
  }
}
