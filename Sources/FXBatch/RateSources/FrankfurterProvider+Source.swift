import Foundation

/// `--source frankfurter`: Frankfurter v2 over HTTP (about 200 currencies, several providers, ranges of days).
extension FrankfurterProvider: RateSourceDefinition {
  public static let sourceName = "frankfurter"
  public static let sourceNote: String? = "v2, ~200 currencies"
  public static let sourceSummary = "Frankfurter v2"
  public static let defaultSourceEndpoint: URL? = defaultEndpoint
  public static let answersPeriodRules = true

  public static func makeSource(_ options: RateSourceOptions) throws(RateSourceError) -> RateSourceSetup {
    .provider(FrankfurterProvider(endpoint: options.endpoint ?? defaultEndpoint, providers: options.providers))
  }

  public static func currencyListURL(_ options: RateSourceOptions) -> URL? {
    FrankfurterProvider(endpoint: options.endpoint ?? defaultEndpoint).currenciesURL
  }

  public static func listedCurrencies(from body: Data, url: URL) throws(CurrencyListingError) -> [CurrencyCoverage] {
    try currencies(from: body, url: url, source: sourceName)
  }
}
