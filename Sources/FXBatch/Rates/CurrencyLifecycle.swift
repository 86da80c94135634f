/// When a currency is in use, and what its amounts become after it ceased: the table of euro changeovers and
/// redenominations (`CurrencyLifecycle+Rules.swift`) and the ISO 4217 withdrawal dates.
///
/// A rate key is routed before any rate source is asked (``route(for:)``): a legacy currency on or after its
/// change is replaced by its successor, and the fixed ratio is chained onto the successor's market rate; before
/// the change the source's own rate is used. A code past its lifetime with no change to apply is a per-record
/// `currency_withdrawn` error, never the market rate of another currency.
public enum CurrencyLifecycle {
  private static let changeByLegacy: [CurrencyCode: CurrencyChange] = {
    var table: [CurrencyCode: CurrencyChange] = [:]
    for change in changes {
      precondition(table[change.legacy] == nil, "CurrencyLifecycle+Rules.swift lists \(change.legacy) twice")
      table[change.legacy] = change
    }
    return table
  }()

  /// The change that ended a currency, if fxbatch knows one.
  ///
  /// - Parameter legacy: an ISO 4217 code.
  /// - Returns: the change whose legacy currency it is (whatever its day), or `nil`.
  public static func change(replacing legacy: CurrencyCode) -> CurrencyChange? { changeByLegacy[legacy] }

  /// The first day on which a currency is no longer itself (its change takes effect, or it is past its
  /// withdrawal), or `nil` when it has neither: a key whose currencies are both before their day routes to
  /// itself (``route(for:)`` is direct).
  static func endOfUse(of code: CurrencyCode) -> CalendarDay? {
    let ends = [changeByLegacy[code]?.effective, withdrawalEnd(of: code)].compactMap { $0 }
    return ends.min()
  }

  /// Routes a rate key through the changes in force on its day.
  ///
  /// Base and quote are each followed through their changes in force on the key's day (VEB 2019 → VEF → VES); a
  /// same-currency key stays as it is (rate 1).
  ///
  /// - Parameter key: the record's (base, quote, day).
  /// - Returns: the route (its ``CurrencyRoute/marketKey`` is what the rate source is asked), or a
  ///   `currency_withdrawn` error for a currency past its lifetime without an applicable change.
  public static func route(for key: RateKey) -> Result<CurrencyRoute, RowError> {
    if key.pair.base == key.pair.quote {
      // Rate 1 needs no rate, but a currency past its lifetime is still refused.
      if case .failure(let error) = current(key.pair.base, on: key.day) { return .failure(error) }
      return .success(CurrencyRoute(marketKey: key, baseChanges: [], quoteChanges: []))
    }
    let base: (code: CurrencyCode, changes: [CurrencyChange])
    let quote: (code: CurrencyCode, changes: [CurrencyChange])
    switch current(key.pair.base, on: key.day) {
    case .success(let found): base = found
    case .failure(let error): return .failure(error)
    }
    switch current(key.pair.quote, on: key.day) {
    case .success(let found): quote = found
    case .failure(let error): return .failure(error)
    }
    return .success(
      CurrencyRoute(
        marketKey: RateKey(base: base.code, quote: quote.code, day: key.day), baseChanges: base.changes,
        quoteChanges: quote.changes))
  }

  /// The currency in use on a day in place of `code`, and the changes that lead to it, oldest first.
  static func current(_ code: CurrencyCode, on day: CalendarDay) -> Result<
    (code: CurrencyCode, changes: [CurrencyChange]), RowError
  > {
    var current = code
    var applied: [CurrencyChange] = []
    while let change = changeByLegacy[current], change.effective <= day {
      if change.legacyPerSuccessor == nil || change.expires.map({ day >= $0 }) == true {
        let reason = change.note.map { "; \($0)" } ?? ""
        return .failure(
          RowError(
            .currencyWithdrawn,
            "\(code) on \(day): \(change.summary)\(reason), so fxbatch has no conversion for it on that day"))
      }
      applied.append(change)
      current = change.successor
    }
    if let end = withdrawalEnd(of: current), day >= end {
      let via = applied.isEmpty ? "" : " (\(code) became \(current))"
      let month = ISO4217.currency(for: current)?.withdrawn ?? ""
      return .failure(
        RowError(
          .currencyWithdrawn,
          "\(current) was withdrawn from ISO 4217 in \(month)\(via) and fxbatch knows no fixed conversion of it on \(day)"))
    }
    return .success((current, applied))
  }

  /// The first day after the month ISO 4217 withdrew a code (List Three gives only the month), or `nil` for a
  /// current code.
  static func withdrawalEnd(of code: CurrencyCode) -> CalendarDay? {
    guard let withdrawn = ISO4217.currency(for: code)?.withdrawn, let first = CalendarDay(iso8601: withdrawn + "-01") else {
      return nil
    }
    let (year, month, _) = first.components
    return CalendarDay(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1)
  }
}
