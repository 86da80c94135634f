import Foundation

/// The ECB's reference-rate files over HTTP (`--source ecb`): `eurofxref-daily.xml` (the latest day),
/// `eurofxref-hist-90d.xml` (about the last 90 days) and `eurofxref-hist.xml` (since 1999-01-04), under
/// https://www.ecb.europa.eu/stats/eurofxref/ by default. One request serves the whole batch: the smallest
/// file that covers every date asked.
public struct ECBFeedProvider: TableRateProvider {
  /// The directory holding the three files.
  public let endpoint: URL
  public let info: RateSourceInfo
  public let firstDay = ECBCoverage.firstDay

  public static let defaultEndpoint = URL(string: "https://www.ecb.europa.eu/stats/eurofxref/")!

  public init(endpoint: URL = ECBFeedProvider.defaultEndpoint) {
    self.endpoint = endpoint
    info = RateSourceInfo(
      identifier: "ecb", publisher: "ECB", description: "ECB euro foreign exchange reference rates (\(endpoint.displayText))")
  }

  /// The feed's table gives the same errors (``RateTable/quote(for:maxStaleness:)`` under the table's
  /// ``RateTable/Coverage``), word for word: a record's message does not depend on whether the run fetched the
  /// feed, and a `--frozen` run of its lock repeats it.
  public func precheck(_ key: RateKey, today: CalendarDay) -> RowError? {
    for currency in [key.pair.base, key.pair.quote] where !ECBCoverage.currencies.contains(currency) {
      return RowError(.noRate, "the \(info.publisher) rates have no \(currency) rates at all")
    }
    let first = ECBCoverage.firstDay
    if key.day < first {
      return RowError(
        .dateOutOfRange, "\(key.day) is before the \(info.publisher) rates start (\(first)); no earlier rate exists")
    }
    if key.day > today { return RowError(.dateOutOfRange, "\(key.day) is in the future; no rates exist for it yet") }
    return nil
  }

  /// The file for a set of dates: the daily file when all are today, the 90-day file when all are within
  /// 85 days (the file holds about 64 publication days), else the full history.
  public func requests(for keys: [RateKey], today: CalendarDay, maxStaleness: Int) -> [RateRequest] {
    guard let oldest = keys.map(\.day).min() else { return [] }
    let name: String
    if oldest >= today {
      name = "eurofxref-daily.xml"
    } else if today.days(since: oldest) <= 85 {
      name = "eurofxref-hist-90d.xml"
    } else {
      name = "eurofxref-hist.xml"
    }
    return [RateRequest(url: endpoint.appendingPathComponent(name), keys: keys)]
  }

  public func answers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<
    RateQuote, RowError
  >] {
    let table: RateTable
    do {
      table = try parse(response, request: request)
    } catch {
      return failAll(request, Self.badResponse(error, request: request))
    }
    return Dictionary(uniqueKeysWithValues: request.keys.map { ($0, table.quote(for: $0, maxStaleness: maxStaleness)) })
  }

  /// The feed as a table with no rates after `today` (``RateTable/Coverage/validThrough``): the same answer
  /// ``precheck(_:today:)`` gives such a key.
  public func table(from response: HTTPResponse, request: RateRequest, today: CalendarDay) throws(RatesFileError) -> RateTable {
    var table = try parse(response, request: request)
    // Whichever file answered (the 90-day one too), the ECB's rates start in 1999: an earlier day is out of
    // range, a later one not in the file is not held.
    table.coverage.firstDay = ECBCoverage.firstDay
    table.coverage.validThrough = today
    return table
  }

  /// The table of a run that asks the feed nothing (every key is refused by ``precheck(_:today:)`` or is in one
  /// currency): no rows, the feed's currencies and bounds, so its rules and a lock of it give the same answers.
  public func emptyTable(today: CalendarDay) -> RateTable {
    let pairs = EmbeddedECBHistory.table.pairs
    var table = RateTable(
      info: info, pairs: pairs, days: [], grid: RateGrid(Array(repeating: nil, count: pairs.count)), undated: false)
    table.coverage.firstDay = ECBCoverage.firstDay
    table.coverage.lastDay = today
    table.coverage.validThrough = today
    return table
  }

  /// The cache keeps the feed in the ECB history CSV layout (``ECBHistoryCSV``).
  public func cachedTable(_ bytes: [UInt8], path: String, today: CalendarDay, fetchedOn: CalendarDay) throws(RatesFileError)
    -> RateTable
  {
    var table = try bytes.withUnsafeBufferPointer { buffer throws(RatesFileError) in
      try ECBHistoryCSV.parse(buffer, path: path, info: info)
    }
    table.coverage.firstDay = ECBCoverage.firstDay
    table.coverage.validThrough = today
    // The fetch saw every publication up to its day: the last row decides days up to then, no later ones.
    let days = table.days
    let nextDays: [CalendarDay?] = days.indices.map { row in
      row + 1 < days.count ? days[row + 1] : max(days[row], fetchedOn).adding(days: 1)
    }
    table.coverage.partial = RateTable.Partial(
      holder: "the rate cache \(path) (the ECB feed as fetched on \(fetchedOn))", nextDays: nextDays,
      keptColumns: table.pairs.count)
    return table
  }

  public func tableText(_ table: RateTable) -> String? { ECBHistoryCSV.render(table) }

  /// The `bad_response` error of a body that is not a feed.
  static func badResponse(_ error: RatesFileError, request: RateRequest) -> RowError {
    RowError(.badResponse, "\(request.url.lastPathComponent): \(error.message) (line \(error.line))")
  }

  private func parse(_ response: HTTPResponse, request: RateRequest) throws(RatesFileError) -> RateTable {
    // Read in place: a full history is 8 MB.
    let parsed: Result<RateTable, RatesFileError> = response.body.withUnsafeBytes { raw in
      do throws(RatesFileError) {
        return .success(try ECBXMLFeed.parse(raw.bindMemory(to: UInt8.self), path: request.url.lastPathComponent, info: info))
      } catch {
        return .failure(error)
      }
    }
    return try parsed.get()
  }
}
