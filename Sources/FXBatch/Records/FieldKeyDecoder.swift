/// The one cached decoder of the fields of a record's rate key — its currencies and date — and of plain amounts,
/// which every format's fast path and pass 1 feed with a field's bytes (and, where the bytes are not yet its
/// text, a way to decode them: XML entities, a shared string, a spreadsheet's serial date).
///
/// It decides nothing of its own: a value it has not seen is decoded by ``RecordNormalizer``'s rules (currency
/// text → code through ``RecordNormalizer/currencies``, date text → day through ``RecordNormalizer/dateFormat``,
/// blank date → no date) and remembered by its bytes (``ShortFieldCache``); anything those rules refuse gives
/// `nil`, and the caller takes the general path for that record, which writes the error, so the output is the
/// same either way (the formats' `FastPath` differential tests compare them). A format keeps only how it
/// locates its fields (`FieldKeyDecoder+CSVRecordView.swift`, …).
struct FieldKeyDecoder: Sendable {
  /// What a date field says.
  enum DateValue: Sendable {
    case day(CalendarDay)
    /// No date (a blank field): the record uses the default day.
    case absent
  }

  /// A record's rate key, and whether it used the default day.
  typealias Key = (base: CurrencyCode, quote: CurrencyCode, day: CalendarDay, usedDefaultDay: Bool)
  /// A field's packed bytes (``ShortFieldCache/key(_:)``); `nil` for a field not cached (too long, or bytes that
  /// are not its text).
  typealias CacheKey = (UInt64, UInt64)

  let normalizer: RecordNormalizer
  /// The normalizer's fixed currencies and default day, kept apart: the per-record path reads them without
  /// touching the normalizer (whose copies, of its resolver's tables, cost reference counting).
  private let fixedFrom: CurrencyCode?
  private let fixedTo: CurrencyCode?
  private let defaultDay: CalendarDay
  private var currencies = ShortFieldCache<CurrencyCode>()
  private var dates = ShortFieldCache<DateValue>()
  private var dateEvidence = ShortFieldCache<DateLayoutInference.Evidence>()
  /// The minor units of the last from-currency of an amount in minor units (`--amount-unit minor`).
  private var lastMinorUnits: (currency: CurrencyCode, units: Int?)? = nil

  init(normalizer: RecordNormalizer) {
    self.normalizer = normalizer
    fixedFrom = normalizer.fixedFrom
    fixedTo = normalizer.fixedTo
    defaultDay = normalizer.defaultDay
  }

  /// Gives this copy its own caches (before it runs on another thread; see ``TableConverter/makeUnique()``).
  mutating func makeUnique() {
    currencies = ShortFieldCache()
    dates = ShortFieldCache()
    dateEvidence = ShortFieldCache()
  }

  /// The cache key of a field's bytes (``ShortFieldCache/key(_:)``), and of bytes followed by 16 readable ones
  /// (``ShortFieldCache/key(padded:)``).
  @inline(__always)
  static func cacheKey(_ bytes: ByteView) -> CacheKey? { ShortFieldCache<CurrencyCode>.key(bytes) }
  @inline(__always)
  static func cacheKey(padded bytes: ByteView) -> CacheKey? { ShortFieldCache<CurrencyCode>.key(padded: bytes) }

  // MARK: The key

  /// The key of a record, each format's one way to it: the run's fixed currencies (``RecordNormalizer/fixedFrom``,
  /// ``RecordNormalizer/fixedTo``) where it gives them, else the record's fields decoded by `from` and `to`; the
  /// day its date field gives, else (no date field, a blank one: ``DateValue/absent``) the default day.
  ///
  /// - Parameters:
  ///   - from: decodes the record's from-currency field through this decoder (its caches); `nil` when the general
  ///     rules must decide. Not called when the run fixes the from-currency.
  ///   - to: the same for the to-currency field.
  ///   - date: decodes the record's date field; ``DateValue/absent`` when it has none.
  /// - Returns: the key, or `nil` when a field must be read by the general rules.
  @inline(__always)
  mutating func key(
    from: (inout FieldKeyDecoder) -> CurrencyCode?, to: (inout FieldKeyDecoder) -> CurrencyCode?,
    date: (inout FieldKeyDecoder) -> DateValue?
  ) -> Key? {
    let (fixedFrom, fixedTo, defaultDay) = (self.fixedFrom, self.fixedTo, self.defaultDay)
    let base: CurrencyCode
    if let fixedFrom {
      base = fixedFrom
    } else {
      guard let found = from(&self) else { return nil }
      base = found
    }
    let quote: CurrencyCode
    if let fixedTo {
      quote = fixedTo
    } else {
      guard let found = to(&self) else { return nil }
      quote = found
    }
    guard let value = date(&self) else { return nil }
    if case .day(let day) = value { return (base, quote, day, false) }
    return (base, quote, defaultDay, true)
  }

  // MARK: Currencies

  /// A currency field's code by the general rules (not blank, a code, alias or symbol the resolver knows),
  /// remembered by `cacheKey`. A blank or absent from-currency field gives `nil`: the general rules then read the
  /// currency the record's amount names (``RecordNormalizer/currencyOfAmount(_:from:)``), the one place that rule is.
  ///
  /// - Parameters:
  ///   - cacheKey: the field's packed bytes, or `nil` to decode it every time.
  ///   - text: the field's text, on a value not seen before; `nil` when only the general rules may read it.
  /// - Returns: the code, or `nil` when the general rules must decide.
  @inline(__always)
  mutating func currency(cacheKey key: CacheKey?, text: () -> String?) -> CurrencyCode? {
    if let key, let known = currencies.value(for: key) { return known }
    guard let text = text(), !text.trimmingWhitespace.isEmpty,
      case .success(let code) = normalizer.currencies.currency(text)
    else { return nil }
    if let key { currencies.insert(code, for: key) }
    return code
  }

  /// ``currency(cacheKey:text:)`` of bytes that are the field's text.
  @inline(__always)
  mutating func currency(_ bytes: ByteView) -> CurrencyCode? {
    currency(cacheKey: Self.cacheKey(bytes)) { bytes.text }
  }

  // MARK: Dates

  /// A date field's value by the general rules (blank is no date, else a day by the date format), remembered by
  /// `cacheKey`; see ``currency(cacheKey:text:)``.
  @inline(__always)
  mutating func date(cacheKey key: CacheKey?, text: () -> String?) -> DateValue? {
    if let key, let known = dates.value(for: key) { return known }
    guard let text = text() else { return nil }
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

  /// ``date(cacheKey:text:)`` of bytes that are the field's text.
  @inline(__always)
  mutating func date(_ bytes: ByteView) -> DateValue? {
    date(cacheKey: Self.cacheKey(bytes)) { bytes.text }
  }

  /// What a date field says about the order of its column's slash dates (``DateLayoutInference/evidence(_:)``),
  /// remembered by `cacheKey`; `nil` when only the general rules may read the text (`text` gives `nil`).
  @inline(__always)
  mutating func dateEvidence(cacheKey key: CacheKey?, text: () -> String?) -> DateLayoutInference.Evidence? {
    if let key, let known = dateEvidence.value(for: key) { return known }
    guard let text = text() else { return nil }
    let evidence = DateLayoutInference.evidence(text)
    if let key { dateEvidence.insert(evidence, for: key) }
    return evidence
  }

  /// ``dateEvidence(cacheKey:text:)`` of bytes that are the field's text.
  @inline(__always)
  mutating func dateEvidence(_ bytes: ByteView) -> DateLayoutInference.Evidence? {
    if Self.startsWithThreeDigits(bytes) { return .neutral }
    return dateEvidence(cacheKey: Self.cacheKey(bytes)) { bytes.text }
  }

  /// Whether a date's bytes start with three digits (`2024-…`, `20240105`): no slash date starts so (its day or
  /// month comes first), so the date says nothing about their order (``DateLayoutInference/Evidence/neutral``),
  /// without a look in the cache.
  @inline(__always)
  static func startsWithThreeDigits(_ bytes: ByteView) -> Bool {
    bytes.count >= 3 && bytes[0] &- UInt8(ascii: "0") < 10 && bytes[1] &- UInt8(ascii: "0") < 10
      && bytes[2] &- UInt8(ascii: "0") < 10
  }

  // MARK: Amounts

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

  /// What a plain amount (``plainAmount(_:mark:)`` with either mark) says about the column's decimal mark, as
  /// ``DecimalMarkInference/evidence(_:)`` decides it; `nil` when that general rule must look at the text (a
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

  /// An amount read from a record of `currency` in its major units (``RecordNormalizer/majorAmount(_:currency:)``:
  /// itself under `--amount-unit major`); `nil` when the general rules must write the error.
  @inline(__always)
  mutating func majorAmount(_ amount: ExactDecimal, currency: CurrencyCode) -> ExactDecimal? {
    guard normalizer.amountUnit == .minor else { return amount }
    let units: Int?
    if let last = lastMinorUnits, last.currency == currency {
      units = last.units
    } else {
      units = normalizer.minorUnits(of: currency)
      lastMinorUnits = (currency, units)
    }
    return try? RecordNormalizer.majorAmount(minor: amount, minorUnits: units, currency: currency).get()
  }
}
