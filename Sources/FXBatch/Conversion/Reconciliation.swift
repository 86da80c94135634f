/// The rounding reconciliation of one target currency: the sum of the rounded converted amounts (`fx_converted`)
/// against the exact sum of the unrounded amounts rounded once, so that an accountant can book the difference.
///
/// Rounding every record is what the records show; rounding the exact total once is what one conversion of the
/// whole would give. They differ by at most half a minor unit per record (with the half-way modes).
public struct Reconciliation: Codable, Sendable, Equatable {
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
}
