import Foundation

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
