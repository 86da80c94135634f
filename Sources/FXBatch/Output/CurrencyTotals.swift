/// What a run's converted records add up to, per currency: per from-currency the sum of the amounts as read, per
/// to-currency the sum of the converted amounts as written (`fx_converted`), so that a pipeline can check a batch
/// against its ledger without reading the output. Records that failed or were skipped are not counted.
///
/// Every sum is exact (no rounding: the converted amounts are each rounded once already, and their sum is theirs
/// added up); a sum has the currency's ISO 4217 minor units of decimals, or more when an amount as read has more.
public struct CurrencyTotals: Codable, Sendable, Equatable {
  /// One currency's total (and, with several amounts per record, one amount's).
  public struct Total: Codable, Sendable, Equatable {
    /// With several amounts per record (`--amount-field A,B,C`), the amount's NAME; `nil` (left out) with one.
    public var amount: String? = nil
    /// The ISO 4217 code.
    public var currency: String
    /// The converted records counted.
    public var records: Int
    /// The exact sum (`"1234.56"`); `nil` when it needs more than 38 digits.
    public var total: String?
  }

  /// Per from-currency, `Σ amount` as read (in major units under `--amount-unit minor`), sorted by code.
  public var from: [Total]
  /// Per to-currency, `Σ fx_converted`, sorted by code: the reconciliation's `roundedRecordsTotal`.
  public var to: [Total]

  /// The totals of a ledger's records; the to-currencies' from its reconciliations.
  init(ledger: ReconciliationLedger, reconciliations: [Reconciliation]) {
    from = ledger.sourceTotals().map {
      Total(amount: $0.amount, currency: $0.currency.description, records: $0.records, total: $0.total?.description)
    }
    to = reconciliations.map {
      Total(amount: $0.amount, currency: $0.currency, records: $0.records, total: $0.roundedRecordsTotal)
    }
  }

  /// The totals of several reports' records (`report merge`): each from-currency's added up exactly, and the
  /// to-currencies' from the merged reconciliations.
  ///
  /// - Returns: `nil` when a sum is no decimal, or a count overflows (a report changed by hand).
  static func merged(from parts: [CurrencyTotals], reconciliations: [Reconciliation]) -> CurrencyTotals? {
    var sums: [ReportAccount: (records: Int, total: ExactDecimal?)] = [:]
    var order: [ReportAccount] = []
    for part in parts {
      for line in part.from {
        let account = ReportAccount(amount: line.amount, currency: line.currency)
        var value: ExactDecimal? = nil
        if let text = line.total {
          guard let read = ExactDecimal(text) else { return nil }
          value = read
        }
        guard let sum = sums[account] else {
          sums[account] = (line.records, value)
          order.append(account)
          continue
        }
        var total: ExactDecimal? = nil
        if let earlier = sum.total, let value { total = earlier.adding(value) }
        let (records, overflow) = sum.records.addingReportingOverflow(line.records)
        guard !overflow else { return nil }
        sums[account] = (records, total)
      }
    }
    let amountOrder = Dictionary(order.compactMap(\.amount).enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    let sorted = sums.keys.sorted { left, right in
      let (l, r) = (left.amount.flatMap { amountOrder[$0] } ?? -1, right.amount.flatMap { amountOrder[$0] } ?? -1)
      return l != r ? l < r : left.currency < right.currency
    }
    var totals = CurrencyTotals(ledger: ReconciliationLedger(), reconciliations: reconciliations)
    totals.from = sorted.compactMap { account in
      sums[account].map {
        Total(amount: account.amount, currency: account.currency, records: $0.records, total: $0.total?.description)
      }
    }
    return totals
  }
}
