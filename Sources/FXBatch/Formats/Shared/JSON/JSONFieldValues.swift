/// The fast paths' fields of one record: each role's value as a byte range of the record and its kind, found
/// through the record's shape (``JSONMemberShape``), down the paths and into a money object as
/// ``JSONFieldLocator`` finds them.
struct JSONFieldValues {
  /// One field's value: a string without its quotes, a number or literal as written, an object or array with
  /// its brackets.
  struct Field {
    let range: Range<Int>
    let kind: FlatJSONObject.Kind
  }

  var amount: Field?
  var from: Field?
  var to: Field?
  var date: Field?
  /// For an amount that is a money object: the index of its amount member's name in
  /// ``JSONMoneyObject/amountNames``; −1 otherwise.
  var moneyAmountName = -1
  /// When the from-currency is the money object's: the index of its member's name in
  /// ``JSONMoneyObject/currencyNames``; −1 otherwise.
  var moneyCurrencyName = -1

  /// The bytes of a field.
  @inline(__always)
  static func value(_ field: Field, in bytes: ByteView) -> ByteView { bytes.slice(field.range) }

  /// Finds a record's fields.
  ///
  /// - Parameters:
  ///   - object: the record, scanned.
  ///   - shape: its shape (usable).
  ///   - bytes: the record's bytes.
  ///   - locator: the run's locator (its paths).
  ///   - inner: scratch for the objects a path steps into.
  /// - Returns: the fields (a role without a member has none); `nil` when the general path must decide: a step
  ///   that names no member, or a member twice, or meets something that is not an object; an amount object that
  ///   is not a money object; an object on the way this type does not read (``FlatJSONObject/scan(_:)``).
  @inline(__always)
  static func find(
    in object: FlatJSONObject, shape: JSONMemberShape, bytes: ByteView, locator: JSONFieldLocator,
    inner: inout FlatJSONObject
  ) -> JSONFieldValues? {
    // A known document's record type: a record of another (or none) is the general path's invalid_record.
    if let required = locator.requiredBytes, !hasMember(required, in: object, bytes: bytes) { return nil }
    var values = JSONFieldValues()
    @inline(__always) func field(_ index: Int) -> Field? {
      index < 0 ? nil : Field(range: object.valueRange(index), kind: object.kind(index))
    }
    values.amount = field(shape.amount)
    values.from = field(shape.from)
    values.to = field(shape.to)
    values.date = field(shape.date)
    if shape.descending != 0 {
      if shape.descends(.amount) {
        guard let start = values.amount, let end = follow(start, locator.stepBytes[0], bytes, &inner) else { return nil }
        values.amount = end
      }
      if shape.descends(.from) {
        guard let start = values.from, let end = follow(start, locator.stepBytes[1], bytes, &inner) else { return nil }
        values.from = end
      }
      if shape.descends(.to) {
        guard let start = values.to, let end = follow(start, locator.stepBytes[2], bytes, &inner) else { return nil }
        values.to = end
      }
      if shape.descends(.date) {
        guard let start = values.date, let end = follow(start, locator.stepBytes[3], bytes, &inner) else { return nil }
        values.date = end
      }
    }
    // A date path that leads nowhere is the record's missing_field (the general path says which step).
    if values.date == nil, !locator.stepBytes[3].isEmpty { return nil }
    if let amount = values.amount, amount.kind == .object {
      guard let money = moneyObject(amount, bytes, &inner) else { return nil }
      values.amount = money.amount
      values.moneyAmountName = money.amountName
      if locator.fromOfMoneyObject {
        // A from-currency member found by its name as well: the general path checks that the two agree.
        guard values.from == nil else { return nil }
        values.from = money.currency
        values.moneyCurrencyName = money.currencyName
      }
    }
    // A field written with escapes is read by the general path (its bytes are not its text).
    guard values.amount?.kind != .escapedString, values.from?.kind != .escapedString,
      values.to?.kind != .escapedString, values.date?.kind != .escapedString
    else { return nil }
    return values
  }

  /// Whether a record has the member `name` once, a string whose bytes are `value` (``RequiredMember``).
  private static func hasMember(
    _ required: (name: [UInt8], value: [UInt8]), in object: FlatJSONObject, bytes: ByteView
  ) -> Bool {
    var found = false
    for index in 0..<object.count {
      let name = object.name(index, in: bytes)
      guard name.count == required.name.count, name.hasBytes(required.name, at: 0) else { continue }
      guard !found, object.kind(index) == .string else { return false }
      let value = bytes.slice(object.valueRange(index))
      guard value.count == required.value.count, value.hasBytes(required.value, at: 0) else { return false }
      found = true
    }
    return found
  }

  /// The value at the end of a path from the value of its first member; `nil` when the general path must
  /// decide.
  private static func follow(_ first: Field, _ steps: [[UInt8]], _ bytes: ByteView, _ inner: inout FlatJSONObject)
    -> Field?
  {
    var current = first
    for step in steps.dropFirst() {
      guard current.kind == .object else { return nil }
      let object = bytes.slice(current.range)
      guard inner.scan(object) else { return nil }
      var found = -1
      for index in 0..<inner.count {
        let name = inner.name(index, in: object)
        // Names compare as Swift strings do in the general locator (canonical equivalence: U+212A KELVIN SIGN
        // is `K`); bytes agree with that only for ASCII names.
        guard !name.contains(where: { $0 >= 0x80 }) else { return nil }
        guard name.count == step.count, name.hasBytes(step, at: 0) else { continue }
        guard found < 0 else { return nil }
        found = index
      }
      guard found >= 0 else { return nil }
      let range = inner.valueRange(found)
      let base = current.range.lowerBound
      current = Field(range: base + range.lowerBound..<base + range.upperBound, kind: inner.kind(found))
    }
    return current
  }

  /// The amount and currency members of a money object (``JSONMoneyObject``); `nil` when the object is not
  /// one, or one of the names occurs twice.
  private static func moneyObject(_ field: Field, _ bytes: ByteView, _ inner: inout FlatJSONObject) -> (
    amount: Field, amountName: Int, currency: Field, currencyName: Int
  )? {
    let object = bytes.slice(field.range)
    guard inner.scan(object) else { return nil }
    var amount = -1
    var amountName = -1
    var currency = -1
    var currencyName = -1
    for index in 0..<inner.count {
      let name = inner.name(index, in: object)
      guard !name.contains(where: { $0 >= 0x80 }) else { return nil }  // as in `follow`
      for (known, bytes) in JSONMoneyObject.amountNameBytes.enumerated()
      where name.count == bytes.count && name.hasBytes(bytes, at: 0) {
        guard amount < 0 else { return nil }
        (amount, amountName) = (index, known)
      }
      for (known, bytes) in JSONMoneyObject.currencyNameBytes.enumerated()
      where name.count == bytes.count && name.hasBytes(bytes, at: 0) {
        guard currency < 0 else { return nil }
        (currency, currencyName) = (index, known)
      }
    }
    guard amount >= 0, currency >= 0 else { return nil }
    let base = field.range.lowerBound
    func absolute(_ index: Int) -> Field {
      let range = inner.valueRange(index)
      return Field(range: base + range.lowerBound..<base + range.upperBound, kind: inner.kind(index))
    }
    return (absolute(amount), amountName, absolute(currency), currencyName)
  }

  /// The names (or paths) of the fields, as the general locator reports them (its `located`).
  ///
  /// - Parameter valueDependent: `true` for the amount and a from-currency that a money object may give,
  ///   whose names depend on the record's values; `false` for the other roles, whose names depend on the shape
  ///   alone.
  func locatedNames(
    valueDependent: Bool, object: FlatJSONObject, shape: JSONMemberShape, bytes: ByteView, locator: JSONFieldLocator
  ) -> [(FieldMapping.Role, String)] {
    func name(_ role: FieldMapping.Role, _ index: Int) -> String {
      shape.descends(role) ? (locator.paths[role]?.written ?? "") : object.name(index, in: bytes).text
    }
    var names: [(FieldMapping.Role, String)] = []
    for (role, index) in [(FieldMapping.Role.amount, shape.amount), (.from, shape.from), (.to, shape.to), (.date, shape.date)] {
      let dependent = role == .amount || (role == .from && locator.fromOfMoneyObject)
      guard dependent == valueDependent, locator.roles.contains(role) else { continue }
      switch role {
      case .amount where index >= 0:
        let base = name(.amount, index)
        names.append((.amount, moneyAmountName >= 0 ? base + "." + JSONMoneyObject.amountNames[moneyAmountName] : base))
      case .from where moneyCurrencyName >= 0:
        names.append((.from, name(.amount, shape.amount) + "." + JSONMoneyObject.currencyNames[moneyCurrencyName]))
      default:
        if index >= 0 { names.append((role, name(role, index))) }
      }
    }
    return names
  }
}
