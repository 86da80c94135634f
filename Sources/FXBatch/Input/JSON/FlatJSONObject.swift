/// The members of a compact, flat JSON object found in place: the fast paths' reading of a JSON Lines record.
///
/// ``scan(_:)`` accepts only a subset of RFC 8259 that the general ``JSONParser`` reads the same way: the
/// object `{…}` with nothing around it and no whitespace inside; member names that are strings without
/// escapes or control bytes; values that are such strings, numbers in the JSON grammar, `true`, `false` or
/// `null`; at most ``maximumMembers`` members. Anything else (whitespace, nested values, escapes, an empty
/// object) is declined, and the caller reads the record through the general parser.
///
/// Byte ranges are relative to the scanned bytes; strings are given without their quotes. Bytes of 0x80 and
/// above are taken as they are, as the general parser takes them (decoded with `String(decoding:as:)`).
struct FlatJSONObject {
  /// The kind of a member's value.
  enum Kind: UInt8 {
    case string, number, literal
  }

  /// The most members a record may have on the fast path.
  static let maximumMembers = 64

  /// Per member: the name's start and end, the value's start and end (strings without quotes).
  private(set) var ranges: [Int32]
  private(set) var kinds: [Kind]
  private(set) var count = 0
  /// The index of the closing `}`.
  private(set) var closingBrace = 0

  init() {
    ranges = Array(repeating: 0, count: 4 * Self.maximumMembers)
    kinds = Array(repeating: .literal, count: Self.maximumMembers)
  }

  /// The name of member `index`.
  @inline(__always)
  func name(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[Int(ranges[4 * index])..<Int(ranges[4 * index + 1])])
  }

  /// The value of member `index` (a string without its quotes).
  @inline(__always)
  func value(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: bytes[Int(ranges[4 * index + 2])..<Int(ranges[4 * index + 3])])
  }

  /// Reads a record's bytes (a line without its line end).
  ///
  /// - Returns: whether they are a flat object this type reads (see the type's description).
  @inline(__always)
  mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let total = bytes.count
    guard total >= 2, bytes[0] == UInt8(ascii: "{"), bytes[total - 1] == UInt8(ascii: "}") else { return false }
    var index = 1
    var member = 0
    return ranges.withUnsafeMutableBufferPointer { ranges in
      kinds.withUnsafeMutableBufferPointer { kinds in
        /// A string's end (the index of its closing quote), from the byte after its opening quote.
        @inline(__always) func stringEnd(_ from: Int) -> Int? {
          var at = from
          while at < total {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") { return at }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            at += 1
          }
          return nil
        }
        while true {
          guard member < Self.maximumMembers, index < total, bytes[index] == UInt8(ascii: "\"") else { return false }
          guard let nameEnd = stringEnd(index + 1) else { return false }
          ranges[4 * member] = Int32(truncatingIfNeeded: index + 1)
          ranges[4 * member + 1] = Int32(truncatingIfNeeded: nameEnd)
          index = nameEnd + 1
          guard index < total, bytes[index] == UInt8(ascii: ":") else { return false }
          index += 1
          guard index < total else { return false }
          let first = bytes[index]
          if first == UInt8(ascii: "\"") {
            guard let valueEnd = stringEnd(index + 1) else { return false }
            ranges[4 * member + 2] = Int32(truncatingIfNeeded: index + 1)
            ranges[4 * member + 3] = Int32(truncatingIfNeeded: valueEnd)
            kinds[member] = .string
            index = valueEnd + 1
          } else if first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 {
            guard let numberEnd = Self.numberEnd(bytes, from: index) else { return false }
            ranges[4 * member + 2] = Int32(truncatingIfNeeded: index)
            ranges[4 * member + 3] = Int32(truncatingIfNeeded: numberEnd)
            kinds[member] = .number
            index = numberEnd
          } else {
            let length = Self.literalLength(bytes, from: index)
            guard length > 0 else { return false }
            ranges[4 * member + 2] = Int32(truncatingIfNeeded: index)
            ranges[4 * member + 3] = Int32(truncatingIfNeeded: index + length)
            kinds[member] = .literal
            index += length
          }
          member += 1
          guard index < total else { return false }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          guard bytes[index] == UInt8(ascii: "}"), index == total - 1 else { return false }
          count = member
          closingBrace = index
          return true
        }
      }
    }
  }

  /// The end of a number in the JSON grammar (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`); `nil` when
  /// the grammar does not hold.
  @inline(__always)
  private static func numberEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    let total = bytes.count
    @inline(__always) func digits() -> Int {
      let from = index
      while index < total, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      return index - from
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
    if index < total, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return nil }
    }
    if index < total, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < total, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { return nil }
    }
    return index
  }

  /// The length of `true`, `false` or `null` at `start`; 0 for anything else.
  @inline(__always)
  private static func literalLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    for word in [Self.trueBytes, Self.falseBytes, Self.nullBytes] where bytes.count - start >= word.count {
      var matches = true
      for offset in 0..<word.count where bytes[start + offset] != word[offset] {
        matches = false
        break
      }
      if matches { return word.count }
    }
    return 0
  }

  private static let trueBytes: [UInt8] = Array("true".utf8)
  private static let falseBytes: [UInt8] = Array("false".utf8)
  private static let nullBytes: [UInt8] = Array("null".utf8)
}
