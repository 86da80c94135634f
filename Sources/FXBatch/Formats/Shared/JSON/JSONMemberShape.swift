/// What a JSON record's member names say, resolved once per distinct sequence of names (``FieldShapeCache``):
/// which member plays each role, as ``JSONFieldLocator`` finds them. Integers only: it is copied out of the
/// cache for every record.
struct JSONMemberShape {
  /// Whether records of this shape can take the fast path: no member is an annotation member (`fx_status`,
  /// `fx_input`), no name occurs twice and no two names name the same field. Otherwise the general path writes
  /// the record's `invalid_record` error.
  let isUsable: Bool
  /// The 0-based member index of each role's field; −1 when the record has none.
  let amount: Int
  let from: Int
  let to: Int
  let date: Int

  /// Resolves the names of a record object.
  ///
  /// - Parameters:
  ///   - names: the member names in document order, decoded as the general parser decodes them.
  ///   - locator: the run's field locator.
  init(names: [String], locator: JSONFieldLocator) {
    let members = names.map { (key: $0, value: JSONValue.null) }
    if names.contains(where: { $0 == "fx_input" || AnnotationColumn(rawValue: $0) != nil }) {
      (isUsable, amount, from, to, date) = (false, -1, -1, -1, -1)
      return
    }
    let fields = locator.fields(of: members).fields
    let found = FieldMapping.locate(in: names.map(FieldMapping.normalizedName), names: locator.names, roles: locator.roles)
    isUsable = fields.problem == nil
    amount = found[.amount] ?? -1
    from = found[.from] ?? -1
    to = found[.to] ?? -1
    date = found[.date] ?? -1
  }
}
