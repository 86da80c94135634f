@preconcurrency import CZip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Deflates an entry's content as it is written (raw deflate, zlib at ``ZipPackage/deflateLevel``) to a file
/// descriptor, counting its bytes and their CRC-32, so that a converted sheet is deflated in the same pass that
/// writes it and then copied into the package as it is (``ZipEntryContent/deflatedFile(path:size:crc:)``).
///
/// libzip would deflate the entry itself when the package is written, but only at level 9 for a replaced
/// entry (libzip 1.7 drops the level `zip_set_file_compression` is given when the method stays deflate), and
/// only after the whole sheet was written out and read back in.
public final class ZipDeflater {
  /// zlib's state, which must not move while in use (zlib keeps a pointer back to it).
  private let stream: UnsafeMutablePointer<z_stream>
  private let sink: ByteSink
  private var output: [UInt8]
  private var crc: uLong = crc32(0, nil, 0)
  private var size: UInt64 = 0
  private var finished = false

  /// - Parameters:
  ///   - descriptor: where the deflated bytes go (open for writing; not closed).
  ///   - level: the zlib level, 1 (fastest) to 9 (smallest).
  /// - Throws: ``ZipError/writeFailed(path:reason:)`` when zlib cannot start.
  public init(descriptor: Int32, level: Int32 = Int32(ZipPackage.deflateLevel), path: String) throws(ZipError) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    sink = ByteSink(descriptor: descriptor)
    output = [UInt8](repeating: 0, count: 1 << 17)
    // Raw deflate (negative window bits: no zlib header), as zip entries store it; zlib's default memory level.
    let status = deflateInit2_(
      stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw .writeFailed(path: path, reason: "zlib cannot start deflating (status \(status))")
    }
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Deflates more of the content.
  ///
  /// - Throws: ``OutputError`` when the descriptor refuses the bytes.
  public func write(_ bytes: [UInt8]) throws(OutputError) {
    precondition(!finished, "ZipDeflater: written after finish()")
    guard !bytes.isEmpty else { return }
    size += UInt64(bytes.count)
    bytes.withUnsafeBufferPointer { buffer in
      crc = crc32(crc, buffer.baseAddress, uInt(buffer.count))
    }
    try deflate(bytes, flush: Z_NO_FLUSH)
  }

  /// Ends the deflate stream and writes out what is buffered.
  ///
  /// - Returns: the content's inflated size and CRC-32.
  /// - Throws: ``OutputError`` when the descriptor refuses the bytes.
  public func finish() throws(OutputError) -> (size: UInt64, crc: UInt32) {
    precondition(!finished, "ZipDeflater: finished twice")
    try deflate([], flush: Z_FINISH)
    finished = true
    try sink.flush()
    return (size, UInt32(truncatingIfNeeded: crc))
  }

  /// Runs zlib over `bytes` until it has taken them all (and, for `Z_FINISH`, ended the stream).
  private func deflate(_ bytes: [UInt8], flush: Int32) throws(OutputError) {
    let capacity = output.count
    var failure: OutputError? = nil
    bytes.withUnsafeBufferPointer { input in
      stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.pointee.avail_in = uInt(input.count)
      while failure == nil {
        let status = output.withUnsafeMutableBufferPointer { out in
          stream.pointee.next_out = out.baseAddress
          stream.pointee.avail_out = uInt(capacity)
          return CZip.deflate(stream, flush)
        }
        let produced = capacity - Int(stream.pointee.avail_out)
        if produced > 0 {
          do throws(OutputError) { try sink.write(output[..<produced]) } catch { failure = error }
        }
        if flush == Z_FINISH ? status == Z_STREAM_END : stream.pointee.avail_out != 0 { break }
        if status != Z_OK && (status != Z_BUF_ERROR || produced == 0) {
          failure = .writeFailed(reason: "zlib failed to deflate (status \(status))")
        }
      }
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    if let failure { throw failure }
  }
}
