/// Why a request finally failed, after its retries.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The last answer had this HTTP status (5xx or 429 after all retries, or another 4xx at once).
  case httpStatus(Int, url: String, attempts: Int, body: String)
  /// No answer within the timeout, `attempts` times.
  case timeout(seconds: Double, attempts: Int)
  /// The connection failed, `attempts` times.
  case connection(String, attempts: Int)
  /// The answer was not acceptable whatever the retry: too large, or redirected to another origin.
  case refused(String)

  public var attempts: Int {
    switch self {
    case .httpStatus(_, _, let attempts, _), .timeout(_, let attempts), .connection(_, let attempts): return attempts
    case .refused: return 1
    }
  }

  public var description: String {
    let tries = attempts == 1 ? "" : " after \(attempts) attempts"
    switch self {
    case .httpStatus(let status, _, _, _): return "HTTP \(status)\(tries)"
    case .timeout(let seconds, _):
      let shown = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
      return "no answer in \(shown) s\(tries)"
    case .connection(let reason, _): return "\(reason)\(tries)"
    case .refused(let reason): return reason
    }
  }

  /// The per-row error for the keys of a failed request.
  public var rowError: RowError {
    switch self {
    case .httpStatus(let status, _, _, _) where (400...499).contains(status) && status != 429:
      return RowError(.badResponse, description)
    case .httpStatus: return RowError(.sourceUnavailable, description)
    case .timeout: return RowError(.timeout, description)
    case .connection: return RowError(.sourceUnavailable, description)
    case .refused: return RowError(.badResponse, description)
    }
  }
}
