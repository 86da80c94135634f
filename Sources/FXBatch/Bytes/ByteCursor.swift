// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; README.md, "Unsafe code", lists the exceptions left.

/// A write position in memory reserved beforehand (``ByteBuffer/append(maximum:_:)``): the fast paths write a
/// record's annotation through it without a capacity check per value.
struct ByteCursor {
  /// ``putShort(_:count:)`` copies this many bytes whatever the count: its source must have them readable,
  /// and the reservation must leave room for them after the last value.
  static let wordCopyLimit = 32

  private(set) var position: UnsafeMutablePointer<UInt8>

  init(_ start: UnsafeMutablePointer<UInt8>) { position = start }

  @inline(__always)
  mutating func put(_ byte: UInt8) {
    position.pointee = byte
    position += 1
  }

  /// Copies `count` bytes.
  @inline(__always)
  mutating func put(_ source: UnsafePointer<UInt8>, count: Int) {
    assert(count >= 0, "ByteCursor: \(count) bytes")
    position.update(from: source, count: count)
    position += count
  }

  /// Copies `count` bytes from a source followed by readable bytes up to ``wordCopyLimit`` (more than that
  /// are copied as ``put(_:count:)`` does): four word copies, then the position moves by `count`.
  @inline(__always)
  mutating func putShort(_ source: UnsafePointer<UInt8>, count: Int) {
    assert(count >= 0, "ByteCursor: \(count) bytes")
    guard count <= Self.wordCopyLimit else { return put(source, count: count) }
    // Four word moves (a 32-byte `copyMemory` was left as a `memmove` call).
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(position)
    UnalignedWord.store(UnalignedWord.load(from), to: to)
    UnalignedWord.store(UnalignedWord.load(from + 8), to: to + 8)
    UnalignedWord.store(UnalignedWord.load(from + 16), to: to + 16)
    UnalignedWord.store(UnalignedWord.load(from + 24), to: to + 24)
    position += count
  }

  /// Copies piece `index` of a template whose bytes start at `base` (``AnnotationTemplate/bytes``).
  @inline(__always)
  mutating func putPiece(_ index: Int, of template: AnnotationTemplate, from base: UnsafePointer<UInt8>) {
    let (start, count) = template.piece(index)
    putShort(base + start, count: count)
  }

  /// Writes the low `count` bytes (at most 8) of a word, least significant first; 8 bytes are stored.
  @inline(__always)
  mutating func putWord(_ word: UInt64, count: Int) {
    assert(count >= 0 && count <= 8, "ByteCursor: \(count) bytes of a word")
    UnalignedWord.store(word.littleEndian, to: UnsafeMutableRawPointer(position))
    position += count
  }

  /// Writes a decimal's text (``ExactDecimal/write(to:mark:)``).
  @inline(__always)
  mutating func put(_ value: ExactDecimal) {
    position += value.write(to: position)
  }
}
