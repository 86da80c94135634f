@preconcurrency import CBZip2

/// bzip2 data read through libbzip2, stream after stream (`cat a.bz2 b.bz2`, `pbzip2`'s output), as `bzip2 -d`
/// reads them.
final class BZip2Decoder: StreamDecoder {
  /// libbzip2's state, which must not move while in use.
  private let stream: UnsafeMutablePointer<bz_stream>
  /// Whether the last stream read has ended and the next has not begun (libbzip2 is set up again for it).
  private var betweenStreams = false
  private(set) var isComplete = false

  init() throws(CodecFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: bz_stream())
    let status = BZ2_bzDecompressInit(stream, 0, 0)
    guard status == BZ_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw CodecFailure(kind: .library("BZ2_bzDecompressInit returned \(status)"), taken: 0)
    }
  }

  deinit {
    BZ2_bzDecompressEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int)
  {
    if betweenStreams {
      guard !input.isEmpty else { return (0, 0) }
      BZ2_bzDecompressEnd(stream)
      stream.pointee = bz_stream()
      let status = BZ2_bzDecompressInit(stream, 0, 0)
      guard status == BZ_OK else {
        throw CodecFailure(kind: .library("BZ2_bzDecompressInit returned \(status)"), taken: 0)
      }
      (betweenStreams, isComplete) = (false, false)
    }
    guard let inputBase = input.baseAddress, let outputBase = output.baseAddress else { return (0, 0) }
    let (inputCount, outputCount) = (min(input.count, Int(UInt32.max)), min(output.count, Int(UInt32.max)))
    stream.pointee.next_in = UnsafeMutablePointer(mutating: inputBase.assumingMemoryBound(to: CChar.self))
    stream.pointee.avail_in = UInt32(inputCount)
    stream.pointee.next_out = outputBase.assumingMemoryBound(to: CChar.self)
    stream.pointee.avail_out = UInt32(outputCount)
    let status = BZ2_bzDecompress(stream)
    let taken = inputCount - Int(stream.pointee.avail_in)
    let made = outputCount - Int(stream.pointee.avail_out)
    (stream.pointee.next_in, stream.pointee.next_out) = (nil, nil)
    switch status {
    case BZ_OK: return (taken, made)
    case BZ_STREAM_END:
      (betweenStreams, isComplete) = (true, true)
      return (taken, made)
    case BZ_DATA_ERROR_MAGIC:
      // Another stream must start with "BZh"; at the start of the data, the magic number was checked already.
      throw CodecFailure(kind: .trailingBytes, taken: taken)
    case BZ_DATA_ERROR: throw CodecFailure(kind: .damaged("the compressed data is corrupt"), taken: taken)
    case BZ_MEM_ERROR: throw CodecFailure(kind: .library("libbzip2 ran out of memory"), taken: taken)
    default: throw CodecFailure(kind: .library("BZ2_bzDecompress returned \(status)"), taken: taken)
    }
  }
}
