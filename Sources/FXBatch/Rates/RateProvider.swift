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
/// ``requests(for:today:)`` once with the rest; the fetch engine sends the requests; each answer goes to
/// ``answers(to:response:maxStaleness:)``, each final failure to ``rowError(for:request:)``.
public protocol RateProvider: Sendable {
  var info: RateSourceInfo { get }
  /// The first day the service has rates for.
  var firstDay: CalendarDay { get }

  /// An error for a key the service cannot answer (unknown currency for it, a date before its data), or
  /// `nil` when the key is worth asking. Same-currency keys never reach a provider.
  func precheck(_ key: RateKey, today: CalendarDay) -> RowError?

  /// The fewest requests that cover `keys`.
  func requests(for keys: [RateKey], today: CalendarDay) -> [RateRequest]

  /// Reads a 2xx answer: a result for every key of the request (a key the answer does not cover gets an
  /// error, never a guess; a body that is not a valid answer fails every key with `bad_response`).
  func answers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<RateQuote, RowError>]

  /// The row error for the keys of a request that finally failed.
  func rowError(for failure: FetchError, request: RateRequest) -> RowError

  /// Whether answers may be kept in the rate cache (not for a service that only knows today's rate).
  var cachesAnswers: Bool { get }
}

extension RateProvider {
  public var cachesAnswers: Bool { true }

  public func rowError(for failure: FetchError, request: RateRequest) -> RowError { failure.rowError }

  /// Every key of a request failed for the same reason.
  func failAll(_ request: RateRequest, _ error: RowError) -> [RateKey: Result<RateQuote, RowError>] {
    Dictionary(uniqueKeysWithValues: request.keys.map { ($0, .failure(error)) })
  }
}
