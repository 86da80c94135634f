extension UInt64 {
  /// `(high · 2⁶⁴ + low) ÷ self` with its remainder, for a quotient that fits 64 bits (`high < self`), in one
  /// 128-bit division: the standard library's `dividingFullWidth(_:)` makes two runtime calls on Linux, one for
  /// the quotient (`__udivti3`) and one for the remainder (`__umodti3`); here the remainder is
  /// `low − quotient · self` modulo 2⁶⁴, exact because it is below `self`.
  @inline(__always)
  func dividingFullWidthOnce(_ dividend: (high: UInt64, low: UInt64)) -> (quotient: UInt64, remainder: UInt64) {
    let wide = UInt128(_low: dividend.low, _high: dividend.high)
    let quotient = (wide / UInt128(word: self))._low
    return (quotient, dividend.low &- quotient &* self)
  }
}

extension UInt128 {
  /// A 64-bit value widened, without the generic `init(_:)` (which the optimizer leaves as a call in the
  /// per-record loops).
  @inline(__always)
  init(word: UInt64) { self.init(_low: word, _high: 0) }
}
