/// The members of a JSON object found in place: the fast paths' reading of a JSON Lines record or of an
/// element of a JSON document's records array (and of the objects a field path steps into).
///
/// ``scan(_:)`` accepts only a subset of RFC 8259 that the general ``JSONParser`` reads the same way: the
/// object `{…}` with nothing around it, and any JSON whitespace between its tokens (a JSON document's record
/// may span lines; a JSON Lines line holds no line feed); member names that are strings without escapes or
/// control bytes; values that are such strings, numbers in the JSON grammar, `true`, `false` or `null`, or
/// objects and arrays (skipped, their extent recorded: ``nestedEnd(_:from:last:values:)``); at most
/// ``maximumMembers`` members; string values may hold escapes (``Kind/escapedString``). Anything else (escapes
/// in a member's name, an empty object) is declined, and the caller reads the record through the general parser.
///
/// Byte ranges are relative to the scanned bytes; strings are given without their quotes, objects and arrays
/// with their brackets. A string whose bytes of 0x80 and above are not UTF-8 is declined: the general parser
/// gives the record its `invalid_record` error.
struct FlatJSONObject {
  /// The kind of a member's value.
  enum Kind: UInt8 {
    /// A string without escapes: its bytes are its text.
    case string
    /// A string with escapes (`"a\"b"`, `"\u00e9"`): its bytes are not its text, so no field is read from it
    /// on the fast path.
    case escapedString
    case number, literal, object, array
  }

  /// The most members a record may have on the fast path.
  static let maximumMembers = 64
  /// The most values (at any depth) a record may hold on the fast path: well below the general reader's
  /// limit (``RecordLimits/maxFields``), so that a record this type accepts is never one the general reader
  /// refuses for its size.
  static let maximumValues = 32_768
  /// The deepest nesting of a member's value skipped (the record's own members are level 1).
  static let maximumDepth = 60

  /// Frees the lists when the last copy goes. Copies share the lists: a copy for another thread is a new value
  /// (``init()``).
  private final class Owner {
    /// Per member: the name's start and end, the value's start and end (strings without quotes).
    let ranges = ScratchList<Int32>.allocate(capacity: 4 * FlatJSONObject.maximumMembers)
    let kinds = ScratchList<Kind>.allocate(capacity: FlatJSONObject.maximumMembers)
    deinit {
      ranges.deallocate()
      kinds.deallocate()
    }
  }

  private let owner = Owner()
  // The owner's lists, refilled by each scan (they never grow: a scan stops at ``maximumMembers``).
  private var ranges: ScratchList<Int32>
  private var kinds: ScratchList<Kind>
  private(set) var count = 0
  /// The index after the last member's value, where the annotation members go.
  private(set) var insertion = 0

  init() {
    ranges = owner.ranges
    kinds = owner.kinds
  }

  /// The kind of member `index`'s value.
  @inline(__always)
  func kind(_ index: Int) -> Kind { kinds[index] }

  /// The name of member `index`.
  @inline(__always)
  func name(_ index: Int, in bytes: ByteView) -> ByteView {
    bytes.slice(Int(ranges[4 * index])..<Int(ranges[4 * index + 1]))
  }

  /// The value of member `index` (a string without its quotes).
  @inline(__always)
  func value(_ index: Int, in bytes: ByteView) -> ByteView {
    bytes.slice(Int(ranges[4 * index + 2])..<Int(ranges[4 * index + 3]))
  }

  /// Where the value of member `index` is in the scanned bytes (a string without its quotes).
  @inline(__always)
  func valueRange(_ index: Int) -> Range<Int> { Int(ranges[4 * index + 2])..<Int(ranges[4 * index + 3]) }

  /// Where the annotation members go and how they are spaced, as ``JSONObjectLayout`` finds them: the bytes
  /// before each appended member's name (after its comma), and around its colon.
  @inline(__always)
  func layout(in bytes: ByteView) -> (separator: ByteView, beforeColon: ByteView, afterColon: ByteView) {
    (
      bytes.slice(spacing.separator.start..<spacing.separator.end),
      bytes.slice(spacing.beforeColon.start..<spacing.beforeColon.end),
      bytes.slice(spacing.afterColon.start..<spacing.afterColon.end)
    )
  }

  /// Whether the object has no whitespace between its tokens (then ``layout(in:)`` is all empty).
  private(set) var isCompact = true
  private var spacing = (
    separator: (start: 0, end: 0), beforeColon: (start: 0, end: 0), afterColon: (start: 0, end: 0)
  )

  /// Reads a record's bytes (a line without its line end).
  ///
  /// - Returns: whether they are a flat object this type reads (see the type's description).
  @inline(__always)
  mutating func scan(_ bytes: ByteView) -> Bool {
    let total = bytes.count
    guard total >= 2, total < Int(Int32.max), bytes[0] == UInt8(ascii: "{"), bytes[total - 1] == UInt8(ascii: "}")
    else { return false }
    let base = bytes
    ranges.removeAll()
    kinds.removeAll()
    // The last byte is `}`: every scan below stops at it, so `last` bounds them all.
    let last = total - 1
    /// The first index at or after `from` that is not JSON whitespace (at most `last`).
    @inline(__always) func skipSpaces(_ from: Int) -> Int {
      var at = from
      // One comparison for the common case, a token byte (all above 0x20).
      while at < last, base[at] <= 0x20, base[at] == 0x20 || base[at] == 0x09 || base[at] == 0x0A || base[at] == 0x0D {
        at += 1
      }
      return at
    }
    var index = skipSpaces(1)
    let leading = (start: 1, end: index)
    var compact = index == 1
    var member = 0
    var values = 0
    while true {
      guard member < Self.maximumMembers, base[index] == UInt8(ascii: "\"") else { return false }
      let nameEnd = Self.stringEnd(base, from: index + 1, last: last)
      guard nameEnd < last else { return false }
      ranges.append(Int32(truncatingIfNeeded: index + 1))
      ranges.append(Int32(truncatingIfNeeded: nameEnd))
      let colon = skipSpaces(nameEnd + 1)
      guard base[colon] == UInt8(ascii: ":") else { return false }
      index = skipSpaces(colon + 1)
      if member == 0 {
        spacing.beforeColon = (nameEnd + 1, colon)
        spacing.afterColon = (colon + 1, index)
        spacing.separator = leading
      }
      compact = compact && colon == nameEnd + 1 && index == colon + 1
      let first = base[index]
      let valueStart: Int
      let valueEnd: Int
      if first == UInt8(ascii: "\"") {
        valueStart = index + 1
        let plainEnd = Self.stringEnd(base, from: valueStart, last: last)
        if plainEnd < last {
          valueEnd = plainEnd
          kinds.append(.string)
        } else {
          // Escapes (or bytes the parser refuses): checked as the parser reads them, the value kept as written.
          valueEnd = Self.nestedStringEnd(base, from: valueStart, last: last)
          guard valueEnd < last else { return false }
          kinds.append(.escapedString)
        }
        index = valueEnd + 1
      } else if first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 {
        valueStart = index
        valueEnd = Self.numberEnd(base, from: index, last: last)
        guard valueEnd > index else { return false }
        kinds.append(.number)
        index = valueEnd
      } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        valueStart = index
        valueEnd = Self.nestedEnd(base, from: index, last: last, values: &values)
        guard valueEnd > index, values <= Self.maximumValues else { return false }
        kinds.append(first == UInt8(ascii: "{") ? .object : .array)
        index = valueEnd
      } else {
        valueStart = index
        valueEnd = index + Self.literalLength(base, from: index, last: last)
        guard valueEnd > index else { return false }
        kinds.append(.literal)
        index = valueEnd
      }
      ranges.append(Int32(truncatingIfNeeded: valueStart))
      ranges.append(Int32(truncatingIfNeeded: valueEnd))
      member += 1
      // `index` ≤ `last` here: every value ends before the closing `}`.
      let afterValue = index
      index = skipSpaces(index)
      compact = compact && index == afterValue
      if base[index] == UInt8(ascii: ",") {
        let separatorStart = index + 1
        index = skipSpaces(separatorStart)
        if member == 1 { spacing.separator = (separatorStart, index) }
        compact = compact && index == separatorStart
        guard index < last else { return false }
        continue
      }
      guard index == last else { return false }
      count = member
      insertion = afterValue
      isCompact = compact
      return true
    }
  }

  /// The index of the quote that closes a string whose content starts at `from`; `last` (the closing `}`)
  /// when the string has an escape, a control byte or bytes that are not UTF-8 (``UTF8Validation``), or does
  /// not close before it.
  @inline(__always)
  private static func stringEnd(_ base: ByteView, from: Int, last: Int) -> Int {
    var at = from
    while true {
      at = base.jsonStringStop(from: at, before: last)
      guard at < last else { return last }
      let byte = base[at]
      if byte == UInt8(ascii: "\"") { return at }
      if byte < 0x20 || byte == UInt8(ascii: "\\") { return last }
      if byte >= 0x80 {
        let lead = at
        let character = UTF8Validation.character(lead: byte) { lead + $0 < last ? base[lead + $0] : nil }
        guard case .valid(let length) = character else { return last }
        at += length
      } else {
        at += 1
      }
    }
  }

  /// The index after the object or array that starts at `start`, read strictly (as ``JSONParser`` reads it) and
  /// not kept: strings with valid escapes (a `\u` escape of a surrogate is declined) and UTF-8, numbers in the
  /// JSON grammar, literals, at most ``maximumDepth`` levels; `start` when anything else is met or the value does
  /// not close before `last` (the record's closing `}`).
  ///
  /// - Parameter values: counts the values read (members' values and array elements).
  private static func nestedEnd(_ base: ByteView, from start: Int, last: Int, values: inout Int) -> Int {
    /// Per level, 1 for an object and 0 for an array (the lowest bit is the innermost level).
    var stack: UInt64 = 0
    var depth = 0
    var index = start
    @inline(__always) func skipSpaces(_ from: Int) -> Int {
      var at = from
      while at < last, base[at] == 0x20 || base[at] == 0x09 || base[at] == 0x0A || base[at] == 0x0D { at += 1 }
      return at
    }
    /// Reads a member name and its colon at `index`; the index of the value after them, or `nil`.
    @inline(__always) func memberName(_ index: Int) -> Int? {
      guard base[index] == UInt8(ascii: "\"") else { return nil }
      let end = nestedStringEnd(base, from: index + 1, last: last)
      guard end < last else { return nil }
      let colon = skipSpaces(end + 1)
      guard base[colon] == UInt8(ascii: ":") else { return nil }
      let value = skipSpaces(colon + 1)
      return value < last ? value : nil
    }
    while true {
      // A value starts at `index` (< last).
      let first = base[index]
      var done = true
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        guard depth < maximumDepth else { return start }
        depth += 1
        let isObject = first == UInt8(ascii: "{")
        stack = stack << 1 | (isObject ? 1 : 0)
        index = skipSpaces(index + 1)
        guard index < last else { return start }
        if base[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          index += 1
          depth -= 1
          stack >>= 1
        } else {
          if isObject {
            guard let value = memberName(index) else { return start }
            index = value
          }
          values += 1
          done = false
        }
      } else if first == UInt8(ascii: "\"") {
        let end = nestedStringEnd(base, from: index + 1, last: last)
        guard end < last else { return start }
        index = end + 1
      } else if first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10 {
        let end = numberEnd(base, from: index, last: last)
        guard end > index else { return start }
        index = end
      } else {
        let length = literalLength(base, from: index, last: last)
        guard length > 0 else { return start }
        index += length
      }
      guard done else { continue }
      // The value ends at `index`: close the levels it completes, or go on to the next value.
      while true {
        if depth == 0 { return index }
        index = skipSpaces(index)
        guard index < last else { return start }
        let isObject = stack & 1 == 1
        let byte = base[index]
        if byte == UInt8(ascii: ",") {
          index = skipSpaces(index + 1)
          guard index < last else { return start }
          if isObject {
            guard let value = memberName(index) else { return start }
            index = value
          }
          values += 1
          break
        }
        guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return start }
        index += 1
        depth -= 1
        stack >>= 1
      }
    }
  }

  /// The index of the quote that closes a string inside a nested value, whose content starts at `from`; `last`
  /// when it holds a control byte, an escape the parser refuses (or a `\u` surrogate, declined), bytes that are
  /// not UTF-8, or does not close before `last`.
  private static func nestedStringEnd(_ base: ByteView, from: Int, last: Int) -> Int {
    var at = from
    while true {
      at = base.jsonStringStop(from: at, before: last)
      guard at < last else { return last }
      let byte = base[at]
      if byte == UInt8(ascii: "\"") { return at }
      if byte < 0x20 { return last }
      if byte == UInt8(ascii: "\\") {
        guard at + 1 < last else { return last }
        switch base[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          at += 2
        case UInt8(ascii: "u"):
          guard at + 6 < last else { return last }
          var code: UInt32 = 0
          for offset in 2..<6 {
            let digit = base[at + offset]
            let value: UInt8
            if digit &- UInt8(ascii: "0") < 10 {
              value = digit &- UInt8(ascii: "0")
            } else if (digit | 0x20) &- UInt8(ascii: "a") < 6 {
              value = (digit | 0x20) &- UInt8(ascii: "a") + 10
            } else {
              return last
            }
            code = code << 4 | UInt32(value)
          }
          guard !(0xD800...0xDFFF).contains(code) else { return last }
          at += 6
        default: return last
        }
      } else if byte >= 0x80 {
        let lead = at
        let character = UTF8Validation.character(lead: byte) { lead + $0 < last ? base[lead + $0] : nil }
        guard case .valid(let length) = character else { return last }
        at += length
      } else {
        at += 1
      }
    }
  }

  /// The end of a number in the JSON grammar (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`) that starts at
  /// `start`; `start` when the grammar does not hold.
  @inline(__always)
  private static func numberEnd(_ base: ByteView, from start: Int, last: Int) -> Int {
    var index = start
    @inline(__always) func digits() -> Int {
      let from = index
      while index < last, base[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      return index - from
    }
    if base[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    let integerDigits = digits()
    guard integerDigits > 0, integerDigits == 1 || base[integerStart] != UInt8(ascii: "0") else { return start }
    if base[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return start }
    }
    if base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E") {
      index += 1
      if base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { return start }
    }
    return index
  }

  /// The length of `true`, `false` or `null` at `start`, before `last`; 0 for anything else.
  @inline(__always)
  private static func literalLength(_ base: ByteView, from start: Int, last: Int) -> Int {
    func matches(_ word: StaticString) -> Bool {
      let letters = ByteView(word)
      guard last - start >= letters.count else { return false }
      for offset in 0..<letters.count where base[start + offset] != letters[offset] { return false }
      return true
    }
    switch base[start] {
    case UInt8(ascii: "t"): return matches("true") ? 4 : 0
    case UInt8(ascii: "f"): return matches("false") ? 5 : 0
    case UInt8(ascii: "n"): return matches("null") ? 4 : 0
    default: return 0
    }
  }
}
