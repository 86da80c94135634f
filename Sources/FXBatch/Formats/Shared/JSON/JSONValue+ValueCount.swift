extension JSONValue {
  /// How many values the value is, as ``JSONParser/parse(_:maximumValues:)`` counts them: itself, and each
  /// member's value and array element at any depth.
  var valueCount: Int {
    switch self {
    case .object(let members): return members.reduce(1) { $0 + $1.value.valueCount }
    case .array(let elements): return elements.reduce(1) { $0 + $1.valueCount }
    case .string, .number, .bool, .null: return 1
    }
  }
}
