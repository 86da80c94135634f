/// Which rate a record converts at (`--rate-kind`, `--period`): the reference rate of its day, or a rate of the
/// calendar period containing its day (IAS 21's average rate for income and expenses, closing rate for balances).
public enum RateRule: Hashable, Sendable {
  /// The latest publication on or before the record's date (``RateTable/quote(for:maxStaleness:)``).
  case spot
  /// The ratio of each currency's mean reference rate over the period's publication days
  /// (``RateTable/averageQuote(for:in:)``).
  case average(RatePeriod)
  /// The rates of the period's last publication day that has both currencies (``RateTable/closingQuote(for:in:)``).
  case closing(RatePeriod)

  /// The `--rate-kind` names.
  public static let kindNames = ["spot", "average", "closing"]

  /// The rule a `--rate-kind` name and a `--period` give; `nil` for an unknown kind name.
  public init?(kind: String, period: RatePeriod) {
    switch kind {
    case "spot": self = .spot
    case "average": self = .average(period)
    case "closing": self = .closing(period)
    default: return nil
    }
  }

  /// `average month`, `closing quarter`; `nil` for ``spot``.
  public var periodDescription: String? {
    switch self {
    case .spot: nil
    case .average(let period): "average \(period.rawValue)"
    case .closing(let period): "closing \(period.rawValue)"
    }
  }

  /// The period of a period rule; `nil` for ``spot``.
  public var period: RatePeriod? {
    switch self {
    case .spot: nil
    case .average(let period), .closing(let period): period
    }
  }
}
