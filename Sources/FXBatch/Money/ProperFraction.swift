/// A fraction `numerator ÷ denominator` in (0, 1): the part of a converted total below its last minor unit.
struct ProperFraction: Sendable {
  let numerator: WideUnsigned
  let denominator: WideUnsigned

  /// Where the exact sum of fractions lies among the multiples of one half.
  struct Position {
    /// The sum is `halves ÷ 2` exactly, or strictly between `halves ÷ 2` and `(halves + 1) ÷ 2`.
    let halves: Int
    let isExact: Bool
  }

  /// Locates `Σ fractions` among the multiples of ½, exactly, without forming the common denominator (which
  /// grows with every distinct rate).
  ///
  /// Each fraction is truncated to `P` decimals; the sum `R` then lies in `[A, A + k)` (scaled by `10^P`), `k`
  /// being the number of truncations that dropped something, and in the open interval when `k > 0`. When no
  /// multiple of ½ lies strictly inside, the position is known; otherwise `P` doubles. A sum `R` that is not a
  /// multiple of ½ is at least `1 ÷ (2·∏ denominators)` away from every one, so once `10^P > 2k·∏ denominators`
  /// a multiple of ½ inside the interval must be `R` itself: an exact tie (⅓ + ⅙ = ½). Only such a tie costs
  /// that many digits per fraction; any other sum is settled at the first precision that separates it from the
  /// nearest multiple of ½ (38 digits for all but contrived data).
  static func locateSum(of fractions: [ProperFraction]) -> Position {
    if fractions.isEmpty { return Position(halves: 0, isExact: true) }
    // Decimal digits of 2k·∏ denominators, from above: log10(2) < 0.30103.
    var bound = String(2 * fractions.count).count
    for fraction in fractions { bound += fraction.denominator.limbs.count * 32 * 30_103 / 100_000 + 1 }
    var chunks = 2  // P = 19 × chunks decimals
    while true {
      let (sum, inexact) = truncatedSum(fractions, chunks: chunks)
      let precision = 19 * chunks
      let half = WideUnsigned(5).multiplied(byPowerOfTen: precision - 1)
      let (quotient, remainder) = sum.quotientAndRemainder(dividingBy: half)
      let halves = Int(quotient.uint128 ?? 0)
      if inexact == 0 { return Position(halves: halves, isExact: remainder.isZero) }
      if !(half < remainder + WideUnsigned(UInt128(inexact))) { return Position(halves: halves, isExact: false) }
      if precision >= bound { return Position(halves: halves + 1, isExact: true) }
      chunks *= 2
    }
  }

  /// `Σ floor(fraction × 10^(19·chunks))` and how many of the floors dropped something.
  private static func truncatedSum(_ fractions: [ProperFraction], chunks: Int) -> (WideUnsigned, Int) {
    let chunkSize = ExactDecimal.powerOfTen(19)
    var chunkSums = [UInt128](repeating: 0, count: chunks)  // most significant first; each < count × 10^19
    var wide = WideUnsigned(0)
    var inexact = 0
    for fraction in fractions {
      if let denominator = fraction.denominator.uint128, denominator <= UInt128(UInt64.max),
        var rest = fraction.numerator.uint128
      {
        // Long division 19 digits at a time: rest < denominator < 2^64, so rest × 10^19 < 2^128.
        for index in 0..<chunks {
          let (digits, remainder) = (rest * chunkSize).quotientAndRemainder(dividingBy: denominator)
          chunkSums[index] += digits
          rest = remainder
        }
        if rest != 0 { inexact += 1 }
      } else {
        let (digits, remainder) = fraction.numerator.multiplied(byPowerOfTen: 19 * chunks)
          .quotientAndRemainder(dividingBy: fraction.denominator)
        wide = wide + digits
        if !remainder.isZero { inexact += 1 }
      }
    }
    for (index, chunkSum) in chunkSums.enumerated() {
      wide = wide + WideUnsigned(chunkSum).multiplied(byPowerOfTen: 19 * (chunks - 1 - index))
    }
    return (wide, inexact)
  }
}
