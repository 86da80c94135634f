/// The fields of one record that conversion reads — amount, from- and to-currency, date — whatever the file's
/// format, before they are interpreted (``RecordNormalizer``).
///
/// A CSV record gives text for every role (an absent cell is empty text); a JSON record gives each member's
/// kind as written, so that `null`, a missing member and a number are told apart and never read as 0.
public struct RecordFields: Sendable, Equatable {
  /// One field's value as the file holds it.
  public enum Value: Sendable, Equatable {
    /// Text: a CSV cell, or a JSON string (escapes decoded).
    case text(String)
    /// A JSON number, its text exactly as written (`12345678901234567.89`, `1e3`).
    case number(String)
    /// A JSON `null`.
    case null
    /// The record has no field for the role.
    case absent
    /// A JSON value of another kind, described for a message (`true`, `an object`, `an array`).
    case other(String)
  }

  public var amount: Value
  public var from: Value
  public var to: Value
  public var date: Value
  /// A problem with the whole record (`extra_fields`, `invalid_record`); it is the record's error, before any
  /// field is looked at.
  public var problem: RowError?
  /// With several amounts (`--amount-field A,B,C`), each amount read on its own, in order: its ``amount``, the
  /// from-currency its money object or money element gives (``from``; else absent), and a ``problem`` of its
  /// field alone (a path that leads nowhere, an object that is not a money object); empty for one amount.
  /// ``RecordConverter`` converts them all at the record's one rate.
  public var amounts: [RecordFields] = []
  /// The record's first non-empty field as text (a CSV or workbook cell, a JSON member's string or number), which
  /// ``RowSkipRule`` judges; `nil` when it has none, or in a format without one (XML).
  public var label: String? = nil

  public init(amount: Value, from: Value, to: Value, date: Value, problem: RowError? = nil) {
    self.amount = amount
    self.from = from
    self.to = to
    self.date = date
    self.problem = problem
  }

  /// A record whose fields cannot be read at all (a JSON Lines line that is not an object).
  public static func invalid(_ problem: RowError) -> RecordFields {
    RecordFields(amount: .absent, from: .absent, to: .absent, date: .absent, problem: problem)
  }
}
