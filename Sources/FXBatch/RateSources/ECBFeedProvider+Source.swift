import Foundation

/// `--source ecb`: the ECB's XML feeds over HTTP; its full history lists the days each currency has a rate.
extension ECBFeedProvider: RateSourceDefinition {
  public static let sourceName = "ecb"
  public static let sourceSummary = "the ECB feed"
  public static let defaultSourceEndpoint: URL? = defaultEndpoint
  public static let answersPeriodRules = true

  public static func makeSource(_ options: RateSourceOptions) throws(RateSourceError) -> RateSourceSetup {
    .provider(ECBFeedProvider(endpoint: options.endpoint ?? defaultEndpoint))
  }

  /// The full history, `eurofxref-hist.xml` (since 1999-01-04), under an endpoint.
  public static func historyURL(endpoint: URL) -> URL { endpoint.appendingPathComponent("eurofxref-hist.xml") }

  public static func currencyListURL(_ options: RateSourceOptions) -> URL? {
    historyURL(endpoint: options.endpoint ?? defaultEndpoint)
  }

  /// The days each currency of the full history has a rate.
  public static func listedCurrencies(from body: Data, url: URL) throws(CurrencyListingError) -> [CurrencyCoverage] {
    let info = RateSourceInfo(identifier: "ecb", publisher: "ECB", description: url.absoluteString)
    let table: RateTable
    do {
      table = try [UInt8](body).withUnsafeBufferPointer { buffer throws(RatesFileError) in
        try ECBXMLFeed.parse(buffer, path: url.absoluteString, info: info)
      }
    } catch {
      throw .badAnswer(url: url.absoluteString, reason: error.message)
    }
    return table.currencyCoverage(source: sourceName)
  }
}
