/// Where and how members are appended to a JSON object as written, so that the result keeps the object's
/// own bytes and looks like it: the new members go after the last member's value (before the whitespace that
/// precedes `}`), separated and spaced like the object's own members.
struct JSONObjectLayout {
  /// The index in the object's bytes after the last member's value (after `{` for an empty object).
  let insertion: Int
  /// Whether the object has no members.
  let isEmpty: Bool
  /// The whitespace before each appended member's name (after its comma): as after the object's first comma,
  /// else as before its first member.
  let separator: [UInt8]
  /// The whitespace before and after the `:` of the first member.
  let beforeColon: [UInt8]
  let afterColon: [UInt8]

  /// The layout of an object; `nil` when the bytes are not one object (between optional whitespace).
  init?(of bytes: [UInt8]) {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    guard let open = bytes.firstIndex(where: { !isSpace($0) }), bytes[open] == UInt8(ascii: "{"),
      let close = bytes.lastIndex(where: { !isSpace($0) }), close > open, bytes[close] == UInt8(ascii: "}"),
      let last = bytes[..<close].lastIndex(where: { !isSpace($0) })
    else { return nil }
    insertion = last + 1
    isEmpty = last == open
    guard !isEmpty else {
      (separator, beforeColon, afterColon) = ([], [], [])
      return
    }
    var index = open + 1
    func spaces() -> [UInt8] {
      let from = index
      while index < close, isSpace(bytes[index]) { index += 1 }
      return Array(bytes[from..<index])
    }
    let leading = spaces()
    index = Self.endOfString(bytes, from: index)
    beforeColon = spaces()
    index += 1  // ':'
    afterColon = spaces()
    // The first member's value ends at a comma outside strings and nested values, if there is another member.
    var depth = 0
    while index < close {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index = Self.endOfString(bytes, from: index)
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ",") where depth == 0:
        index += 1
        separator = spaces()
        return
      default: break
      }
      index += 1
    }
    separator = leading
  }

  /// The index after the string that starts (with its quote) at `start`.
  private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    return index
  }
}
