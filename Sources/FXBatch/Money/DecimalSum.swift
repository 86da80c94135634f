/// The exact sum of decimals of any scales (`12.5`, `3`, `0.125`), in constant memory: one 256-bit sum per scale
/// met, added up at the largest scale when it is asked for (``total``).
///
/// The first scale met has its sum inline (a column's amounts nearly always share one scale), so adding to it
/// touches no array; the other scales' sums are in ``others``.
struct DecimalSum: Sendable {
  /// The scale of ``first``; −1 before anything is added.
  private var firstScale = -1
  private var first = WideSum()
  /// Index: a scale other than ``firstScale``; the sum of the significands of that scale.
  private var others: [WideSum] = []

  @inline(__always)
  mutating func add(_ value: ExactDecimal) {
    if value.scale == firstScale {
      first.add(value.significand)
    } else {
      var sum = WideSum()
      sum.add(value.significand)
      add(sum, scale: value.scale)
    }
  }

  mutating func add(_ other: DecimalSum) {
    let theirs = other.perScale
    for (scale, sum) in theirs.enumerated() where sum != WideSum() { add(sum, scale: scale) }
    // The largest scale met counts even when its sum is zero (``total(minimumScale:)``).
    if theirs.count > max(others.count, firstScale + 1) {
      others += repeatElement(WideSum(), count: theirs.count - others.count)
    }
  }

  private mutating func add(_ sum: WideSum, scale: Int) {
    if scale == firstScale {
      first.add(sum)
    } else if firstScale < 0 {
      firstScale = scale
      first = sum
    } else {
      if scale >= others.count { others += repeatElement(WideSum(), count: scale + 1 - others.count) }
      others[scale].add(sum)
    }
  }

  /// Index: the scale; the sum of the significands of that scale (as many as the largest scale met needs).
  private var perScale: [WideSum] {
    guard firstScale >= 0 else { return others }
    var sums = others
    if firstScale >= sums.count { sums += repeatElement(WideSum(), count: firstScale + 1 - sums.count) }
    sums[firstScale].add(first)
    return sums
  }

  /// The sum with at least `minimumScale` decimals (the largest scale added otherwise), or `nil` when it needs
  /// more than ``ExactDecimal/maximumDigits`` digits.
  func total(minimumScale: Int = 0) -> ExactDecimal? {
    let sums = perScale
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

extension DecimalSum: Equatable {
  static func == (lhs: DecimalSum, rhs: DecimalSum) -> Bool { lhs.perScale == rhs.perScale }
}
