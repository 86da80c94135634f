// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

/// A growable buffer of output bytes written through a pointer: the fast paths' output, without `Array`'s
/// uniqueness and capacity checks on every small append.
///
/// Copies share their storage; a copy that is to be written on another thread calls ``makeUnique()`` first.
struct ByteBuffer {
  private final class Storage {
    let pointer: UnsafeMutablePointer<UInt8>
    init(capacity: Int) { pointer = .allocate(capacity: capacity) }
    deinit { pointer.deallocate() }
  }

  private var storage: Storage
  /// The first byte.
  private var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private(set) var capacity: Int

  /// - Parameter capacity: the bytes it holds before it grows.
  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    storage = Storage(capacity: self.capacity)
    base = storage.pointer
  }

  /// The bytes appended so far.
  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    assert(extra >= 0, "ByteBuffer: reserving \(extra) bytes")
    if count &+ extra > capacity { grow(to: count + extra) }
  }

  @inline(never)
  private mutating func grow(to needed: Int) {
    let newCapacity = max(needed, capacity * 2)
    let newStorage = Storage(capacity: newCapacity)
    newStorage.pointer.update(from: base, count: count)
    storage = newStorage
    base = newStorage.pointer
    capacity = newCapacity
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count &+= 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    let length = bytes.count
    reserve(length)
    let target = UnsafeMutableRawPointer(base + count)
    if length >= 8, length <= 16 {
      // A tag, a code: two words that may overlap, the first 8 bytes and the last 8 (no call to memmove, and no
      // byte beyond either end read or written).
      let (first, last) = (UnalignedWord.load(source), UnalignedWord.load(source + (length &- 8)))
      UnalignedWord.store(first, to: target)
      UnalignedWord.store(last, to: target + (length &- 8))
    } else if length < 8 {
      for offset in 0..<length { base[count &+ offset] = source[offset] }
    } else {
      (base + count).update(from: source, count: length)
    }
    count &+= length
  }

  /// Appends the bytes of a view.
  @inline(__always)
  mutating func append(_ bytes: ByteView) { append(bytes.buffer) }

  @inline(__always)
  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  @inline(__always)
  mutating func append(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// Writes at most `maximum` bytes straight into the buffer: `body` gets a cursor with room for them (which
  /// checks its writes against that room in debug builds); the bytes up to where it leaves the cursor are kept.
  @inline(__always)
  mutating func append(maximum: Int, _ body: (inout ByteCursor) -> Void) {
    reserve(maximum)
    let start = base + count
    var cursor = ByteCursor(start, count: maximum)
    body(&cursor)
    let written = start.distance(to: cursor.position)
    assert(written >= 0 && written <= maximum, "ByteBuffer: \(written) bytes written, \(maximum) reserved")
    count &+= written
  }

  /// ``append(maximum:_:)`` with views of three arrays that `body` copies from (a template and the texts
  /// of its values), valid while `body` runs: one closure for the caller's writes, so that they stay inline.
  @inline(__always)
  mutating func append(
    maximum: Int, copyingFrom first: [UInt8], _ second: [UInt8], _ third: [UInt8],
    _ body: (inout ByteCursor, ByteView, ByteView, ByteView) -> Void
  ) {
    first.withUnsafeBufferPointer { first in
      second.withUnsafeBufferPointer { second in
        third.withUnsafeBufferPointer { third in
          append(maximum: maximum) { cursor in body(&cursor, ByteView(first), ByteView(second), ByteView(third)) }
        }
      }
    }
  }

  /// ``append(maximum:copyingFrom:_:_:_:)`` with two arrays.
  @inline(__always)
  mutating func append(
    maximum: Int, copyingFrom first: [UInt8], _ second: [UInt8], _ body: (inout ByteCursor, ByteView, ByteView) -> Void
  ) {
    first.withUnsafeBufferPointer { first in
      second.withUnsafeBufferPointer { second in
        append(maximum: maximum) { cursor in body(&cursor, ByteView(first), ByteView(second)) }
      }
    }
  }

  /// Pieces of bytes packed one after another into a buffer that is never grown, and a view of each: the views
  /// stay valid as long as the buffer (or a copy of it) lives.
  static func packing(_ pieces: [[UInt8]]) -> (buffer: ByteBuffer, views: [ByteView]) {
    var buffer = ByteBuffer(capacity: pieces.reduce(0) { $0 + $1.count })
    for piece in pieces { buffer.append(piece) }
    var views: [ByteView] = []
    var start = 0
    for piece in pieces {
      views.append(ByteView(buffer.bytes).slice(start..<(start + piece.count)))
      start += piece.count
    }
    return (buffer, views)
  }

  mutating func removeAll() { count = 0 }

  /// Removes the last `count` bytes.
  mutating func removeLast(_ count: Int) {
    assert(count >= 0 && count <= self.count, "ByteBuffer: removing \(count) of \(self.count) bytes")
    self.count -= count
  }

  /// Gives this copy storage of its own (empty).
  mutating func makeUnique() {
    storage = Storage(capacity: capacity)
    base = storage.pointer
    count = 0
  }
}
