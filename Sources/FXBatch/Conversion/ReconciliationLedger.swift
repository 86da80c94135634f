/// Collects, per target currency, what ``Reconciliation`` reports: the records, the sum of their rounded amounts,
/// and their exact unrounded total. With several amounts per record (`--amount-field A,B,C`), per amount NAME and
/// target currency.
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

  /// An account's key: the amount's NAME (`nil` with one amount) and the target currency.
  struct Key: Hashable, Sendable {
    let amount: String?
    let currency: CurrencyCode
  }

  private var accounts: [Key: Account] = [:]
  /// Per from-currency (and amount NAME), the converted records and the exact sum of their amounts as read, in
  /// major units (``sourceTotals()``).
  private var sources: [Key: SourceAccount] = [:]

  /// What a from-currency's converted records add up to.
  struct SourceAccount: Sendable, Equatable {
    var records = 0
    var sum = DecimalSum()

    /// Counts one record whose amount is `amount`.
    @inline(__always)
    mutating func add(_ amount: ExactDecimal) {
      records &+= 1
      sum.add(amount)
    }

    mutating func add(_ other: SourceAccount) {
      records += other.records
      sum.add(other.sum)
    }
  }
  /// The amount NAMEs met, each with its place in the order first met (the amounts' order): the accounts are
  /// listed so. A dictionary, not a list searched on every amount: 10,000 amounts per record stay linear.
  private var amountOrder: [String: Int] = [:]
  /// Currencies whose exact total is kept as amounts per rate (see the type's description).
  let exactCurrencies: Set<CurrencyCode>

  init(exactCurrencies: Set<CurrencyCode> = []) { self.exactCurrencies = exactCurrencies }

  private func newAccount(_ currency: CurrencyCode) -> Account {
    Account(currency, exact: exactCurrencies.contains(currency))
  }

  /// Notes an amount NAME in order, unless met before.
  private mutating func note(_ amount: String) {
    if amountOrder[amount] == nil { amountOrder[amount] = amountOrder.count }
  }

  /// The key of an amount's account, its NAME noted in order.
  private mutating func key(_ amount: String?, _ currency: CurrencyCode) -> Key {
    if let amount { note(amount) }
    return Key(amount: amount, currency: currency)
  }

  /// The accounts in order: by amount (as first met), then by currency code.
  private var sortedAccounts: [(key: Key, value: Account)] {
    let order = amountOrder
    return accounts.sorted { left, right in
      let (l, r) = (left.key.amount.flatMap { order[$0] } ?? -1, right.key.amount.flatMap { order[$0] } ?? -1)
      return l != r ? l < r : left.key.currency < right.key.currency
    }
  }

  /// Records one converted record.
  ///
  /// - Parameters:
  ///   - amount: the record's amount, in its from-currency.
  ///   - rate: the exact rate used (units of `currency` per unit of the from-currency).
  ///   - rounded: the converted amount as written in `fx_converted`.
  ///   - currency: the target currency.
  ///   - name: the amount's NAME with several amounts; `nil` for one.
  ///   - from: the record's from-currency, whose source total the amount is added to.
  mutating func add(
    amount: ExactDecimal, rate: ExchangeRate, rounded: ExactDecimal, currency: CurrencyCode, name: String? = nil,
    from: CurrencyCode? = nil
  ) {
    if let from {
      let sourceKey = key(name, from)
      sources[sourceKey, default: SourceAccount()].records += 1
      sources[sourceKey, default: SourceAccount()].sum.add(amount)
    }
    // Modified in place: a copy of the account would copy its dictionary of sums on every record.
    let exactCurrencies = self.exactCurrencies
    let key = key(name, currency)
    accounts[key, default: Account(currency, exact: exactCurrencies.contains(currency))].add(
      amount: amount, rate: rate, rounded: rounded)
  }

  /// Adds the figures of many records of one target currency (the per-record fast path keeps its own): their
  /// count, the sum of their rounded amounts (significands with the currency's minor units) and their streamed
  /// exact total; `name` is the amount's NAME with several amounts (`nil` for one).
  mutating func add(
    records: Int, roundedSum: WideSum, streamed: StreamedTotal, currency: CurrencyCode, name: String? = nil
  ) {
    let exactCurrencies = self.exactCurrencies
    let key = key(name, currency)
    accounts[key, default: Account(currency, exact: exactCurrencies.contains(currency))].add(
      records: records, roundedSum: roundedSum, streamed: streamed)
  }

  /// Adds the figures of many records of one from-currency (the fast path keeps its own): `name` is the
  /// amount's NAME with several amounts (`nil` for one).
  mutating func add(source: SourceAccount, currency: CurrencyCode, name: String? = nil) {
    sources[key(name, currency), default: SourceAccount()].add(source)
  }

  /// The source total of every from-currency (and amount NAME): the converted records and the exact sum of
  /// their amounts as read (in major units; at least the currency's ISO 4217 minor units of decimals, more when
  /// an amount has more; `nil` past 38 digits), sorted as the reconciliations are.
  func sourceTotals() -> [(amount: String?, currency: CurrencyCode, records: Int, total: ExactDecimal?)] {
    let order = amountOrder
    return sources.sorted { left, right in
      let (l, r) = (left.key.amount.flatMap { order[$0] } ?? -1, right.key.amount.flatMap { order[$0] } ?? -1)
      return l != r ? l < r : left.key.currency < right.key.currency
    }.map { key, account in
      let minorUnits = ISO4217.currency(for: key.currency)?.minorUnits ?? 0
      return (key.amount, key.currency, account.records, account.sum.total(minimumScale: minorUnits))
    }
  }

  /// Adds another file's ledger (for the run's total).
  mutating func add(_ other: ReconciliationLedger) {
    for name in other.amountOrder.sorted(by: { $0.value < $1.value }).map(\.key) { note(name) }
    for (key, theirs) in other.sources { sources[key, default: SourceAccount()].add(theirs) }
    for (key, theirs) in other.accounts {
      let currency = key.currency
      var account = accounts.removeValue(forKey: key) ?? newAccount(currency)
      account.add(records: theirs.records, roundedSum: theirs.roundedSum, streamed: theirs.streamed)
      if theirs.roundedUnknown { account.roundedUnknown = true }
      if let exact = theirs.exact { account.exact = (account.exact ?? ExactTotal()).adding(exact) }
      accounts[key] = account
    }
  }

  /// Replaces the streamed totals of some accounts by exact ones (from reading the records again).
  mutating func settle(with exact: [Key: ExactTotal]) {
    for (key, total) in exact { accounts[key]?.exact = total }
  }

  /// The currencies whose streamed total cannot be rounded (see ``StreamedTotal/rounded(minorUnits:rounding:)``)
  /// and that have no exact total yet.
  func undeterminedCurrencies(rounding: RoundingMode) -> Set<CurrencyCode> {
    Set(
      accounts.filter { _, account in
        account.exact == nil && account.streamed.rounded(minorUnits: account.minorUnits, rounding: rounding) == .undetermined
      }.keys.map(\.currency))
  }

  /// The exact totals kept for ``exactCurrencies``.
  var exactTotals: [Key: ExactTotal] { accounts.compactMapValues(\.exact) }

  /// The unrounded total of every target currency, sorted by code (its streamed total truncated 18 decimals
  /// below the minor unit, ``StreamedTotal/truncated(minorUnits:)``, and the count of inexact terms): what a
  /// report carries so that runs over parts of the data add up and round once (`report merge`).
  func unroundedTotals() -> [(amount: String?, currency: CurrencyCode, total: ExactDecimal?, inexactTerms: Int)] {
    sortedAccounts.map { key, account in
      (key.amount, key.currency, account.streamed.truncated(minorUnits: account.minorUnits), account.streamed.inexact)
    }
  }

  /// Adds the figures a report gave of one target currency (``unroundedTotals()`` and ``reconciliations(rounding:)``
  /// of another run): its records, the sum of their rounded amounts (`nil`: unknown) and its unrounded total.
  ///
  /// - Returns: `false` when the total does not have at most the minor units plus 18 decimals.
  mutating func add(
    amount: String? = nil, currency: CurrencyCode, records: Int, roundedTotal: ExactDecimal?, unrounded: ExactDecimal,
    inexactTerms: Int
  ) -> Bool {
    var account = newAccount(currency)
    guard let streamed = StreamedTotal(truncated: unrounded, minorUnits: account.minorUnits, inexact: inexactTerms) else {
      return false
    }
    account.records = records
    if let roundedTotal { account.add(rounded: roundedTotal) } else { account.roundedUnknown = true }
    account.streamed = streamed
    var other = ReconciliationLedger()
    other.accounts[other.key(amount, currency)] = account
    add(other)
    return true
  }

  /// The reconciliation of every target currency, sorted by code.
  ///
  /// - Parameter rounding: the run's rounding mode, for the exact total.
  func reconciliations(rounding: RoundingMode) -> [Reconciliation] {
    sortedAccounts.map { key, account in
      let currency = key.currency
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
        amount: key.amount, currency: currency.description, records: account.records, roundedRecordsTotal: rounded?.description,
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
