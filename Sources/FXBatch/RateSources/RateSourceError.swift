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
