@preconcurrency import CLZMA

/// `.xz` written through liblzma at its default preset (6) with a CRC-64 check, as `xz` writes.
final class XZEncoder: StreamEncoder {
  private let stream: LZMAStream

  init() throws(CodecFailure) {
    stream = try LZMAStream("lzma_easy_encoder") { lzma_easy_encoder($0, 6, LZMA_CHECK_CRC64) }
  }

  func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int, ended: Bool)
  {
    guard let outputBase = output.baseAddress else { return (0, 0, false) }
    let (status, taken, made) = stream.step(
      input, into: outputBase, count: output.count, action: finishing ? LZMA_FINISH : LZMA_RUN)
    switch status {
    case LZMA_OK, LZMA_BUF_ERROR: return (taken, made, false)
    case LZMA_STREAM_END: return (taken, made, true)
    default: throw CodecFailure(kind: .library("lzma_code returned \(status.rawValue)"), taken: taken)
    }
  }
}
