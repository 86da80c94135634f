#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output file written under a temporary name in its final directory and renamed into place only when
/// complete, so a reader never sees a half-written file and a failed run leaves nothing behind.
public final class AtomicFile {
  /// The final path.
  public let path: String
  private let temporaryPath: String
  /// The sink to write the content to.
  public let sink: ByteSink
  private let descriptor: Int32
  private var finished = false

  /// Creates the temporary file beside `path`.
  ///
  /// - Throws: ``OutputError/cannotCreate(path:reason:)``.
  public init(path: String) throws(OutputError) {
    self.path = path
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var attempt = 0
    var candidate = ""
    var descriptor: Int32 = -1
    repeat {
      attempt += 1
      candidate = "\(directory).\(name).fxbatch-\(getpid())-\(attempt).tmp"
      descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    } while descriptor < 0 && errno == EEXIST && attempt < 100
    guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
    self.descriptor = descriptor
    temporaryPath = candidate
    sink = ByteSink(descriptor: descriptor)
  }

  /// Flushes, closes and renames the file into place.
  ///
  /// - Throws: ``OutputError`` when writing or renaming fails (the temporary file is then removed).
  public func commit() throws(OutputError) {
    guard !finished else { return }
    finished = true
    do {
      try sink.flush()
    } catch {
      close(descriptor)
      unlink(temporaryPath)
      throw error
    }
    close(descriptor)
    guard rename(temporaryPath, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporaryPath)
      throw .cannotRename(path: path, reason: reason)
    }
  }

  /// Removes the temporary file without touching `path`.
  public func discard() {
    guard !finished else { return }
    finished = true
    close(descriptor)
    unlink(temporaryPath)
  }

  deinit { discard() }
}
