extension BatchJob {
  /// Answers every distinct key once: from the local table, or by planning and fetching requests.
  func resolve(_ keys: Set<RateKey>, report: inout RunReport) -> [RateKey: Result<RateQuote, RowError>] {
    switch source {
    case .table(let table):
      var quotes: [RateKey: Result<RateQuote, RowError>] = [:]
      quotes.reserveCapacity(keys.count)
      for key in keys { quotes[key] = table.quote(for: key, maxStaleness: options.maxStaleness) }
      return quotes
    case .lockFile(let path, let locked):
      var quotes: [RateKey: Result<RateQuote, RowError>] = [:]
      for key in keys {
        if let quote = locked[key] {
          if let rateDay = quote.rateDay, key.day.days(since: rateDay) > options.maxStaleness {
            quotes[key] = .failure(
              RowError(
                .staleRate,
                "the lock file's rate for \(key.pair) on \(key.day) is of \(rateDay), older than --max-staleness \(options.maxStaleness)"
              ))
          } else {
            quotes[key] = .success(quote)
          }
        } else if key.pair.base == key.pair.quote {
          quotes[key] = .success(
            RateQuote(rate: .one, rateText: "1", rateDay: key.day, isFallback: false, source: "same currency"))
        } else {
          quotes[key] = .failure(RowError(.noRate, "\(key.pair) on \(key.day) is not in the lock file \(path) (--frozen)"))
        }
      }
      return quotes
    case .provider(let provider, let settings):
      let plan = RatePlanner.plan(
        keys: keys, provider: provider, today: options.today, cache: settings.cache, maxStaleness: options.maxStaleness)
      if settings.offline {
        var quotes = plan.localAnswers
        for request in plan.requests {
          for key in request.keys {
            quotes[key] = .failure(
              RowError(.noRate, "offline (--offline): no cached \(provider.info.publisher) rate for \(key.pair) on \(key.day)"))
          }
        }
        report.fetch = RunReport.Fetch(requests: 0, retries: 0, failedRequests: 0, cacheHits: plan.cacheHits)
        return quotes
      }
      let transport = settings.transport ?? URLSessionTransport(maximumConnections: settings.jobs, timeout: settings.timeout)
      let fetcher = RateFetcher(
        transport: transport, jobs: settings.jobs, timeout: settings.timeout, retryPolicy: settings.retryPolicy)
      let (results, retries) = fetcher.fetch(plan.requests.map(\.url), progress: settings.progress)
      var quotes = plan.localAnswers
      var fetch = RunReport.Fetch(requests: plan.requests.count, retries: retries, failedRequests: 0, cacheHits: plan.cacheHits)
      var fetched: [RateKey: RateQuote] = [:]
      for (request, result) in zip(plan.requests, results) {
        switch result {
        case .success(let response):
          let answers = provider.answers(to: request, response: response, maxStaleness: options.maxStaleness)
          for (key, answer) in answers {
            quotes[key] = answer
            if case .success(let quote) = answer { fetched[key] = quote }
          }
          // An answer that served none of its keys (an error body, garbage) is a failed request too.
          if !answers.values.contains(where: { (try? $0.get()) != nil }) { fetch.failedRequests += 1 }
        case .failure(let failure):
          let error = provider.rowError(for: failure, request: request)
          for key in request.keys { quotes[key] = .failure(error) }
          fetch.failedRequests += 1
        }
      }
      if provider.cachesAnswers { settings.cache?.store(fetched, source: provider.info.description, today: options.today) }
      // A key the answer did not mention is an error of that key, never a silent gap.
      for request in plan.requests {
        for key in request.keys where quotes[key] == nil {
          quotes[key] = .failure(
            RowError(.badResponse, "\(provider.info.publisher)'s answer does not mention \(key.pair) on \(key.day)"))
        }
      }
      // For a service, the range is that of the rate days its answers used.
      let rateDays = quotes.compactMap { key, result in key.pair.base == key.pair.quote ? nil : try? result.get().rateDay }
      report.rates.firstDay = rateDays.min()?.description
      report.rates.lastDay = rateDays.max()?.description
      report.fetch = fetch
      return quotes
    }
  }

  /// The plan a run would follow (`convert --plan`): nothing is fetched and nothing is written.
  ///
  /// - Returns: the report of pass 1 (file errors included) and the plan; the plan is `nil` for a local table.
  public func plan() -> (report: RunReport, plan: RatePlan?) {
    var report = makeReport()
    let (_, keys) = scanAll(report: &report)
    guard case .provider(let provider, let settings) = source else {
      return (report, nil)
    }
    return (
      report,
      RatePlanner.plan(
        keys: keys, provider: provider, today: options.today, cache: settings.cache, maxStaleness: options.maxStaleness)
    )
  }
}
