/// Period rates (`--rate-kind average|closing`) over Frankfurter v2: the daily rows of whole periods, asked by range
/// against EUR, become a small table per pair that the one period rule averages
/// (``RateTable/quote(for:rule:maxStaleness:)``), as it averages the embedded history or the ECB feed.
///
/// - Reference currency: every period request asks `base=EUR`. The ratio of means is then formed through EUR, as
///   for the ECB: the figures of ECB currencies agree with the embedded and ECB sources' where the service
///   publishes the ECB's rates, the averages of A→B, B→C and A→C are consistent (one reference for all), and one
///   request per span of periods answers every currency of the run (not one per base).
/// - The period's last day: each request reaches ``periodLookaheadDays`` past the last period it holds (never past
///   today). A period is complete when the service answered a row of any currency of the request on or after
///   its last calendar day; else `period_incomplete`, whatever today is (a month ending on a Saturday waits for
///   the next publication, as with the other sources).
/// - The days averaged: for each currency its own rows in the period; the period's days are those on which the
///   answer has a row of any of its currencies (the service blends providers with different calendars), and a
///   currency with fewer says `(k of n days)` and is a fallback; a closing rate is of the period's last such day.
/// - An answer with a row dated after the range asked is a `bad_response` of its keys (``rowAfterRange(_:request:)``).
extension FrankfurterProvider {
  /// How far past a period's last day a request reaches, to learn whether the service has published past it
  /// (the service's own carry-forward: a longer gap means it has not).
  static let periodLookaheadDays = serviceCarryForwardDays
  /// The longest span of days one period request asks for: a year and its look-ahead fit, within the service's
  /// 5-year limit.
  static let maximumPeriodRangeDays = 366 + periodLookaheadDays

  /// The requests for the periods of some keys, and each period's request (by its first day).
  public struct PeriodRequests: Sendable {
    /// One request per span of whole periods, `base=EUR`, the currencies of those periods' keys as quotes.
    public let requests: [RateRequest]
    /// The index in ``requests`` of each period's request, by the period's first day.
    public let requestOfPeriod: [CalendarDay: Int]
  }

  /// The requests that answer the periods of some keys: their periods in day order, cut where a span would pass
  /// ``maximumPeriodRangeDays``; each from its first period's first day (never before ``firstDay``) to its last
  /// period's last day plus ``periodLookaheadDays`` (never after today). Keys whose pair is one currency, or
  /// whose period starts after today, ask nothing.
  public func periodRequests(for keys: Set<RateKey>, period: RatePeriod, today: CalendarDay) -> PeriodRequests {
    var currenciesBySpan: [CalendarDay: (span: RatePeriod.Span, currencies: Set<CurrencyCode>)] = [:]
    for key in keys where key.pair.base != key.pair.quote {
      let span = period.span(containing: key.day)
      guard span.first <= today, span.last >= firstDay else { continue }
      let currencies = [key.pair.base, key.pair.quote].filter { $0 != .euro }
      currenciesBySpan[span.first, default: (span, [])].currencies.formUnion(currencies)
    }
    let spans = currenciesBySpan.values.sorted { $0.span.first < $1.span.first }
    var requests: [RateRequest] = []
    var requestOfPeriod: [CalendarDay: Int] = [:]
    var start = 0
    while start < spans.count {
      var end = start
      while end + 1 < spans.count,
        spans[end + 1].span.last.adding(days: Self.periodLookaheadDays).days(since: spans[start].span.first)
          <= Self.maximumPeriodRangeDays
      {
        end += 1
      }
      let from = max(spans[start].span.first, firstDay)
      let to = min(spans[end].span.last.adding(days: Self.periodLookaheadDays), today)
      let quotes = spans[start...end].reduce(into: Set<CurrencyCode>()) { $0.formUnion($1.currencies) }
      // Each currency's keys mark the span asked (the answer's size limit and a 422's narrowing read them).
      let requestKeys = quotes.sorted().flatMap { quote in
        [RateKey(base: .euro, quote: quote, day: from), RateKey(base: .euro, quote: quote, day: to)]
      }
      if !quotes.isEmpty,
        let request = request(base: .euro, quotes: quotes, days: (from, to), day: from, keys: requestKeys)
      {
        for index in start...end { requestOfPeriod[spans[index].span.first] = requests.count }
        requests.append(request)
      }
      start = end + 1
    }
    return PeriodRequests(requests: requests, requestOfPeriod: requestOfPeriod)
  }

  /// Why the rows of a period request's answer cannot be used: a row dated after the range asked (whose end is
  /// never after today), as a `bad_response` of the request's keys; `nil` when none is. A service answering days
  /// it was not asked is broken, and such a row would make an unfinished period look finished. Rows before the
  /// range are the service's carry-forward into it (never averaged).
  func rowAfterRange(_ rows: [String: [Row]], request: RateRequest) -> RowError? {
    guard let to = request.keys.map(\.day).max() else { return nil }
    for (quote, quoteRows) in rows.sorted(by: { $0.key < $1.key }) {
      // Each quote's rows are in day order.
      if let row = quoteRows.last, row.day > to {
        return RowError(
          .badResponse, "Frankfurter: the answer has a \(quote) rate of \(row.day), after the range asked (to \(to))")
      }
    }
    return nil
  }

  /// The table of a pair's daily rows against EUR from a period request's answer: one column per currency of the
  /// pair other than EUR that has rows, one row per publication day of the answer.
  ///
  /// - Parameters:
  ///   - rows: the answer's rows by quote (``publishedRows(request:response:maxStaleness:)``).
  ///   - publicationDays: the days on which the answer has a row of any of its currencies, ascending: a period's
  ///     publication days are the service's in that period, so a currency without a row on some of them says
  ///     `(k of n days)` and a closing day is the period's last of them.
  ///   - from: the request's first day: the table covers the service's days from it (an earlier row is the
  ///     service's carry-forward into the range).
  func periodTable(
    _ pair: CurrencyPair, rows: [String: [Row]], publicationDays days: [CalendarDay], from: CalendarDay
  ) -> RateTable {
    let currencies = Set([pair.base, pair.quote]).filter { $0 != .euro && !(rows[$0.description] ?? []).isEmpty }.sorted()
    var rowOfDay: [CalendarDay: Int] = [:]
    for (index, day) in days.enumerated() { rowOfDay[day] = index }
    var values = [ExactDecimal?](repeating: nil, count: max(days.count, 1) * currencies.count)
    for (column, currency) in currencies.enumerated() {
      for row in rows[currency.description] ?? [] {
        if let index = rowOfDay[row.day] { values[index * currencies.count + column] = row.value }
      }
    }
    // Pinned providers are named, as in a spot rate's `fx_source`.
    let identifier = providers.isEmpty ? info.identifier : "\(info.identifier)(\(providers.joined(separator: "+")))"
    var table = RateTable(
      info: RateSourceInfo(identifier: identifier, publisher: info.publisher, description: info.description),
      pairs: currencies.map { CurrencyPair(base: .euro, quote: $0) }, days: days, values: values)
    table.coverage.firstDay = max(from, firstDay)
    return table
  }
}
