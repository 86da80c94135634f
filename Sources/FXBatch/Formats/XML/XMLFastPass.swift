/// Pass 2's per-record fast path for an XML document read by ``XMLSimpleScanner`` under a local rate table:
/// decodes a record's currencies and date from its bytes through caches of their distinct values, its plain
/// amount straight from bytes, converts it (``TableConverter``) and appends the record's bytes with its `fx`
/// element (``AnnotationTemplate/xmlElement``), or declines, and the caller writes the record through the
/// general path.
///
/// It decides nothing of its own: a currency or date it has not seen is decoded by ``RecordNormalizer``'s rules
/// from the value ``XMLFieldLocator`` would give (decoded, trimmed), and remembered; anything else — a record
/// with a problem, a missing field, an amount that is not plain, a key the converter leaves to the general
/// rules — returns `false` (`XMLFastPathTests` compares both paths).
struct XMLFastPass {
  var shapes: XMLRecordShapes
  var converter: TableConverter
  let normalizer: RecordNormalizer
  /// The amounts' decimal mark byte, `nil` when undecided (then only integer amounts are plain).
  let decimalMark: UInt8?
  private var currencies = ShortFieldCache<CurrencyCode>()
  private var dates = ShortFieldCache<CSVFieldDecoder.DateValue>()
  /// The records this pass converted, and how many of them had no date.
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0

  init(shapes: XMLRecordShapes, converter: TableConverter, normalizer: RecordNormalizer, decimalMark: UInt8?) {
    self.shapes = shapes
    self.converter = converter
    self.normalizer = normalizer
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
    currencies = ShortFieldCache()
    dates = ShortFieldCache()
    shapes = XMLRecordShapes(locator: shapes.locator)
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
    guard !shapes.hasProblem(shape) else { return nil }
    let amountField = shapes.field(.amount, shape: shape)
    guard amountField >= 0 else { return nil }
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      let index = shapes.field(.from, shape: shape)
      guard index >= 0, let found = currency(record.fields[index], bytes) else { return nil }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      let index = shapes.field(.to, shape: shape)
      guard index >= 0, let found = currency(record.fields[index], bytes) else { return nil }
      to = found
    }
    var day = normalizer.defaultDay
    var usedDefaultDay = true
    let dateField = shapes.field(.date, shape: shape)
    if dateField >= 0 {
      guard let value = date(record.fields[dateField], bytes) else { return nil }
      if case .day(let found) = value {
        day = found
        usedDefaultDay = false
      }
    }
    guard let amount = CSVFieldDecoder.plainAmount(Self.trimmed(record.fields[amountField], bytes), mark: decimalMark),
      let conversion = converter.convert(base: from, quote: to, day: day, amount: amount)
    else { return nil }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if usedDefaultDay { withoutDate += 1 }
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

  @inline(__always)
  private mutating func currency(_ field: XMLScannedRecord.Field, _ bytes: ByteView) -> CurrencyCode? {
    let key =
      field.needsDecoding
      ? nil
      : ShortFieldCache<CurrencyCode>.key(bytes.slice(field.valueStart..<field.valueEnd))
    if let key, let known = currencies.value(for: key) { return known }
    let text = XMLSimpleScanner.decodedText(field, in: bytes).trimmingWhitespace
    guard !text.isEmpty, case .success(let code) = normalizer.currencies.currency(text) else { return nil }
    if let key { currencies.insert(code, for: key) }
    return code
  }

  @inline(__always)
  private mutating func date(_ field: XMLScannedRecord.Field, _ bytes: ByteView) -> CSVFieldDecoder.DateValue? {
    let key =
      field.needsDecoding
      ? nil
      : ShortFieldCache<CSVFieldDecoder.DateValue>.key(bytes.slice(field.valueStart..<field.valueEnd))
    if let key, let known = dates.value(for: key) { return known }
    let text = XMLSimpleScanner.decodedText(field, in: bytes).trimmingWhitespace
    let value: CSVFieldDecoder.DateValue
    if text.isEmpty {
      value = .absent
    } else {
      guard case .success(let day) = normalizer.dateFormat.parse(text) else { return nil }
      value = .day(day)
    }
    if let key { dates.insert(value, for: key) }
    return value
  }
}
