#if canImport(Glibc)
  import Glibc
#endif

/// Writes a workbook's annotated copy: one entry of its package (the sheet, or `content.xml`) streamed through
/// a rewrite into an unnamed temporary file, then the package written with that entry replaced and every other
/// entry copied as it is stored (``ZipPackage/write(to:replacing:)``).
enum WorkbookPackageRewrite {
  /// - Parameters:
  ///   - package: the workbook.
  ///   - entry: the entry rewritten.
  ///   - outputPath: the annotated copy.
  ///   - displayPath: the name the user gave, for messages.
  ///   - rewrite: reads the entry's stream and writes the new entry's bytes.
  /// - Throws: ``FileError``.
  static func write(
    _ package: ZipPackage, replacing entry: ZipEntry, to outputPath: String, displayPath: String,
    rewrite: (ZipEntryStream, _ write: ([UInt8]) throws(FileError) -> Void) throws(FileError) -> Void
  ) throws(FileError) {
    let temporary: Int32
    do { temporary = try UnnamedTemporaryFile.create(prefix: "fxbatch-part") } catch {
      throw FileError(path: displayPath, message: error.description)
    }
    defer { close(temporary) }
    let sink = ByteSink(descriptor: temporary)
    let stream: ZipEntryStream
    do { stream = try package.stream(entry) } catch {
      throw FileError.package(error.description, readPath: package.path, displayPath: displayPath)
    }
    try rewrite(stream) { bytes throws(FileError) in
      do { try sink.write(bytes) } catch { throw FileError(path: displayPath, message: "\(error)") }
    }
    do { try sink.flush() } catch { throw FileError(path: displayPath, message: "\(error)") }
    do {
      try package.write(to: outputPath, replacing: [(entry.name, .file(path: "/proc/self/fd/\(temporary)"))])
    } catch {
      throw FileError.package(error.description, readPath: outputPath, displayPath: displayPath)
    }
  }
}
