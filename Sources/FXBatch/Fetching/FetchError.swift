/// Why a request finally failed, after its retries.
public indirect enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The last answer had this HTTP status (5xx or 429 after all retries, or another 4xx at once).
  case httpStatus(Int, url: String, attempts: Int, body: String)
  /// No answer within the timeout, `attempts` times.
  case timeout(seconds: Double, attempts: Int)
  /// The connection failed, `attempts` times.
  case connection(String, attempts: Int)
  /// The answer came slower than the transport's minimum rate (`bytesPerSecond` over `seconds`), `attempts`
  /// times.
  case tooSlow(bytesPerSecond: Int, seconds: Int, attempts: Int)
  /// The answer was not acceptable whatever the retry: too large, or redirected to another origin.
  case refused(String)
  /// The run's fetch deadline (`--deadline`, `seconds`) ended the request: before it was sent (`attempts` 0),
  /// during an attempt (`last` is `nil`), or after the failure `last` when no retry fitted before it.
  case deadline(seconds: Double, attempts: Int, last: FetchError?, retryAfter: String?)

  public var attempts: Int {
    switch self {
    case .httpStatus(_, _, let attempts, _), .timeout(_, let attempts), .connection(_, let attempts),
      .tooSlow(_, _, let attempts), .deadline(_, let attempts, _, _):
      return attempts
    case .refused: return 1
    }
  }

  public var description: String {
    let tries = attempts == 1 ? "" : " after \(attempts) attempts"
    switch self {
    case .httpStatus(let status, _, _, _): return "HTTP \(status)\(tries)"
    case .timeout(let seconds, _): return "no answer in \(Self.seconds(seconds)) s\(tries)"
    case .connection(let reason, _): return "\(reason)\(tries)"
    case .tooSlow(let rate, let seconds, _):
      return "the answer came slower than \(rate) bytes per second for \(seconds) s\(tries)"
    case .refused(let reason): return reason
    case .deadline(let seconds, let attempts, let last, let retryAfter):
      let limit = "the fetch deadline (--deadline \(Self.seconds(seconds)) s)"
      guard attempts > 0 else { return "not sent: \(limit) had passed" }
      guard let last else { return "no answer within \(limit)\(tries)" }
      let asked = retryAfter.map { " (Retry-After: \($0))" } ?? ""
      return "\(last)\(asked); \(limit) leaves no time to retry"
    }
  }

  /// Seconds as messages write them: `10`, `0.5`.
  static func seconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  /// The per-row error for the keys of a failed request.
  public var rowError: RowError {
    switch self {
    case .httpStatus(let status, _, _, _) where (400...499).contains(status) && status != 429:
      return RowError(.badResponse, description)
    case .httpStatus: return RowError(.sourceUnavailable, description)
    case .timeout, .tooSlow, .deadline: return RowError(.timeout, description)
    case .connection: return RowError(.sourceUnavailable, description)
    case .refused: return RowError(.badResponse, description)
    }
  }
}
