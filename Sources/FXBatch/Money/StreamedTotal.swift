/// The exact total `Σ amount × rate` of a target currency, in minor units, accumulated one record at a time in
/// constant memory: the sum of each record's floor, and of its fraction truncated to 18 decimals, with a count
/// of the fractions that lost digits.
///
/// The truncated sum is at most `inexact × 10⁻¹⁸` below the exact one, so the total's rounding is settled
/// unless that interval reaches a multiple of one half (a tie, or a value within 10⁻¹² of one for a million
/// records); ``position`` is then `nil` and the caller recomputes the total exactly (``ExactTotal``, from a
/// second reading of the records). This replaced a dictionary of amounts per distinct rate, whose memory grew
/// with the distinct (pair, day) keys of a file.
struct StreamedTotal: Sendable, Equatable {
  /// `Σ floor(amount × rate × 10^minorUnits)` (wide: the order of the records does not matter); `nil` once a
  /// record's own floor did not fit 128 bits.
  private(set) var whole: WideSum? = WideSum()
  /// `Σ floor(fraction × 10^18)` of the records' fractions.
  private(set) var fractions: UInt128 = 0
  /// How many fractions were not exact at 18 decimals.
  private(set) var inexact = 0

  static let fractionScale: UInt128 = 1_000_000_000_000_000_000

  /// Adds one record: `sign × (quotient + remainder ÷ divisor)` minor units, with `remainder < divisor`.
  @inline(__always)
  mutating func add(negative: Bool, quotient: UInt128, remainder: UInt128, divisor: UInt128) {
    if remainder == 0 {
      addWhole(negative ? -Int128(quotient) : Int128(quotient), quotientFits: quotient <= UInt128(Int128.max))
      return
    }
    // −(q + r/d) = (−q − 1) + (d − r)/d
    let fractionNumerator = negative ? divisor - remainder : remainder
    addWhole(negative ? -Int128(quotient) - 1 : Int128(quotient), quotientFits: quotient < UInt128(Int128.max))
    addFraction(fractionNumerator, divisor)
  }

  @inline(__always)
  private mutating func addWhole(_ value: @autoclosure () -> Int128, quotientFits: Bool) {
    guard quotientFits, whole != nil else {
      whole = nil
      return
    }
    whole!.add(value())
  }

  /// Adds `floor(numerator × 10^18 ÷ divisor)` (numerator < divisor).
  @inline(__always)
  private mutating func addFraction(_ numerator: UInt128, _ divisor: UInt128) {
    let digits: UInt128
    let exact: Bool
    if divisor <= UInt128(word: .max) {
      // numerator × 10^18 < divisor × 2^60 < 2^124, and its high word is below the divisor.
      let product = numerator * Self.fractionScale
      let (quotient, remainder) = UInt64(divisor).dividingFullWidthOnce(
        (UInt64(truncatingIfNeeded: product >> 64), UInt64(truncatingIfNeeded: product)))
      digits = UInt128(word: quotient)
      exact = remainder == 0
    } else {
      let (quotient, remainder) = (WideUnsigned(numerator) * WideUnsigned(Self.fractionScale))
        .quotientAndRemainder(dividingBy: WideUnsigned(divisor))
      digits = quotient.uint128 ?? 0
      exact = remainder.isZero
    }
    fractions += digits  // each below 10^18: no overflow below 10^20 records
    if !exact { inexact += 1 }
  }

  init() {}

  /// The total `Σ amount × rate` truncated to 18 decimals below the minor unit, with `minorUnits + 18` decimals
  /// (``RunReport/UnroundedTotal``): exact when ``inexact`` is 0, else up to `inexact` units of its last decimal
  /// below the exact total. `nil` past 38 digits.
  func truncated(minorUnits: Int) -> ExactDecimal? {
    guard let whole = whole?.value, fractions <= UInt128(Int128.max) else { return nil }
    let (scaled, overflow) = whole.multipliedReportingOverflow(by: Int128(Self.fractionScale))
    let (sum, carry) = scaled.addingReportingOverflow(Int128(fractions))
    guard !overflow, !carry, minorUnits + 18 <= ExactDecimal.maximumDigits else { return nil }
    return ExactDecimal(significand: sum, scale: minorUnits + 18)
  }

  /// The total a report gave (``truncated(minorUnits:)``, ``inexact``), to add to others and round once.
  ///
  /// - Returns: `nil` when the text has more decimals than `minorUnits + 18`.
  init?(truncated total: ExactDecimal, minorUnits: Int, inexact: Int) {
    let scale = minorUnits + 18
    guard total.scale <= scale, inexact >= 0 else { return nil }
    let (value, overflow) = total.significand.multipliedReportingOverflow(
      by: Int128(ExactDecimal.powerOfTen(scale - total.scale)))
    guard !overflow else { return nil }
    let one = Int128(Self.fractionScale)
    var floor = value / one
    if value % one < 0 { floor -= 1 }
    whole = WideSum()
    whole!.add(floor)
    fractions = UInt128(value - floor * one)
    self.inexact = inexact
  }

  /// Adds another total.
  mutating func add(_ other: StreamedTotal) {
    if let theirs = other.whole, whole != nil {
      whole!.add(theirs)
    } else {
      whole = nil
    }
    fractions += other.fractions
    inexact += other.inexact
  }

  /// Adds `amount × rate` at `minorUnits` decimals (a record of the general path).
  mutating func add(_ amount: ExactDecimal, at rate: ExchangeRate, minorUnits: Int) {
    // x × 10^m = a·n·10^(sd + m) ÷ (d·10^(sa + sn))
    let exponent = rate.denominator.scale + minorUnits - amount.scale - rate.numerator.scale
    let dividend = (WideUnsigned(amount.significand.magnitude) * WideUnsigned(rate.numerator.significand.magnitude))
      .multiplied(byPowerOfTen: max(exponent, 0))
    let divisor = WideUnsigned(rate.denominator.significand.magnitude).multiplied(byPowerOfTen: max(-exponent, 0))
    let (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
    guard let q = quotient.uint128, let r = remainder.uint128, let d = divisor.uint128 else {
      whole = nil
      return
    }
    add(negative: amount.isNegative, quotient: q, remainder: r, divisor: d)
  }

  /// The total rounded once to `minorUnits` decimals; `nil` when it needs more than 38 digits, and
  /// `.undetermined` when the truncated fractions cannot tell on which side of a rounding boundary it is.
  func rounded(minorUnits: Int, rounding: RoundingMode) -> Rounded {
    guard let whole = whole?.value else { return .overflow }
    let half = Self.fractionScale / 2
    let carried = fractions / Self.fractionScale
    let rest = fractions % Self.fractionScale
    let halves = Int(rest / half)
    let offset = rest % half
    if inexact > 0, offset + UInt128(inexact) > half { return .undetermined }
    let isExact = inexact == 0 && offset == 0
    let (base, overflow) = whole.addingReportingOverflow(Int128(carried))
    guard !overflow,
      let total = ExactTotal.rounded(
        whole: base, position: ProperFraction.Position(halves: halves, isExact: isExact), minorUnits: minorUnits,
        rounding: rounding)
    else { return .overflow }
    return .value(total)
  }

  enum Rounded: Equatable {
    case value(ExactDecimal)
    /// More than 38 digits.
    case overflow
    /// The truncated sum lies within its error of a rounding boundary: recompute exactly.
    case undetermined
  }
}
