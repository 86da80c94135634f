/// Pass 2's per-record fast path for an XML document read by ``XMLSimpleScanner`` under a local rate table:
/// decodes a record's currencies and date from its bytes through caches of their distinct values, its plain
/// amount straight from bytes, converts it (``TableConverter``) and appends the record's bytes with its `fx`
/// element (``AnnotationTemplate/xmlElement``), or declines, and the caller writes the record through the
/// general path.
///
/// It decides nothing of its own: currencies and dates go through the one cached key decoder
/// (``FieldKeyDecoder``) from the value ``XMLFieldLocator`` would give (decoded, trimmed); anything else — a record
/// with a problem, a missing field, an amount that is not plain, a key the converter leaves to the general
/// rules — returns `false` (`XMLFastPathTests` compares both paths).
struct XMLFastPass {
  var shapes: XMLRecordShapes
  var converter: TableConverter
  var keys: FieldKeyDecoder
  /// The amounts' decimal mark byte, `nil` when undecided (then only integer amounts are plain).
  let decimalMark: UInt8?
  /// The records this pass converted, and how many of them had no date.
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0

  init(shapes: XMLRecordShapes, converter: TableConverter, normalizer: RecordNormalizer, decimalMark: UInt8?) {
    self.shapes = shapes
    self.converter = converter
    keys = FieldKeyDecoder(normalizer: normalizer)
    self.decimalMark = decimalMark
  }

  /// Clears the counts and figures and gives this copy its own buffers (a copy that converts another part of
  /// the file on another thread).
  mutating func restart() {
    counts = RunReport.Counts()
    withoutDate = 0
    var empty = ReconciliationLedger()
    converter.flush(into: &empty)
    converter.makeUnique()
    keys.makeUnique()
    shapes = XMLRecordShapes(locator: shapes.locator, namespaces: shapes.namespaces.declarations)
  }

  /// Converts one record and counts it.
  ///
  /// - Parameters:
  ///   - record: the record, its indices into `bytes`.
  ///   - shape: its shape in ``shapes``.
  /// - Returns: the conversion, for ``TableConverter/appendAnnotation(_:template:to:)``; `nil` leaves the record
  ///   to the general path.
  @inline(__always)
  mutating func convert(_ record: XMLScannedRecord, shape: Int, in bytes: ByteView) -> TableConverter.Conversion? {
    let fields = shapes.roleFields(of: record, shape: shape, in: bytes)
    guard let amountField = fields.amount, let key = keys.key(fields, in: bytes) else { return nil }
    guard let written = FieldKeyDecoder.plainAmount(Self.trimmed(amountField, bytes), mark: decimalMark),
      let amount = keys.majorAmount(written, currency: key.base),
      let conversion = converter.convert(base: key.base, quote: key.quote, day: key.day, amount: amount)
    else { return nil }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if key.usedDefaultDay { withoutDate += 1 }
    return conversion
  }

  /// A field's raw value without XML white space around it (where ``String/trimmingWhitespace`` trims more, the
  /// bytes left are not a plain amount, and the general path reads them).
  @inline(__always)
  static func trimmed(_ field: XMLScannedRecord.Field, _ bytes: ByteView) -> ByteView {
    var start = field.valueStart
    var end = field.valueEnd
    while start < end, XMLSimpleScanner.isSpace(bytes[start]) { start += 1 }
    while end > start, XMLSimpleScanner.isSpace(bytes[end - 1]) { end -= 1 }
    return bytes.slice(start..<end)
  }
}
