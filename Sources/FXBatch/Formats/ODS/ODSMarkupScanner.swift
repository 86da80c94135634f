/// Splits an XML part into pieces as it inflates: runs of character data, and markup (a tag, a comment, a
/// CDATA section, a processing instruction) whole, found by ``XLSXSheetRewriter/tagEnd(in:from:)``. Memory holds
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
        } else if let end = XLSXSheetRewriter.tagEnd(in: buffer, from: start) {
          return take(upTo: end)
        }
      }
      guard try more() else { return start < buffer.count ? take(upTo: buffer.count) : nil }
    }
  }

  /// Reads the rest of the element whose start tag (named `name`) was the last piece, up to its end tag, into
  /// `pieces`.
  mutating func readElement(into pieces: inout [[UInt8]], name: String) throws(FileError) {
    var depth = 1
    while depth > 0, let piece = try next() {
      pieces.append(piece)
      guard piece.count > 2, piece[0] == UInt8(ascii: "<"), XLSXSheetRewriter.name(of: piece) == name else { continue }
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
      throw XLSXBook.fileError(error.description, readPath: stream.package.path, displayPath: stream.package.path)
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
