/// Finds a JSON record's fields by member name, as a CSV header's fields are found: the names given with
/// `--amount-field` and so on, else the first member matching a role's synonyms (``FieldMapping/Role``),
/// ignoring case, spaces, `_`, `-` and `.`.
///
/// JSON records need not share their members, so each record is looked at on its own.
public struct JSONFieldLocator: Sendable {
  /// Names the user gave.
  public let names: FieldNames
  /// The roles looked for: amount, from (unless `--from`), to (unless `--to`), date.
  public let roles: [FieldMapping.Role]

  public init(names: FieldNames, fixedFrom: Bool, fixedTo: Bool) {
    self.names = names
    roles = [.amount] + (fixedFrom ? [] : [.from]) + (fixedTo ? [] : [.to]) + [.date]
  }

  /// A record's fields, whatever it holds.
  ///
  /// - Parameter record: a records-array element or a JSON Lines line.
  /// - Returns: the fields (``RecordFields/invalid(_:)`` for a record that is not an object, or that already
  ///   has an annotation member such as `fx_status`: extending it would repeat the member), role → member name
  ///   of the fields found, and whether the record can be extended with the annotation members.
  public func fields(of record: JSONRecordText) -> (
    fields: RecordFields, located: [FieldMapping.Role: String], extendable: Bool
  ) {
    let members: [(key: String, value: JSONValue)]
    switch record.members() {
    case .success(let found): members = found
    case .failure(let error): return (.invalid(error), [:], false)
    }
    if let annotation = members.first(where: { $0.key == "fx_input" || AnnotationColumn(rawValue: $0.key) != nil }) {
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
  ///   the same field (`amount` and `Amount`) — never a silent choice of one; and role → member name of the
  ///   fields found.
  public func fields(of members: [(key: String, value: JSONValue)]) -> (
    fields: RecordFields, located: [FieldMapping.Role: String]
  ) {
    let normalized = members.map { FieldMapping.normalizedName($0.key) }
    let found = FieldMapping.locate(in: normalized, names: names, roles: roles)
    var fields = RecordFields(amount: .absent, from: .absent, to: .absent, date: .absent)
    var located: [FieldMapping.Role: String] = [:]
    for (role, index) in found {
      let value = Self.value(members[index].value)
      switch role {
      case .amount: fields.amount = value
      case .from: fields.from = value
      case .to: fields.to = value
      case .date: fields.date = value
      }
      located[role] = members[index].key
    }
    var seen: Set<String> = []
    if let twice = members.first(where: { !seen.insert($0.key).inserted }) {
      fields.problem = RowError(.invalidRecord, "the member \(RowError.quoted(twice.key)) occurs twice")
    } else if let (role, index) = found.sorted(by: { $0.value < $1.value }).first(where: { role, index in
      normalized.indices.contains { $0 != index && normalized[$0] == normalized[index] }
    }) {
      let clashing = normalized.indices.filter { normalized[$0] == normalized[index] }.map { RowError.quoted(members[$0].key) }
      fields.problem = RowError(
        .invalidRecord, "the members \(clashing.joined(separator: " and ")) both name the \(role.fieldName)")
    }
    return (fields, located)
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
