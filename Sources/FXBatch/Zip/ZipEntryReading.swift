/// Something that hands out an entry's inflated bytes in order: the entry's own ``ZipEntryStream``.
public protocol ZipEntryReading: AnyObject {
  /// The package, for messages.
  var package: ZipPackage { get }
  /// The entry read.
  var entry: ZipEntry { get }
  /// Reads the next bytes into `buffer[index...]`, as ``ZipEntryStream/read(into:at:)``.
  func read(into buffer: inout [UInt8], at index: Int) throws(ZipError) -> Int
}

extension ZipEntryReading {
  /// Reads the next bytes into the start of `buffer`.
  public func read(into buffer: inout [UInt8]) throws(ZipError) -> Int { try read(into: &buffer, at: 0) }
}

extension ZipEntryStream: ZipEntryReading {}
