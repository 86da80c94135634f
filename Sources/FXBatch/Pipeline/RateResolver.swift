import Foundation

/// Answers a run's rate keys from its source: a local table, the table a ``TableRateProvider`` answered, a lock
/// file, or a provider asked through the planner and the bounded fetcher. Every key is routed through the
/// currency lifecycle first, and each distinct market key is asked once.
struct RateResolver {
  /// Where the run's rates come from.
  let source: RateSourceChoice
  /// The table the run's rates come from: the local one, or (in pass 2) the one a provider's answer filled.
  let sourceTable: RateTable?
  /// Why a ``TableRateProvider`` gave no table, as the error of each key it would have been asked (see
  /// ``providerTable(_:provider:settings:report:)``).
  let tableFailure: ((RateKey) -> RowError)?
  /// `--max-staleness`.
  let maxStaleness: Int
  /// The run's day (`FXBATCH_TODAY` may set it).
  let today: CalendarDay
  /// `--rate-kind`, `--period`. A period rule is answered only from a table of daily rates: a local one
  /// (``RateSourceChoice/table(_:)``) or the one a ``TableRateProvider`` answered (``sourceTable``, fetched to
  /// cover whole periods by ``providerTable(_:provider:settings:report:)``); a service's or a lock file's answers
  /// are rates of days.
  var rule: RateRule = .spot

  /// Answers every distinct key once. Each key is first routed through the currency lifecycle
  /// (``CurrencyLifecycle/route(for:)``): a legacy currency on or after its change asks the source for its
  /// successor, and keys that route to the same market key share one answer.
  ///
  /// - Returns: the source's answers to the market keys (what a lock file keeps: fixed conversions are part of
  ///   fxbatch, not of the rates), and the answer of every key that is not its own market key as a derived
  ///   record (``AnswerTable/Flags/derived``): every key has a record.
  func resolve(_ keys: RateKeyIndex, report: inout RunReport) -> AnswerTable {
    var failed: [(RateKey, RowError)] = []
    var routed: [(RateKey, CurrencyRoute)] = []
    var market: [RateKey] = []
    market.reserveCapacity(keys.count)
    var routedMarket = Set<RateKey>()
    // Per currency, the first day it is no longer itself (``CurrencyLifecycle/endOfUse(of:)``, as days since 1970;
    // `Int32.max`: never; `Int32.min`: not looked up): a key whose currencies are both before theirs routes to
    // itself, without asking the lifecycle again.
    var endOfUse = [Int32](repeating: .min, count: keys.count > 0 ? 1 << 15 : 0)
    func end(_ code: CurrencyCode) -> Int {
      let letters = Int(RateKeyIndex.letters(code))
      if endOfUse[letters] == .min {
        endOfUse[letters] = CurrencyLifecycle.endOfUse(of: code).map { Int32(clamping: $0.daysSinceEpoch) } ?? .max
      }
      return Int(endOfUse[letters])
    }
    for index in 0..<keys.count {
      let key = keys.key(at: index)
      let day = key.day.daysSinceEpoch
      if day < end(key.pair.base), day < end(key.pair.quote) {
        market.append(key)
        continue
      }
      switch CurrencyLifecycle.route(for: key) {
      case .success(let route) where route.isDirect:
        market.append(key)
      case .success(let route):
        routed.append((key, route))
        let marketKey = route.marketKey
        if RateKeyIndex.pack(marketKey).flatMap(keys.index(of:)) == nil, routedMarket.insert(marketKey).inserted {
          market.append(marketKey)
        }
      case .failure(let error):
        failed.append((key, error))
      }
    }
    var table = resolveMarket(consume market, index: keys, report: &report)
    func noRate(_ key: RateKey) -> Result<RateQuote, RowError> {
      .failure(RowError(.noRate, "no rate was looked up for \(key.pair)"))
    }
    let routedAnswers = routed.map { key, route in
      (key, route.quote(from: table.answer(for: route.marketKey) ?? noRate(route.marketKey)))
    }
    for (key, answer) in routedAnswers { table.set(key, answer, derived: true) }
    for (key, error) in failed { table.set(key, .failure(error), derived: true) }
    for index in 0..<keys.count where table.record(ofKeyAt: index, in: keys) == nil {
      let key = keys.key(at: index)
      table.set(key, noRate(key), derived: true)
    }
    return table
  }

  /// ``resolve(_:report:)`` as a dictionary of every key's answer (the commands that show rates).
  func resolveQuotes(_ keys: Set<RateKey>, report: inout RunReport) -> [RateKey: Result<RateQuote, RowError>] {
    let table = resolve(RateKeyIndex(keys), report: &report)
    var quotes: [RateKey: Result<RateQuote, RowError>] = [:]
    for key in keys { quotes[key] = table.answer(for: key) }
    return quotes
  }

  /// The answer of a local table to one key, routed through the currency lifecycle (what ``resolve(_:report:)``
  /// gives a table source's key).
  func resolve(_ key: RateKey, table: RateTable) -> Result<RateQuote, RowError> {
    resolve(key) { tableQuote(for: $0, table: table) }
  }

  /// The answer of the run's table to a market key under the run's ``rule``.
  func tableQuote(for key: RateKey, table: RateTable) -> Result<RateQuote, RowError> {
    if let refusal = periodRefusal(key) { return .failure(refusal) }
    return table.quote(for: key, rule: rule, maxStaleness: maxStaleness)
  }

  /// The error of every key when the run's ``rule`` is a period rule and its source is not a local table.
  private func periodRefusal(_ key: RateKey) -> RowError? {
    guard rule != .spot, key.pair.base != key.pair.quote, sourceTable == nil else { return nil }
    switch source {
    case .table: return nil
    case .lockFile(_, let locked) where locked.rule == rule: return nil  // the locked run's period rates
    default: break
    }
    return RowError(
      .noRate,
      "average and closing rates need daily rates of whole periods: the embedded history, --rates FILE, the ECB feed or Frankfurter v2, not \(source.info.publisher)'s answers"
    )
  }

  /// The answers of the run's table to market keys; under a period rule, keys of one pair and period share one.
  private func tableQuotes(for keys: [RateKey], table: RateTable) -> AnswerTable {
    var quotes = AnswerTable()
    quotes.reserveCapacity(keys.count)
    guard let period = rule.period else {
      for key in keys { quotes.set(key, table.quote(for: key, maxStaleness: maxStaleness)) }
      return quotes
    }
    var byPeriod: [RateKey: Result<RateQuote, RowError>] = [:]
    for key in keys {
      let periodKey = RateKey(base: key.pair.base, quote: key.pair.quote, day: period.span(containing: key.day).first)
      if let known = byPeriod[periodKey] {
        quotes.set(key, known)
      } else {
        let answer = tableQuote(for: key, table: table)
        byPeriod[periodKey] = answer
        quotes.set(key, answer)
      }
    }
    return quotes
  }

  /// A lock file's answer to a market key (a frozen run): its locked answer, unless a rate of a day older than
  /// this run's `--max-staleness` allows; 1 for one currency; else `no_rate` naming the lock. (What
  /// ``resolveMarket(_:report:)`` gives a lock's keys, one at a time.)
  func lockAnswer(for key: RateKey, path: String, answers: AnswerTable) -> Result<RateQuote, RowError> {
    if let record = answers.record(for: key) {
      if let stale = staleLockRate(key, answers: answers, record: record) { return .failure(stale) }
      return answers.answer(at: record)
    }
    if key.pair.base == key.pair.quote {
      return .success(
        RateQuote(
          rate: .one, rateText: "1", rateDay: rule == .spot ? key.day : nil, isFallback: false, source: "same currency",
          period: rule.period?.span(containing: key.day).label))
    }
    return .failure(RowError(.noRate, "\(key.pair) on \(key.day) is not in the lock file \(path) (--frozen)"))
  }

  /// The error of a locked rate older than this run's `--max-staleness` allows (spot rule), or `nil`.
  func staleLockRate(_ key: RateKey, answers: AnswerTable, record: Int) -> RowError? {
    Self.staleLockRate(key, answers: answers, record: record, rule: rule, maxStaleness: maxStaleness)
  }

  static func staleLockRate(_ key: RateKey, answers: AnswerTable, record: Int, rule: RateRule, maxStaleness: Int)
    -> RowError?
  {
    guard rule == .spot, let rateDay = answers.rateDay(at: record), key.day.days(since: rateDay) > maxStaleness else {
      return nil
    }
    return RowError(
      .staleRate,
      "the lock file's rate for \(key.pair) on \(key.day) is of \(rateDay), older than --max-staleness \(maxStaleness)")
  }

  /// Whether a lock's record is its key's answer under the general rules as it stands (a direct route, not
  /// stale): then the fast path may write it (``AnsweredQuotes``).
  ///
  /// - Parameter uses: the lifecycle's days of use per currency: a key whose currencies are both in use on its
  ///   day routes to itself; any other key is routed (``CurrencyLifecycle/route(for:)``).
  static func lockRecordIsFinal(
    _ record: Int, answers: AnswerTable, uses: CurrencyUseDays, rule: RateRule, maxStaleness: Int
  ) -> Bool {
    let key = answers.key(at: record)
    if uses.bothInUse(key) != true {
      guard case .success(let route) = CurrencyLifecycle.route(for: key), route.isDirect else { return false }
    }
    return staleLockRate(key, answers: answers, record: record, rule: rule, maxStaleness: maxStaleness) == nil
  }

  /// The answer to one key, routed through the currency lifecycle, from the answers to market keys.
  func resolve(_ key: RateKey, market: (RateKey) -> Result<RateQuote, RowError>) -> Result<RateQuote, RowError> {
    switch CurrencyLifecycle.route(for: key) {
    case .failure(let error): return .failure(error)
    case .success(let route): return route.quote(from: market(route.marketKey))
    }
  }

  /// The market keys a run asks its source (see ``resolve(_:report:)``); keys past their currency's lifetime are
  /// not asked.
  static func marketKeys(of keys: Set<RateKey>) -> Set<RateKey> {
    Set(keys.compactMap { try? CurrencyLifecycle.route(for: $0).get().marketKey })
  }

  /// Answers every distinct market key once: from the local table (or the table a provider filled), the
  /// answers pass 1's fetch already gave, or by planning and fetching requests.
  ///
  /// - Parameter index: the run's keys, whose index a provider's table shares (``AnswerTable/init(answering:)``):
  ///   its records follow the run's keys, and those it leaves unanswered are the caller's to set.
  private func resolveMarket(_ keys: consuming [RateKey], index: RateKeyIndex? = nil, report: inout RunReport)
    -> AnswerTable
  {
    if let table = sourceTable { return tableQuotes(for: keys, table: table) }
    if let tableFailure, case .provider(let provider, _) = source {
      // A table provider that gave no table: why, under every rule.
      var quotes = AnswerTable()
      for key in keys { quotes.set(key, tableFailureAnswer(key, provider: provider, failure: tableFailure)) }
      return quotes
    }
    if rule != .spot, case .provider(let provider as FrankfurterProvider, let settings) = source {
      return AnswerTable(frankfurterPeriodAnswers(to: Set(keys), provider: provider, settings: settings, report: &report))
    }
    if rule != .spot, !source.isLockFile, !source.isChain {
      // No table to average: every key is refused (a same-currency key is 1, as under every rule).
      var quotes = AnswerTable()
      for key in keys {
        if let refusal = periodRefusal(key) {
          quotes.set(key, .failure(refusal))
        } else {
          quotes.set(
            key, .success(RateQuote(rate: .one, rateText: "1", rateDay: nil, isFallback: false, source: "same currency")))
        }
      }
      return quotes
    }
    switch source {
    case .table(let table):
      return tableQuotes(for: keys, table: table)
    case .chain(let links):
      return chainAnswers(to: keys, links: links, report: &report)
    case .lockFile(let path, let locked):
      // The lock's table answers its keys as they are; a key it does not hold, or a rate older than this run's
      // --max-staleness, gets its answer added (the lock's table is copied only then).
      var quotes = locked.answers
      for key in keys {
        if let record = quotes.record(for: key), staleLockRate(key, answers: quotes, record: record) == nil { continue }
        quotes.set(key, lockAnswer(for: key, path: path, answers: locked.answers))
      }
      return quotes
    case .provider(let provider, let settings):
      // The market keys are distinct: the run's index, and routed keys it does not hold, each once.
      let plan = RatePlanner.plan(
        distinctKeys: keys, provider: provider, today: today, cache: settings.cache, maxStaleness: maxStaleness)
      keys = []  // planned: the requests hold them while their answers come
      if settings.offline { return offlineAnswers(to: plan, provider: provider, report: &report) }
      // Each answer is read as it arrives and its body dropped (``fetch(_:settings:read:take:)``); the answers are
      // taken in request order, the plan's requests first.
      let asked = plan.requests.reduce(0) { $0 + $1.keys.count }
      var quotes: AnswerTable
      if let index {
        quotes = AnswerTable(answering: index)
        for (key, answer) in plan.localAnswers { quotes.set(key, answer) }
      } else {
        quotes = AnswerTable(plan.localAnswers)
        quotes.reserveCapacity(quotes.count + asked)
      }
      // A service's `fx_source` names the pair and the rate: about 30 bytes a key.
      if provider is any BatchAnsweringProvider { quotes.reserveTextCapacity(asked * 40) }
      var taken = TakenAnswers(
        quotes: consume quotes,  // one owner: its records and texts are written in place
        keepsFetched: settings.cache != nil && provider.cachesAnswers && !(provider is any TableRateProvider))
      let read = Self.reader(provider, maxStaleness: maxStaleness)
      var round = plan.requests
      var failures: [FetchError?] = []
      // The plan's requests whose keys all have their answer once taken (``TakenAnswers/take(_:of:provider:)``).
      var answeredWhole = [Bool](repeating: false, count: plan.requests.count)
      func send(_ requests: [RateRequest], planned: Bool = false) {
        failures = []
        taken.retries += fetch(requests, settings: settings, read: read) { index, answer in
          if case .failed(let failure) = answer { failures.append(failure) } else { failures.append(nil) }
          let whole = taken.take(answer, of: requests[index], provider: provider)
          if planned { answeredWhole[index] = whole }
        }
      }
      send(round, planned: true)
      // Refused requests are narrowed (the keys they were refused with, not for; a range split shorter) and sent
      // again, their answers replacing the refusal's errors; a narrowed request refused again is narrowed again,
      // for at most `maximumNarrowingRounds` rounds.
      for _ in 0..<Self.maximumNarrowingRounds {
        let narrowed = zip(round, failures).flatMap { request, failure in
          failure.map { provider.narrowed(request, after: $0, maxStaleness: maxStaleness) } ?? []
        }
        guard !narrowed.isEmpty else { break }
        round = narrowed
        send(round)
      }
      return answers(
        to: plan, taken: &taken, answeredWhole: answeredWhole, provider: provider, settings: settings, report: &report)
    }
  }

  /// The resolver of a source for some keys: with its local table; under a period rule, a table provider's (the
  /// ECB feed's) table for the keys' periods, fetched now (``providerTable(_:provider:settings:report:)``), or
  /// why it has none. A table provider under the spot rule answers keys as a provider of pairs does.
  static func prepared(
    for source: RateSourceChoice, keys: some Sequence<RateKey>, maxStaleness: Int, today: CalendarDay, rule: RateRule,
    report: inout RunReport
  ) -> RateResolver {
    var resolver = RateResolver(
      source: source, sourceTable: nil, tableFailure: nil, maxStaleness: maxStaleness, today: today, rule: rule)
    switch source {
    case .table(let table):
      resolver = RateResolver(
        source: source, sourceTable: table, tableFailure: nil, maxStaleness: maxStaleness, today: today, rule: rule)
    case .provider(let provider as any TableRateProvider, let settings) where rule != .spot:
      var index = RateKeyIndex(keys)
      switch resolver.providerTable(&index, provider: provider, settings: settings, report: &report) {
      case .table(let table):
        resolver = RateResolver(
          source: source, sourceTable: table, tableFailure: nil, maxStaleness: maxStaleness, today: today, rule: rule)
      case .failed(let failure):
        resolver = RateResolver(
          source: source, sourceTable: nil, tableFailure: failure, maxStaleness: maxStaleness, today: today, rule: rule)
      }
    default: break
    }
    return resolver
  }

  /// Whether a link's error for a key means it has no rate for it (so the next link of a chain is asked): no
  /// rate, a date outside its coverage, only a rate older than `--max-staleness`, a period it has not finished
  /// publishing (under a period rule the next link then answers the whole period, never part of it). A failed exchange
  /// (``RowError/Code/isAboutTheExchange``) is the key's answer: another link's rate would hide it.
  static func passesOn(_ error: RowError) -> Bool {
    [.noRate, .dateOutOfRange, .staleRate, .unknownCurrency, .periodIncomplete].contains(error.code)
  }

  /// A chain's answers: each link answers, the way it answers alone, the keys every earlier link has no rate
  /// for (``passesOn(_:)``); a key no link has a rate for gets `no_rate` (or the code all links gave) with
  /// each link's reason. The fetch counts are summed over the links, and ``RunReport/chain`` says what each
  /// answered.
  private func chainAnswers(to keys: [RateKey], links: [RateSourceChoice.ChainLink], report: inout RunReport)
    -> AnswerTable
  {
    var quotes = AnswerTable()
    quotes.reserveCapacity(keys.count)
    var reasons: [RateKey: [RowError]] = [:]
    var remaining = keys
    var uses: [RunReport.ChainLinkUse] = []
    var fetch: RunReport.Fetch? = nil
    for link in links {
      var use = RunReport.ChainLinkUse(name: link.name, source: link.source.info.identifier, asked: remaining.count)
      defer { uses.append(use) }
      guard !remaining.isEmpty else { continue }
      var linkReport = report
      linkReport.fetch = nil
      let resolver = Self.prepared(
        for: link.source, keys: remaining, maxStaleness: maxStaleness, today: today, rule: rule, report: &linkReport)
      let answers = resolver.resolveMarket(remaining, report: &linkReport)
      if let linkFetch = linkReport.fetch {
        var sum = fetch ?? RunReport.Fetch()
        sum.requests += linkFetch.requests
        sum.retries += linkFetch.retries
        sum.failedRequests += linkFetch.failedRequests
        sum.cacheHits += linkFetch.cacheHits
        fetch = sum
      }
      var next: [RateKey] = []
      for key in remaining {
        guard let record = answers.record(for: key) else {
          reasons[key, default: []].append(
            RowError(.noRate, "\(link.source.info.publisher) was not asked \(key.pair) on \(key.day)"))
          next.append(key)
          continue
        }
        if answers.isSuccess(at: record) {
          use.answered += 1
          quotes.copy(record, of: answers, as: key)
          continue
        }
        let answer = answers.answer(at: record)
        switch answer {
        case .failure(let error) where Self.passesOn(error):
          reasons[key, default: []].append(error)
          next.append(key)
        case .failure:
          use.failed += 1
          quotes.set(key, answer)
        case .success:
          use.answered += 1
          quotes.set(key, answer)
        }
      }
      remaining = next
    }
    for key in remaining {
      let errors = reasons[key] ?? []
      let code = Set(errors.map(\.code)).count == 1 ? errors[0].code : .noRate
      let each = zip(links, errors).map { "\($0.name): \($1)" }.joined(separator: "; ")
      quotes.set(key, .failure(RowError(code, "no source of the chain has a rate for \(key.pair) on \(key.day) (\(each))")))
    }
    (report.rates.firstDay, report.rates.lastDay) = Self.rateDayRange(of: quotes)
    report.fetch = fetch
    report.chain = uses
    return quotes
  }

  /// The first and last rate day of a table's answers (same-currency keys left out), as the summary shows them.
  static func rateDayRange(of table: AnswerTable) -> (String?, String?) {
    var first: CalendarDay? = nil
    var last: CalendarDay? = nil
    for record in 0..<table.count {
      guard let day = table.rateDay(at: record) else { continue }
      let key = table.key(at: record)
      guard key.pair.base != key.pair.quote else { continue }
      if first.map({ day < $0 }) ?? true { first = day }
      if last.map({ day > $0 }) ?? true { last = day }
    }
    return (first?.description, last?.description)
  }

  /// The most rounds of narrowed requests (``RateProvider/narrowed(_:after:maxStaleness:)``) after the planned ones:
  /// a service that keeps refusing costs a bounded number of requests, never a loop.
  static let maximumNarrowingRounds = 4

  /// Sends a plan's requests through the bounded fetcher.
  func fetch(_ requests: [RateRequest], settings: FetchSettings) -> ([Result<HTTPResponse, FetchError>], Int) {
    let transport = settings.transport ?? CurlTransport(maximumConnections: settings.jobs, timeout: settings.timeout)
    let fetcher = RateFetcher(
      transport: transport, jobs: settings.jobs, timeout: settings.timeout, retryPolicy: settings.retryPolicy,
      deadline: settings.deadline)
    return fetcher.fetch(requests.map(\.url), progress: settings.progress)
  }

  /// Every key's answer from a plan's local answers and the answers taken from the requests sent (the plan's,
  /// then any narrowed ones, whose answers replaced earlier errors).
  ///
  /// - Parameter answeredWhole: per planned request, whether every key of it has its answer (not checked again).
  private func answers(
    to plan: RatePlan, taken: inout TakenAnswers, answeredWhole: [Bool], provider: any RateProvider,
    settings: FetchSettings, report: inout RunReport
  ) -> AnswerTable {
    var quotes = taken.quotes
    taken.quotes = AnswerTable()  // one owner: the keys added below do not copy the table
    let fetch = RunReport.Fetch(
      requests: taken.requests, retries: taken.retries, failedRequests: taken.failedRequests, cacheHits: plan.cacheHits)
    if taken.keepsFetched { settings.cache?.store(taken.fetched, source: provider.info.description, today: today) }
    // A key the answer did not mention is an error of that key, never a silent gap.
    for (index, request) in plan.requests.enumerated() where !answeredWhole[index] {
      for key in request.keys where quotes.record(for: key) == nil {
        quotes.set(
          key,
          .failure(RowError(.badResponse, "\(provider.info.publisher)'s answer does not mention \(key.pair) on \(key.day)")))
      }
    }
    // For a service, the range is that of the rate days its answers used.
    (report.rates.firstDay, report.rates.lastDay) = Self.rateDayRange(of: quotes)
    report.fetch = fetch
    return quotes
  }

  /// What a ``TableRateProvider`` said for pass 1's keys: its table, or why there is none (a failed request, a
  /// body that is not a table, `--offline` without a kept table): the error of every key the provider would
  /// have been asked (``tableFailure``).
  enum ProviderTable {
    case table(RateTable)
    case failed((RateKey) -> RowError)
  }

  /// Plans and fetches the table of a ``TableRateProvider`` — one request, as the planner plans it — or takes the
  /// table the rate cache kept when it covers the planned days (under `--offline`, whatever it covers).
  ///
  /// The planner is given the oldest and the newest market key the provider accepts, not every key: a table
  /// provider's requests depend only on the days its keys span (``TableRateProvider``), and a million records'
  /// 300,000 keys would otherwise be copied into sets and arrays a few times. The cache keeps one table per
  /// provider and endpoint (its `histories` table), the longest fetched extended by the newest, never a row per
  /// key.
  ///
  /// - Parameter keys: pass 1's keys; emptied once planned (the answers come from the table, or from the failure,
  ///   key by key as records ask), so that they do not share the memory of the fetch.
  func providerTable(
    _ keys: inout RateKeyIndex, provider: any TableRateProvider, settings: FetchSettings, report: inout RunReport
  ) -> ProviderTable {
    var oldest: RateKey? = nil
    var newest: RateKey? = nil
    var asked = 0
    for index in 0..<keys.count {
      guard case .success(let route) = CurrencyLifecycle.route(for: keys.key(at: index)) else { continue }
      let key = route.marketKey
      guard key.pair.base != key.pair.quote, provider.precheck(key, today: today) == nil else { continue }
      asked += 1
      if oldest.map({ key.day < $0.day }) ?? true { oldest = key }
      if newest.map({ key.day > $0.day }) ?? true { newest = key }
    }
    keys = RateKeyIndex()
    // Under a period rule the table must hold the whole period of the oldest key: the file is chosen for the
    // period's first day (the 90-day file only when it holds that day), not for the record's.
    if let period = rule.period, let key = oldest {
      let start = max(period.span(containing: key.day).first, provider.firstDay)
      if start < key.day { oldest = RateKey(base: key.pair.base, quote: key.pair.quote, day: start) }
    }
    let plan = RatePlanner.plan(
      keys: Set([oldest, newest].compactMap { $0 }), provider: provider, today: today, cache: nil,
      maxStaleness: maxStaleness)
    let cacheSource = "table:" + provider.info.description
    var kept: RateTable? = nil
    if let cache = settings.cache, case (let history, _, let fetchedAt)? = cache.history(source: cacheSource) {
      let fetchedOn = CalendarDay(daysSinceEpoch: Int((fetchedAt.timeIntervalSince1970 / 86_400).rounded(.down)))
      kept = try? provider.cachedTable(history, path: cache.path, today: today, fetchedOn: fetchedOn)
    }
    // A kept table holds only the days fetched (``RateTable/Partial``), which a period rule refuses to average:
    // under one, the cache serves only `--offline` (whose keys then say why).
    if let kept, let first = kept.days.first, let last = kept.days.last, let oldest, let newest,
      settings.offline || (rule == .spot && first <= oldest.day && newest.day <= last)
    {
      report.fetch = RunReport.Fetch(requests: 0, retries: 0, failedRequests: 0, cacheHits: asked)
      return .table(kept)
    }
    if plan.requests.isEmpty {
      // Nothing to ask: every key is refused before asking or is in one currency.
      report.fetch = RunReport.Fetch(requests: 0, retries: 0, failedRequests: 0, cacheHits: 0)
      return .table(provider.emptyTable(today: today))
    }
    if settings.offline {
      report.fetch = RunReport.Fetch(requests: 0, retries: 0, failedRequests: 0, cacheHits: 0)
      let publisher = provider.info.publisher
      return .failed { key in
        RowError(.noRate, "offline (--offline): no cached \(publisher) rate for \(key.pair) on \(key.day)")
      }
    }
    let (results, retries) = fetch(plan.requests, settings: settings)
    report.fetch = RunReport.Fetch(requests: plan.requests.count, retries: retries, failedRequests: 1, cacheHits: 0)
    let request = plan.requests[0]
    let error: RowError
    switch results[0] {
    case .failure(let failure):
      error = provider.rowError(for: failure, request: request)
    case .success(let response):
      do {
        let table = try provider.table(from: response, request: request, today: today)
        report.fetch?.failedRequests = 0
        if let cache = settings.cache, let fetchedFirst = table.days.first {
          // A shorter file (the 90-day one) extends a longer kept table rather than replace it.
          let keep =
            kept.flatMap { kept in kept.days.first.map { $0 < fetchedFirst } == true ? kept : nil }
            .map { $0.extended(with: table, info: provider.info) } ?? table
          if let text = provider.tableText(keep), let last = keep.days.last {
            try? cache.storeHistory(csv: text, lastDay: last, source: cacheSource, now: runClock())
          } else {
            // Used for this run, not kept: the summary says so, so that a next run's refetch is no surprise.
            report.fetch?.notKept =
              "its \(keep.days.count) days × \(keep.pairs.count) currencies are larger than the rate cache keeps (\(ECBHistoryCSV.maximumTextSize >> 20) MB as an ECB history CSV)"
          }
        }
        guard rule != .spot, let fetchedFirst = table.days.first else { return .table(table) }
        // A period rule averages the file's days: a period that begins before its first row (a 90-day file that
        // does not reach back to it) is `period_incomplete`, never the average of the days the file has.
        var periodTable = table
        periodTable.coverage.firstDay = max(table.coverage.firstDay ?? fetchedFirst, fetchedFirst)
        return .table(periodTable)
      } catch let parseError {
        // The provider's own reading of the body says why it is not an answer.
        let answer = provider.answers(to: request, response: response, maxStaleness: maxStaleness).values.first
        if case .failure(let reason) = answer {
          error = reason
        } else {
          error = RowError(
            .badResponse, "\(request.url.lastPathComponent): \(parseError.message) (line \(parseError.line))")
        }
      }
    }
    return .failed { _ in error }
  }

  /// Now, on the run's day (`today`, which `FXBATCH_TODAY` may set): the time a fetched table is kept with, so
  /// that the day it covers up to is the run's.
  private func runClock() -> Date {
    let now = Date().timeIntervalSince1970
    return Date(
      timeIntervalSince1970: Double(today.daysSinceEpoch) * 86_400 + now.truncatingRemainder(dividingBy: 86_400))
  }

  /// The answer of a key when a ``TableRateProvider`` gave no table: rate 1 for the same currency, the
  /// provider's precheck error for a key it would not have been asked, else the failure's error.
  func tableFailureAnswer(_ key: RateKey, provider: any RateProvider, failure: (RateKey) -> RowError) -> Result<
    RateQuote, RowError
  > {
    if key.pair.base == key.pair.quote {
      return .success(RateQuote(rate: .one, rateText: "1", rateDay: key.day, isFallback: false, source: "same currency"))
    }
    if let error = provider.precheck(key, today: today) { return .failure(error) }
    return .failure(failure(key))
  }

  /// The answers of a plan sent nowhere: its local answers, and `--offline`'s `no_rate` for every key of its
  /// requests.
  private func offlineAnswers(to plan: RatePlan, provider: any RateProvider, report: inout RunReport) -> AnswerTable {
    var quotes = AnswerTable(plan.localAnswers)
    for request in plan.requests {
      for key in request.keys {
        quotes.set(
          key,
          .failure(
            RowError(.noRate, "offline (--offline): no cached \(provider.info.publisher) rate for \(key.pair) on \(key.day)")))
      }
    }
    report.fetch = RunReport.Fetch(requests: 0, retries: 0, failedRequests: 0, cacheHits: plan.cacheHits)
    return quotes
  }
}
