/// Pass 2's per-record fast path over JSON records (a JSON Lines line, an element of a JSON document's records
/// array) under a local rate table: reads a record in place
/// (``FlatJSONObject``, ``JSONFieldValues``, ``JSONFieldDecoder``), converts it (``TableConverter``) and appends the record's
/// bytes with the annotation members after its last member (``AnnotationTemplate/jsonMembers``, spaced like the
/// record's own members as ``JSONAnnotatingWriter`` spaces them), or declines, and the caller writes the record through the general path.
///
/// One value holds all the per-record state, so the record loop touches it through one `inout` access.
struct JSONRecordFastPass {
  var decoder: JSONFieldDecoder
  var converter: TableConverter
  /// The decimal mark byte of text amounts, `nil` when undecided (then only integer texts are plain).
  let decimalMark: UInt8?
  private var object = FlatJSONObject()
  /// Scratch for the objects a field path steps into.
  private var inner = FlatJSONObject()
  private let compactTemplate = AnnotationTemplate.jsonMembers
  /// The template of the last spaced record's layout (``FlatJSONObject/layout(in:)``), and that layout; the
  /// template is `nil` when the layout is too wide for one.
  private var spaced: (template: AnnotationTemplate?, separator: [UInt8], beforeColon: [UInt8], afterColon: [UInt8])?
  /// The records this pass converted, and how many of them had no date.
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0
  /// Output not yet handed to the sink (``flush(to:)`` before the general path writes a record).
  private var pending = ByteBuffer(capacity: Self.pendingLimit + (1 << 16))
  private static let pendingLimit = 1 << 20

  init(decoder: JSONFieldDecoder, converter: TableConverter, decimalMark: UInt8?) {
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
    inner = FlatJSONObject()
  }

  /// Hands the pending output to the sink.
  mutating func flush(to sink: ByteSink) throws(OutputError) {
    guard pending.count > 0 else { return }
    try sink.write(pending.bytes)
    pending.removeAll()
  }

  /// The annotation template of a spaced record (`{"amount": 12.5, "from": "USD"}`), made when its layout
  /// differs from the last one's; `nil` when the spacing is too wide for a template (the general path writes
  /// the record).
  private mutating func spacedTemplate(
    for layout: (separator: ByteView, beforeColon: ByteView, afterColon: ByteView)
  ) -> AnnotationTemplate? {
    if let spaced, spaced.separator.elementsEqual(layout.separator), spaced.beforeColon.elementsEqual(layout.beforeColon),
      spaced.afterColon.elementsEqual(layout.afterColon)
    {
      return spaced.template
    }
    let made = (
      template: AnnotationTemplate.jsonMembers(
        separator: layout.separator.array, beforeColon: layout.beforeColon.array, afterColon: layout.afterColon.array),
      separator: layout.separator.array, beforeColon: layout.beforeColon.array, afterColon: layout.afterColon.array
    )
    spaced = made
    return made.template
  }

  /// Appends bytes between records unchanged (a JSON document's whitespace and commas).
  @inline(__always)
  mutating func copy(_ bytes: ByteView, sink: ByteSink) throws(OutputError) {
    pending.append(bytes)
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
  }

  /// Converts and writes one record: the first `length` of `bytes` (a JSON Lines line's content, or an
  /// element of a JSON document's records array), followed by the rest of `bytes` unchanged (a line end).
  ///
  /// - Returns: whether it did; `false` leaves the record to the general path, with nothing written.
  @inline(__always)
  mutating func convert(_ bytes: ByteView, length: Int, sink: ByteSink) throws(OutputError) -> Bool {
    let content = bytes.slice(0..<length)
    guard object.scan(content), let (_, shape) = decoder.shape(of: object, in: content),
      let fields = JSONFieldValues.find(
        in: object, shape: shape, bytes: content, locator: decoder.locator, inner: &inner),
      let key = decoder.key(of: fields, in: content),
      let amount = decoder.majorAmount(of: fields, in: content, mark: decimalMark, currency: key.base),
      // Before the conversion, which counts the record: a declined record is converted by the general path.
      let template = object.isCompact ? compactTemplate : spacedTemplate(for: object.layout(in: content)),
      let conversion = converter.convert(base: key.base, quote: key.quote, day: key.day, amount: amount)
    else { return false }
    let insertion = object.insertion
    pending.append(bytes.slice(0..<insertion))
    converter.appendAnnotation(conversion, template: template, to: &pending)
    pending.append(bytes.slice(from: insertion))
    if pending.count >= Self.pendingLimit { try flush(to: sink) }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if key.usedDefaultDay { withoutDate += 1 }
    return true
  }
}
