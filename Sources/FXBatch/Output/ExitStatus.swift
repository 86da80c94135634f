/// The exit statuses of `fxbatch`, every command: the one table help, the man page, the summary and the report
/// read them from.
///
/// A script tells a bad record (1) from a dead source (3) and a refused file (2): when several happen, the file
/// wins over the source, and the source over the records (``severity``).
public enum ExitStatus: Int32, CaseIterable, Sendable {
  /// Every record converted (fallback included), or the command did what it was asked.
  case success = 0
  /// Records failed on their own data (amount, currency, date, field), more than `--max-errors` allows; for
  /// `rates show`, no rate for the pair; for `rates export`, a pair not exported.
  case recordErrors = 1
  /// A file was refused: an input could not be read, parsed or written, a lock file or report was not written.
  case fileRefused = 2
  /// A rate source failed for some keys (unreachable, timeouts, unusable answers: ``RowError/Code/isAboutTheExchange``),
  /// more than `--max-source-errors` allows.
  case sourceFailed = 3
  /// A mistake on the command line (BSD `EX_USAGE`).
  case usage = 64
  /// Interrupted by SIGINT (Ctrl-C): 128 + 2, as shells report it; SIGTERM gives 143, SIGHUP 129.
  case interrupted = 130

  /// The status as `exit(3)` takes it.
  public var code: Int32 { rawValue }

  /// The status in one word, for the summary's last line and the report's `exitStatusName`.
  public var name: String {
    switch self {
    case .success: "ok"
    case .recordErrors: "record-errors"
    case .fileRefused: "file-refused"
    case .sourceFailed: "source-failed"
    case .usage: "usage"
    case .interrupted: "interrupted"
    }
  }

  /// What the status means, for help and the man page.
  public var meaning: String {
    switch self {
    case .success: "success: every record converted (fallback included)"
    case .recordErrors: "records failed on their own data (amount, currency, date, field)"
    case .fileRefused: "a file was refused (not read, parsed or written); wins over 1 and 3"
    case .sourceFailed: "a rate source failed for some keys (source_unavailable, timeout, bad_response); wins over 1"
    case .usage: "usage error"
    case .interrupted: "interrupted (SIGINT; SIGTERM 143, SIGHUP 129)"
    }
  }

  /// Which status wins when several apply: a refused file over a failed source over failed records.
  public var severity: Int {
    switch self {
    case .success: 0
    case .recordErrors: 1
    case .sourceFailed: 2
    case .fileRefused: 3
    case .usage: 4
    case .interrupted: 5
    }
  }

  /// The status that wins of two (``severity``).
  public static func worst(_ a: ExitStatus, _ b: ExitStatus) -> ExitStatus { a.severity >= b.severity ? a : b }

  /// The `EXIT STATUS:` lines of help: each status and its meaning.
  public static var helpText: String {
    "EXIT STATUS:\n"
      + allCases.map { status in
        let number = String(status.rawValue)
        return "  " + number + String(repeating: " ", count: max(1, 4 - number.count)) + status.meaning
      }.joined(separator: "\n")
  }
}

extension ExitStatus {
  /// The status of a command that failed for one record or key: 3 when the source failed
  /// (``RowError/Code/isAboutTheExchange``), else 1.
  public static func of(_ error: RowError) -> ExitStatus { error.code.isAboutTheExchange ? .sourceFailed : .recordErrors }
}
