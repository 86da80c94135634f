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
  func scanCSVFile(displayPath: String, readPath: String, outputPath: String?) throws(FileError) -> (
    FileScan, RateKeyIndex
  ) {
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
      guard inferMark, !view.isBlank else { return }
      if useFastPath, let evidence = CSVFieldDecoder.evidence(view.field(mapping.amount)) {
        inference.add(evidence)
      } else if let amount = normalizer.amountText(of: view.record) {
        inference.add(amount)
      }
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
      normalizer: normalizer,
      fields: Dictionary(
        uniqueKeysWithValues: [("amount", mapping.amount), ("from", mapping.from), ("to", mapping.to), ("date", mapping.date)]
          .compactMap { role, index in index.map { (role, headerFields[$0]) } }))
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
  func convertCSV(_ scan: FileScan, quotes: QuoteBook, standardOutput: Int32) throws(FileError) -> (
    RunReport.Counts, Int, ReconciliationLedger
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
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
      return (result.counts, result.withoutDate, result.ledger)
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

    mutating func add(_ other: PartResult) {
      counts.add(other.counts)
      withoutDate += other.withoutDate
      ledger.add(other.ledger)
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
    /// Writes one record through the general path.
    func writeGeneral(_ view: CSVRecordView) throws {
      if view.isBlank {
        try sink.write(UnsafeBufferPointer(rebasing: view.bytes[view.length...]))
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
        if try fastPass.convert(view, sink: sink) { return }
        try fastPass.flush(to: sink)
        try writeGeneral(view)
      }) { ticker.tick(at: reader.nextRecordOffset) }
      try fastPass.flush(to: sink)
      counts.add(fastPass.counts)
      withoutDate += fastPass.withoutDate
      fastPass.converter.flush(into: &ledger)
    } else {
      while let _ = try reader.withNextRecord({ try writeGeneral($0) }) { ticker.tick(at: reader.nextRecordOffset) }
    }
    try sink.flush()
    return PartResult(counts: counts, withoutDate: withoutDate, ledger: ledger)
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
    let results = outcomes.withLock { $0 }
    defer {
      for case .success((_, let path?)) in results.values {
        unlink(path)
        PendingFiles.remove(path)
      }
    }
    var total = PartResult(ledger: ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies))
    for part in 0..<parts {
      guard let outcome = results[part] else { continue }
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
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
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
    // Each part starts after the first line feed at or after its target.
    var starts: [Int] = []
    let descriptor = open(readPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var window = [UInt8](repeating: 0, count: 1 << 16)
    for target in targets {
      let count = window.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(target - 1)) }
      guard count > 0, let feed = window[0..<count].firstIndex(of: 10) else { return nil }
      let start = target - 1 + feed + 1
      guard start > reader.nextRecordOffset, start > (starts.last ?? 0), start < size else { return nil }
      starts.append(start)
    }
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
/// reads it and owns its copies; only ``BatchJob/convertCSVInParts`` uses it, where the one shared object the
/// threads touch is the first part's reader, which only thread 0 uses.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
