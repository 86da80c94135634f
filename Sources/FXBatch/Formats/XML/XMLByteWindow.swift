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
  /// The window: `buffer[0..<loaded]` holds the file's bytes `base..<base + loaded`.
  private var buffer: UnsafeMutableBufferPointer<UInt8>
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
    buffer = .allocate(capacity: max(capacity, 16))
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  /// The code unit at a byte offset (a multiple of the code unit width), or `nil` past the end of the file.
  ///
  /// - Throws: ``XMLInputError`` when the file cannot be read.
  @inline(__always)
  func unit(at offset: Int) throws(XMLInputError) -> UInt16? {
    let index = offset - base
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
        let start = buffer.baseAddress! + (offset - base)
        if let found = memchr(start, Int32(unit), loaded - (offset - base)) {
          return base + (found.assumingMemoryBound(to: UInt8.self) - buffer.baseAddress!)
        }
        offset = base + loaded
      }
      guard let next = try self.unit(at: offset) else { return nil }
      if next == unit { return offset }
      offset += form.codeUnitWidth
    }
  }

  /// Hands the bytes `range` (read already, not released) to `body`.
  func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    precondition(range.lowerBound >= base && range.upperBound <= base + loaded, "bytes outside the window")
    return try body(UnsafeBufferPointer(rebasing: buffer[(range.lowerBound - base)..<(range.upperBound - base)]))
  }

  /// Hands the bytes from `offset` to the end of the file to `body`, a window at a time, releasing them.
  func drain(from offset: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
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
      if loaded == buffer.count {
        let keep = max(0, min(releasedBefore, base + loaded) - base)
        if keep > 0 {
          // Slide: move what is still needed to the front.
          let remaining = loaded - keep
          if remaining > 0 {
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
              from: buffer.baseAddress! + keep, byteCount: remaining)
          }
          base += keep
          loaded = remaining
        }
        if loaded == buffer.count {
          let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
          _ = larger.initialize(from: buffer)
          buffer.deallocate()
          buffer = larger
        }
      }
      let count = read(descriptor, buffer.baseAddress! + loaded, buffer.count - loaded)
      if count < 0 {
        if errno == EINTR { continue }
        throw XMLInputError(line: 1, column: 1, message: "cannot read the file: \(String(cString: strerror(errno)))")
      }
      if count == 0 { reachedEnd = true }
      loaded += count
    }
    return true
  }
}
