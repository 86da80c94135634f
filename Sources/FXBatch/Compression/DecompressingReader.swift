#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a compressed file or stream as the bytes it holds, a block at a time: memory holds one block of
/// compressed bytes and the decoder's state (bounded by ``StreamDecoder``'s limits), however much the data
/// decompresses to, so that what reads it decides where to stop (a decompression bomb stops at the caller's
/// size and record limits).
///
/// Every member, frame or stream of the data is read in turn (`cat a.gz b.gz` is one gzip file, as `gzip -d`
/// reads it). Damaged data, data cut off inside a member, and bytes after the data that start no member are
/// errors, never a shorter result.
public final class DecompressingReader {
  public let compression: Compression
  private let descriptor: Int32
  private let decoder: any StreamDecoder
  /// Compressed bytes read and not yet decoded: `input[inputStart..<inputEnd]`.
  private var input: [UInt8]
  private var inputStart = 0
  private var inputEnd: Int
  private var atEndOfInput = false
  /// Whether the decoder has been told that no input follows and has made all it will.
  private var finished = false
  /// The compressed bytes decoded so far (the offset errors name).
  public private(set) var compressedOffset = 0

  /// The size of a block of compressed bytes read at a time.
  static let blockSize = 1 << 16

  /// A reader of compressed data from an open descriptor.
  ///
  /// - Parameters:
  ///   - descriptor: where the compressed bytes are read (`read(2)`, from its position); the reader does not
  ///     close it.
  ///   - compression: the data's compression (``Compression/detect(_:)`` of its first bytes).
  ///   - prefix: the data's first bytes, already read from the descriptor by the caller.
  /// - Throws: ``CompressionError/libraryFailed(_:reason:)`` when the library cannot set up its decoder.
  public init(descriptor: Int32, compression: Compression, prefix: [UInt8] = []) throws(CompressionError) {
    self.descriptor = descriptor
    self.compression = compression
    input = prefix + [UInt8](repeating: 0, count: max(0, Self.blockSize - prefix.count))
    inputEnd = prefix.count
    do {
      switch compression {
      case .gzip: decoder = try GzipDecoder()
      case .zstd: decoder = try ZstdDecoder()
      case .xz: decoder = try XZDecoder()
      case .bzip2: decoder = try BZip2Decoder()
      }
    } catch {
      throw .libraryFailed(compression, reason: error.reason)
    }
  }

  /// Reads decompressed bytes into `buffer` (from its start, at most its count).
  ///
  /// - Returns: how many bytes it read; 0 only at the end of the data.
  /// - Throws: ``CompressionError`` when the data is damaged, cut off, followed by other bytes, or cannot be read.
  public func read(into buffer: inout [UInt8]) throws(CompressionError) -> Int {
    guard !buffer.isEmpty else { return 0 }
    while !finished {
      if inputStart == inputEnd, !atEndOfInput { try refill() }
      let (taken, made) = try decode(into: &buffer, finishing: atEndOfInput)
      if made > 0 { return made }
      if taken > 0 { continue }
      // No progress: the decoder needs more input than it has, or, with none to come, it is done.
      if atEndOfInput, inputStart == inputEnd {
        finished = true
      } else if !atEndOfInput, inputEnd - inputStart < input.count {
        try refill()
      } else {
        throw .libraryFailed(compression, reason: "the decoder stopped at byte \(compressedOffset)")
      }
    }
    guard decoder.isComplete else { throw .truncated(compression, size: compressedOffset) }
    return 0
  }

  /// Runs the decoder over the compressed bytes on hand.
  private func decode(into buffer: inout [UInt8], finishing: Bool) throws(CompressionError) -> (Int, Int) {
    let start = inputStart
    let end = inputEnd
    let decoder = decoder
    let result = input.withUnsafeBytes { inputBytes in
      buffer.withUnsafeMutableBytes { outputBytes in
        Result { () throws(CodecFailure) in
          try decoder.decode(
            UnsafeRawBufferPointer(rebasing: inputBytes[start..<end]), into: outputBytes, finishing: finishing)
        }
      }
    }
    switch result {
    case .success(let (taken, made)):
      assert(taken >= 0 && taken <= end - start && made >= 0 && made <= buffer.count, "decoder out of bounds")
      inputStart += taken
      compressedOffset += taken
      return (taken, made)
    case .failure(let failure):
      let offset = compressedOffset + failure.taken
      switch failure.kind {
      case .damaged(let reason): throw .damaged(compression, offset: offset, reason: reason)
      case .trailingBytes: throw .trailingBytes(compression, offset: offset)
      case .memoryLimit(let reason): throw .memoryLimit(compression, reason: reason)
      case .truncated: throw .truncated(compression, size: offset)
      case .library(let reason): throw .libraryFailed(compression, reason: reason)
      }
    }
  }

  /// Moves the compressed bytes not yet decoded to the front of the block and reads more after them.
  private func refill() throws(CompressionError) {
    if inputStart > 0 {
      let kept = inputEnd - inputStart
      if kept > 0 { input.replaceSubrange(0..<kept, with: input[inputStart..<inputEnd]) }
      (inputStart, inputEnd) = (0, kept)
    }
    guard inputEnd < input.count else { return }
    let count = FileBytes.read(from: descriptor, into: &input, at: inputEnd)
    guard count >= 0 else { throw .unreadable(reason: String(cString: strerror(errno))) }
    if count == 0 { atEndOfInput = true }
    inputEnd += count
  }
}

/// One compression's decoder: the library's stream state, given a block of compressed bytes and a block of
/// room at a time.
protocol StreamDecoder: AnyObject {
  /// Decodes what it can of `input` into `output`.
  ///
  /// - Parameters:
  ///   - input: compressed bytes (none once the input has ended).
  ///   - output: room for the decompressed bytes.
  ///   - finishing: whether no input follows `input` (xz's decoder ends its last stream only when told).
  /// - Returns: how many bytes of `input` it took, and how many of `output` it wrote.
  /// - Throws: a ``CodecFailure`` when the data is damaged or the library fails.
  func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, finishing: Bool)
    throws(CodecFailure) -> (taken: Int, made: Int)

  /// Whether the data decoded so far ends where the compression lets it end: every member, frame or stream
  /// complete.
  var isComplete: Bool { get }
}

/// Why a ``StreamDecoder`` or a ``StreamEncoder`` stopped, and how much of the input it had taken.
struct CodecFailure: Error {
  enum Kind {
    case damaged(String)
    case truncated
    case trailingBytes
    case memoryLimit(String)
    case library(String)
  }

  let kind: Kind
  /// How many bytes of this call's input it had taken (the error's offset in it).
  let taken: Int

  /// The library's words, for a set-up failure.
  var reason: String {
    switch kind {
    case .damaged(let reason), .memoryLimit(let reason), .library(let reason): reason
    case .truncated: "the data ends early"
    case .trailingBytes: "bytes after the data"
    }
  }
}
