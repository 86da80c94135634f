import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The two passes over CSV files.
extension CSVFormat {
  /// Opens a file and reads its header; under `--header` (``BatchOptions/header``) the header is the given names
  /// (written with the file's delimiter, as line 0) and every line of the file is a record.
  private static func openFile(
    _ readPath: String, displayPath: String, delimiter: UInt8?, limits: RecordLimits, header names: [String]?
  ) throws(FileError) -> (
    reader: CSVReader, leadingBlankLines: [CSVRecord], header: CSVRecord
  ) {
    do {
      let reader = try CSVReader(path: readPath, delimiter: delimiter, limits: limits)
      if let names { return (reader, [], givenHeader(names, delimiter: reader.delimiter)) }
      var blank: [CSVRecord] = []
      while let record = try reader.next() {
        if !record.isBlank { return (reader, blank, record) }
        blank.append(record)
      }
      throw CSVError.missingHeader
    } catch let error as CSVError {
      throw FileError(
        path: displayPath, line: error.line, column: error.column, message: error.description, hint: error.hint)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
  }

  /// The header line `--header` names: each name an RFC 4180 field (quoted when it holds the delimiter, a quote or
  /// a line end), on line 0, ended by LF.
  static func givenHeader(_ names: [String], delimiter: UInt8) -> CSVRecord {
    var raw: [UInt8] = []
    var ranges: [Range<Int>] = []
    for (index, name) in names.enumerated() {
      if index > 0 { raw.append(delimiter) }
      let start = raw.count
      raw += CSVAnnotatingWriter.quoted(name, delimiter: delimiter)
      ranges.append(start..<raw.count)
    }
    return CSVRecord(raw: raw, fieldRanges: ranges, terminator: [10], line: 0)
  }

  /// Refuses a file whose fields the run would pass over
  /// (``FileError/unreadField(names:located:options:path:line:column:nameKind:samples:)``): the header's names,
  /// and when a check needs them, the first non-empty values of the fields not read (``FieldSamples``, read by a
  /// second reader).
  private static func checkUnreadFields(
    _ names: [String], mapping: FieldMapping, header: CSVRecord, readPath: String, displayPath: String,
    options: BatchOptions
  ) throws(FileError) {
    let roles: [(FieldMapping.Role, Int?)] = [
      (.amount, mapping.amount), (.from, mapping.from), (.to, mapping.to), (.date, mapping.date),
    ]
    let located = Dictionary(uniqueKeysWithValues: roles.compactMap { role, index in index.map { (role, names[$0]) } })
    let error = FileError.unreadField(
      names: names, located: located, options: options, path: displayPath, line: header.line, column: 1,
      nameKind: "header fields"
    ) { taken in
      var samples = FieldSamples(skipping: taken)
      guard
        let reader = try? openFile(
          readPath, displayPath: displayPath, delimiter: options.delimiter, limits: options.limits, header: options.header
        ).reader
      else { return samples }
      while !samples.isComplete, let record = try? reader.next() {
        if record.isBlank { continue }
        samples.add((0..<min(record.fieldCount, names.count)).lazy.map { (names[$0], record.field($0)) })
      }
      return samples
    }
    if let error { throw error }
  }

  /// Pass 1 over a CSV file: its fields, the decimal mark of its amounts, and its distinct rate keys.
  ///
  /// Records go through ``FieldKeyDecoder`` (no copy, cached currencies and dates); one it cannot decide is
  /// copied and read by the general rules.
  ///
  /// A big file under a local table, written to a file, gets a provisional scan (``FileScan/isProvisional``)
  /// unless `allowProvisional` is `false`.
  static func scanCSVFile(
    displayPath: String, readPath: String, outputPath: String?, allowProvisional: Bool = true, readOnce: Bool = false,
    context: FormatContext
  ) throws(FileError) -> (FileScan, RateKeyIndex) {
    let options = context.options
    var (reader, leadingBlankLines, header) = try openFile(
      readPath, displayPath: displayPath, delimiter: options.delimiter, limits: options.limits, header: options.header)
    let headerFields = (0..<header.fieldCount).map { header.field($0).trimmingWhitespace }
    if AnnotationColumn.endAnnotated(headerFields) {
      throw FileError.alreadyAnnotated(
        path: displayPath, line: header.line, column: 1,
        evidence: "its header has the fx_* fields")
    }
    let mapping: FieldMapping
    do {
      mapping = try FieldMapping.resolve(
        header: headerFields, names: options.fieldNames, fixedFrom: options.fixedFrom != nil, fixedTo: options.fixedTo != nil)
    } catch {
      throw FileError(path: displayPath, line: header.line, column: 1, message: error.description)
    }
    try checkUnreadFields(
      headerFields, mapping: mapping, header: header, readPath: readPath, displayPath: displayPath, options: options)
    let normalizer = RecordNormalizer(
      mapping: mapping, headerFieldCount: header.fieldCount, fixedFrom: options.fixedFrom, fixedTo: options.fixedTo,
      dateFormat: options.dateFormat, defaultDay: context.defaultDay, currencies: options.currencies,
      amountUnit: options.amountUnit, minorUnitOverrides: options.minorUnits)
    var decoder = FieldKeyDecoder(normalizer: normalizer)
    var keys = RateKeyIndex()
    var inference = DecimalMarkInference()
    let inferMark = options.decimalMark == nil
    let useFastPath = options.fastPath
    // Under a local table, records are converted as they come in pass 2: no keys to collect, and a big file is
    // converted in parts on all cores; the parts start at record boundaries found here. Under a provider whose
    // answer is a table, every record is read (in parts too) for the span of days to ask it (``KeySpan``); under a
    // source that answers keys, for every key.
    let passOneKeys = context.passOneKeys
    let collectKeys = !context.hasConvertingTable && passOneKeys == nil
    var span = passOneKeys
    let splitTargets =
      !context.passTwoConvertsFromTable
      ? []
      : PartsRunner.partTargets(
        fileSize: PartsRunner.fileSize(readPath), parts: options.parallelParts,
        minimumSize: options.parallelMinimumSize)
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
      if span != nil, !view.isBlank {
        Self.addKey(of: view, decoder: &decoder, normalizer: normalizer, to: &span)
        return
      }
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
    if readOnce {
      // A stream in one pass: no keys to collect (a local table converts), the decimal mark given; pass 2 reads on.
      var details = CSVScanDetails(delimiter: reader.delimiter)
      details.opened = OpenedCSV(reader: reader, leadingBlankLines: leadingBlankLines, header: header)
      let scan = FileScan(
        displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv,
        decimalMark: options.decimalMark, decimalMarkInferred: false, decimalMarkBasis: nil, normalizer: normalizer,
        fields: fields, details: details)
      return (scan, keys)
    }
    if allowProvisional, context.allowsProvisionalScan, useFastPath, !collectKeys, span == nil, !splitTargets.isEmpty,
      outputPath != nil,
      let (sample, starts, size) = try? Self.provisionalStarts(
        reader: reader, readPath: readPath, targets: splitTargets, scan: addEvidence)
    {
      let (decimalMark, basis) = options.decimalMark.map { ($0, nil) } ?? sample.decide(delimiter: reader.delimiter)
      if options.decimalMark != nil || decimalMark != nil {
        var scan = FileScan(
          displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv,
          decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
          normalizer: normalizer, fields: fields, details: CSVScanDetails(delimiter: reader.delimiter))
        scan.partStarts = starts.map { FileScan.PartStart(offset: $0, line: 0) }
        scan.size = size
        scan.csv.isProvisional = true
        return (scan, keys)
      }
    }
    let readMeter = ProgressMeter(
      file: displayPath, pass: 1, bytesTotal: PartsRunner.fileSize(readPath), handler: options.progress)
    do {
      if !splitTargets.isEmpty, !collectKeys,
        let parallel = try Self.scanCSVInParts(
          reader: reader, readPath: readPath, targets: splitTargets, meter: readMeter,
          makeState: { _ in
            CSVPassOneState(decoder: FieldKeyDecoder(normalizer: normalizer), span: passOneKeys)
          },
          scan: { view, state in
            addEvidence(view, &state.inference)
            if state.span != nil, !view.isBlank {
              Self.addKey(of: view, decoder: &state.decoder, normalizer: normalizer, to: &state.span)
            }
          })
      {
        (inference, partStarts, size) = (parallel.0.inference, parallel.1, parallel.2)
        span = parallel.0.span
      } else {
        if !splitTargets.isEmpty, !collectKeys {  // the parts met a quoted field: read the file again, in one pass
          reader = try openFile(
            readPath, displayPath: displayPath, delimiter: reader.delimiter, limits: options.limits, header: options.header
          ).reader
          inference = DecimalMarkInference()
          span = passOneKeys
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
      throw FileError(
        path: displayPath, line: error.line, column: error.column, message: error.description, hint: error.hint)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    let (decimalMark, basis) =
      options.decimalMark.map { ($0, nil) } ?? inference.decide(delimiter: reader.delimiter)
    var scan = FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer, fields: fields, details: CSVScanDetails(delimiter: reader.delimiter))
    // The last record boundary may be the end of the file: no part starts there.
    scan.partStarts = partStarts.filter { $0.offset < size }
    scan.size = size
    return (scan, span?.keys ?? keys)
  }

  /// What pass 1 reads of a CSV file, per part.
  struct CSVPassOneState {
    var decoder: FieldKeyDecoder
    var inference = DecimalMarkInference()
    /// Under a table provider: the span of days to ask it.
    var span: KeySpan?

    mutating func add(_ later: CSVPassOneState) {
      inference.add(later.inference)
      if let other = later.span { span?.add(other) }
    }
  }

  /// Adds a record's key to a span (``FieldKeyDecoder``, else the general rules).
  @inline(__always)
  static func addKey(
    of view: CSVRecordView, decoder: inout FieldKeyDecoder, normalizer: RecordNormalizer, to span: inout KeySpan?
  ) {
    if let found = decoder.key(of: view) {
      span?.add(base: found.base, quote: found.quote, day: found.day)
    } else if case .success(let found) = normalizer.rateKey(of: view.record) {
      span?.add(found.key)
    }
  }

  /// Pass 2 over a CSV file.
  ///
  /// A record whose currencies, date and plain amount ``FieldKeyDecoder`` reads, and whose key has a rate, is
  /// converted and written from bytes (its raw bytes, then the annotation fields); any other record takes the
  /// general path (``RecordConverter/outcome(of:normalizer:parser:quotes:withoutDate:ledger:)`` and
  /// ``CSVAnnotatingWriter``), which gives the same output.
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
  static func convertCSV(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger, FileScan)
  {
    guard scan.csv.isProvisional else {
      return try convertCSVChecked(scan, context: context, quotes: quotes, standardOutput: standardOutput)
    }
    do {
      return try convertCSVChecked(scan, context: context, quotes: quotes, standardOutput: standardOutput)
    } catch {
      var (fresh, _) = try scanCSVFile(
        displayPath: scan.displayPath, readPath: scan.readPath, outputPath: scan.outputPath, allowProvisional: false,
        context: context)
      (fresh.encoding, fresh.readPathIsTemporary) = (scan.encoding, scan.readPathIsTemporary)
      return try convertCSVChecked(fresh, context: context, quotes: quotes, standardOutput: standardOutput)
    }
  }

  /// A provisional scan whose check failed in pass 2.
  struct ProvisionalScanMismatch: Error {}

  private static func convertCSVChecked(
    _ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32
  ) throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger, FileScan) {
    let options = context.options
    let (reader, leadingBlankLines, header): (CSVReader, [CSVRecord], CSVRecord)
    if let opened = scan.csv.opened {
      (reader, leadingBlankLines, header) = (opened.reader, opened.leadingBlankLines, opened.header)
    } else {
      (reader, leadingBlankLines, header) = try openFile(
        scan.readPath, displayPath: scan.displayPath, delimiter: scan.csv.delimiter, limits: options.limits,
        header: options.header)
    }
    let (atomicFile, sink) = try context.openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    // The fast path writes `.` decimal marks and the table's (or the answers') texts unquoted.
    let fastPass = context.fastLoop(scan, quotes: quotes, template: .csv(delimiter: scan.csv.delimiter)) {
      CSVFastRecordReader(
        delimiter: scan.csv.delimiter, decimalMark: scan.decimalMark?.byte,
        amountField: scan.normalizer.mapping?.amount, amountFields: scan.normalizer.mapping?.amounts ?? [])
    }
    do {
      let writer = CSVAnnotatingWriter(
        sink: sink, delimiter: scan.csv.delimiter, headerFieldCount: header.fieldCount, layout: context.annotationLayout)
      if options.writesHeader {
        try writer.writeHeader(header, byteOrderMark: reader.hasByteOrderMark, leadingBlankLines: leadingBlankLines)
      } else {
        try writer.writeLeading(byteOrderMark: reader.hasByteOrderMark, blankLines: leadingBlankLines)
      }
      let meter = ProgressMeter(file: scan.displayPath, pass: 2, bytesTotal: scan.size, handler: options.progress)
      // A big file under a fast loop in parts: part 0 on the reader after the header, the others over their ranges.
      let starts = fastPass == nil ? [] : scan.partStarts
      if let first = starts.first { reader.stop(at: first.offset) }
      let provisional = scan.csv.isProvisional
      let inferMark = provisional && options.decimalMark == nil
      let layout = context.annotationLayout
      let result = try RecordPass.convert(
        parts: starts.count + 1, into: sink, temporaryPrefix: "fxbatch-part", loop: fastPass,
        general: context.generalPath(scan, quotes: quotes), meter: meter
      ) { part, partSink in
        let partReader =
          part == 0
          ? reader
          : try CSVReader(
            path: scan.readPath, delimiter: scan.csv.delimiter,
            range: starts[part - 1].offset..<(part < starts.count ? starts[part].offset : scan.size),
            line: starts[part - 1].line, limits: reader.limits)
        return (
          CSVRecordSource(reader: partReader, normalizer: scan.normalizer, provisional: provisional, inferMark: inferMark),
          CSVGeneralWriter(
            sink: partSink,
            writer: CSVAnnotatingWriter(
              sink: partSink, delimiter: scan.csv.delimiter, headerFieldCount: header.fieldCount, layout: layout),
            outputDecimalMark: options.outputDecimalMark, layout: layout)
        )
      }
      var checked = scan
      if scan.csv.isProvisional {
        if options.decimalMark == nil {
          let (mark, basis) = result.inference.decide(delimiter: scan.csv.delimiter)
          guard mark == scan.decimalMark, basis == scan.decimalMarkBasis else { throw ProvisionalScanMismatch() }
        }
        checked.csv.isProvisional = false
      }
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
      return (result.counts, result.withoutDate, result.ledger, checked)
    } catch let error as CSVError {
      throw FileError(
        path: scan.displayPath, line: error.line, column: error.column, message: error.description, hint: error.hint)
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
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
    makeState: @escaping @Sendable (Int) -> CSVPassOneState,
    scan: @escaping @Sendable (CSVRecordView, inout CSVPassOneState) -> Void
  ) throws -> (CSVPassOneState, [FileScan.PartStart], Int)? {
    let size = PartsRunner.fileSize(readPath)
    guard
      let starts = PartsRunner.lineStarts(readPath, targets: targets, after: reader.nextRecordOffset, size: size)
    else { return nil }
    reader.stop(at: starts[0])
    let parts = starts.count + 1
    let offsets = starts
    let found = PartsRunner.scan(parts: parts) { part throws -> (CSVPassOneState, lines: Int, quoted: Bool) in
      let partReader =
        part == 0
        ? reader
        : try CSVReader(
          path: readPath, delimiter: reader.delimiter, range: offsets[part - 1]..<(part < offsets.count ? offsets[part] : size),
          line: 1, limits: reader.limits)
      var state = makeState(part)
      var ticker = ProgressMeter.Ticker(meter, from: partReader.nextRecordOffset)
      while let _ = try partReader.withNextRecord({ scan($0, &state) }) {
        if partReader.sawQuotedField { break }
        ticker.tick(at: partReader.nextRecordOffset)
      }
      return (state, partReader.nextLine, partReader.sawQuotedField)
    }
    var state: CSVPassOneState? = nil
    var partStarts: [FileScan.PartStart] = []
    var line = 0
    for part in 0..<parts {
      // A part that failed (a quoted field cut at its start leaves the part before it inside quotes) or met a
      // quoted field: the file is read again in one pass, which reports any real error at its own line.
      guard let result = try? found[part].get(), !result.quoted else { return nil }
      if state == nil { state = result.0 } else { state?.add(result.0) }
      // Part 0 continues the header's line numbers; the others count from 1.
      line = part == 0 ? result.lines : line + result.lines - 1
      if part < starts.count { partStarts.append(FileScan.PartStart(offset: starts[part], line: line)) }
    }
    guard let state else { return nil }
    return (state, partStarts, size)
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
    let size = PartsRunner.fileSize(readPath)
    let first = reader.nextRecordOffset
    guard let starts = PartsRunner.lineStarts(readPath, targets: targets, after: first, size: size) else { return nil }
    let sampleEnd =
      first + provisionalSampleSize < starts[0]
      ? PartsRunner.lineStarts(readPath, targets: [first + provisionalSampleSize], after: first, size: size)?.first
        ?? starts[0]
      : starts[0]
    let sample = try CSVReader(
      path: readPath, delimiter: reader.delimiter, range: first..<sampleEnd, line: reader.nextLine,
      limits: reader.limits)
    var inference = DecimalMarkInference()
    while let _ = try sample.withNextRecord({ scan($0, &inference) }) {
      if sample.sawQuotedField { return nil }
    }
    return (inference, starts, size)
  }

  /// Adds what one record says about the decimal mark (``FieldKeyDecoder/evidence(_:)``, else the general rule).
  @inline(__always)
  static func addEvidence(
    of view: CSVRecordView, normalizer: RecordNormalizer, fastPath: Bool, to inference: inout DecimalMarkInference
  ) {
    guard !view.isBlank else { return }
    let moreAmounts = normalizer.mapping?.amounts.dropFirst() ?? []
    if fastPath, let evidence = FieldKeyDecoder.evidence(view.field(normalizer.mapping?.amount)),
      moreAmounts.allSatisfy({ FieldKeyDecoder.evidence(view.field($0)) != nil })
    {
      inference.add(evidence)
      // Several amounts: every amount column says something about the mark, as in the general rules below.
      for column in moreAmounts {
        if let evidence = FieldKeyDecoder.evidence(view.field(column)) { inference.add(evidence) }
      }
    } else {
      let record = view.record
      if let amount = normalizer.amountText(of: record) { inference.add(amount) }
      // Several amounts (the general path): every amount column says something about the mark.
      for amount in normalizer.moreAmountTexts(of: record) { inference.add(amount) }
    }
  }
}
