/// An arbitrary-width unsigned integer, the slow path of exact conversion when an intermediate product
/// (amount × rate × power of ten) does not fit in 128 bits.
///
/// Only what exact conversion needs: multiplication, comparison, subtraction and long division.
struct WideUnsigned: Comparable, Sendable {
  /// 32-bit limbs, least significant first, without high zero limbs (zero is `[]`).
  private(set) var limbs: [UInt32]

  init(_ value: UInt128) {
    var limbs: [UInt32] = []
    var rest = value
    while rest != 0 {
      limbs.append(UInt32(truncatingIfNeeded: rest))
      rest >>= 32
    }
    self.limbs = limbs
  }

  private init(limbs: [UInt32]) {
    self.limbs = limbs
    normalize()
  }

  var isZero: Bool { limbs.isEmpty }
  var isOdd: Bool { (limbs.first ?? 0) & 1 == 1 }

  /// The value, or `nil` when it needs more than 128 bits.
  var uint128: UInt128? {
    guard limbs.count <= 4 else { return nil }
    var value: UInt128 = 0
    for limb in limbs.reversed() { value = value << 32 | UInt128(limb) }
    return value
  }

  private mutating func normalize() {
    while let last = limbs.last, last == 0 { limbs.removeLast() }
  }

  static func * (lhs: WideUnsigned, rhs: WideUnsigned) -> WideUnsigned {
    if lhs.isZero || rhs.isZero { return WideUnsigned(limbs: []) }
    var result = [UInt32](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
    for (i, a) in lhs.limbs.enumerated() {
      var carry: UInt64 = 0
      for (j, b) in rhs.limbs.enumerated() {
        let t = UInt64(a) * UInt64(b) + UInt64(result[i + j]) + carry
        result[i + j] = UInt32(truncatingIfNeeded: t)
        carry = t >> 32
      }
      var k = i + rhs.limbs.count
      while carry != 0 {
        let t = UInt64(result[k]) + carry
        result[k] = UInt32(truncatingIfNeeded: t)
        carry = t >> 32
        k += 1
      }
    }
    return WideUnsigned(limbs: result)
  }

  /// `self × 10^exponent`.
  func multiplied(byPowerOfTen exponent: Int) -> WideUnsigned {
    var result = self
    var rest = exponent
    while rest > 0 {
      let step = min(rest, 19)
      result = result * WideUnsigned(UInt128(ExactDecimal.powerOfTen(step)))
      rest -= step
    }
    return result
  }

  static func + (lhs: WideUnsigned, rhs: WideUnsigned) -> WideUnsigned {
    var result: [UInt32] = []
    var carry: UInt64 = 0
    for i in 0..<max(lhs.limbs.count, rhs.limbs.count) {
      let t = UInt64(i < lhs.limbs.count ? lhs.limbs[i] : 0) + UInt64(i < rhs.limbs.count ? rhs.limbs[i] : 0) + carry
      result.append(UInt32(truncatingIfNeeded: t))
      carry = t >> 32
    }
    if carry != 0 { result.append(UInt32(carry)) }
    return WideUnsigned(limbs: result)
  }

  /// `lhs − rhs`; requires `lhs >= rhs`.
  static func - (lhs: WideUnsigned, rhs: WideUnsigned) -> WideUnsigned {
    var result = lhs.limbs
    var borrow: Int64 = 0
    for i in 0..<result.count {
      var t = Int64(result[i]) - borrow - Int64(i < rhs.limbs.count ? rhs.limbs[i] : 0)
      borrow = 0
      if t < 0 {
        t += 1 << 32
        borrow = 1
      }
      result[i] = UInt32(t)
    }
    precondition(borrow == 0, "WideUnsigned subtraction underflow")
    return WideUnsigned(limbs: result)
  }

  static func < (lhs: WideUnsigned, rhs: WideUnsigned) -> Bool {
    if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
    for i in stride(from: lhs.limbs.count - 1, through: 0, by: -1) where lhs.limbs[i] != rhs.limbs[i] {
      return lhs.limbs[i] < rhs.limbs[i]
    }
    return false
  }

  /// Long division, one bit at a time (the slow path runs rarely; clarity over speed).
  ///
  /// - Parameter divisor: must not be zero.
  /// - Returns: quotient and remainder.
  func quotientAndRemainder(dividingBy divisor: WideUnsigned) -> (quotient: WideUnsigned, remainder: WideUnsigned) {
    precondition(!divisor.isZero, "division by zero")
    if self < divisor { return (WideUnsigned(limbs: []), self) }
    var quotient = [UInt32](repeating: 0, count: limbs.count)
    var remainder = WideUnsigned(limbs: [])
    for bit in stride(from: limbs.count * 32 - 1, through: 0, by: -1) {
      remainder = remainder + remainder
      if (limbs[bit / 32] >> UInt32(bit % 32)) & 1 == 1 { remainder = remainder + WideUnsigned(1) }
      if !(remainder < divisor) {
        remainder = remainder - divisor
        quotient[bit / 32] |= 1 << UInt32(bit % 32)
      }
    }
    return (WideUnsigned(limbs: quotient), remainder)
  }
}
