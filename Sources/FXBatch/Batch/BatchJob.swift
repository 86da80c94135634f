import Foundation

/// Converts a set of files: reads every record of every file once to collect the distinct rate questions,
/// answers each question once from the rate table, then streams every file again to write its annotated copy.
///
/// Memory is proportional to the number of distinct (base, quote, day) keys, not to the number of records.
public struct BatchJob {
  public let options: BatchOptions
  public let source: RateSourceChoice

  public init(options: BatchOptions, source: RateSourceChoice) {
    self.options = options
    self.source = source
  }

  /// A job on a local rate table.
  public init(options: BatchOptions, rates: RateTable) {
    self.init(options: options, source: .table(rates))
  }

  /// What pass 1 learned about one file.
  struct FileScan {
    let displayPath: String
    let readPath: String
    let outputPath: String?  // nil: standard output
    let format: RecordFormat
    /// The CSV field delimiter (unused for JSON).
    let delimiter: UInt8
    /// `nil` when nothing settles it (``DecimalMarkInference/decide(delimiter:)``).
    let decimalMark: DecimalMark?
    let decimalMarkInferred: Bool
    let decimalMarkBasis: DecimalMarkInference.Basis?
    let normalizer: RecordNormalizer
    /// Role (`amount`, `from`, `to`, `date`) → the header name that plays it.
    let fields: [String: String]
    /// XML: the name of the record elements.
    var recordElement: String? = nil
  }

  /// The day records without a date use: `--date`, else the newest rate day, else today.
  var defaultDay: CalendarDay { options.defaultDate ?? source.lastDay ?? options.today }

  /// Runs the job.
  ///
  /// - Parameter standardOutput: the descriptor `-o -` writes to.
  /// - Returns: the report; file problems are in it (``RunReport/File/fileError``), never thrown.
  public func run(standardOutput: Int32 = 1) -> RunReport {
    var report = makeReport()
    let (scans, keys) = scanAll(report: &report)
    defer {
      for scan in scans {
        if let scan, scan.displayPath == "-" {
          unlink(scan.readPath)
          PendingFiles.remove(scan.readPath)
        }
      }
    }

    // One answer per distinct key, for all files.
    let (quotes, market) = resolve(keys, report: &report)
    if let lockPath = options.lockPath, !source.isLockFile {
      do {
        try LockFile.write(market, defaultDay: defaultDay, to: lockPath)
        report.lockFile = lockPath
      } catch {
        report.lockFileError = "\(lockPath):1:1: error: \(error)"
      }
    }

    // Pass 2: stream each file again and write its annotated copy.
    var ledger = ReconciliationLedger()
    for (index, scan) in scans.enumerated() {
      guard let scan else { continue }
      do {
        let (counts, withoutDate, fileLedger) = try convert(scan, quotes: quotes, standardOutput: standardOutput)
        report.files[index].counts = counts
        report.files[index].reconciliation = fileLedger.reconciliations(rounding: options.rounding)
        ledger.add(fileLedger)
        report.files[index].output = scan.outputPath ?? "-"
        report.files[index].format = scan.format.rawValue
        if scan.format == .csv { report.files[index].delimiter = String(UnicodeScalar(scan.delimiter)) }
        report.files[index].recordElement = scan.recordElement
        if scan.format == .json, !options.recordsPath.isEmpty {
          report.files[index].recordsPath = options.recordsPath.joined(separator: ".")
        }
        report.files[index].decimalMark = scan.decimalMark?.rawValue
        report.files[index].decimalMarkInferred = scan.decimalMarkInferred
        report.files[index].decimalMarkInferredFrom = scan.decimalMarkBasis?.rawValue
        report.files[index].fields = scan.fields
        report.totals.add(counts)
        report.rates.recordsWithoutDate += withoutDate
      } catch {
        report.files[index].fileError = error.description
      }
    }
    report.reconciliation = ledger.reconciliations(rounding: options.rounding)
    let fileFailed = report.files.contains { $0.fileError != nil } || report.lockFileError != nil
    report.exitStatus = fileFailed ? 2 : (report.totals.error > 0 ? 1 : 0)
    return report
  }

  /// A report with the run's settings and no files yet.
  func makeReport() -> RunReport {
    RunReport(
      rates: RunReport.Rates(
        source: source.info, firstDay: source.firstDay?.description, lastDay: source.lastDay?.description,
        daysSinceLastPublication: source.lastDay.map { options.today.days(since: $0) }, defaultDay: defaultDay.description,
        recordsWithoutDate: 0),
      rounding: options.rounding.rawValue, maxStalenessDays: options.maxStaleness)
  }

  /// Pass 1 over every input: validates each file, finds its fields and decimal mark, and collects the
  /// distinct rate keys. Standard input is spooled to a temporary file (``FileScan/readPath``), which the
  /// caller removes.
  ///
  /// - Returns: per input, its scan (`nil` for a skipped or failed file, whose report says why), and the keys.
  func scanAll(report: inout RunReport) -> (scans: [FileScan?], keys: Set<RateKey>) {
    var scans: [FileScan?] = []
    var keys: Set<RateKey> = []
    var claimedOutputs: Set<String> = []
    let skipped = inputsProducedByThisRun()
    for inputPath in options.inputPaths {
      var fileReport = RunReport.File(input: inputPath)
      if let source = skipped[inputPath] {
        fileReport.skipped = "it is the output of \(source) in this run"
        report.files.append(fileReport)
        scans.append(nil)
        continue
      }
      var spooledPath: String? = nil
      do {
        var readPath = inputPath
        if inputPath == "-" {
          readPath = try Self.spoolStandardInput()
          spooledPath = readPath
        }
        let outputPath = try output(for: inputPath, skipped: skipped, claimed: &claimedOutputs)
        let (scan, fileKeys) = try scanFile(displayPath: inputPath, readPath: readPath, outputPath: outputPath)
        keys.formUnion(fileKeys)
        scans.append(scan)
      } catch {
        if let spooledPath { unlink(spooledPath) }
        fileReport.fileError = error.description
        scans.append(nil)
      }
      report.files.append(fileReport)
    }
    return (scans, keys)
  }

  /// The output path of an input (`nil` for standard output), before any checks.
  private func plannedOutput(for inputPath: String) -> String? {
    switch options.destination {
    case .standardOutput: return nil
    case .besideInput where inputPath == "-": return nil
    case .file(let file): return file
    case .besideInput, .directory:
      let name = inputPath == "-" ? "stdin.\((options.format ?? .csv).rawValue)" : (inputPath as NSString).lastPathComponent
      let stem = (name as NSString).deletingPathExtension
      let ext = (name as NSString).pathExtension
      let outputName = stem + ".converted" + (ext.isEmpty ? "" : "." + ext)
      if case .directory(let directory) = options.destination {
        return (directory as NSString).appendingPathComponent(outputName)
      }
      return ((inputPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(outputName)
    }
  }

  /// The output path of an input, refusing to overwrite an input or to give two inputs the same output.
  private func output(for inputPath: String, skipped: [String: String], claimed: inout Set<String>) throws(FileError)
    -> String?
  {
    guard let path = plannedOutput(for: inputPath) else { return nil }
    let canonical = Self.canonical(path)
    if options.inputPaths.contains(where: { $0 != "-" && skipped[$0] == nil && Self.canonical($0) == canonical }) {
      throw FileError(path: inputPath, message: "the output \(path) is an input file; fxbatch never modifies its input")
    }
    guard claimed.insert(canonical).inserted else {
      throw FileError(path: inputPath, message: "another input in this run also writes \(path)")
    }
    return path
  }

  /// Whether a header is that of an fxbatch output (it ends with the annotation fields).
  static func isAnnotated(header: [String]) -> Bool {
    header.suffix(AnnotationColumn.allCases.count) == AnnotationColumn.allCases.map(\.rawValue)[...]
  }

  /// Whether a file is an earlier fxbatch output: its header (first non-blank record), or its first JSON record
  /// object, ends with the annotation fields.
  private func isAnnotatedOutput(_ path: String) -> Bool {
    switch options.format ?? RecordFormat.detect(readPath: path, displayPath: path, recordsPath: options.recordsPath) {
    case .csv: break
    case .json, .jsonl: return isAnnotatedJSONOutput(path)
    case .xml: return isAnnotatedXMLOutput(path)
    }
    guard let reader = try? CSVReader(path: path, delimiter: options.delimiter) else { return false }
    while let record = try? reader.next() {
      if record.isBlank { continue }
      return Self.isAnnotated(header: (0..<record.fieldCount).map { record.field($0).trimmingWhitespace })
    }
    return false
  }

  /// Inputs that are an earlier fxbatch output of another input of this run (a second
  /// `fxbatch convert *.csv` also matches the first run's `X.converted.csv`): they are skipped rather than
  /// read while being replaced. A file of the same name that is not an fxbatch output is never skipped, and
  /// then blocks the other input's output instead of being overwritten.
  private func inputsProducedByThisRun() -> [String: String] {
    var producer: [String: String] = [:]
    for input in options.inputPaths where input != "-" {
      if let output = plannedOutput(for: input) { producer[Self.canonical(output)] = input }
    }
    var skipped: [String: String] = [:]
    for input in options.inputPaths where input != "-" {
      if let source = producer[Self.canonical(input)], source != input, isAnnotatedOutput(input) { skipped[input] = source }
    }
    return skipped
  }

  private static func canonical(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  /// Copies standard input to a temporary file, so it can be read twice.
  private static func spoolStandardInput() throws(FileError) -> String {
    let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("fxbatch-stdin-\(getpid()).csv")
    do {
      let output = try AtomicFile(path: path, mode: 0o600)
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else {
          throw FileError(path: "-", message: "cannot read standard input: \(String(cString: strerror(errno)))")
        }
        if count == 0 { break }
        try output.sink.write(buffer[0..<count])
      }
      try output.commit()
      PendingFiles.add(path)  // removed after the run, or by an interrupt
    } catch let error as FileError {
      throw error
    } catch {
      throw FileError(path: "-", message: "cannot spool standard input: \(error)")
    }
    return path
  }

  /// Opens a file and reads its header.
  private func openFile(_ readPath: String, displayPath: String, delimiter: UInt8?) throws(FileError) -> (
    reader: CSVReader, leadingBlankLines: [CSVRecord], header: CSVRecord
  ) {
    do {
      let reader = try CSVReader(path: readPath, delimiter: delimiter)
      var blank: [CSVRecord] = []
      while let record = try reader.next() {
        if !record.isBlank { return (reader, blank, record) }
        blank.append(record)
      }
      throw CSVError.missingHeader
    } catch let error as CSVError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
  }

  /// Pass 1 over one file, in its format.
  private func scanFile(displayPath: String, readPath: String, outputPath: String?) throws(FileError) -> (FileScan, Set<RateKey>)
  {
    let format =
      options.format ?? RecordFormat.detect(readPath: readPath, displayPath: displayPath, recordsPath: options.recordsPath)
    switch format {
    case .csv: return try scanCSVFile(displayPath: displayPath, readPath: readPath, outputPath: outputPath)
    case .json, .jsonl:
      return try scanJSONFile(displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: format)
    case .xml: return try scanXMLFile(displayPath: displayPath, readPath: readPath, outputPath: outputPath)
    }
  }

  /// Pass 1 over a CSV file.
  private func scanCSVFile(displayPath: String, readPath: String, outputPath: String?) throws(FileError) -> (
    FileScan, Set<RateKey>
  ) {
    let (reader, _, header) = try openFile(readPath, displayPath: displayPath, delimiter: options.delimiter)
    let headerFields = (0..<header.fieldCount).map { header.field($0).trimmingWhitespace }
    if Self.isAnnotated(header: headerFields) {
      throw FileError(
        path: displayPath, line: header.line, column: 1,
        message:
          "the file is already annotated by fxbatch (its header has the fx_* fields); converting it again would repeat them",
        hint: "convert the original file instead")
    }
    let mapping: FieldMapping
    do {
      mapping = try FieldMapping.resolve(
        header: headerFields, names: options.fieldNames, fixedFrom: options.fixedFrom != nil, fixedTo: options.fixedTo != nil)
    } catch {
      throw FileError(path: displayPath, line: header.line, column: 1, message: error.description)
    }
    let normalizer = RecordNormalizer(
      mapping: mapping, headerFieldCount: header.fieldCount, fixedFrom: options.fixedFrom, fixedTo: options.fixedTo,
      dateFormat: options.dateFormat, defaultDay: defaultDay, currencies: options.currencies)
    var keys: Set<RateKey> = []
    var inference = DecimalMarkInference()
    do {
      while let record = try reader.next() {
        if record.isBlank { continue }
        if options.decimalMark == nil, let amount = normalizer.amountText(of: record) { inference.add(amount) }
        if case .success(let found) = normalizer.rateKey(of: record) { keys.insert(found.key) }
      }
    } catch let error as CSVError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    let (decimalMark, basis) =
      options.decimalMark.map { ($0, nil) } ?? inference.decide(delimiter: reader.delimiter)
    let scan = FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv, delimiter: reader.delimiter,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer,
      fields: Dictionary(
        uniqueKeysWithValues: [("amount", mapping.amount), ("from", mapping.from), ("to", mapping.to), ("date", mapping.date)]
          .compactMap { role, index in index.map { (role, headerFields[$0]) } }))
    return (scan, keys)
  }

  /// Pass 2 over one file: writes the annotated copy in the file's format.
  ///
  /// - Returns: the counts, the number of records without a date, and the converted amounts for the rounding
  ///   reconciliation.
  private func convert(_ scan: FileScan, quotes: [RateKey: Result<RateQuote, RowError>], standardOutput: Int32) throws(FileError)
    -> (RunReport.Counts, Int, ReconciliationLedger)
  {
    switch scan.format {
    case .json, .jsonl: return try convertJSON(scan, quotes: quotes, standardOutput: standardOutput)
    case .xml: return try convertXML(scan, quotes: quotes, standardOutput: standardOutput)
    case .csv: return try convertCSV(scan, quotes: quotes, standardOutput: standardOutput)
    }
  }

  /// The output of a file: a temporary file beside the target (renamed into place by its `commit()`), or
  /// standard output.
  func openOutput(_ scan: FileScan, standardOutput: Int32) throws(FileError) -> (file: AtomicFile?, sink: ByteSink) {
    guard let outputPath = scan.outputPath else { return (nil, ByteSink(descriptor: standardOutput)) }
    do {
      let file = try AtomicFile(path: outputPath, permissionsOf: scan.displayPath == "-" ? nil : scan.readPath)
      return (file, file.sink)
    } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
  }

  /// Pass 2 over a CSV file.
  private func convertCSV(_ scan: FileScan, quotes: [RateKey: Result<RateQuote, RowError>], standardOutput: Int32)
    throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger)
  {
    let (reader, leadingBlankLines, header) = try openFile(
      scan.readPath, displayPath: scan.displayPath, delimiter: scan.delimiter)
    let (atomicFile, sink) = try openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    let writer = CSVAnnotatingWriter(sink: sink, delimiter: scan.delimiter, headerFieldCount: header.fieldCount)
    let parser = AmountParser(decimalMark: scan.decimalMark, currencies: options.currencies)
    var counts = RunReport.Counts()
    var withoutDate = 0
    var ledger = ReconciliationLedger()
    do {
      try writer.writeHeader(header, byteOrderMark: reader.hasByteOrderMark, leadingBlankLines: leadingBlankLines)
      while let record = try reader.next() {
        if record.isBlank {
          try writer.writeBlank(record)
          continue
        }
        let outcome = self.outcome(
          of: scan.normalizer.fields(of: record), normalizer: scan.normalizer, parser: parser, quotes: quotes,
          withoutDate: &withoutDate, ledger: &ledger)
        counts.add(outcome)
        try writer.write(record, cells: outcome.cells(decimalMark: options.outputDecimalMark))
      }
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
    } catch let error as CSVError {
      throw FileError(path: scan.displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
    }
    return (counts, withoutDate, ledger)
  }

  /// The outcome of one record; checks run in field order: the record itself (field count, JSON shape),
  /// amount (its currency mark against the from-currency when that is known), currencies, date, rate. A
  /// converted record is added to `ledger`.
  func outcome(
    of fields: RecordFields, normalizer: RecordNormalizer, parser: AmountParser,
    quotes: [RateKey: Result<RateQuote, RowError>], withoutDate: inout Int, ledger: inout ReconciliationLedger
  ) -> RowOutcome {
    // Shifted CSV fields or a malformed JSON record: not even the to-field is trustworthy.
    if let problem = fields.problem { return .failed(problem, currency: nil, source: nil) }
    let target = normalizer.targetCurrency(of: fields)
    let keyResult = normalizer.rateKey(of: fields)
    let amount: ExactDecimal
    let from = try? keyResult.get().key.pair.base
    switch normalizer.amount(of: fields, parser: parser, currency: from) {
    case .success(let value): amount = value
    case .failure(let error): return .failed(error, currency: target, source: nil)
    }
    let key: RateKey
    switch keyResult {
    case .success(let found):
      key = found.key
      if found.usedDefaultDay { withoutDate += 1 }
    case .failure(let error): return .failed(error, currency: target, source: nil)
    }
    let quote: RateQuote
    switch quotes[key] ?? .failure(RowError(.noRate, "no rate was looked up for \(key.pair) on \(key.day)")) {
    case .success(let found): quote = found
    case .failure(let error): return .failed(error, currency: key.pair.quote, source: source.info.identifier)
    }
    let minorUnits = ISO4217.currency(for: key.pair.quote)?.minorUnits ?? 2
    guard let converted = quote.rate.convert(amount, minorUnits: minorUnits, rounding: options.rounding) else {
      return .failed(
        RowError(.amountOverflow, "\(amount) \(key.pair.base) in \(key.pair.quote) needs more than 38 digits"),
        currency: key.pair.quote, source: quote.source)
    }
    ledger.add(amount: amount, rate: quote.rate, rounded: converted, currency: key.pair.quote)
    return .converted(converted, currency: key.pair.quote, quote: quote)
  }
}
