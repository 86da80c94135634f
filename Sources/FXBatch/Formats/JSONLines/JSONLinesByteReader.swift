#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the lines of a JSON Lines file (or of a part of one) in place, in big blocks: the fast paths'
/// reader, which hands each line to a closure as bytes in its buffer, with no per-line allocation.
///
/// Lines end at LF, as ``JSONLinesReader`` splits them (a CR before the LF belongs to the line end); a last
/// line without a line end is a line unless it is empty. A UTF-8 byte order mark at the start of the file is not
/// part of the first line. Memory holds one block and the longest line: it does not grow with the file.
final class JSONLinesByteReader {
  /// One line in the reader's buffer.
  struct Line {
    /// The line's bytes with its line end (`\n`, `\r\n`, or none for a last line without one).
    let bytes: ByteView
    /// How many of ``bytes`` are the line's content (without the line end).
    let length: Int
    /// The 1-based line number.
    let number: Int

    /// The content: the record when the line is not blank.
    var content: ByteView { bytes.slice(0..<length) }

    /// Whether the content holds only spaces, tabs or carriage returns (``JSONLinesReader/Line/isBlank``).
    var isBlank: Bool {
      for index in 0..<length where bytes[index] != 0x20 && bytes[index] != 0x09 && bytes[index] != 0x0D { return false }
      return true
    }
  }

  /// Whether the file starts with a UTF-8 byte order mark (read only when the range starts at 0).
  private(set) var hasByteOrderMark = false
  private let descriptor: Int32
  private let buffer: ReadBuffer
  private var start = 0
  private var end = 0
  private var atEndOfFile = false
  /// The file offset of `buffer[0]`.
  private var bufferOffset: Int
  /// The file offset at which reading stops.
  private var limit: Int?
  private var line: Int
  /// How big a line may be (``RecordLimits``).
  let limits: RecordLimits
  private static let blockSize = 1 << 20

  /// Opens a file, or a part of it that starts at a line start.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - range: file offsets from the first byte of a line to the first byte after the part; `nil`: the whole
  ///     file, whose byte order mark is then skipped.
  ///   - line: the 1-based line number of the first line.
  ///   - limits: how big a line may be: a longer one is a ``JSONParseError`` (``withNextLine(_:)``).
  /// - Throws: ``JSONParseError`` (at 1:1) when the file cannot be opened or read.
  init(path: String, range: Range<Int>? = nil, line: Int = 1, limits: RecordLimits = .standard) throws(JSONParseError) {
    self.limits = limits
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Self.error() }
    buffer = ReadBuffer(capacity: Self.blockSize, padding: 0)
    bufferOffset = range?.lowerBound ?? 0
    limit = range?.upperBound
    self.line = line
    if let range, lseek(descriptor, off_t(range.lowerBound), SEEK_SET) != off_t(range.lowerBound) {
      close(descriptor)
      throw Self.error()
    }
    if range == nil || range?.lowerBound == 0 {
      while end < 3, !atEndOfFile { try fill() }
      if end >= 3, buffer.view(count: 3).hasBytes([0xEF, 0xBB, 0xBF], at: 0) {
        hasByteOrderMark = true
        start = 3
      }
    }
  }

  deinit { close(descriptor) }

  /// The file offset of the next line.
  var nextOffset: Int { bufferOffset + start }
  /// The 1-based number of the next line.
  var nextLine: Int { line }

  /// Stops reading at a line start at or after the next line (the start of a part another reader takes).
  func stop(at offset: Int) {
    limit = offset
    if bufferOffset + end >= offset {
      end = max(start, offset - bufferOffset)
      atEndOfFile = true
    }
  }

  /// Calls `body` with the next line.
  ///
  /// - Returns: what `body` returned; `nil` at the end of the file (or part).
  /// - Throws: ``JSONParseError`` when the file cannot be read or the line is longer than
  ///   ``RecordLimits/maxRecordBytes``, or what `body` throws.
  @inline(__always)
  func withNextLine<Result>(_ body: (Line) throws -> Result) throws -> Result? {
    var scanFrom = start
    while true {
      let bytes = buffer.view(count: end)
      if let feed = bytes.firstIndex(of: 0x0A, from: scanFrom) {
        let lineStart = start
        start = feed + 1
        let number = line
        line += 1
        let length = feed > lineStart && bytes[feed - 1] == 0x0D ? feed - 1 - lineStart : feed - lineStart
        if length > limits.maxRecordBytes { throw tooLong(line: number) }
        return try body(Line(bytes: bytes.slice(lineStart..<feed + 1), length: length, number: number))
      }
      if atEndOfFile {
        guard start < end else { return nil }
        let lineStart = start
        start = end
        let number = line
        line += 1
        return try body(Line(bytes: bytes.slice(lineStart..<end), length: end - lineStart, number: number))
      }
      scanFrom = end - start
      // A line longer than a record may be is refused before more of it is read.
      if end - start > limits.maxRecordBytes { throw tooLong(line: line) }
      try fill()
    }
  }

  /// Moves unread bytes to the front of the buffer and reads more; grows the buffer when a line fills it.
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
    if count == 0 { atEndOfFile = true }
    end += count
  }

  /// The error of a line longer than ``RecordLimits/maxRecordBytes``.
  private func tooLong(line: Int) -> JSONParseError {
    JSONParseError(
      message: limits.recordTooLargeMessage + "; " + RecordLimits.hint, offset: nextOffset, line: line, column: 1)
  }

  private static func error() -> JSONParseError {
    JSONParseError(message: "cannot read the file: \(String(cString: strerror(errno)))", offset: 0, line: 1, column: 1)
  }
}
