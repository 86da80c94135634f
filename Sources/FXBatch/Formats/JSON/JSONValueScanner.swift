/// Reads one JSON value in a buffer strictly, as ``JSONDocumentWalker`` checks it (RFC 8259: UTF-8 strings without
/// control characters and with known escapes, numbers in the JSON grammar, `true`/`false`/`null`, objects and
/// arrays), and finds where it ends: the byte-level path's way of finding a JSON document's records.
///
/// Raw line feeds can only occur in whitespace between tokens (a string may not hold one), so the scanner
/// counts them there: the caller knows the line and column of every byte it passes.
///
/// It refuses more than the walker does, never less: nesting deeper than ``maximumDepth`` is ``Failure/invalid``
/// here (the walker allows 512 levels), and the caller then reads the whole document through the general path.
struct JSONValueScanner {
  /// Why a value was not read.
  enum Failure: Error {
    /// The buffer ended inside the value (or before the byte after a number): read more and scan again.
    case needsMore
    /// The bytes are not JSON this scanner reads.
    case invalid
  }

  /// The deepest nesting read (a record's object is level 1).
  static let maximumDepth = 128

  private let bytes: ByteView
  /// The index after the last byte of the buffer.
  let end: Int
  /// The line feeds skipped so far.
  private(set) var lineFeeds = 0
  /// The index of the last line feed skipped; `nil` when none was.
  private(set) var lastLineFeed: Int?

  init(_ bytes: ByteView) {
    self.bytes = bytes
    end = bytes.count
  }

  /// The byte at `index`.
  ///
  /// - Throws: ``Failure/needsMore`` at the end of the buffer.
  @inline(__always)
  func byte(_ index: Int) throws(Failure) -> UInt8 {
    guard index < end else { throw .needsMore }
    return bytes[index]
  }

  /// The first index at or after `from` that is not JSON whitespace (space, tab, CR, LF); ``end`` at most.
  @inline(__always)
  mutating func skipWhitespace(from: Int) -> Int {
    var index = from
    while index < end {
      switch bytes[index] {
      case 0x20, 0x09, 0x0D: index += 1
      case 0x0A:
        lineFeeds += 1
        lastLineFeed = index
        index += 1
      default: return index
      }
    }
    return index
  }

  /// The index after the value that starts at `start` (no whitespace before it).
  ///
  /// - Throws: ``Failure``.
  mutating func valueEnd(from start: Int, depth: Int = 1) throws(Failure) -> Int {
    switch try byte(start) {
    case UInt8(ascii: "{"): return try containerEnd(from: start, close: UInt8(ascii: "}"), depth: depth)
    case UInt8(ascii: "["): return try containerEnd(from: start, close: UInt8(ascii: "]"), depth: depth)
    case UInt8(ascii: "\""): return try stringEnd(from: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try numberEnd(from: start)
    case UInt8(ascii: "t"): return try literalEnd(from: start, "true")
    case UInt8(ascii: "f"): return try literalEnd(from: start, "false")
    case UInt8(ascii: "n"): return try literalEnd(from: start, "null")
    default: throw .invalid
    }
  }

  private mutating func containerEnd(from start: Int, close: UInt8, depth: Int) throws(Failure) -> Int {
    guard depth <= Self.maximumDepth else { throw .invalid }
    let isObject = close == UInt8(ascii: "}")
    var index = skipWhitespace(from: start + 1)
    if try byte(index) == close { return index + 1 }
    while true {
      if isObject {
        guard try byte(index) == UInt8(ascii: "\"") else { throw .invalid }
        index = skipWhitespace(from: try stringEnd(from: index))
        guard try byte(index) == UInt8(ascii: ":") else { throw .invalid }
        index = skipWhitespace(from: index + 1)
      }
      index = skipWhitespace(from: try valueEnd(from: index, depth: depth + 1))
      let separator = try byte(index)
      if separator == close { return index + 1 }
      guard separator == UInt8(ascii: ",") else { throw .invalid }
      index = skipWhitespace(from: index + 1)
    }
  }

  /// The index after the string whose opening quote is at `start`.
  @inline(__always)
  private func stringEnd(from start: Int) throws(Failure) -> Int {
    var index = start + 1
    while true {
      index = bytes.jsonStringStop(from: index, before: end)
      let byte = try byte(index)
      switch byte {
      case UInt8(ascii: "\""): return index + 1
      case UInt8(ascii: "\\"):
        switch try self.byte(index + 1) {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 2
        case UInt8(ascii: "u"):
          for offset in 2..<6 {
            let digit = try self.byte(index + offset)
            guard digit &- UInt8(ascii: "0") < 10 || (digit | 0x20) &- UInt8(ascii: "a") < 6 else { throw .invalid }
          }
          index += 6
        default: throw .invalid
        }
      case ..<0x20: throw .invalid
      case 0x80...:
        // Not UTF-8: the walker says where, as a file error.
        let lead = index
        switch UTF8Validation.character(lead: byte, following: { lead + $0 < end ? bytes[lead + $0] : nil }) {
        case .valid(let length): index += length
        case .invalid: throw .invalid
        case .truncated: throw .needsMore
        }
      default: index += 1
      }
    }
  }

  /// The index after the number at `start` (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`); a number that
  /// reaches the end of the buffer may go on, so that needs more.
  private func numberEnd(from start: Int) throws(Failure) -> Int {
    var index = start
    func digits() throws(Failure) -> Int {
      let from = index
      while try byte(index) &- UInt8(ascii: "0") < 10 { index += 1 }
      return index - from
    }
    if try byte(index) == UInt8(ascii: "-") { index += 1 }
    let leadingZero = try byte(index) == UInt8(ascii: "0")
    let integerDigits = try digits()
    guard integerDigits > 0, !leadingZero || integerDigits == 1 else { throw .invalid }
    if try byte(index) == UInt8(ascii: ".") {
      index += 1
      guard try digits() > 0 else { throw .invalid }
    }
    if try byte(index) | 0x20 == UInt8(ascii: "e") {
      index += 1
      let sign = try byte(index)
      if sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
      guard try digits() > 0 else { throw .invalid }
    }
    return index
  }

  private func literalEnd(from start: Int, _ word: StaticString) throws(Failure) -> Int {
    let letters = ByteView(word)
    for offset in 0..<letters.count {
      guard try byte(start + offset) == letters[offset] else { throw .invalid }
    }
    return start + letters.count
  }
}
