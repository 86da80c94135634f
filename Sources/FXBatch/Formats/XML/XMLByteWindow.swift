#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file front to back through a window that slides forward, addressed by byte offsets from the start of
/// the file, and reads the document's code units (one byte, or two in UTF-16) at any offset still in the window.
///
/// Memory holds only what lies between the last ``release(before:)`` and the furthest offset read, so a copier
/// that releases what it has written runs in constant memory at any file size (unlike a memory map, whose
/// pages all count towards the process's resident memory once touched).
final class XMLByteWindow {
  private let descriptor: Int32
  private let form: XMLDocumentEncoding.Form
  /// The window: its first `loaded` bytes are the file's bytes `base..<base + loaded`.
  private let buffer: ReadBuffer
  private var base = 0
  private var loaded = 0
  /// Bytes before this offset may be dropped.
  private var releasedBefore = 0
  private var reachedEnd = false

  /// Opens a file.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - form: how its characters are laid out, which decides what ``unit(at:)`` reads.
  ///   - capacity: the first size of the window in bytes; it grows when a single stretch that must be kept (a
  ///     tag, a comment, the text before a record's end tag) is larger.
  /// - Throws: ``XMLInputError`` when the file cannot be opened.
  init(path: String, form: XMLDocumentEncoding.Form, capacity: Int = 1 << 20) throws(XMLInputError) {
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw XMLInputError(line: 1, column: 1, message: "cannot open the file: \(String(cString: strerror(errno)))")
    }
    self.form = form
    buffer = ReadBuffer(capacity: max(capacity, 16), padding: 0)
  }

  deinit { close(descriptor) }

  /// The bytes read and not dropped.
  private var bytes: ByteView { buffer.view(count: loaded) }

  /// The code unit at a byte offset (a multiple of the code unit width), or `nil` past the end of the file.
  ///
  /// - Throws: ``XMLInputError`` when the file cannot be read.
  @inline(__always)
  func unit(at offset: Int) throws(XMLInputError) -> UInt16? {
    let index = offset - base
    let buffer = bytes
    switch form {
    case .asciiCompatible:
      if index < loaded { return UInt16(buffer[index]) }
    case .utf16LittleEndian:
      if index + 1 < loaded { return UInt16(buffer[index]) | UInt16(buffer[index + 1]) << 8 }
    case .utf16BigEndian:
      if index + 1 < loaded { return UInt16(buffer[index]) << 8 | UInt16(buffer[index + 1]) }
    }
    guard try load(through: offset + form.codeUnitWidth) else { return nil }
    return try unit(at: offset)
  }

  /// The offset of the first code unit `unit` at or after `offset`, or `nil` when the file has none.
  ///
  /// - Throws: ``XMLInputError`` when the file cannot be read.
  func firstOffset(of unit: UInt16, from offset: Int) throws(XMLInputError) -> Int? {
    var offset = offset
    while true {
      if form == .asciiCompatible, offset >= base, offset < base + loaded {
        if let found = bytes.firstIndex(of: UInt8(truncatingIfNeeded: unit), from: offset - base) { return base + found }
        offset = base + loaded
      }
      guard let next = try self.unit(at: offset) else { return nil }
      if next == unit { return offset }
      offset += form.codeUnitWidth
    }
  }

  /// Hands the bytes `range` (read already, not released) to `body`.
  func withBytes<Result>(_ range: Range<Int>, _ body: (ByteView) throws -> Result) rethrows -> Result {
    precondition(range.lowerBound >= base && range.upperBound <= base + loaded, "bytes outside the window")
    return try body(bytes.slice((range.lowerBound - base)..<(range.upperBound - base)))
  }

  /// Hands the bytes from `offset` to the end of the file to `body`, a window at a time, releasing them.
  func drain(from offset: Int, _ body: (ByteView) throws -> Void) throws {
    var offset = offset
    while true {
      if offset < base + loaded {
        try withBytes(offset..<(base + loaded), body)
        offset = base + loaded
        release(before: offset)
      }
      guard try load(through: offset + 1) else { return }
    }
  }

  /// Lets the window drop the bytes before `offset`: they are never asked for again.
  func release(before offset: Int) { releasedBefore = max(releasedBefore, offset) }

  /// Reads the file until the window holds the bytes before `end`.
  ///
  /// - Returns: `false` when the file ends first.
  private func load(through end: Int) throws(XMLInputError) -> Bool {
    while base + loaded < end {
      if reachedEnd { return false }
      if loaded == buffer.capacity {
        let keep = max(0, min(releasedBefore, base + loaded) - base)
        if keep > 0 {
          // Slide: move what is still needed to the front.
          buffer.moveToFront(keep..<loaded)
          base += keep
          loaded -= keep
        }
        if loaded == buffer.capacity { buffer.grow(keeping: loaded) }
      }
      let count = buffer.read(from: descriptor, into: loaded, count: buffer.capacity - loaded)
      if count < 0 {
        throw XMLInputError(line: 1, column: 1, message: "cannot read the file: \(String(cString: strerror(errno)))")
      }
      if count == 0 { reachedEnd = true }
      loaded += count
    }
    return true
  }
}
