/// Reading the hexadecimal digits of `\uXXXX` and `\xHH` escapes, shared by the strict and the repaired
/// JSON parsers.
enum HexDigits {
  /// The value of `count` hex digits starting at `start`, or `nil` when one of them is not a hex digit.
  static func value(_ bytes: [UInt8], from start: Int, count: Int) -> UInt32? {
    var value: UInt32 = 0
    for byte in bytes[start..<start + count] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
