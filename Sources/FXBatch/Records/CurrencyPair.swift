/// An ordered pair of currencies: one unit of `base` is quoted in units of `quote` (EUR/USD 1.1172 means
/// 1 EUR = 1.1172 USD).
public struct CurrencyPair: Hashable, Sendable, CustomStringConvertible {
  public let base: CurrencyCode
  public let quote: CurrencyCode

  public init(base: CurrencyCode, quote: CurrencyCode) {
    self.base = base
    self.quote = quote
  }

  /// `"EUR/USD"`.
  public var description: String { "\(base)/\(quote)" }
}

/// One distinct question a batch asks of the rates: the rate of a pair on a day.
public struct RateKey: Hashable, Sendable {
  public let pair: CurrencyPair
  /// The record's value date (or the default day for records without one).
  public let day: CalendarDay

  public init(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) {
    pair = CurrencyPair(base: base, quote: quote)
    self.day = day
  }
}
