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

  @inline(__always)
  mutating func read(_ view: CSVRecordView) {
    guard !view.isBlank else { return }
    if inferMark { CSVFormat.addEvidence(of: view, normalizer: normalizer, fastPath: fastPath, to: &state.inference) }
    if state.infersDates, normalizer.mapping?.date != nil {
      let fastPath = fastPath
      state.addDateEvidence(decoded: { fastPath ? $0.dateEvidence(of: view) : nil }) {
        normalizer.dateText(of: view.record)
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
