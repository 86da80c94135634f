@preconcurrency import CZip

/// One entry of a ``ZipPackage`` inflated as a stream (`zip_fopen_index`, `zip_fread`), chunk by chunk into the
/// caller's buffer, so that an entry of any size is read in the memory of one chunk.
///
/// Hostile entries are refused with a ``ZipError`` and no more of their bytes:
/// - by their header, before anything is inflated: a declared size past ``ZipLimits/entrySize``, or a declared
///   size past ``ZipLimits/compressionRatio`` times the compressed size (a zip bomb);
/// - while inflating: an entry is never read past the size it declares (each read asks for at most one byte
///   more than is left), so one that inflates to more is refused at its first byte too many, and the declared
///   size, already within the limits, bounds what is inflated; one that inflates to less is refused at its end,
///   as is one whose CRC-32 does not match (libzip checks both when the data ends);
/// - a document type or entity declaration anywhere in its bytes (``XMLDeclarationScan``).
public final class ZipEntryStream {
  /// The package, kept open while the stream reads it.
  public let package: ZipPackage
  /// The entry read.
  public let entry: ZipEntry
  /// The bytes inflated so far.
  public private(set) var inflated: UInt64 = 0
  private let file: OpaquePointer
  private var declarations = XMLDeclarationScan()
  private var finished = false

  init(package: ZipPackage, entry: ZipEntry) throws(ZipError) {
    let limits = package.limits
    if entry.size > limits.entrySize {
      throw .entryTooLarge(path: package.path, entry: entry.name, size: entry.size, limit: limits.entrySize)
    }
    if limits.exceedsRatio(size: entry.size, compressedSize: entry.compressedSize) {
      throw .compressionRatioTooHigh(
        path: package.path, entry: entry.name, size: entry.size, compressedSize: entry.compressedSize,
        limit: limits.compressionRatio)
    }
    guard let file = zip_fopen_index(package.archive, UInt64(entry.index), 0) else {
      throw .readFailed(path: package.path, entry: entry.name, reason: String(cString: zip_strerror(package.archive)))
    }
    self.package = package
    self.entry = entry
    self.file = file
  }

  deinit { zip_fclose(file) }

  /// Inflates the next bytes into `buffer[index...]`.
  ///
  /// - Parameters:
  ///   - buffer: the array read into (its count is not changed; at least one byte of room after `index`).
  ///   - index: where the bytes go.
  /// - Returns: how many bytes were read: 0 at the end of the entry, and on every call after it.
  /// - Throws: ``ZipError`` when the entry lies about its size, fails its checksum, cannot be inflated, or
  ///   declares a DTD; the stream then reads nothing more.
  public func read(into buffer: inout [UInt8], at index: Int = 0) throws(ZipError) -> Int {
    precondition(index >= 0 && index < buffer.count, "ZipEntryStream: no room at \(index) of \(buffer.count)")
    guard !finished else { return 0 }
    let left = entry.size - inflated
    let request = Int(min(UInt64(buffer.count - index), left == .max ? left : left + 1))
    let got = buffer.withUnsafeMutableBytes { bytes in
      zip_fread(file, bytes.baseAddress! + index, UInt64(request))
    }
    guard got >= 0 else {
      finished = true
      throw failure()
    }
    guard got > 0 else {
      finished = true
      guard inflated == entry.size else { throw shortOfDeclaredSize() }
      return 0
    }
    inflated += UInt64(got)
    if inflated > entry.size {
      finished = true
      throw .inflatesPastDeclaredSize(path: package.path, entry: entry.name, declared: entry.size)
    }
    if declarations.found(in: buffer[index..<index + Int(got)]) {
      finished = true
      throw .documentTypeDeclaration(path: package.path, entry: entry.name)
    }
    return Int(got)
  }

  /// The error libzip reports for a failed read.
  private func failure() -> ZipError {
    let error = zip_file_get_error(file)
    switch zip_error_code_zip(error) {
    // libzip compares the inflated size with the declared one when the data ends.
    case ZIP_ER_INCONS where inflated < entry.size:
      return shortOfDeclaredSize()
    case ZIP_ER_CRC:
      return .readFailed(
        path: package.path, entry: entry.name, reason: "its checksum (CRC-32) does not match its data: the file is damaged")
    default:
      return .readFailed(path: package.path, entry: entry.name, reason: String(cString: zip_file_strerror(file)))
    }
  }

  private func shortOfDeclaredSize() -> ZipError {
    .inflatesShortOfDeclaredSize(path: package.path, entry: entry.name, declared: entry.size, inflated: inflated)
  }
}
