import Foundation

/// Compressed files (``Compression``): an input whose first bytes are gzip, zstd, xz or bzip2 data, whatever its
/// name, is decompressed once into a private copy in `$TMPDIR` as a stream is (``spool(_:number:)``, held to the
/// same limits), both passes read the copy, and every format and fast path reads plain bytes. An output named
/// with a compression's extension (`X.converted.csv.gz` beside `X.csv.gz`, `-o out.csv.zst`) is written whole
/// into an unnamed temporary file, then compressed from it into its destination, atomically.
extension BatchJob {
  /// The compression a regular file's first bytes show (never asked of a stream, whose bytes it would take).
  static func compression(ofFile path: String) -> Compression? {
    Compression.detect(FileBytes.prefix(of: path, count: Compression.magicSize))
  }

  /// Whether an input names this process's standard input (`-`, `/dev/stdin`, its descriptor 0).
  static func namesStandardInput(_ inputPath: String) -> Bool {
    ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(inputPath)
  }

  /// Pass 2 over one file, its annotated copy written as its destination asks: in the file's encoding
  /// (``convertInItsEncoding(_:quotes:standardOutput:)``) and, for an output named `.gz`, `.zst`, `.xz` or
  /// `.bz2`, in that compression (``Compressor``), through an unnamed temporary file.
  ///
  /// - Returns: what ``convertInItsEncoding(_:quotes:standardOutput:)`` returns, and the output's compression.
  func convertAndCompress(_ scan: FileScan, quotes: QuoteBook, standardOutput: Int32) throws(FileError)
    -> (converted: (RunReport.Counts, Int, ReconciliationLedger, FileScan), compression: Compression?)
  {
    guard let outputPath = scan.outputPath, let compression = Compression.named(outputPath),
      !AtomicFile.writesInPlace(outputPath)
    else {
      return (try convertInItsEncoding(scan, quotes: quotes, standardOutput: standardOutput), nil)
    }
    let temporary: Int32
    do { temporary = try UnnamedTemporaryFile.create(prefix: "fxbatch-annotated") } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
    defer { close(temporary) }
    var plain = scan
    // Written through the descriptor (``AtomicFile``): nothing is renamed over it, and nothing is left behind.
    plain.outputPath = "/proc/self/fd/\(temporary)"
    var converted = try convertInItsEncoding(plain, quotes: quotes, standardOutput: standardOutput)
    converted.3.outputPath = scan.outputPath
    do {
      let file = try AtomicFile(path: outputPath, permissionsOf: scan.displayPath == "-" ? nil : scan.displayPath)
      do { try Compressor.compress(descriptor: temporary, as: compression, into: file.sink) } catch {
        file.discard()
        throw error
      }
      try file.commit()
    } catch {
      throw FileError(path: scan.displayPath, message: "cannot write the \(compression)-compressed copy: \(error)")
    }
    return (converted, compression)
  }

  /// The first bytes of a compressed file, decompressed into an unnamed temporary file (at most `limit` of
  /// them, fewer where the data is damaged or cut off), for the questions asked of a file's start (is it an
  /// fxbatch output?).
  ///
  /// - Returns: the temporary file's descriptor (the caller closes it), or `nil` when the file is not
  ///   compressed or cannot be read.
  static func decompressedStart(of path: String, limit: Int = 1 << 20) -> Int32? {
    let first = FileBytes.prefix(of: path, count: Compression.magicSize)
    guard let compression = Compression.detect(first) else { return nil }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    guard let reader = try? DecompressingReader(descriptor: descriptor, compression: compression),
      let copy = try? UnnamedTemporaryFile.create(prefix: "fxbatch-start")
    else { return nil }
    let sink = ByteSink(descriptor: copy)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var written = 0
    while written < limit, let count = try? reader.read(into: &buffer), count > 0 {
      try? sink.write(buffer[..<count])
      written += count
    }
    try? sink.flush()
    return copy
  }
}
