/// The escapes of OOXML strings: a character XML cannot hold (a control character) is written `_xHHHH_`, its
/// UTF-16 code in hex, and an underscore that would start such text is written `_x005F_` (ECMA-376 part 1,
/// 22.9.2.19, ST_Xstring). Excel writes them; LibreOffice and openpyxl read them.
enum XLSXText {
  /// `text` with every `_xHHHH_` replaced by its character (a surrogate pair's two escapes by one character);
  /// an escape of a lone surrogate stays as it is.
  static func unescaped(_ text: String) -> String {
    guard hasEscapeStart(text) else { return text }
    let units = Array(text.utf16)
    var result: [UInt16] = []
    result.reserveCapacity(units.count)
    var index = 0
    while index < units.count {
      if let unit = escape(in: units, at: index) {
        if UTF16.isLeadSurrogate(unit), let trail = escape(in: units, at: index + 7), UTF16.isTrailSurrogate(trail) {
          result += [unit, trail]
          index += 14
          continue
        }
        if !UTF16.isLeadSurrogate(unit), !UTF16.isTrailSurrogate(unit) {
          result.append(unit)
          index += 7
          continue
        }
      }
      result.append(units[index])
      index += 1
    }
    return String(decoding: result, as: UTF16.self)
  }

  /// Whether `_x` occurs in the text's bytes: a quick test on every cell's text (Foundation's `contains` goes
  /// through `CFStringFind`), before the text is read as UTF-16.
  private static func hasEscapeStart(_ text: String) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "x"), previous == UInt8(ascii: "_") { return true }
      previous = byte
    }
    return false
  }

  /// The code of an `_xHHHH_` escape at `index`, if one is there.
  private static func escape(in units: [UInt16], at index: Int) -> UInt16? {
    guard index + 7 <= units.count, units[index] == 0x5F, units[index + 1] == 0x78, units[index + 6] == 0x5F else {
      return nil
    }
    var code: UInt16 = 0
    for unit in units[index + 2..<index + 6] {
      guard let digit = Character(Unicode.Scalar(unit) ?? "g").hexDigitValue else { return nil }
      code = code << 4 | UInt16(digit)
    }
    return code
  }
}
