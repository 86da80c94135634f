/// Walks a JSON document once, from a file, handing out each element of its records array and copying
/// everything else through unchanged, so that a document of any size is read in constant memory.
///
/// The records array is the top-level value, or the array at a member path of nested objects
/// (`--records-path data.items`). The whole document is checked as strict JSON (RFC 8259) while it is walked:
/// a string that is not UTF-8, a truncated document, text after the top-level value, nesting deeper than 512
/// levels, a records path that is absent, ambiguous (the member twice) or not an array is a ``JSONParseError``
/// with its line and column.
/// Elements are not parsed here: the caller parses each one (``JSONRecordText/members()``).
public final class JSONDocumentWalker {
  private let stream: JSONByteStream
  private let recordsPath: [String]
  private var copy: ([UInt8]) throws -> Void = { _ in }
  private var record: (JSONRecordText) throws -> Bool = { _ in true }
  private var records: ((JSONArrayExtent.Position) throws -> JSONArrayExtent.Position)?
  private var depth = 0
  private static let maximumDepth = 512
  private static let drainSize = 1 << 16

  /// Thrown by ``record`` returning `false`, to end the walk early.
  private struct Stop: Error {}

  /// Opens a document.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - recordsPath: member names from the top-level object to the records array; empty when the document
  ///     is the array.
  ///   - limits: how big a record may be (a bigger one is a ``JSONParseError``).
  /// - Throws: ``JSONParseError`` when the file cannot be opened.
  public init(path: String, recordsPath: [String], limits: RecordLimits = .standard) throws(JSONParseError) {
    stream = try JSONByteStream(path: path, limits: limits)
    self.recordsPath = recordsPath
  }

  /// Walks the document.
  ///
  /// - Parameters:
  ///   - copy: receives every byte that is not part of a record, in order (a byte order mark included).
  ///   - record: called with each element of the records array, after the bytes before it were copied;
  ///     returns `false` to stop the walk (the rest of the document is then neither read nor checked).
  ///   - records: when given, takes the records array instead of `record` (the byte-level path): called with
  ///     the place after the array's `[` once the bytes up to it were copied, it reads (and writes) everything
  ///     up to and including the `]` and returns the place after it, where the walk goes on.
  /// - Throws: ``JSONParseError`` for a malformed document, or what `copy`, `record` or `records` throw.
  public func walk(copy: @escaping ([UInt8]) throws -> Void, record: @escaping (JSONRecordText) throws -> Bool) throws {
    try walk(copy: copy, record: record, records: nil)
  }

  func walk(
    copy: @escaping ([UInt8]) throws -> Void, record: @escaping (JSONRecordText) throws -> Bool,
    records: ((JSONArrayExtent.Position) throws -> JSONArrayExtent.Position)?
  ) throws {
    self.copy = copy
    self.record = record
    self.records = records
    do {
      if try stream.peek() == 0xEF {
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
          guard try stream.take() == expected else { throw stream.error("unexpected character (not UTF-8 JSON)") }
        }
      }
      try skipWhitespace()
      if recordsPath.isEmpty {
        switch try stream.peek() {
        case UInt8(ascii: "["): try walkRecords()
        case UInt8(ascii: "{"):
          throw stream.error(
            "the document is an object, not an array of records; give --records-path NAME for the member holding the records, or --format jsonl for one object per line"
          )
        case nil: throw stream.error("the document is empty; expected an array of records")
        default: throw stream.error("expected an array of records")
        }
      } else {
        guard try stream.peek() == UInt8(ascii: "{") else {
          throw stream.error("expected an object holding \(recordsPath.joined(separator: ".")) (--records-path)")
        }
        try walkPath(0)
      }
      try skipWhitespace()
      guard try stream.peek() == nil else { throw stream.error("unexpected text after the JSON value") }
      try drain()
    } catch is Stop {
      return
    }
  }

  /// Hands the bytes taken so far to ``copy``.
  private func drain() throws {
    guard !stream.passThrough.isEmpty else { return }
    try copy(stream.passThrough)
    stream.passThrough.removeAll(keepingCapacity: true)
  }

  /// Walks the object at the stream (its `{` next) that holds ``recordsPath``[`level`...].
  private func walkPath(_ level: Int) throws {
    let name = recordsPath[level]
    let shown = recordsPath[...level].joined(separator: ".")
    _ = try stream.take()
    var found = false
    try skipWhitespace()
    if try stream.peek() == UInt8(ascii: "}") {
      throw stream.error("no member \(RowError.quoted(shown)) (--records-path)")
    }
    while true {
      try skipWhitespace()
      guard try stream.peek() == UInt8(ascii: "\"") else { throw stream.error("expected a quoted member name") }
      let keyLine = stream.line
      let keyColumn = stream.column
      let key = try readKey()
      try skipWhitespace()
      guard try stream.take() == UInt8(ascii: ":") else { throw stream.error("expected ':' after a member name") }
      try skipWhitespace()
      if key == name {
        guard !found else {
          throw JSONParseError(
            message: "the member \(RowError.quoted(shown)) occurs twice; the records path is ambiguous", offset: stream.offset,
            line: keyLine, column: keyColumn)
        }
        found = true
        let expected = level == recordsPath.count - 1 ? UInt8(ascii: "[") : UInt8(ascii: "{")
        guard try stream.peek() == expected else {
          throw stream.error(
            "\(RowError.quoted(shown)) is not \(expected == UInt8(ascii: "[") ? "an array of records" : "an object") (--records-path)"
          )
        }
        if level == recordsPath.count - 1 { try walkRecords() } else { try walkPath(level + 1) }
      } else {
        try skipValue()
      }
      try skipWhitespace()
      switch try stream.take() {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "}"):
        if !found {
          throw JSONParseError(
            message: "no member \(RowError.quoted(shown)) (--records-path)", offset: stream.offset, line: stream.line,
            column: stream.column - 1)
        }
        return
      case nil: throw stream.error("unexpected end of the document inside an object")
      default: throw stream.error("expected ',' or '}' in an object")
      }
    }
  }

  /// Walks the records array (its `[` next), handing out each element.
  private func walkRecords() throws {
    _ = try stream.take()
    if let records {
      try drain()
      try stream.seek(to: try records(JSONArrayExtent.Position(offset: stream.offset, line: stream.line, column: stream.column)))
      return
    }
    try skipWhitespace()
    if try stream.peek() == UInt8(ascii: "]") {
      stream.advance()
      return
    }
    while true {
      try skipWhitespace()
      try drain()
      let line = stream.line
      let column = stream.column
      stream.captured = []
      try skipValue()
      let bytes = stream.captured ?? []
      stream.captured = nil
      try stream.checkRecordSize(bytes.count, line: line, column: column)
      guard try record(JSONRecordText(bytes: bytes, line: line, column: column)) else { throw Stop() }
      try skipWhitespace()
      switch try stream.take() {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return
      case nil: throw stream.error("unexpected end of the document inside an array")
      default: throw stream.error("expected ',' or ']' in an array")
      }
    }
  }

  private func skipWhitespace() throws {
    while let byte = try stream.peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { stream.advance() }
  }

  /// Takes one value, checking it.
  private func skipValue() throws {
    if stream.passThrough.count >= Self.drainSize { try drain() }
    switch try stream.peek() {
    case UInt8(ascii: "{"): try skipContainer(close: UInt8(ascii: "}"))
    case UInt8(ascii: "["): try skipContainer(close: UInt8(ascii: "]"))
    case UInt8(ascii: "\""): try skipString()
    case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?: try skipNumber()
    case UInt8(ascii: "t"): try skipLiteral("true")
    case UInt8(ascii: "f"): try skipLiteral("false")
    case UInt8(ascii: "n"): try skipLiteral("null")
    case nil: throw stream.error("unexpected end of the document")
    case let byte?:
      let shown = (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
      throw stream.error("unexpected character \(shown)")
    }
  }

  /// Takes an object or an array.
  private func skipContainer(close: UInt8) throws {
    let isObject = close == UInt8(ascii: "}")
    let kind = isObject ? "an object" : "an array"
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { throw stream.error("nesting deeper than \(Self.maximumDepth) levels") }
    stream.advance()
    try skipWhitespace()
    if try stream.peek() == close {
      stream.advance()
      return
    }
    while true {
      try skipWhitespace()
      if isObject {
        guard try stream.peek() == UInt8(ascii: "\"") else { throw stream.error("expected a quoted member name") }
        try skipString()
        try skipWhitespace()
        guard try stream.take() == UInt8(ascii: ":") else { throw stream.error("expected ':' after a member name") }
        try skipWhitespace()
      }
      try skipValue()
      try skipWhitespace()
      switch try stream.take() {
      case UInt8(ascii: ","): continue
      case close: return
      case nil: throw stream.error("unexpected end of the document inside \(kind)")
      default: throw stream.error("expected ',' or '\(Character(UnicodeScalar(close)))' in \(kind)")
      }
    }
  }

  /// Reads a member name (decoded), taking its bytes (never inside a record: the path leads to the records).
  private func readKey() throws -> String {
    stream.captured = []
    try skipString()
    let bytes = stream.captured ?? []
    stream.captured = nil
    stream.passThrough.append(contentsOf: bytes)
    guard case .string(let key) = try JSONParser.parse(bytes) else { return "" }
    return key
  }

  /// Takes a string, checking its escapes, that it holds no control characters and that it is UTF-8.
  private func skipString() throws {
    let line = stream.line
    let column = stream.column
    stream.advance()
    while true {
      guard let byte = try stream.peek() else {
        throw JSONParseError(message: "string is never closed", offset: stream.offset, line: line, column: column)
      }
      if byte < 0x20 { throw stream.error("control character in a string (escape it)") }
      let escapeAt = stream.error("")
      stream.advance()
      if byte >= 0x80 {
        // Takes the continuation bytes as it reads them: past a character that is not UTF-8 the walk stops.
        var taken: [UInt8] = [byte]
        let stream = stream
        let character = UTF8Validation.character(lead: byte) { _ in
          guard let next = try? stream.peek() else { return nil }
          stream.advance()
          taken.append(next)
          return next
        }
        if case .invalid = character {
          throw JSONParseError(
            message: UTF8Validation.message(taken), offset: escapeAt.offset, line: escapeAt.line,
            column: escapeAt.column)
        }
        // A character the file ends inside: the next peek finds the end (the string is never closed).
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): return
      case UInt8(ascii: "\\"):
        guard let escape = try stream.take() else { throw stream.error("string is never closed") }
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          continue
        case UInt8(ascii: "u"):
          for _ in 0..<4 {
            guard let digit = try stream.take(), Character(UnicodeScalar(digit)).isHexDigit else {
              throw stream.error("expected a hex digit in \\u escape")
            }
          }
        default:
          throw JSONParseError(
            message: "unknown escape \\\(Character(UnicodeScalar(escape)))", offset: escapeAt.offset, line: escapeAt.line,
            column: escapeAt.column)
        }
      default: continue
      }
    }
  }

  /// Takes a number (RFC 8259 grammar: no leading zeros, digits after `.` and in the exponent).
  private func skipNumber() throws {
    func digits() throws -> Int {
      var count = 0
      while let byte = try stream.peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        stream.advance()
        count += 1
      }
      return count
    }
    if try stream.peek() == UInt8(ascii: "-") { stream.advance() }
    let leadingZero = try stream.peek() == UInt8(ascii: "0")
    let integerDigits = try digits()
    guard integerDigits > 0 else { throw stream.error("expected a digit") }
    if leadingZero, integerDigits > 1 { throw stream.error("leading zero in a number") }
    if try stream.peek() == UInt8(ascii: ".") {
      stream.advance()
      guard try digits() > 0 else { throw stream.error("expected a digit after '.'") }
    }
    if let byte = try stream.peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      stream.advance()
      if let sign = try stream.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { stream.advance() }
      guard try digits() > 0 else { throw stream.error("expected a digit in the exponent") }
    }
  }

  private func skipLiteral(_ word: String) throws {
    for expected in word.utf8 {
      guard try stream.peek() == expected else { throw stream.error("expected \(word)") }
      stream.advance()
    }
  }
}
