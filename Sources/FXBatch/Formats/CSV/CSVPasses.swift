import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The two passes over CSV files.
extension CSVFormat {
  /// Opens a file and reads its header; under `--header` (``BatchOptions/header``) the header is the given names
  /// (written with the file's delimiter, as line 0: no line of the file) and every line of the file is a record.
  /// The file's lines are numbered from `firstLine` (`--first-line`). The lines before the header, copied as they
  /// are, are Excel's `sep=X` line (``CSVReader/separatorLine``) and blank lines.
  private static func openFile(
    _ readPath: String, displayPath: String, delimiter: UInt8?, limits: RecordLimits, header names: [String]?,
    firstLine: Int
  ) throws(FileError) -> (
    reader: CSVReader, leadingBlankLines: [CSVRecord], header: CSVRecord
  ) {
    do {
      let reader = try CSVReader(path: readPath, delimiter: delimiter, limits: limits, firstLine: firstLine)
      var blank: [CSVRecord] = reader.separatorLine.map { [$0] } ?? []
      if let names { return (reader, blank, givenHeader(names, delimiter: reader.delimiter)) }
      while let record = try reader.next() {
        if !record.isBlank { return (reader, blank, record) }
        blank.append(record)
      }
      throw reader.separatorLine.map { _ in CSVError.onlySeparatorLine(declared: reader.delimiter) } ?? .missingHeader
    } catch let error as CSVError {
      throw FileError(
        path: displayPath, line: error.line, column: error.column, message: error.description, hint: error.hint)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
  }

  /// Why a header is one field when Excel's `sep=X` line names its delimiter: the line names `,` and the header
  /// holds `;` (or another delimiter) and no `,`; `nil` when there is no `sep=` line, or the header is not one
  /// field holding another delimiter.
  private static func separatorLineContradiction(reader: CSVReader, header: CSVRecord) -> (message: String, hint: String)? {
    guard reader.separatorLine != nil, header.fieldCount == 1 else { return nil }
    let others = [",", ";", "\t", "|"].map { UInt8(ascii: $0) }.filter { $0 != reader.delimiter }
    func count(_ byte: UInt8) -> Int { header.raw.count { $0 == byte } }
    var seen = others[0]
    for other in others where count(other) > count(seen) { seen = other }
    guard count(seen) > 0 else { return nil }
    let (declared, found) = (CSVError.shown(reader.delimiter), CSVError.shown(seen))
    return (
      "Excel's first line sep=\(declared == "tab" ? "<tab>" : declared) names \(declared) as the delimiter, but the "
        + "header looks \(found)-delimited (\(RowError.quoted(header.field(0))))",
      "correct the first line to sep=\(found == "tab" ? "<tab>" : found), or delete it"
    )
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
          readPath, displayPath: displayPath, delimiter: options.delimiter, limits: options.limits, header: options.header,
          firstLine: options.firstLine
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
    let (reader, leadingBlankLines, header) = try openFile(
      readPath, displayPath: displayPath, delimiter: options.delimiter, limits: options.limits, header: options.header,
      firstLine: options.firstLine)
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
      // A header `--header` gives is no line of the input: the message names the option.
      let message = options.header == nil ? error.description : "--header: " + error.description
      if options.header == nil, let contradiction = separatorLineContradiction(reader: reader, header: header) {
        throw FileError(
          path: displayPath, line: header.line, column: 1, message: contradiction.message, hint: contradiction.hint)
      }
      throw FileError(path: displayPath, line: header.line, column: 1, message: message)
    }
    try checkUnreadFields(
      headerFields, mapping: mapping, header: header, readPath: readPath, displayPath: displayPath, options: options)
    let normalizer = RecordNormalizer(
      mapping: mapping, headerFieldCount: header.fieldCount, fixedFrom: options.fixedFrom, fixedTo: options.fixedTo,
      dateFormat: options.dateFormat, defaultDay: context.defaultDay, currencies: options.currencies,
      amountUnit: options.amountUnit, minorUnitOverrides: options.minorUnits)
    let inferMark = options.decimalMark == nil
    let useFastPath = options.fastPath
    // Under a local table, records are converted as they come in pass 2: no keys to collect, and a big file is
    // converted in parts on all cores; the parts start at record boundaries found here. Under a provider whose
    // answer is a table, every record is read (in parts too) for the span of days to ask it (``KeySpan``); under a
    // source that answers keys, for every key.
    let passOneKeys = context.passOneKeys
    let collectKeys = !context.hasConvertingTable && passOneKeys == nil
    let splitTargets =
      !context.passTwoConvertsFromTable
      ? []
      : PartsRunner.partTargets(
        fileSize: PartsRunner.fileSize(readPath), parts: options.parallelParts,
        minimumSize: options.parallelMinimumSize)
    /// What one record says about the decimal mark (safe on any thread: it touches nothing but `inference`).
    let addEvidence: @Sendable (CSVRecordView, inout DecimalMarkInference) -> Void = { view, inference in
      guard inferMark else { return }
      Self.addEvidence(of: view, normalizer: normalizer, fastPath: useFastPath, to: &inference)
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
      return (scan, RateKeyIndex())
    }
    if allowProvisional, context.allowsProvisionalScan, useFastPath, !collectKeys, passOneKeys == nil, !splitTargets.isEmpty,
      outputPath != nil,
      let (sample, sampleDates, starts, size) = try? Self.provisionalStarts(
        reader: reader, readPath: readPath, targets: splitTargets, normalizer: normalizer, scan: addEvidence)
    {
      let (decimalMark, basis) = options.decimalMark.map { ($0, nil) } ?? sample.decide(delimiter: reader.delimiter)
      if options.decimalMark != nil || decimalMark != nil {
        var scan = FileScan(
          displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv,
          decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
          normalizer: normalizer.reading(dates: sampleDates.format(given: normalizer.dateFormat)), fields: fields,
          details: CSVScanDetails(delimiter: reader.delimiter))
        scan.partStarts = starts.map { FileScan.PartStart(offset: $0, line: 0) }
        scan.size = size
        scan.csv.isProvisional = true
        return (scan, RateKeyIndex())
      }
    }
    let readMeter = ProgressMeter(
      file: displayPath, pass: 1, bytesTotal: PartsRunner.fileSize(readPath), handler: options.progress)
    let found: RecordScan.Scanned<CSVPassOne>
    do {
      // In parts unless every key is collected (a big file under a source that answers keys is read in one pass).
      found = try RecordScan.scanLines(
        CSVScanSource(reader: reader), readPath: readPath, targets: splitTargets, inParts: !collectKeys,
        meter: readMeter,
        findings: { _ in
          CSVPassOne(
            normalizer: normalizer, inferMark: inferMark, fastPath: useFastPath,
            state: PassOneState(
              normalizer: normalizer, span: passOneKeys, collectsKeys: collectKeys, decodesKeys: useFastPath))
        },
        open: { range in
          CSVScanSource(
            reader: try CSVReader(
              path: readPath, delimiter: reader.delimiter, range: range, line: 1, limits: reader.limits))
        },
        reopen: {
          CSVScanSource(
            reader: try openFile(
              readPath, displayPath: displayPath, delimiter: reader.delimiter, limits: options.limits,
              header: options.header, firstLine: options.firstLine
            ).reader)
        })
    } catch let error as CSVError {
      throw FileError(
        path: displayPath, line: error.line, column: error.column, message: error.description, hint: error.hint)
    } catch let error as FileError {
      throw error
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    var state = found.findings.state
    let (decimalMark, basis) =
      options.decimalMark.map { ($0, nil) } ?? state.inference.decide(delimiter: reader.delimiter)
    let dateFormat = state.settleDates()
    var scan = FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .csv,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer.reading(dates: dateFormat), fields: fields, details: CSVScanDetails(delimiter: reader.delimiter))
    scan.partStarts = found.partStarts
    scan.size = found.size
    return (scan, state.span?.keys ?? state.keys ?? RateKeyIndex())
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
        header: options.header, firstLine: options.firstLine)
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
        starts: starts, into: sink, temporaryPrefix: "fxbatch-part", loop: fastPass,
        general: context.generalPath(scan, quotes: quotes), meter: meter
      ) { part, partSink in
        let partReader =
          try part.start.map {
            try CSVReader(
              path: scan.readPath, delimiter: scan.csv.delimiter, range: part.range(to: scan.size), line: $0.line,
              limits: reader.limits)
          } ?? reader
        return (
          CSVRecordSource(
            reader: partReader, normalizer: scan.normalizer, provisional: provisional, inferMark: inferMark,
            dates: provisional && options.dateFormat.infersSlashDates ? DateEvidence(normalizer: scan.normalizer) : nil),
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
        guard result.dates.format(given: options.dateFormat) == scan.normalizer.dateFormat else {
          throw ProvisionalScanMismatch()
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

  /// The first records of a big file are read for a provisional scan (``FileScan/isProvisional``).
  static let provisionalSampleSize = 1 << 18

  /// A provisional pass 1: where the parts start, and the decimal-mark evidence of the records in the first
  /// ``provisionalSampleSize`` bytes.
  ///
  /// - Returns: the sample's evidence, the part starts and the file's size; `nil` when the part starts cannot be
  ///   found or the sample has a quoted field.
  private static func provisionalStarts(
    reader: CSVReader, readPath: String, targets: [Int], normalizer: RecordNormalizer,
    scan: @escaping @Sendable (CSVRecordView, inout DecimalMarkInference) -> Void
  ) throws -> (DecimalMarkInference, DateLayoutInference, [Int], Int)? {
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
    var dates = normalizer.dateFormat.infersSlashDates ? DateEvidence(normalizer: normalizer) : nil
    while let _ = try sample.withNextRecord({ view in
      scan(view, &inference)
      dates?.add(view)
    }) {
      if sample.sawQuotedField { return nil }
    }
    return (inference, dates?.inference ?? DateLayoutInference(), starts, size)
  }

  /// What CSV records say about the order of slash dates (``DateLayoutInference``), read as pass 1 reads them: in
  /// place through a decoder's cache, a quoted date by the general rule. Made only where the file decides the
  /// order (``DateFormat/infersSlashDates``).
  struct DateEvidence {
    private var decoder: FieldKeyDecoder
    private(set) var inference = DateLayoutInference()
    /// The header's date column; `nil`: none, nothing to read.
    private let column: Int?

    init(normalizer: RecordNormalizer) {
      decoder = FieldKeyDecoder(normalizer: normalizer)
      column = normalizer.mapping?.date
    }

    @inline(__always)
    mutating func add(_ view: CSVRecordView) {
      guard column != nil, !view.isBlank else { return }
      if let evidence = decoder.dateEvidence(of: view, column: column) {
        inference.add(evidence)
      } else if let text = decoder.normalizer.dateText(of: view.record) {
        inference.add(text)
      }
    }
  }

  /// Adds what one record says about the decimal mark (``FieldKeyDecoder/evidence(_:)``, else the general rule).
  @inline(__always)
  static func addEvidence(
    of view: CSVRecordView, normalizer: RecordNormalizer, fastPath: Bool, to inference: inout DecimalMarkInference
  ) {
    guard !view.isBlank else { return }
    if fastPath,
      addFastEvidence(
        of: view, amount: normalizer.mapping?.amount, moreAmounts: normalizer.mapping?.amounts.dropFirst() ?? [],
        to: &inference)
    {
      return
    }
    addGeneralEvidence(of: view, normalizer: normalizer, to: &inference)
  }

  /// ``addEvidence(of:normalizer:fastPath:to:)`` when every amount column reads on the fast path (`false`: none
  /// was added; the general rules read the record).
  @inline(__always)
  static func addFastEvidence(
    of view: CSVRecordView, amount: Int?, moreAmounts: ArraySlice<Int>, to inference: inout DecimalMarkInference
  ) -> Bool {
    guard let evidence = FieldKeyDecoder.evidence(view.field(amount)),
      moreAmounts.allSatisfy({ FieldKeyDecoder.evidence(view.field($0)) != nil })
    else { return false }
    inference.add(evidence)
    // Several amounts: every amount column says something about the mark, as in the general rules.
    for column in moreAmounts {
      if let evidence = FieldKeyDecoder.evidence(view.field(column)) { inference.add(evidence) }
    }
    return true
  }

  /// ``addEvidence(of:normalizer:fastPath:to:)`` by the general rules.
  static func addGeneralEvidence(
    of view: CSVRecordView, normalizer: RecordNormalizer, to inference: inout DecimalMarkInference
  ) {
    let record = view.record
    if let amount = normalizer.amountText(of: record) { inference.add(amount) }
    // Several amounts (the general path): every amount column says something about the mark.
    for amount in normalizer.moreAmountTexts(of: record) { inference.add(amount) }
  }
}
