#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an output in a compression (an output named `.gz`, `.zst`, `.xz` or `.bz2`): the annotated copy,
/// written whole to a temporary file first, is compressed from it into its destination, a block at a time.
///
/// The levels are each command's default but gzip's: zstd 3, xz 6, bzip2 9 (900 kB blocks); gzip is written by
/// Intel's ISA-L at its level 1, a little smaller than `gzip -1`'s output at several times its speed (as
/// fxbatch deflates workbook sheets: 117 MB of annotated CSV to 41.8 MB, `gzip -1` 44.0 MB).
public enum Compressor {
  /// Compresses the bytes of an open file, from its first byte to its end, into a sink.
  ///
  /// - Parameters:
  ///   - descriptor: the file (read with `pread(2)`, its position left alone).
  ///   - compression: the compression to write.
  ///   - sink: where the compressed bytes go (not flushed).
  /// - Throws: ``OutputError/writeFailed(reason:)`` when the file cannot be read, the library fails or the sink
  ///   refuses the bytes.
  public static func compress(descriptor: Int32, as compression: Compression, into sink: ByteSink)
    throws(OutputError)
  {
    let encoder: any StreamEncoder
    do {
      switch compression {
      case .gzip: encoder = try GzipEncoder()
      case .zstd: encoder = try ZstdEncoder()
      case .xz: encoder = try XZEncoder()
      case .bzip2: encoder = try BZip2Encoder()
      }
    } catch {
      throw .writeFailed(reason: "\(compression) failed: \(error.reason)")
    }
    var input = [UInt8](repeating: 0, count: 1 << 18)
    var output = [UInt8](repeating: 0, count: 1 << 18)
    var offset = 0
    var done = false
    while !done {
      let count = FileBytes.read(from: descriptor, into: &input, fileOffset: offset)
      guard count >= 0 else {
        throw .writeFailed(reason: "cannot read the output's temporary file: \(String(cString: strerror(errno)))")
      }
      offset += count
      let finishing = count == 0
      var start = 0
      // Until the block is taken (and, once the file has ended, the compressed data has ended).
      while true {
        let step = input.withUnsafeBytes { inputBytes in
          output.withUnsafeMutableBytes { outputBytes in
            Result { () throws(CodecFailure) in
              try encoder.encode(
                UnsafeRawBufferPointer(rebasing: inputBytes[start..<count]), into: outputBytes, finishing: finishing)
            }
          }
        }
        let (taken, made, ended): (Int, Int, Bool)
        switch step {
        case .success(let result): (taken, made, ended) = result
        case .failure(let failure): throw .writeFailed(reason: "\(compression) failed: \(failure.reason)")
        }
        assert(taken >= 0 && start + taken <= count && made >= 0 && made <= output.count, "encoder out of bounds")
        start += taken
        if made > 0 {
          try output.withUnsafeBufferPointer { bytes throws(OutputError) in
            try sink.write(UnsafeBufferPointer(rebasing: bytes[..<made]))
          }
        }
        if finishing ? ended : start == count && made < output.count { break }
      }
      done = finishing
    }
  }
}

/// One compression's encoder: the library's stream state, given a block of bytes and a block of room at a time.
protocol StreamEncoder: AnyObject {
  /// Compresses what it can of `input` into `output`.
  ///
  /// - Parameters:
  ///   - finishing: whether no input follows `input`: the compressed data is ended.
  /// - Returns: how many bytes of `input` it took and of `output` it wrote, and (when finishing) whether the
  ///   compressed data has ended and is all written.
  func encode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int, ended: Bool)
}
