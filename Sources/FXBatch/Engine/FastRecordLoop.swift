/// Pass 2's per-record fast path under a local rate table, for every format: the format's reader
/// (``FastRecordReader``) reads a record's key and plain amounts in place; the loop takes the amounts to the
/// from-currency's major units (``FieldKeyDecoder/majorAmount(_:currency:)``), converts them (``TableConverter``),
/// appends the record's bytes with the annotation where the reader says, and counts the record — or declines it,
/// and the caller flushes (``flush(to:)``) and writes the record through the general path.
///
/// Generic over the reader, so the compiler specialises the loop for each format (no existential per record).
/// One value holds all the per-record state, so the record loop touches it through one `inout` access.
struct FastRecordLoop<Reader: FastRecordReader> {
  var reader: Reader
  /// The one cached key decoder the reader decodes through.
  var keys: FieldKeyDecoder
  var converter: TableConverter
  /// The record's amounts, reused from record to record.
  private var amounts = FastRecordAmounts()
  /// How many amounts each record has (``TableConverter/amountSlots``: one, or the amounts of
  /// `--amount-field A,B,C`), their values in major units and converted.
  private let amountCount: Int
  private var majors = InlineList<ExactDecimal>(filler: .zero)
  private var converted = InlineList<ExactDecimal>(filler: .zero)
  /// The records this loop converted, and how many of them had no date.
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0
  /// Output not yet handed to the sink (``flush(to:)`` before the general path writes a record).
  private var pending = ByteBuffer(capacity: Self.pendingLimit + (1 << 16))
  private static var pendingLimit: Int { 1 << 20 }

  init(reader: Reader, keys: FieldKeyDecoder, converter: TableConverter) {
    self.reader = reader
    self.keys = keys
    self.converter = converter
    amountCount = converter.amountSlots
  }

  /// Clears the counts and figures and gives this copy its own buffers and caches (a copy that converts another
  /// part of the file on another thread).
  mutating func restart() {
    counts = RunReport.Counts()
    withoutDate = 0
    var empty = ReconciliationLedger()
    converter.flush(into: &empty)
    converter.makeUnique()
    keys.makeUnique()
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
    amounts.removeAll()
    guard let key = reader.read(record, keys: &keys, amounts: &amounts), amounts.count == amountCount else {
      return false
    }
    if amountCount > 1 { return try convertSeveral(record, key: key, sink: sink) }
    guard let amount = keys.majorAmount(amounts[0], currency: key.base),
      let conversion = converter.convert(base: key.base, quote: key.quote, day: key.day, amount: amount)
    else { return false }
    reader.appendHead(of: record, to: &pending)
    reader.appendAnnotation(conversion, from: &converter, to: &pending)
    reader.appendTail(of: record, to: &pending)
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if key.usedDefaultDay { withoutDate += 1 }
    return true
  }

  /// ``convert(_:sink:)`` of a record of several amounts (read into ``amounts``).
  @inline(__always)
  private mutating func convertSeveral(_ record: Reader.Record, key: FieldKeyDecoder.Key, sink: ByteSink)
    throws(OutputError) -> Bool
  {
    majors.removeAll()
    for index in 0..<amounts.count {
      guard let major = keys.majorAmount(amounts[index], currency: key.base) else { return false }
      _ = majors.append(major)
    }
    guard
      let conversion = converter.convert(
        base: key.base, quote: key.quote, day: key.day, amounts: majors, converted: &converted)
    else { return false }
    reader.appendHead(of: record, to: &pending)
    reader.appendAnnotation(conversion, converted: converted, from: &converter, to: &pending)
    reader.appendTail(of: record, to: &pending)
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if key.usedDefaultDay { withoutDate += 1 }
    return true
  }

  /// Hands the pending output to the sink and adds this loop's counts and figures to the part's.
  mutating func finish(
    to sink: ByteSink, counts total: inout RunReport.Counts, withoutDate totalWithoutDate: inout Int,
    ledger: inout ReconciliationLedger
  ) throws(OutputError) {
    try flush(to: sink)
    total.add(counts)
    totalWithoutDate += withoutDate
    converter.flush(into: &ledger)
  }

  /// ``finish(to:counts:withoutDate:ledger:)`` into a part's result.
  mutating func finish(to sink: ByteSink, into result: inout PartResult) throws(OutputError) {
    try finish(to: sink, counts: &result.counts, withoutDate: &result.withoutDate, ledger: &result.ledger)
  }
}
