/// The rounding reconciliation of one target currency: the sum of the rounded converted amounts (`fx_converted`)
/// against the exact sum of the unrounded amounts rounded once, so that an accountant can book the difference.
///
/// Rounding every record is what the records show; rounding the exact total once is what one conversion of the
/// whole would give. They differ by at most half a minor unit per record (with the half-way modes).
public struct Reconciliation: Codable, Sendable, Equatable {
  /// With several amounts per record (`--amount-field A,B,C`), the NAME of the amount reconciled
  /// (`fx_converted_NAME`); `nil` (left out of the JSON) with one amount.
  public var amount: String? = nil
  /// The target currency's ISO 4217 code.
  public var currency: String
  /// Converted records with this target currency (records that failed are not counted).
  public var records: Int
  /// `Σ fx_converted`, exact, in the currency's minor units (`"1234.56"`); `nil` when it needs more than 38
  /// digits.
  public var roundedRecordsTotal: String?
  /// `Σ amount × rate` over the same records, exact, rounded once with the run's rounding mode; `nil` when it
  /// needs more than 38 digits.
  public var exactTotalRounded: String?
  /// `roundedRecordsTotal − exactTotalRounded` (`"0.01"`, `"-0.02"`, `"0.00"`); `nil` when either is unknown.
  public var difference: String?

  /// The amount and the currency: what a report has one reconciliation of.
  var account: ReportAccount { ReportAccount(amount: amount, currency: currency) }
}

/// What a report reconciles one of: an amount's NAME (`nil` with one amount) and a target currency, as written.
struct ReportAccount: Hashable, Sendable, CustomStringConvertible {
  let amount: String?
  let currency: String

  /// `EUR`, or `Fee EUR` (an amount's).
  var description: String { (amount.map { "\($0) " } ?? "") + currency }
}
