/// An exchange rate kept as an exact ratio: one unit of the base currency is worth
/// `numerator ÷ denominator` units of the quote currency.
///
/// A reference rate read from a feed is `rate ÷ 1`; its inverse is `1 ÷ rate`; a cross rate through the
/// euro is `EUR/quote ÷ EUR/base`. Keeping the ratio, instead of a rounded quotient, lets a conversion round
/// exactly once, at the end.
public struct ExchangeRate: Hashable, Sendable {
  /// Quote-currency units (with the denominator) per unit of base currency; always positive.
  public let numerator: ExactDecimal
  /// Always positive.
  public let denominator: ExactDecimal

  /// The rate between a currency and itself.
  public static let one = ExchangeRate(numerator: .one, denominator: .one)

  /// A rate `numerator ÷ denominator`; both must be positive.
  public init(numerator: ExactDecimal, denominator: ExactDecimal = .one) {
    precondition(numerator.significand > 0 && denominator.significand > 0, "exchange rates are positive")
    self.numerator = numerator
    self.denominator = denominator
  }

  /// The rate of the opposite direction (quote → base).
  public var inverted: ExchangeRate { ExchangeRate(numerator: denominator, denominator: numerator) }

  /// The rate of converting with `self`, then with `next` (base → pivot → quote).
  ///
  /// - Returns: `nil` when the exact product needs more than ``ExactDecimal/maximumDigits`` digits.
  public func chained(with next: ExchangeRate) -> ExchangeRate? {
    guard let numerator = numerator.multiplied(by: next.numerator),
      let denominator = denominator.multiplied(by: next.denominator)
    else { return nil }
    return ExchangeRate(numerator: numerator, denominator: denominator)
  }

  /// Converts an amount exactly and rounds the result once.
  ///
  /// Computes `amount × numerator ÷ denominator` with integer arithmetic (128-bit, widening when needed) and
  /// rounds it to `minorUnits` decimals.
  ///
  /// - Parameters:
  ///   - amount: the amount in the base currency.
  ///   - minorUnits: decimals of the result, the quote currency's ISO 4217 minor units.
  ///   - rounding: how the exact result is rounded.
  /// - Returns: the converted amount with scale `minorUnits`, or `nil` when it has more than
  ///   ``ExactDecimal/maximumDigits`` digits.
  public func convert(_ amount: ExactDecimal, minorUnits: Int, rounding: RoundingMode) -> ExactDecimal? {
    // result × 10^m = a·n·10^(sd+m) ÷ (d·10^(sa+sn))
    let exponent = denominator.scale + minorUnits - amount.scale - numerator.scale
    let magnitude = Self.divideRounded(
      amount.significand.magnitude, numerator.significand.magnitude,
      scaleUp: max(exponent, 0),
      divisor: denominator.significand.magnitude,
      scaleDivisor: max(-exponent, 0),
      rounding: rounding)
    guard let magnitude, magnitude < ExactDecimal.powerOfTen(ExactDecimal.maximumDigits) else { return nil }  // at most 38 digits
    let value = Int128(magnitude)
    return ExactDecimal(significand: amount.isNegative ? -value : value, scale: minorUnits)
  }

  /// The rate as decimal text: exact when it terminates within `significantDigits` digits, otherwise
  /// rounded half-even to that many significant digits; trailing zeros dropped. For display only:
  /// conversions use the exact ratio.
  ///
  /// A rate too large for 38 integer digits, or too small to show a digit within 38 decimals (a hostile
  /// service or file can give one), is written in scientific notation, e.g. `2e+38`, `3.333333333e-39`.
  public func decimalText(significantDigits: Int = 10) -> String {
    let n = numerator.significand.magnitude
    let d = denominator.significand.magnitude
    // value = n·10^(−sn) ÷ (d·10^(−sd)) has `estimate` or `estimate + 1` integer digits (its mantissa ratio
    // is in (0.1, 10)); round at the decimals that leave `significantDigits` digits, one step fewer if the
    // estimate was one short.
    let estimate = (Self.digitCount(n) - numerator.scale) - (Self.digitCount(d) - denominator.scale)
    var decimals = min(max(significantDigits - estimate, 0), ExactDecimal.maximumDigits)
    while true {
      guard
        let rounded = Self.divideRounded(
          n, 1, scaleUp: denominator.scale + decimals, divisor: d, scaleDivisor: numerator.scale,
          rounding: .halfEven),
        rounded > 0, rounded < ExactDecimal.powerOfTen(ExactDecimal.maximumDigits)
      else { return scientificText(significantDigits: significantDigits, estimate: estimate) }
      if decimals > 0, Self.digitCount(rounded) > significantDigits {
        decimals -= 1
        continue
      }
      return ExactDecimal(significand: Int128(rounded), scale: decimals).normalized.description
    }
  }

  /// ``decimalText(significantDigits:)`` in scientific notation, `d.ddde±x`, for a rate outside what 38 digits
  /// show.
  ///
  /// - Parameter estimate: the integer digits of the rate, as ``decimalText(significantDigits:)`` estimates them
  ///   (the leading digit's exponent is `estimate − 1` or `estimate`).
  private func scientificText(significantDigits: Int, estimate: Int) -> String {
    let n = numerator.significand.magnitude
    let d = denominator.significand.magnitude
    var exponent = estimate - 1
    for _ in 0..<4 {
      // mantissa = round(rate × 10^(significantDigits − 1 − exponent))
      var up = denominator.scale + significantDigits - 1 - exponent
      var down = numerator.scale
      if up < 0 {
        down -= up
        up = 0
      }
      guard
        let mantissa = Self.divideRounded(n, 1, scaleUp: up, divisor: d, scaleDivisor: down, rounding: .halfEven)
      else { break }
      let digits = Self.digitCount(mantissa)
      if digits > significantDigits {
        exponent += 1
        continue
      }
      if digits < significantDigits, mantissa > 0 {
        exponent -= 1
        continue
      }
      var text = String(mantissa)
      while text.count > 1, text.hasSuffix("0") { text.removeLast() }
      let head = text.prefix(1) + (text.count > 1 ? "." + text.dropFirst() : "")
      return head + (exponent < 0 ? "e-\(-exponent)" : "e+\(exponent)")
    }
    // Not reached for positive rates of at most 38-digit parts; a text that says so rather than a wrong number.
    return "\(numerator)/\(denominator)"
  }

  private static func digitCount(_ value: UInt128) -> Int {
    var count = 1
    while count <= 38, value >= ExactDecimal.powerOfTen(count) { count += 1 }
    return count
  }

  /// `round(a × b × 10^scaleUp ÷ (divisor × 10^scaleDivisor))`; `nil` when it exceeds 128 bits.
  @inline(__always)
  static func divideRounded(
    _ a: UInt128, _ b: UInt128, scaleUp: Int, divisor: UInt128, scaleDivisor: Int, rounding: RoundingMode
  ) -> UInt128? {
    if let fast = divideRoundedFast(a, b, scaleUp: scaleUp, divisor: divisor, scaleDivisor: scaleDivisor, rounding: rounding) {
      return fast
    }
    return divideRoundedWide(a, b, scaleUp: scaleUp, divisor: divisor, scaleDivisor: scaleDivisor, rounding: rounding)
  }

  /// ``divideRounded(_:_:scaleUp:divisor:scaleDivisor:rounding:)`` in wide integers.
  private static func divideRoundedWide(
    _ a: UInt128, _ b: UInt128, scaleUp: Int, divisor: UInt128, scaleDivisor: Int, rounding: RoundingMode
  ) -> UInt128? {
    let n = (WideUnsigned(a) * WideUnsigned(b)).multiplied(byPowerOfTen: scaleUp)
    let d = WideUnsigned(divisor).multiplied(byPowerOfTen: scaleDivisor)
    let (q, r) = n.quotientAndRemainder(dividingBy: d)
    let twice = r + r
    let comparison = twice < d ? -1 : (d < twice ? 1 : 0)
    var quotient = q
    if rounding.roundsAwayFromZero(remainderComparedToHalf: comparison, remainderIsZero: r.isZero, quotientIsOdd: q.isOdd) {
      quotient = quotient + WideUnsigned(1)
    }
    return quotient.uint128
  }

  /// The 128-bit path; `nil` when an intermediate value overflows (the caller then widens).
  @inline(__always)
  private static func divideRoundedFast(
    _ a: UInt128, _ b: UInt128, scaleUp: Int, divisor: UInt128, scaleDivisor: Int, rounding: RoundingMode
  ) -> UInt128? {
    guard scaleUp <= 38, scaleDivisor <= 38 else { return nil }
    let (n, overflow) = a.multipliedReportingOverflow(by: b)
    if overflow { return nil }
    let (scaled, overflowN) = n.multipliedReportingOverflow(by: ExactDecimal.powerOfTen(scaleUp))
    let (d, overflowD) = divisor.multipliedReportingOverflow(by: ExactDecimal.powerOfTen(scaleDivisor))
    if overflowN || overflowD { return nil }
    let (q, r) = scaled.quotientAndRemainder(dividingBy: d)
    // Compare 2r with d without overflowing: r < d, so compare r with d − r.
    let comparison = r < d - r ? -1 : (r > d - r ? 1 : 0)
    if rounding.roundsAwayFromZero(remainderComparedToHalf: comparison, remainderIsZero: r == 0, quotientIsOdd: q & 1 == 1) {
      let (next, overflow) = q.addingReportingOverflow(1)
      return overflow ? nil : next
    }
    return q
  }
}
