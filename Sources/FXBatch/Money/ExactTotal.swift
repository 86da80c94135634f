/// The exact total of converted amounts, `Σ amount × rate` over records, rounded once on demand: the figure an
/// accountant reconciles the sum of the rounded records against.
///
/// Amounts are summed per rate (records that share a rate share its exact ratio), so adding a record is one
/// exact decimal addition; the rational total is only formed when it is rounded.
struct ExactTotal: Sendable, Equatable {
  /// The amounts converted at each rate, summed exactly (units of the records' currencies).
  private(set) var amountsByRate: [ExchangeRate: ExactDecimal] = [:]
  /// Whether a sum outgrew ``ExactDecimal/maximumDigits`` digits; the total is then unknown.
  private(set) var overflowed = false

  /// Adds one converted amount.
  ///
  /// - Parameters:
  ///   - amount: the record's amount, in its from-currency.
  ///   - rate: the exact rate it was converted at (units of the target per unit of the from-currency).
  mutating func add(_ amount: ExactDecimal?, at rate: ExchangeRate) {
    guard !overflowed else { return }
    guard let amount, let sum = (amountsByRate[rate] ?? .zero).adding(amount) else {
      overflowed = true
      return
    }
    amountsByRate[rate] = sum
  }

  /// Adds another total (another file's, for the run's total).
  mutating func add(_ other: ExactTotal) {
    if other.overflowed { overflowed = true }
    for (rate, amount) in other.amountsByRate { add(amount, at: rate) }
  }

  /// This total plus another.
  func adding(_ other: ExactTotal) -> ExactTotal {
    var sum = self
    sum.add(other)
    return sum
  }

  /// The exact total rounded once.
  ///
  /// - Parameters:
  ///   - minorUnits: decimals of the result, the target currency's ISO 4217 minor units.
  ///   - rounding: the run's rounding mode.
  /// - Returns: the rounded total with scale `minorUnits`, or `nil` when it needs more than 38 digits.
  func rounded(minorUnits: Int, rounding: RoundingMode) -> ExactDecimal? {
    guard !overflowed else { return nil }
    // total × 10^m = Σ floor(x × 10^m) + Σ fraction, each fraction in [0, 1).
    var whole: Int128 = 0
    var fractions: [ProperFraction] = []
    for (rate, amount) in amountsByRate where !amount.isZero {
      guard let part = Self.split(amount, rate: rate, minorUnits: minorUnits) else { return nil }
      let (sum, overflow) = whole.addingReportingOverflow(part.floor)
      guard !overflow else { return nil }
      whole = sum
      if let fraction = part.fraction { fractions.append(fraction) }
    }
    return Self.rounded(
      whole: whole, position: ProperFraction.locateSum(of: fractions), minorUnits: minorUnits, rounding: rounding)
  }

  /// `whole + fraction` rounded once, where `position` locates the fraction (in [0, 1)) among the multiples of ½.
  ///
  /// - Returns: the rounded total with scale `minorUnits`, or `nil` when it needs more than 38 digits.
  static func rounded(whole: Int128, position: ProperFraction.Position, minorUnits: Int, rounding: RoundingMode)
    -> ExactDecimal?
  {
    let (floor, overflow) = whole.addingReportingOverflow(Int128(position.halves / 2))
    guard !overflow else { return nil }
    let isOnBoundary = position.isExact
    let isOddHalf = position.halves % 2 == 1
    if isOnBoundary && !isOddHalf { return Self.decimal(floor, scale: minorUnits) }  // no fraction
    // Compared with one half: the fraction is below it (even position, between), at it (odd, exact) or above.
    let comparison = isOnBoundary ? 0 : (isOddHalf ? 1 : -1)
    if floor >= 0 {
      let away = rounding.roundsAwayFromZero(
        remainderComparedToHalf: comparison, remainderIsZero: false, quotientIsOdd: floor & 1 == 1)
      return Self.decimal(away ? floor + 1 : floor, scale: minorUnits)
    }
    // Negative: |total| = (−floor − 1) + (1 − fraction), so the comparison with one half flips.
    let magnitude = -floor - 1
    let away = rounding.roundsAwayFromZero(
      remainderComparedToHalf: -comparison, remainderIsZero: false, quotientIsOdd: magnitude & 1 == 1)
    return Self.decimal(-(away ? magnitude + 1 : magnitude), scale: minorUnits)
  }

  private static func decimal(_ significand: Int128, scale: Int) -> ExactDecimal? {
    guard significand.magnitude < ExactDecimal.powerOfTen(ExactDecimal.maximumDigits) else { return nil }
    return ExactDecimal(significand: significand, scale: scale)
  }

  /// `amount × rate × 10^minorUnits` as its floor and the fraction above it.
  ///
  /// - Returns: `nil` when the floor does not fit in 128 bits.
  private static func split(_ amount: ExactDecimal, rate: ExchangeRate, minorUnits: Int) -> (
    floor: Int128, fraction: ProperFraction?
  )? {
    // x × 10^m = a·n·10^(sd + m) ÷ (d·10^(sa + sn))
    let exponent = rate.denominator.scale + minorUnits - amount.scale - rate.numerator.scale
    let (quotient, remainder, denominator) = divide(
      amount.significand.magnitude, rate.numerator.significand.magnitude, scaleUp: max(exponent, 0),
      by: rate.denominator.significand.magnitude, scaleDown: max(-exponent, 0))
    guard let magnitude = quotient.uint128, magnitude < UInt128(Int128.max) else { return nil }
    if remainder.isZero { return (amount.isNegative ? -Int128(magnitude) : Int128(magnitude), nil) }
    if !amount.isNegative { return (Int128(magnitude), ProperFraction(numerator: remainder, denominator: denominator)) }
    // −(q + r/D) = (−q − 1) + (D − r)/D
    return (-Int128(magnitude) - 1, ProperFraction(numerator: denominator - remainder, denominator: denominator))
  }

  /// `a·b·10^scaleUp ÷ (d·10^scaleDown)` as quotient, remainder and divisor; in 128 bits when everything fits
  /// (the common case), else wide.
  private static func divide(_ a: UInt128, _ b: UInt128, scaleUp: Int, by d: UInt128, scaleDown: Int) -> (
    WideUnsigned, WideUnsigned, WideUnsigned
  ) {
    if scaleUp <= 38, scaleDown <= 38 {
      let (product, overflowProduct) = a.multipliedReportingOverflow(by: b)
      let (dividend, overflowDividend) = product.multipliedReportingOverflow(by: ExactDecimal.powerOfTen(scaleUp))
      let (divisor, overflowDivisor) = d.multipliedReportingOverflow(by: ExactDecimal.powerOfTen(scaleDown))
      if !overflowProduct, !overflowDividend, !overflowDivisor {
        let (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
        return (WideUnsigned(quotient), WideUnsigned(remainder), WideUnsigned(divisor))
      }
    }
    let dividend = (WideUnsigned(a) * WideUnsigned(b)).multiplied(byPowerOfTen: scaleUp)
    let divisor = WideUnsigned(d).multiplied(byPowerOfTen: scaleDown)
    let (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
    return (quotient, remainder, divisor)
  }
}
