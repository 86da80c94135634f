extension UInt64 {
  /// `(high · 2⁶⁴ + low) ÷ self` with its remainder, for a quotient that fits 64 bits (`high < self`), in one
  /// 128-bit division: the standard library's `dividingFullWidth(_:)` makes two runtime calls on Linux, one for
  /// the quotient (`__udivti3`) and one for the remainder (`__umodti3`); here the remainder is
  /// `low − quotient · self` modulo 2⁶⁴, exact because it is below `self`.
  @inline(__always)
  func dividingFullWidthOnce(_ dividend: (high: UInt64, low: UInt64)) -> (quotient: UInt64, remainder: UInt64) {
    let wide = UInt128(dividend.high) << 64 | UInt128(dividend.low)
    let quotient = UInt64(truncatingIfNeeded: wide / UInt128(self))
    return (quotient, dividend.low &- quotient &* self)
  }
}
