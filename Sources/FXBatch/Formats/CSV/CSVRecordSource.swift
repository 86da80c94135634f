/// Pass 2's CSV records for the engine's record loop (``RecordSource``): a reader's records in place. Under a
/// provisional scan (``CSVScanDetails/isProvisional``) each record is checked first: no quoted field (a part of
/// the file split at line feeds may start inside one), and its decimal-mark and slash-date evidence is added up.
struct CSVRecordSource: RecordSource {
  typealias Reader = CSVFastRecordReader
  let reader: CSVReader
  let normalizer: RecordNormalizer
  /// Whether the scan is provisional, and whether its decimal mark was inferred (then checked here).
  let provisional: Bool
  let inferMark: Bool
  /// The records' decimal-mark evidence (under a provisional scan whose mark was inferred).
  var inference = DecimalMarkInference()
  /// The records' evidence of the order of slash dates (under a provisional scan, when the file decides it).
  var dates: CSVFormat.DateEvidence?
  /// The header's amount columns, read once (a record reads them without copying the normalizer's mapping).
  private let amountColumn: Int?
  private let moreAmountColumns: ArraySlice<Int>

  init(
    reader: CSVReader, normalizer: RecordNormalizer, provisional: Bool, inferMark: Bool,
    dates: CSVFormat.DateEvidence?
  ) {
    self.reader = reader
    self.normalizer = normalizer
    self.provisional = provisional
    self.inferMark = inferMark
    self.dates = dates
    amountColumn = normalizer.mapping?.amount
    moreAmountColumns = normalizer.mapping?.amounts.dropFirst() ?? []
  }

  var offset: Int { reader.nextRecordOffset }

  @inline(__always)
  mutating func next(between: (ByteView) throws -> Void, record: (CSVRecordView) throws -> Void) throws -> Bool {
    let read: Void? = try reader.withNextRecord { view throws in
      if provisional { try check(view) }
      try record(view)
    }
    return read != nil
  }

  @inline(__always)
  static func fastRecord(_ record: CSVRecordView) -> CSVRecordView { record }

  func addFindings(to result: inout PartResult) {
    result.inference.add(inference)
    if let dates { result.dates.add(dates.inference) }
  }

  private mutating func check(_ view: CSVRecordView) throws {
    if reader.sawQuotedField { throw CSVFormat.ProvisionalScanMismatch() }
    if inferMark, !view.isBlank,
      !CSVFormat.addFastEvidence(of: view, amount: amountColumn, moreAmounts: moreAmountColumns, to: &inference)
    {
      let normalizer = normalizer
      CSVFormat.addGeneralEvidence(of: view, normalizer: normalizer, to: &inference)
    }
    dates?.add(view)
  }
}

/// Writes a CSV record through the general path (``GeneralRecordWriter``): a blank line as it is, any other
/// record with its annotation fields (``CSVAnnotatingWriter``).
struct CSVGeneralWriter: GeneralRecordWriter {
  let sink: ByteSink
  let writer: CSVAnnotatingWriter
  let outputDecimalMark: DecimalMark
  let layout: AnnotationLayout

  mutating func write(_ view: CSVRecordView, general: inout GeneralRecordPath) throws {
    if view.isBlank {
      try sink.write(view.bytes)
      return
    }
    let record = view.record
    let outcome = general.outcome(of: general.normalizer.fields(of: record))
    try writer.write(record, cells: outcome.cells(decimalMark: outputDecimalMark, layout: layout))
  }
}
