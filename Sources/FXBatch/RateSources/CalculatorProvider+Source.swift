import Foundation

/// `--source calculator`: the legacy calculator service over HTTP, today's rate of one pair per request.
extension CalculatorProvider: RateSourceDefinition {
  public static let sourceName = "calculator"
  public static let sourceSummary = "the calculator"
  public static let defaultSourceEndpoint: URL? = defaultEndpoint
  /// It answers today's rate only.
  public static let answersPeriodRules = false

  public static func makeSource(_ options: RateSourceOptions) throws(RateSourceError) -> RateSourceSetup {
    guard let today = options.today else { throw .needsToday(source: sourceName) }
    return .provider(
      CalculatorProvider(endpoint: options.endpoint ?? defaultEndpoint, today: today, datePolicy: options.datePolicy))
  }
}
