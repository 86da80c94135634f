@preconcurrency import CZip

/// gzip data read through zlib (`inflate` with a gzip wrapper), member after member: a gzip file may be several
/// members one after the other (`cat a.gz b.gz`, `pigz`), read as one, as `gzip -d` reads them.
final class GzipDecoder: StreamDecoder {
  /// zlib's state, which must not move while in use.
  private let stream: UnsafeMutablePointer<z_stream>
  /// Whether the last member read has ended and the next has not begun.
  private var betweenMembers = false
  private(set) var isComplete = false

  init() throws(CodecFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    // 15 + 16: the largest window, and a gzip header and trailer (its CRC-32 and size checked) around the data.
    let status = inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw CodecFailure(kind: .library("zlib's inflateInit2 returned \(status)"), taken: 0)
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int)
  {
    if betweenMembers {
      // Another member starts with gzip's magic number; anything else after the data is refused, not ignored.
      guard let first = input.first else { return (0, 0) }
      if first != 0x1F || (input.count > 1 && input[1] != 0x8B) || (input.count == 1 && finishing) {
        throw CodecFailure(kind: .trailingBytes, taken: 0)
      }
      guard input.count > 1 else { return (0, 0) }
      inflateReset(stream)
      (betweenMembers, isComplete) = (false, false)
    }
    guard let inputBase = input.baseAddress, let outputBase = output.baseAddress else { return (0, 0) }
    let (inputCount, outputCount) = (min(input.count, Int(UInt32.max)), min(output.count, Int(UInt32.max)))
    stream.pointee.next_in = UnsafeMutablePointer(mutating: inputBase.assumingMemoryBound(to: UInt8.self))
    stream.pointee.avail_in = UInt32(inputCount)
    stream.pointee.next_out = outputBase.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_out = UInt32(outputCount)
    let status = inflate(stream, Z_NO_FLUSH)
    let taken = inputCount - Int(stream.pointee.avail_in)
    let made = outputCount - Int(stream.pointee.avail_out)
    (stream.pointee.next_in, stream.pointee.next_out) = (nil, nil)
    switch status {
    case Z_OK, Z_BUF_ERROR: return (taken, made)
    case Z_STREAM_END:
      (betweenMembers, isComplete) = (true, true)
      return (taken, made)
    case Z_DATA_ERROR:
      let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
      throw CodecFailure(kind: .damaged(reason), taken: taken)
    case Z_NEED_DICT: throw CodecFailure(kind: .damaged("it needs a preset dictionary"), taken: taken)
    case Z_MEM_ERROR: throw CodecFailure(kind: .library("zlib ran out of memory"), taken: taken)
    default: throw CodecFailure(kind: .library("zlib's inflate returned \(status)"), taken: taken)
    }
  }
}
