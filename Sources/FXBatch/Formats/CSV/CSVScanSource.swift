/// Pass 1's CSV records for the engine's scan (``ScanSource``): a reader's records in place. A quoted field is
/// what a split at line feeds cannot handle (it may hold line feeds).
struct CSVScanSource: ScanSource {
  let reader: CSVReader

  var offset: Int { reader.nextRecordOffset }
  var line: Int { reader.nextLine }
  var cannotSplit: Bool { reader.sawQuotedField }

  func stop(at offset: Int) { reader.stop(at: offset) }

  @inline(__always)
  mutating func next(_ body: (CSVRecordView) throws -> Void) throws -> Bool {
    try reader.withNextRecord(body) != nil
  }
}

/// What pass 1 reads of a CSV record (``RecordFindings``): a record that is not blank gives its decimal-mark
/// evidence (``CSVFormat/addEvidence(of:normalizer:fastPath:to:)``), its date's evidence of the order of slash
/// dates, and, when the run asks for keys, its key
/// (``FieldKeyDecoder``, else the general rules).
struct CSVPassOne: RecordFindings {
  let normalizer: RecordNormalizer
  /// Whether the decimal mark is inferred (no `--decimal-separator`).
  let inferMark: Bool
  let fastPath: Bool
  var state: PassOneState
  /// Whether the records have a date field, and their amount columns (asked once, not per record: a record
  /// reads them without copying ``normalizer``).
  private let hasDateField: Bool
  private let amountColumn: Int?
  private let moreAmountColumns: ArraySlice<Int>
  private let dateColumn: Int?

  init(normalizer: RecordNormalizer, inferMark: Bool, fastPath: Bool, state: PassOneState) {
    self.normalizer = normalizer
    self.inferMark = inferMark
    self.fastPath = fastPath
    self.state = state
    hasDateField = normalizer.mapping?.date != nil
    dateColumn = normalizer.mapping?.date
    amountColumn = normalizer.mapping?.amount
    moreAmountColumns = normalizer.mapping?.amounts.dropFirst() ?? []
  }

  @inline(__always)
  mutating func read(_ view: CSVRecordView) {
    guard !view.isBlank else { return }
    if inferMark,
      !(fastPath
        && CSVFormat.addFastEvidence(
          of: view, amount: amountColumn, moreAmounts: moreAmountColumns, to: &state.inference))
    {
      let normalizer = normalizer
      CSVFormat.addGeneralEvidence(of: view, normalizer: normalizer, to: &state.inference)
    }
    if state.infersDates, hasDateField {
      if fastPath {
        state.addDateEvidence(decoded: { [dateColumn] in $0.dateEvidence(of: view, column: dateColumn) }) { $0.dateText(of: view.record) }
      } else {
        state.addDateEvidence(decoded: { _ in nil }) { $0.dateText(of: view.record) }
      }
    }
    guard state.readsKeys else { return }
    state.addKey(decoded: { $0.key(of: view) }) { normalizer in
      guard case .success(let found) = normalizer.rateKey(of: view.record) else { return nil }
      return found.key
    }
  }

  mutating func add(_ later: CSVPassOne) { state.add(later.state) }
}
