/// Why compressed data could not be read or written: damaged, cut off, followed by bytes of no compression,
/// asking more memory than fxbatch gives a decoder, or unreadable.
public enum CompressionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The data is damaged at a byte of the compressed file (0-based offset), as the library says why.
  case damaged(Compression, offset: Int, reason: String)
  /// The data ends inside a member, frame, stream or block: the file was cut off.
  case truncated(Compression, size: Int)
  /// After complete data, bytes follow at an offset that start no other member of the compression.
  case trailingBytes(Compression, offset: Int)
  /// The data asks the decoder for more memory than it is given (a zstd frame's window, an xz stream's
  /// dictionary).
  case memoryLimit(Compression, reason: String)
  /// The compressed file cannot be read.
  case unreadable(reason: String)
  /// The library failed in a way that says nothing of the data (its set-up, memory).
  case libraryFailed(Compression, reason: String)

  public var description: String {
    switch self {
    case .damaged(let compression, let offset, let reason):
      "the \(compression) data is damaged at byte \(offset) of the compressed file (\(reason)); nothing is converted"
    case .truncated(let compression, let size):
      "the \(compression) data ends early, after \(size) compressed bytes: the file is cut off (an incomplete "
        + "download or copy?); nothing is converted"
    case .trailingBytes(let compression, let offset):
      "the \(compression) data ends at byte \(offset) of the compressed file, and the bytes after it are no "
        + "\(compression) data; nothing is converted"
    case .memoryLimit(let compression, let reason):
      "the \(compression) data needs more memory to decompress than fxbatch gives it (\(reason)); nothing is "
        + "converted"
    case .unreadable(let reason): "cannot read the compressed file: \(reason)"
    case .libraryFailed(let compression, let reason): "\(compression) failed: \(reason)"
    }
  }

  /// What to try next, when something is known.
  public var hint: String? {
    switch self {
    case .damaged(let compression, _, _), .truncated(let compression, _), .trailingBytes(let compression, _):
      "check the file with `\(compression.testCommand) FILE`"
    case .memoryLimit(.zstd, _): "decompress it first (`zstd -d --long=31 FILE`) and convert the result"
    case .memoryLimit(let compression, _): "decompress it first (`\(compression.rawValue) -dk FILE`) and convert the result"
    case .unreadable, .libraryFailed: nil
    }
  }
}
