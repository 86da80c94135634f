/// The one per-record rule every format's general path calls: a record's fields become its outcome (converted,
/// or failed with the first problem found), from the run's quotes.
struct RecordConverter {
  /// `--rounding`: how a converted amount is rounded to its currency's minor units.
  let rounding: RoundingMode
  /// The identifier of the run's rate source, named by a record whose rate is missing.
  let sourceIdentifier: String

  /// The outcome of one record; checks run in field order: the record itself (field count, JSON shape),
  /// amount (its currency mark against the from-currency when that is known), currencies, date, rate. A
  /// converted record is added to `ledger`.
  func outcome(
    of fields: RecordFields, normalizer: RecordNormalizer, parser: AmountParser,
    quotes: QuoteBook, withoutDate: inout Int, ledger: inout ReconciliationLedger
  ) -> RowOutcome {
    // Shifted CSV fields or a malformed JSON record: not even the to-field is trustworthy.
    if let problem = fields.problem { return .failed(problem, currency: nil, source: nil) }
    let target = normalizer.targetCurrency(of: fields)
    let keyResult = normalizer.rateKey(of: fields)
    var amount: ExactDecimal
    let from = try? keyResult.get().key.pair.base
    switch normalizer.amount(of: fields, parser: parser, currency: from) {
    case .success(let value): amount = value
    case .failure(let error): return .failed(error, currency: target, source: nil)
    }
    let key: RateKey
    switch keyResult {
    case .success(let found):
      key = found.key
      // `--amount-unit minor`: the amount in the from-currency's major units, now that the currency is known.
      switch normalizer.majorAmount(amount, currency: key.pair.base) {
      case .success(let value): amount = value
      case .failure(let error): return .failed(error, currency: target, source: nil)
      }
      if found.usedDefaultDay { withoutDate += 1 }
    case .failure(let error): return .failed(error, currency: target, source: nil)
    }
    let quote: RateQuote
    switch quotes.quote(for: key) {
    case .success(let found): quote = found
    case .failure(let error): return .failed(error, currency: key.pair.quote, source: sourceIdentifier)
    }
    let minorUnits = ISO4217.currency(for: key.pair.quote)?.minorUnits ?? 2
    guard let converted = quote.rate.convert(amount, minorUnits: minorUnits, rounding: rounding) else {
      return .failed(
        RowError(.amountOverflow, "\(amount) \(key.pair.base) in \(key.pair.quote) needs more than 38 digits"),
        currency: key.pair.quote, source: quote.source)
    }
    ledger.add(amount: amount, rate: quote.rate, rounded: converted, currency: key.pair.quote)
    return .converted(converted, currency: key.pair.quote, quote: quote)
  }
}
