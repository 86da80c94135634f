@preconcurrency import CISAL

/// gzip written by Intel's ISA-L at its level 1 (a gzip header and trailer, its CRC-32 and size).
final class GzipEncoder: StreamEncoder {
  private let state = ISALDeflateState(.gzip)

  init() throws(CodecFailure) {}

  func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int, ended: Bool)
  {
    guard let outputBase = output.baseAddress else { return (0, 0, false) }
    let stream = state.stream
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
    return (taken, made, finishing && state.hasEnded)
  }
}
