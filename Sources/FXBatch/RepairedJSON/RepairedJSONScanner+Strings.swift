extension RepairedJSONScanner {
  /// A string in double or single quotes, starting at the opening quote; the index ends after the closing one.
  ///
  /// Two passes: the first finds the closing quote (a string ends on its line) so the raw bytes can be checked
  /// as UTF-8 as a whole; the second decodes them, as UTF-8 when they are valid UTF-8 and as Latin-1 otherwise.
  mutating func parseString() throws(RepairedJSONError) -> String {
    let opening = index
    let quote = bytes[opening]
    var end = opening + 1
    var isASCII = true
    while true {
      guard end < bytes.count else { throw error(.unterminatedString, at: opening) }
      let byte = bytes[end]
      if byte == quote { break }
      if byte == Byte.lineFeed || byte == Byte.carriageReturn { throw error(.unterminatedString, at: opening) }
      if byte >= 0x80 { isASCII = false }
      // An escaped byte never closes the string; if it is not a known escape, the second pass says so.
      end += byte == Byte.backslash ? 2 : 1
    }
    let isUTF8 = isASCII || String(validating: bytes[(opening + 1)..<end], as: UTF8.self) != nil
    index = opening + 1
    // Collected in an array and turned into a String once: appending to a String's scalar view run by run
    // made long strings of escapes and Latin-1 bytes quadratic.
    var scalars: [Unicode.Scalar] = []
    while index < end {
      let runStart = index
      while index < end, bytes[index] != Byte.backslash { index += 1 }
      if runStart < index {
        let run = bytes[runStart..<index]
        if isUTF8 {
          scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        } else {
          scalars.append(contentsOf: run.map { Unicode.Scalar($0) })
        }
      }
      if index < end { scalars.append(try parseEscape(end: end)) }
    }
    index = end + 1
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    return text
  }

  /// One escape starting at the backslash, inside a string whose closing quote is at `end`.
  private mutating func parseEscape(end: Int) throws(RepairedJSONError) -> Unicode.Scalar {
    let backslash = index
    let escape = bytes[index + 1]
    index += 2
    switch escape {
    case Byte.doubleQuote: return "\""
    case Byte.singleQuote: return "'"
    case Byte.backslash: return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "x"):
      let code = try parseHex(digits: 2, end: end, escapeStart: backslash)
      return Unicode.Scalar(UInt8(code))
    case UInt8(ascii: "u"):
      let code = try parseHex(digits: 4, end: end, escapeStart: backslash)
      if (0xDC00...0xDFFF).contains(code) { throw error(.unpairedSurrogate, at: backslash) }
      guard (0xD800...0xDBFF).contains(code) else {
        // Not a surrogate, so always a scalar.
        return Unicode.Scalar(code) ?? "\u{FFFD}"
      }
      guard index + 1 < end, bytes[index] == Byte.backslash, bytes[index + 1] == UInt8(ascii: "u") else {
        throw error(.unpairedSurrogate, at: backslash)
      }
      let lowStart = index
      index += 2
      let low = try parseHex(digits: 4, end: end, escapeStart: lowStart)
      guard (0xDC00...0xDFFF).contains(low) else { throw error(.unpairedSurrogate, at: backslash) }
      return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
    default:
      throw error(.unknownEscape(escape), at: backslash)
    }
  }

  private mutating func parseHex(digits: Int, end: Int, escapeStart: Int) throws(RepairedJSONError) -> UInt32 {
    guard end - index >= digits, let value = HexDigits.value(bytes, from: index, count: digits) else {
      throw error(.invalidHexEscape, at: escapeStart)
    }
    index += digits
    return value
  }
}
