import Foundation

/// `--source file`, the source `--rates FILE` alone chooses: the user's rates.
extension RatesFile: RateSourceDefinition {
  public static let sourceName = "file"
  public static let sourceNote: String? = "with --rates"
  public static let sourceSummary = "--rates FILE"
  public static let defaultSourceEndpoint: URL? = nil
  public static let answersPeriodRules = true
  public static let readsRatesFile = true

  public static func makeSource(_ options: RateSourceOptions) throws(RateSourceError) -> RateSourceSetup {
    guard let path = options.ratesPath else { throw .needsRatesFile(source: sourceName) }
    return .table(path: path, cacheDirectory: nil)
  }
}
