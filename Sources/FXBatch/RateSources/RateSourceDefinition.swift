import Foundation

/// One rate source `--source` can name: what it is called, what it needs and how it is made from the options.
/// Adding a source is a type conforming to this protocol plus one line in ``RateSourceRegistry``.
public protocol RateSourceDefinition: Sendable {
  /// The name `--source` takes, e.g. `frankfurter`.
  static var sourceName: String { get }
  /// A note after the name in `--source`'s help, e.g. `default` or `v2, ~200 currencies`; `nil` for none.
  static var sourceNote: String? { get }
  /// What the source is, for messages that name sources by what they are: `the ECB feed`, `Frankfurter v2`.
  static var sourceSummary: String { get }
  /// The root of its service when `--endpoint` is not given; `nil` for a source whose rates are at hand (it
  /// fetches nothing, and the fetch options are not for it).
  static var defaultSourceEndpoint: URL? { get }
  /// Whether it answers a period rule (`--rate-kind average|closing`): it has the daily rates of whole periods.
  static var answersPeriodRules: Bool { get }
  /// Whether it is the source of `--rates FILE` (the one `--rates` alone chooses).
  static var readsRatesFile: Bool { get }

  /// The source the options make, before anything is read or fetched.
  ///
  /// - Parameter options: the options a source is made from.
  /// - Throws: ``RateSourceError`` when the options lack what the source needs.
  static func makeSource(_ options: RateSourceOptions) throws(RateSourceError) -> RateSourceSetup

  /// The URL of a service's currency list, under `--endpoint` or the default endpoint; `nil` for a source whose
  /// table lists its currencies, or a service that lists none.
  static func currencyListURL(_ options: RateSourceOptions) -> URL?

  /// The currencies a service's list names, read from its answer.
  ///
  /// - Parameters:
  ///   - body: the answer's body.
  ///   - url: where it came from (for messages).
  /// - Throws: ``CurrencyListingError`` when the answer is not a currency list.
  static func listedCurrencies(from body: Data, url: URL) throws(CurrencyListingError) -> [CurrencyCoverage]
}

extension RateSourceDefinition {
  public static var sourceNote: String? { nil }
  public static var readsRatesFile: Bool { false }

  /// Whether it fetches its rates over HTTP (`--endpoint`, `--jobs`, `--timeout`, … are for it).
  public static var isNetworkSource: Bool { defaultSourceEndpoint != nil }

  /// Whether `rates currencies` lists what it covers: a table's days per currency, or a service's list.
  public static var listsCurrencies: Bool { !isNetworkSource || currencyListURL(RateSourceOptions()) != nil }

  public static func currencyListURL(_ options: RateSourceOptions) -> URL? { nil }

  public static func listedCurrencies(from body: Data, url: URL) throws(CurrencyListingError) -> [CurrencyCoverage] {
    throw .badAnswer(url: url.absoluteString, reason: "the source \(sourceName) lists no currencies")
  }
}
