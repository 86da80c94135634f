// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A read-only view of bytes someone else owns (a reader's buffer, static text), valid while the owner keeps
/// them: the fast paths' way to read a record in place without a copy and without pointer arithmetic.
///
/// Indices are offsets from the view's first byte. ``readablePadding`` more bytes after the last may be read by
/// the word loads (``word(at:)``), whose values are unspecified: it lets a short field be loaded a word at a time.
/// Every access is checked against these bounds in debug builds.
struct ByteView: Sequence {
  /// The first byte; `nil` only for an empty view without padding.
  private let start: UnsafePointer<UInt8>?
  /// The bytes in the view.
  let count: Int
  /// Bytes after the last that may be read by the word loads.
  let readablePadding: Int

  /// A view of `count` bytes from `start`, `readablePadding` more of them readable.
  init(start: UnsafePointer<UInt8>?, count: Int, readablePadding: Int = 0) {
    assert(count >= 0 && readablePadding >= 0, "ByteView: a negative count or padding")
    assert(start != nil || count + readablePadding == 0, "ByteView: bytes without an address")
    self.start = start
    self.count = count
    self.readablePadding = readablePadding
  }

  /// A view of a buffer's bytes.
  init(_ buffer: UnsafeBufferPointer<UInt8>, readablePadding: Int = 0) {
    self.init(start: buffer.baseAddress, count: buffer.count, readablePadding: readablePadding)
  }

  /// The UTF-8 bytes of static text (the text compiled into the binary lives as long as the process).
  init(_ text: StaticString) {
    assert(text.hasPointerRepresentation, "ByteView: a static string of one scalar")
    self.init(start: text.utf8Start, count: text.utf8CodeUnitCount)
  }

  var isEmpty: Bool { count == 0 }

  /// The byte at `index` (`0 ..< count`).
  @inline(__always)
  subscript(index: Int) -> UInt8 {
    assert(index >= 0 && index < count, "ByteView: index \(index) out of 0..<\(count)")
    return start.unsafelyUnwrapped[index]
  }

  /// The bytes `range` as a view of their own, keeping the bytes readable after them.
  @inline(__always)
  subscript(range: Range<Int>) -> ByteView {
    slice(range)
  }

  /// The bytes `range` (within `0 ... count`) as a view of their own; the bytes after them up to this view's
  /// padding stay readable by its word loads.
  @inline(__always)
  func slice(_ range: Range<Int>) -> ByteView {
    assert(range.lowerBound >= 0 && range.upperBound <= count, "ByteView: slice \(range) out of 0..<\(count)")
    return ByteView(
      start: start.map { $0 + range.lowerBound }, count: range.count,
      readablePadding: count - range.upperBound + readablePadding)
  }

  /// The bytes from `index` (within `0 ... count`) to the end.
  @inline(__always)
  func slice(from index: Int) -> ByteView { slice(index..<count) }

  /// The bytes as a buffer pointer, for the standard library's collection algorithms and `String(decoding:)`
  /// (its subscript is checked in debug builds too).
  @inline(__always)
  var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  func makeIterator() -> UnsafeBufferPointer<UInt8>.Iterator { buffer.makeIterator() }

  var underestimatedCount: Int { count }

  /// The bytes in one block (so that `Array.append(contentsOf:)` copies them at once).
  func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
    try body(buffer)
  }

  /// A copy of the bytes.
  var array: [UInt8] { Array(buffer) }

  /// A copy of the bytes `range`.
  func array(_ range: Range<Int>) -> [UInt8] { Array(slice(range).buffer) }

  /// The bytes decoded as UTF-8 (invalid sequences replaced, as `String(decoding:as:)` does).
  var text: String { String(decoding: buffer, as: UTF8.self) }

  /// The 8 bytes at `offset` as a little-endian word; `offset + 8` may reach into ``readablePadding``.
  @inline(__always)
  func word(at offset: Int) -> UInt64 {
    assert(offset >= 0 && offset + 8 <= count + readablePadding, "ByteView: word at \(offset) past \(count)+\(readablePadding)")
    return UInt64(littleEndian: UnalignedWord.load(UnsafeRawPointer(start.unsafelyUnwrapped + offset)))
  }

  /// The 8 bytes at `offset` in memory order (a native-endian word, to be stored as it is); `offset + 8` may
  /// reach into ``readablePadding``.
  @inline(__always)
  func nativeWord(at offset: Int) -> UInt64 {
    assert(offset >= 0 && offset + 8 <= count + readablePadding, "ByteView: word at \(offset) past \(count)+\(readablePadding)")
    return UnalignedWord.load(UnsafeRawPointer(start.unsafelyUnwrapped + offset))
  }

  /// The `length` bytes (at most 8) at `offset` as a little-endian word, the bytes after them as zeros; as
  /// ``word(at:)``, all 8 bytes from `offset` must be readable.
  @inline(__always)
  func word(at offset: Int, length: Int) -> UInt64 {
    assert(length >= 0 && offset + Swift.min(length, 8) <= count, "ByteView: \(length) bytes at \(offset) past \(count)")
    let word = word(at: offset)
    return length >= 8 ? word : word & ((1 << (UInt64(length) &* 8)) &- 1)
  }

  /// Whether the `length` bytes at `left` and at `right` are equal, compared a word at a time: the 8 bytes
  /// from each word's start must be readable (within the padding).
  @inline(__always)
  func wordsEqual(at left: Int, _ right: Int, length: Int) -> Bool {
    var offset = 0
    while offset < length {
      guard word(at: left + offset, length: length - offset) == word(at: right + offset, length: length - offset) else {
        return false
      }
      offset += 8
    }
    return true
  }

  /// Whether the `length` bytes at `left` and at `right` (both within the view) are equal (`memcmp`).
  @inline(__always)
  func bytesEqual(at left: Int, _ right: Int, length: Int) -> Bool {
    assert(
      left >= 0 && right >= 0 && length >= 0 && left + length <= count && right + length <= count,
      "ByteView: \(length) bytes at \(left) and \(right) out of 0..<\(count)")
    guard length > 0 else { return true }
    return memcmp(start.unsafelyUnwrapped + left, start.unsafelyUnwrapped + right, length) == 0
  }

  /// Whether the bytes at `index` are `other`'s bytes (`false` when the view ends before them).
  @inline(__always)
  func hasBytes(_ other: [UInt8], at index: Int) -> Bool {
    assert(index >= 0 && index <= count, "ByteView: index \(index) out of 0...\(count)")
    guard other.count <= count - index else { return false }
    guard !other.isEmpty else { return true }
    return other.withUnsafeBufferPointer { memcmp($0.baseAddress!, start.unsafelyUnwrapped + index, other.count) == 0 }
  }

  /// Whether the bytes are the UTF-8 of `text` (a name the scanners look for: `row`, `c`).
  @inline(__always)
  func equals(_ text: StaticString) -> Bool {
    let length = text.utf8CodeUnitCount
    guard count == length else { return false }
    guard length > 0, let start else { return true }
    return memcmp(start, text.utf8Start, length) == 0
  }

  /// The index of the first `byte` at or after `index` (within `0 ... count`), found by `memchr`; `nil` when
  /// there is none.
  @inline(__always)
  func firstIndex(of byte: UInt8, from index: Int = 0) -> Int? {
    assert(index >= 0 && index <= count, "ByteView: index \(index) out of 0...\(count)")
    guard index < count, let start else { return nil }
    guard let found = memchr(start + index, Int32(byte), count - index) else { return nil }
    return UnsafeRawPointer(start).distance(to: UnsafeRawPointer(found))
  }
}
