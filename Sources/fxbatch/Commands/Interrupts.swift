import Dispatch
import FXBatch
import Foundation

/// Removes the run's temporary files when it is interrupted (SIGINT, SIGTERM, SIGHUP), then exits with status
/// 128 + the signal number, as shells report a process killed by that signal.
enum Interrupts {
  /// Kept alive for the life of the process. Written only by `install()`, once, on the main thread before
  /// any other thread exists; never read.
  nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

  static func install() {
    // A file written past `ulimit -f` is a write that fails (EFBIG), which the run reports or works around (a
    // part's temporary file), not a signal that kills it and leaves its temporary files.
    signal(SIGXFSZ, SIG_IGN)
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler {
        PendingFiles.removeAll()
        // Not raise(): libdispatch keeps signals blocked on its threads, so a re-raised signal would stay pending.
        _exit(128 + signalNumber)
      }
      source.resume()
      sources.append(source)
    }
  }
}
