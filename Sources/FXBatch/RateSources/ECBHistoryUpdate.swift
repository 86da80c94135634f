import Foundation

/// `rates update`: fetches the ECB's full history, checks it against the embedded one and keeps it in the rate
/// cache, where later runs on the embedded source find it (``EmbeddedECBHistory/newest(cache:)``).
public enum ECBHistoryUpdate {
  /// What was kept.
  public struct Outcome: Sendable, Equatable {
    /// The number of publication days fetched, and the first and last of them.
    public let days: Int
    public let firstDay: CalendarDay
    public let lastDay: CalendarDay
    /// The cache directory it was kept in.
    public let cachePath: String

    /// One line for the user: the days kept, and whether they reach past the embedded history.
    public var summary: String {
      let embeddedLast = EmbeddedECBHistory.table.lastDay.map(String.init(describing:)) ?? "?"
      let verdict = lastDay > (EmbeddedECBHistory.table.lastDay ?? lastDay) ? "newer than" : "not newer than"
      return
        "fetched \(days) days, \(firstDay) .. \(lastDay), into \(cachePath); \(verdict) the embedded history (ends \(embeddedLast))"
    }
  }

  /// Why nothing was kept.
  public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The history could not be fetched (a network failure, a timeout, an HTTP error).
    case unreachable(url: String, error: RowError)
    /// The cache could not be opened or written, or the history is larger than the cache keeps: a message.
    case unusable(String)
    /// The service's answer is not a history of euro reference rates, or disagrees with the embedded one.
    case badAnswer(String)

    public var description: String {
      switch self {
      case .unreachable(let url, let error): return "fxbatch: \(url): \(error)"
      case .unusable(let message), .badAnswer(let message): return message
      }
    }
  }

  /// Fetches `eurofxref-hist.xml` under an endpoint and keeps it in the cache at a directory.
  ///
  /// - Parameters:
  ///   - endpoint: the ECB files' directory (``ECBFeedProvider/defaultEndpoint``).
  ///   - cacheDirectory: the rate cache's directory (created when missing).
  ///   - timeout: seconds an answer may take; `deadline`: the limit of the whole fetch, retries included.
  ///   - today: today, so that a history with later days is refused (`nil`: its own last day).
  ///   - transport: the transport; `nil` for a ``CurlTransport``.
  /// - Returns: what was kept, or why nothing was.
  public static func run(
    endpoint: URL, cacheDirectory: String, timeout: TimeInterval, deadline: FetchDeadline, today: CalendarDay?,
    transport: (any HTTPTransport)? = nil
  ) -> Result<Outcome, Failure> {
    let cache: RateCache
    do { cache = try RateCache(directory: cacheDirectory) } catch { return .failure(.unusable(error.description)) }
    let url = ECBFeedProvider.historyURL(endpoint: endpoint)
    let fetcher = RateFetcher(
      transport: transport ?? CurlTransport(maximumConnections: 1, timeout: timeout), jobs: 1, timeout: timeout,
      retryPolicy: RetryPolicy(), deadline: deadline)
    let response: HTTPResponse
    switch fetcher.fetch([url]).results[0] {
    case .success(let answer): response = answer
    case .failure(let error): return .failure(.unreachable(url: url.absoluteString, error: error.rowError))
    }
    let info = RateSourceInfo(identifier: "ecb", publisher: "ECB", description: url.absoluteString)
    let table: RateTable
    do {
      table = try [UInt8](response.body).withUnsafeBufferPointer { buffer throws(RatesFileError) in
        try ECBXMLFeed.parse(buffer, path: url.absoluteString, info: info)
      }
    } catch {
      return .failure(.badAnswer(error.description))
    }
    guard let csv = ECBHistoryCSV.render(table), let first = table.firstDay, let last = table.lastDay else {
      // Kept as an ECB history CSV, where a day takes 4 bytes per currency with or without rates.
      let reason =
        table.pairs.allSatisfy({ $0.base == .euro })
        ? "its \(table.days.count) days × \(table.pairs.count) currencies are larger than the rate cache keeps (\(ECBHistoryCSV.maximumTextSize >> 20) MB as an ECB history CSV); nothing was kept"
        : "not a history of euro reference rates"
      let message = "fxbatch: \(url.absoluteString): \(reason)"
      return .failure(table.pairs.allSatisfy({ $0.base == .euro }) ? .unusable(message) : .badAnswer(message))
    }
    if let problem = EmbeddedECBHistory.disagreement(with: table, today: today ?? last) {
      return .failure(.badAnswer("fxbatch: \(url.absoluteString): \(problem); nothing was kept"))
    }
    do { try cache.storeHistory(csv: csv, lastDay: last, source: EmbeddedECBHistory.cacheSource) } catch {
      return .failure(.unusable(error.description))
    }
    return .success(Outcome(days: table.days.count, firstDay: first, lastDay: last, cachePath: cache.path))
  }
}
