extension LockFile {
  /// The source a frozen run (`--frozen`) reads from a lock file, refused unless the run's rule is the one the
  /// lock was written under: a spot lock's rows are not whole periods, and a period lock's rates are of its
  /// periods.
  ///
  /// - Parameters:
  ///   - path: the lock file.
  ///   - rule: the run's rule (`--rate-kind`, `--period`).
  /// - Returns: the locked rates as a source (a table lock keeps its source's identity, on the table path), and
  ///   the locked run's day for records without a date.
  /// - Throws: ``RatesFileError`` when the lock cannot be read, or was written under another rule.
  public static func replay(path: String, rule: RateRule) throws(RatesFileError) -> (
    source: RateSourceChoice, defaultDay: CalendarDay
  ) {
    let lock = try load(path: path)
    var locked = RateRule.spot
    if case .quotes(let quotes) = lock.rates { locked = quotes.rule }
    guard locked == rule else {
      func name(_ rule: RateRule) -> String {
        rule.periodDescription.map { "--rate-kind \($0.replacingOccurrences(of: " ", with: " --period "))" }
          ?? "--rate-kind spot"
      }
      throw RatesFileError(
        path: path, line: 1, column: 1,
        message:
          "the lock file was written under \(name(locked)); it cannot replay \(name(rule)) (--frozen uses the locked run's rule: run with \(name(locked)), or write the lock again with --lock under the rule you want)"
      )
    }
    switch lock.rates {
    case .table(let table): return (.table(table), lock.defaultDay)
    case .quotes(let quotes): return (.lockFile(path: path, quotes: quotes), lock.defaultDay)
    }
  }
}
