/// `--amount-unit`: what an amount field counts.
public enum AmountUnit: String, CaseIterable, Sendable {
  /// The currency's main unit, as written: `12.50` USD is twelve dollars fifty (the default).
  case major
  /// Whole ISO 4217 minor units of the from-currency, as payment APIs write them: `1250` USD is 12.50,
  /// `1250` JPY is 1250 (no minor unit), `1250` KWD is 1.250 (three decimals).
  case minor
}
