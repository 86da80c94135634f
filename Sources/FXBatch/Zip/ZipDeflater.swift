@preconcurrency import CISAL
@preconcurrency import CZip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Deflates an entry's content as it is written (raw deflate, Intel's ISA-L at its level 1) to a file descriptor,
/// counting its bytes and their CRC-32 (zlib's), so that a converted sheet is deflated in the same pass that
/// writes it and then copied into the package as it is (``ZipEntryContent/deflatedFile(path:size:crc:)``).
///
/// libzip would deflate the entry itself when the package is written, but with zlib, only at level 9 for a
/// replaced entry (libzip 1.7 drops the level `zip_set_file_compression` is given when the method stays
/// deflate), and only after the whole sheet was written out and read back in. ISA-L's level 1 deflates a sheet
/// about six times faster than zlib's level 1, to a slightly smaller entry (106 MB of sheet XML: 0.14 s and
/// 19.4 MB against 0.91 s and 20.2 MB); zlib's level 1 alone took longer than the rest of a conversion.
public final class ZipDeflater {
  /// ISA-L's state, which must not move while in use.
  private let stream: UnsafeMutablePointer<isal_zstream>
  /// Level 1's working memory (ISA-L's suggested size, about 300 KB).
  private let levelBuffer: UnsafeMutableRawBufferPointer
  private let sink: ByteSink
  private var output: [UInt8]
  private var crc: uLong = crc32(0, nil, 0)
  private var size: UInt64 = 0
  private var finished = false

  /// - Parameters:
  ///   - descriptor: where the deflated bytes go (open for writing; not closed).
  ///   - path: the package written, for messages.
  public init(descriptor: Int32, path: String) throws(ZipError) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: isal_zstream())
    isal_deflate_init(stream)
    let levelSize = Int(fxbatch_isal_level1_buffer_size())
    levelBuffer = .allocate(byteCount: levelSize, alignment: 64)
    // Raw deflate (no gzip or zlib header), as zip entries store it; the default 32 KiB window.
    stream.pointee.level = 1
    stream.pointee.level_buf = levelBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    stream.pointee.level_buf_size = UInt32(levelSize)
    stream.pointee.gzip_flag = UInt16(IGZIP_DEFLATE)
    stream.pointee.flush = UInt16(NO_FLUSH)
    sink = ByteSink(descriptor: descriptor)
    output = [UInt8](repeating: 0, count: 1 << 17)
  }

  deinit {
    stream.deinitialize(count: 1)
    stream.deallocate()
    levelBuffer.deallocate()
  }

  /// Deflates more of the content.
  ///
  /// - Throws: ``OutputError`` when the descriptor refuses the bytes or ISA-L fails.
  public func write(_ bytes: [UInt8]) throws(OutputError) {
    precondition(!finished, "ZipDeflater: written after finish()")
    guard !bytes.isEmpty else { return }
    size += UInt64(bytes.count)
    bytes.withUnsafeBufferPointer { buffer in
      crc = crc32(crc, buffer.baseAddress, uInt(buffer.count))
    }
    try deflate(bytes, last: false)
  }

  /// Ends the deflate stream and writes out what is buffered.
  ///
  /// - Returns: the content's inflated size and CRC-32.
  /// - Throws: ``OutputError`` when the descriptor refuses the bytes or ISA-L fails.
  public func finish() throws(OutputError) -> (size: UInt64, crc: UInt32) {
    precondition(!finished, "ZipDeflater: finished twice")
    try deflate([], last: true)
    finished = true
    try sink.flush()
    return (size, UInt32(truncatingIfNeeded: crc))
  }

  /// Runs ISA-L over `bytes` until it has taken them all (and, for the last call, ended the stream).
  private func deflate(_ bytes: [UInt8], last: Bool) throws(OutputError) {
    let capacity = output.count
    var failure: OutputError? = nil
    bytes.withUnsafeBufferPointer { input in
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
          do throws(OutputError) { try sink.write(output[..<produced]) } catch { failure = error }
        }
        guard status == COMP_OK else {
          failure = .writeFailed(reason: "ISA-L failed to deflate (status \(status))")
          break
        }
        // Done when the input is taken and, for the last call, the stream has ended; else the output was full.
        let done =
          last
          ? stream.pointee.internal_state.state == ZSTATE_END
          : stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0
        if done { break }
      }
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    if let failure { throw failure }
  }
}
