import Testing

@testable import FXBatch

/// Direct tests of the unsafe byte-level types in `Sources/FXBatch/Bytes/` (one nested suite per type), also run
/// under the address sanitizer in CI (`.ci/run`): every test here reads and writes at the very ends of exactly
/// sized allocations, so an access one byte out of bounds is reported there.
@Suite("Bytes", .tags(.sanitized))
enum BytesTests {
  /// Memory of exactly `bytes.count + padding` bytes: `bytes`, then `padding` bytes of `fill` (so that a word
  /// load reaching into the padding shows in its value, and one past it is out of the allocation).
  ///
  /// The memory is freed with the object: tests bind it to a local (or keep it alive with
  /// `withExtendedLifetime`) while a view of it is used.
  final class ExactBytes {
    let pointer: UnsafeMutablePointer<UInt8>
    let count: Int
    let padding: Int

    init(_ bytes: [UInt8], padding: Int = 0, fill: UInt8 = 0xEE) {
      count = bytes.count
      self.padding = padding
      pointer = .allocate(capacity: max(1, bytes.count + padding))
      pointer.initialize(from: bytes, count: bytes.count)
      (pointer + bytes.count).initialize(repeating: fill, count: padding)
    }

    convenience init(_ text: String, padding: Int = 0, fill: UInt8 = 0xEE) {
      self.init(Array(text.utf8), padding: padding, fill: fill)
    }

    deinit { pointer.deallocate() }

    /// The bytes as a view that may read the padding.
    var view: ByteView { ByteView(start: pointer, count: count, readablePadding: padding) }
    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: pointer, count: count) }
  }

  /// The little-endian word of up to 8 bytes, computed byte by byte.
  static func littleEndian(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var word: UInt64 = 0
    for (index, byte) in bytes.prefix(8).enumerated() { word |= UInt64(byte) << (8 * UInt64(index)) }
    return word
  }
}
