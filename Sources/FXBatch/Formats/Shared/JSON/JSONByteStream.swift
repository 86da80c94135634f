#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a file read in chunks, one at a time, with the line and column of the next one.
///
/// Every byte taken goes either to ``captured`` (while a record is being read) or to ``passThrough`` (the
/// bytes between records, which the annotated copy repeats unchanged); the reader of the stream drains both.
/// Memory holds one chunk and what has not been drained: it does not grow with the file.
final class JSONByteStream {
  /// 1-based line of the next byte (lines end with LF).
  private(set) var line = 1
  /// 1-based column, in bytes, of the next byte.
  private(set) var column = 1
  /// 0-based offset of the next byte in the file.
  private(set) var offset = 0
  /// Bytes taken while capturing, `nil` when not capturing.
  var captured: [UInt8]?
  /// Bytes taken while not capturing, in order, until drained.
  var passThrough: [UInt8] = []

  private let descriptor: Int32
  private var buffer: [UInt8]
  private var start = 0
  private var end = 0
  private var atEndOfFile = false
  private static let chunkSize = 1 << 16
  /// How big a record (``captured``) may be, and the bytes between records (``passThrough``).
  private let limits: RecordLimits

  /// Opens a file.
  ///
  /// - Parameters:
  ///   - limits: how many bytes may be captured or passed through before they are drained: more is a
  ///     ``JSONParseError`` (``peek()``).
  ///   - line: the number of the file's first line.
  /// - Throws: ``JSONParseError`` (at 1:1) when the file cannot be opened.
  init(path: String, limits: RecordLimits, line: Int = 1) throws(JSONParseError) {
    self.limits = limits
    self.line = line
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw JSONParseError(message: "cannot read the file: \(String(cString: strerror(errno)))", offset: 0, line: 1, column: 1)
    }
    buffer = [UInt8](repeating: 0, count: Self.chunkSize)
  }

  deinit { close(descriptor) }

  /// The next byte without taking it; `nil` at the end of the file.
  ///
  /// - Throws: ``JSONParseError`` when the file cannot be read, or when more than
  ///   ``RecordLimits/maxRecordBytes`` are captured or waiting to be passed through (checked once per chunk).
  func peek() throws(JSONParseError) -> UInt8? {
    if start == end {
      if atEndOfFile { return nil }
      if let captured, captured.count > limits.maxRecordBytes {
        throw error(limits.recordTooLargeMessage + "; " + RecordLimits.hint)
      }
      if passThrough.count > limits.maxRecordBytes {
        throw error(
          "the text between records is longer than \(RecordLimits.text(ofBytes: limits.maxRecordBytes)) "
            + "(--max-record-size); the file is refused so that memory stays bounded; " + RecordLimits.hint)
      }
      try fill()
      if start == end { return nil }
    }
    return buffer[start]
  }

  /// Takes the next byte (call after ``peek()`` returned one).
  func advance() {
    let byte = buffer[start]
    start += 1
    offset += 1
    if captured != nil { captured!.append(byte) } else { passThrough.append(byte) }
    if byte == 0x0A {
      line += 1
      column = 1
    } else {
      column += 1
    }
  }

  /// Takes the next byte and returns it; `nil` at the end of the file.
  func take() throws(JSONParseError) -> UInt8? {
    guard let byte = try peek() else { return nil }
    advance()
    return byte
  }

  /// Continues at a later place in the file (after bytes another reader took); nothing may be left to drain.
  ///
  /// - Throws: ``JSONParseError`` when the file cannot be read there.
  func seek(to position: JSONArrayExtent.Position) throws(JSONParseError) {
    guard lseek(descriptor, off_t(position.offset), SEEK_SET) == off_t(position.offset) else {
      throw error("cannot read the file: \(String(cString: strerror(errno)))")
    }
    (start, end, atEndOfFile) = (0, 0, false)
    (offset, line, column) = (position.offset, position.line, position.column)
  }

  /// Refuses a record of `count` bytes (just captured) when it is longer than ``RecordLimits/maxRecordBytes``
  /// (``peek()`` checks only once per chunk).
  ///
  /// - Throws: ``JSONParseError`` at `line`, `column` (the record's start).
  func checkRecordSize(_ count: Int, line: Int, column: Int) throws(JSONParseError) {
    guard count > limits.maxRecordBytes else { return }
    throw JSONParseError(
      message: limits.recordTooLargeMessage + "; " + RecordLimits.hint, offset: offset, line: line, column: column)
  }

  /// An error at the next byte.
  func error(_ message: String) -> JSONParseError {
    JSONParseError(message: message, offset: offset, line: line, column: column)
  }

  private func fill() throws(JSONParseError) {
    start = 0
    end = 0
    let count = FileBytes.read(from: descriptor, into: &buffer)
    guard count >= 0 else { throw error("cannot read the file: \(String(cString: strerror(errno)))") }
    if count == 0 { atEndOfFile = true }
    end = count
  }
}
