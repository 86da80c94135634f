@preconcurrency import CISAL

/// An ISA-L deflate stream at level 1 with its working memory: the state both of fxbatch's deflaters run
/// (``GzipEncoder``'s gzip files, ``ZipDeflater``'s raw deflate of a package's entries), set up and freed in
/// one place.
///
/// The state is allocated once and never moves while ISA-L uses it; whoever owns this object uses it from one
/// thread at a time.
final class ISALDeflateState {
  /// What ISA-L writes around the deflated data.
  enum Wrapper {
    /// A gzip header and trailer (its CRC-32 and size).
    case gzip
    /// Raw deflate, as zip entries store it.
    case raw
  }

  /// ISA-L's state, which must not move while in use.
  let stream: UnsafeMutablePointer<isal_zstream>
  /// Level 1's working memory (ISA-L's suggested size, about 300 KB).
  private let levelBuffer: UnsafeMutableRawBufferPointer

  /// A stream at level 1 with the default 32 KiB window, no flush between calls.
  init(_ wrapper: Wrapper) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: isal_zstream())
    isal_deflate_init(stream)
    let levelSize = Int(fxbatch_isal_level1_buffer_size())
    levelBuffer = .allocate(byteCount: levelSize, alignment: 64)
    stream.pointee.level = 1
    stream.pointee.level_buf = levelBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
    stream.pointee.level_buf_size = UInt32(levelSize)
    stream.pointee.gzip_flag = UInt16(wrapper == .gzip ? IGZIP_GZIP : IGZIP_DEFLATE)
    stream.pointee.flush = UInt16(NO_FLUSH)
  }

  deinit {
    stream.deinitialize(count: 1)
    stream.deallocate()
    levelBuffer.deallocate()
  }

  /// Whether the last call, with `end_of_stream` set, has ended the stream (its final block and any trailer
  /// written).
  var hasEnded: Bool { stream.pointee.internal_state.state == ZSTATE_END }
}
