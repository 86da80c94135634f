/// Pass 2's per-record fast path for a CSV file under a local rate table: decodes a record in place
/// (``FieldKeyDecoder``), converts it (``TableConverter``) and appends the record's bytes and its annotation
/// fields to the output, or declines, and the caller writes the record through the general path.
///
/// One value holds all the per-record state, so the record loop touches it through one `inout` access.
struct CSVFastPass {
  var decoder: FieldKeyDecoder
  var converter: TableConverter
  let delimiter: UInt8
  /// The column's decimal mark byte, `nil` when undecided (then only integer amounts are plain).
  let decimalMark: UInt8?
  let amountField: Int?
  let template: AnnotationTemplate
  /// The records this pass converted, and how many of them had no date.
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0
  /// Output not yet handed to the sink (``flush(to:)`` before the general path writes a record).
  private var pending = ByteBuffer(capacity: Self.pendingLimit + (1 << 16))
  private static let pendingLimit = 1 << 20

  init(decoder: FieldKeyDecoder, converter: TableConverter, delimiter: UInt8, decimalMark: UInt8?, amountField: Int?) {
    self.decoder = decoder
    self.converter = converter
    self.delimiter = delimiter
    self.decimalMark = decimalMark
    self.amountField = amountField
    template = .csv(delimiter: delimiter)
  }

  /// Clears the counts and figures (a copy that converts another part of the file).
  mutating func restart() {
    counts = RunReport.Counts()
    withoutDate = 0
    var empty = ReconciliationLedger()
    converter.flush(into: &empty)
    converter.makeUnique()
    decoder.makeUnique()
    pending.makeUnique()
  }

  /// Hands the pending output to the sink.
  mutating func flush(to sink: ByteSink) throws(OutputError) {
    guard pending.count > 0 else { return }
    try sink.write(pending.bytes)
    pending.removeAll()
  }

  /// Converts and writes one record.
  ///
  /// - Returns: whether it did; `false` leaves the record to the general path, with nothing written.
  @inline(__always)
  mutating func convert(_ record: CSVRecordView, sink: ByteSink) throws(OutputError) -> Bool {
    guard let key = decoder.key(of: record),
      let written = FieldKeyDecoder.plainAmount(record.field(amountField), mark: decimalMark),
      let amount = decoder.majorAmount(written, currency: key.base),
      let conversion = converter.convert(base: key.base, quote: key.quote, day: key.day, amount: amount)
    else { return false }
    pending.append(record.bytes.slice(0..<record.length))
    converter.appendAnnotation(conversion, template: template, to: &pending)
    pending.append(record.terminator)
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if key.usedDefaultDay { withoutDate += 1 }
    return true
  }
}
