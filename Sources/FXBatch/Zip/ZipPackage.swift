@preconcurrency import CZip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A zip package (an `.xlsx` or `.ods` workbook) opened read-only through libzip: its entries, each read as a
/// stream of inflated chunks within ``ZipLimits``, and written anew with some entries replaced
/// (``write(to:replacing:)``).
///
/// Opening refuses what fxbatch cannot convert, each with a one-line ``ZipError``: a file that is not a zip (a
/// legacy `.xls` workbook, recognised by its Compound File signature, says so), a password-protected workbook
/// (an encrypted OOXML package inside a Compound File, an encrypted zip entry, or an ODF manifest with
/// `encryption-data`), an `.xlsb` workbook, and a package with two entries of one name.
public final class ZipPackage {
  /// The package's path.
  public let path: String
  /// The limits every entry is read within.
  public let limits: ZipLimits
  /// The entries, in central-directory order.
  public let entries: [ZipEntry]
  let archive: OpaquePointer
  /// A descriptor of the package, kept to read it again when it is written.
  let descriptor: Int32
  private let size: UInt64
  private let entryIndexes: [String: Int]

  /// Opens a package.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - limits: how far entries may inflate.
  /// - Throws: ``ZipError``.
  public init(path: String, limits: ZipLimits = .standard) throws(ZipError) {
    self.path = path
    self.limits = limits
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      let reason = info.st_mode & S_IFMT == S_IFDIR ? "it is a directory" : "it is not a regular file"
      close(descriptor)
      throw .cannotOpen(path: path, reason: reason)
    }
    self.descriptor = descriptor
    size = UInt64(info.st_size)
    do throws(ZipError) {
      try Self.refuseCompoundFile(path: path, descriptor: descriptor)
      // libzip opens an empty file as an empty archive.
      guard size > 0 else { throw .notAZip(path: path) }
      archive = try Self.openArchive(path: path, descriptor: descriptor, size: size, output: nil)
    } catch {
      close(descriptor)
      throw error
    }
    do throws(ZipError) {
      entries = try Self.readEntries(archive, path: path)
      var indexes: [String: Int] = [:]
      for entry in entries {
        guard indexes.updateValue(entry.index, forKey: entry.name) == nil else {
          throw .duplicateEntry(path: path, name: entry.name)
        }
      }
      entryIndexes = indexes
    } catch {
      zip_discard(archive)
      close(descriptor)
      throw error
    }
    if entryIndexes["xl/workbook.bin"] != nil { throw .binaryWorkbook(path: path) }
    if let manifest = entry(named: "META-INF/manifest.xml") {
      let text = try contents(of: manifest)
      if text.firstRange(of: Array("encryption-data".utf8)) != nil { throw .passwordProtected(path: path) }
    }
  }

  deinit {
    zip_discard(archive)
    close(descriptor)
  }

  /// The entry with this name, if the package has one.
  public func entry(named name: String) -> ZipEntry? {
    entryIndexes[name].map { entries[$0] }
  }

  /// A stream of an entry's inflated bytes, checked against ``limits`` (before and while inflating) and for DTDs.
  ///
  /// - Throws: ``ZipError`` when the entry is past the limits by its header, or cannot be opened;
  ///   ``ZipError/noSuchEntry(path:name:)`` for an entry of another package.
  public func stream(_ entry: ZipEntry) throws(ZipError) -> ZipEntryStream {
    guard entries.indices.contains(entry.index), entries[entry.index] == entry else {
      throw .noSuchEntry(path: path, name: entry.name)
    }
    return try ZipEntryStream(package: self, entry: entry)
  }

  /// An entry's inflated bytes, whole: for the small parts read at once (the workbook, relationships, styles).
  ///
  /// - Throws: ``ZipError`` as ``ZipEntryStream/read(into:at:)``.
  public func contents(of entry: ZipEntry) throws(ZipError) -> [UInt8] {
    let stream = try stream(entry)
    var bytes = [UInt8](repeating: 0, count: Int(min(entry.size, 1 << 20)) + 1)
    var filled = 0
    while true {
      if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
      let got = try stream.read(into: &bytes, at: filled)
      if got == 0 { break }
      filled += got
    }
    bytes.removeSubrange(filled...)
    return bytes
  }

  /// The contents of the entry with this name.
  ///
  /// - Throws: ``ZipError/noSuchEntry(path:name:)``, or as ``contents(of:)``.
  public func contents(ofEntryNamed name: String) throws(ZipError) -> [UInt8] {
    guard let entry = entry(named: name) else { throw .noSuchEntry(path: path, name: name) }
    return try contents(of: entry)
  }

  /// Reads every entry to its end, checking each as ``ZipEntryStream`` does (limits, sizes, checksums, DTDs), so
  /// that a hostile part anywhere refuses the package, even one a conversion would copy without reading.
  ///
  /// - Parameter skipped: an entry the caller reads to its end itself (a converted sheet), so it is not inflated
  ///   twice.
  /// - Throws: ``ZipError`` of the first entry refused.
  public func inflateEveryEntry(except skipped: ZipEntry? = nil) throws(ZipError) {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    for entry in entries where entry != skipped {
      let stream = try stream(entry)
      while try stream.read(into: &chunk) > 0 {}
    }
  }

  /// A second libzip archive of the same file, that writes its changes to `output` (see ``ZipArchiveSource``).
  func openForWriting(output: Int32) throws(ZipError) -> OpaquePointer {
    try Self.openArchive(path: path, descriptor: descriptor, size: size, output: output)
  }

  /// Opens an archive of `descriptor` through a duplicate of it, which the archive's source owns and closes;
  /// read-only (no `output`), `checked` by libzip's consistency check.
  private static func openArchive(
    path: String, descriptor: Int32, size: UInt64, output: Int32?, checked: Bool = true
  ) throws(ZipError) -> OpaquePointer {
    let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    guard copy >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
    guard let source = ZipArchiveSource(input: copy, size: size, output: output).makeSource() else {
      throw .cannotOpen(path: path, reason: "libzip cannot allocate a source")
    }
    var error = zip_error_t()
    zip_error_init(&error)
    defer { zip_error_fini(&error) }
    // ZIP_CHECKCONS: libzip reads every entry's local header and compares it with the entry's central directory
    // record (name, method, time, CRC-32, sizes; zeros where a data descriptor follows the data). Without it the
    // local headers are only skipped, and a package whose two descriptions of an entry disagree (what a reader
    // that trusts the local headers sees is not what fxbatch reads and checks) was accepted. The package written
    // is the one read: its reopening for writing is checked already.
    let flags = output == nil ? ZIP_RDONLY | (checked ? ZIP_CHECKCONS : 0) : 0
    guard let archive = zip_open_from_source(source, flags, &error) else {
      zip_source_free(source)
      // The check also refuses two entries of one name, which ``init(path:limits:)`` refuses naming the entry:
      // opened without the check, the package is refused for that.
      if flags & ZIP_CHECKCONS != 0, zip_error_code_zip(&error) == ZIP_ER_EXISTS {
        return try openArchive(path: path, descriptor: descriptor, size: size, output: nil, checked: false)
      }
      if zip_error_code_zip(&error) == ZIP_ER_NOZIP {
        var start = [UInt8](repeating: 0, count: 4)
        let isZipStart = FileBytes.read(from: descriptor, into: &start, fileOffset: 0) == 4 && start == [0x50, 0x4B, 3, 4]
        throw isZipStart ? .truncated(path: path) : .notAZip(path: path)
      }
      if zip_error_code_zip(&error) == ZIP_ER_INCONS { throw .inconsistent(path: path) }
      throw .damaged(path: path, reason: String(cString: zip_error_strerror(&error)))
    }
    return archive
  }

  /// Refuses a Compound File Binary file: a legacy `.xls`, or an encrypted OOXML package.
  private static func refuseCompoundFile(path: String, descriptor: Int32) throws(ZipError) {
    var signature = [UInt8](repeating: 0, count: CompoundFile.signature.count)
    guard FileBytes.read(from: descriptor, into: &signature, fileOffset: 0) == signature.count,
      signature == CompoundFile.signature
    else { return }
    if CompoundFile.isEncryptedPackage(descriptor: descriptor) { throw .passwordProtected(path: path) }
    throw .legacyWorkbook(path: path)
  }

  /// The entries of an open archive; an encrypted one refuses the package.
  private static func readEntries(_ archive: OpaquePointer, path: String) throws(ZipError) -> [ZipEntry] {
    let count = zip_get_num_entries(archive, 0)
    var entries: [ZipEntry] = []
    entries.reserveCapacity(Int(max(count, 0)))
    for index in 0..<max(count, 0) {
      var info = zip_stat_t()
      guard zip_stat_index(archive, UInt64(index), 0, &info) == 0, let name = info.name else {
        throw .damaged(path: path, reason: String(cString: zip_strerror(archive)))
      }
      if info.encryption_method != ZIP_EM_NONE { throw .passwordProtected(path: path) }
      entries.append(
        ZipEntry(
          index: Int(index), name: String(cString: name), size: info.size, compressedSize: info.comp_size,
          crc: info.crc, method: ZipCompressionMethod(number: Int(info.comp_method)),
          modificationTime: Int(info.mtime)))
    }
    return entries
  }
}
