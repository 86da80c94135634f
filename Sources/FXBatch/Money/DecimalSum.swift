/// The exact sum of decimals of any scales (`12.5`, `3`, `0.125`), in constant memory: one 256-bit sum per scale
/// met, added up at the largest scale when it is asked for (``total``).
struct DecimalSum: Sendable, Equatable {
  /// Index: the scale; the sum of the significands of that scale.
  private var sums: [WideSum] = []

  @inline(__always)
  mutating func add(_ value: ExactDecimal) {
    if value.scale >= sums.count { sums += repeatElement(WideSum(), count: value.scale + 1 - sums.count) }
    sums[value.scale].add(value.significand)
  }

  mutating func add(_ other: DecimalSum) {
    if other.sums.count > sums.count { sums += repeatElement(WideSum(), count: other.sums.count - sums.count) }
    for (scale, sum) in other.sums.enumerated() { sums[scale].add(sum) }
  }

  /// The sum with at least `minimumScale` decimals (the largest scale added otherwise), or `nil` when it needs
  /// more than ``ExactDecimal/maximumDigits`` digits.
  func total(minimumScale: Int = 0) -> ExactDecimal? {
    var total = ExactDecimal(significand: 0, scale: min(max(0, minimumScale), ExactDecimal.maximumDigits))
    for (scale, sum) in sums.enumerated() where sum != WideSum() {
      guard let part = sum.decimal(scale: scale), let added = total.adding(part) else { return nil }
      total = added
    }
    if sums.count - 1 > total.scale, let widened = total.adding(ExactDecimal(significand: 0, scale: sums.count - 1)) {
      total = widened
    }
    return total
  }
}
