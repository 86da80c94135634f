/// Period rates over a table of daily reference rates: the average and the closing rate of the calendar month,
/// quarter or year containing a key's day (``RateRule``).
extension RateTable {
  /// The rate for a key under a rule.
  ///
  /// - Parameters:
  ///   - key: pair and day; for a period rule the day only chooses the period.
  ///   - rule: spot, or a period rule.
  ///   - maxStaleness: `--max-staleness`, for ``RateRule/spot`` only (a period rule reads the period's own days).
  /// - Returns: the quote or the key's error.
  public func quote(for key: RateKey, rule: RateRule, maxStaleness: Int) -> Result<RateQuote, RowError> {
    switch rule {
    case .spot: quote(for: key, maxStaleness: maxStaleness)
    case .average(let period): averageQuote(for: key, in: period.span(containing: key.day))
    case .closing(let period): closingQuote(for: key, in: period.span(containing: key.day))
    }
  }

  /// The average rate of a pair over a period.
  ///
  /// For each currency, the arithmetic mean of its published reference rates against the pivot over the period's
  /// publication days, exact (sum ÷ count, no rounding); the pair's rate is mean(pivot → quote) ÷ mean(pivot →
  /// base), the pivot itself being 1. A pair the table publishes directly (either way round) is the mean of its
  /// own published rates. A currency published on only some of the period's publication days is averaged over
  /// the days it has; its leg in `fx_source` then says `(k of n days)` and the quote is a fallback.
  ///
  /// - Returns: the quote, its ``RateQuote/period`` the period's label and its ``RateQuote/rateDay`` the last
  ///   publication day averaged; `period_incomplete` for a period the table does not cover from its first
  ///   publication day to its last calendar day (``periodPrecheck(_:span:kind:needsStart:)``); `no_rate` for a
  ///   currency with no rate in the period.
  public func averageQuote(for key: RateKey, in span: RatePeriod.Span) -> Result<RateQuote, RowError> {
    let pair = key.pair
    if pair.base == pair.quote {
      return .success(
        RateQuote(rate: .one, rateText: "1", rateDay: nil, isFallback: false, source: "same currency", period: span.label))
    }
    if let error = periodPrecheck(pair, span: span, kind: "an average", needsStart: true) { return .failure(error) }
    let rows = rows(in: span)
    guard let lastRow = rows.last else {
      return .failure(RowError(.noRate, "\(info.publisher) published no rates in \(span.label)"))
    }
    /// The mean of a column over the period's rows, in the direction `from → to`; `nil` when the column has no
    /// rate in the period (`count` 0) or its sum overflows.
    struct Mean {
      let rate: ExchangeRate
      let text: String
      let count: Int
    }
    func mean(of column: Int, inverted: Bool) -> Result<Mean, RowError>? {
      var sum = ExactDecimal.zero
      var count = 0
      for row in rows {
        guard let value = values[row * pairs.count + column] else { continue }
        guard let added = sum.adding(value) else {
          return .failure(RowError(.amountOverflow, "the sum of the \(pairs[column]) rates needs more than 38 digits"))
        }
        sum = added
        count += 1
      }
      guard count > 0 else { return nil }
      let published = ExchangeRate(numerator: sum, denominator: ExactDecimal(significand: Int128(count), scale: 0))
      let days = count == rows.count ? "" : " (\(count) of \(rows.count) days)"
      return .success(
        Mean(
          rate: inverted ? published.inverted : published, text: "\(pairs[column])=\(published.decimalText())\(days)",
          count: count))
    }
    func column(from base: CurrencyCode, to quote: CurrencyCode) -> (Int, Bool)? {
      if let column = columnByPair[CurrencyPair(base: base, quote: quote)] { return (column, false) }
      if let column = columnByPair[CurrencyPair(base: quote, quote: base)] { return (column, true) }
      return nil
    }
    var means: [Mean] = []
    var rate: ExchangeRate
    if let (direct, inverted) = column(from: pair.base, to: pair.quote), let found = mean(of: direct, inverted: inverted) {
      // A directly published pair is averaged as published, as its spot rate is used as published.
      switch found {
      case .failure(let error): return .failure(error)
      case .success(let directMean):
        means = [directMean]
        rate = directMean.rate
      }
    } else {
      rate = .one
      for (currency, towardsQuote) in [(pair.base, false), (pair.quote, true)] where currency != pivot {
        guard let (leg, inverted) = column(from: pivot, to: currency) else {
          return .failure(
            RowError(
              .noRate,
              "the \(info.publisher) rates have no \(currency) rate against \(pivot), which cross rates go through, nor a direct \(pair) rate"
            ))
        }
        switch mean(of: leg, inverted: inverted) {
        case .none:
          return .failure(RowError(.noRate, "\(info.publisher) published no \(currency) rate in \(span.label)"))
        case .failure(let error): return .failure(error)
        case .success(let legMean):
          means.append(legMean)
          guard let chained = rate.chained(with: towardsQuote ? legMean.rate : legMean.rate.inverted) else {
            return .failure(RowError(.amountOverflow, "the average cross rate \(pair) needs more than 38 digits"))
          }
          rate = chained
        }
      }
    }
    let identifier = periodIdentifier(rows)
    let header = "\(identifier) average \(span.label) of \(rows.count) days"
    return .success(
      RateQuote(
        rate: rate, rateText: rate.decimalText(), rateDay: days[lastRow],
        isFallback: means.contains { $0.count < rows.count },
        source: ([header] + means.map(\.text)).joined(separator: " "), period: span.label))
  }

  /// The closing rate of a pair for a period: the rates of the period's last publication day on which both
  /// currencies have a rate (as ``quote(for:maxStaleness:)`` forms them on that day), never a later day's.
  ///
  /// - Returns: the quote, its ``RateQuote/rateDay`` the closing day; `period_incomplete` for a period whose last
  ///   calendar day is after the table's last day; `no_rate` when no publication day of the period has both.
  public func closingQuote(for key: RateKey, in span: RatePeriod.Span) -> Result<RateQuote, RowError> {
    let pair = key.pair
    if pair.base == pair.quote {
      return .success(
        RateQuote(rate: .one, rateText: "1", rateDay: nil, isFallback: false, source: "same currency", period: span.label))
    }
    if let error = periodPrecheck(pair, span: span, kind: "a closing rate", needsStart: false) {
      return .failure(error)
    }
    let periodRows = rows(in: span)
    for row in periodRows.reversed() {
      let day = days[row]
      switch quote(for: RateKey(base: pair.base, quote: pair.quote, day: day), maxStaleness: 0) {
      case .success(let found):
        let identifier = identifier(for: day)
        let legs = found.source.hasPrefix(identifier) ? String(found.source.dropFirst(identifier.count)) : " " + found.source
        // A closing day before the period's last publication day (a currency no longer published by then) is a
        // fallback, and says which day it falls back from.
        let last = periodRows.last.map { days[$0] }
        let isFallback = last != nil && last != day
        let note = isFallback ? " (none on \(last.map(\.description) ?? ""), the period's last publication day)" : ""
        return .success(
          RateQuote(
            rate: found.rate, rateText: found.rateText, rateDay: day, isFallback: isFallback,
            source: "\(identifier) closing \(span.label)\(note)\(legs)"))
      case .failure(let error) where error.code == .noRate: continue
      case .failure(let error): return .failure(error)
      }
    }
    return .failure(
      RowError(.noRate, "\(info.publisher) published no day of \(span.label) with both \(pair.base) and \(pair.quote) rates"))
  }

  /// Why a period rate cannot be formed from this table at all, or `nil`.
  ///
  /// A period is complete when the table covers its last calendar day: it has a publication on or after that day,
  /// or its ``Coverage/lastDay`` (a feed fetched that day) is on or after it. A history that ends on a Friday does
  /// not say whether the weekend has passed (or whether that Friday's rates, published at 16:00 CET, were in yet
  /// when the file was taken), so a month ending on the weekend after is incomplete until a later day is in.
  /// An average also needs every publication day of the period: a table whose rows start within the period
  /// would average part of it, unless its first day is the source's first publication
  /// (``Coverage/firstPublication``), before which the source published nothing (the ECB's 1999-01-04: 1999-01-01
  /// was a holiday, the 2nd and 3rd a weekend, and the ECB's own 1999 average is over its 1999 publications).
  private func periodPrecheck(_ pair: CurrencyPair, span: RatePeriod.Span, kind: String, needsStart: Bool) -> RowError? {
    for currency in [pair.base, pair.quote] where !currencies.contains(currency) {
      return RowError(.noRate, "the \(info.publisher) rates have no \(currency) rates at all")
    }
    if isUndated {
      return RowError(.noRate, "the \(info.publisher) rates are one undated list; \(kind) of \(span.label) needs daily rates")
    }
    if let partial = coverage.partial {
      return RowError(
        .noRate, "\(partial.holder) holds only some \(info.publisher) days; \(kind) of \(span.label) needs all of them")
    }
    guard let first = firstDay, let last = lastDay else { return RowError(.noRate, "the table is empty") }
    if span.last < first {
      return RowError(
        .dateOutOfRange,
        "\(span.label) ends (\(span.last)) before the \(info.publisher) rates start (\(first)); no earlier rate exists")
    }
    if last < span.last {
      return RowError(
        .periodIncomplete,
        "the \(info.publisher) rates end \(last), before \(span.label) ends (\(span.last)); \(kind) of an unfinished period would change, use --rates FILE with newer rates"
      )
    }
    if needsStart, span.first < first, !(coverage.firstPublication.map { first <= $0 } ?? false) {
      return RowError(
        .periodIncomplete,
        "the \(info.publisher) rates start \(first), after \(span.label) begins (\(span.first)); \(kind) needs the whole period"
      )
    }
    return nil
  }

  /// The rows of the publication days within a period.
  func rows(in span: RatePeriod.Span) -> Range<Int> {
    func firstRow(notBefore day: CalendarDay) -> Int {
      var low = 0
      var high = days.count
      while low < high {
        let middle = (low + high) / 2
        if days[middle] < day { low = middle + 1 } else { high = middle }
      }
      return low
    }
    return firstRow(notBefore: span.first)..<firstRow(notBefore: span.last.adding(days: 1))
  }

  /// The identifier of the source of some rows: the table's, or both of a merged table's when the rows span the
  /// day the later source takes over (`ecb-embedded+ecb-cache`).
  private func periodIdentifier(_ rows: Range<Int>) -> String {
    guard let firstRow = rows.first, let lastRow = rows.last else { return info.identifier }
    let early = identifier(for: days[firstRow])
    let late = identifier(for: days[lastRow])
    return early == late ? early : "\(early)+\(late)"
  }
}
