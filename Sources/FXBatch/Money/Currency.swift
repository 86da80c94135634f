/// A currency as ISO 4217 lists it: its code, its minor units and its English name.
public struct Currency: Hashable, Sendable {
  /// The ISO 4217 alphabetic code.
  public let code: CurrencyCode
  /// The number of decimal places of the currency's minor unit (2 for USD cents, 0 for JPY, 3 for KWD).
  /// Converted amounts are rounded to this many decimals.
  public let minorUnits: Int
  /// The English name ISO 4217 gives, e.g. "Pound Sterling".
  public let name: String
  /// The year and month ISO 4217 withdrew the code (List Three), e.g. `"2008-01"`; `nil` for a current code.
  public let withdrawn: String?

  /// Whether the code is historic (withdrawn from ISO 4217 List One).
  public var isHistoric: Bool { withdrawn != nil }
}
