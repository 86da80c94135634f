extension RateTable {
  /// The currencies of the table with the first and last publication days that have a rate for each (the pivot:
  /// the first and last days with any rate); no names (a table does not give them).
  ///
  /// - Parameter source: the name of the source, for ``CurrencyCoverage/source``.
  /// - Returns: the currencies in code order; undated tables give no days.
  public func currencyCoverage(source: String) -> [CurrencyCoverage] {
    var first: [CurrencyCode: CalendarDay] = [:]
    var last: [CurrencyCode: CalendarDay] = [:]
    if !isUndated {
      // Each column's first and last rows with a rate (a sparse grid has them at hand, whatever its days).
      for column in pairs.indices {
        guard let rows = values.firstAndLastRow(column: column, width: pairs.count, rows: days.count) else { continue }
        for currency in [pairs[column].base, pairs[column].quote] {
          first[currency] = min(first[currency] ?? days[rows.first], days[rows.first])
          last[currency] = max(last[currency] ?? days[rows.last], days[rows.last])
        }
      }
    }
    return currencies.sorted().map { code in
      CurrencyCoverage(code: code.description, firstDay: first[code], lastDay: last[code], source: source)
    }
  }
}
