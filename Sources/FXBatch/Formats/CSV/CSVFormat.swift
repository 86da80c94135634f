#if canImport(Glibc)
  import Glibc
#endif

extension RecordFormat {
  /// RFC 4180 CSV (`,`, `;` or tab delimited): ``CSVReader``.
  public static let csv = RecordFormat(rawValue: "csv")
}

/// CSV in the registry: the format of any file no other format recognises.
enum CSVFormat: FileFormat {
  static let format = RecordFormat.csv
  static let displayName = "CSV"
  static let fileExtensions = ["csv", "tsv", "txt"]
  static let isLineBased = true
  static let options: FormatOptions = [.header, .encoding, .noHeaderOutput, .firstLine]

  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool { true }

  /// UTF-8 text (bytes that are not UTF-8 refused as the reader refuses them), UTF-16 text, or any bytes in a
  /// single-byte encoding, as `--encoding` and the byte order mark say.
  static func streamRule(head: ArraySlice<UInt8>, options: BatchOptions, inputPath: String) throws(FileError)
    -> StreamRule
  {
    var rule: StreamRule
    switch TextEncoding.resolve(declared: options.encoding, byteOrderMark: TextEncoding.byteOrderMark(at: head)) {
    case .success(.utf8): rule = StreamRule(bytes: .utf8(refusesControls: false))
    case .success(.utf16LittleEndian): rule = StreamRule(bytes: .utf16(bigEndian: false, refusesControls: false))
    case .success(.utf16BigEndian): rule = StreamRule(bytes: .utf16(bigEndian: true, refusesControls: false))
    case .success(.utf16):  // declared, its order from the byte order mark
      rule = StreamRule(
        bytes: .utf16(bigEndian: TextEncoding.byteOrderMark(at: head) == .utf16BigEndian, refusesControls: false))
    case .success: rule = StreamRule(bytes: .anyBytes)
    case .failure(let conflict): throw FileError(path: inputPath, message: conflict.description, hint: conflict.hint)
    }
    rule.notUTF8 = { line, column, byte in
      let notUTF8 = CSVError.notUTF8(line: line, column: column, byte: byte)
      return (notUTF8.description, notUTF8.hint)
    }
    return rule
  }

  /// UTF-8 text whose decimal mark is given (`--decimal-separator`, which pass 1 would otherwise infer from every
  /// amount).
  static func readsStreamInOnePass(_ options: BatchOptions) -> Bool {
    options.decimalMark != nil && (options.encoding ?? .utf8).isUTF8
  }

  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex) {
    try scanCSVFile(
      displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, readOnce: file.readOnce,
      context: context)
  }

  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion
  {
    let (counts, withoutDate, ledger, scan) = try convertCSV(
      scan, context: context, quotes: quotes, standardOutput: standardOutput)
    return FileConversion(counts: counts, withoutDate: withoutDate, ledger: ledger, scan: scan)
  }

  /// Its header (first non-blank record) ends with the annotation fields. A file not in UTF-8 (by `--encoding`
  /// or its byte order mark, as it would be read) is read through a UTF-8 copy in an unnamed temporary file.
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool {
    var readPath = path
    var copy: Int32 = -1
    defer { if copy >= 0 { close(copy) } }
    let start = FileBytes.prefix(of: path, count: 3)
    guard
      case .success(let encoding) = TextEncoding.resolve(
        declared: context.options.encoding, byteOrderMark: TextEncoding.byteOrderMark(at: start))
    else { return false }
    if !encoding.isUTF8 {
      guard let descriptor = try? UnnamedTemporaryFile.create(prefix: "fxbatch-header") else { return false }
      copy = descriptor
      // A file that does not convert to its end may still have the header: what converted is read.
      let sink = ByteSink(descriptor: descriptor)
      try? Transcoder.convert(file: path, from: encoding, to: .utf8, into: sink)
      try? sink.flush()
      readPath = "/proc/self/fd/\(descriptor)"
    }
    guard let reader = try? CSVReader(path: readPath, delimiter: context.options.delimiter) else { return false }
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
