/// Period rates over Frankfurter v2 ranges (see ``FrankfurterProvider/periodRequests(for:period:today:)``): the
/// period requests are fetched as every request is (the bounded fetcher, a 422's narrowing), and each key is
/// answered by the one period rule over its pair's rows.
extension RateResolver {
  /// The answers to market keys under the run's period rule from Frankfurter v2.
  ///
  /// A key takes its period's request: a failed request is the error of its keys (a 422 naming an unknown
  /// currency a `no_rate` of that currency's keys, the request asked again without it), an answer that is not a
  /// list of rates a `bad_response` of them all, a currency whose rows cannot be read exactly a `bad_response` of
  /// its keys. The rate cache is neither read nor written: it keeps rates of days.
  func frankfurterPeriodAnswers(
    to keys: Set<RateKey>, provider: FrankfurterProvider, settings: FetchSettings, report: inout RunReport
  ) -> [RateKey: Result<RateQuote, RowError>] {
    guard let period = rule.period else { return [:] }
    var quotes: [RateKey: Result<RateQuote, RowError>] = [:]
    var asked: Set<RateKey> = []
    for key in keys {
      let span = period.span(containing: key.day)
      if key.pair.base == key.pair.quote {
        quotes[key] = .success(
          RateQuote(rate: .one, rateText: "1", rateDay: nil, isFallback: false, source: "same currency", period: span.label))
      } else if span.last < provider.firstDay {
        quotes[key] = .failure(
          RowError(
            .dateOutOfRange,
            "\(span.label) ends (\(span.last)) before Frankfurter's first rates (\(provider.firstDay)); no earlier rate exists"))
      } else {
        asked.insert(key)
      }
    }
    let planned = provider.periodRequests(for: asked, period: period, today: today)
    if settings.offline {
      for key in asked {
        quotes[key] = .failure(
          RowError(
            .noRate,
            "offline (--offline): the \(provider.info.publisher) rates of \(period.span(containing: key.day).label) are not kept")
        )
      }
      report.fetch = RunReport.Fetch(requests: 0, retries: 0, failedRequests: 0, cacheHits: 0)
      return quotes
    }
    var requests = planned.requests
    var (results, retries) = fetch(requests, settings: settings)
    // A request refused for unknown currencies is asked again without them; its answer serves the others. A
    // period request spans at most a year and its look-ahead, within the service's range limit, and is not split.
    var narrowedOf: [Int: Int] = [:]
    for (index, result) in results.enumerated() {
      guard case .failure(let failure) = result,
        let narrowed = provider.withoutUnknownCurrencies(requests[index], after: failure)
      else {
        continue
      }
      narrowedOf[index] = requests.count
      requests.append(narrowed)
    }
    if !narrowedOf.isEmpty {
      let (more, moreRetries) = fetch(Array(requests[planned.requests.count...]), settings: settings)
      results += more
      retries += moreRetries
    }
    var fetchReport = RunReport.Fetch(requests: requests.count, retries: retries, failedRequests: 0, cacheHits: 0)
    /// What a request says of each currency: the rows of its answer, or the error of the currency's keys.
    struct Answer {
      var rows: [String: [FrankfurterProvider.Row]] = [:]
      var errors: [CurrencyCode: RowError] = [:]
      var days: [CalendarDay] = []
      var from: CalendarDay
    }
    var answers: [Answer] = []
    for index in planned.requests.indices {
      let request = requests[index]
      let from = request.keys.map(\.day).min() ?? today
      var answer = Answer(from: from)
      for attempt in [index] + (narrowedOf[index].map { [$0] } ?? []) {
        switch results[attempt] {
        case .failure(let failure):
          fetchReport.failedRequests += 1
          for (key, error) in provider.rowErrors(for: failure, request: requests[attempt]) {
            answer.errors[key.pair.quote] = error
          }
        case .success(let response):
          var published = provider.publishedRows(request: requests[attempt], response: response, maxStaleness: 0)
          if case .success(let read) = published, let error = provider.rowAfterRange(read.rows, request: requests[attempt]) {
            published = .failure(error)
          }
          switch published {
          case .failure(let error):
            fetchReport.failedRequests += 1
            for key in requests[attempt].keys { answer.errors[key.pair.quote] = error }
          case .success(let read):
            for key in requests[attempt].keys {
              answer.errors[key.pair.quote] = nil  // answered by the narrowed request
              if let reason = read.bad[key.pair.quote.description] {
                answer.errors[key.pair.quote] = RowError(.badResponse, "Frankfurter: \(reason)")
              }
            }
            answer.rows.merge(read.rows) { _, new in new }
          }
        }
      }
      // The service's publication days: of every currency it answered readably (a period's days are its days).
      let readable = answer.rows.filter { quote, _ in CurrencyCode(quote).map { answer.errors[$0] == nil } ?? false }
      answer.days = Set(readable.values.joined().map(\.day)).sorted()
      answers.append(answer)
    }
    var tables: [Int: [CurrencyPair: RateTable]] = [:]
    for key in asked {
      let span = period.span(containing: key.day)
      guard let index = planned.requestOfPeriod[span.first] else {
        quotes[key] = .failure(
          RowError(.periodIncomplete, "\(span.label) has not begun on \(today); Frankfurter has no rates of it yet"))
        continue
      }
      let answer = answers[index]
      if let error = [key.pair.base, key.pair.quote].compactMap({ answer.errors[$0] }).first {
        quotes[key] = .failure(error)
        continue
      }
      let table =
        tables[index]?[key.pair]
        ?? provider.periodTable(key.pair, rows: answer.rows, publicationDays: answer.days, from: answer.from)
      tables[index, default: [:]][key.pair] = table
      quotes[key] = table.quote(for: key, rule: rule, maxStaleness: 0)
    }
    let rateDays = quotes.values.compactMap { try? $0.get().rateDay }
    report.rates.firstDay = rateDays.min()?.description
    report.rates.lastDay = rateDays.max()?.description
    report.fetch = fetchReport
    return quotes
  }
}
