extension RateTable {
  /// The currencies of the table with the first and last publication days that have a rate for each (the pivot:
  /// the first and last days with any rate); no names (a table does not give them).
  ///
  /// - Parameter source: the name of the source, for ``CurrencyCoverage/source``.
  /// - Returns: the currencies in code order; undated tables give no days.
  public func currencyCoverage(source: String) -> [CurrencyCoverage] {
    var first: [CurrencyCode: CalendarDay] = [:]
    var last: [CurrencyCode: CalendarDay] = [:]
    let width = pairs.count
    if !isUndated {
      for (row, day) in days.enumerated() {
        for column in 0..<width where values[row * width + column] != nil {
          for currency in [pairs[column].base, pairs[column].quote] {
            if first[currency] == nil { first[currency] = day }
            last[currency] = day
          }
        }
      }
    }
    return currencies.sorted().map { code in
      CurrencyCoverage(code: code.description, firstDay: first[code], lastDay: last[code], source: source)
    }
  }
}
