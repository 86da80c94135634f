@preconcurrency import CZip
import Dispatch
import Synchronization

// Zip/ wraps libzip; the pointers it hands over (this callback's data) stay inside the Zip/ folder
// (docs/development.md, "Unsafe code").

/// An entry's raw deflate data handed, while it is made, from the thread that deflates it (``ZipDeflater``) to
/// the thread that writes the package (``ZipPackage/startWriting(to:replacing:)``, as
/// ``ZipEntryContent/deflatedStream(_:)``), which copies it into the package as it comes.
///
/// A converted sheet is thus written once, into the package itself, while it is converted: no temporary file of
/// the deflated sheet, and no copy of it into the package after the conversion (for a one-million-row sheet, 97
/// MB, about a sixth of the conversion's time, done alone at its end).
///
/// At most ``chunksInFlight`` chunks wait between the two threads (the deflater waits for room, which bounds the
/// memory); the deflater ends the stream with the content's size and CRC-32 (``finish(size:crc:)``), which libzip
/// asks for once it has copied the bytes, or abandons it (``abandon()``: the package's writing fails, and leaves
/// nothing). When the writer stops reading (libzip failed, say, on a full disk), the deflater's next
/// ``put(_:)`` throws.
///
/// libzip writes an entry's local header before its data, with the sizes its source states then, and writes it
/// again with the real ones after the data. The sizes stated first decide whether the header is Zip64, and must
/// be decided the same way by the real ones (libzip fails otherwise): a stream that may pass 4 GiB
/// (``mayPassZip32Limits``) states none, which makes the entry Zip64; any other states 0 bytes.
public final class ZipDeflatedStream: Sendable {
  /// How many chunks of deflated bytes may wait for the writer before ``put(_:)`` waits.
  static let chunksInFlight = 16
  /// Whether the entry may pass 4 GiB (inflated or deflated): written as Zip64 from its first header.
  public let mayPassZip32Limits: Bool
  private let state = Mutex(State())
  /// One signal per chunk put, and one for the end (finished or abandoned).
  private let filled = DispatchSemaphore(value: 0)
  /// One permit per chunk that may wait; given back when the writer takes one, or when it stops reading. Made
  /// with none and given its permits at once: libdispatch traps when a semaphore is freed with fewer permits
  /// than it was made with, as this one is when the stream ends with chunks still waiting.
  private let room = DispatchSemaphore(value: 0)

  private struct State {
    var chunks: [[UInt8]] = []
    var first = 0
    var end: End? = nil
    /// Set by the writer when it stops reading: the deflater's puts fail.
    var writerStopped = false
  }

  /// How the stream ended.
  enum End: Equatable {
    case finished(size: UInt64, crc: UInt32)
    case abandoned
  }

  /// What the writer takes next.
  enum Item {
    case chunk([UInt8])
    case end(End)
  }

  public init(mayPassZip32Limits: Bool) {
    self.mayPassZip32Limits = mayPassZip32Limits
    for _ in 0..<Self.chunksInFlight { room.signal() }
  }

  // MARK: The deflater's side

  /// Hands more deflated bytes over (a copy), waiting while ``chunksInFlight`` chunks wait already.
  ///
  /// - Throws: ``OutputError`` when the writer has stopped reading (its own error is the package's).
  func put(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    guard !bytes.isEmpty else { return }
    let chunk = Array(bytes)
    room.wait()
    let taken = state.withLock { state -> Bool in
      guard !state.writerStopped, state.end == nil else { return false }
      state.chunks.append(chunk)
      return true
    }
    guard taken else {
      room.signal()  // for a put that may follow, which fails the same way
      throw .writeFailed(reason: "the package's writing has stopped")
    }
    filled.signal()
  }

  /// Ends the stream: the content inflates to `size` bytes with this CRC-32.
  public func finish(size: UInt64, crc: UInt32) { end(.finished(size: size, crc: crc)) }

  /// Ends the stream unfinished: the package's writing fails, and leaves nothing.
  public func abandon() { end(.abandoned) }

  private func end(_ end: End) {
    let ended = state.withLock { state -> Bool in
      guard state.end == nil else { return false }
      state.end = end
      return true
    }
    if ended { filled.signal() }
  }

  // MARK: The writer's side

  /// The next chunk, or the end; waits for one. An abandoned stream ends at once, before chunks still waiting.
  func take() -> Item {
    if let end = state.withLock({ $0.end == .abandoned ? $0.end : nil }) { return .end(end) }
    filled.wait()
    let item = state.withLock { state -> Item in
      if state.end == .abandoned { return .end(.abandoned) }
      guard state.first < state.chunks.count else { return .end(state.end!) }
      let chunk = state.chunks[state.first]
      state.chunks[state.first] = []
      state.first += 1
      if state.first == state.chunks.count { (state.chunks, state.first) = ([], 0) }
      return .chunk(chunk)
    }
    switch item {
    case .chunk: room.signal()
    // The end's signal stays for a later take, which returns the end again.
    case .end: filled.signal()
    }
    return item
  }

  /// The writer reads no more: the deflater's waiting and later puts fail.
  func stopReading() {
    state.withLock { $0.writerStopped = true }
    room.signal()
  }

  /// The end, once the stream has one.
  var ended: End? { state.withLock { $0.end } }

  /// Whether the writer has stopped reading (its package's writing is ending, or over).
  public var writerStopped: Bool { state.withLock { $0.writerStopped } }
}

/// The libzip source of a ``ZipDeflatedStream``'s entry (`zip_source_function(3)`): reads its chunks as they
/// come, and states the deflate method, with the sizes and CRC-32 once the stream has finished.
final class ZipDeflatedStreamSource: ZipSourceAnswering {
  private let stream: ZipDeflatedStream
  private var chunk: [UInt8] = []
  private var offset = 0
  private var compressedSize: UInt64 = 0
  private var finished: (size: UInt64, crc: UInt32)? = nil
  private var errorCode = ZIP_ER_OK

  init(_ stream: ZipDeflatedStream) { self.stream = stream }

  /// The writer reads no more, whatever made libzip let the source go.
  deinit { stream.stopReading() }

  func answer(_ data: UnsafeMutableRawPointer?, _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
    switch command {
    case ZIP_SOURCE_OPEN, ZIP_SOURCE_CLOSE:
      return 0
    case ZIP_SOURCE_READ:
      guard let data else { return fail(ZIP_ER_INVAL) }
      while offset == chunk.count {
        guard finished == nil else { return 0 }
        switch stream.take() {
        case .chunk(let next): (chunk, offset) = (next, 0)
        case .end(.finished(let size, let crc)): finished = (size, crc)
        case .end(.abandoned):
          stream.stopReading()
          return fail(ZIP_ER_CANCELLED)
        }
      }
      let count = min(Int(clamping: length), chunk.count - offset)
      chunk.withUnsafeBytes { data.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
      offset += count
      compressedSize += UInt64(count)
      return Int64(count)
    case ZIP_SOURCE_STAT:
      guard let data, length >= MemoryLayout<zip_stat_t>.size else { return fail(ZIP_ER_INVAL) }
      let stat = data.assumingMemoryBound(to: zip_stat_t.self)
      zip_stat_init(stat)
      stat.pointee.comp_method = UInt16(ZIP_CM_DEFLATE)
      stat.pointee.valid |= UInt64(ZIP_STAT_COMP_METHOD)
      if let finished {
        (stat.pointee.size, stat.pointee.comp_size, stat.pointee.crc) = (finished.size, compressedSize, finished.crc)
        stat.pointee.valid |= UInt64(ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_CRC)
      } else if !stream.mayPassZip32Limits {
        // Before the data: sizes that keep the header Zip32 (ZipDeflatedStream), written again after it.
        (stat.pointee.size, stat.pointee.comp_size, stat.pointee.crc) = (0, 0, 0)
        stat.pointee.valid |= UInt64(ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_CRC)
      }
      return Int64(MemoryLayout<zip_stat_t>.size)
    case ZIP_SOURCE_ERROR:
      guard let data, length >= 2 * MemoryLayout<Int32>.size else { return fail(ZIP_ER_INVAL) }
      let codes = data.assumingMemoryBound(to: Int32.self)
      (codes[0], codes[1]) = (errorCode, 0)
      return Int64(2 * MemoryLayout<Int32>.size)
    case ZIP_SOURCE_SUPPORTS:
      return fxbatch_zip_source_supports_readable()
    default:
      return fail(ZIP_ER_OPNOTSUPP)
    }
  }

  private func fail(_ code: Int32) -> Int64 {
    errorCode = code
    return -1
  }
}
