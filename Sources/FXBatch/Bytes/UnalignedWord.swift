// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

/// Unaligned 64-bit loads and stores that stay inline in the per-record loops: the standard library's generic
/// `loadUnaligned(fromByteOffset:as:)` and `storeBytes(of:toByteOffset:as:)` were left as out-of-line calls
/// there (a fifth of the CSV fast path's time); a constant-size `copyMemory` becomes one move.
enum UnalignedWord {
  /// The 8 bytes at `pointer` as a native-endian word (wrap in `UInt64(littleEndian:)` for byte order).
  @inline(__always)
  static func load(_ pointer: UnsafeRawPointer) -> UInt64 {
    var value: UInt64 = 0
    withUnsafeMutableBytes(of: &value) { $0.baseAddress!.copyMemory(from: pointer, byteCount: 8) }
    return value
  }

  /// Stores a native-endian word's 8 bytes at `pointer`.
  @inline(__always)
  static func store(_ value: UInt64, to pointer: UnsafeMutableRawPointer) {
    withUnsafeBytes(of: value) { pointer.copyMemory(from: $0.baseAddress!, byteCount: 8) }
  }
}
