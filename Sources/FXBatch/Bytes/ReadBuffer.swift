// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The buffer a streaming reader fills from a file: `capacity` bytes and ``padding`` more, all zeroed when
/// allocated, so that a ``ByteView`` of the filled part may promise readable bytes after it (a word load at any
/// index before `capacity` stays inside the allocation). The reader keeps how many bytes are filled; the
/// buffer slides them to the front (``moveToFront(_:)``) and grows (``grow(keeping:)``).
///
/// A class: it owns its memory and frees it when the reader goes. Readers copy ``view(count:)`` into a local
/// before their loops, so the loops touch no class property.
final class ReadBuffer {
  private var start: UnsafeMutablePointer<UInt8>
  /// The bytes that can be filled.
  private(set) var capacity: Int
  /// Zeroed bytes after ``capacity``, never filled.
  let padding: Int

  /// - Parameters:
  ///   - capacity: the bytes that can be filled (at least 1).
  ///   - padding: the readable bytes after them.
  init(capacity: Int, padding: Int) {
    assert(capacity > 0 && padding >= 0, "ReadBuffer: capacity \(capacity), padding \(padding)")
    self.capacity = capacity
    self.padding = padding
    start = Self.allocate(capacity + padding)
  }

  deinit { start.deallocate() }

  private static func allocate(_ count: Int) -> UnsafeMutablePointer<UInt8> {
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
    pointer.initialize(repeating: 0, count: count)
    return pointer
  }

  /// The first `count` bytes (`0 ... capacity`); the rest of the allocation stays readable by word loads.
  @inline(__always)
  func view(count: Int) -> ByteView {
    assert(count >= 0 && count <= capacity, "ReadBuffer: view of \(count) bytes, capacity \(capacity)")
    return ByteView(start: start, count: count, readablePadding: capacity + padding - count)
  }

  /// Moves the bytes `range` to the front (`memmove`: the ranges may overlap).
  func moveToFront(_ range: Range<Int>) {
    assert(range.lowerBound >= 0 && range.upperBound <= capacity, "ReadBuffer: move of \(range), capacity \(capacity)")
    guard !range.isEmpty, range.lowerBound > 0 else { return }
    memmove(start, start + range.lowerBound, range.count)
  }

  /// Doubles the capacity, keeping the first `count` bytes; the new bytes are zeroed.
  func grow(keeping count: Int) {
    assert(count >= 0 && count <= capacity, "ReadBuffer: keeping \(count) bytes, capacity \(capacity)")
    let grown = Self.allocate(capacity * 2 + padding)
    grown.update(from: start, count: count)
    start.deallocate()
    start = grown
    capacity *= 2
  }

  /// Copies `bytes` into the bytes `index ..< index + bytes.count` (within the capacity): what a reader that is no
  /// file (an inflating zip entry) read.
  func store(_ bytes: ArraySlice<UInt8>, at index: Int) {
    assert(index >= 0 && index + bytes.count <= capacity, "ReadBuffer: store of \(bytes.count) at \(index), capacity \(capacity)")
    bytes.withUnsafeBufferPointer { source in
      guard let base = source.baseAddress else { return }
      (start + index).update(from: base, count: source.count)
    }
  }

  /// Reads from a file into the bytes `index ..< index + count` (within the capacity), retrying when a signal
  /// interrupts the call.
  ///
  /// - Parameters:
  ///   - descriptor: an open file.
  ///   - offset: the file offset to read at (`pread(2)`), or `nil` to read at the file's position (`read(2)`).
  /// - Returns: the bytes read (0 at the end of the file), or −1 with `errno` set.
  func read(from descriptor: Int32, into index: Int, count: Int, fileOffset offset: Int? = nil) -> Int {
    assert(
      index >= 0 && count >= 0 && index + count <= capacity, "ReadBuffer: read of \(count) at \(index), capacity \(capacity)")
    while true {
      let got =
        offset.map { pread(descriptor, start + index, count, off_t($0)) } ?? Glibc.read(descriptor, start + index, count)
      if got < 0, errno == EINTR { continue }
      return got
    }
  }
}
