import FXBatch
import Foundation

/// The CLI's two text streams: standard output for data, standard error for summaries and messages.
///
/// Written with write(2): Foundation's `FileHandle.write(_:)` traps when the write fails (a full disk behind
/// `> file`, `/dev/full`), which crashed the run with a backtrace instead of saying why.
enum Console {
  /// Writes to standard output; when that fails, says why on standard error and ends the run with status 2
  /// (what was meant for standard output is lost: no later step may count it as written).
  static func out(_ text: String) {
    if let failure = write(text, to: 1) {
      error("fxbatch: error: cannot write to standard output: \(String(cString: strerror(failure)))\n")
      PendingFiles.removeAll()
      exit(ExitStatus.fileRefused.code)
    }
  }

  /// Writes to standard error; a failure there has nowhere to be told, and is ignored.
  static func error(_ text: String) { _ = write(text, to: 2) }

  /// Writes all of a text to a descriptor; the `errno` of a failure, or `nil`.
  private static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      bytes = bytes.dropFirst(written)
    }
    return nil
  }
}
