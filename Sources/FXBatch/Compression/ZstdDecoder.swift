@preconcurrency import CZstd

/// Zstandard data read through libzstd's streaming decoder, frame after frame (skippable frames skipped), as
/// `zstd -d` reads them.
///
/// A frame's window is held to libzstd's default limit (2^27 bytes, 128 MiB), which every level `zstd` writes
/// without `--long` stays within: a frame asking more is refused, not given the memory.
final class ZstdDecoder: StreamDecoder {
  private let context: OpaquePointer
  private(set) var isComplete = false

  /// The largest window a frame may ask, as a power of two: libzstd's ZSTD_WINDOWLOG_LIMIT_DEFAULT (declared
  /// only for static linking).
  static let windowLogLimit: Int32 = 27

  init() throws(CodecFailure) {
    guard let context = ZSTD_createDStream() else {
      throw CodecFailure(kind: .library("ZSTD_createDStream failed"), taken: 0)
    }
    self.context = context
    let status = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.windowLogLimit)
    if ZSTD_isError(status) != 0 {
      ZSTD_freeDStream(context)
      throw CodecFailure(kind: .library(String(cString: ZSTD_getErrorName(status))), taken: 0)
    }
  }

  deinit { ZSTD_freeDStream(context) }

  func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int)
  {
    guard let outputBase = output.baseAddress else { return (0, 0) }
    var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
    var target = ZSTD_outBuffer(dst: outputBase, size: output.count, pos: 0)
    let status = ZSTD_decompressStream(context, &target, &source)
    let (taken, made) = (source.pos, target.pos)
    if ZSTD_isError(status) != 0 {
      let reason = String(cString: ZSTD_getErrorName(status))
      switch ZSTD_getErrorCode(status) {
      case ZSTD_error_prefix_unknown where isComplete:
        throw CodecFailure(kind: .trailingBytes, taken: taken)
      case ZSTD_error_frameParameter_windowTooLarge:
        throw CodecFailure(kind: .memoryLimit(reason), taken: taken)
      case ZSTD_error_memory_allocation: throw CodecFailure(kind: .library(reason), taken: taken)
      default: throw CodecFailure(kind: .damaged(reason), taken: taken)
      }
    }
    // 0: a frame has ended and all of it is out.
    if taken > 0 || made > 0 { isComplete = status == 0 }
    return (taken, made)
  }
}
