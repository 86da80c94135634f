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
  /// The temporary file, or `nil` when writing straight to a device or pipe.
  private let temporaryPath: String?
  /// The sink to write the content to.
  public let sink: ByteSink
  private let descriptor: Int32
  private var finished = false

  /// Creates the temporary file beside `path`.
  ///
  /// The finished file gets the permissions of the file it replaces; a new file gets those of
  /// `permissionsOf` (the input it is made from, so a private input stays private), or `mode`.
  ///
  /// - Parameters:
  ///   - path: the final path.
  ///   - permissionsOf: a file whose permission bits a new file copies.
  ///   - mode: the permission bits of a new file when there is no such file (default 0644 less the umask).
  /// - Throws: ``OutputError/cannotCreate(path:reason:)``.
  public init(path: String, permissionsOf template: String? = nil, mode: mode_t? = nil) throws(OutputError) {
    self.path = path
    // `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`: a descriptor of this process, written through (a copy of)
    // it, whatever it is open on — renaming a file over the name would replace `/dev/stdout` itself (as root),
    // and reopening a regular file by the name would lose its offset and append mode.
    if let open = Self.openDescriptor(named: path) {
      let descriptor = fcntl(open, F_DUPFD_CLOEXEC, 0)
      guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
      self.descriptor = descriptor
      temporaryPath = nil
      sink = ByteSink(descriptor: descriptor)
      return
    }
    // A device or a pipe (`-o /dev/null`, a FIFO) is written to directly: renaming a file over it would
    // replace the device itself.
    if Self.namesDeviceOrPipe(path) {
      let descriptor = open(path, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
      self.descriptor = descriptor
      temporaryPath = nil
      sink = ByteSink(descriptor: descriptor)
      return
    }
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var attempt = 0
    var candidate = ""
    var descriptor: Int32 = -1
    repeat {
      attempt += 1
      candidate = directory + StaleTemporaryFiles.atomicName(of: name, pid: getpid(), attempt: attempt)
      // Pending before it exists: an interrupt between its creation and its registration would leave it behind.
      PendingFiles.add(candidate)
      descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if descriptor < 0 {
        let error = errno
        PendingFiles.remove(candidate)
        errno = error
      }
    } while descriptor < 0 && errno == EEXIST && attempt < 100
    guard descriptor >= 0 else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
    var info = stat()
    if stat(path, &info) == 0 || (template.map { stat($0, &info) == 0 } ?? false) {
      fchmod(descriptor, info.st_mode & 0o7777)
    } else if let mode {
      fchmod(descriptor, mode)
    }
    self.descriptor = descriptor
    temporaryPath = candidate
    sink = ByteSink(descriptor: descriptor)
  }

  /// The temporary file's descriptor, for a writer that writes at offsets of its own (`pwrite(2)`) rather than
  /// through ``sink``; `nil` when writing straight to a device or pipe, which cannot seek.
  public var seekableDescriptor: Int32? { temporaryPath == nil ? nil : descriptor }

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
      if let temporaryPath {
        unlink(temporaryPath)
        PendingFiles.remove(temporaryPath)
      }
      throw error
    }
    close(descriptor)
    guard let temporaryPath else { return }
    defer { PendingFiles.remove(temporaryPath) }
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
    guard let temporaryPath else { return }
    unlink(temporaryPath)
    PendingFiles.remove(temporaryPath)
  }

  deinit { discard() }

  /// Whether an output at `path` is written straight to what is there (a descriptor of this process, a device, a
  /// FIFO) rather than through a temporary file renamed into place: opening one may wait (a FIFO waits for its
  /// reader) and writes to it cannot be taken back, so a writer that may fail late opens it last.
  public static func writesInPlace(_ path: String) -> Bool {
    openDescriptor(named: path) != nil || namesDeviceOrPipe(path)
  }

  /// Whether `path` names something that is there and is neither a regular file nor a directory (a device, a
  /// FIFO, a socket).
  private static func namesDeviceOrPipe(_ path: String) -> Bool {
    var existing = stat()
    return stat(path, &existing) == 0 && existing.st_mode & S_IFMT != S_IFREG && existing.st_mode & S_IFMT != S_IFDIR
  }

  /// The descriptor of this process a path names — `/dev/fd/N`, `/proc/self/fd/N` or `/proc/PID/fd/N` (this
  /// process's), or a symbolic link that leads to one (`/dev/stdout` → `/proc/self/fd/1`) — when it is open.
  static func openDescriptor(named path: String) -> Int32? {
    var name = path
    for _ in 0..<40 {
      for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where name.hasPrefix(prefix) {
        guard let number = Int32(name.dropFirst(prefix.count)), number >= 0, fcntl(number, F_GETFD) >= 0 else {
          return nil
        }
        return number
      }
      // Follow one symbolic link (relative targets from the link's directory).
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(name, &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if target.hasPrefix("/") {
        name = target
      } else {
        let directory = name.lastIndex(of: "/").map { String(name[...$0]) } ?? ""
        name = directory + target
      }
    }
    return nil
  }
}
