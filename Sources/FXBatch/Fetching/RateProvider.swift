import Foundation

/// One HTTP request a provider wants sent, and the rate keys its answer serves.
public struct RateRequest: Sendable, Equatable {
  public let url: URL
  public let keys: [RateKey]

  public init(url: URL, keys: [RateKey]) {
    self.url = url
    self.keys = keys
  }
}

/// A rate service reachable over HTTP: what it can serve, how to ask it, how to read its answers.
///
/// The planner calls ``precheck(_:)`` for each distinct key (a key that cannot succeed is never sent), then
/// ``requests(for:today:maxStaleness:)`` once with the rest; the fetch engine sends the requests; each answer goes to
/// ``answers(to:response:maxStaleness:)``, each final failure to ``rowError(for:request:)``.
public protocol RateProvider: Sendable {
  var info: RateSourceInfo { get }
  /// The first day the service has rates for.
  var firstDay: CalendarDay { get }

  /// An error for a key the service cannot answer (unknown currency for it, a date before its data), or
  /// `nil` when the key is worth asking. Same-currency keys never reach a provider.
  func precheck(_ key: RateKey, today: CalendarDay) -> RowError?

  /// The fewest requests that cover `keys`; an answer must be able to hold a rate up to `maxStaleness` days
  /// older than its key's day (a service asked for date ranges reaches back that far).
  func requests(for keys: [RateKey], today: CalendarDay, maxStaleness: Int) -> [RateRequest]

  /// Reads a 2xx answer: a result for every key of the request (a key the answer does not cover gets an
  /// error, never a guess; a body that is not a valid answer fails every key with `bad_response`).
  func answers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<RateQuote, RowError>]

  /// The row error for the keys of a request that finally failed.
  func rowError(for failure: FetchError, request: RateRequest) -> RowError

  /// The row error of each key of a request that finally failed: ``rowError(for:request:)`` for every key,
  /// unless the service's answer says which keys it refused (an unknown currency among several).
  func rowErrors(for failure: FetchError, request: RateRequest) -> [RateKey: RowError]

  /// Smaller requests to send instead of one a service refused, for the keys its refusal did not concern (a
  /// request refused for one unknown currency among several), or for all of them split into requests it
  /// accepts (a range longer than it serves); none when there is nothing to narrow. Their answers replace the
  /// failure's errors; a narrowed request that is refused again may be narrowed again (a bounded number of
  /// rounds: ``RateResolver``), so each narrowing must ask strictly less than the request it replaces.
  ///
  /// - Parameter maxStaleness: the run's `--max-staleness`, as the request was planned with.
  func narrowed(_ request: RateRequest, after failure: FetchError, maxStaleness: Int) -> [RateRequest]

  /// Whether answers may be kept in the rate cache (not for a service that only knows today's rate).
  var cachesAnswers: Bool { get }
}

extension RateProvider {
  public var cachesAnswers: Bool { true }

  public func rowError(for failure: FetchError, request: RateRequest) -> RowError { failure.rowError }

  public func narrowed(_ request: RateRequest, after failure: FetchError, maxStaleness: Int) -> [RateRequest] { [] }

  public func rowErrors(for failure: FetchError, request: RateRequest) -> [RateKey: RowError] {
    let error = rowError(for: failure, request: request)
    return Dictionary(request.keys.map { ($0, error) }, uniquingKeysWith: { first, _ in first })
  }

  /// Every key of a request failed for the same reason.
  func failAll(_ request: RateRequest, _ error: RowError) -> [RateKey: Result<RateQuote, RowError>] {
    Dictionary(uniqueKeysWithValues: request.keys.map { ($0, .failure(error)) })
  }
}

/// A provider whose answer is a whole reference-rate table (the ECB feed: one file holds every currency of every
/// day it covers). The job fetches its one planned request after pass 1 and converts pass 2 from the table, as
/// from a local one (``RateTable``, ``TableConverter``); ``RateProvider/answers(to:response:maxStaleness:)`` stays
/// for the general path.
///
/// Its ``RateProvider/requests(for:today:maxStaleness:)`` must depend only on the oldest and newest day of the keys (the job
/// plans with those two keys), and plan one request.
public protocol TableRateProvider: RateProvider {
  /// Reads a 2xx answer as the table it carries, with the provider's own limits in its ``RateTable/coverage``
  /// (no rates after `today`).
  ///
  /// - Throws: ``RatesFileError`` for a body that is not such a table.
  func table(from response: HTTPResponse, request: RateRequest, today: CalendarDay) throws(RatesFileError) -> RateTable

  /// Reads a table the rate cache kept (``table(from:request:today:)``'s table, stored by ``tableText(_:)``): it
  /// holds the source's publications up to the day it was fetched and no later ones, so a later day is a
  /// `no_rate` naming the cache (``RateTable/Partial``), never the kept table's last rate taken as a fallback.
  ///
  /// - Parameter fetchedOn: the run day it was fetched on.
  func cachedTable(_ bytes: [UInt8], path: String, today: CalendarDay, fetchedOn: CalendarDay) throws(RatesFileError)
    -> RateTable

  /// The table of a run that asks the provider nothing: no rows, the provider's currencies and bounds.
  func emptyTable(today: CalendarDay) -> RateTable

  /// The text the rate cache keeps for a table; `nil` when it cannot be kept.
  func tableText(_ table: RateTable) -> String?
}
