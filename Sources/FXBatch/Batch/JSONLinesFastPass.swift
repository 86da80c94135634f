/// Pass 2's per-record fast path for a JSON Lines file under a local rate table: reads a flat record in place
/// (``FlatJSONObject``, ``JSONLinesFieldDecoder``), converts it (``TableConverter``) and appends the record's
/// bytes with the annotation members before its closing brace (``AnnotationTemplate/jsonMembers``), or
/// declines, and the caller writes the record through the general path.
///
/// One value holds all the per-record state, so the record loop touches it through one `inout` access.
struct JSONLinesFastPass {
  var decoder: JSONLinesFieldDecoder
  var converter: TableConverter
  /// The decimal mark byte of text amounts, `nil` when undecided (then only integer texts are plain).
  let decimalMark: UInt8?
  private var object = FlatJSONObject()
  /// The records this pass converted, and how many of them had no date.
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0
  /// Output not yet handed to the sink (``flush(to:)`` before the general path writes a record).
  private var pending = ByteBuffer(capacity: Self.pendingLimit + (1 << 16))
  private static let pendingLimit = 1 << 20

  init(decoder: JSONLinesFieldDecoder, converter: TableConverter, decimalMark: UInt8?) {
    self.decoder = decoder
    self.converter = converter
    self.decimalMark = decimalMark
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
    object = FlatJSONObject()
  }

  /// Hands the pending output to the sink.
  mutating func flush(to sink: ByteSink) throws(OutputError) {
    guard pending.count > 0 else { return }
    try sink.write(pending.bytes)
    pending.removeAll()
  }

  /// Converts and writes one line.
  ///
  /// - Returns: whether it did; `false` leaves the line to the general path, with nothing written.
  @inline(__always)
  mutating func convert(_ line: JSONLinesByteReader.Line, sink: ByteSink) throws(OutputError) -> Bool {
    let content = line.content
    guard object.scan(content), let (_, shape) = decoder.shape(of: object, in: content),
      let key = decoder.key(of: object, shape: shape, in: content),
      let amount = JSONLinesFieldDecoder.amount(of: object, shape: shape, in: content, mark: decimalMark),
      let conversion = converter.convert(base: key.base, quote: key.quote, day: key.day, amount: amount)
    else { return false }
    let brace = object.closingBrace
    pending.append(UnsafeBufferPointer(rebasing: line.bytes[0..<brace]))
    converter.appendAnnotation(conversion, template: .jsonMembers, to: &pending)
    pending.append(UnsafeBufferPointer(rebasing: line.bytes[brace...]))
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if key.usedDefaultDay { withoutDate += 1 }
    return true
  }
}
