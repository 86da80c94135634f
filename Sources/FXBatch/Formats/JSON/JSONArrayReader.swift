#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the elements of a JSON document's records array (or of a part of it) in place, in big blocks: the
/// byte-level path's reader of JSON documents, which hands each element, and the bytes before it, to a closure
/// as bytes in its buffer, with no per-record allocation.
///
/// Every byte is checked as ``JSONDocumentWalker`` checks it (``JSONValueScanner``); bytes it cannot follow
/// throw ``Unfollowable``, and the caller reads the document through the general path, whose errors it then
/// reports. Memory holds one block and the longest element: it does not grow with the number of records.
final class JSONArrayReader {
  /// The array holds something this reader does not follow (malformed, or nested too deep).
  struct Unfollowable: Error {
    /// The file offset where reading stopped.
    let offset: Int
  }

  /// What the reader hands out: an element and the bytes before it, or at the end the bytes left.
  struct Piece {
    /// The bytes since the previous piece: whitespace and the comma before the element; at the end of the
    /// array, everything up to and including its `]`; at the end of a part, the bytes up to the next part.
    let leading: ByteView
    /// The element as written; `nil` at the end.
    let element: ByteView?
    /// Where the element starts (at the end: where the reader stopped).
    let position: JSONArrayExtent.Position
  }

  /// Where the reader starts.
  enum Start {
    /// After the array's `[`.
    case afterOpening
    /// At the first byte of an element (a part of pass 2 after the first).
    case atElement
  }

  private enum State {
    case first, element, afterElement, done
  }

  private let descriptor: Int32
  private let buffer: ReadBuffer
  private var start = 0
  private var end = 0
  private var atEndOfData = false
  private var state: State
  /// The file offset of `buffer[0]`.
  private var bufferOffset: Int
  /// The file offset at which a part stops (the first byte of the next part's first element).
  private let limit: Int?
  /// The line of ``start`` and the file offset of its line's first byte.
  private var line: Int
  private var lineStart: Int
  /// How big an element may be: a longer one is ``Unfollowable`` (the general path then refuses it).
  private let limits: RecordLimits
  private static let blockSize = 1 << 20

  /// Opens a file at a place inside its records array.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - position: where to start.
  ///   - start: what is at `position`.
  ///   - limit: for a part that is not the last, the offset of the next part's first element.
  ///   - limits: how big an element may be.
  /// - Throws: ``JSONParseError`` (at 1:1) when the file cannot be opened or read.
  init(
    path: String, at position: JSONArrayExtent.Position, start: Start, limit: Int? = nil, limits: RecordLimits = .standard
  ) throws(JSONParseError) {
    self.limits = limits
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Self.error() }
    buffer = ReadBuffer(capacity: Self.blockSize, padding: 0)
    bufferOffset = position.offset
    self.limit = limit
    line = position.line
    lineStart = position.offset - (position.column - 1)
    state = start == .afterOpening ? .first : .element
    if lseek(descriptor, off_t(position.offset), SEEK_SET) != off_t(position.offset) {
      close(descriptor)
      throw Self.error()
    }
  }

  deinit { close(descriptor) }

  /// The place after the last piece handed out.
  var position: JSONArrayExtent.Position { place(bufferOffset + start) }

  private func place(_ offset: Int) -> JSONArrayExtent.Position {
    JSONArrayExtent.Position(offset: offset, line: line, column: offset - lineStart + 1)
  }

  /// Calls `body` with the next piece.
  ///
  /// - Returns: what `body` returned; `nil` after the last piece (the one without an element).
  /// - Throws: ``Unfollowable``, ``JSONParseError`` when the file cannot be read, or what `body` throws.
  @inline(__always)
  func withNextPiece<Result>(_ body: (Piece) throws -> Result) throws -> Result? {
    guard state != .done else { return nil }
    while true {
      let found: (leading: Int, element: Range<Int>?, scanner: JSONValueScanner, elementLine: (Int, Int?))
      do {
        found = try scanPiece(in: buffer.view(count: end))
      } catch .needsMore where !atEndOfData {
        // An element longer than a record may be is not read further: the general path reports it.
        if end - start > limits.maxRecordBytes { throw Unfollowable(offset: bufferOffset + start) }
        try fill()
        continue
      } catch {
        throw Unfollowable(offset: bufferOffset + start)
      }
      if let element = found.element, element.count > limits.maxRecordBytes {
        throw Unfollowable(offset: bufferOffset + element.lowerBound)
      }
      let pieceStart = start
      // Line feeds are only in whitespace: before the element, inside it, or (at the end) before the `]`.
      let (feedsBefore, lastFeedBefore) = found.elementLine
      let elementPosition = JSONArrayExtent.Position(
        offset: bufferOffset + (found.element?.lowerBound ?? found.leading), line: line + feedsBefore,
        column: bufferOffset + (found.element?.lowerBound ?? found.leading)
          - (lastFeedBefore.map { bufferOffset + $0 + 1 } ?? lineStart) + 1)
      line += found.scanner.lineFeeds
      if let lastFeed = found.scanner.lastLineFeed { lineStart = bufferOffset + lastFeed + 1 }
      if let element = found.element {
        start = element.upperBound
        state = .afterElement
      } else {
        start = found.leading
        state = .done
      }
      let bytes = buffer.view(count: end)
      let leadingEnd = found.element?.lowerBound ?? found.leading
      return try body(
        Piece(
          leading: bytes.slice(pieceStart..<leadingEnd), element: found.element.map { bytes.slice($0) },
          position: elementPosition))
    }
  }

  /// Finds the next piece from ``start``: where its leading bytes end, the element's range (`nil` at the end),
  /// the scanner (with the line feeds it passed) and the line feeds before the element (count, last index).
  @inline(__always)
  private func scanPiece(in bytes: ByteView) throws(JSONValueScanner.Failure) -> (
    leading: Int, element: Range<Int>?, scanner: JSONValueScanner, elementLine: (Int, Int?)
  ) {
    var scanner = JSONValueScanner(bytes)
    var index = start
    switch state {
    case .done: throw .invalid
    case .element: break
    case .first:
      index = scanner.skipWhitespace(from: index)
      if try scanner.byte(index) == UInt8(ascii: "]") {
        return (index + 1, nil, scanner, (scanner.lineFeeds, scanner.lastLineFeed))
      }
    case .afterElement:
      index = scanner.skipWhitespace(from: index)
      let separator = try scanner.byte(index)
      if separator == UInt8(ascii: "]") {
        guard limit == nil else { throw .invalid }  // a part before the last never holds the array's end
        return (index + 1, nil, scanner, (scanner.lineFeeds, scanner.lastLineFeed))
      }
      guard separator == UInt8(ascii: ",") else { throw .invalid }
      index = scanner.skipWhitespace(from: index + 1)
      if let limit, index == bytes.count, atEndOfData, bufferOffset + index == limit {
        return (index, nil, scanner, (scanner.lineFeeds, scanner.lastLineFeed))
      }
    }
    let elementLine = (scanner.lineFeeds, scanner.lastLineFeed)
    let elementEnd = try scanner.valueEnd(from: index)
    // A value that reaches the end of the bytes may go on (a number), unless nothing follows.
    guard elementEnd < bytes.count || atEndOfData else { throw .needsMore }
    return (elementEnd, index..<elementEnd, scanner, elementLine)
  }

  /// Moves unread bytes to the front of the buffer and reads more; grows the buffer when a piece fills it.
  private func fill() throws(JSONParseError) {
    if start > 0 {
      buffer.moveToFront(start..<end)
      bufferOffset += start
      end -= start
      start = 0
    }
    if end == buffer.capacity { buffer.grow(keeping: end) }
    var wanted = buffer.capacity - end
    if let limit { wanted = min(wanted, max(0, limit - (bufferOffset + end))) }
    let count = wanted > 0 ? buffer.read(from: descriptor, into: end, count: wanted) : 0
    guard count >= 0 else { throw Self.error() }
    if count == 0 { atEndOfData = true }
    end += count
  }

  private static func error() -> JSONParseError {
    JSONParseError(message: "cannot read the file: \(String(cString: strerror(errno)))", offset: 0, line: 1, column: 1)
  }
}
