@preconcurrency import CLZMA

/// A liblzma stream, set up by one of liblzma's initialisers and ended with it: the state ``XZDecoder`` and
/// ``XZEncoder`` both run, one step at a time (``step(_:into:action:)``).
final class LZMAStream {
  /// liblzma's state, which must not move while in use.
  private let stream: UnsafeMutablePointer<lzma_stream>

  /// - Parameters:
  ///   - name: the initialiser's name, for its error.
  ///   - setUp: the initialiser, given the all-zero stream (`LZMA_STREAM_INIT`).
  init(_ name: String, setUp: (UnsafeMutablePointer<lzma_stream>) -> lzma_ret) throws(CodecFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: lzma_stream())
    let status = setUp(stream)
    guard status == LZMA_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw CodecFailure(kind: .library("\(name) returned \(status.rawValue)"), taken: 0)
    }
  }

  deinit {
    lzma_end(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Runs `lzma_code` once over `input` into `output` (whose start must exist).
  ///
  /// - Returns: liblzma's status, how many input bytes it took and how many output bytes it made.
  func step(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, count: Int, action: lzma_action)
    -> (status: lzma_ret, taken: Int, made: Int)
  {
    stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_in = input.count
    stream.pointee.next_out = output.assumingMemoryBound(to: UInt8.self)
    stream.pointee.avail_out = count
    let status = lzma_code(stream, action)
    let taken = input.count - stream.pointee.avail_in
    let made = count - stream.pointee.avail_out
    (stream.pointee.next_in, stream.pointee.next_out) = (nil, nil)
    return (status, taken, made)
  }
}
