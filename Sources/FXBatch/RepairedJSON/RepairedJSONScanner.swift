/// The recursive-descent reader behind ``RepairedJSON/parse(_:)``: one pass over the bytes, one index.
///
/// Laid out like swift-foundation's `JSON5Scanner`: a document step that detects the brace-less top-level
/// object, a value step that dispatches on the first byte, and one member loop shared by braced and brace-less
/// objects. Strings are in `RepairedJSONScanner+Strings.swift`.
struct RepairedJSONScanner {
  let bytes: [UInt8]
  var index = 0
  private var depth = 0

  init(bytes: [UInt8]) { self.bytes = bytes }

  mutating func parseDocument() throws(RepairedJSONError) -> JSONValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    skipWhitespace()
    guard index < bytes.count else { throw error(.unexpectedEnd) }
    let value: JSONValue
    if startsBracelessObject() {
      try enter()
      value = try parseMembers(closing: nil)
      depth -= 1
    } else {
      value = try parseValue()
    }
    skipWhitespace()
    guard index == bytes.count else { throw error(.textAfterValue) }
    return value
  }

  // MARK: - Positions and errors

  func error(_ reason: RepairedJSONError.Reason, at offset: Int? = nil) -> RepairedJSONError {
    let position = min(offset ?? index, bytes.count)
    var line = 1
    var lineStart = 0
    for (offset, byte) in bytes[..<position].enumerated() where byte == Byte.lineFeed {
      line += 1
      lineStart = offset + 1
    }
    return RepairedJSONError(reason, offset: position, line: line, column: position - lineStart + 1)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == Byte.space || byte == Byte.tab || byte == Byte.lineFeed || byte == Byte.carriageReturn {
      index += 1
    }
  }

  private mutating func enter() throws(RepairedJSONError) {
    depth += 1
    if depth > RepairedJSON.maximumDepth { throw error(.nestingTooDeep) }
  }

  static func isIdentifierByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "$"):
      return true
    default: return false
    }
  }

  // MARK: - Values

  /// Whether the body is `name: value, …` without braces: a member name followed by `:`. Looks ahead on a copy,
  /// so nothing is consumed.
  private func startsBracelessObject() -> Bool {
    var probe = self
    guard let byte = probe.current, byte != UInt8(ascii: "{"), byte != UInt8(ascii: "[") else { return false }
    guard (try? probe.parseMemberName()) != nil else { return false }
    probe.skipWhitespace()
    return probe.current == UInt8(ascii: ":")
  }

  private mutating func parseValue() throws(RepairedJSONError) -> JSONValue {
    guard let byte = current else { throw error(.unexpectedEnd) }
    switch byte {
    case UInt8(ascii: "{"):
      try enter()
      defer { depth -= 1 }
      index += 1
      return try parseMembers(closing: UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      try enter()
      defer { depth -= 1 }
      index += 1
      return try parseElements()
    case Byte.doubleQuote, Byte.singleQuote:
      return .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try parseNumber())
    case _ where Self.isIdentifierByte(byte):
      let start = index
      let word = scanIdentifier()
      switch word {
      case "true": return .bool(true)
      case "false": return .bool(false)
      case "null": return .null
      default: throw error(.unknownWord(word), at: start)
      }
    default:
      throw error(.unexpectedCharacter(byte))
    }
  }

  /// Members up to `closing` (consumed), or to the end of the body when `closing` is `nil`.
  private mutating func parseMembers(closing: UInt8?) throws(RepairedJSONError) -> JSONValue {
    var members: [(key: String, value: JSONValue)] = []
    while true {
      skipWhitespace()
      guard let byte = current else {
        if closing == nil { return .object(members) }
        throw error(.unexpectedEnd)
      }
      if byte == closing {
        index += 1
        return .object(members)
      }
      if byte == Byte.comma { throw error(.emptyElement) }
      let key = try parseMemberName()
      skipWhitespace()
      guard let colon = current else { throw error(.unexpectedEnd) }
      guard colon == UInt8(ascii: ":") else { throw error(.expectedColon) }
      index += 1
      skipWhitespace()
      members.append((key, try parseValue()))
      skipWhitespace()
      guard let next = current else {
        if closing == nil { return .object(members) }
        throw error(.unexpectedEnd)
      }
      if next == Byte.comma {
        index += 1
      } else if next == closing {
        index += 1
        return .object(members)
      } else {
        throw error(.expectedCommaOrClosing(closing.map { Character(UnicodeScalar($0)) }))
      }
    }
  }

  private mutating func parseElements() throws(RepairedJSONError) -> JSONValue {
    var elements: [JSONValue] = []
    while true {
      skipWhitespace()
      guard let byte = current else { throw error(.unexpectedEnd) }
      if byte == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      if byte == Byte.comma { throw error(.emptyElement) }
      elements.append(try parseValue())
      skipWhitespace()
      guard let next = current else { throw error(.unexpectedEnd) }
      if next == Byte.comma {
        index += 1
      } else if next == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw error(.expectedCommaOrClosing("]"))
      }
    }
  }

  private mutating func parseMemberName() throws(RepairedJSONError) -> String {
    guard let byte = current else { throw error(.unexpectedEnd) }
    if byte == Byte.doubleQuote || byte == Byte.singleQuote { return try parseString() }
    guard Self.isIdentifierByte(byte) else { throw error(.expectedMemberName) }
    return scanIdentifier()
  }

  private mutating func scanIdentifier() -> String {
    let start = index
    while let byte = current, Self.isIdentifierByte(byte) { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// A JSON number (RFC 8259), returned as its text.
  private mutating func parseNumber() throws(RepairedJSONError) -> String {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    guard skipDigits() > 0 else { throw error(.invalidNumber) }
    if index - integerStart > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error(.invalidNumber, at: integerStart) }
    if current == UInt8(ascii: ".") {
      index += 1
      guard skipDigits() > 0 else { throw error(.invalidNumber) }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard skipDigits() > 0 else { throw error(.invalidNumber) }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func skipDigits() -> Int {
    let start = index
    while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
    return index - start
  }
}

extension RepairedJSONScanner {
  /// The ASCII bytes the scanner looks for.
  enum Byte {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let comma = UInt8(ascii: ",")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
  }
}
