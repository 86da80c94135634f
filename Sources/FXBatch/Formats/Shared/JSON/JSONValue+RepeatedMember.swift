extension JSONValue {
  /// The path of the first member named twice in one object, at any depth (`files[2].counts.ok`), or `nil`.
  ///
  /// Readers disagree on such a document — Foundation's decoder takes the first value, Python and jq the last
  /// — so a file whose figures are checked (a report to merge, a lock) is refused rather than read one way.
  public var repeatedMember: String? { repeatedMember(under: "") }

  private func repeatedMember(under path: String) -> String? {
    switch self {
    case .object(let members):
      var seen = Set<String>()
      for (key, _) in members where !seen.insert(key).inserted {
        return path.isEmpty ? key : "\(path).\(key)"
      }
      for (key, value) in members {
        if let found = value.repeatedMember(under: path.isEmpty ? key : "\(path).\(key)") { return found }
      }
      return nil
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        if let found = element.repeatedMember(under: "\(path)[\(index)]") { return found }
      }
      return nil
    case .string, .number, .bool, .null:
      return nil
    }
  }
}
