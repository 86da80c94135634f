@preconcurrency import CZip

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a written entry holds.
public enum ZipEntryContent: Sendable, Equatable {
  /// These bytes.
  case bytes([UInt8])
  /// The contents of a file (say, a temporary file a sheet was streamed to), read while the package is written.
  case file(path: String)
  /// A file of raw deflate data (``ZipDeflater``) whose content inflates to `size` bytes with this CRC-32, copied
  /// into the package as it is: the entry is written deflated, whatever method it had.
  case deflatedFile(path: String, size: UInt64, crc: UInt32)

  /// Whether the content comes deflated already (libzip copies it as it is).
  var isDeflated: Bool {
    if case .deflatedFile = self { return true }
    return false
  }
}

extension ZipPackage {
  /// Writes a copy of the package with some entries replaced, or added, and every other entry copied as it is
  /// stored: its compressed bytes, CRC-32, name, times, extra fields and comment, in its place in the order.
  ///
  /// libzip writes the new archive (copying the untouched entries' data without inflating it, deflating the
  /// new content) into an ``AtomicFile`` beside `outputPath`, renamed into place once complete, so a failure
  /// leaves no file and the input is never touched (to a device or a pipe, which libzip cannot seek in, through
  /// an unnamed temporary file copied to it). A replaced entry keeps
  /// its compression method and modification time (a package written twice is the same); a deflated one, and
  /// an added one, is deflated at ``deflateLevel`` (a converted sheet comes deflated already, as
  /// ``ZipEntryContent/deflatedFile(path:size:crc:)``, and is copied as it is).
  ///
  /// - Parameters:
  ///   - outputPath: the package to write (replaced if it exists).
  ///   - replacements: the entries to write, by name, in the order added entries take; each name at most once.
  /// - Throws: ``ZipError/writeFailed(path:reason:)``.
  public func write(to outputPath: String, replacing replacements: [(name: String, content: ZipEntryContent)])
    throws(ZipError)
  {
    var names: Set<String> = []
    for replacement in replacements where !names.insert(replacement.name).inserted {
      throw .writeFailed(path: outputPath, reason: "\(replacement.name) is replaced twice")
    }
    let output: AtomicFile
    do { output = try AtomicFile(path: outputPath, permissionsOf: path) } catch {
      throw .writeFailed(path: outputPath, reason: error.description)
    }
    do throws(ZipError) {
      if replacements.isEmpty {
        // libzip writes nothing for an archive without changes: the copy is the file itself.
        try copy(descriptor, to: output, path: outputPath)
      } else if let seekable = output.seekableDescriptor {
        // A regular file: libzip writes the archive into the output's temporary file at once.
        try writeArchive(to: seekable, replacing: replacements, path: outputPath)
      } else {
        // A device or a pipe: libzip needs a file it can seek in, copied to the output once written.
        let temporary: Int32
        do { temporary = try UnnamedTemporaryFile.create(prefix: "fxbatch-zip") } catch {
          throw .writeFailed(path: outputPath, reason: error.description)
        }
        defer { close(temporary) }
        try writeArchive(to: temporary, replacing: replacements, path: outputPath)
        try copy(temporary, to: output, path: outputPath)
      }
      do { try output.commit() } catch { throw ZipError.writeFailed(path: outputPath, reason: error.description) }
    } catch {
      output.discard()
      throw error
    }
  }

  /// The zlib level fxbatch deflates at (added entries, and a converted sheet through ``ZipDeflater``): 1, the
  /// fastest.
  ///
  /// libzip deflates at level 9 unless told otherwise, and a converted sheet is the bulk of a package: the sheet
  /// XML of a 100,000-row workbook with the fx_* cells is 54 MB, which zlib deflates in about 5.2 s at level 9
  /// (7.4 MB), 1.5–1.9 s at level 6 (7.8 MB) and 0.4–0.6 s at level 1 (10.1 MB) on this project's machine
  /// (Python's zlib, the same library). Level 1 costs a third more bytes than level 9 and is still a fifth of
  /// the XML; the time it saves is most of a conversion's (`Benchmarks/xlsx.sh`).
  public static let deflateLevel: UInt32 = 1

  /// Has libzip write the package with the replacements to `temporary`.
  private func writeArchive(
    to temporary: Int32, replacing replacements: [(name: String, content: ZipEntryContent)], path outputPath: String
  ) throws(ZipError) {
    let archive = try openForWriting(output: temporary)
    func failure() -> ZipError {
      let reason = String(cString: zip_strerror(archive))
      zip_discard(archive)
      return .writeFailed(path: outputPath, reason: reason)
    }
    for (name, content) in replacements {
      guard let source = Self.source(of: content, in: archive) else { throw failure() }
      if let entry = entry(named: name) {
        let index = UInt64(entry.index)
        guard zip_file_replace(archive, index, source, 0) == 0 else {
          zip_source_free(source)
          throw failure()
        }
        guard zip_file_set_mtime(archive, index, time_t(entry.modificationTime), 0) == 0 else { throw failure() }
        // libzip drops the level of a replaced entry whose method is set unchanged (deflating at its default, 9);
        // "the default method" (deflate) at a level keeps it.
        if entry.method == .deflated, !content.isDeflated {
          guard zip_set_file_compression(archive, index, ZIP_CM_DEFAULT, Self.deflateLevel) == 0 else { throw failure() }
        }
      } else {
        let index = zip_file_add(archive, name, source, ZIP_FL_ENC_UTF_8)
        guard index >= 0 else {
          zip_source_free(source)
          throw failure()
        }
        guard zip_set_file_compression(archive, UInt64(index), ZIP_CM_DEFLATE, Self.deflateLevel) == 0 else {
          throw failure()
        }
      }
    }
    // zip_close frees the archive when it succeeds, and leaves it open when it fails.
    guard zip_close(archive) == 0 else { throw failure() }
  }

  /// A libzip source of new content; a copy of `bytes`, which libzip frees.
  private static func source(of content: ZipEntryContent, in archive: OpaquePointer) -> OpaquePointer? {
    switch content {
    case .bytes(let bytes):
      guard !bytes.isEmpty else { return zip_source_buffer(archive, nil, 0, 0) }
      guard let copy = malloc(bytes.count) else { return nil }
      bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
      guard let source = zip_source_buffer(archive, copy, UInt64(bytes.count), 1) else {
        free(copy)
        return nil
      }
      return source
    case .file(let path):
      return zip_source_file(archive, path, 0, -1)
    case .deflatedFile(let path, let size, let crc):
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      var info = stat()
      guard fstat(descriptor, &info) == 0 else {
        close(descriptor)
        return nil
      }
      // The source takes the descriptor over, and says its bytes are deflated: libzip copies them as they are.
      return ZipArchiveSource(
        input: descriptor, size: UInt64(info.st_size), output: nil, deflated: (size: size, crc: crc)
      ).makeSource()
    }
  }

  /// Copies a whole file, from its start, to the output.
  private func copy(_ descriptor: Int32, to output: AtomicFile, path outputPath: String) throws(ZipError) {
    do throws(OutputError) {
      guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw .writeFailed(reason: String(cString: strerror(errno))) }
      if try output.sink.transfer(from: descriptor) { return }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let got = FileBytes.read(from: descriptor, into: &chunk)
        guard got >= 0 else { throw .writeFailed(reason: String(cString: strerror(errno))) }
        if got == 0 { return }
        try output.sink.write(chunk[..<got])
      }
    } catch {
      throw .writeFailed(path: outputPath, reason: error.description)
    }
  }
}
