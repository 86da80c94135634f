/// The per-record fast path of a CSV file: decodes a record's currencies and date from its bytes through
/// caches of their distinct values, and plain amounts (`-1234.50`) straight from bytes.
///
/// It decides nothing of its own: a value it has not seen is decoded by ``RecordNormalizer``'s rules and
/// remembered, and anything it does not handle (a quoted field, an error, an amount with grouping, a sign after
/// the number, a currency mark) returns `nil`, and the caller takes the general path for that record, so the
/// output is the same either way (`CSVFastPathTests` compares them).
struct CSVFieldDecoder {
  enum DateValue {
    case day(CalendarDay)
    /// No date: the record uses the default day.
    case absent
  }

  let normalizer: RecordNormalizer
  private var currencies = ShortFieldCache<CurrencyCode>()
  private var dates = ShortFieldCache<DateValue>()

  init(normalizer: RecordNormalizer) { self.normalizer = normalizer }

  /// Gives this copy its own caches (see ``TableConverter/makeUnique()``).
  mutating func makeUnique() {
    currencies = ShortFieldCache()
    dates = ShortFieldCache()
  }

  /// The rate key of a record (read in place, with ``CSVRecordView/readablePadding``) and whether it used the
  /// default day; `nil` when the general rules must decide (including every record with an error).
  @inline(__always)
  mutating func key(of record: CSVRecordView) -> (
    base: CurrencyCode, quote: CurrencyCode, day: CalendarDay, usedDefaultDay: Bool
  )? {
    guard let mapping = normalizer.mapping, record.fieldCount == normalizer.headerFieldCount else { return nil }
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      guard let found = currency(record.field(mapping.from)) else { return nil }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      guard let found = currency(record.field(mapping.to)) else { return nil }
      to = found
    }
    var day = normalizer.defaultDay
    var usedDefaultDay = true
    if let dateField = mapping.date {
      guard let value = date(record.field(dateField)) else { return nil }
      if case .day(let found) = value {
        day = found
        usedDefaultDay = false
      }
    }
    return (from, to, day, usedDefaultDay)
  }

  @inline(__always)
  private mutating func currency(_ bytes: ByteView) -> CurrencyCode? {
    let key = ShortFieldCache<CurrencyCode>.key(padded: bytes)
    if let key, let known = currencies.value(for: key) { return known }
    guard bytes.isEmpty || bytes[0] != UInt8(ascii: "\"") else { return nil }
    let text = bytes.text
    guard !text.trimmingWhitespace.isEmpty, case .success(let code) = normalizer.currencies.currency(text) else { return nil }
    if let key { currencies.insert(code, for: key) }
    return code
  }

  @inline(__always)
  private mutating func date(_ bytes: ByteView) -> DateValue? {
    let key = ShortFieldCache<DateValue>.key(padded: bytes)
    if let key, let known = dates.value(for: key) { return known }
    guard bytes.isEmpty || bytes[0] != UInt8(ascii: "\"") else { return nil }
    let text = bytes.text
    let value: DateValue
    if text.trimmingWhitespace.isEmpty {
      value = .absent
    } else {
      guard case .success(let day) = normalizer.dateFormat.parse(text) else { return nil }
      value = .day(day)
    }
    if let key { dates.insert(value, for: key) }
    return value
  }

  /// A plain amount — an optional leading `+` or `-`, digits, and optionally `mark` and more digits, at most 18
  /// digits — read as ``AmountParser/plainValue(_:decimalMark:)`` reads it; `nil` for anything else.
  @inline(__always)
  static func plainAmount(_ bytes: ByteView, mark: UInt8?) -> ExactDecimal? {
    var index = 0
    let count = bytes.count
    var negative = false
    if count > 0, bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
      negative = bytes[0] == UInt8(ascii: "-")
      index = 1
    }
    var value: Int64 = 0
    var digits = 0
    var scale = 0
    var seenMark = false
    var digitsBeforeMark = 0
    while index < count {
      let byte = bytes[index]
      if byte &- UInt8(ascii: "0") < 10 {
        value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
        digits += 1
        if seenMark { scale += 1 }
      } else if byte == mark, !seenMark {
        seenMark = true
        digitsBeforeMark = digits
      } else {
        return nil
      }
      index += 1
    }
    guard digits > 0, digits <= 18, !seenMark || (digitsBeforeMark > 0 && scale > 0) else { return nil }
    return ExactDecimal(significand: Int128(negative ? -value : value), scale: scale)
  }

  /// What a plain cell (``plainAmount(_:mark:)`` with either mark) says about the column's decimal mark, as
  /// ``DecimalMarkInference/evidence(_:)`` decides it; `nil` when that general rule must look at the cell (a
  /// mark followed by exactly three digits could be a group separator, and anything not plain).
  @inline(__always)
  static func evidence(_ bytes: ByteView) -> DecimalMarkInference.Evidence? {
    // One pass with ``plainAmount(_:mark:)``'s rules, for either mark: a sign first, digits, at most one mark.
    let count = bytes.count
    var index = 0
    if count > 0, bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") { index = 1 }
    var digits = 0
    var digitsBeforeMark = 0
    var markIndex = -1
    var mark: UInt8 = 0
    while index < count {
      let byte = bytes[index]
      if byte &- UInt8(ascii: "0") < 10 {
        digits += 1
      } else if markIndex < 0, byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
        markIndex = index
        mark = byte
        digitsBeforeMark = digits
      } else {
        return nil
      }
      index += 1
    }
    guard digits > 0, digits <= 18 else { return nil }
    if markIndex < 0 { return .neutral }
    let digitsAfterMark = count - markIndex - 1
    guard digitsAfterMark != 3, digitsBeforeMark > 0, digitsAfterMark > 0 else { return nil }
    return mark == UInt8(ascii: ".") ? .point : .comma
  }

}
