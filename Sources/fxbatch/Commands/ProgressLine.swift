import FXBatch
import Foundation
import Synchronization

/// A one-line fetch progress display on standard error, used only when it is a terminal.
enum ProgressLine {
  private static let shown = Mutex(false)

  @Sendable static func show(_ progress: RateFetcher.Progress) {
    shown.withLock { shown in
      shown = true
      Console.error("\r\u{1B}[Kfetching rates: \(progress.done)/\(progress.total) requests, \(progress.retries) retries")
    }
  }

  /// Ends the line, if one was shown.
  static func finish() {
    shown.withLock { shown in
      if shown { Console.error("\n") }
      shown = false
    }
  }
}
