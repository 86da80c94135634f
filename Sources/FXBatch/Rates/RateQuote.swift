/// The answer to a ``RateKey``: the rate used, the day it was published, and where it came from.
public struct RateQuote: Sendable, Equatable {
  /// The exact rate: units of the quote currency per one unit of the base currency.
  public let rate: ExchangeRate
  /// The rate as written in `fx_rate`: exact when it terminates within 10 significant digits, otherwise rounded
  /// half-even to 10 significant digits (display only; conversions use ``rate``).
  public let rateText: String
  /// The publication day of the rates used; `nil` for an undated (fixed) rate table.
  public let rateDay: CalendarDay?
  /// Whether the rate comes from an earlier publication day than the record's date (weekend, holiday).
  public let isFallback: Bool
  /// The source and the published legs the rate is computed from, e.g.
  /// `"ecb-embedded EUR/USD=1.1172 EUR/GBP=0.8338"` for a GBP → USD cross rate.
  public let source: String
  /// The period an average rate (or a same-currency rate under a period rule) is of — `2024-03`, `2024-Q1`,
  /// `2024` — written as `fx_rate_date` instead of ``rateDay``; `nil` for a rate of a day.
  public var period: String? = nil

  /// `fx_rate_date`: the period of an average, else the publication day (empty for an undated table).
  public var rateDateText: String { period ?? rateDay?.description ?? "" }
}
