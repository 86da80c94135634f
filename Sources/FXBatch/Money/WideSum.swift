/// A running sum of `Int128` values that cannot overflow in practice (192 bits: 2⁶⁴ values of 2¹²⁷), so that a
/// total that passes 38 digits on the way and comes back (positive and negative records, or the parts of a
/// file added in another order) is the same whatever the order; the 38-digit limit is checked once, at the end.
struct WideSum: Sendable, Equatable {
  /// The sum is `high × 2¹²⁸ + low` (two's complement over 256 bits, `high` signed).
  private var high: Int128 = 0
  private var low: UInt128 = 0

  @inline(__always)
  mutating func add(_ value: Int128) {
    let (sum, carry) = low.addingReportingOverflow(UInt128(bitPattern: value))
    low = sum
    high &+= (value < 0 ? -1 : 0) &+ (carry ? 1 : 0)
  }

  mutating func add(_ other: WideSum) {
    let (sum, carry) = low.addingReportingOverflow(other.low)
    low = sum
    high &+= other.high &+ (carry ? 1 : 0)
  }

  /// The sum when it fits in an `Int128`.
  var value: Int128? {
    if high == 0, low <= UInt128(Int128.max) { return Int128(low) }
    if high == -1, low >= UInt128(bitPattern: Int128.min) { return Int128(bitPattern: low) }
    return nil
  }

  /// The sum as an exact decimal with `scale` decimals, when it has at most 38 digits.
  func decimal(scale: Int) -> ExactDecimal? {
    guard let value, value.magnitude < ExactDecimal.powerOfTen(ExactDecimal.maximumDigits) else { return nil }
    return ExactDecimal(significand: value, scale: scale)
  }
}
