import FXBatch
import Foundation
import Synchronization

/// A one-line progress display on standard error (rate fetches, big files), used only when it is a terminal.
enum ProgressLine {
  private static let shown = Mutex(false)

  @Sendable static func show(_ progress: RateFetcher.Progress) {
    shown.withLock { shown in
      shown = true
      Console.error("\r\u{1B}[Kfetching rates: \(progress.done)/\(progress.total) requests, \(progress.retries) retries")
    }
  }

  /// A bar for a pass over a file: `converting payments.csv [#########-----------]  45%  1.21 M records/s`.
  @Sendable static func show(_ progress: BatchProgress) {
    let fraction = progress.bytesTotal > 0 ? Double(progress.bytesDone) / Double(progress.bytesTotal) : 0
    let width = 20
    let filled = min(width, Int(fraction * Double(width)))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let rate =
      progress.recordsPerSecond >= 1_000_000
      ? String(format: "%.2f M", progress.recordsPerSecond / 1_000_000)
      : String(format: "%.0f k", progress.recordsPerSecond / 1_000)
    let verb = progress.pass == 1 ? "reading" : "converting"
    shown.withLock { shown in
      shown = true
      Console.error(
        "\r\u{1B}[K\(verb) \(progress.file) [\(bar)] \(String(format: "%3d", Int(fraction * 100)))%  \(rate) records/s")
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
