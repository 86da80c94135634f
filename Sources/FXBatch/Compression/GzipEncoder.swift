@preconcurrency import CISAL

/// gzip written by Intel's ISA-L at its level 1 (a gzip header and trailer, its CRC-32 and size).
final class GzipEncoder: StreamEncoder {
  /// ISA-L's state, which must not move while in use.
  private let stream: UnsafeMutablePointer<isal_zstream>
  /// Level 1's working memory (ISA-L's suggested size, about 300 KB).
  private let levelBuffer: UnsafeMutableRawBufferPointer

  init() throws(CodecFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: isal_zstream())
    isal_deflate_init(stream)
    let levelSize = Int(fxbatch_isal_level1_buffer_size())
    levelBuffer = .allocate(byteCount: levelSize, alignment: 64)
    stream.pointee.level = 1
    stream.pointee.level_buf = levelBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    stream.pointee.level_buf_size = UInt32(levelSize)
    stream.pointee.gzip_flag = UInt16(IGZIP_GZIP)
    stream.pointee.flush = UInt16(NO_FLUSH)
  }

  deinit {
    stream.deinitialize(count: 1)
    stream.deallocate()
    levelBuffer.deallocate()
  }

  func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int, ended: Bool)
  {
    guard let outputBase = output.baseAddress else { return (0, 0, false) }
    let (inputCount, outputCount) = (min(input.count, Int(UInt32.max)), min(output.count, Int(UInt32.max)))
    stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
    stream.pointee.avail_in = UInt32(inputCount)
    stream.pointee.next_out = outputBase.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_out = UInt32(outputCount)
    stream.pointee.end_of_stream = finishing ? 1 : 0
    let status = isal_deflate(stream)
    let taken = inputCount - Int(stream.pointee.avail_in)
    let made = outputCount - Int(stream.pointee.avail_out)
    (stream.pointee.next_in, stream.pointee.next_out) = (nil, nil)
    guard status == COMP_OK else {
      throw CodecFailure(kind: .library("ISA-L's deflate returned \(status)"), taken: taken)
    }
    return (taken, made, finishing && stream.pointee.internal_state.state == ZSTATE_END)
  }
}
