/// The default rates: the ECB euro foreign exchange reference rates, full history (1999-01-04 .. 2026-10-30),
/// compiled into the binary at build time from `RateSources/Embedded/eurofxref-hist.csv` (see the `SOURCE.md` beside
/// it), so that `fxbatch` needs no network and no files of its own.
public enum EmbeddedECBHistory: Sendable {
  /// The source description of the embedded rates.
  public static let info = RateSourceInfo(
    identifier: "ecb-embedded", publisher: "ECB",
    description: "ECB euro foreign exchange reference rates (embedded history)")

  /// The embedded history as a rate table: its days are indexed once per process on first use, and a day's
  /// rates are read when first asked (``RateGrid``), so a small file starts in milliseconds.
  public static let table: RateTable = ECBHistoryCSV.indexLazily(csv, info: info)

  /// The embedded history parsed in full with every check of a history file (for the tests).
  static func parsedInFull() throws(RatesFileError) -> RateTable {
    try ECBHistoryCSV.parse(ByteView(csv), path: "<embedded eurofxref-hist.csv>", info: info)
  }

  /// The source name under which `fxbatch rates update` keeps a fetched history in the rate cache.
  public static let cacheSource = "ecb-history"

  /// The embedded history, extended with the newer days of the history `fxbatch rates update` kept in the
  /// cache, if any.
  ///
  /// - Parameter cache: the rate cache, or `nil` for the embedded history alone.
  /// - Returns: the table; quotes from cached days name the source `ecb-cache`.
  public static func newest(cache: RateCache?) -> RateTable {
    guard let cache, let kept = cache.history(source: cacheSource), let embeddedLast = table.lastDay, kept.lastDay > embeddedLast
    else { return table }
    let fetched = CalendarDay(daysSinceEpoch: Int(kept.fetchedAt.timeIntervalSince1970 / 86_400))
    let cacheInfo = RateSourceInfo(
      identifier: "ecb-cache", publisher: "ECB", description: "ECB reference rates (rates update cache)")
    guard
      let cached = try? kept.csv.withUnsafeBufferPointer({ buffer throws(RatesFileError) in
        try ECBHistoryCSV.parse(buffer, path: cache.path, info: cacheInfo)
      })
    else { return table }
    let info = RateSourceInfo(
      identifier: "ecb-embedded", publisher: "ECB",
      description:
        "ECB euro foreign exchange reference rates (embedded history to \(embeddedLast), then ecb-cache from fxbatch rates update on \(fetched))"
    )
    return table.extended(with: cached, info: info)
  }

  /// Why a fetched history must not be kept, or `nil`: it has days after `today`, or a rate that differs from
  /// the embedded history on a day both have (the ECB never revises a published reference rate).
  public static func disagreement(with fetched: RateTable, today: CalendarDay) -> String? {
    if let last = fetched.lastDay, last > today { return "it has rates for \(last), after today (\(today))" }
    let embeddedDays = Set(table.days)
    for day in fetched.days where embeddedDays.contains(day) {
      for pair in fetched.pairs {
        let key = RateKey(base: pair.base, quote: pair.quote, day: day)
        guard case .success(let mine) = table.quote(for: key, maxStaleness: 0),
          case .success(let theirs) = fetched.quote(for: key, maxStaleness: 0)
        else { continue }
        if mine.rate.numerator.normalized != theirs.rate.numerator.normalized
          || mine.rate.denominator.normalized != theirs.rate.denominator.normalized
        {
          return "its \(pair) rate on \(day) (\(theirs.rateText)) differs from the ECB's published \(mine.rateText)"
        }
      }
    }
    return nil
  }
}
