/// A strict JSON parser (RFC 8259) over UTF-8 bytes that keeps number text exact.
///
/// Errors carry the byte offset, line and column; a truncated document, bytes in a string that are not
/// well-formed UTF-8 (``UTF8Validation``) or anything after the top-level value is an error, never a partial
/// result. Nesting deeper than 512 levels is refused.
public struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0
  private static let maximumDepth = 512
  /// The most values the document may hold, and how many are left (``parse(_:maximumValues:)``).
  private let maximumValues: Int
  private var valuesLeft: Int

  /// Parses a whole document.
  ///
  /// - Parameters:
  ///   - bytes: UTF-8.
  ///   - maximumValues: the most values (members' values and array elements, at any depth) the document may
  ///     hold, so that a small text of many values (`[1,1,1,…]`, eight bytes of parsed value per byte of text)
  ///     cannot take unbounded memory and time.
  ///   - startsFile: whether the bytes are a whole file or answer, whose byte order mark is skipped; a record
  ///     inside a file (a JSON Lines line) has none, so U+FEFF there is an error, not a mark to drop.
  /// - Returns: the top-level value.
  /// - Throws: ``JSONParseError``.
  public static func parse(_ bytes: [UInt8], maximumValues: Int = .max, startsFile: Bool = true) throws(JSONParseError)
    -> JSONValue
  {
    var parser = JSONParser(bytes: bytes, maximumValues: maximumValues)
    if startsFile, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  private init(bytes: [UInt8], maximumValues: Int) {
    self.bytes = bytes
    self.maximumValues = maximumValues
    valuesLeft = maximumValues
  }

  private func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
    let position = min(offset ?? index, bytes.count)
    var line = 1
    var lineStart = 0
    for (offset, byte) in bytes[..<position].enumerated() where byte == 10 {
      line += 1
      lineStart = offset + 1
    }
    return JSONParseError(message: message, offset: position, line: line, column: position - lineStart + 1)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw error("unexpected end of the document") }
    valuesLeft -= 1
    if valuesLeft < 0 { throw error("more than \(maximumValues) values (members and array elements)") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    default:
      if bytes[index...].starts(with: [0xEF, 0xBB, 0xBF]) { throw error(Self.byteOrderMarkMessage) }
      throw error("unexpected character \(Self.describe(bytes[index]))")
    }
  }

  /// The error of U+FEFF where a value starts: only a file's first bytes are a byte order mark; anywhere else
  /// it is a character, which JSON allows only inside strings.
  static let byteOrderMarkMessage = "a byte order mark (U+FEFF) outside a string: only the file's first bytes may be one"

  private static func describe(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
  }

  private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
    let expected = Array(word.utf8)
    guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
      throw error("expected \(word)")
    }
    index += expected.count
    return value
  }

  private mutating func enter() throws(JSONParseError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of the document inside an object") }
      guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a quoted member name") }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
      index += 1
      skipWhitespace()
      members.append((key, try parseValue()))
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of the document inside an object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}' in an object") }
      index += 1
      return .object(members)
    }
  }

  private mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      guard index < bytes.count else { throw error("unexpected end of the document inside an array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']' in an array") }
      index += 1
      return .array(elements)
    }
  }

  private mutating func parseNumber() throws(JSONParseError) -> String {
    let start = index
    func digits() -> Int {
      let from = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
      return index - from
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0 else { throw error("expected a digit") }
    if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error("leading zero in a number", at: integerStart) }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw error("expected a digit after '.'") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw error("expected a digit in the exponent") }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func parseString() throws(JSONParseError) -> String {
    let opening = index
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flushRun() {
      if runStart < index { scalars.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).unicodeScalars) }
    }
    while true {
      guard index < bytes.count else { throw error("string is never closed", at: opening) }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        defer { index += 1 }
        // Without an escape the string is its one run of bytes, already validated: no scalar-by-scalar copy
        // (which was most of the time to read a Frankfurter v2 answer of 40,000 rows).
        if scalars.isEmpty { return String(decoding: bytes[runStart..<index], as: UTF8.self) }
        flushRun()
        return String(scalars)
      }
      if byte < 0x20 { throw error("control character in a string (escape it)") }
      if byte >= 0x80 {
        let lead = index
        let end = bytes.count
        switch UTF8Validation.character(lead: byte, following: { lead + $0 < end ? bytes[lead + $0] : nil }) {
        case .valid(let length): index += length
        case .invalid(let length): throw error(UTF8Validation.message(bytes[lead..<lead + length]))
        case .truncated: throw error(UTF8Validation.message(bytes[lead...]))
        }
        continue
      }
      if byte != UInt8(ascii: "\\") {
        index += 1
        continue
      }
      flushRun()
      index += 1
      guard index < bytes.count else { throw error("string is never closed", at: opening) }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try parseHex4()
        if (0xD800...0xDBFF).contains(code) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw error("unpaired surrogate \\u\(String(code, radix: 16))")
          }
          index += 2
          let low = try parseHex4()
          guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
        scalars.append(scalar)
      default:
        throw error("unknown escape \\\(Character(UnicodeScalar(escape)))", at: index - 2)
      }
      runStart = index
    }
  }

  private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
    guard let value = HexDigits.value(bytes, from: index, count: 4) else {
      // Point at the first byte that is not a hex digit, as a byte-by-byte reader would.
      index += bytes[index..<index + 4].prefix { HexDigits.value([$0], from: 0, count: 1) != nil }.count
      throw error("expected a hex digit in \\u escape")
    }
    index += 4
    return value
  }
}
