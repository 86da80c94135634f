/// Finds an XML record's fields among its attributes and child elements, as a CSV header's fields are found:
/// the names given with `--amount-field` and so on (`@currency` names an attribute only, `currency` a child
/// element or else an attribute), else the first attribute or child matching a role's synonyms
/// (``FieldMapping/Role``), ignoring case, spaces, `_`, `-` and `.`. A field's value is its text, trimmed.
public struct XMLFieldLocator: Sendable {
  public let names: FieldNames
  public let roles: [FieldMapping.Role]

  /// The child element fxbatch adds to each record.
  public static let annotationElement = "fx"

  public init(names: FieldNames, fixedFrom: Bool, fixedTo: Bool) {
    self.names = names
    roles = [.amount] + (fixedFrom ? [] : [.from]) + (fixedTo ? [] : [.to]) + [.date]
  }

  /// A record's fields.
  ///
  /// - Returns: the fields, with an `invalid_record` problem when the record already has an `fx` child (it is
  ///   fxbatch output) or a field name occurs twice; and role → field name (`@name` for an attribute).
  public func fields(of record: XMLRecord) -> (fields: RecordFields, located: [FieldMapping.Role: String]) {
    // Candidates: attributes first, then child elements, in document order.
    let candidates: [(name: String, isAttribute: Bool, text: String)] =
      record.attributes.map { ($0.name, true, $0.value) } + record.children.map { ($0.name, false, $0.text) }
    let normalized = candidates.map { FieldMapping.normalizedName($0.name) }
    var used: Set<Int> = []
    var found: [FieldMapping.Role: Int] = [:]
    func index(named name: String) -> Int? {
      if name.hasPrefix("@") {
        let wanted = FieldMapping.normalizedName(String(name.dropFirst()))
        return candidates.indices.first { candidates[$0].isAttribute && normalized[$0] == wanted }
      }
      let wanted = FieldMapping.normalizedName(name)
      return candidates.indices.first { !candidates[$0].isAttribute && normalized[$0] == wanted }
        ?? candidates.indices.first { normalized[$0] == wanted }
    }
    for role in roles {
      if let name = names.name(of: role), let index = index(named: name) { used.insert(index) }
    }
    for role in roles {
      if let name = names.name(of: role) {
        found[role] = index(named: name)
        continue
      }
      for synonym in role.synonyms {
        if let index = candidates.indices.first(where: { normalized[$0] == synonym && !used.contains($0) }) {
          used.insert(index)
          found[role] = index
          break
        }
      }
    }
    var fields = RecordFields(amount: .absent, from: .absent, to: .absent, date: .absent)
    var located: [FieldMapping.Role: String] = [:]
    for (role, index) in found {
      let value = RecordFields.Value.text(candidates[index].text.trimmingWhitespace)
      switch role {
      case .amount: fields.amount = value
      case .from: fields.from = value
      case .to: fields.to = value
      case .date: fields.date = value
      }
      located[role] = (candidates[index].isAttribute ? "@" : "") + candidates[index].name
    }
    if record.children.contains(where: { $0.name == Self.annotationElement }) {
      fields.problem = RowError(.invalidRecord, "the record already has an <fx> element; is it fxbatch output?")
    } else if let (_, index) = found.sorted(by: { $0.value < $1.value }).first(where: { _, index in
      candidates.indices.contains {
        $0 != index && candidates[$0].isAttribute == candidates[index].isAttribute
          && candidates[$0].name == candidates[index].name
      }
    }) {
      let kind = candidates[index].isAttribute ? "attribute" : "element"
      fields.problem = RowError(.invalidRecord, "the \(kind) \(RowError.quoted(candidates[index].name)) occurs twice")
    }
    return (fields, located)
  }
}
