/// One entry of a zip package, as its central directory describes it.
public struct ZipEntry: Sendable, Equatable {
  /// The entry's index in the central directory.
  public let index: Int
  /// Its name: a path inside the package, `/`-separated (`xl/worksheets/sheet1.xml`, `content.xml`).
  public let name: String
  /// The size it declares, inflated, in bytes.
  public let size: UInt64
  /// The size of its stored (compressed) data, in bytes.
  public let compressedSize: UInt64
  /// The CRC-32 of its inflated bytes, as declared.
  public let crc: UInt32
  /// How its data is stored.
  public let method: ZipCompressionMethod
  /// Its modification time, in seconds since 1970 (zip keeps local time to 2 seconds).
  public let modificationTime: Int
}

/// How an entry's data is stored (the zip format's compression method numbers, APPNOTE.TXT 4.4.5).
public enum ZipCompressionMethod: Sendable, Equatable {
  /// Method 0: stored as it is.
  case stored
  /// Method 8: deflated.
  case deflated
  /// Any other method, by its number.
  case other(Int)

  init(number: Int) {
    switch number {
    case 0: self = .stored
    case 8: self = .deflated
    default: self = .other(number)
    }
  }
}
