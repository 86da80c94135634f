@preconcurrency import CZip
import Dispatch
import Synchronization

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
  /// Raw deflate data as it is made (``ZipDeflater`` into a ``ZipDeflatedStream``), copied into the package as it
  /// comes: the entry is written deflated, whatever method it had, with the size and CRC-32 the stream ends with.
  case deflatedStream(ZipDeflatedStream)

  /// Whether the content comes deflated already (libzip copies it as it is).
  var isDeflated: Bool {
    if case .deflatedStream = self { return true }
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
  /// an unnamed temporary file copied to it, the output opened only then). A replaced entry keeps
  /// its compression method and modification time (a package written twice is the same); a deflated one, and
  /// an added one, is deflated at ``deflateLevel`` (a converted sheet comes deflated already, as
  /// ``ZipEntryContent/deflatedStream(_:)``, and is copied as it comes).
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
    if !replacements.isEmpty, AtomicFile.writesInPlace(outputPath) {
      // A device, a pipe or a descriptor of this process: libzip needs a file it can seek in, copied to the output
      // once written; the output is opened only then (a FIFO's open waits for its reader, and a package that
      // fails, or whose stream is abandoned, opens nothing).
      let temporary = try archiveInTemporaryFile(replacing: replacements, path: outputPath)
      defer { close(temporary) }
      let output = try Self.output(outputPath, permissionsOf: path)
      do throws(ZipError) {
        try copy(temporary, to: output, path: outputPath)
        do { try output.commit() } catch { throw ZipError.writeFailed(path: outputPath, reason: error.description) }
      } catch {
        output.discard()
        throw error
      }
      return
    }
    let output = try Self.output(outputPath, permissionsOf: path)
    do throws(ZipError) {
      if replacements.isEmpty {
        // libzip writes nothing for an archive without changes: the copy is the file itself.
        try copy(descriptor, to: output, path: outputPath)
      } else if let seekable = output.seekableDescriptor {
        // A regular file: libzip writes the archive into the output's temporary file at once.
        try writeArchive(to: seekable, replacing: replacements, path: outputPath)
      } else {
        // It became a device or a pipe meanwhile: through an unnamed temporary file, copied to it once written.
        let temporary = try archiveInTemporaryFile(replacing: replacements, path: outputPath)
        defer { close(temporary) }
        try copy(temporary, to: output, path: outputPath)
      }
      do { try output.commit() } catch { throw ZipError.writeFailed(path: outputPath, reason: error.description) }
    } catch {
      output.discard()
      throw error
    }
  }

  /// An unnamed temporary file that libzip has written the package with the replacements to (for an output
  /// libzip cannot seek in); the caller closes it.
  private func archiveInTemporaryFile(
    replacing replacements: [(name: String, content: ZipEntryContent)], path outputPath: String
  ) throws(ZipError) -> Int32 {
    let temporary: Int32
    do { temporary = try UnnamedTemporaryFile.create(prefix: "fxbatch-zip") } catch {
      throw .writeFailed(path: outputPath, reason: error.description)
    }
    do { try writeArchive(to: temporary, replacing: replacements, path: outputPath) } catch {
      close(temporary)
      throw error
    }
    return temporary
  }

  private static func output(_ path: String, permissionsOf template: String) throws(ZipError) -> AtomicFile {
    do { return try AtomicFile(path: path, permissionsOf: template) } catch {
      throw .writeFailed(path: path, reason: error.description)
    }
  }

  /// Starts ``write(to:replacing:)`` on a thread of its own, for replacements that come as they are made (a
  /// ``ZipEntryContent/deflatedStream(_:)``, which the writing copies into the package while its maker goes on).
  ///
  /// The package must stay open until ``ZipPackageWriting/wait()`` returns; the writing only reads what never
  /// changes of it (its path, entries and descriptor, through a libzip archive of its own).
  public func startWriting(to outputPath: String, replacing replacements: [(name: String, content: ZipEntryContent)])
    -> ZipPackageWriting
  {
    ZipPackageWriting(package: self, outputPath: outputPath, replacements: replacements)
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
    case .deflatedStream(let stream):
      // The source says its bytes are deflated: libzip copies them as they are.
      return ZipDeflatedStreamSource(stream).makeSource()
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

/// A package being written on a thread of its own (``ZipPackage/startWriting(to:replacing:)``).
public final class ZipPackageWriting: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let result = Mutex<Result<Void, ZipError>?>(nil)

  fileprivate init(package: ZipPackage, outputPath: String, replacements: [(name: String, content: ZipEntryContent)]) {
    let job = UncheckedJob(package: package, replacements: replacements)
    DispatchQueue(label: "fxbatch.zip-writer").async { [self] in
      let outcome: Result<Void, ZipError>
      do throws(ZipError) {
        try job.package.write(to: outputPath, replacing: job.replacements)
        outcome = .success(())
      } catch {
        outcome = .failure(error)
      }
      // A stream the writing never read (it failed first) must not keep its deflater waiting.
      for case (_, .deflatedStream(let stream)) in job.replacements { stream.stopReading() }
      result.withLock { $0 = outcome }
      done.signal()
    }
  }

  /// The package and replacements handed to the writing's thread: the package is only read there, and only what
  /// never changes of it; the caller keeps it open until ``wait()`` returns.
  private struct UncheckedJob: @unchecked Sendable {
    let package: ZipPackage
    let replacements: [(name: String, content: ZipEntryContent)]
  }

  /// The writing's error, if it has failed already (without waiting).
  public var failure: ZipError? {
    guard case .failure(let error) = result.withLock({ $0 }) else { return nil }
    return error
  }

  /// Waits for the writing to end (its streams finished or abandoned).
  ///
  /// - Throws: ``ZipError/writeFailed(path:reason:)``, as ``ZipPackage/write(to:replacing:)``.
  public func wait() throws(ZipError) {
    done.wait()
    done.signal()
    if let failure { throw failure }
  }
}

extension ZipDeflatedStream: Equatable {
  public static func == (left: ZipDeflatedStream, right: ZipDeflatedStream) -> Bool { left === right }
}
