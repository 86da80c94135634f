/// How a converted amount is rounded to the target currency's ISO 4217 minor units. Rounding happens once,
/// on the exact product amount × rate.
public enum RoundingMode: String, CaseIterable, Sendable {
  /// Round to nearest; a tie goes away from zero (1.005 → 1.01, -1.005 → -1.01). The default: EU Council
  /// Regulation (EC) No 1103/97, article 5, prescribes it for conversions to and from the euro.
  case halfUp = "half-up"
  /// Round to nearest; a tie goes to the even neighbour (1.005 → 1.00, 1.015 → 1.02), "banker's rounding".
  case halfEven = "half-even"
  /// Toward zero (truncate): 1.009 → 1.00, -1.009 → -1.00.
  case down
  /// Away from zero: 1.001 → 1.01, -1.001 → -1.01.
  case up

  /// Whether the magnitude of a quotient `q + remainder/divisor` rounds to `q + 1`.
  ///
  /// - Parameters:
  ///   - remainderComparedToHalf: the sign of `2 × remainder − divisor` (−1, 0 or 1).
  ///   - remainderIsZero: whether the division was exact.
  ///   - quotientIsOdd: whether `q` is odd, for ``halfEven``.
  func roundsAwayFromZero(remainderComparedToHalf: Int, remainderIsZero: Bool, quotientIsOdd: Bool) -> Bool {
    if remainderIsZero { return false }
    switch self {
    case .down: return false
    case .up: return true
    case .halfUp: return remainderComparedToHalf >= 0
    case .halfEven: return remainderComparedToHalf > 0 || (remainderComparedToHalf == 0 && quotientIsOdd)
    }
  }
}
