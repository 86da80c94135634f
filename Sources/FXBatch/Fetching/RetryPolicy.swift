import Foundation

/// When and how long to wait before asking again.
///
/// Retried: timeouts, connection errors, HTTP 5xx and 429. Not retried: other 4xx. The wait is exponential
/// backoff with full jitter (`random(0 ... base × 2^(attempt−1))`, at most ``maximumDelay``), or the
/// server's `Retry-After` (seconds or an HTTP date, RFC 9110 §10.2.3) when it sends one, capped at
/// ``maximumRetryAfter`` so a run always ends.
public struct RetryPolicy: Sendable {
  /// Retries after the first attempt (`--retries`, default 3).
  public var retries: Int
  /// The first backoff step in seconds (`--retry-delay`, default 0.5).
  public var baseDelay: TimeInterval
  /// The longest backoff step in seconds.
  public var maximumDelay: TimeInterval = 8
  /// The longest `Retry-After` honoured, in seconds.
  public var maximumRetryAfter: TimeInterval = 30

  public init(retries: Int = 3, baseDelay: TimeInterval = 0.5) {
    self.retries = retries
    self.baseDelay = baseDelay
  }

  /// Whether an HTTP status is worth another attempt.
  public static func isRetryable(status: Int) -> Bool { status == 429 || (500...599).contains(status) }

  /// Seconds to wait before attempt `attempt + 1`.
  ///
  /// - Parameters:
  ///   - attempt: the attempt that just failed (1 for the first).
  ///   - retryAfter: the response's `Retry-After` value, if any.
  ///   - now: the current time, for an HTTP-date `Retry-After`.
  public func delay(after attempt: Int, retryAfter: String?, now: Date = Date()) -> TimeInterval {
    if let retryAfter, let seconds = Self.seconds(retryAfter: retryAfter, now: now) {
      return min(max(seconds, 0), maximumRetryAfter)
    }
    let ceiling = min(baseDelay * pow(2, Double(attempt - 1)), maximumDelay)
    return Double.random(in: 0...max(ceiling, 0))
  }

  /// A `Retry-After` value in seconds: delta-seconds or an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
  static func seconds(retryAfter: String, now: Date) -> TimeInterval? {
    let text = retryAfter.trimmingWhitespace
    // delay-seconds is 1*DIGIT, of any length: a value past Int (`99999999999999999999`) asks for a very long
    // wait, not for none (it was ignored, and the run retried at once, four times in 2 s).
    if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
      return Int(text).map(TimeInterval.init) ?? .infinity
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: text) else { return nil }
    return date.timeIntervalSince(now)
  }
}
