/// Splits an XML part into pieces as it inflates: runs of character data, and markup (a tag, a comment, a
/// CDATA section, a processing instruction) whole, found by ``XMLMarkup/end(in:from:)``. Memory holds
/// one chunk and one piece.
struct ODSMarkupScanner {
  private let stream: ZipEntryStream
  private var buffer: [UInt8] = []
  private var start = 0
  private var ended = false
  private var chunk = [UInt8](repeating: 0, count: 1 << 16)

  init(stream: ZipEntryStream) { self.stream = stream }

  /// The next piece, or `nil` at the end of the part.
  ///
  /// - Throws: ``FileError`` when the entry's stream refuses its bytes.
  mutating func next() throws(FileError) -> [UInt8]? {
    while true {
      if start < buffer.count {
        if buffer[start] != UInt8(ascii: "<") {
          if let open = buffer[start...].firstIndex(of: UInt8(ascii: "<")) { return take(upTo: open) }
        } else if let end = XMLMarkup.end(in: buffer, from: start) {
          return take(upTo: end)
        }
      }
      guard try more() else { return start < buffer.count ? take(upTo: buffer.count) : nil }
    }
  }

  /// The pieces of a whole element's bytes (a row's): runs of character data, and markup whole.
  static func pieces(of bytes: [UInt8]) -> [[UInt8]] {
    var pieces: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
      let end: Int
      if bytes[start] == UInt8(ascii: "<") {
        end = XMLMarkup.end(in: bytes, from: start) ?? bytes.count
      } else {
        end = bytes[start...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.count
      }
      pieces.append(Array(bytes[start..<end]))
      start = end
    }
    return pieces
  }

  /// The elements the rewriter looks for, by their names with ODF's prefixes.
  enum Element: CaseIterable {
    case table, tableRow, tableRowGroup, tableHeaderRows, tableRows, tableColumn, tableCell, coveredTableCell
    case spreadsheet, automaticStyles, body, style

    var name: [UInt8] {
      switch self {
      case .table: Array("table:table".utf8)
      case .tableRow: Array("table:table-row".utf8)
      case .tableRowGroup: Array("table:table-row-group".utf8)
      case .tableHeaderRows: Array("table:table-header-rows".utf8)
      case .tableRows: Array("table:table-rows".utf8)
      case .tableColumn: Array("table:table-column".utf8)
      case .tableCell: Array("table:table-cell".utf8)
      case .coveredTableCell: Array("table:covered-table-cell".utf8)
      case .spreadsheet: Array("office:spreadsheet".utf8)
      case .automaticStyles: Array("office:automatic-styles".utf8)
      case .body: Array("office:body".utf8)
      case .style: Array("style:style".utf8)
      }
    }
  }

  private static let elements = Element.allCases.map { ($0, $0.name) }

  /// Which of the rewriter's elements a start or end tag is of; `nil` for any other markup or text. (Compares
  /// bytes: this runs on every tag of the part.)
  static func element(of piece: [UInt8]) -> Element? {
    guard piece.count > 2, piece[0] == UInt8(ascii: "<") else { return nil }
    let start = piece[1] == UInt8(ascii: "/") ? 2 : 1
    var end = start
    scan: while end < piece.count {
      switch piece[end] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "/"), UInt8(ascii: ">"):
        break scan
      default: end += 1
      }
    }
    let name = piece[start..<end]
    return elements.first { $0.1.count == name.count && $0.1.elementsEqual(name) }?.0
  }

  /// The range of an attribute's value (between its quotes) in a start tag, by the attribute's qualified name.
  /// (Compares bytes: this runs on every cell of the converted table.)
  static func valueRange(of name: String, in tag: [UInt8]) -> Range<Int>? {
    func isSpace(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
    // Each attribute is the text from the end of the one before (or of the element's name) to its quoted value.
    var nameStart = tag.firstIndex(where: isSpace) ?? tag.count
    var equals: Int? = nil
    var index = nameStart
    while index < tag.count {
      let byte = tag[index]
      if byte == UInt8(ascii: "=") {
        equals = index
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        guard let close = tag[(index + 1)...].firstIndex(of: byte) else { return nil }
        if let equals {
          var attribute = tag[nameStart..<equals]
          while let first = attribute.first, isSpace(first) { attribute.removeFirst() }
          while let last = attribute.last, isSpace(last) { attribute.removeLast() }
          if attribute.elementsEqual(name.utf8) { return (index + 1)..<close }
        }
        (index, nameStart, equals) = (close, close + 1, nil)
      }
      index += 1
    }
    return nil
  }

  /// An attribute's value in a start tag, as written.
  static func value(of name: String, in tag: [UInt8]) -> String? {
    valueRange(of: name, in: tag).map { String(decoding: tag[$0], as: UTF8.self) }
  }

  /// Reads the rest of the element whose start tag (of `element`) was the last piece, up to its end tag, into
  /// `pieces`.
  mutating func readElement(into pieces: inout [[UInt8]], element: Element) throws(FileError) {
    var depth = 1
    while depth > 0, let piece = try next() {
      pieces.append(piece)
      guard Self.element(of: piece) == element else { continue }
      if piece[1] == UInt8(ascii: "/") {
        depth -= 1
      } else if piece[piece.count - 2] != UInt8(ascii: "/") {
        depth += 1
      }
    }
  }

  private mutating func take(upTo end: Int) -> [UInt8] {
    defer { start = end }
    return Array(buffer[start..<end])
  }

  /// Reads more of the entry; `false` at its end.
  private mutating func more() throws(FileError) -> Bool {
    guard !ended else { return false }
    let got: Int
    do { got = try stream.read(into: &chunk) } catch {
      throw FileError.package(error.description, readPath: stream.package.path, displayPath: stream.package.path)
    }
    guard got > 0 else {
      ended = true
      return false
    }
    buffer.removeSubrange(..<start)
    start = 0
    buffer += chunk[..<got]
    return true
  }
}
