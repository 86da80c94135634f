/// Copies a worksheet part's XML as it inflates, byte for byte, except where cells are appended: before each
/// row's end tag it writes the cells its caller gives for that row, a row's `spans` and the sheet's
/// `<dimension ref>` are widened to the new last column, and nothing else changes. Memory holds one chunk and
/// one tag.
///
/// Tags are found by a small scanner that knows quoted attribute values, comments, CDATA sections and
/// processing instructions (libxml2 has already parsed the part in pass 1, so the part is well-formed XML).
struct XLSXSheetRewriter {
  /// The last column (0-based) the appended cells reach.
  let lastColumn: Int

  /// Rewrites the part.
  ///
  /// - Parameters:
  ///   - stream: the sheet's entry, unread.
  ///   - write: where the bytes go.
  ///   - cells: the markup of the cells to append to a row, by its number and the main namespace's prefix of
  ///     its tag (`""`, or `x:`); empty for none.
  func rewrite(
    _ stream: ZipEntryStream, write: ([UInt8]) throws(FileError) -> Void,
    cells: (_ row: Int, _ prefix: String) throws(FileError) -> [UInt8]
  ) throws(FileError) {
    var buffer: [UInt8] = []
    var start = 0
    var ended = false
    var row = 0
    var prefix = ""
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    /// Reads more of the entry into `buffer`; `false` at its end.
    func more() throws(FileError) -> Bool {
      guard !ended else { return false }
      let got: Int
      do { got = try stream.read(into: &chunk) } catch {
        throw XLSXBook.fileError(error.description, readPath: stream.package.path, displayPath: stream.package.path)
      }
      if got == 0 {
        ended = true
        return false
      }
      if start > 0 {
        buffer.removeSubrange(..<start)
        start = 0
      }
      buffer += chunk[..<got]
      return true
    }
    while true {
      guard let open = buffer[start...].firstIndex(of: UInt8(ascii: "<")) else {
        try write(Array(buffer[start...]))
        start = buffer.count
        if try more() { continue }
        return
      }
      if open > start {
        try write(Array(buffer[start..<open]))
        start = open
      }
      var end = Self.tagEnd(in: buffer, from: start)
      while end == nil, try more() { end = Self.tagEnd(in: buffer, from: start) }
      guard let end else {
        try write(Array(buffer[start...]))
        return
      }
      var tag = Array(buffer[start..<end])
      start = end
      let name = Self.name(of: tag)
      let local = name.split(separator: ":").last.map(String.init) ?? name
      let tagPrefix = name.contains(":") ? String(name.prefix { $0 != ":" }) + ":" : ""
      switch local {
      case "row" where tag[1] != UInt8(ascii: "/"):
        row = Self.attribute("r", of: tag).flatMap { Int($0) } ?? row + 1
        prefix = tagPrefix
        if let spans = Self.attributeRange("spans", of: tag) {
          let text = String(decoding: tag[spans], as: UTF8.self)
          let first = text.split(separator: ":").first.map(String.init) ?? "1"
          tag.replaceSubrange(spans, with: Array("\(first):\(lastColumn + 1)".utf8))
        }
        if tag[tag.count - 2] == UInt8(ascii: "/") {
          let added = try cells(row, prefix)
          if !added.isEmpty {
            tag.replaceSubrange(tag.count - 2..<tag.count, with: Array(">".utf8))
            tag += added + Array("</\(tagPrefix)row>".utf8)
          }
        }
      case "row":
        try write(try cells(row, prefix))
      case "dimension" where tag[1] != UInt8(ascii: "/"):
        if let range = Self.attributeRange("ref", of: tag) {
          let widened = Self.widened(String(decoding: tag[range], as: UTF8.self), to: lastColumn)
          tag.replaceSubrange(range, with: Array(widened.utf8))
        }
      default: break
      }
      try write(tag)
    }
  }

  /// A `ref` range (`A1:D5`, `A1`) reaching at least to column `last`.
  static func widened(_ ref: String, to last: Int) -> String {
    let parts = ref.split(separator: ":").map(String.init)
    guard let first = parts.first.flatMap(XLSXCellReference.init), let end = (parts.last).flatMap(XLSXCellReference.init)
    else { return ref }
    let corner = XLSXCellReference(column: max(end.column, last), row: end.row) ?? end
    return "\(first):\(corner)"
  }

  /// The end (one past `>`) of the markup starting with `<` at `start`, or `nil` when the buffer ends first.
  static func tagEnd(in buffer: [UInt8], from start: Int) -> Int? {
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

  /// The element name of a tag (`row`, `x:row`; without the `/` of an end tag); "" for other markup.
  static func name(of tag: [UInt8]) -> String {
    var bytes = tag.dropFirst()
    if bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
    let name = bytes.prefix { !" \t\r\n/>!?".utf8.contains($0) }
    return String(decoding: name, as: UTF8.self)
  }

  /// The range of an attribute's value (between its quotes) in a start tag.
  static func attributeRange(_ attribute: String, of tag: [UInt8]) -> Range<Int>? {
    var index = tag.firstIndex { " \t\r\n".utf8.contains($0) } ?? tag.count
    let wanted = Array(attribute.utf8)
    while index < tag.count {
      while index < tag.count, " \t\r\n".utf8.contains(tag[index]) { index += 1 }
      let nameStart = index
      while index < tag.count, !" \t\r\n=/>".utf8.contains(tag[index]) { index += 1 }
      let name = tag[nameStart..<index]
      while index < tag.count, " \t\r\n=".utf8.contains(tag[index]) { index += 1 }
      guard index < tag.count, tag[index] == UInt8(ascii: "\"") || tag[index] == UInt8(ascii: "'") else { return nil }
      let quote = tag[index]
      let valueStart = index + 1
      guard let valueEnd = tag[valueStart...].firstIndex(of: quote) else { return nil }
      if name.elementsEqual(wanted) { return valueStart..<valueEnd }
      index = valueEnd + 1
    }
    return nil
  }

  /// An attribute's value in a start tag, as written.
  static func attribute(_ attribute: String, of tag: [UInt8]) -> String? {
    attributeRange(attribute, of: tag).map { String(decoding: tag[$0], as: UTF8.self) }
  }

  // MARK: Cells

  /// A numeric cell, with the cell style `style` when given: `<c r="H2"><v>1.0834</v></c>`,
  /// `<c r="I2" s="7"><v>45719</v></c>`.
  static func numberCell(_ reference: XLSXCellReference, _ text: String, style: Int?, prefix: String) -> String {
    let styled = style.map { " s=\"\($0)\"" } ?? ""
    return "<\(prefix)c r=\"\(reference)\"\(styled)><\(prefix)v>\(text)</\(prefix)v></\(prefix)c>"
  }

  /// An inline string cell: `<c r="J2" t="inlineStr"><is><t>EUR</t></is></c>`.
  static func textCell(_ reference: XLSXCellReference, _ text: String, prefix: String) -> String {
    let space = text.first?.isWhitespace == true || text.last?.isWhitespace == true ? " xml:space=\"preserve\"" : ""
    return
      "<\(prefix)c r=\"\(reference)\" t=\"inlineStr\"><\(prefix)is><\(prefix)t\(space)>\(escaped(text))</\(prefix)t></\(prefix)is></\(prefix)c>"
  }

  /// Text for XML character data: `&`, `<`, `>` escaped, and `_x` written `_x005F_x` so that readers do not
  /// take it for an OOXML escape (``XLSXText``).
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      default: result.append(character)
      }
    }
    return result.replacing("_x", with: "_x005F_x")
  }
}
