import Foundation

/// `--source embedded`, the default: the ECB history compiled into the binary, or the newer one `rates update`
/// kept in the cache.
extension EmbeddedECBHistory: RateSourceDefinition {
  public static let sourceName = "embedded"
  public static let sourceNote: String? = "default"
  public static let sourceSummary = "the embedded rates"
  public static let defaultSourceEndpoint: URL? = nil
  public static let answersPeriodRules = true

  public static func makeSource(_ options: RateSourceOptions) throws(RateSourceError) -> RateSourceSetup {
    .table(path: nil, cacheDirectory: options.cacheDirectory)
  }
}
