import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension BatchJob {
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

  /// Pass 1 over a CSV file: its fields, the decimal mark of its amounts, and its distinct rate keys.
  ///
  /// Records go through ``CSVFieldDecoder`` (no copy, cached currencies and dates); one it cannot decide is
  /// copied and read by the general rules.
  ///
  /// A big file under a local table, written to a file, gets a provisional scan (``FileScan/isProvisional``)
  /// unless `allowProvisional` is `false`.
  func scanCSVFile(displayPath: String, readPath: String, outputPath: String?, allowProvisional: Bool = true)
    throws(FileError) -> (FileScan, RateKeyIndex)
  {
    var (reader, _, header) = try openFile(readPath, displayPath: displayPath, delimiter: options.delimiter)
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
    var decoder = CSVFieldDecoder(normalizer: normalizer)
    var keys = RateKeyIndex()
    var inference = DecimalMarkInference()
    let inferMark = options.decimalMark == nil
    let useFastPath = options.fastPath
    // Under a local table, records are converted as they come in pass 2: no keys to collect, and a big file is
    // converted in parts on all cores; the parts start at record boundaries found here.
    let collectKeys = convertingTable == nil
    let splitTargets =
      collectKeys
      ? []
      : Self.partTargets(
        fileSize: Self.fileSize(readPath), parts: options.parallelParts, minimumSize: options.parallelMinimumSize)
    var partStarts: [FileScan.PartStart] = []
    var size = 0
    /// What one record says about the decimal mark (safe on any thread: it touches nothing but `inference`).
    let addEvidence: @Sendable (CSVRecordView, inout DecimalMarkInference) -> Void = { view, inference in
      guard inferMark else { return }
      Self.addEvidence(of: view, normalizer: normalizer, fastPath: useFastPath, to: &inference)
    }
    /// What pass 1 learns from one record.
    func scanRecord(_ view: CSVRecordView, inference: inout DecimalMarkInference) {
      addEvidence(view, &inference)
      guard collectKeys, !view.isBlank else { return }
      if useFastPath, let found = decoder.key(of: view),
        let packed = RateKeyIndex.pack(base: found.base, quote: found.quote, day: found.day)
      {
        keys.insert(packed)
      } else if case .success(let found) = normalizer.rateKey(of: view.record), let packed = RateKeyIndex.pack(found.key) {
        keys.insert(packed)
      }
    }
    let fields = Dictionary(
      uniqueKeysWithValues: [("amount", mapping.amount), ("from", mapping.from), ("to", mapping.to), ("date", mapping.date)]
        .compactMap { role, index in index.map { (role, headerFields[$0]) } })
    if allowProvisional, useFastPath, !splitTargets.isEmpty, outputPath != nil,
      let (sample, starts, size) = try? Self.provisionalStarts(
        reader: reader, readPath: readPath, targets: splitTargets, scan: addEvidence)
    {
      let (decimalMark, basis) = options.decimalMark.map { ($0, nil) } ?? sample.decide(delimiter: reader.delimiter)
      if options.decimalMark != nil || decimalMark != nil {
        var scan = FileScan(
          displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv, delimiter: reader.delimiter,
          decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
          normalizer: normalizer, fields: fields)
        scan.partStarts = starts.map { FileScan.PartStart(offset: $0, line: 0) }
        scan.size = size
        scan.isProvisional = true
        return (scan, keys)
      }
    }
    let readMeter = ProgressMeter(
      file: displayPath, pass: 1, bytesTotal: Self.fileSize(readPath), handler: options.progress)
    do {
      if !splitTargets.isEmpty,
        let parallel = try Self.scanCSVInParts(
          reader: reader, readPath: readPath, targets: splitTargets, meter: readMeter, scan: addEvidence)
      {
        (inference, partStarts, size) = parallel
      } else {
        if !splitTargets.isEmpty {  // the parts met a quoted field: read the file again, in one pass
          reader = try openFile(readPath, displayPath: displayPath, delimiter: reader.delimiter).reader
          inference = DecimalMarkInference()
        }
        var ticker = ProgressMeter.Ticker(readMeter, from: reader.nextRecordOffset)
        while let _ = try reader.withNextRecord({ scanRecord($0, inference: &inference) }) {
          if partStarts.count < splitTargets.count, reader.nextRecordOffset >= splitTargets[partStarts.count] {
            partStarts.append(FileScan.PartStart(offset: reader.nextRecordOffset, line: reader.nextLine))
          }
          ticker.tick(at: reader.nextRecordOffset)
        }
        size = reader.nextRecordOffset
      }
    } catch let error as CSVError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    let (decimalMark, basis) =
      options.decimalMark.map { ($0, nil) } ?? inference.decide(delimiter: reader.delimiter)
    var scan = FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv, delimiter: reader.delimiter,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer, fields: fields)
    // The last record boundary may be the end of the file: no part starts there.
    scan.partStarts = partStarts.filter { $0.offset < size }
    scan.size = size
    return (scan, keys)
  }

  /// Pass 2 over a CSV file.
  ///
  /// A record whose currencies, date and plain amount ``CSVFieldDecoder`` reads, and whose key has a rate, is
  /// converted and written from bytes (its raw bytes, then the annotation fields); any other record takes the
  /// general path (``outcome(of:normalizer:parser:quotes:withoutDate:ledger:)`` and ``CSVAnnotatingWriter``),
  /// which gives the same output.
  ///
  /// A big file under a local table is converted in parts (``FileScan/partStarts``) on all cores: the first part
  /// writes to the output, each other part to a temporary file, and the temporary files are appended in order,
  /// so the output is the same as one pass would write.
  ///
  /// A provisional scan (``FileScan/isProvisional``) is checked here: every record's decimal-mark evidence adds
  /// up to the same decision, and no part meets a quoted field; else (or on any error, whose line the parts do
  /// not know) the output is discarded and the file read again in two full passes.
  ///
  /// - Returns: the counts, records without a date, the reconciliation figures, and the scan (no longer
  ///   provisional).
  func convertCSV(_ scan: FileScan, quotes: QuoteBook, standardOutput: Int32) throws(FileError) -> (
    RunReport.Counts, Int, ReconciliationLedger, FileScan
  ) {
    guard scan.isProvisional else { return try convertCSVChecked(scan, quotes: quotes, standardOutput: standardOutput) }
    do {
      return try convertCSVChecked(scan, quotes: quotes, standardOutput: standardOutput)
    } catch {
      let (fresh, _) = try scanCSVFile(
        displayPath: scan.displayPath, readPath: scan.readPath, outputPath: scan.outputPath, allowProvisional: false)
      return try convertCSVChecked(fresh, quotes: quotes, standardOutput: standardOutput)
    }
  }

  /// A provisional scan whose check failed in pass 2.
  private struct ProvisionalScanMismatch: Error {}

  private func convertCSVChecked(_ scan: FileScan, quotes: QuoteBook, standardOutput: Int32) throws(FileError) -> (
    RunReport.Counts, Int, ReconciliationLedger, FileScan
  ) {
    let (reader, leadingBlankLines, header) = try openFile(
      scan.readPath, displayPath: scan.displayPath, delimiter: scan.delimiter)
    let (atomicFile, sink) = try openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    var fastPass: CSVFastPass? = nil
    if let table = convertingTable {
      let converter = TableConverter(table: table, maxStaleness: options.maxStaleness, rounding: options.rounding)
      // The fast path writes `.` decimal marks and the table's texts unquoted.
      if options.outputDecimalMark == .point, converter.textsAreSafe(in: .csv(delimiter: scan.delimiter)) {
        fastPass = CSVFastPass(
          decoder: CSVFieldDecoder(normalizer: scan.normalizer), converter: converter, delimiter: scan.delimiter,
          decimalMark: scan.decimalMark?.byte, amountField: scan.normalizer.mapping?.amount)
      }
    }
    do {
      let writer = CSVAnnotatingWriter(sink: sink, delimiter: scan.delimiter, headerFieldCount: header.fieldCount)
      try writer.writeHeader(header, byteOrderMark: reader.hasByteOrderMark, leadingBlankLines: leadingBlankLines)
      var result: PartResult
      let meter = ProgressMeter(file: scan.displayPath, pass: 2, bytesTotal: scan.size, handler: options.progress)
      if let fastPass, !scan.partStarts.isEmpty {
        result = try convertCSVInParts(
          scan, first: reader, headerFieldCount: header.fieldCount, sink: sink, fastPass: fastPass, quotes: quotes,
          meter: meter)
      } else {
        result = try convertCSVPart(
          scan, reader: reader, headerFieldCount: header.fieldCount, sink: sink, fastPass: fastPass, quotes: quotes,
          meter: meter)
      }
      var checked = scan
      if scan.isProvisional {
        if options.decimalMark == nil {
          let (mark, basis) = result.inference.decide(delimiter: scan.delimiter)
          guard mark == scan.decimalMark, basis == scan.decimalMarkBasis else { throw ProvisionalScanMismatch() }
        }
        checked.isProvisional = false
      }
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
      return (result.counts, result.withoutDate, result.ledger, checked)
    } catch let error as CSVError {
      throw FileError(path: scan.displayPath, line: error.line, column: error.column, message: error.description)
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
    }
  }

  /// What converting a part of a file gave.
  struct PartResult {
    var counts = RunReport.Counts()
    var withoutDate = 0
    var ledger: ReconciliationLedger
    /// The decimal-mark evidence of the records (read only for a provisional scan).
    var inference = DecimalMarkInference()

    mutating func add(_ other: PartResult) {
      counts.add(other.counts)
      withoutDate += other.withoutDate
      ledger.add(other.ledger)
      inference.add(other.inference)
    }
  }

  /// Converts the records a reader has left, writing them to `sink`.
  private func convertCSVPart(
    _ scan: FileScan, reader: CSVReader, headerFieldCount: Int, sink: ByteSink, fastPass: CSVFastPass?, quotes: QuoteBook,
    meter: ProgressMeter?
  ) throws -> PartResult {
    var ticker = ProgressMeter.Ticker(meter, from: reader.nextRecordOffset)
    let writer = CSVAnnotatingWriter(sink: sink, delimiter: scan.delimiter, headerFieldCount: headerFieldCount)
    let parser = AmountParser(decimalMark: scan.decimalMark, currencies: options.currencies)
    // Separate variables: two `inout` fields of one captured struct at once are overlapping accesses.
    var counts = RunReport.Counts()
    var withoutDate = 0
    var ledger = ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies)
    // A provisional scan: the decimal mark's evidence of every record, and no quoted field (a part of the file
    // split at line feeds may start inside one).
    let provisional = scan.isProvisional
    let inferMark = provisional && options.decimalMark == nil
    var inference = DecimalMarkInference()
    @inline(__always) func check(_ view: CSVRecordView) throws {
      guard provisional else { return }
      if reader.sawQuotedField { throw ProvisionalScanMismatch() }
      if inferMark { Self.addEvidence(of: view, normalizer: scan.normalizer, fastPath: true, to: &inference) }
    }
    /// Writes one record through the general path.
    func writeGeneral(_ view: CSVRecordView) throws {
      if view.isBlank {
        try sink.write(view.terminator)
        return
      }
      let record = view.record
      let outcome = self.outcome(
        of: scan.normalizer.fields(of: record), normalizer: scan.normalizer, parser: parser, quotes: quotes,
        withoutDate: &withoutDate, ledger: &ledger)
      counts.add(outcome)
      try writer.write(record, cells: outcome.cells(decimalMark: options.outputDecimalMark))
    }
    if var fastPass {  // not optional in the loop: force-unwrapping it per record copied it
      while let _ = try reader.withNextRecord({ view throws in
        try check(view)
        if try fastPass.convert(view, sink: sink) { return }
        try fastPass.flush(to: sink)
        try writeGeneral(view)
      }) { ticker.tick(at: reader.nextRecordOffset) }
      try fastPass.flush(to: sink)
      counts.add(fastPass.counts)
      withoutDate += fastPass.withoutDate
      fastPass.converter.flush(into: &ledger)
    } else {
      while let _ = try reader.withNextRecord({ view throws in
        try check(view)
        try writeGeneral(view)
      }) { ticker.tick(at: reader.nextRecordOffset) }
    }
    try sink.flush()
    return PartResult(counts: counts, withoutDate: withoutDate, ledger: ledger, inference: inference)
  }

  /// Converts a file's records in parts on several threads (see ``convertCSV(_:quotes:standardOutput:)``).
  private func convertCSVInParts(
    _ scan: FileScan, first: CSVReader, headerFieldCount: Int, sink: ByteSink, fastPass: CSVFastPass, quotes: QuoteBook,
    meter: ProgressMeter?
  ) throws -> PartResult {
    let starts = scan.partStarts
    first.stop(at: starts[0].offset)
    let parts = starts.count + 1
    let outcomes = Mutex<[Int: Result<(PartResult, String?), Error>]>([:])
    let work = UncheckedSendable((self, scan, first, sink, fastPass, quotes))
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let (job, scan, first, sink, fastPass, quotes) = work.value
      let outcome: Result<(PartResult, String?), Error> = Result {
        if part == 0 {
          let result = try job.convertCSVPart(
            scan, reader: first, headerFieldCount: headerFieldCount, sink: sink, fastPass: fastPass, quotes: quotes,
            meter: meter)
          return (result, nil)
        }
        let end = part < starts.count ? starts[part].offset : scan.size
        let reader = try CSVReader(
          path: scan.readPath, delimiter: scan.delimiter, range: starts[part - 1].offset..<end, line: starts[part - 1].line)
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("fxbatch-part-\(getpid())-\(UUID().uuidString)")
        let temporary = try AtomicFile(path: path, mode: 0o600)
        PendingFiles.add(path)
        defer { temporary.discard() }
        var partFastPass = fastPass
        partFastPass.restart()
        let result = try job.convertCSVPart(
          scan, reader: reader, headerFieldCount: headerFieldCount, sink: temporary.sink, fastPass: partFastPass,
          quotes: quotes, meter: meter)
        try temporary.commit()
        return (result, path)
      }
      outcomes.withLock { $0[part] = outcome }
    }
    return try joinParts(outcomes.withLock { $0 }, count: parts, into: sink)
  }

  /// Adds up the results of a file's parts (CSV, JSON Lines, XML) and appends the temporary outputs of parts
  /// 1… to `sink` in order (part 0 wrote to it directly); the temporary files are removed whatever happens.
  ///
  /// - Parameter outcomes: per part, its result and its temporary file (`nil` for part 0), or its error.
  /// - Throws: the first failing part's error, in part order, or the append's.
  func joinParts(_ outcomes: [Int: Result<(PartResult, String?), Error>], count parts: Int, into sink: ByteSink) throws
    -> PartResult
  {
    defer {
      for case .success((_, let path?)) in outcomes.values {
        unlink(path)
        PendingFiles.remove(path)
      }
    }
    var total = PartResult(ledger: ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies))
    for part in 0..<parts {
      guard let outcome = outcomes[part] else { continue }
      let (result, path) = try outcome.get()
      if let path { try Self.append(path, to: sink) }
      total.add(result)
    }
    return total
  }

  /// Copies a file's bytes to a sink.
  static func append(_ path: String, to sink: ByteSink) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw OutputError.writeFailed(reason: "cannot reopen \(path): \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    if try sink.transfer(from: descriptor) { return }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = FileBytes.read(from: descriptor, into: &buffer)
      guard count >= 0 else { throw OutputError.writeFailed(reason: String(cString: strerror(errno))) }
      if count == 0 { return }
      try sink.write(buffer[0..<count])
    }
  }

  /// Pass 1 in parts on all cores, for a file without quoted fields, where a record starts after every line
  /// feed: each part is read from the first record after its target offset, and the parts' decimal-mark
  /// counts add up.
  ///
  /// - Parameters:
  ///   - reader: the reader after the header; it reads the first part.
  ///   - scan: pass 1's work on one record.
  /// - Returns: the decimal-mark counts, the part starts (with their lines) and the file's size; `nil` when a
  ///   part met a quoted field (it may hold line feeds, so the caller reads the file in one pass instead).
  private static func scanCSVInParts(
    reader: CSVReader, readPath: String, targets: [Int], meter: ProgressMeter?,
    scan: @escaping @Sendable (CSVRecordView, inout DecimalMarkInference) -> Void
  ) throws -> (DecimalMarkInference, [FileScan.PartStart], Int)? {
    let size = fileSize(readPath)
    guard let starts = lineStarts(readPath, targets: targets, after: reader.nextRecordOffset, size: size) else { return nil }
    reader.stop(at: starts[0])
    let parts = starts.count + 1
    let offsets = starts
    let results = Mutex<[Int: Result<(DecimalMarkInference, lines: Int, quoted: Bool), Error>]>([:])
    let work = UncheckedSendable(reader)
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let first = work.value
      let result = Result { () throws -> (DecimalMarkInference, lines: Int, quoted: Bool) in
        let partReader =
          part == 0
          ? first
          : try CSVReader(
            path: readPath, delimiter: first.delimiter, range: offsets[part - 1]..<(part < offsets.count ? offsets[part] : size),
            line: 1)
        var inference = DecimalMarkInference()
        var ticker = ProgressMeter.Ticker(meter, from: partReader.nextRecordOffset)
        while let _ = try partReader.withNextRecord({ scan($0, &inference) }) {
          if partReader.sawQuotedField { break }
          ticker.tick(at: partReader.nextRecordOffset)
        }
        return (inference, partReader.nextLine, partReader.sawQuotedField)
      }
      results.withLock { $0[part] = result }
    }
    let found = results.withLock { $0 }
    var inference = DecimalMarkInference()
    var partStarts: [FileScan.PartStart] = []
    var line = 0
    for part in 0..<parts {
      // A part that failed (a quoted field cut at its start leaves the part before it inside quotes) or met a
      // quoted field: the file is read again in one pass, which reports any real error at its own line.
      guard let result = try? found[part]?.get(), !result.quoted else { return nil }
      inference.add(result.0)
      // Part 0 continues the header's line numbers; the others count from 1.
      line = part == 0 ? result.lines : line + result.lines - 1
      if part < starts.count { partStarts.append(FileScan.PartStart(offset: starts[part], line: line)) }
    }
    return (inference, partStarts, size)
  }

  /// The offsets of the first line after each target offset (after the first line feed at or after it), for
  /// parts of a file where a record starts after every line feed (CSV without quoted fields, JSON Lines); `nil`
  /// when one is missing, not after `first`, or not after the one before.
  static func lineStarts(_ readPath: String, targets: [Int], after first: Int, size: Int) -> [Int]? {
    var starts: [Int] = []
    let descriptor = open(readPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var window = [UInt8](repeating: 0, count: 1 << 16)
    for target in targets {
      let count = FileBytes.read(from: descriptor, into: &window, fileOffset: target - 1)
      guard count > 0, let feed = window[0..<count].firstIndex(of: 10) else { return nil }
      let start = target - 1 + feed + 1
      guard start > first, start > (starts.last ?? 0), start < size else { return nil }
      starts.append(start)
    }
    return starts
  }

  /// The first records of a big file are read for a provisional scan (``FileScan/isProvisional``).
  static let provisionalSampleSize = 1 << 18

  /// A provisional pass 1: where the parts start, and the decimal-mark evidence of the records in the first
  /// ``provisionalSampleSize`` bytes.
  ///
  /// - Returns: the sample's evidence, the part starts and the file's size; `nil` when the part starts cannot be
  ///   found or the sample has a quoted field.
  private static func provisionalStarts(
    reader: CSVReader, readPath: String, targets: [Int],
    scan: @escaping @Sendable (CSVRecordView, inout DecimalMarkInference) -> Void
  ) throws -> (DecimalMarkInference, [Int], Int)? {
    let size = fileSize(readPath)
    let first = reader.nextRecordOffset
    guard let starts = lineStarts(readPath, targets: targets, after: first, size: size) else { return nil }
    let sampleEnd =
      first + provisionalSampleSize < starts[0]
      ? lineStarts(readPath, targets: [first + provisionalSampleSize], after: first, size: size)?.first ?? starts[0]
      : starts[0]
    let sample = try CSVReader(path: readPath, delimiter: reader.delimiter, range: first..<sampleEnd, line: reader.nextLine)
    var inference = DecimalMarkInference()
    while let _ = try sample.withNextRecord({ scan($0, &inference) }) {
      if sample.sawQuotedField { return nil }
    }
    return (inference, starts, size)
  }

  /// Adds what one record says about the decimal mark (``CSVFieldDecoder/evidence(_:)``, else the general rule).
  @inline(__always)
  static func addEvidence(
    of view: CSVRecordView, normalizer: RecordNormalizer, fastPath: Bool, to inference: inout DecimalMarkInference
  ) {
    guard !view.isBlank else { return }
    if fastPath, let evidence = CSVFieldDecoder.evidence(view.field(normalizer.mapping?.amount)) {
      inference.add(evidence)
    } else if let amount = normalizer.amountText(of: view.record) {
      inference.add(amount)
    }
  }

  /// The file offsets near which parts should start, for a file of `fileSize` bytes in `parts` parts; none for a
  /// file too small to be worth it.
  static func partTargets(fileSize: Int, parts: Int, minimumSize: Int) -> [Int] {
    guard parts > 1, fileSize >= minimumSize else { return [] }
    return (1..<parts).map { fileSize / parts * $0 }
  }

  static func fileSize(_ path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(status.st_size)
  }
}

/// A value handed to the threads of ``DispatchQueue/concurrentPerform(iterations:execute:)``: each thread
/// reads it and owns its copies. The CSV, JSON Lines and XML parts use it; the only shared objects the threads
/// touch are the first part's reader and the output sink, which only thread 0 uses.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
