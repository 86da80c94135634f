/// Reads a JSON Lines (NDJSON) file line by line, streaming: one record per line, each parsed on its own, so a
/// bad line is that record's error and the rest of the file is still read.
public final class JSONLinesReader {
  /// One line of the file.
  public struct Line: Sendable {
    /// The line's bytes without its line end; the record when it is not blank.
    public let record: JSONRecordText
    /// `"\n"`, `"\r\n"`, or empty for a last line without one.
    public let terminator: [UInt8]

    /// Whether the line holds only spaces, tabs or carriage returns: copied, not a record.
    public var isBlank: Bool { record.bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
  }

  /// Whether the file starts with a UTF-8 byte order mark (not part of the first line).
  public private(set) var hasByteOrderMark = false
  private let stream: JSONByteStream
  private var started = false

  /// Opens a file.
  ///
  /// - Parameters:
  ///   - limits: how long a line may be (a longer one is a ``JSONParseError``).
  ///   - firstLine: the number of the file's first line (`--first-line`: a chunk of a bigger file).
  /// - Throws: ``JSONParseError`` when it cannot be opened.
  public init(path: String, limits: RecordLimits = .standard, firstLine: Int = 1) throws(JSONParseError) {
    stream = try JSONByteStream(path: path, limits: limits, line: firstLine)
  }

  /// The next line, or `nil` at the end of the file.
  ///
  /// - Throws: ``JSONParseError`` when the file cannot be read.
  public func next() throws(JSONParseError) -> Line? {
    if !started {
      started = true
      if try stream.peek() == 0xEF {
        stream.captured = []
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] where try stream.peek() == expected { stream.advance() }
        hasByteOrderMark = stream.captured == [0xEF, 0xBB, 0xBF]
        // Not a byte order mark after all: the bytes taken belong to the first line.
        let taken = hasByteOrderMark ? [] : (stream.captured ?? [])
        return try readLine(startingWith: taken, line: stream.line, column: 1)
      }
    }
    guard try stream.peek() != nil else { return nil }
    return try readLine(startingWith: [], line: stream.line, column: stream.column)
  }

  private func readLine(startingWith taken: [UInt8], line: Int, column: Int) throws(JSONParseError) -> Line? {
    stream.captured = taken
    while let byte = try stream.peek(), byte != 0x0A { stream.advance() }
    var bytes = stream.captured ?? []
    stream.captured = nil
    try stream.checkRecordSize(bytes.count, line: line, column: column)
    stream.passThrough.removeAll()
    var terminator: [UInt8] = []
    if try stream.take() != nil {
      terminator = [0x0A]
      if bytes.last == 0x0D {
        bytes.removeLast()
        terminator = [0x0D, 0x0A]
      }
    } else if bytes.isEmpty {
      return nil
    }
    return Line(record: JSONRecordText(bytes: bytes, line: line, column: column), terminator: terminator)
  }
}
