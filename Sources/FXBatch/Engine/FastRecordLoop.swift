/// Pass 2's per-record fast path under a local rate table, for every text format: the format's reader
/// (``FastRecordReader``) reads a record's key and plain amounts in place; the engine's per-record rule
/// (``FastRecordConverter``) takes the amounts to major units, converts and counts the record; the loop appends
/// the record's bytes with the annotation where the reader says — or the record is declined, and the caller
/// flushes (``flush(to:)``) and writes it through the general path.
///
/// Generic over the reader, so the compiler specialises the loop for each format (no existential per record).
/// One value holds all the per-record state, so the record loop touches it through one `inout` access.
struct FastRecordLoop<Reader: FastRecordReader> {
  var reader: Reader
  /// The per-record rule: the key decoder the reader decodes through, the converter, the counts.
  private var core: FastRecordConverter
  /// Output not yet handed to the sink (``flush(to:)`` before the general path writes a record).
  private var pending = ByteBuffer(capacity: Self.pendingLimit + (1 << 16))
  private static var pendingLimit: Int { 1 << 20 }

  init(reader: Reader, keys: FieldKeyDecoder, converter: TableConverter, skipRule: RowSkipRule) {
    self.reader = reader
    core = FastRecordConverter(keys: keys, converter: converter, skipRule: skipRule)
  }

  /// Clears the counts and figures and gives this copy its own buffers and caches (a copy that converts another
  /// part of the file on another thread).
  mutating func restart() {
    core.restart()
    reader.makeUnique()
    pending.makeUnique()
  }

  /// Hands the pending output to the sink.
  mutating func flush(to sink: ByteSink) throws(OutputError) {
    guard pending.count > 0 else { return }
    try sink.write(pending.bytes)
    pending.removeAll()
  }

  /// Appends bytes between records unchanged (a JSON document's commas, an XML document's markup).
  @inline(__always)
  mutating func copy(_ bytes: ByteView, sink: ByteSink) throws(OutputError) {
    pending.append(bytes)
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
  }

  /// Converts and writes one record.
  ///
  /// A record has one rate key (its from- and to-currency and day); its amounts (one, or those of
  /// `--amount-field A,B,C`) convert at that one rate. A record whose amounts are not all read plainly is left to
  /// the general path whole.
  ///
  /// - Returns: whether it did; `false` leaves the record to the general path, with nothing written.
  @inline(__always)
  mutating func convert(_ record: Reader.Record, sink: ByteSink) throws(OutputError) -> Bool {
    core.amounts.removeAll()
    guard let key = reader.read(record, keys: &core.keys, amounts: &core.amounts),
      let conversion = core.convert(key, hasLabel: Reader.hasLabels, label: { reader.label(of: record) })
    else { return false }
    reader.appendHead(of: record, to: &pending)
    if core.amountCount > 1 {
      reader.appendAnnotation(conversion, converted: core.converted, from: &core.converter, to: &pending)
    } else {
      reader.appendAnnotation(conversion, from: &core.converter, to: &pending)
    }
    reader.appendTail(of: record, to: &pending)
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
    return true
  }

  /// Hands the pending output to the sink and adds this loop's counts and figures to the part's.
  mutating func finish(
    to sink: ByteSink, counts total: inout RunReport.Counts, withoutDate totalWithoutDate: inout Int,
    ledger: inout ReconciliationLedger
  ) throws(OutputError) {
    try flush(to: sink)
    core.handOver(counts: &total, withoutDate: &totalWithoutDate, ledger: &ledger)
  }

  /// ``finish(to:counts:withoutDate:ledger:)`` into a part's result.
  mutating func finish(to sink: ByteSink, into result: inout PartResult) throws(OutputError) {
    try finish(to: sink, counts: &result.counts, withoutDate: &result.withoutDate, ledger: &result.ledger)
  }
}
