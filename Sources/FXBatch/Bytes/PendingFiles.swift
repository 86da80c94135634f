import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Temporary files a run has created and not yet renamed or removed (output being written, standard input
/// spooled), so that an interrupted run (SIGINT, SIGTERM) can remove them instead of leaving them behind.
public enum PendingFiles {
  private static let paths = Mutex<Set<String>>([])

  static func add(_ path: String) { paths.withLock { _ = $0.insert(path) } }
  static func remove(_ path: String) { paths.withLock { _ = $0.remove(path) } }

  /// Unlinks every pending temporary file; for a signal handler before the process exits.
  public static func removeAll() {
    paths.withLock { pending in
      for path in pending { unlink(path) }
      pending.removeAll()
    }
  }
}
