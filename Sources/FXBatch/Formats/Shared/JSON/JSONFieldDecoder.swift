/// The per-record fast path of a JSON Lines file: finds a record's fields through its shape
/// (``FieldShapeCache`` of ``JSONMemberShape``, then ``JSONFieldValues``) and decodes them through the one cached
/// key decoder (``FieldKeyDecoder``: currencies, dates, plain amounts).
///
/// It decides nothing of its own: a new shape is resolved by ``JSONFieldLocator``'s rules, a value by
/// ``FieldKeyDecoder``'s, and anything else (an error, a currency that is not a string, an amount with grouping
/// or an exponent) returns `nil`: the caller takes the general path for that record, so the output is the same
/// either way (`JSONLinesFastPathTests` compares them).
struct JSONFieldDecoder {
  let locator: JSONFieldLocator
  private var shapes = FieldShapeCache<JSONMemberShape>()
  private(set) var keys: FieldKeyDecoder

  var normalizer: RecordNormalizer { keys.normalizer }

  init(normalizer: RecordNormalizer, locator: JSONFieldLocator) {
    keys = FieldKeyDecoder(normalizer: normalizer)
    self.locator = locator
  }

  /// Gives this copy its own caches (before it runs on another thread; see ``TableConverter/makeUnique()``).
  mutating func makeUnique() {
    shapes = FieldShapeCache()
    keys.makeUnique()
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
  mutating func key(of fields: JSONFieldValues, in bytes: ByteView) -> FieldKeyDecoder.Key? {
    let normalizer = keys.normalizer
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      guard let field = fields.from, field.kind == .string,
        let found = keys.currency(JSONFieldValues.value(field, in: bytes))
      else { return nil }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      guard let field = fields.to, field.kind == .string, let found = keys.currency(JSONFieldValues.value(field, in: bytes))
      else { return nil }
      to = found
    }
    guard let field = fields.date else { return keys.key(from: from, to: to, date: nil) }
    let value = JSONFieldValues.value(field, in: bytes)
    switch field.kind {
    case .string:
      guard let date = keys.date(value) else { return nil }
      return keys.key(from: from, to: to, date: date)
    case .number where normalizer.dateFormat.isUnix:
      // A unix time may be a JSON number: its text is read as a string's would be.
      guard let date = keys.date(value) else { return nil }
      return keys.key(from: from, to: to, date: date)
    case .literal where value.count == 4 && value[0] == UInt8(ascii: "n"):
      return keys.key(from: from, to: to, date: nil)  // null: no date
    case .literal, .number, .object, .array, .escapedString:
      return nil
    }
  }

  /// A record's amount when it is plain: a JSON number without an exponent (always `.`-decimal), or a string
  /// that ``FieldKeyDecoder/plainAmount(_:mark:)`` reads with the file's mark; `nil` for anything else.
  @inline(__always)
  static func amount(of fields: JSONFieldValues, in bytes: ByteView, mark: UInt8?) -> ExactDecimal? {
    guard let field = fields.amount else { return nil }
    let value = JSONFieldValues.value(field, in: bytes)
    switch field.kind {
    case .number: return FieldKeyDecoder.plainAmount(value, mark: UInt8(ascii: "."))
    case .string: return FieldKeyDecoder.plainAmount(value, mark: mark)
    case .literal, .object, .array, .escapedString: return nil
    }
  }

  /// ``amount(of:in:mark:)`` in the from-currency's major units (``FieldKeyDecoder/majorAmount(_:currency:)``).
  @inline(__always)
  mutating func majorAmount(
    of fields: JSONFieldValues, in bytes: ByteView, mark: UInt8?, currency: CurrencyCode
  ) -> ExactDecimal? {
    guard let amount = Self.amount(of: fields, in: bytes, mark: mark) else { return nil }
    return keys.majorAmount(amount, currency: currency)
  }
}
