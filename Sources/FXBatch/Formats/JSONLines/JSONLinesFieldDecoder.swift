/// The per-record fast path of a JSON Lines file: finds a record's fields through its shape
/// (``FieldShapeCache`` of ``JSONMemberShape``, then ``JSONFieldValues``), decodes its currencies and date through caches of their
/// distinct values, and plain amounts straight from bytes.
///
/// It decides nothing of its own: a new shape is resolved by ``JSONFieldLocator``'s rules, a new value is
/// decoded by ``RecordNormalizer``'s rules and remembered, and anything else (an error, a currency that is not
/// a string, an amount with grouping or an exponent) returns `nil`: the caller takes the general path for that
/// record, so the output is the same either way (`JSONLinesFastPathTests` compares them).
struct JSONLinesFieldDecoder {
  let normalizer: RecordNormalizer
  let locator: JSONFieldLocator
  private var shapes = FieldShapeCache<JSONMemberShape>()
  private var currencies = ShortFieldCache<CurrencyCode>()
  private var dates = ShortFieldCache<CSVFieldDecoder.DateValue>()

  init(normalizer: RecordNormalizer, locator: JSONFieldLocator) {
    self.normalizer = normalizer
    self.locator = locator
  }

  /// Gives this copy its own caches (before it runs on another thread; see ``TableConverter/makeUnique()``).
  mutating func makeUnique() {
    shapes = FieldShapeCache()
    currencies = ShortFieldCache()
    dates = ShortFieldCache()
  }

  /// The shape of a record and its index; `nil` when the record must take the general path (a shape that is
  /// not usable, or one past the cache's limit).
  @inline(__always)
  mutating func shape(of object: FlatJSONObject, in bytes: ByteView) -> (
    index: Int, shape: JSONMemberShape
  )? {
    let locator = self.locator
    guard
      let (index, shape) = shapes.shape(
        count: object.count, name: { object.name($0, in: bytes) },
        resolve: { JSONMemberShape(names: $0, locator: locator) }),
      shape.isUsable
    else { return nil }
    return (index, shape)
  }

  /// The rate key of a record and whether it used the default day; `nil` when the general rules must decide
  /// (including every record with an error).
  ///
  /// - Parameter fields: the record's fields (``JSONFieldValues/find(in:shape:bytes:locator:inner:)``).
  @inline(__always)
  mutating func key(of fields: JSONFieldValues, in bytes: ByteView) -> (
    base: CurrencyCode, quote: CurrencyCode, day: CalendarDay, usedDefaultDay: Bool
  )? {
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      guard let field = fields.from, field.kind == .string, let found = currency(JSONFieldValues.value(field, in: bytes))
      else { return nil }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      guard let field = fields.to, field.kind == .string, let found = currency(JSONFieldValues.value(field, in: bytes))
      else { return nil }
      to = found
    }
    guard let field = fields.date else { return (from, to, normalizer.defaultDay, true) }
    let value = JSONFieldValues.value(field, in: bytes)
    switch field.kind {
    case .string:
      switch date(value) {
      case .day(let day)?: return (from, to, day, false)
      case .absent?: return (from, to, normalizer.defaultDay, true)
      case nil: return nil
      }
    case .literal where value.count == 4 && value[0] == UInt8(ascii: "n"):
      return (from, to, normalizer.defaultDay, true)  // null: no date
    case .literal, .number, .object, .array, .escapedString:
      return nil
    }
  }

  /// A record's amount when it is plain: a JSON number without an exponent (always `.`-decimal), or a string
  /// that ``CSVFieldDecoder/plainAmount(_:mark:)`` reads with the file's mark; `nil` for anything else.
  @inline(__always)
  static func amount(of fields: JSONFieldValues, in bytes: ByteView, mark: UInt8?) -> ExactDecimal? {
    guard let field = fields.amount else { return nil }
    let value = JSONFieldValues.value(field, in: bytes)
    switch field.kind {
    case .number: return CSVFieldDecoder.plainAmount(value, mark: UInt8(ascii: "."))
    case .string: return CSVFieldDecoder.plainAmount(value, mark: mark)
    case .literal, .object, .array, .escapedString: return nil
    }
  }

  @inline(__always)
  private mutating func currency(_ bytes: ByteView) -> CurrencyCode? {
    let key = ShortFieldCache<CurrencyCode>.key(bytes)
    if let key, let known = currencies.value(for: key) { return known }
    let text = bytes.text
    guard !text.trimmingWhitespace.isEmpty, case .success(let code) = normalizer.currencies.currency(text) else { return nil }
    if let key { currencies.insert(code, for: key) }
    return code
  }

  @inline(__always)
  private mutating func date(_ bytes: ByteView) -> CSVFieldDecoder.DateValue? {
    let key = ShortFieldCache<CSVFieldDecoder.DateValue>.key(bytes)
    if let key, let known = dates.value(for: key) { return known }
    let text = bytes.text
    let value: CSVFieldDecoder.DateValue
    if text.trimmingWhitespace.isEmpty {
      value = .absent
    } else {
      guard case .success(let day) = normalizer.dateFormat.parse(text) else { return nil }
      value = .day(day)
    }
    if let key { dates.insert(value, for: key) }
    return value
  }
}
