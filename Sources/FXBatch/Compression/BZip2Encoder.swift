@preconcurrency import CBZip2

/// bzip2 written through libbzip2 with 900 kB blocks, as `bzip2` writes.
final class BZip2Encoder: StreamEncoder {
  /// libbzip2's state, which must not move while in use.
  private let stream: UnsafeMutablePointer<bz_stream>

  init() throws(CodecFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: bz_stream())
    let status = BZ2_bzCompressInit(stream, 9, 0, 0)
    guard status == BZ_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw CodecFailure(kind: .library("BZ2_bzCompressInit returned \(status)"), taken: 0)
    }
  }

  deinit {
    BZ2_bzCompressEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int, ended: Bool)
  {
    guard let outputBase = output.baseAddress else { return (0, 0, false) }
    let (inputCount, outputCount) = (min(input.count, Int(UInt32.max)), min(output.count, Int(UInt32.max)))
    stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: CChar.self))
    stream.pointee.avail_in = UInt32(inputCount)
    stream.pointee.next_out = outputBase.assumingMemoryBound(to: CChar.self)
    stream.pointee.avail_out = UInt32(outputCount)
    let status = BZ2_bzCompress(stream, finishing ? BZ_FINISH : BZ_RUN)
    let taken = inputCount - Int(stream.pointee.avail_in)
    let made = outputCount - Int(stream.pointee.avail_out)
    (stream.pointee.next_in, stream.pointee.next_out) = (nil, nil)
    switch status {
    case BZ_RUN_OK, BZ_FINISH_OK: return (taken, made, false)
    case BZ_STREAM_END: return (taken, made, true)
    default: throw CodecFailure(kind: .library("BZ2_bzCompress returned \(status)"), taken: taken)
    }
  }
}
