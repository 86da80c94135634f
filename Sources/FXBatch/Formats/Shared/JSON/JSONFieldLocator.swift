/// Finds a JSON record's fields by member name, as a CSV header's fields are found: the names given with
/// `--amount-field` and so on, else the first member matching a role's synonyms (``FieldMapping/Role``),
/// ignoring case, spaces, `_`, `-` and `.`. A name with a `.` is a path into nested objects
/// (``JSONFieldPath``), and an amount that is an object with a value and a currency member is a money object
/// (``JSONMoneyObject``).
///
/// JSON records need not share their members, so each record is looked at on its own.
public struct JSONFieldLocator: Sendable {
  /// Names the user gave.
  public let names: FieldNames
  /// The roles looked for: amount, from (unless `--from`), to (unless `--to`), date.
  public let roles: [FieldMapping.Role]
  /// The names given as paths of more than one step, per role.
  let paths: [FieldMapping.Role: JSONFieldPath]
  /// The names given as one step (escapes decoded), matched as a CSV header's; `nil` for the roles of `paths`.
  let plainNames: FieldNames
  /// Whether a money object's currency is the from-currency: it is looked for (no `--from`) and not named.
  let fromOfMoneyObject: Bool
  /// The fast paths' steps of each role's path as bytes, for amount, from, to, date (empty: not a path).
  let stepBytes: [[[UInt8]]]
  /// The member every record must have (a known document's record type, ``RequiredMember``), and its name and
  /// value as bytes for the fast paths.
  var requiredMember: RequiredMember? = nil {
    didSet { requiredBytes = requiredMember.map { (Array($0.name.utf8), Array($0.value.utf8)) } }
  }
  private(set) var requiredBytes: (name: [UInt8], value: [UInt8])? = nil
  /// With several amounts (``FieldNames/amounts``), a locator of each amount alone, in order
  /// (``RecordFields/amounts``); empty for one amount.
  let amountLocators: [JSONFieldLocator]
  /// The annotation members a record must not have already (``AnnotationLayout/existingNames``).
  let annotationNames: Set<String>

  public init(names: FieldNames, fixedFrom: Bool, fixedTo: Bool) {
    self.init(names: names, fixedFrom: fixedFrom, fixedTo: fixedTo, amountOnly: false)
  }

  /// - Parameter amountOnly: whether it finds the amount alone (and a money object's currency), as one of
  ///   several amounts.
  private init(names: FieldNames, fixedFrom: Bool, fixedTo: Bool, amountOnly: Bool) {
    self.names = names
    annotationNames = amountOnly ? [] : AnnotationLayout(amountNames: names.amountNames).existingNames
    roles = amountOnly ? [.amount] : [.amount] + (fixedFrom ? [] : [.from]) + (fixedTo ? [] : [.to]) + [.date]
    amountLocators =
      amountOnly
      ? []
      : names.amounts.indices.map {
        JSONFieldLocator(names: names.reading(amount: $0), fixedFrom: fixedFrom, fixedTo: fixedTo, amountOnly: true)
      }
    var paths: [FieldMapping.Role: JSONFieldPath] = [:]
    var plain = FieldNames()
    for role in FieldMapping.Role.allCases {
      guard let name = names.name(of: role) else { continue }
      let path = JSONFieldPath(name)
      if path.isPath {
        paths[role] = path
      } else {
        switch role {
        case .amount: plain.amount = path.wholeName
        case .from: plain.from = path.wholeName
        case .to: plain.to = path.wholeName
        case .date: plain.date = path.wholeName
        }
      }
    }
    self.paths = paths
    stepBytes = [FieldMapping.Role.amount, .from, .to, .date].map { paths[$0]?.stepBytes ?? [] }
    // Several amounts: every amount's member is kept from the other roles' synonyms.
    plain.amounts = names.amounts
    plainNames = plain
    fromOfMoneyObject = !fixedFrom && names.from == nil
  }

  /// What a record's member names alone say: the member each role's field is read from (or its path starts
  /// at), and a problem of the names.
  struct MemberLayout {
    /// Per role found: the member's 0-based index.
    var index: [FieldMapping.Role: Int] = [:]
    /// The roles whose path goes on from `index` (the others read the member at `index`).
    var descends: Set<FieldMapping.Role> = []
    /// `invalid_record`: a member twice, two members naming one field, or a member named like a whole path
    /// beside the member its first step names.
    var problem: RowError?
  }

  /// A record object's member names (in document order, as decoded) as ``layout(of:)-(MemberNames)`` reads
  /// them, made once per record and shared by the locators of several amounts: without that, 10,000 amounts
  /// normalized 10,000 × 10,000 names per record.
  struct MemberNames {
    let keys: [String]
    let normalized: [String]
    /// The first name that occurs twice.
    let twice: String?

    init(_ keys: [String]) {
      self.keys = keys
      normalized = keys.map(FieldMapping.normalizedName)
      var seen: Set<String> = []
      twice = keys.first(where: { !seen.insert($0).inserted })
    }
  }

  /// The layout of a record object's member names (in document order, as decoded).
  func layout(of keys: [String]) -> MemberLayout {
    layout(of: MemberNames(keys))
  }

  /// The layout of a record object's member names.
  func layout(of memberNames: MemberNames) -> MemberLayout {
    let keys = memberNames.keys
    var layout = MemberLayout()
    var reserved: Set<Int> = []
    var ambiguous: (role: FieldMapping.Role, path: JSONFieldPath, member: String)?
    for role in roles {
      guard let path = paths[role] else { continue }
      let whole = keys.firstIndex(of: path.wholeName)
      let first = keys.firstIndex(of: path.steps[0])
      if let whole, let first {
        if ambiguous == nil { ambiguous = (role, path, keys[first]) }
        reserved.formUnion([whole, first])
      } else if let whole {
        layout.index[role] = whole
        reserved.insert(whole)
      } else if let first {
        layout.index[role] = first
        layout.descends.insert(role)
        reserved.insert(first)
      }
    }
    let normalized = memberNames.normalized
    let plainRoles = roles.filter { paths[$0] == nil }
    let found = FieldMapping.locate(in: normalized, names: plainNames, roles: plainRoles, reserved: reserved)
    layout.index.merge(found) { path, _ in path }
    if let twice = memberNames.twice {
      layout.problem = RowError(.invalidRecord, "the member \(RowError.quoted(twice)) occurs twice")
    } else if let (role, index) = found.sorted(by: { $0.value < $1.value }).first(where: { role, index in
      normalized.indices.contains { $0 != index && normalized[$0] == normalized[index] }
    }) {
      let clashing = normalized.indices.filter { normalized[$0] == normalized[index] }.map { RowError.quoted(keys[$0]) }
      layout.problem = RowError(
        .invalidRecord, "the members \(clashing.joined(separator: " and ")) both name the \(role.fieldName)")
    } else if let (role, path, member) = ambiguous {
      layout.problem = RowError(
        .invalidRecord,
        "\(role.optionName) \(RowError.quoted(path.written)) names both the member \(RowError.quoted(path.wholeName))"
          + " and a path into the member \(RowError.quoted(member)); fxbatch does not pick one"
          + " (write \(JSONFieldPath.escaped(path.wholeName)) for the member \(RowError.quoted(path.wholeName)))"
      )
    }
    return layout
  }

  /// A record's fields, whatever it holds.
  ///
  /// - Parameter record: a records-array element or a JSON Lines line.
  /// - Returns: the fields (``RecordFields/invalid(_:)`` for a record that is not an object, or that already
  ///   has an annotation member such as `fx_status` or `fx_converted_Fee`: extending it would repeat the member), role → member name
  ///   of the fields found, and whether the record can be extended with the annotation members.
  public func fields(of record: JSONRecordText) -> (
    fields: RecordFields, located: [FieldMapping.Role: String], extendable: Bool
  ) {
    let members: [(key: String, value: JSONValue)]
    switch record.members() {
    case .success(let found): members = found
    case .failure(let error): return (.invalid(error), [:], false)
    }
    if let annotation = members.first(where: { annotationNames.contains($0.key) }) {
      let problem = RowError(
        .invalidRecord, "the record already has the member \(RowError.quoted(annotation.key)); is it fxbatch output?")
      return (.invalid(problem), [:], false)
    }
    let (fields, located) = fields(of: members)
    return (fields, located, true)
  }

  /// A record object's fields.
  ///
  /// - Parameter members: the record object's members in document order.
  /// - Returns: the fields, with an `invalid_record` problem when a member occurs twice or two members name
  ///   the same field (`amount` and `Amount`) — never a silent choice of one —, when a path meets an array or a
  ///   value that is not an object, or a member on a path occurs twice; a `missing_field` problem when a path
  ///   leads nowhere (a date's too: a date member found by one name may be absent, a path may not); an `invalid_amount`
  ///   problem when the amount is an object that is not a money object. And role → member name (or path) of the
  ///   fields found.
  public func fields(of members: [(key: String, value: JSONValue)]) -> (
    fields: RecordFields, located: [FieldMapping.Role: String]
  ) {
    var (fields, located, _) = resolve(members)
    fields.label = Self.label(of: members)
    return (fields, located)
  }

  /// A record object's first non-empty field (``RecordFields/label``): its first member whose value is a string
  /// that is not blank, or a number; members of other kinds are passed over.
  static func label(of members: [(key: String, value: JSONValue)]) -> String? {
    for (_, value) in members {
      switch value {
      case .string(let text) where !text.trimmingWhitespace.isEmpty: return text
      case .number(let text): return text
      default: continue
      }
    }
    return nil
  }

  /// The currency member of a record's money object that `--from` would pass over: its name (`amount.currency`),
  /// when the amount is a money object and the from-currency is not named; `nil` otherwise.
  func overriddenMoneyCurrency(in members: [(key: String, value: JSONValue)]) -> String? {
    guard names.from == nil else { return nil }
    let probe = JSONFieldLocator(names: names, fixedFrom: false, fixedTo: !roles.contains(.to))
    return probe.resolve(members).moneyCurrency
  }

  /// ``fields(of:)-([(key:String,value:JSONValue)])``, and the name of the money object's currency member that
  /// gave the from-currency.
  ///
  /// - Parameter memberNames: the record's member names, made once for the locators of several amounts; `nil`:
  ///   made here.
  private func resolve(_ members: [(key: String, value: JSONValue)], memberNames: MemberNames? = nil) -> (
    fields: RecordFields, located: [FieldMapping.Role: String], moneyCurrency: String?
  ) {
    let shared = memberNames ?? MemberNames(members.map(\.key))
    let layout = layout(of: shared)
    let required = requiredMember.flatMap { required in
      required.problem(members.filter { $0.key == required.name }.map(\.value.stringValue))
    }
    var fields = RecordFields(
      amount: .absent, from: .absent, to: .absent, date: .absent, problem: required ?? layout.problem)
    var located: [FieldMapping.Role: String] = [:]
    if !amountLocators.isEmpty {
      let each = amountLocators.map { $0.resolve(members, memberNames: shared) }
      fields.amounts = each.map(\.fields)
      // A from-currency that only a later amount's money object gives.
      located[.from] = each.lazy.compactMap(\.moneyCurrency).first
    }
    func note(_ problem: RowError) {
      if fields.problem == nil { fields.problem = problem }
    }
    var moneyCurrency: (value: JSONValue, name: String)?
    // The from-currency member found by its name (a synonym), which a money object's currency must agree with.
    var flatFrom: JSONValue?
    for role in roles {
      guard let index = layout.index[role] else {
        if let path = paths[role] { note(Self.missing(path, found: 0, role: role)) }
        continue
      }
      var value = members[index].value
      var name = members[index].key
      if layout.descends.contains(role), let path = paths[role] {
        switch Self.follow(path, from: value, role: role) {
        case .success(let end):
          value = end
          name = path.written
        case .failure(let problem):
          note(problem)
          continue
        }
      }
      if role == .amount, case .object(let inner) = value {
        switch Self.money(inner, at: name) {
        case .success(let money):
          value = money.amount
          located[.amount] = name + "." + money.amountName
          if fromOfMoneyObject { moneyCurrency = (money.currency, name + "." + money.currencyName) }
          fields.amount = Self.value(value)
        case .failure(let problem):
          note(problem)
          located[.amount] = name
          fields.amount = Self.value(value)
        }
        continue
      }
      located[role] = name
      switch role {
      case .amount: fields.amount = Self.value(value)
      case .from:
        fields.from = Self.value(value)
        flatFrom = value
      case .to: fields.to = Self.value(value)
      case .date: fields.date = Self.value(value)
      }
    }
    if let moneyCurrency {
      // Two currencies for one amount that disagree: never a silent choice (as an XML money element's).
      if let own = moneyCurrency.value.stringValue?.trimmingWhitespace,
        let other = flatFrom?.stringValue?.trimmingWhitespace, !other.isEmpty, own.uppercased() != other.uppercased()
      {
        note(
          RowError(
            .invalidRecord,
            "the currency member of the amount says \(RowError.quoted(own)) and the record's from-currency field "
              + "\(RowError.quoted(other)); give --from-field to choose one"))
      }
      fields.from = Self.value(moneyCurrency.value)
      located[.from] = moneyCurrency.name
    }
    return (fields, located, moneyCurrency?.name)
  }

  /// Why a record has no field for a role read through a path: the missing step, or a step that meets an array
  /// or something that is not an object; `nil` when the path leads to a value (or the role has no path).
  func problem(of role: FieldMapping.Role, in members: [(key: String, value: JSONValue)]) -> RowError? {
    guard let path = paths[role] else { return nil }
    let layout = layout(of: members.map(\.key))
    guard let index = layout.index[role] else { return layout.problem ?? Self.missing(path, found: 0, role: role) }
    guard layout.descends.contains(role) else { return nil }
    if case .failure(let problem) = Self.follow(path, from: members[index].value, role: role) { return problem }
    return nil
  }

  /// The `missing_field` problem of a path whose step `found` (0-based) names no member.
  static func missing(_ path: JSONFieldPath, found: Int, role: FieldMapping.Role) -> RowError {
    let inside = found == 0 ? "" : " in \(RowError.quoted(path.prefix(found)))"
    return RowError(
      .missingField,
      "the record has no member \(RowError.quoted(path.steps[found]))\(inside) (\(role.optionName) \(path.written))")
  }

  /// The value at the end of a path, from the value of the member its first step names.
  ///
  /// - Returns: the value, or `missing_field` when a step names no member; `invalid_record` when a step meets
  ///   an array or a value that is not an object, or names a member that occurs twice.
  static func follow(_ path: JSONFieldPath, from first: JSONValue, role: FieldMapping.Role) -> Result<JSONValue, RowError> {
    var current = first
    for step in 1..<path.steps.count {
      let members: [(key: String, value: JSONValue)]
      switch current {
      case .object(let found): members = found
      case .array:
        return .failure(
          RowError(
            .invalidRecord,
            "the path \(RowError.quoted(path.written)) meets an array at \(RowError.quoted(path.prefix(step)));"
              + " a path names members of objects, not elements of arrays"))
      default:
        return .failure(
          RowError(
            .invalidRecord,
            "the path \(RowError.quoted(path.written)) meets \(JSONRecordText.kind(of: current)) at"
              + " \(RowError.quoted(path.prefix(step))), not an object"))
      }
      let matches = members.indices.filter { members[$0].key == path.steps[step] }
      guard let match = matches.first else { return .failure(missing(path, found: step, role: role)) }
      guard matches.count == 1 else {
        return .failure(
          RowError(
            .invalidRecord,
            "the member \(RowError.quoted(path.steps[step])) occurs twice in \(RowError.quoted(path.prefix(step)))"))
      }
      current = members[match].value
    }
    return .success(current)
  }

  /// The amount and the currency of a money object (``JSONMoneyObject``).
  ///
  /// - Parameters:
  ///   - members: the object's members.
  ///   - name: the amount's member name or path, for messages.
  /// - Returns: the values and the names of the two members; `invalid_record` when one of the known names
  ///   occurs twice, `invalid_amount` when the object is not a money object.
  static func money(_ members: [(key: String, value: JSONValue)], at name: String) -> Result<
    (amount: JSONValue, amountName: String, currency: JSONValue, currencyName: String), RowError
  > {
    let amounts = JSONMoneyObject.amountNames.filter { known in members.contains { $0.key == known } }
    let currencies = JSONMoneyObject.currencyNames.filter { known in members.contains { $0.key == known } }
    for known in amounts + currencies where members.filter({ $0.key == known }).count > 1 {
      return .failure(
        RowError(.invalidRecord, "the member \(RowError.quoted(known)) occurs twice in \(RowError.quoted(name))"))
    }
    guard amounts.count == 1, currencies.count == 1,
      let amount = members.first(where: { $0.key == amounts[0] }),
      let currency = members.first(where: { $0.key == currencies[0] })
    else {
      return .failure(
        RowError(
          .invalidAmount,
          JSONMoneyObject.notMoney(at: name, amountNamesFound: amounts, currencyNamesFound: currencies)))
    }
    return .success((amount.value, amount.key, currency.value, currency.key))
  }

  /// A member's value as a field value.
  static func value(_ value: JSONValue) -> RecordFields.Value {
    switch value {
    case .string(let text): return .text(text)
    case .number(let text): return .number(text)
    case .null: return .null
    case .bool(let flag): return .other(flag ? "true" : "false")
    case .object: return .other("an object")
    case .array: return .other("an array")
    }
  }
}
