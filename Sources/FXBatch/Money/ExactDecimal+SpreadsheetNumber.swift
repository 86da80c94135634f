/// A spreadsheet's number cell (`.xlsx` `<v>` of a cell without `t` or with `t="n"`, `.ods` `office:value` of a
/// float, currency or percentage cell) holds an IEEE 754 double; its text is one of the decimals that read as
/// that double, not always the one typed: openpyxl writes 878361.57 as `878361.5699999999` (`%.16g`). What the
/// person typed, and what Excel and LibreOffice show at full precision, is the shortest decimal that reads back
/// as the same double. Both the general and the fast path read a number cell through this one rule.
///
/// `Double` is used here only to find that decimal (the text is parsed, correctly rounded, and Swift's
/// `description` gives the shortest round-trip digits, the closest to the double of the shortest); the value is
/// then read from that text exactly, and nothing is ever computed in binary floating point.
extension ExactDecimal {
  /// The most significant digits a decimal may have and still be the shortest decimal of its double.
  ///
  /// Why no round trip is needed up to 15 digits: 10^15 < 2^52, so two distinct decimals of at most 15
  /// significant digits in the normal range of doubles (about 2.2e-308 ... 1.8e308) always lie further apart than
  /// the spacing of doubles there, and read as two distinct doubles; rounding a double to 15 digits gives back the
  /// one such decimal that reads as it (IEEE 754 §5.12.2; `DBL_DIG` is 15). The shortest decimal of the double of
  /// a text of at most 15 significant digits has at most as many digits and reads as the same double, so it is that
  /// text's value. The texts read this way (``spreadsheetNumberText(_:)``) are in the normal range: past it their
  /// exponent is refused by ``init(jsonNumber:)`` either way. `SpreadsheetNumberTests` checks the shortcut against
  /// the full route on many random values.
  static let spreadsheetShortcutDigits = 15

  /// The decimal text a spreadsheet's number cell stands for: the shortest decimal that reads back as the same
  /// double as `text` (`878361.5699999999` → `878361.57`, `0.30000000000000004` → `0.30000000000000004`),
  /// which ``init(jsonNumber:)`` then reads exactly.
  ///
  /// A text of at most ``spreadsheetShortcutDigits`` significant digits is its own shortest decimal and comes
  /// back unchanged (the common case, without a `Double`); so does a text that is not an `xsd:double` number of
  /// digits (`INF`, `NaN`, `0x1p3`, spaces: refused by the amount rules as before) and one whose double is not
  /// finite (`1E400`). A number past 15 significant digits is read as its double, as the spreadsheet holds it:
  /// `12345678901234567.89` is `12345678901234568`.
  ///
  /// - Parameter text: the cell's number text, white space already collapsed.
  /// - Returns: the text to read the value from, in ``init(jsonNumber:)``'s syntax (`1e-05`, `1.2345678901234567e+20`).
  static func spreadsheetNumberText(_ text: String) -> String {
    var utf8 = text
    guard let shape = utf8.withUTF8({ numberShape($0) }), shape.significantDigits > spreadsheetShortcutDigits else {
      return text
    }
    guard let double = Double(text), double.isFinite else { return text }
    return double.description
  }

  /// A spreadsheet's number cell's value, by ``spreadsheetNumberText(_:)``'s rule, from the cell's bytes; `nil`
  /// for a text the amount rules refuse. Plain text (no exponent) of at most ``spreadsheetShortcutDigits``
  /// significant digits, nearly every cell, is read in place without making a `String`.
  ///
  /// - Parameter bytes: the cell's number text (UTF-8).
  /// - Returns: the value, or `nil` where ``init(jsonNumber:)`` of ``spreadsheetNumberText(_:)`` would be `nil`.
  @inline(__always)
  init?(spreadsheetNumber bytes: UnsafeBufferPointer<UInt8>) {
    guard let shape = Self.numberShape(bytes) else { return nil }
    if !shape.hasExponent, shape.significantDigits <= Self.spreadsheetShortcutDigits {
      self.init(plainUTF8: bytes)
    } else {
      self.init(jsonNumber: Self.spreadsheetNumberText(String(decoding: bytes, as: UTF8.self)))
    }
  }

  /// How a number's text is made, when it is an `xsd:double` of digits (`[+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?`):
  /// its significant digits (from the first nonzero digit to the last, of the digits before any exponent) and
  /// whether it has an exponent; `nil` for any other text.
  @inline(__always)
  static func numberShape(_ bytes: UnsafeBufferPointer<UInt8>) -> (significantDigits: Int, hasExponent: Bool)? {
    let count = bytes.count
    var index = 0
    if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
    var digits = 0
    var first = -1
    var last = -1
    var seenPoint = false
    while index < count {
      let byte = bytes[index]
      if byte &- UInt8(ascii: "0") < 10 {
        if byte != UInt8(ascii: "0") {
          if first < 0 { first = digits }
          last = digits
        }
        digits += 1
      } else if byte == UInt8(ascii: "."), !seenPoint {
        seenPoint = true
      } else {
        break
      }
      index += 1
    }
    guard digits > 0 else { return nil }
    let significantDigits = first < 0 ? 0 : last - first + 1
    guard index < count else { return (significantDigits, false) }
    guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
    index += 1
    if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < count else { return nil }
    while index < count {
      guard bytes[index] &- UInt8(ascii: "0") < 10 else { return nil }
      index += 1
    }
    return (significantDigits, true)
  }
}
