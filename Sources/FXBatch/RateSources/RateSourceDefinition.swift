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

/// The options a rate source is made from (`--rates`, `--endpoint`, `--providers`, `--date-policy`, the cache),
/// read and checked by the command line.
public struct RateSourceOptions: Sendable {
  /// `--rates FILE`.
  public var ratesPath: String?
  /// Where `rates update` keeps a newer ECB history; `nil` with `--no-cache` or when no cache directory is known.
  public var cacheDirectory: String?
  /// `--endpoint`: the root of the service (else the source's default).
  public var endpoint: URL?
  /// `--providers`: Frankfurter v2 provider keys.
  public var providers: [String] = []
  /// `--date-policy`, for the calculator.
  public var datePolicy = CalculatorProvider.DatePolicy.strict
  /// Today (UTC, or as the run is told); `nil` when it could not be read, for a source that needs it to refuse.
  public var today: CalendarDay?

  public init() {}
}

/// A source the options do not make.
public enum RateSourceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The source reads `--rates FILE`, and none was given.
  case needsRatesFile(source: String)
  /// The source answers today's rates, and today is not known.
  case needsToday(source: String)

  public var description: String {
    switch self {
    case .needsRatesFile(let source): return "--source \(source) needs --rates FILE"
    case .needsToday(let source): return "--source \(source) needs today's date"
    }
  }
}

/// A rate source made from the options, before anything is read or fetched.
public enum RateSourceSetup: Sendable {
  /// A table read when the run starts: `--rates FILE` (`path`), else the embedded ECB history or the newer
  /// copy `rates update` kept in the cache at `cacheDirectory`.
  case table(path: String?, cacheDirectory: String?)
  /// A service asked for the rates a run needs.
  case provider(any RateProvider)

  /// Reads a table: the rates file at `path`, else the embedded ECB history (or the newer one `rates update`
  /// kept in the cache at `cacheDirectory`, when there is one).
  ///
  /// - Throws: ``RatesFileError`` when the rates file cannot be read.
  public static func loadTable(path: String?, cacheDirectory: String?) throws(RatesFileError) -> RateTable {
    guard let path else {
      let cache = cacheDirectory.flatMap { directory in
        FileManager.default.fileExists(atPath: directory) ? try? RateCache(directory: directory) : nil
      }
      return EmbeddedECBHistory.newest(cache: cache)
    }
    return try RatesFile.load(path: path)
  }
}
