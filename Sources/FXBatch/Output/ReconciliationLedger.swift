/// Collects, per target currency, what ``Reconciliation`` reports: the records' rounded amounts and their exact
/// unrounded total.
struct ReconciliationLedger: Sendable, Equatable {
  private struct Account: Sendable, Equatable {
    /// The target currency's ISO 4217 minor units.
    let minorUnits: Int
    var records = 0
    /// `Σ` rounded amounts, exact, with `minorUnits` decimals; `nil` once it outgrew 38 digits.
    var roundedTotal: ExactDecimal?
    var exactTotal = ExactTotal()

    init(_ currency: CurrencyCode) {
      minorUnits = ISO4217.currency(for: currency)?.minorUnits ?? 2
      roundedTotal = ExactDecimal(significand: 0, scale: minorUnits)
    }

    mutating func add(amount: ExactDecimal, rate: ExchangeRate, rounded: ExactDecimal) {
      records += 1
      roundedTotal = roundedTotal?.adding(rounded)
      exactTotal.add(amount, at: rate)
    }
  }

  private var accounts: [CurrencyCode: Account] = [:]

  /// Records one converted record.
  ///
  /// - Parameters:
  ///   - amount: the record's amount, in its from-currency.
  ///   - rate: the exact rate used (units of `currency` per unit of the from-currency).
  ///   - rounded: the converted amount as written in `fx_converted`.
  ///   - currency: the target currency.
  mutating func add(amount: ExactDecimal, rate: ExchangeRate, rounded: ExactDecimal, currency: CurrencyCode) {
    // Mutated in place: a copy of the account would share its per-rate dictionary, and adding to the copy would
    // then copy the whole dictionary for every record.
    accounts[currency, default: Account(currency)].add(amount: amount, rate: rate, rounded: rounded)
  }

  /// Adds another file's ledger (for the run's total).
  mutating func add(_ other: ReconciliationLedger) {
    for (currency, theirs) in other.accounts {
      var account = accounts[currency] ?? Account(currency)
      account.records += theirs.records
      account.roundedTotal = theirs.roundedTotal.flatMap { account.roundedTotal?.adding($0) }
      account.exactTotal.add(theirs.exactTotal)
      accounts[currency] = account
    }
  }

  /// The reconciliation of every target currency, sorted by code.
  ///
  /// - Parameter rounding: the run's rounding mode, for the exact total.
  func reconciliations(rounding: RoundingMode) -> [Reconciliation] {
    accounts.sorted { $0.key < $1.key }.map { currency, account in
      let rounded = account.roundedTotal
      let exact = account.exactTotal.rounded(minorUnits: account.minorUnits, rounding: rounding)
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
