import Foundation

/// `--source frankfurter-v1`: Frankfurter's first API over HTTP, one day per request.
extension FrankfurterV1Provider: RateSourceDefinition {
  public static let sourceName = "frankfurter-v1"
  public static let sourceSummary = "Frankfurter v1"
  public static let defaultSourceEndpoint: URL? = defaultEndpoint
  /// v1 answers rates of days; a period's rates would be a request per day.
  public static let answersPeriodRules = false

  public static func makeSource(_ options: RateSourceOptions) throws(RateSourceError) -> RateSourceSetup {
    .provider(FrankfurterV1Provider(endpoint: options.endpoint ?? defaultEndpoint))
  }

  public static func currencyListURL(_ options: RateSourceOptions) -> URL? {
    FrankfurterV1Provider(endpoint: options.endpoint ?? defaultEndpoint).currenciesURL
  }

  public static func listedCurrencies(from body: Data, url: URL) throws(CurrencyListingError) -> [CurrencyCoverage] {
    try currencies(from: body, url: url, source: sourceName)
  }
}
