/// The answers of a rate source to some keys, as `convert` gives them, for the commands that show or export rates
/// (`rates show`, `rates export` with `--source`): routed through the currency lifecycle, the ECB feed's whole file
/// fetched under a period rule, Frankfurter v2's period ranges, chains link by link (``RateResolver``).
extension RateSourceChoice {
  /// The answers to some keys under a rule.
  ///
  /// - Parameters:
  ///   - keys: pairs and days (for a period rule the day only chooses the period).
  ///   - today: the run's day (`FXBATCH_TODAY` may set it).
  /// - Returns: every key's answer.
  public func answers(to keys: Set<RateKey>, rule: RateRule, maxStaleness: Int, today: CalendarDay) -> [RateKey: Result<
    RateQuote, RowError
  >] {
    var report = lookupReport(rule: rule, maxStaleness: maxStaleness, today: today)
    let marketKeys = RateResolver.marketKeys(of: keys)
    let resolver = RateResolver.prepared(
      for: self, keys: marketKeys, maxStaleness: maxStaleness, today: today, rule: rule, report: &report)
    return resolver.resolveQuotes(keys, report: &report)
  }
}

extension RateSourceChoice {
  /// The daily rates a table provider (the ECB feed) answers for the days from `from` to `to`, fetched now as
  /// `convert` fetches them (the file chosen for `from`), or why there are none; `nil` for another source.
  public func fetchedTable(from: CalendarDay, to: CalendarDay, today: CalendarDay) -> Result<RateTable, RowError>? {
    guard case .provider(let provider as any TableRateProvider, let settings) = self,
      let dollar = CurrencyCode("USD")
    else { return nil }
    var report = lookupReport(rule: .spot, maxStaleness: 0, today: today)
    let resolver = RateResolver(
      source: self, sourceTable: nil, tableFailure: nil, maxStaleness: 0, today: today, rule: .spot)
    // The file is chosen by the span of days asked: any pair the provider publishes marks them.
    let first = RateKey(base: .euro, quote: dollar, day: from)
    var keys = RateKeyIndex([first, RateKey(base: .euro, quote: dollar, day: min(to, today))])
    switch resolver.providerTable(&keys, provider: provider, settings: settings, report: &report) {
    case .table(let table): return .success(table)
    case .failed(let failure): return .failure(failure(first))
    }
  }

  /// The report a lookup's fetch counts go to (not shown: `rates` prints the answers).
  private func lookupReport(rule: RateRule, maxStaleness: Int, today: CalendarDay) -> RunReport {
    RunReport(
      rates: RunReport.Rates(
        source: info, firstDay: nil, lastDay: nil, daysSinceLastPublication: nil, defaultDay: today.description,
        recordsWithoutDate: 0, periodRule: rule.periodDescription),
      rounding: "", maxStalenessDays: maxStaleness)
  }
}
