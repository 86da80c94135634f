/// The per-record fast path of a JSON Lines file: finds a flat record's fields through its shape
/// (``FieldShapeCache`` of ``JSONMemberShape``) and decodes them through the one cached key decoder
/// (``FieldKeyDecoder``: currencies, dates, plain amounts).
///
/// It decides nothing of its own: a new shape is resolved by ``JSONFieldLocator``'s rules, a value by
/// ``FieldKeyDecoder``'s, and anything else (an error, a currency that is not a string, an amount with grouping
/// or an exponent) returns `nil`: the caller takes the general path for that record, so the output is the same
/// either way (`JSONLinesFastPathTests` compares them).
struct JSONLinesFieldDecoder {
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
  @inline(__always)
  mutating func key(of object: FlatJSONObject, shape: JSONMemberShape, in bytes: ByteView) -> FieldKeyDecoder.Key? {
    let normalizer = keys.normalizer
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      guard shape.from >= 0, object.kind(shape.from) == .string,
        let found = keys.currency(object.value(shape.from, in: bytes))
      else { return nil }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      guard shape.to >= 0, object.kind(shape.to) == .string, let found = keys.currency(object.value(shape.to, in: bytes))
      else { return nil }
      to = found
    }
    guard shape.date >= 0 else { return keys.key(from: from, to: to, date: nil) }
    let value = object.value(shape.date, in: bytes)
    switch object.kind(shape.date) {
    case .string:
      guard let date = keys.date(value) else { return nil }
      return keys.key(from: from, to: to, date: date)
    case .number where normalizer.dateFormat.isUnix:
      // A unix time may be a JSON number: its text is read as a string's would be.
      guard let date = keys.date(value) else { return nil }
      return keys.key(from: from, to: to, date: date)
    case .literal where value.count == 4 && value[0] == UInt8(ascii: "n"):
      return keys.key(from: from, to: to, date: nil)  // null: no date
    case .literal, .number:
      return nil
    }
  }

  /// A record's amount when it is plain: a JSON number without an exponent (always `.`-decimal), or a string
  /// that ``FieldKeyDecoder/plainAmount(_:mark:)`` reads with the file's mark; `nil` for anything else.
  @inline(__always)
  static func amount(
    of object: FlatJSONObject, shape: JSONMemberShape, in bytes: ByteView, mark: UInt8?
  ) -> ExactDecimal? {
    guard shape.amount >= 0 else { return nil }
    let value = object.value(shape.amount, in: bytes)
    switch object.kind(shape.amount) {
    case .number: return FieldKeyDecoder.plainAmount(value, mark: UInt8(ascii: "."))
    case .string: return FieldKeyDecoder.plainAmount(value, mark: mark)
    case .literal: return nil
    }
  }

  /// ``amount(of:shape:in:mark:)`` in the from-currency's major units (``FieldKeyDecoder/majorAmount(_:currency:)``).
  @inline(__always)
  mutating func majorAmount(
    of object: FlatJSONObject, shape: JSONMemberShape, in bytes: ByteView, mark: UInt8?, currency: CurrencyCode
  ) -> ExactDecimal? {
    guard let amount = Self.amount(of: object, shape: shape, in: bytes, mark: mark) else { return nil }
    return keys.majorAmount(amount, currency: currency)
  }
}
