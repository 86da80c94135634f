/// A JSON value (RFC 8259) as fxbatch reads it: numbers keep their text, so an amount or a rate is read
/// exactly (``ExactDecimal``), never through `Double`; objects keep their members in document order, duplicates
/// included, so a reader can refuse a record with the same key twice.
public indirect enum JSONValue: Equatable, Sendable {
  case object([(key: String, value: JSONValue)])
  case array([JSONValue])
  case string(String)
  /// The number's text exactly as written, e.g. `"1.0556"`, `"-3e2"`.
  case number(String)
  case bool(Bool)
  case null

  /// The value of the first member named `key`, when `self` is an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The number's text, when `self` is a number.
  public var numberText: String? {
    if case .number(let text) = self { return text }
    return nil
  }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.object(let l), .object(let r)):
      return l.count == r.count && zip(l, r).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.array(let l), .array(let r)): return l == r
    case (.string(let l), .string(let r)): return l == r
    case (.number(let l), .number(let r)): return l == r
    case (.bool(let l), .bool(let r)): return l == r
    case (.null, .null): return true
    default: return false
    }
  }
}
