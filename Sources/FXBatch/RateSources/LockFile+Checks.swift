extension LockFile {
  /// What is wrong with a locked spot quote whose figures disagree with each other, or `nil`.
  ///
  /// A quote says its rate three times: as a fraction, as the published rates its `fx_source` names
  /// (`frankfurter EUR/USD=1.1424`: USD → EUR is 1 ÷ 1.1424; `ecb-embedded EUR/USD=1.0921 EUR/JPY=158.57`: USD →
  /// JPY is 158.57 ÷ 1.0921), and by its status (a fallback's rate day is not the key's day). A version 1 lock
  /// has no digest, so these are all that tells an edited rate from the one the source gave: the fraction must
  /// be what the named rates make, exactly, and the status must follow the days. (A version 2 lock is checked
  /// the same way, besides its digest.) An edit that changes every figure of a quote consistently cannot be
  /// told from a real answer; nor can a version 2 lock whose digest was computed again.
  ///
  /// - Parameters:
  ///   - key: the quote's pair and day.
  ///   - rate: its fraction.
  ///   - rateDay: its publication day (`nil`: undated).
  ///   - isFallback: its status.
  ///   - source: its `fx_source` text.
  static func disagreement(
    of key: RateKey, rate: ExchangeRate, rateDay: CalendarDay?, isFallback: Bool, source: String
  ) -> String? {
    let pair = key.pair
    if let rateDay, isFallback != (rateDay != key.day) {
      return isFallback
        ? "the rate of \(pair) on \(key.day) is of that day, yet marked fallback"
        : "the rate of \(pair) on \(key.day) is of \(rateDay), yet not marked fallback"
    }
    if pair.base == pair.quote { return nil }  // its rate is 1 (checked with the key)
    let legs = publishedRates(in: source)
    guard let named = pairRate(of: pair, from: legs) else {
      return legs.isEmpty
        ? "the rate of \(pair) on \(key.day) names no published rate in its source \"\(source)\" to check it against"
        : "the published rates its source \"\(source)\" names do not make a \(pair) rate"
    }
    // The calculator answers a quotient (rhs ÷ lhs) and names the rate as `fx_rate` shows it, rounded to 10
    // significant digits: that text is what it says. Only the calculator: every other writer names the rates
    // as published, so its fraction must be exactly theirs (a forged 1.14240000004 shows as 1.1424 too).
    let shown =
      source.hasPrefix("calculator ") && legs.count == 1 && legs[0].base == pair.base && legs[0].quote == pair.quote
      && legs[0].text == rate.decimalText()
    guard let left = rate.numerator.multiplied(by: named.denominator),
      let right = named.numerator.multiplied(by: rate.denominator), left == right || shown
    else {
      return
        "the rate of \(pair) on \(key.day), \(rate.numerator) ÷ \(rate.denominator), is not what its source \"\(source)\" says (\(named.decimalText()))"
    }
    return nil
  }

  /// A published rate an `fx_source` text names: `EUR/USD=1.1424` is 1.1424 USD per EUR.
  struct PublishedRate {
    let base: CurrencyCode
    let quote: CurrencyCode
    let value: ExactDecimal
    /// As written.
    let text: String
  }

  /// The published rates a `fx_source` text names, in order: `EUR/USD=1.1424` is 1.1424 USD per EUR. A rate is
  /// read as the services write it, plain or in scientific notation (Frankfurter v2's `3.7e-05`).
  static func publishedRates(in source: String) -> [PublishedRate] {
    var found: [PublishedRate] = []
    for word in source.split(separator: " ") {
      let sides = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard sides.count == 2 else { continue }
      let codes = sides[0].split(separator: "/", omittingEmptySubsequences: false)
      guard codes.count == 2, let base = CurrencyCode(codes[0]), let quote = CurrencyCode(codes[1]),
        let value = ExactDecimal(jsonNumber: String(sides[1])), value.significand > 0
      else { continue }
      found.append(PublishedRate(base: base, quote: quote, value: value, text: String(sides[1])))
    }
    return found
  }

  /// The rate of a pair from one published rate (either way round) or two through a common currency (a cross
  /// rate), as a table or a service gives it; `nil` when they make no rate of the pair.
  private static func pairRate(
    of pair: CurrencyPair, from legs: [PublishedRate]
  ) -> ExchangeRate? {
    func step(_ from: CurrencyCode, _ to: CurrencyCode, _ leg: PublishedRate) -> ExchangeRate? {
      if leg.base == from, leg.quote == to { return ExchangeRate(numerator: leg.value) }
      if leg.base == to, leg.quote == from { return ExchangeRate(numerator: leg.value).inverted }
      return nil
    }
    switch legs.count {
    case 1:
      return step(pair.base, pair.quote, legs[0])
    case 2:
      for (first, second) in [(legs[0], legs[1]), (legs[1], legs[0])] {
        for middle in [first.base, first.quote] where middle != pair.base && middle != pair.quote {
          if let toMiddle = step(pair.base, middle, first), let onward = step(middle, pair.quote, second) {
            return toMiddle.chained(with: onward)
          }
        }
      }
      return nil
    default:
      return nil
    }
  }

  /// Whether the lock file at a path answers any of some keys (a rate, or an error about the key itself):
  /// a run whose source failed those keys does not replace it with a lock without them. `false` when there is
  /// no lock there, or none that can be read.
  ///
  /// - Parameters:
  ///   - keys: market keys the run's source failed (unreachable, a timeout, an unusable answer).
  ///   - path: the lock file.
  ///   - maxStaleness: the run's `--max-staleness`, for a table lock's fallbacks.
  static func answersAny(of keys: some Collection<RateKey>, path: String, maxStaleness: Int) -> Bool {
    guard !keys.isEmpty, let existing = try? load(path: path) else { return false }
    switch existing.rates {
    case .quotes(let locked):
      return keys.contains { locked.answers.record(for: $0) != nil }
    case .table(let table):
      return keys.contains { key in
        if case .success = table.quote(for: key, maxStaleness: maxStaleness) { return true }
        return false
      }
    }
  }
}
