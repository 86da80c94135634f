/// A member every record of a file must have, with one value: the record type of a known document
/// (Stripe's `"object": "balance_transaction"`, ``JSONDocumentShape``), whose fields are read by that type's
/// names. A record of another type is `invalid_record`, never read with the wrong members.
public struct RequiredMember: Sendable, Equatable {
  /// The member's name (`object`).
  public let name: String
  /// Its value, a string (`balance_transaction`).
  public let value: String
  /// The document, for messages (`Stripe list of balance_transaction`).
  public let document: String

  public init(name: String, value: String, document: String) {
    self.name = name
    self.value = value
    self.document = document
  }

  /// The record's problem when its member is absent or another value.
  ///
  /// - Parameter found: the member's values in the record (a string's text; `nil` for a value that is not a
  ///   string).
  func problem(_ found: [String?]) -> RowError? {
    if found.count == 1, found[0] == value { return nil }
    let what: String
    switch found.count {
    case 0: what = "has no \(RowError.quoted(name)) member"
    case 1: what = found[0].map { "is a \(RowError.quoted($0))" } ?? "has an \(RowError.quoted(name)) that is not a string"
    default: what = "has the member \(RowError.quoted(name)) \(found.count) times"
    }
    // "the Stripe list of balance_transaction says", "the Stripe charge objects say"
    let verb = document.hasSuffix(" objects") ? "say" : "says"
    return RowError(
      .invalidRecord,
      "the record \(what), not a \(RowError.quoted(value)) as the \(document) \(verb); fxbatch reads a record by its "
        + "own type's members only")
  }
}
