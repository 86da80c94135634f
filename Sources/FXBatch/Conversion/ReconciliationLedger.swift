/// Collects, per target currency, what ``Reconciliation`` reports: the records, the sum of their rounded amounts,
/// and their exact unrounded total.
///
/// The exact total is streamed (``StreamedTotal``, constant memory). In the rare case where its truncated
/// fractions leave the rounding open (``undeterminedCurrencies(rounding:)``), the job reads the records again
/// with those currencies in ``exactCurrencies``, whose totals are then kept as an ``ExactTotal`` of amounts per
/// rate and rounded from it.
struct ReconciliationLedger: Sendable, Equatable {
  struct Account: Sendable, Equatable {
    /// The target currency's ISO 4217 minor units.
    let minorUnits: Int
    var records = 0
    /// `Σ` rounded amounts, exact, with `minorUnits` decimals (checked against 38 digits at the end).
    var roundedSum = WideSum()
    /// Whether a record's rounded amount did not have `minorUnits` decimals (it cannot be summed as such).
    var roundedUnknown = false
    var roundedTotal: ExactDecimal? { roundedUnknown ? nil : roundedSum.decimal(scale: minorUnits) }
    var streamed = StreamedTotal()
    /// The exact total of a currency in ``exactCurrencies``.
    var exact: ExactTotal?

    init(_ currency: CurrencyCode, exact: Bool = false) {
      minorUnits = ISO4217.currency(for: currency)?.minorUnits ?? 2
      self.exact = exact ? ExactTotal() : nil
    }

    mutating func add(records: Int, roundedSum: WideSum) {
      self.records += records
      self.roundedSum.add(roundedSum)
    }

    mutating func add(rounded: ExactDecimal) {
      guard rounded.scale == minorUnits else {
        roundedUnknown = true
        return
      }
      roundedSum.add(rounded.significand)
    }
  }

  private var accounts: [CurrencyCode: Account] = [:]
  /// Currencies whose exact total is kept as amounts per rate (see the type's description).
  let exactCurrencies: Set<CurrencyCode>

  init(exactCurrencies: Set<CurrencyCode> = []) { self.exactCurrencies = exactCurrencies }

  private func newAccount(_ currency: CurrencyCode) -> Account {
    Account(currency, exact: exactCurrencies.contains(currency))
  }

  /// Records one converted record.
  ///
  /// - Parameters:
  ///   - amount: the record's amount, in its from-currency.
  ///   - rate: the exact rate used (units of `currency` per unit of the from-currency).
  ///   - rounded: the converted amount as written in `fx_converted`.
  ///   - currency: the target currency.
  mutating func add(amount: ExactDecimal, rate: ExchangeRate, rounded: ExactDecimal, currency: CurrencyCode) {
    // Modified in place: a copy of the account would copy its dictionary of sums on every record.
    let exactCurrencies = self.exactCurrencies
    accounts[currency, default: Account(currency, exact: exactCurrencies.contains(currency))].add(
      amount: amount, rate: rate, rounded: rounded)
  }

  /// Adds the figures of many records of one target currency (the per-record fast path keeps its own): their
  /// count, the sum of their rounded amounts (significands with the currency's minor units) and their streamed
  /// exact total.
  mutating func add(records: Int, roundedSum: WideSum, streamed: StreamedTotal, currency: CurrencyCode) {
    let exactCurrencies = self.exactCurrencies
    accounts[currency, default: Account(currency, exact: exactCurrencies.contains(currency))].add(
      records: records, roundedSum: roundedSum, streamed: streamed)
  }

  /// Adds another file's ledger (for the run's total).
  mutating func add(_ other: ReconciliationLedger) {
    for (currency, theirs) in other.accounts {
      var account = accounts.removeValue(forKey: currency) ?? newAccount(currency)
      account.add(records: theirs.records, roundedSum: theirs.roundedSum, streamed: theirs.streamed)
      if theirs.roundedUnknown { account.roundedUnknown = true }
      if let exact = theirs.exact { account.exact = (account.exact ?? ExactTotal()).adding(exact) }
      accounts[currency] = account
    }
  }

  /// Replaces the streamed totals of some currencies by exact ones (from reading the records again).
  mutating func settle(with exact: [CurrencyCode: ExactTotal]) {
    for (currency, total) in exact { accounts[currency]?.exact = total }
  }

  /// The currencies whose streamed total cannot be rounded (see ``StreamedTotal/rounded(minorUnits:rounding:)``)
  /// and that have no exact total yet.
  func undeterminedCurrencies(rounding: RoundingMode) -> Set<CurrencyCode> {
    Set(
      accounts.filter { _, account in
        account.exact == nil && account.streamed.rounded(minorUnits: account.minorUnits, rounding: rounding) == .undetermined
      }.keys)
  }

  /// The exact totals kept for ``exactCurrencies``.
  var exactTotals: [CurrencyCode: ExactTotal] { accounts.compactMapValues(\.exact) }

  /// The unrounded total of every target currency (``RunReport/UnroundedTotal``), sorted by code: what
  /// ``init(report:rounding:)`` needs to add runs' totals and round once.
  func unroundedTotals() -> [RunReport.UnroundedTotal] {
    accounts.sorted { $0.key < $1.key }.map { currency, account in
      RunReport.UnroundedTotal(
        currency: currency.description, total: account.streamed.truncated(minorUnits: account.minorUnits)?.description,
        inexactTerms: account.streamed.inexact)
    }
  }

  /// The ledger of a run's report (``RunReport/reconciliation``, ``RunReport/unroundedTotals``): its records, the
  /// sum of their rounded amounts and their unrounded total per target currency, to add to other runs' ledgers
  /// (``add(_:)``) and round once (`report merge`).
  ///
  /// - Throws: ``ReportMergeError`` when the report lacks the unrounded totals or does not parse.
  init(report: RunReport, name: String) throws(ReportMergeError) {
    self.init()
    guard let totals = report.unroundedTotals else {
      throw ReportMergeError("\(name): the report has no unroundedTotals (written by an fxbatch before report merge)")
    }
    let unrounded = Dictionary(totals.map { ($0.currency, $0) }, uniquingKeysWith: { first, _ in first })
    for line in report.reconciliation {
      guard let currency = CurrencyCode(line.currency) else {
        throw ReportMergeError("\(name): reconciliation of \(line.currency), which is no currency code")
      }
      var account = newAccount(currency)
      account.records = line.records
      if let text = line.roundedRecordsTotal, let rounded = ExactDecimal(text) {
        account.add(rounded: rounded)
      } else {
        account.roundedUnknown = true
      }
      guard let given = unrounded[line.currency], let text = given.total, let total = ExactDecimal(text),
        let streamed = StreamedTotal(truncated: total, minorUnits: account.minorUnits, inexact: given.inexactTerms)
      else {
        throw ReportMergeError("\(name): no usable unrounded total of \(line.currency)")
      }
      account.streamed = streamed
      accounts[currency] = account
    }
  }

  /// The reconciliation of every target currency, sorted by code.
  ///
  /// - Parameter rounding: the run's rounding mode, for the exact total.
  func reconciliations(rounding: RoundingMode) -> [Reconciliation] {
    accounts.sorted { $0.key < $1.key }.map { currency, account in
      let rounded = account.roundedTotal
      var exact: ExactDecimal? = nil
      if let total = account.exact {
        exact = total.rounded(minorUnits: account.minorUnits, rounding: rounding)
      } else if case .value(let value) = account.streamed.rounded(minorUnits: account.minorUnits, rounding: rounding) {
        exact = value
      }
      var difference: ExactDecimal? = nil
      if let rounded, let exact {
        difference = rounded.adding(ExactDecimal(significand: -exact.significand, scale: exact.scale))
      }
      return Reconciliation(
        currency: currency.description, records: account.records, roundedRecordsTotal: rounded?.description,
        exactTotalRounded: exact?.description, difference: difference?.description)
    }
  }
}

extension ReconciliationLedger.Account {
  mutating func add(amount: ExactDecimal, rate: ExchangeRate, rounded: ExactDecimal) {
    records += 1
    add(rounded: rounded)
    streamed.add(amount, at: rate, minorUnits: minorUnits)
    exact?.add(amount, at: rate)
  }

  mutating func add(records: Int, roundedSum: WideSum, streamed: StreamedTotal) {
    add(records: records, roundedSum: roundedSum)
    self.streamed.add(streamed)
  }
}
