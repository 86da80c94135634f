import Dispatch
import FXBatch
import Foundation
import Synchronization

/// Removes the run's temporary files when it is interrupted (SIGINT, SIGTERM, SIGHUP), then exits with status
/// 128 + the signal number, as shells report a process killed by that signal.
///
/// A signal that comes once the run has finished its work — every file it writes renamed into place
/// (``finished(_:)``), only its summary left to print — interrupts nothing: the process exits with the run's
/// own status at once, not 128 + N, which would tell a script that complete outputs were cut short.
enum Interrupts {
  /// Kept alive for the life of the process. Written only by `install()`, once, on the main thread before
  /// any other thread exists; never read.
  nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
  /// The status of the finished run, or -1 while it works.
  private static let finishedStatus = Atomic<Int32>(-1)

  static func install() {
    // A file past the size limit (`ulimit -f`) raises SIGXFSZ, which kills the process without a word and
    // leaves its temporary files; ignored, the write fails with EFBIG and the run reports it as any full disk.
    signal(SIGXFSZ, SIG_IGN)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        let finished = finishedStatus.load(ordering: .sequentiallyConsistent)
        if finished >= 0 { _exit(finished) }
        PendingFiles.removeAll()
        // Not raise(): libdispatch keeps signals blocked on its threads, so a re-raised signal would stay pending.
        _exit(128 + signalNumber)
      }
      source.resume()
      sources.append(source)
    }
  }

  /// Marks the run finished: every file it writes is in place. Called right after the last of them is renamed;
  /// a signal handled in the instant between the rename and this call still exits 128 + N.
  ///
  /// - Parameter status: the run's exit status.
  /// - Returns: `status`.
  @discardableResult
  static func finished(_ status: Int32) -> Int32 {
    finishedStatus.store(status, ordering: .sequentiallyConsistent)
    return status
  }
}
