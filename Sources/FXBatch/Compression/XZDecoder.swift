@preconcurrency import CLZMA

/// `.xz` data read through liblzma's stream decoder, stream after stream (`LZMA_CONCATENATED`, with the padding
/// between them), each block's check verified, as `xz -d` reads them.
///
/// The decoder may use at most ``memoryLimit`` (`xz -9`'s dictionary needs 65 MiB): a stream asking more is
/// refused.
final class XZDecoder: StreamDecoder {
  private let stream: LZMAStream
  private(set) var isComplete = false

  /// The most memory the decoder may use.
  static let memoryLimit: UInt64 = 256 << 20

  init() throws(CodecFailure) {
    stream = try LZMAStream("lzma_stream_decoder") {
      lzma_stream_decoder($0, Self.memoryLimit, fxbatch_lzma_concatenated())
    }
  }

  func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int)
  {
    guard let outputBase = output.baseAddress, !isComplete else { return (0, 0) }
    // LZMA_FINISH once no input follows: only then does a concatenated decoder end its last stream.
    let (status, taken, made) = stream.step(
      input, into: outputBase, count: output.count, action: finishing ? LZMA_FINISH : LZMA_RUN)
    switch status {
    case LZMA_OK: return (taken, made)
    case LZMA_STREAM_END:
      isComplete = true
      return (taken, made)
    case LZMA_BUF_ERROR:
      // No progress possible: with no more input, the data was cut off.
      if finishing { throw CodecFailure(kind: .truncated, taken: taken) }
      return (taken, made)
    case LZMA_DATA_ERROR: throw CodecFailure(kind: .damaged("the compressed data is corrupt"), taken: taken)
    case LZMA_FORMAT_ERROR:
      throw CodecFailure(kind: .damaged("the bytes are no .xz stream"), taken: taken)
    case LZMA_OPTIONS_ERROR:
      throw CodecFailure(kind: .damaged("options this liblzma does not support"), taken: taken)
    case LZMA_MEMLIMIT_ERROR:
      throw CodecFailure(
        kind: .memoryLimit("it needs more than \(Self.memoryLimit >> 20) MiB"), taken: taken)
    case LZMA_MEM_ERROR: throw CodecFailure(kind: .library("liblzma ran out of memory"), taken: taken)
    default: throw CodecFailure(kind: .library("lzma_code returned \(status.rawValue)"), taken: taken)
    }
  }
}
