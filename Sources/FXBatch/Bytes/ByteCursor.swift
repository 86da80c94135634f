// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

/// A write position in memory reserved beforehand (``ByteBuffer/append(maximum:_:)``): the fast paths write a
/// record's annotation through it without a capacity check per value.
///
/// It knows the end of its reservation, and every write is checked against it in debug builds (in release
/// builds the end is never read, and the optimizer drops it).
struct ByteCursor {
  /// ``putShort(_:)`` copies this many bytes whatever the count: its source must have them readable, and the
  /// reservation must leave room for them after the last value.
  static let wordCopyLimit = 32

  private(set) var position: UnsafeMutablePointer<UInt8>
  /// The first byte after the reservation (read only by the debug-build checks).
  private let end: UnsafeMutablePointer<UInt8>

  /// A cursor at `start`, with room for `count` bytes.
  init(_ start: UnsafeMutablePointer<UInt8>, count: Int) {
    assert(count >= 0, "ByteCursor: room for \(count) bytes")
    position = start
    end = start + count
  }

  /// The bytes left in the reservation.
  var room: Int { position.distance(to: end) }

  /// Checks, in debug builds, that `count` bytes may be stored at the position.
  @inline(__always)
  private func checkRoom(_ count: Int) {
    assert(count >= 0 && count <= position.distance(to: end), "ByteCursor: \(count) bytes, room for \(room)")
  }

  @inline(__always)
  mutating func put(_ byte: UInt8) {
    checkRoom(1)
    position.pointee = byte
    position += 1
  }

  /// Copies a view's bytes.
  @inline(__always)
  mutating func put(_ bytes: ByteView) {
    checkRoom(bytes.count)
    guard !bytes.isEmpty else { return }
    position.update(from: bytes.buffer.baseAddress.unsafelyUnwrapped, count: bytes.count)
    position += bytes.count
  }

  /// Copies an array's bytes.
  @inline(__always)
  mutating func put(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { put(ByteView($0)) }
  }

  /// Copies a view's bytes when the view is followed by readable bytes up to ``wordCopyLimit`` (its
  /// ``ByteView/readablePadding``; a longer view is copied as ``put(_:)-(ByteView)`` does): four word copies,
  /// then the position moves by the view's count. The reservation must have room for the four words.
  @inline(__always)
  mutating func putShort(_ bytes: ByteView) { putShort(bytes, from: 0, count: bytes.count) }

  /// ``putShort(_:)`` of the `count` bytes at `offset` in a view (without making a slice): the view must have
  /// ``wordCopyLimit`` readable bytes from `offset`, within its count and padding.
  @inline(__always)
  mutating func putShort(_ bytes: ByteView, from offset: Int, count: Int) {
    assert(
      offset >= 0 && count >= 0 && offset + count <= bytes.count, "ByteCursor: \(count) bytes at \(offset) of \(bytes.count)")
    guard count <= Self.wordCopyLimit else { return put(bytes.slice(offset..<offset + count)) }
    checkRoom(Self.wordCopyLimit)
    // Four word moves (a 32-byte `copyMemory` was left as a `memmove` call); the view checks its padding.
    let to = UnsafeMutableRawPointer(position)
    UnalignedWord.store(bytes.nativeWord(at: offset), to: to)
    UnalignedWord.store(bytes.nativeWord(at: offset + 8), to: to + 8)
    UnalignedWord.store(bytes.nativeWord(at: offset + 16), to: to + 16)
    UnalignedWord.store(bytes.nativeWord(at: offset + 24), to: to + 24)
    position += count
  }

  /// Writes the low `count` bytes (at most 8) of a word, least significant first; 8 bytes are stored (the
  /// reservation must have room for them).
  @inline(__always)
  mutating func putWord(_ word: UInt64, count: Int) {
    assert(count >= 0 && count <= 8, "ByteCursor: \(count) bytes of a word")
    checkRoom(8)
    UnalignedWord.store(word.littleEndian, to: UnsafeMutableRawPointer(position))
    position += count
  }

  /// Lets `write` store at most `maximum` bytes at the position (the reservation must have room for them), and
  /// moves past the count it returns: the writers of values declared above `Bytes/` (an exact decimal's text,
  /// ``put(_:)-(ExactDecimal)``).
  @inline(__always)
  mutating func put(maximum: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
    checkRoom(maximum)
    let count = write(position)
    assert(count >= 0 && count <= maximum, "ByteCursor: \(count) bytes written, \(maximum) reserved")
    position += count
  }
}
