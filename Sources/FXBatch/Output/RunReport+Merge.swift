import Foundation

/// Why the reports of runs over parts of the data cannot be merged (`fxbatch report merge`).
public struct ReportMergeError: Error, CustomStringConvertible, Sendable {
  public let description: String

  init(_ description: String) { self.description = description }
}

extension RunReport {
  /// The report of one run over all the data, from the reports of runs over its parts (each a cluster job's
  /// partition, `--report part-N.json`): the same counts, error codes and per-currency rounding reconciliation,
  /// the unrounded totals added exactly and rounded once (``UnroundedTotal``).
  ///
  /// Per run, not of the whole: ``files`` lists every part's files, in the order given; ``lockFile`` is kept
  /// when every part names the same. The parts must have run with the same rates and rules (source, days,
  /// default day, period rule, rounding, staleness), or their totals would not reconcile: else this throws.
  ///
  /// - Parameter parts: each report with the name to cite in an error (its path).
  public static func merged(_ parts: [(name: String, report: RunReport)]) throws(ReportMergeError) -> RunReport {
    guard let (firstName, first) = parts.first else { throw ReportMergeError("no reports to merge") }
    guard parts.count <= maximumParts else {
      throw ReportMergeError("\(parts.count) reports: at most \(maximumParts) are merged at once (merge merged reports)")
    }
    for (name, part) in parts { try part.checkConsistent(name: name) }
    guard let rounding = RoundingMode(rawValue: first.rounding) else {
      throw ReportMergeError("\(firstName): unknown rounding \(first.rounding)")
    }
    for (name, part) in parts where part.rounding == first.rounding {
      try part.checkReconciliation(name: name, rounding: rounding)
    }
    try checkNoFileCountedTwice(parts)
    var merged = first
    merged.files = []
    merged.totals = Counts()
    merged.rates.recordsWithoutDate = 0
    merged.fetch = nil
    merged.chain = nil
    merged.lockFileLeftOut = 0
    merged.exitStatus = 0
    merged.exitStatusName = ExitStatus.success.name
    // Parts judged against one budget: the merge is judged against it over all the records (below); else it
    // keeps their worst status, and no budget.
    merged.budget = nil
    let budget = try commonBudget(parts)
    var ledger = ReconciliationLedger()
    // The amounts reconciled, by the first part that converted a record (a part that converted none says nothing).
    var amounts: (name: String, names: Set<String?>)? = nil
    for (name, part) in parts {
      // The message shows both values (`lock file ./rates.lock` against `lock file rates.lock`).
      func same<T: Equatable>(_ what: String, _ value: (RunReport) -> T, shown: (RunReport) -> String)
        throws(ReportMergeError)
      {
        guard value(part) == value(first) else {
          throw ReportMergeError(
            "\(name): its \(what) (\(shown(part))) differs from \(firstName)'s (\(shown(first))): the parts must run with the same rates and options (one lock file, --frozen)"
          )
        }
      }
      try same("rate source", { $0.rates.source }, shown: { "\($0.rates.source.identifier): \($0.rates.source.description)" })
      try same(
        "rates' first and last day", { [$0.rates.firstDay, $0.rates.lastDay] },
        shown: { "\($0.rates.firstDay ?? "none") .. \($0.rates.lastDay ?? "none")" })
      try same("default day", { $0.rates.defaultDay }, shown: { $0.rates.defaultDay })
      try same("period rule", { $0.rates.periodRule }, shown: { $0.rates.periodRule ?? "none" })
      try same("rounding", { $0.rounding }, shown: { $0.rounding })
      try same("maximum staleness", { $0.maxStalenessDays }, shown: { "\($0.maxStalenessDays) days" })
      try same("amount unit", { $0.amountUnit }, shown: { $0.amountUnit ?? "major" })
      try same(
        "minor units", { $0.minorUnits },
        shown: { ($0.minorUnits ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") })
      // Parts that converted other amounts (`--amount-field Gross` and `Gross,Fee,Net`) ran with other options:
      // their totals are no one run's.
      let reconciled = Set(part.reconciliation.map(\.amount))
      if let amounts, !reconciled.isEmpty, reconciled != amounts.names {
        func shown(_ names: Set<String?>) -> String {
          names.map { $0.map { "fx_converted_\($0)" } ?? "fx_converted" }.sorted().joined(separator: ", ")
        }
        throw ReportMergeError(
          "\(name): its amounts (\(shown(reconciled))) differ from \(amounts.name)'s (\(shown(amounts.names))): the parts must run with the same rates and options (one --amount-field)"
        )
      }
      if amounts == nil, !reconciled.isEmpty { amounts = (name, reconciled) }
      merged.files += part.files
      merged.totals.add(part.totals)
      merged.rates.recordsWithoutDate += part.rates.recordsWithoutDate
      if part.rates.daysSinceLastPublication != first.rates.daysSinceLastPublication {
        merged.rates.daysSinceLastPublication = nil  // the parts ran on different days
      }
      if let fetch = part.fetch {
        var sum = merged.fetch ?? Fetch()
        sum.requests += fetch.requests
        sum.retries += fetch.retries
        sum.failedRequests += fetch.failedRequests
        sum.cacheHits += fetch.cacheHits
        merged.fetch = sum
      }
      for use in part.chain ?? [] {
        var uses = merged.chain ?? []
        if let index = uses.firstIndex(where: { $0.name == use.name }) {
          uses[index].asked += use.asked
          uses[index].answered += use.answered
          uses[index].failed += use.failed
        } else {
          uses.append(use)
        }
        merged.chain = uses
      }
      if part.lockFile != first.lockFile { merged.lockFile = nil }
      if merged.lockFileError == nil { merged.lockFileError = part.lockFileError }
      merged.lockFileLeftOut += part.lockFileLeftOut
      let partStatus = ExitStatus(rawValue: part.exitStatus) ?? .fileRefused
      merged.setExitStatus(ExitStatus.worst(ExitStatus(rawValue: merged.exitStatus) ?? .success, partStatus))
      try part.addTotals(to: &ledger, name: name)
    }
    merged.reconciliation = ledger.reconciliations(rounding: rounding)
    merged.unroundedTotals = Self.unroundedTotals(of: ledger)
    merged.currencyTotals = try mergedCurrencyTotals(parts, reconciliations: merged.reconciliation)
    if let budget {
      // As one run over all the data: `--max-errors 5` held by each of four parts is not held by their 20
      // errors, and `0.5%` exceeded in one part may be held by the whole.
      let worst = ExitStatus(rawValue: merged.exitStatus) ?? .fileRefused
      merged.judge(budget)
      // Parts run on other days: whether the rates were stale is each part's to say.
      if budget.failOn.contains(.stale), merged.rates.daysSinceLastPublication == nil {
        merged.setExitStatus(ExitStatus.worst(ExitStatus(rawValue: merged.exitStatus) ?? .fileRefused, worst))
      }
    }
    return merged
  }

  /// The error budget every part was judged against (`--max-errors`, `--max-source-errors`, `--fail-on`, the
  /// same in each); `nil` when a part had none or another.
  private static func commonBudget(_ parts: [(name: String, report: RunReport)]) throws(ReportMergeError) -> ErrorBudget? {
    func given(_ use: BudgetUse) -> [String?] { [use.maxErrors, use.maxSourceErrors, (use.failOn ?? []).joined(separator: ",")] }
    guard let (name, first) = parts.first, let use = first.budget,
      parts.allSatisfy({ $0.report.budget.map(given) == given(use) })
    else { return nil }
    func fail(_ what: String) -> ReportMergeError {
      ReportMergeError("\(name): its budget \(what): the report was changed after fxbatch wrote it, or is not one fxbatch wrote")
    }
    var budget = ErrorBudget()
    if let text = use.maxErrors {
      guard let limit = ErrorBudget.Limit(text) else { throw fail("maxErrors \(text) is no limit") }
      budget.maxErrors = limit
    }
    if let text = use.maxSourceErrors {
      guard let limit = ErrorBudget.Limit(text) else { throw fail("maxSourceErrors \(text) is no limit") }
      budget.maxSourceErrors = limit
    }
    for word in use.failOn ?? [] {
      guard let strictness = ErrorBudget.Strictness(rawValue: word) else { throw fail("failOn \(word) is none fxbatch has") }
      budget.failOn.insert(strictness)
    }
    return budget
  }

  /// The parts' ``CurrencyTotals`` added up; `nil` when a part that converted records has none (written by an
  /// fxbatch before them).
  private static func mergedCurrencyTotals(
    _ parts: [(name: String, report: RunReport)], reconciliations: [Reconciliation]
  ) throws(ReportMergeError) -> CurrencyTotals? {
    var totals: [CurrencyTotals] = []
    for (name, part) in parts {
      guard let own = part.currencyTotals else {
        if part.totals.ok + part.totals.fallback > 0 { return nil }
        continue
      }
      guard own.from.allSatisfy({ $0.records >= 0 && $0.records <= largestCount }) else {
        throw ReportMergeError("\(name): its currencyTotals count records past \(largestCount) or below 0")
      }
      // The run's sums are its files' added up (a report edited in one place and not the other is refused).
      let files = part.files.compactMap(\.currencyTotals)
      if part.files.allSatisfy({ $0.currencyTotals != nil || $0.counts.ok + $0.counts.fallback == 0 }),
        let added = CurrencyTotals.merged(from: files, reconciliations: part.reconciliation), added.from != own.from
      {
        throw ReportMergeError(
          "\(name): its currencyTotals are not its files' added up: the report was changed after fxbatch wrote it, or is not one fxbatch wrote"
        )
      }
      totals.append(own)
    }
    guard let merged = CurrencyTotals.merged(from: totals, reconciliations: reconciliations) else {
      throw ReportMergeError(
        "\(parts.map(\.name).joined(separator: ", ")): a currencyTotals total is no decimal number: "
          + "a report was changed after fxbatch wrote it")
    }
    return merged
  }

  /// The most reports merged at once, and the largest count a report may hold: the sum of a count over the most
  /// parts stays within `Int` (9,000 × 10^15 < 2^63), and a part's own sums are checked as they are added.
  static let maximumParts = 9_000
  static let largestCount = 1_000_000_000_000_000

  /// The sum of counts, or `nil` when one is negative or the sum passes ``largestCount`` (never overflowing).
  static func countSum(_ counts: some Sequence<Int>) -> Int? {
    var sum = 0
    for count in counts {
      guard count >= 0, count <= largestCount, sum + count <= largestCount else { return nil }
      sum += count
    }
    return sum
  }

  /// Refuses parts that count the same file's run twice: a merged report given with one of its parts (its
  /// `files` list theirs), or two merged reports sharing a part. A file is the same when its entry is the same
  /// in every value — names, counts, reconciliation; a file without records adds nothing and is let be (empty
  /// partitions read from standard input all look alike).
  static func checkNoFileCountedTwice(_ parts: [(name: String, report: RunReport)]) throws(ReportMergeError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var counted: [Data: String] = [:]
    for (name, part) in parts {
      var own: [Data] = []
      for file in part.files where file.counts.records > 0 {
        guard let key = try? encoder.encode(file) else { continue }
        if let earlier = counted[key] {
          throw ReportMergeError(
            "\(name): its file \(file.input) is counted in \(earlier) already, the same in every figure: a merged report and one of its parts, or a part merged twice, would count its records twice"
          )
        }
        own.append(key)
      }
      for key in own { counted[key] = name }
    }
  }

  /// Refuses a report whose figures do not hold together (edited by hand, or not fxbatch's): counts negative or
  /// past ``largestCount``, totals that are not the sum of their parts or of the files', error codes that do not
  /// add up to the errors, a currency reconciled twice or without its unrounded total (and the other way round),
  /// a rounded total that is no number, an exit status fxbatch does not give.
  func checkConsistent(name: String) throws(ReportMergeError) {
    func fail(_ what: String) -> ReportMergeError {
      ReportMergeError("\(name): \(what): the report was changed after fxbatch wrote it, or is not one fxbatch wrote")
    }
    func check(_ counts: Counts, _ what: String) throws(ReportMergeError) {
      let all = [counts.records, counts.ok, counts.fallback, counts.error] + Array(counts.errorsByCode.values)
      guard all.allSatisfy({ $0 >= 0 && $0 <= Self.largestCount }) else { throw fail("\(what) has a count out of range") }
      guard counts.records == counts.ok + counts.fallback + counts.error else {
        throw fail("\(what): \(counts.records) records are not its ok, fallback and error records added up")
      }
      guard Self.countSum(counts.errorsByCode.values) == counts.error else {
        throw fail("\(what): its error codes do not add up to its \(counts.error) errors")
      }
    }
    try check(totals, "totals")
    var fromFiles = Counts()
    for file in files {
      try check(file.counts, "the counts of \(file.input)")
      fromFiles.add(file.counts)
      // Each count is at most its records: the records' sum in range keeps every sum in range.
      guard fromFiles.records <= Self.largestCount else { throw fail("its files count more than \(Self.largestCount) records") }
      for line in file.reconciliation ?? [] where Self.countSum([line.records]) == nil {
        throw fail("the reconciliation of \(line.account) in \(file.input) has a count out of range")
      }
      for line in file.currencyTotals?.from ?? [] where Self.countSum([line.records]) == nil {
        throw fail("the currencyTotals of \(line.currency) in \(file.input) have a count out of range")
      }
    }
    guard fromFiles == totals else { throw fail("its totals are not its files' counts added up") }
    guard [0, 1, 2, 3].contains(exitStatus) else { throw fail("exit status \(exitStatus) is none fxbatch gives") }
    guard rates.recordsWithoutDate >= 0, rates.recordsWithoutDate <= totals.records else {
      throw fail("\(rates.recordsWithoutDate) records without a date")
    }
    let reconciled = reconciliation.map(\.account)
    guard Set(reconciled).count == reconciled.count else { throw fail("a currency is reconciled twice") }
    let unrounded = (unroundedTotals ?? []).map { ReportAccount(amount: $0.amount, currency: $0.currency) }
    guard Set(unrounded).count == unrounded.count else { throw fail("a currency has two unrounded totals") }
    guard unroundedTotals == nil || Set(unrounded) == Set(reconciled) else {
      throw fail("its unrounded totals and its reconciliation name different currencies")
    }
    // Per amount (several amounts per record reconcile each), the records of its currencies.
    var converted: [String?: Int] = [:]
    for line in reconciliation {
      guard line.records >= 0, line.records <= Self.largestCount else {
        throw fail("the reconciliation of \(line.account) has a count out of range")
      }
      converted[line.amount, default: 0] += line.records
      guard converted[line.amount, default: 0] <= totals.ok + totals.fallback else {
        throw fail("its reconciliation counts more records than it converted")
      }
      if let text = line.roundedRecordsTotal, ExactDecimal(text) == nil {
        throw fail("the rounded total of \(line.currency) is no number")
      }
    }
    // Counts the merge adds up: each in range, and their sums.
    if let line = (unroundedTotals ?? []).first(where: { Self.countSum([$0.inexactTerms]) == nil }) {
      throw fail("the unrounded total of \(line.currency) has \(line.inexactTerms) inexact terms")
    }
    if let fetch, Self.countSum([fetch.requests, fetch.retries, fetch.failedRequests, fetch.cacheHits]) == nil {
      throw fail("its fetch counts are out of range")
    }
    if let chain = chain, Self.countSum(chain.flatMap { [$0.asked, $0.answered, $0.failed] }) == nil {
      throw fail("its chain counts are out of range")
    }
    guard Self.countSum([lockFileLeftOut]) != nil else { throw fail("lockFileLeftOut \(lockFileLeftOut) is out of range") }
  }

  /// Refuses a report whose reconciliation does not follow from its own figures: per currency, the exact total
  /// rounded must be its unrounded total rounded (within the total's inexact terms when those leave the
  /// rounding open), the difference must be the rounded records' total less the exact total, and no larger
  /// than its records' rounding can make (less than one minor unit per record, and one for the total). The
  /// merge adds the unrounded totals: a part whose reconciliation says otherwise was changed, and its totals
  /// cannot be trusted either way.
  func checkReconciliation(name: String, rounding: RoundingMode) throws(ReportMergeError) {
    func fail(_ what: String) -> ReportMergeError {
      ReportMergeError("\(name): \(what): the report was changed after fxbatch wrote it, or is not one fxbatch wrote")
    }
    // The run's reconciliation adds up its files' (the merged report lists them as they are).
    var fromFiles: [ReportAccount: (records: Int, rounded: ExactDecimal?)] = [:]
    for line in files.flatMap({ $0.reconciliation ?? [] }) {
      let sum = fromFiles[line.account] ?? (0, .zero)
      let rounded = line.roundedRecordsTotal.flatMap { ExactDecimal($0) }
      guard let records = Self.countSum([sum.records, line.records]) else {
        throw fail("its files reconcile more than \(Self.largestCount) \(line.account) records")
      }
      fromFiles[line.account] = (records, rounded.flatMap { sum.rounded?.adding($0) })
    }
    for line in reconciliation where !files.isEmpty {
      let sum = fromFiles[line.account]
      guard sum?.records ?? 0 == line.records else {
        throw fail("its \(line.records) reconciled \(line.account) records are not its files' added up")
      }
      if let total = line.roundedRecordsTotal.flatMap({ ExactDecimal($0) }), let files = sum?.rounded,
        files.adding(Self.negated(total))?.significand != 0
      {
        throw fail("its sum of rounded \(line.account) amounts is not its files' added up")
      }
    }
    if let missing = Set(fromFiles.keys).subtracting(reconciliation.map(\.account)).map(\.description).sorted().first {
      throw fail("its files reconcile \(missing), which the run's reconciliation lacks")
    }
    let unrounded = Dictionary(
      (unroundedTotals ?? []).map { (ReportAccount(amount: $0.amount, currency: $0.currency), $0) },
      uniquingKeysWith: { first, _ in first })
    for line in reconciliation {
      // A total that cannot be read is refused by the merge itself (``addTotals(to:name:)``).
      guard let currency = CurrencyCode(line.currency), let given = unrounded[line.account], let text = given.total,
        let total = ExactDecimal(text)
      else { continue }
      var alone = ReconciliationLedger()
      guard
        alone.add(
          currency: currency, records: line.records, roundedTotal: line.roundedRecordsTotal.flatMap { ExactDecimal($0) },
          unrounded: total, inexactTerms: given.inexactTerms),
        let recomputed = alone.reconciliations(rounding: rounding).first
      else { continue }
      let unit = ExactDecimal(significand: 1, scale: ISO4217.currency(for: currency)?.minorUnits ?? 2)
      if let rounded = line.roundedRecordsTotal, recomputed.roundedRecordsTotal != rounded {
        throw fail("the sum of rounded \(line.currency) amounts, \(rounded), is not in the currency's minor units")
      }
      let exact = line.exactTotalRounded.flatMap { ExactDecimal($0) }
      if let figure = recomputed.exactTotalRounded {
        guard line.exactTotalRounded == figure else {
          throw fail(
            "the exact \(line.currency) total rounded, \(line.exactTotalRounded ?? "none"), is not its unrounded total \(text) rounded (\(figure))"
          )
        }
      } else if let exact {
        // The rounding was settled from the records (its inexact terms left it open): it lies within a unit of
        // the interval the unrounded total gives.
        let slack = ExactDecimal(significand: Int128(given.inexactTerms), scale: total.scale)
        if let below = exact.adding(Self.negated(total)).flatMap({ $0.adding(unit) }),
          let above = total.adding(slack).flatMap({ $0.adding(unit) }).flatMap({ $0.adding(Self.negated(exact)) }),
          below.significand <= 0 || above.significand <= 0
        {
          throw fail("the exact \(line.currency) total rounded, \(exact), is not its unrounded total \(text) rounded")
        }
      } else if line.exactTotalRounded != nil {
        throw fail("the exact \(line.currency) total rounded, \(line.exactTotalRounded ?? ""), is no number")
      }
      var expected: ExactDecimal? = nil
      if let rounded = line.roundedRecordsTotal.flatMap({ ExactDecimal($0) }), let exact {
        expected = rounded.adding(Self.negated(exact))
      }
      guard line.difference == expected?.description else {
        throw fail(
          "the \(line.currency) difference \(line.difference ?? "none") is not its rounded total less its exact total (\(expected?.description ?? "none"))"
        )
      }
      // Each record rounds by less than one minor unit, and the exact total once more.
      if let expected, let bound = ExactDecimal(significand: Int128(line.records) + 1, scale: 0).multiplied(by: unit),
        let excess = ExactDecimal(significand: Swift.abs(expected.significand), scale: expected.scale)
          .adding(Self.negated(bound)),
        excess.significand >= 0
      {
        throw fail(
          "the \(line.currency) difference \(expected) is more than rounding \(line.records) records can make")
      }
    }
  }

  private static func negated(_ value: ExactDecimal) -> ExactDecimal {
    ExactDecimal(significand: -value.significand, scale: value.scale)
  }

  /// The unrounded totals of a run's ledger, as the report writes them.
  static func unroundedTotals(of ledger: ReconciliationLedger) -> [UnroundedTotal] {
    ledger.unroundedTotals().map { amount, currency, total, inexactTerms in
      UnroundedTotal(amount: amount, currency: currency.description, total: total?.description, inexactTerms: inexactTerms)
    }
  }

  /// Adds the report's records, rounded totals and unrounded totals per target currency to a ledger.
  private func addTotals(to ledger: inout ReconciliationLedger, name: String) throws(ReportMergeError) {
    guard let unroundedTotals else {
      throw ReportMergeError("\(name): the report has no unroundedTotals (written by an fxbatch before report merge)")
    }
    let unrounded = Dictionary(
      unroundedTotals.map { (ReportAccount(amount: $0.amount, currency: $0.currency), $0) },
      uniquingKeysWith: { first, _ in first })
    for line in reconciliation {
      guard let currency = CurrencyCode(line.currency) else {
        throw ReportMergeError("\(name): reconciliation of \(line.currency), which is no currency code")
      }
      guard let given = unrounded[line.account], let text = given.total, let total = ExactDecimal(text),
        ledger.add(
          amount: line.amount, currency: currency, records: line.records,
          roundedTotal: line.roundedRecordsTotal.flatMap { ExactDecimal($0) },
          unrounded: total, inexactTerms: given.inexactTerms)
      else {
        throw ReportMergeError("\(name): no usable unrounded total of \(line.account)")
      }
    }
  }
}
