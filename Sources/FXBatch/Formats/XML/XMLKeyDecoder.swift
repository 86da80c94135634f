/// Decodes an XML record's rate key — its currencies and date — from its bytes through caches of their distinct
/// values, for pass 2's fast path (``XMLFastPass``) and pass 1's key collection (``XMLFormat/SpanReader``).
///
/// It decides nothing of its own: a currency or date it has not seen is decoded by ``RecordNormalizer``'s rules
/// from the value ``XMLFieldLocator`` would give (decoded, trimmed), and remembered; a record with a problem, a
/// missing field or a value those rules refuse gives `nil`, and the caller asks the general rules.
struct XMLKeyDecoder: Sendable {
  let normalizer: RecordNormalizer
  private var currencies = ShortFieldCache<CurrencyCode>()
  private var dates = ShortFieldCache<CSVFieldDecoder.DateValue>()

  init(normalizer: RecordNormalizer) { self.normalizer = normalizer }

  /// Gives this copy its own caches (before it runs on another thread).
  mutating func makeUnique() {
    currencies = ShortFieldCache()
    dates = ShortFieldCache()
  }

  /// A record's key, and whether it used the default day; `nil` when the general rules must read the record.
  ///
  /// - Parameter fields: where the record's roles are (``XMLRecordShapes/roleFields(of:shape:in:)``).
  @inline(__always)
  mutating func key(_ fields: XMLRecordShapes.RoleFields, in bytes: ByteView) -> (
    base: CurrencyCode, quote: CurrencyCode, day: CalendarDay, usedDefaultDay: Bool
  )? {
    guard !fields.hasProblem else { return nil }
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      guard let field = fields.from, let found = currency(field, bytes) else { return nil }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      guard let field = fields.to, let found = currency(field, bytes) else { return nil }
      to = found
    }
    var day = normalizer.defaultDay
    var usedDefaultDay = true
    if let dateField = fields.date {
      guard let value = date(dateField, bytes) else { return nil }
      if case .day(let found) = value {
        day = found
        usedDefaultDay = false
      }
    }
    return (from, to, day, usedDefaultDay)
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
