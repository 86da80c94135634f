/// What services built on the ECB reference rates (the ECB's own files, Frankfurter) can answer: the
/// currencies the ECB has published (those of the embedded history, and the euro), from 1999-01-04 to today.
enum ECBCoverage {
  /// The first publication day of the euro reference rates.
  static let firstDay = CalendarDay(year: 1999, month: 1, day: 4) ?? CalendarDay(daysSinceEpoch: 10_595)

  static let currencies: Set<CurrencyCode> = EmbeddedECBHistory.table.currencies

  /// The error for a key such a service cannot answer, so that it is never asked.
  ///
  /// - Parameters:
  ///   - key: the key.
  ///   - today: the run's day; later days have no rates yet.
  ///   - service: how messages name the service ("the ECB", "Frankfurter").
  static func precheck(_ key: RateKey, today: CalendarDay, service: String) -> RowError? {
    let known = currencies
    for currency in [key.pair.base, key.pair.quote] where !known.contains(currency) {
      return RowError(.noRate, "\(service) has no \(currency) rates (it serves the ECB reference rates)")
    }
    if key.day < firstDay { return RowError(.dateOutOfRange, "\(key.day) is before the ECB reference rates start (\(firstDay))") }
    if key.day > today { return RowError(.dateOutOfRange, "\(key.day) is in the future; no rates exist for it yet") }
    return nil
  }
}
