extension BatchJob {
  /// Answers every distinct key once: from the local table, or by planning and fetching requests.
  func resolve(_ keys: Set<RateKey>, report: inout RunReport) -> [RateKey: Result<RateQuote, RowError>] {
    switch source {
    case .table(let table):
      var quotes: [RateKey: Result<RateQuote, RowError>] = [:]
      quotes.reserveCapacity(keys.count)
      for key in keys { quotes[key] = table.quote(for: key, maxStaleness: options.maxStaleness) }
      return quotes
    case .provider(let provider, let settings):
      let plan = RatePlanner.plan(keys: keys, provider: provider, today: options.today)
      let transport = settings.transport ?? URLSessionTransport(maximumConnections: settings.jobs, timeout: settings.timeout)
      let fetcher = RateFetcher(transport: transport, jobs: settings.jobs, timeout: settings.timeout, retryPolicy: settings.retryPolicy)
      let (results, retries) = fetcher.fetch(plan.requests.map(\.url), progress: settings.progress)
      var quotes = plan.localAnswers
      var fetch = RunReport.Fetch(requests: plan.requests.count, retries: retries)
      for (request, result) in zip(plan.requests, results) {
        switch result {
        case .success(let response):
          quotes.merge(provider.answers(to: request, response: response, maxStaleness: options.maxStaleness)) { first, _ in first }
        case .failure(let failure):
          let error = provider.rowError(for: failure, request: request)
          for key in request.keys { quotes[key] = .failure(error) }
          fetch.failedRequests += 1
        }
      }
      // A key the answer did not mention is an error of that key, never a silent gap.
      for request in plan.requests {
        for key in request.keys where quotes[key] == nil {
          quotes[key] = .failure(RowError(.badResponse, "\(provider.info.publisher)'s answer does not mention \(key.pair) on \(key.day)"))
        }
      }
      // For a service, the range is that of the rate days its answers used.
      let rateDays = quotes.values.compactMap { try? $0.get().rateDay }
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
    guard case .provider(let provider, _) = source else {
      return (report, nil)
    }
    return (report, RatePlanner.plan(keys: keys, provider: provider, today: options.today))
  }
}
