/// An exact decimal number: `significand × 10^(−scale)`, e.g. 12.50 is significand 1250, scale 2.
///
/// Amounts and rates are read from their text into this type and never pass through `Double`. The
/// significand is an `Int128`, so a value holds at most ``maximumDigits`` digits; wider intermediate
/// products are handled by ``ExchangeRate/convert(_:minorUnits:rounding:)``.
public struct ExactDecimal: Hashable, Sendable, CustomStringConvertible {
  /// The digits as an integer, with the sign.
  public let significand: Int128
  /// How many of the digits are after the decimal point (0 ... ``maximumDigits``).
  public let scale: Int

  /// The most digits a value may have: every 38-digit integer fits in an `Int128`.
  public static let maximumDigits = 38

  /// Creates `significand × 10^(−scale)`.
  public init(significand: Int128, scale: Int) {
    precondition(scale >= 0 && scale <= Self.maximumDigits, "scale out of range")
    self.significand = significand
    self.scale = scale
  }

  /// Zero, scale 0.
  public static let zero = ExactDecimal(significand: 0, scale: 0)
  /// One, scale 0.
  public static let one = ExactDecimal(significand: 1, scale: 0)

  /// Parses plain decimal text: an optional `+` or `-`, digits, optionally a `.` and more digits
  /// (`"12"`, `"-0.5"`, `"1.10"`, `".5"`). No grouping, exponent or spaces: locale-formatted amounts go
  /// through ``AmountParser``.
  ///
  /// - Parameter text: the number's text.
  /// - Returns: `nil` when the text is not such a number or has more than ``maximumDigits`` digits.
  public init?(_ text: some StringProtocol) {
    self.init(plainUTF8: Array(text.utf8))
  }

  /// Parses plain decimal text from UTF-8 bytes; see ``init(_:)``.
  init?(plainUTF8 bytes: some Collection<UInt8>) {
    var negative = false
    var digits: Int128 = 0
    var digitCount = 0
    var scale = 0
    var seenPoint = false
    var seenDigit = false
    var index = bytes.startIndex
    if index != bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
      negative = bytes[index] == UInt8(ascii: "-")
      index = bytes.index(after: index)
    }
    while index != bytes.endIndex {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        seenDigit = true
        if digits != 0 || byte != UInt8(ascii: "0") { digitCount += 1 }
        if seenPoint { scale += 1 }
        guard digitCount <= Self.maximumDigits, scale <= Self.maximumDigits else { return nil }
        digits = digits * 10 + Int128(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "."):
        guard !seenPoint else { return nil }
        seenPoint = true
      default:
        return nil
      }
      index = bytes.index(after: index)
    }
    guard seenDigit else { return nil }
    self.init(significand: negative ? -digits : digits, scale: scale)
  }

  public var isZero: Bool { significand == 0 }
  public var isNegative: Bool { significand < 0 }

  /// The same value without trailing fractional zeros (1.500 → 1.5, 2.0 → 2).
  public var normalized: ExactDecimal {
    var significand = significand
    var scale = scale
    while scale > 0, significand % 10 == 0 {
      significand /= 10
      scale -= 1
    }
    return ExactDecimal(significand: significand, scale: scale)
  }

  /// The exact product, or `nil` when it does not fit in ``maximumDigits`` digits.
  public func multiplied(by other: ExactDecimal) -> ExactDecimal? {
    let (product, overflow) = significand.multipliedReportingOverflow(by: other.significand)
    guard !overflow else { return nil }
    let scale = self.scale + other.scale
    if scale <= Self.maximumDigits { return ExactDecimal(significand: product, scale: scale).normalized }
    // Dropping zeros may bring the scale back in range; digits lost otherwise would not be exact.
    var significand = product
    var excess = scale - Self.maximumDigits
    while excess > 0, significand % 10 == 0 {
      significand /= 10
      excess -= 1
    }
    guard excess == 0 else { return nil }
    return ExactDecimal(significand: significand, scale: Self.maximumDigits).normalized
  }

  /// The exact sum, at the larger of the two scales, or `nil` when it does not fit in ``maximumDigits`` digits.
  public func adding(_ other: ExactDecimal) -> ExactDecimal? {
    let scale = max(self.scale, other.scale)
    guard let lhs = significand(atScale: scale), let rhs = other.significand(atScale: scale) else { return nil }
    let (sum, overflow) = lhs.addingReportingOverflow(rhs)
    guard !overflow, sum.magnitude < Self.powerOfTen(Self.maximumDigits) else { return nil }
    return ExactDecimal(significand: sum, scale: scale)
  }

  /// The significand of the same value at a larger scale, or `nil` when it overflows.
  private func significand(atScale target: Int) -> Int128? {
    let (scaled, overflow) = significand.multipliedReportingOverflow(by: Int128(Self.powerOfTen(target - scale)))
    return overflow ? nil : scaled
  }

  /// Plain text with exactly ``scale`` decimals and `.` as the decimal mark: `"-12.50"`, `"13805"`, `"0.005"`.
  public var description: String {
    let magnitude = significand.magnitude
    var digits = String(magnitude)
    if scale > 0 {
      if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
      digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
    }
    return significand < 0 ? "-" + digits : digits
  }

  /// 10^exponent for exponent 0...38.
  ///
  /// A `switch` of constants rather than a static array: a static is initialized lazily and checked on every
  /// access, which showed in the per-record path.
  @inline(__always)
  static func powerOfTen(_ exponent: Int) -> UInt128 {
    switch exponent {
    case 0: return 1
    case 1: return 10
    case 2: return 100
    case 3: return 1000
    case 4: return 10000
    case 5: return 100000
    case 6: return 1000000
    case 7: return 10000000
    case 8: return 100000000
    case 9: return 1000000000
    case 10: return 10000000000
    case 11: return 100000000000
    case 12: return 1000000000000
    case 13: return 10000000000000
    case 14: return 100000000000000
    case 15: return 1000000000000000
    case 16: return 10000000000000000
    case 17: return 100000000000000000
    case 18: return 1000000000000000000
    case 19: return 10000000000000000000
    case 20: return 100000000000000000000
    case 21: return 1000000000000000000000
    case 22: return 10000000000000000000000
    case 23: return 100000000000000000000000
    case 24: return 1000000000000000000000000
    case 25: return 10000000000000000000000000
    case 26: return 100000000000000000000000000
    case 27: return 1000000000000000000000000000
    case 28: return 10000000000000000000000000000
    case 29: return 100000000000000000000000000000
    case 30: return 1000000000000000000000000000000
    case 31: return 10000000000000000000000000000000
    case 32: return 100000000000000000000000000000000
    case 33: return 1000000000000000000000000000000000
    case 34: return 10000000000000000000000000000000000
    case 35: return 100000000000000000000000000000000000
    case 36: return 1000000000000000000000000000000000000
    case 37: return 10000000000000000000000000000000000000
    case 38: return 100000000000000000000000000000000000000
    default: preconditionFailure("power of ten out of range")
    }
  }
}

extension ExactDecimal {
  /// Parses a JSON number's text (RFC 8259: `-1.0556`, `1e-5`, `2.5E+3`) exactly, exponent included.
  ///
  /// - Returns: `nil` when the text is not a JSON number or the value needs more than ``maximumDigits``
  ///   digits or a scale beyond 0 ... ``maximumDigits``.
  public init?(jsonNumber text: String) {
    let bytes = Array(text.utf8)
    guard let exponentIndex = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
      self.init(plainUTF8: bytes)
      return
    }
    guard let mantissa = ExactDecimal(plainUTF8: bytes[..<exponentIndex]),
      let exponent = Int(String(decoding: bytes[(exponentIndex + 1)...], as: UTF8.self)), abs(exponent) <= 2 * Self.maximumDigits
    else { return nil }
    var significand = mantissa.significand
    var scale = mantissa.scale - exponent
    while scale < 0 {
      let (product, overflow) = significand.multipliedReportingOverflow(by: 10)
      guard !overflow, String(product.magnitude).count <= Self.maximumDigits else { return nil }
      significand = product
      scale += 1
    }
    while scale > Self.maximumDigits, significand % 10 == 0 {
      significand /= 10
      scale -= 1
    }
    guard scale <= Self.maximumDigits else { return nil }
    self.init(significand: significand, scale: scale)
  }
}

extension ExactDecimal {
  /// The most bytes ``write(to:mark:)`` writes: a sign, 39 digits, a mark and a leading zero.
  static let maximumTextLength = 42

  /// Appends ``description``'s UTF-8 bytes, with `mark` as the decimal mark, without making a `String` (the
  /// per-record output path).
  func appendText(to bytes: inout [UInt8], mark: UInt8 = UInt8(ascii: ".")) {
    var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &storage) { buffer in
      let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
      let length = write(to: start, mark: mark)
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: length))
    }
  }

  /// Appends ``description``'s UTF-8 bytes, with `mark` as the decimal mark.
  @inline(__always)
  func appendText(to buffer: inout ByteBuffer, mark: UInt8 = UInt8(ascii: ".")) {
    buffer.append(maximum: Self.maximumTextLength) { $0.put(self, mark: mark) }
  }

  /// Writes ``description``'s UTF-8 bytes at `start` (room for ``maximumTextLength`` bytes), with `mark` as
  /// the decimal mark, and returns how many it wrote.
  @inline(__always)
  func write(to start: UnsafeMutablePointer<UInt8>, mark: UInt8 = UInt8(ascii: ".")) -> Int {
    let magnitude = significand.magnitude
    guard magnitude >> 64 == 0 else { return writeWide(to: start, mark: mark) }
    // Count the digits, then fill the text backwards from its end: the fraction's digits, the mark, the
    // integer's digits (at least one: 0.05).
    var value = UInt64(truncatingIfNeeded: magnitude)
    let scale = self.scale
    let length = Self.digitCount(value)
    let integerDigits = length > scale ? length - scale : 1
    let sign = significand < 0 ? 1 : 0
    let total = sign + integerDigits + (scale > 0 ? scale + 1 : 0)
    var position = start + total
    var left = scale
    while left > 0 {
      let (quotient, remainder) = value.quotientAndRemainder(dividingBy: 10)
      position -= 1
      position.pointee = UInt8(ascii: "0") | UInt8(truncatingIfNeeded: remainder)
      value = quotient
      left -= 1
    }
    if scale > 0 {
      position -= 1
      position.pointee = mark
    }
    left = integerDigits
    while left > 0 {
      let (quotient, remainder) = value.quotientAndRemainder(dividingBy: 10)
      position -= 1
      position.pointee = UInt8(ascii: "0") | UInt8(truncatingIfNeeded: remainder)
      value = quotient
      left -= 1
    }
    if sign == 1 { start.pointee = UInt8(ascii: "-") }
    return total
  }

  /// ``write(to:mark:)`` of a significand wider than 64 bits.
  private func writeWide(to start: UnsafeMutablePointer<UInt8>, mark: UInt8) -> Int {
    var value = significand.magnitude
    var length = 0
    repeat {
      length += 1
      value /= 10
    } while value != 0
    let digits = Swift.max(length, scale + 1)  // 0.05: zeros up to the one before the mark
    let total = digits + (scale > 0 ? 1 : 0) + (significand < 0 ? 1 : 0)
    var position = total
    var written = 0
    func put(_ byte: UInt8) {
      position -= 1
      start[position] = byte
    }
    value = significand.magnitude
    while written < digits {
      if written == scale, scale > 0 { put(mark) }
      put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
      written += 1
      value /= 10
    }
    if significand < 0 { put(UInt8(ascii: "-")) }
    return total
  }

  /// Decimal digits of a value (1 for 0).
  @inline(__always)
  static func digitCount(_ value: UInt64) -> Int {
    // Halving steps: divisions by constants are multiplications, and no table is read.
    var count = 1
    var rest = value
    if rest >= 10_000_000_000_000_000 {
      count += 16
      rest /= 10_000_000_000_000_000
    }
    if rest >= 100_000_000 {
      count += 8
      rest /= 100_000_000
    }
    if rest >= 10_000 {
      count += 4
      rest /= 10_000
    }
    if rest >= 100 {
      count += 2
      rest /= 100
    }
    return rest >= 10 ? count + 1 : count
  }
}
