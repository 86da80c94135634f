@preconcurrency import CISAL
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Deflates an entry's content as it is written (raw deflate, Intel's ISA-L at its level 1) into a
/// ``ZipDeflatedStream``, counting its bytes and their CRC-32 (zlib's, computed by ISA-L's `crc32_gzip_refl`), so
/// that a converted sheet is deflated in the same pass that writes it and copied into the package as it comes
/// (``ZipEntryContent/deflatedStream(_:)``).
///
/// The deflate, the CRC-32 and the hand-over to the stream run on a thread of their own (a serial dispatch
/// queue), so that they overlap the caller's work on the next block: ``write(_:)`` hands its block over and
/// returns, and waits only when ``blocksInFlight`` blocks are already waiting or being deflated, which bounds the
/// memory to that many blocks. An error of that thread is thrown by the next ``write(_:)``, or by ``finish()``,
/// which waits for every block to be written.
///
/// libzip would deflate the entry itself when the package is written, but with zlib, only at level 9 for a
/// replaced entry (libzip 1.7 drops the level `zip_set_file_compression` is given when the method stays
/// deflate), and only after the whole sheet was written out and read back in. ISA-L's level 1 deflates a sheet
/// about six times faster than zlib's level 1, to a slightly smaller entry (106 MB of sheet XML: 0.14 s and
/// 19.4 MB against 0.91 s and 20.2 MB); zlib's level 1 alone took longer than the rest of a conversion.
public final class ZipDeflater {
  /// How many blocks may be handed over and not yet written before ``write(_:)`` waits.
  static let blocksInFlight = 4
  private let worker: DeflateWorker
  private let queue = DispatchQueue(label: "fxbatch.zip-deflater")
  /// One permit per block in flight: taken by ``write(_:)``, given back when the block is written.
  private let slots = DispatchSemaphore(value: ZipDeflater.blocksInFlight)
  private var finished = false

  /// - Parameter stream: where the deflated bytes go; ``finish()`` does not end it (its caller does, with what
  ///   `finish()` returns).
  public init(into stream: ZipDeflatedStream) {
    worker = DeflateWorker(stream: stream)
  }

  /// Blocks still waiting (after an error of the caller's, say) are dropped unwritten, and not made
  /// (``write(_:making:)``); it returns once the block the queue may be on is done, so nothing a dropped block
  /// would make runs after.
  deinit {
    worker.cancel()
    queue.sync {}
  }

  /// Deflates more of the content (on the deflater's thread, after the blocks written before).
  ///
  /// - Throws: ``OutputError`` when the stream refused an earlier block's bytes or ISA-L failed.
  public func write(_ bytes: [UInt8]) throws(OutputError) {
    precondition(!finished, "ZipDeflater: written after finish()")
    if let failure = worker.failure { throw failure }
    guard !bytes.isEmpty else { return }
    enqueue { worker in bytes.withUnsafeBufferPointer { worker.deflate($0, last: false) } }
  }

  /// ``write(_:)`` of a buffer's bytes, handed over as they are: the caller writes no more to this copy.
  func write(_ bytes: ByteBuffer) throws(OutputError) {
    precondition(!finished, "ZipDeflater: written after finish()")
    if let failure = worker.failure { throw failure }
    guard bytes.count > 0 else { return }
    let block = UncheckedBlock(bytes)
    // The buffer is kept alive while ISA-L reads its bytes through the pointer.
    enqueue { worker in withExtendedLifetime(block) { worker.deflate(block.bytes.bytes, last: false) } }
  }

  /// Deflates the bytes `make` returns from `block`, made on the deflater's thread after the blocks written
  /// before: a writer hands over the work of forming a block along with it (``XLSXSheetConversion``'s fx_*
  /// cells). The caller writes no more to its copy of `block`.
  ///
  /// - Throws: ``OutputError`` when the stream refused an earlier block's bytes or ISA-L failed.
  func write(_ block: ByteBuffer, making make: @escaping @Sendable (ByteBuffer) -> ByteBuffer) throws(OutputError) {
    precondition(!finished, "ZipDeflater: written after finish()")
    if let failure = worker.failure { throw failure }
    let block = UncheckedBlock(block)
    enqueue { worker in
      let made = make(block.bytes)
      // The buffer is kept alive while ISA-L reads its bytes through the pointer.
      withExtendedLifetime(made) { worker.deflate(made.bytes, last: false) }
    }
  }

  /// A buffer handed to the deflater's thread, which its writer no longer touches.
  private struct UncheckedBlock: @unchecked Sendable {
    let bytes: ByteBuffer
    init(_ bytes: ByteBuffer) { self.bytes = bytes }
  }

  private func enqueue(_ deflate: @escaping @Sendable (DeflateWorker) -> Void) {
    slots.wait()
    let worker = worker
    let slots = slots
    queue.async {
      if !worker.stopped { deflate(worker) }
      slots.signal()
    }
  }

  /// Ends the deflate stream, once every block written before is deflated.
  ///
  /// - Returns: the content's inflated size and CRC-32.
  /// - Throws: ``OutputError`` when the stream refuses the bytes or ISA-L fails.
  public func finish() throws(OutputError) -> (size: UInt64, crc: UInt32) {
    precondition(!finished, "ZipDeflater: finished twice")
    finished = true
    let worker = worker
    let (size, crc) = queue.sync { () -> (UInt64, UInt32) in
      worker.deflate(UnsafeBufferPointer(start: nil, count: 0), last: true)
      return (worker.size, worker.crc)
    }
    if let failure = worker.failure { throw failure }
    return (size, crc)
  }
}

/// The deflater's side that runs on its queue: ISA-L's stream, the CRC-32 and the hand-over of what it makes.
///
/// `@unchecked Sendable`: everything but `status` is touched only by blocks of the deflater's serial queue, one
/// at a time and in order (``ZipDeflater/finish()`` reads `crc` inside a block of it too); `status` is behind a
/// `Mutex`.
private final class DeflateWorker: @unchecked Sendable {
  /// ISA-L's raw deflate stream (no gzip or zlib header, as zip entries store it).
  private let state = ISALDeflateState(.raw)
  private var stream: UnsafeMutablePointer<isal_zstream> { state.stream }
  private let target: ZipDeflatedStream
  private var output: [UInt8]
  private(set) var crc: UInt32 = 0
  /// The content's bytes so far.
  private(set) var size: UInt64 = 0
  private let status = Mutex<(failure: OutputError?, cancelled: Bool)>((nil, false))

  init(stream target: ZipDeflatedStream) {
    self.target = target
    output = [UInt8](repeating: 0, count: 1 << 17)
  }

  /// The first error of the queue's side, if there was one.
  var failure: OutputError? { status.withLock { $0.failure } }

  /// Has the blocks not yet deflated dropped.
  func cancel() { status.withLock { $0.cancelled = true } }

  /// Whether the blocks still to come are dropped (after an error, or once the deflater is gone).
  var stopped: Bool { status.withLock { $0.failure != nil || $0.cancelled } }

  private func fail(_ error: OutputError) { status.withLock { $0.failure = $0.failure ?? error } }

  /// Counts and deflates a block, and hands over what ISA-L makes of it.
  func deflate(_ bytes: UnsafeBufferPointer<UInt8>, last: Bool) {
    guard !stopped else { return }
    size += UInt64(bytes.count)
    if let base = bytes.baseAddress { crc = crc32_gzip_refl(crc, base, UInt64(bytes.count)) }
    do throws(OutputError) { try run(bytes, last: last) } catch { fail(error) }
  }

  /// Runs ISA-L over `bytes` until it has taken them all (and, for the last call, ended the stream).
  private func run(_ input: UnsafeBufferPointer<UInt8>, last: Bool) throws(OutputError) {
    let capacity = output.count
    var failure: OutputError? = nil
    do {
      stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.pointee.avail_in = UInt32(input.count)
      stream.pointee.end_of_stream = last ? 1 : 0
      while failure == nil {
        let status = output.withUnsafeMutableBufferPointer { out in
          stream.pointee.next_out = out.baseAddress
          stream.pointee.avail_out = UInt32(capacity)
          return isal_deflate(stream)
        }
        let produced = capacity - Int(stream.pointee.avail_out)
        if produced > 0 {
          do throws(OutputError) {
            try output.withUnsafeBufferPointer { out throws(OutputError) in
              try target.put(UnsafeBufferPointer(rebasing: out[..<produced]))
            }
          } catch { failure = error }
        }
        guard status == COMP_OK else {
          failure = .writeFailed(reason: "ISA-L failed to deflate (status \(status))")
          break
        }
        // Done when the input is taken and, for the last call, the stream has ended; else the output was full.
        let done =
          last
          ? state.hasEnded
          : stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0
        if done { break }
      }
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    if let failure { throw failure }
  }
}
