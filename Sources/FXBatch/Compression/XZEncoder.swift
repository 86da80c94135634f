@preconcurrency import CLZMA

/// `.xz` written through liblzma at its default preset (6) with a CRC-64 check, as `xz` writes.
final class XZEncoder: StreamEncoder {
  /// liblzma's state, which must not move while in use.
  private let stream: UnsafeMutablePointer<lzma_stream>

  init() throws(CodecFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: lzma_stream())
    let status = lzma_easy_encoder(stream, 6, LZMA_CHECK_CRC64)
    guard status == LZMA_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw CodecFailure(kind: .library("lzma_easy_encoder returned \(status.rawValue)"), taken: 0)
    }
  }

  deinit {
    lzma_end(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int, ended: Bool)
  {
    guard let outputBase = output.baseAddress else { return (0, 0, false) }
    stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_in = input.count
    stream.pointee.next_out = outputBase.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_out = output.count
    let status = lzma_code(stream, finishing ? LZMA_FINISH : LZMA_RUN)
    let taken = input.count - stream.pointee.avail_in
    let made = output.count - stream.pointee.avail_out
    (stream.pointee.next_in, stream.pointee.next_out) = (nil, nil)
    switch status {
    case LZMA_OK, LZMA_BUF_ERROR: return (taken, made, false)
    case LZMA_STREAM_END: return (taken, made, true)
    default: throw CodecFailure(kind: .library("lzma_code returned \(status.rawValue)"), taken: taken)
    }
  }
}
