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

  /// Where the fields were in the last record looked at: records of one document are usually laid out alike,
  /// and finding the fields by name (normalizing every name, matching synonyms) costs more than reading them.
  private var cached: Layout? = nil

  /// Where a record's fields are, which depends only on the names of its attributes and child elements.
  struct Layout: Sendable {
    let attributeNames: [String]
    let childNames: [String]
    /// Each role found and its field: an index into the attributes, then the child elements.
    let found: [(role: FieldMapping.Role, index: Int)]
    /// Role → field name (`@name` for an attribute).
    let located: [FieldMapping.Role: String]
    /// An `invalid_record` problem: an `fx` child (fxbatch output), or a field name twice.
    let problem: RowError?

    func matches(_ record: XMLRecord) -> Bool {
      attributeNames.count == record.attributes.count && childNames.count == record.children.count
        && zip(attributeNames, record.attributes).allSatisfy { $0 == $1.name }
        && zip(childNames, record.children).allSatisfy { $0 == $1.name }
    }
  }

  /// A record's fields.
  ///
  /// - Returns: the fields, with an `invalid_record` problem when the record already has an `fx` child (it is
  ///   fxbatch output) or a field name occurs twice; and role → field name (`@name` for an attribute).
  public mutating func fields(of record: XMLRecord) -> (fields: RecordFields, located: [FieldMapping.Role: String]) {
    let layout: Layout
    if let cached, cached.matches(record) {
      layout = cached
    } else {
      layout = self.layout(attributeNames: record.attributes.map(\.name), childNames: record.children.map(\.name))
      cached = layout
    }
    var fields = RecordFields(amount: .absent, from: .absent, to: .absent, date: .absent)
    for (role, index) in layout.found {
      let text =
        index < record.attributes.count
        ? record.attributes[index].value : record.children[index - record.attributes.count].text
      let value = RecordFields.Value.text(text.trimmingWhitespace)
      switch role {
      case .amount: fields.amount = value
      case .from: fields.from = value
      case .to: fields.to = value
      case .date: fields.date = value
      }
    }
    fields.problem = layout.problem
    return (fields, layout.located)
  }

  /// Finds the fields among a record's attribute and child element names.
  func layout(attributeNames: [String], childNames: [String]) -> Layout {
    // Candidates: attributes first, then child elements, in document order.
    let candidates: [(name: String, isAttribute: Bool)] =
      attributeNames.map { ($0, true) } + childNames.map { ($0, false) }
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
    var located: [FieldMapping.Role: String] = [:]
    for (role, index) in found { located[role] = (candidates[index].isAttribute ? "@" : "") + candidates[index].name }
    var problem: RowError? = nil
    if childNames.contains(Self.annotationElement) {
      problem = RowError(.invalidRecord, "the record already has an <fx> element; is it fxbatch output?")
    } else if let (_, index) = found.sorted(by: { $0.value < $1.value }).first(where: { _, index in
      candidates.indices.contains {
        $0 != index && candidates[$0].isAttribute == candidates[index].isAttribute
          && candidates[$0].name == candidates[index].name
      }
    }) {
      let kind = candidates[index].isAttribute ? "attribute" : "element"
      problem = RowError(.invalidRecord, "the \(kind) \(RowError.quoted(candidates[index].name)) occurs twice")
    }
    return Layout(
      attributeNames: attributeNames, childNames: childNames,
      found: found.sorted { $0.value < $1.value }.map { ($0.key, $0.value) }, located: located, problem: problem)
  }
}
