/// The human summary of a ``RunReport``, printed on standard error.
public enum RunSummary {
  /// `gzip`, `gzip, written zstd`, `written xz`, `gzip, written uncompressed`: a file's compressions.
  static func compressionDetail(input: String?, output: String?) -> String {
    guard let input else { return "written \(output ?? "uncompressed")" }
    return output == input ? input : "\(input), written \(output ?? "uncompressed")"
  }

  /// A few lines: totals with error codes, one line per file, the rates used and their age.
  ///
  /// - Parameters:
  ///   - report: the run's report.
  ///   - fieldNames: the field names the run's options gave (`--amount-field` and so on): a file whose fields
  ///     were all given so has no `[fields: …]`.
  public static func text(of report: RunReport, fieldNames: FieldNames = FieldNames(), fixedFrom: Bool = false) -> String {
    var lines: [String] = []
    let files = report.files.count
    // Files refused or skipped convert nothing: the first line says how many, so the totals are read rightly.
    let refused = report.files.filter { $0.fileError != nil }.count
    let skipped = report.files.filter { $0.skipped != nil && $0.fileError == nil }.count
    let notConverted = [(refused, "refused"), (skipped, "skipped")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    let aside = notConverted.isEmpty ? "" : " (\(notConverted.joined(separator: ", ")))"
    lines.append("fxbatch: \(files) file\(files == 1 ? "" : "s")\(aside), \(describe(report.totals))")
    for file in report.files {
      if let reason = file.skipped {
        lines.append("  \(file.input): skipped, \(reason)")
        continue
      }
      if let fileError = file.fileError {
        // Unindented, so the `path:line:column: error:` line can be found by editors and scripts.
        lines.append(fileError)
        continue
      }
      var details = FormatRegistry.summaryDetails(of: file)
      if file.compression != nil || file.outputCompression != nil {
        details.append(Self.compressionDetail(input: file.compression, output: file.outputCompression))
      }
      if file.decimalMark == "," {
        switch file.decimalMarkInferredFrom {
        case "amounts": details.append("decimal comma (inferred from the amounts)")
        case "delimiter": details.append("decimal comma (inferred from the ; delimiter)")
        default: details.append("decimal comma")
        }
      } else if file.decimalMark == nil, file.decimalMarkInferred == true {
        details.append("decimal mark undecided: amounts like 1,234 are refused; give --decimal-separator")
      }
      switch file.slashDates {
      case "mixed"?: details.append("slash dates of both orders (13/04, 04/13): refused; fix them at the source, or give --date-format dmy or mdy and those of the other order fail")
      case let order?: details.append("\(order) dates (inferred from the dates)")
      case nil: break
      }
      let extra = details.isEmpty ? "" : " [\(details.joined(separator: ", "))]"
      let fields = fieldsUsed(by: file, given: fieldNames, fixedFrom: fixedFrom).map { " [\($0)]" } ?? ""
      lines.append("  \(file.input) -> \(file.output ?? "-"): \(describe(file.counts))\(extra)\(fields)")
      if file.format == nil || file.format == "csv", let fields = file.fields, fields["date"] == nil, file.counts.records > 0 {
        lines.append(
          "    no date field in the header: every record uses the rates of \(report.rates.defaultDay) (name one with --date-field)"
        )
      }
    }
    let rates = report.rates
    var range = ""
    if let first = rates.firstDay, let last = rates.lastDay {
      range = report.fetch == nil ? ", \(first) .. \(last)" : ", rate days used \(first) .. \(last)"
      if let age = rates.daysSinceLastPublication { range += " (last publication \(age) day\(age == 1 ? "" : "s") ago)" }
    }
    lines.append("rates: \(rates.source.description)\(range)")
    if let rule = rates.periodRule {
      let period = rule.split(separator: " ").last.map(String.init) ?? "period"
      lines.append("rate kind: \(rule) (each record at the rate of the calendar \(period) containing its date)")
    }
    if let fetch = report.fetch {
      lines.append(
        "requests: \(fetch.requests) sent, \(fetch.retries) retries, \(fetch.failedRequests) failed; \(fetch.cacheHits) rates from the cache"
      )
      if let notKept = fetch.notKept { lines.append("cache: the fetched rates were used, not kept: \(notKept)") }
    }
    if let chain = report.chain {
      let each = chain.map { use in
        "\(use.name) answered \(use.answered) of \(use.asked)" + (use.failed > 0 ? " (\(use.failed) failed)" : "")
      }
      lines.append("chain: \(each.joined(separator: ", then ")) distinct keys")
    }
    if rates.recordsWithoutDate > 0 {
      var age = ""
      if let last = rates.lastDay, let days = rates.daysSinceLastPublication, last == rates.defaultDay {
        age = " (\(days) day\(days == 1 ? "" : "s") before today; use --date to choose the day)"
      }
      // Under a period rule the day stands for its period (whose rate may not exist yet: period_incomplete).
      let what = rates.periodRule == nil ? "the rates of" : "the period containing"
      lines.append("records without a date: \(rates.recordsWithoutDate), converted at \(what) \(rates.defaultDay)\(age)")
    }
    if let lockFile = report.lockFile {
      let leftOut = report.lockFileLeftOut
      lines.append(
        leftOut == 0
          ? "lock file: \(lockFile) written"
          : "lock file: \(lockFile) written without the \(leftOut) \(leftOut == 1 ? "key" : "keys") the source could not "
            + "answer this time (source_unavailable, timeout or bad_response): a --frozen run gives \(leftOut == 1 ? "it" : "them") "
            + "no rate; run again when the source answers to lock \(leftOut == 1 ? "it" : "them")")
    }
    if let lockError = report.lockFileError { lines.append(lockError) }
    lines.append(
      "rounding: \(report.rounding) to ISO 4217 minor units; max staleness \(report.maxStalenessDays) days"
        + (report.amountUnit == AmountUnit.minor.rawValue ? "; amounts read in minor units (--amount-unit minor)" : ""))
    for entry in report.reconciliation {
      lines.append("  \(reconciliationLine(entry))")
    }
    lines += currencyTotalsLines(report.currencyTotals).map { "  " + $0 }
    lines.append(statusLine(report))
    return lines.joined(separator: "\n") + "\n"
  }

  /// `fields: amount=Betrag, from=Währung, date=Buchungsdatum`: the fields a file's records were read from, in
  /// the order amount, from, to, date, when any of them was found by its name (``HeaderNames``) rather than given
  /// by an option, so that a field found is never a silent guess; `nil` when every one was given, and for a
  /// known document (whose own detail names its paths). A CSV file without a from-currency field, run without
  /// `--from`, took each converted record's from-currency from its amount (`USD 12.50`, `€12.50`: the only place
  /// left): `from=(in the amount)`.
  static func fieldsUsed(by file: RunReport.File, given: FieldNames, fixedFrom: Bool = false) -> String? {
    guard file.document == nil, let fields = file.fields else { return nil }
    let roles = FieldMapping.Role.allCases.filter { fields[$0.rawValue] != nil }
    guard roles.contains(where: { given.name(of: $0) == nil }) else { return nil }
    func shown(_ name: String) -> String {
      // Quoted when it could hide on the terminal or read as the line's own punctuation.
      let plain =
        !name.isEmpty
        && !name.unicodeScalars.contains {
          RowError.isInvisible($0) || ($0.properties.isWhitespace && $0 != " ") || ",=[]\"".unicodeScalars.contains($0)
        }
      return plain ? name : RowError.quoted(name)
    }
    var named = roles.map { role in
      // Several amounts (`--amount-field Gross,Fee,Net`) are named as the option names them.
      guard role == .amount, given.amounts.count > 1 else { return "\(role.rawValue)=\(shown(fields[role.rawValue] ?? ""))" }
      return "amounts=" + given.amounts.map { shown($0.path) }.joined(separator: ",")
    }
    if file.format == nil || file.format == "csv", !fixedFrom, fields["from"] == nil, roles.first == .amount,
      file.counts.ok + file.counts.fallback > 0
    {
      named.insert("from=(in the amount)", at: 1)
    }
    return "fields: " + named.joined(separator: ", ")
  }

  /// The last line: the exit status in words, and how the run stood against its budget.
  /// `exit status 3 (source-failed): a rate source failed for 12 records (source_unavailable, timeout, bad_response)`.
  static func statusLine(_ report: RunReport) -> String {
    let status = ExitStatus(rawValue: report.exitStatus) ?? .fileRefused
    func records(_ count: Int) -> String { "\(count) record\(count == 1 ? "" : "s")" }
    let sourceErrors = report.budget?.sourceErrors ?? report.sourceErrorRecords
    let recordErrors = report.budget?.recordErrors ?? (report.totals.error - sourceErrors)
    var reasons: [String] = []
    switch status {
    case .fileRefused:
      let refused = report.files.filter { $0.fileError != nil }.count
      reasons.append(
        refused > 0
          ? "\(refused) file\(refused == 1 ? " was" : "s were") refused" : "a file asked for was not written")
    case .success where recordErrors == 0 && sourceErrors == 0:
      reasons.append("every record converted" + (report.totals.fallback > 0 ? " (fallback included)" : ""))
    default: break
    }
    if status != .fileRefused {
      if sourceErrors > 0 {
        reasons.append(
          "a rate source failed for \(records(sourceErrors)) (source_unavailable, timeout, bad_response)"
            + budgetClause(report.budget?.maxSourceErrors, "--max-source-errors", within: report.budget?.withinMaxSourceErrors))
      }
      if recordErrors > 0 {
        var what =
          report.budget?.failOn.map { failOn in
            "\(records(recordErrors)) counted as errors (failed on their own data, or --fail-on \(failOn.joined(separator: ",")))"
          } ?? "\(records(recordErrors)) failed on \(recordErrors == 1 ? "its" : "their") own data"
        if let stale = staleClause(report) { what = "\(records(recordErrors)) counted as errors (\(stale))" }
        reasons.append(
          what
            + budgetClause(report.budget?.maxErrors, "--max-errors", within: report.budget?.withinMaxErrors))
      }
    }
    return "exit status \(status.code) (\(status.name)): " + reasons.joined(separator: "; ")
  }

  /// Why `--fail-on stale` counted every converted record, when it did (``RunReport/judge(_:)``): `--fail-on
  /// stale: the rates end 2026-10-30, 37 days before today, more than --max-staleness 5; …`, after those that
  /// failed on their own data; `nil` when the rates are not stale or `--fail-on stale` is not given.
  private static func staleClause(_ report: RunReport) -> String? {
    guard report.budget?.failOn?.contains(ErrorBudget.Strictness.stale.rawValue) == true, report.ratesAreStale,
      let days = report.rates.daysSinceLastPublication
    else { return nil }
    let own = report.totals.error - report.sourceErrorRecords
    let converted = report.totals.ok + report.totals.fallback
    guard converted > 0 else { return nil }
    let end = report.rates.lastDay.map { "end \($0), " } ?? "are "
    return (own > 0 ? "\(own) failed on \(own == 1 ? "its" : "their") own data, " : "")
      + "\(converted) converted but counted by --fail-on stale: the rates \(end)\(days) day\(days == 1 ? "" : "s") "
      + "before today, more than --max-staleness \(report.maxStalenessDays); use newer rates (--source ecb or "
      + "frankfurter, --rates FILE) or --max-staleness \(days) to accept them"
  }

  /// `, within --max-errors 5` / `, more than --max-errors 2 allows`; empty without a budget.
  private static func budgetClause(_ limit: String?, _ option: String, within: Bool?) -> String {
    guard let within else { return "" }
    let given = "\(option) \(limit ?? "0")"
    return within ? ", within \(given)" : ", more than \(given) allows"
  }

  /// `reconciliation EUR, 3 records: sum of rounded amounts 20.98, exact sum rounded once 20.97, difference +0.01`.
  /// With several amounts: `reconciliation EUR fx_converted_Fee, 3 records: …`.
  static func reconciliationLine(_ entry: Reconciliation) -> String {
    let account = entry.currency + (entry.amount.map { " \(AnnotationLayout.convertedPrefix)\($0)" } ?? "")
    let records = "\(entry.records) record\(entry.records == 1 ? "" : "s")"
    guard let rounded = entry.roundedRecordsTotal, let exact = entry.exactTotalRounded, let difference = entry.difference else {
      return "reconciliation \(account), \(records): the totals exceed 38 digits"
    }
    let signed = difference.hasPrefix("-") || difference.allSatisfy({ $0 == "0" || $0 == "." }) ? difference : "+" + difference
    return
      "reconciliation \(account), \(records): sum of rounded amounts \(rounded), exact sum rounded once \(exact), difference \(signed)"
  }

  /// `totals from: 1234.50 USD (3 records), 99.00 GBP (1 record)`: per from-currency, the exact sum of the
  /// converted records' amounts (``CurrencyTotals/from``); the to-currencies' sums are the reconciliation lines'
  /// "sum of rounded amounts". None without converted records.
  static func currencyTotalsLines(_ totals: CurrencyTotals?) -> [String] {
    guard let totals, !totals.from.isEmpty else { return [] }
    let each = totals.from.map { entry in
      let name = entry.amount.map { " \(AnnotationLayout.convertedPrefix)\($0)" } ?? ""
      let records = "\(entry.records) record\(entry.records == 1 ? "" : "s")"
      return "\(entry.total ?? "(past 38 digits)") \(entry.currency)\(name) (\(records))"
    }
    return ["totals from: " + each.joined(separator: ", ")]
  }

  /// `; 2 summary rows skipped` when the rule of summary rows (``RowSkipRule``) copied some; else empty.
  static func skippedClause(_ counts: RunReport.Counts) -> String {
    guard let skipped = counts.skipped, skipped > 0 else { return "" }
    return "; \(skipped) summary row\(skipped == 1 ? "" : "s") skipped"
  }

  private static func describe(_ counts: RunReport.Counts) -> String {
    var text =
      "\(counts.records) record\(counts.records == 1 ? "" : "s"): \(counts.ok) ok, \(counts.fallback) fallback, \(counts.error) error"
    if !counts.errorsByCode.isEmpty {
      text += " (" + counts.errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }
    return text + skippedClause(counts)
  }
}
