/// The one per-record rule every format's general path calls: a record's fields become its outcome (converted,
/// or failed with the first problem found), from the run's quotes.
struct RecordConverter {
  /// `--rounding`: how a converted amount is rounded to its currency's minor units.
  let rounding: RoundingMode
  /// The identifier of the run's rate source, named by a record whose rate is missing.
  let sourceIdentifier: String
  /// With several amounts (``FieldNames/amountNames``), their NAMEs in order: an amount's error and its
  /// reconciliation name it. Empty for one amount.
  var amountNames: [String] = []
  /// Which records are summary rows, copied as they are (``RowSkipRule``): judged before anything else.
  var skipRule: RowSkipRule = .none

  /// The outcome of one record: ``RowOutcome/skipped`` for a summary row (``skipRule``); else checks run in
  /// field order: the record itself (field count, JSON shape),
  /// amount (its currency mark against the from-currency when that is known), currencies, date, rate. A
  /// converted record is added to `ledger`.
  func outcome(
    of fields: RecordFields, normalizer: RecordNormalizer, parser: AmountParser,
    quotes: QuoteBook, withoutDate: inout Int, ledger: inout ReconciliationLedger
  ) -> RowOutcome {
    switch skipRule.decision(fields, fixedFrom: normalizer.fixedFrom, fixedTo: normalizer.fixedTo) {
    case .success(true): return .skipped
    case .success(false): break
    case .failure(let error): return .failed(error, currency: normalizer.targetCurrency(of: fields), source: nil)
    }
    if !fields.amounts.isEmpty {
      return outcome(
        ofSeveral: fields, normalizer: normalizer, parser: parser, quotes: quotes, withoutDate: &withoutDate, ledger: &ledger)
    }
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
    ledger.add(amount: amount, rate: quote.rate, rounded: converted, currency: key.pair.quote, from: key.pair.base)
    return .converted(converted, currency: key.pair.quote, quote: quote)
  }

  /// The outcome of a record with several amounts (``RecordFields/amounts``): each converted at the record's
  /// one rate and rounded once, or the record failed with the first problem found, an amount's naming it
  /// (`invalid_amount: Fee: …`). Nothing of a failed record is converted or added to `ledger`.
  ///
  /// Checks run in this order: the record's own problem (one that every amount's reading shares, or one of none
  /// of them), each amount's field, each amount's own currency (a money object's) against the record's
  /// from-currency, each amount's value, the currencies and the date, the rate, each conversion.
  private func outcome(
    ofSeveral fields: RecordFields, normalizer: RecordNormalizer, parser: AmountParser, quotes: QuoteBook,
    withoutDate: inout Int, ledger: inout ReconciliationLedger
  ) -> RowOutcome {
    let amounts = fields.amounts
    func name(_ index: Int) -> String { index < amountNames.count ? amountNames[index] : "amount \(index + 1)" }
    func named(_ error: RowError, _ index: Int) -> RowError { RowError(error.code, "\(name(index)): \(error.message)") }
    // A problem every amount's reading has (a member twice, an fx element) or none has (a currency path that
    // leads nowhere) is the record's; one that some amount's own reading has is that amount's.
    let sharedByAll = { (problem: RowError) in amounts.allSatisfy { $0.problem == problem } }
    if let problem = fields.problem, sharedByAll(problem) || !amounts.contains(where: { $0.problem == problem }) {
      return .failed(problem, currency: nil, source: nil)
    }
    for (index, amount) in amounts.enumerated() {
      guard let problem = amount.problem else { continue }
      return .failed(sharedByAll(problem) ? problem : named(problem, index), currency: nil, source: nil)
    }
    let target = normalizer.targetCurrency(of: fields)
    // The record's from-currency: `--from`, its from-currency field, else the first amount's own (a money object's).
    var record = fields
    var fromAmount: Int? = nil
    if normalizer.fixedFrom == nil {
      if case .absent = record.from, let first = amounts.firstIndex(where: { $0.from != .absent }) {
        record.from = amounts[first].from
        fromAmount = first
      } else if amounts[0].from != .absent {
        fromAmount = 0
      }
    }
    let keyResult = normalizer.rateKey(of: record)
    let from = try? keyResult.get().key.pair.base
    var values: [ExactDecimal] = []
    for (index, amount) in amounts.enumerated() {
      if normalizer.fixedFrom == nil, amount.from != .absent {
        switch normalizer.currency(amount.from, fixed: nil, role: "from") {
        case .failure(let error): return .failed(named(error, index), currency: target, source: nil)
        case .success(let own):
          if let from, own != from {
            let record =
              fromAmount.map { "\(RowError.quoted(name($0))) is in \(from)" } ?? "the record's from-currency is \(from)"
            return .failed(
              RowError(
                .invalidRecord,
                "the amounts disagree on the from-currency: \(record) and \(RowError.quoted(name(index))) in \(own);"
                  + " all amounts of a record convert from its one from-currency"),
              currency: target, source: nil)
          }
        }
      }
      switch normalizer.amount(of: amount, parser: parser, currency: from) {
      case .success(let value): values.append(value)
      case .failure(let error): return .failed(named(error, index), currency: target, source: nil)
      }
    }
    let key: RateKey
    switch keyResult {
    case .success(let found):
      key = found.key
      // `--amount-unit minor`: each amount in the from-currency's major units.
      for index in values.indices {
        switch normalizer.majorAmount(values[index], currency: key.pair.base) {
        case .success(let value): values[index] = value
        case .failure(let error): return .failed(named(error, index), currency: target, source: nil)
        }
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
    var converted: [ExactDecimal] = []
    for (index, amount) in values.enumerated() {
      guard let value = quote.rate.convert(amount, minorUnits: minorUnits, rounding: rounding) else {
        return .failed(
          named(RowError(.amountOverflow, "\(amount) \(key.pair.base) in \(key.pair.quote) needs more than 38 digits"), index),
          currency: key.pair.quote, source: quote.source)
      }
      converted.append(value)
    }
    for index in values.indices {
      ledger.add(
        amount: values[index], rate: quote.rate, rounded: converted[index], currency: key.pair.quote, name: name(index),
        from: key.pair.base)
    }
    return .converted(converted[0], currency: key.pair.quote, quote: quote, more: Array(converted.dropFirst()))
  }
}
