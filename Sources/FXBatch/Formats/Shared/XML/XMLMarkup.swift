/// Where a piece of XML markup ends, found from its bytes: what the byte rewriters of sheets and tables
/// (`.xlsx`, `.ods`) pass over unchanged.
enum XMLMarkup {
  /// The end (one past `>`) of the markup starting with `<` at `start`, or `nil` when the buffer ends first.
  static func end(in buffer: [UInt8], from start: Int) -> Int? {
    func ending(_ terminator: String) -> Int? {
      let bytes = Array(terminator.utf8)
      return buffer[(start + 2)...].firstRange(of: bytes)?.upperBound
    }
    guard start + 1 < buffer.count else { return nil }
    if buffer[start + 1] == UInt8(ascii: "!") {
      guard start + 9 <= buffer.count else { return nil }
      if buffer[start..<start + 4].elementsEqual("<!--".utf8) { return ending("-->") }
      if buffer[start..<start + 9].elementsEqual("<![CDATA[".utf8) { return ending("]]>") }
    }
    if buffer[start + 1] == UInt8(ascii: "?") { return ending("?>") }
    var quote: UInt8? = nil
    for index in (start + 1)..<buffer.count {
      let byte = buffer[index]
      if let open = quote {
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: ">") {
        return index + 1
      }
    }
    return nil
  }
}
