/// What a batch will ask a rate provider: every distinct key once, in the fewest requests.
public struct RatePlan: Sendable {
  /// Distinct (base, quote, day) keys of the run.
  public var keyCount = 0
  /// Keys answered without the network: same currency (rate 1) or refused by the provider's precheck.
  public var localAnswers: [RateKey: Result<RateQuote, RowError>] = [:]
  /// How many of the local answers came from the rate cache.
  public var cacheHits = 0
  /// The requests to send.
  public var requests: [RateRequest] = []
}

/// Turns the distinct keys of a run into a ``RatePlan`` for a provider.
public enum RatePlanner {
  /// Plans the requests for a set of keys.
  ///
  /// - Parameters:
  ///   - keys: the distinct keys of all records of all files.
  ///   - provider: the service to ask.
  ///   - today: for the provider's date checks.
  ///   - cache: answers kept from earlier runs, looked up before anything is sent.
  ///   - maxStaleness: a cached answer older than this (days before the key's day) is not used.
  /// - Returns: the local answers and the requests for the rest.
  public static func plan(
    keys: Set<RateKey>, provider: any RateProvider, today: CalendarDay, cache: RateCache? = nil, maxStaleness: Int = .max
  ) -> RatePlan {
    plan(distinctKeys: Array(keys), provider: provider, today: today, cache: cache, maxStaleness: maxStaleness)
  }

  /// ``plan(keys:provider:today:cache:maxStaleness:)`` of keys known to be distinct (a run's index of keys: a
  /// million of them are not hashed into a set again).
  static func plan(
    distinctKeys keys: [RateKey], provider: any RateProvider, today: CalendarDay, cache: RateCache? = nil,
    maxStaleness: Int = .max
  ) -> RatePlan {
    var plan = RatePlan(keyCount: keys.count)
    var remote: [RateKey] = []
    // Sorted so that the same batch always gives the same requests in the same order.
    for key in sortedByDay(keys) {
      if key.pair.base == key.pair.quote {
        plan.localAnswers[key] = .success(
          RateQuote(rate: .one, rateText: "1", rateDay: key.day, isFallback: false, source: "same currency"))
      } else if let error = provider.precheck(key, today: today) {
        plan.localAnswers[key] = .failure(error)
      } else {
        remote.append(key)
      }
    }
    if let cache, provider.cachesAnswers {
      // The staleness limit is this run's: an answer cached under a looser limit is asked again.
      let cached = cache.quotes(for: remote, source: provider.info.description).filter { key, quote in
        quote.rateDay.map { key.day.days(since: $0) <= maxStaleness } ?? true
      }
      for (key, quote) in cached { plan.localAnswers[key] = .success(quote) }
      plan.cacheHits = cached.count
      remote.removeAll { cached[$0] != nil }
    }
    plan.requests = provider.requests(for: remote, today: today, maxStaleness: maxStaleness)
    return plan
  }

  /// Keys in (day, base, quote) order: by one integer per key where every key packs (``RateKeyIndex``: the day's
  /// offset above the letters of base and quote, which sort as the codes do), else by the fields.
  static func sortedByDay(_ keys: [RateKey]) -> [RateKey] {
    var order: [(UInt64, Int32)] = []
    order.reserveCapacity(keys.count)
    for (index, key) in keys.enumerated() {
      guard let packed = RateKeyIndex.pack(key), index < Int(Int32.max) else {
        return keys.sorted { ($0.day, $0.pair.base, $0.pair.quote) < ($1.day, $1.pair.base, $1.pair.quote) }
      }
      order.append(((packed & ((1 << 34) - 1)) << 30 | packed >> 34, Int32(index)))
    }
    order.sort { $0.0 < $1.0 }
    return order.map { keys[Int($0.1)] }
  }
}
