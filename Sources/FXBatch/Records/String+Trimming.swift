extension Substring {
  /// The text without leading and trailing whitespace: Unicode `White_Space` characters, which include
  /// spaces, tabs, line ends, U+00A0 no-break space and U+202F narrow no-break space.
  ///
  /// Much cheaper than Foundation's `trimmingCharacters(in:)` in the per-record path: a field without
  /// surrounding whitespace (the usual case) is returned after looking at two bytes.
  var trimmingWhitespace: String {
    if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 {
      return String(self)
    }
    var start = startIndex
    var end = endIndex
    while start < end, unicodeScalars[start].properties.isWhitespace { start = unicodeScalars.index(after: start) }
    while start < end {
      let before = unicodeScalars.index(before: end)
      guard unicodeScalars[before].properties.isWhitespace else { break }
      end = before
    }
    return String(self[start..<end])
  }
}

extension String {
  /// See ``Substring/trimmingWhitespace``.
  var trimmingWhitespace: String { self[...].trimmingWhitespace }
}
