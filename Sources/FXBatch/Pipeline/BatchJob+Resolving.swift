extension BatchJob {
  /// Answers every distinct key once. Each key is first routed through the currency lifecycle
  /// (``CurrencyLifecycle/route(for:)``): a legacy currency on or after its change asks the source for its
  /// successor, and keys that route to the same market key share one answer.
  ///
  /// - Returns: the quote of every key, and the source's answers to the market keys (what a lock file keeps:
  ///   fixed conversions are part of fxbatch, not of the rates).
  func resolve(_ keys: Set<RateKey>, report: inout RunReport) -> (
    quotes: [RateKey: Result<RateQuote, RowError>], market: [RateKey: Result<RateQuote, RowError>]
  ) {
    var quotes: [RateKey: Result<RateQuote, RowError>] = [:]
    var routes: [RateKey: CurrencyRoute] = [:]
    for key in keys {
      switch CurrencyLifecycle.route(for: key) {
      case .success(let route): routes[key] = route
      case .failure(let error): quotes[key] = .failure(error)
      }
    }
    let market = resolveMarket(Set(routes.values.map(\.marketKey)), report: &report)
    for (key, route) in routes {
      let answer = market[route.marketKey] ?? .failure(RowError(.noRate, "no rate was looked up for \(route.marketKey.pair)"))
      quotes[key] = route.quote(from: answer)
    }
    return (quotes, market)
  }

  /// The answer of a local table to one key, routed through the currency lifecycle (what ``resolve(_:report:)``
  /// gives a table source's key).
  func resolve(_ key: RateKey, table: RateTable) -> Result<RateQuote, RowError> {
    switch CurrencyLifecycle.route(for: key) {
    case .failure(let error): return .failure(error)
    case .success(let route): return route.quote(from: table.quote(for: route.marketKey, maxStaleness: options.maxStaleness))
    }
  }

  /// The market keys a run asks its source (see ``resolve(_:report:)``); keys past their currency's lifetime are
  /// not asked.
  static func marketKeys(of keys: Set<RateKey>) -> Set<RateKey> {
    Set(keys.compactMap { try? CurrencyLifecycle.route(for: $0).get().marketKey })
  }

  /// Answers every distinct market key once: from the local table, or by planning and fetching requests.
  private func resolveMarket(_ keys: Set<RateKey>, report: inout RunReport) -> [RateKey: Result<RateQuote, RowError>] {
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
    let keys = scanAll(report: &report).keys.allKeys
    guard case .provider(let provider, let settings) = source else {
      return (report, nil)
    }
    return (
      report,
      RatePlanner.plan(
        keys: Self.marketKeys(of: keys), provider: provider, today: options.today, cache: settings.cache,
        maxStaleness: options.maxStaleness)
    )
  }
}
