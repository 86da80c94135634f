@preconcurrency import CZstd

/// Zstandard written through libzstd at its default level (3), with a checksum of the content, as `zstd` writes.
final class ZstdEncoder: StreamEncoder {
  private let context: OpaquePointer

  init() throws(CodecFailure) {
    guard let context = ZSTD_createCCtx() else {
      throw CodecFailure(kind: .library("ZSTD_createCCtx failed"), taken: 0)
    }
    self.context = context
    for (parameter, value) in [(ZSTD_c_compressionLevel, ZSTD_defaultCLevel()), (ZSTD_c_checksumFlag, 1)] {
      let status = ZSTD_CCtx_setParameter(context, parameter, value)
      if ZSTD_isError(status) != 0 {
        ZSTD_freeCCtx(context)
        throw CodecFailure(kind: .library(String(cString: ZSTD_getErrorName(status))), taken: 0)
      }
    }
  }

  deinit { ZSTD_freeCCtx(context) }

  func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int, ended: Bool)
  {
    guard let outputBase = output.baseAddress else { return (0, 0, false) }
    var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
    var target = ZSTD_outBuffer(dst: outputBase, size: output.count, pos: 0)
    let remaining = ZSTD_compressStream2(context, &target, &source, finishing ? ZSTD_e_end : ZSTD_e_continue)
    if ZSTD_isError(remaining) != 0 {
      throw CodecFailure(kind: .library(String(cString: ZSTD_getErrorName(remaining))), taken: source.pos)
    }
    // With ZSTD_e_end, 0 left to flush: the frame is ended and written.
    return (source.pos, target.pos, finishing && remaining == 0)
  }
}
