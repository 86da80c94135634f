import FXBatch
import Foundation

/// `fxbatch convert [options] FILE...`
enum ConvertCommand {
  static let options: [OptionSpec] = [
    OptionSpec(
      names: ["-o", "--output"], valueName: "FILE", help: "Write the annotated copy to FILE (one input only; - for stdout)",
      group: .essential),
    OptionSpec(
      names: ["--to"], valueName: "CODE",
      help: "The to-currency of every record, for a file without a to\nfield (see --override-currency-fields)",
      group: .essential),
    OptionSpec(
      names: ["--from"], valueName: "CODE",
      help:
        "The from-currency of every record, for a file without a from\nfield whose amounts do not name it (see --override-currency-fields)",
      group: .essential),
    OptionSpec(
      names: ["--amount-field"], valueName: "NAME",
      help:
        "Header name of the amount (default: amount, value, Betrag, …,\nin seven languages)\nJSON: a path, e.g. total_price_set.shop_money.amount (\\. for a\ndot in a name); XML: a path, e.g. LegalMonetaryTotal/PayableAmount;\na money object {\"value\": …, \"currency\": …} or an element with\na Ccy, currencyID or currency attribute gives the from-currency too.\nSeveral amounts, converted at the record's one rate: A,B,C\n(fx_converted_A, …; \\, for a comma in a name), each PATH or\nNAME=PATH (fx_converted_NAME; default: the path's last step)",
      group: .essential),
    OptionSpec(
      names: ["--from-field"], valueName: "NAME",
      help:
        "Header name of the from-currency (default: from, currency, ccy,\nWährung, …); without one, each amount names its currency\n(USD 1,234.56, €12.50)\nJSON: a path, e.g. order.price.currency_code; XML: a path,\ne.g. Amt/@Ccy",
      group: .essential),
    OptionSpec(
      names: ["--to-field"], valueName: "NAME",
      help:
        "Header name of the to-currency (default: to, target_currency, …)\nJSON: a path, e.g. meta.target_currency; XML: a path",
      group: .essential),
    OptionSpec(
      names: ["--date-field"], valueName: "NAME",
      help:
        "Header name of the value date (default: date, value_date, …)\nJSON: a path, e.g. meta.created_at; XML: a path, e.g. BookgDt/Dt",
      group: .essential),
    OptionSpec(
      names: ["--date-format"], valueName: "iso|dmy|mdy|unix|unix-ms|PATTERN",
      help:
        "How dates are written: iso (default: YYYY-MM-DD, 20241231,\n31.12.2024, 31 Dec 2024 and other unambiguous layouts; slash\ndates in the order the column proves: 31/12/2024 is day-first),\ndmy 31/12/2024, mdy 12/31/2024, unix (seconds since 1970-01-01\nUTC; the UTC day), unix-ms, or a pattern such as '%d %b %Y',\n%Y%m%d, '%d.%m.%Y %H:%M': %Y %y %m %d %b (English month\nname or abbreviation; %B the same) %H %I %M %S %f %p %z %%.\nA date-time's day is the date as written, whatever its offset",
      group: .essential, completion: .words(DateFormat.allCases.map(\.rawValue))),
    OptionSpec(
      names: ["--amount-unit"], valueName: "major|minor",
      help:
        "minor: amounts are whole ISO 4217 minor units of the from-\ncurrency, as payment APIs write them (1250 USD is 12.50,\n1250 JPY is 1250); default major: 12.50",
      group: .essential, completion: .words(AmountUnit.allCases.map(\.rawValue))),
    OptionSpec(
      names: ["--date"], valueName: "YYYY-MM-DD", help: "Date of records without one (default: newest rate day)",
      group: .essential),
    OptionSpec(
      names: ["--format"], valueName: FormatRegistry.names.joined(separator: "|"),
      help: "Format of every input (default: by extension:\n\(FormatRegistry.extensionsHelp); else from the content)",
      group: .input, completion: .words(FormatRegistry.names)),
    OptionSpec(
      names: ["--records-path"], valueName: "PATH",
      help: "JSON: the member path of the records array, e.g. data.items\n(default: the document is the array)",
      group: .input),
    OptionSpec(
      names: ["--record-element"], valueName: "NAME",
      help:
        "XML: the name of the record elements, or of the root for one\nrecord per file (default: the root's repeated child); fields:\nchildren, @attributes, paths (BookgDt/Dt, Amt/@Ccy)",
      group: .input),
    OptionSpec(
      names: ["--sheet"], valueName: "NAME|NUMBER",
      help: "XLSX, ODS: the sheet to convert, by tab name or number from 1\n(default: the first sheet)", group: .input),
    OptionSpec(
      names: ["--header-row"], valueName: "N",
      help:
        "XLSX, ODS: the header is the first non-empty row from row N\n(default: 1); the rows above it (a title, notes) are copied\nas they are and get no fx cells",
      group: .input),
    OptionSpec(
      names: ["--encoding"], valueName: "NAME",
      help:
        "CSV: the encoding of the files: utf-8, windows-1252, iso-8859-1,\n"
        + "iso-8859-15, utf-16, utf-16le, utf-16be (default: UTF-8, or\n"
        + "UTF-16 when a byte order mark says so); the annotated copy is\nwritten in the same encoding",
      group: .input, completion: .words(TextEncoding.allCases.map(\.rawValue))),
    OptionSpec(
      names: ["--header"], valueName: "NAME,...",
      help:
        "CSV: the field names of input without a header line (a chunk\nof a file); every line is then a record. One CSV line\nwith commas: quote a name that holds one, 'a,\"b, c\"'",
      group: .input),
    OptionSpec(
      names: ["--first-line"], valueName: "N",
      help:
        "CSV, JSON Lines: the number of the input's first line (default\n1), for a chunk cut from a bigger file: messages name the\nlines as in the whole file",
      group: .input),
    OptionSpec(
      names: ["--delimiter"], valueName: "D", help: ", or ; or tab (default: detected from the header line)", group: .input,
      completion: .words([",", ";", "tab"])),
    OptionSpec(
      names: ["--decimal-separator"], valueName: ". | ,", help: "Decimal mark of amounts (default: inferred per file)",
      group: .input, completion: .words([".", ","])),
    OptionSpec(
      names: ["--minor-units"], valueName: "CODE=N",
      help:
        "With --amount-unit minor: amounts in CODE have N decimals, for\nan API that counts otherwise than ISO 4217, e.g. ISK=2 for\nStripe (repeatable)",
      group: .input, repeatable: true),
    OptionSpec(
      names: ["--alias"], valueName: "NAME=CODE",
      help: "Read the non-ISO currency name NAME as CODE, e.g. RMB=CNY\n(repeatable; unknown names are errors, never guessed)",
      group: .input, repeatable: true),
    OptionSpec(
      names: ["--symbol"], valueName: "SYMBOL=CODE",
      help:
        "Read the currency symbol SYMBOL as CODE, e.g. '$=USD'\n(repeatable; needed for $, ¥, kr, which several currencies use)",
      group: .input, repeatable: true),
    OptionSpec(
      names: ["--undated"], valueName: nil,
      help: "No recognised date field: use the newest rate day even\nwhen a field looks like dates (else refused)",
      group: .input),
    OptionSpec(
      names: ["--override-currency-fields"], valueName: nil,
      help: "Let --from/--to override the file's from-/to-currency field\n(else a file that has one is refused)",
      group: .input),
    OptionSpec(
      names: ["--skip-rows-matching"], valueName: "REGEX",
      help:
        "Copy records whose first non-empty field matches REGEX as they\nare, counted as skipped, never converted (ICU syntax; e.g.\n'^(Subtotal|Carried forward)')",
      group: .input),
    OptionSpec(
      names: ["--no-skip-totals"], valueName: nil,
      help:
        "Convert total rows too (default: a record whose first non-empty\nfield is Total, Summe, Gesamt, Totaal, Totale, Total général, …\nand whose currency or date is missing is copied, skipped)",
      group: .input),
    OptionSpec(
      names: ["--max-record-size"], valueName: "BYTES",
      help: "Refuse a file with a record longer than BYTES (default 16M;\nK, M, G suffixes; a field may be a sixteenth)",
      group: .input),
    OptionSpec(
      names: ["--max-input-size"], valueName: "BYTES",
      help:
        "Refuse a stream (standard input, a pipe, a device) copied to\n$TMPDIR to be read twice, or a compressed file decompressed\nthere, when longer than BYTES (default 4G; 1K to 64G); a stream\nread in one pass is not copied",
      group: .input),
    OptionSpec(
      names: ["--rates"], valueName: "FILE",
      help: "Use your rates: an ECB XML feed, an ECB history CSV,\nor a CSV with date,base,quote,rate (date optional)",
      group: .rates),
    OptionSpec(
      names: ["--source"], valueName: "NAME",
      help: OptionSpec.wrapped(
        "\(RateSourceRegistry.helpList(RateSourceRegistry.sources)) (\(networkSourcesHelp)); a list (embedded,frankfurter) "
          + "answers each rate from the first source that has it"),
      group: .rates, completion: .words(RateSourceRegistry.names)),
    OptionSpec(
      names: ["--rate-kind"], valueName: "KIND",
      help:
        "spot (default: the rate of the record's date), average (the\nmean over the --period) or closing (the period's last rates);\nnot with \(RateSourceRegistry.sentenceList(RateSourceRegistry.names { !$0.answersPeriodRules }))",
      group: .rates, completion: .words(RateRule.kindNames)),
    OptionSpec(
      names: ["--period"], valueName: "PERIOD",
      help: "month (default), quarter or year: the calendar period of the\nrecord's date, for --rate-kind average or closing",
      group: .rates, completion: .words(RatePeriod.allCases.map(\.rawValue))),
    OptionSpec(
      names: ["--max-staleness"], valueName: "DAYS", help: "Use rates at most DAYS older than a record's date (default 5)",
      group: .rates),
    OptionSpec(
      names: ["--rounding"], valueName: "MODE", help: "half-up (default, EU Reg. 1103/97), half-even, down, up",
      group: .rates, completion: .words(RoundingMode.allCases.map(\.rawValue))),
    OptionSpec(
      names: ["--lock"], valueName: "FILE", help: "Write every rate the run used to FILE (with --frozen: read it)",
      group: .rates),
    OptionSpec(
      names: ["--frozen"], valueName: nil, help: "Take rates only from the --lock file; fail records it lacks", group: .rates),
    OptionSpec(
      names: ["--date-policy"], valueName: "strict|latest",
      help:
        "\(CalculatorProvider.sourceName): strict (default) converts only records dated today;\nlatest uses today's rate for every record (marked fallback)",
      group: .rates, completion: .words(["strict", "latest"])),
    OptionSpec(
      names: ["--providers"], valueName: "KEY,...",
      help:
        "\(FrankfurterProvider.sourceName): only these providers' rates (ECB,BOC, as the service\nspells them); fx_source names the providers of each rate",
      group: .rates),
    OptionSpec(
      names: ["--endpoint"], valueName: "URL", help:
        "Where the \(RateSourceRegistry.sentenceList(RateSourceRegistry.networkNames)) service is:\nits base URL; the calculator's full path (…/ig/calculator)",
      group: .fetching),
    OptionSpec(names: ["--jobs"], valueName: "N", help: "Most requests in flight at once (default 8)", group: .fetching),
    OptionSpec(names: ["--timeout"], valueName: "SECONDS", help: "Wait this long for each answer (default 10)", group: .fetching),
    OptionSpec(
      names: ["--retries"], valueName: "N", help: "Retries on timeouts, connection errors, 5xx, 429 (default 3)",
      group: .fetching),
    OptionSpec(
      names: ["--retry-delay"], valueName: "SECONDS", help: "First backoff step, doubled per retry, jittered (default 0.5)",
      group: .fetching),
    OptionSpec(
      names: ["--deadline"], valueName: "SECONDS",
      help: "Fetch for at most this long in all, retries included\n(default 120); rates missing then fail with timeout",
      group: .fetching),
    OptionSpec(
      names: ["--cache-dir"], valueName: "DIR",
      help: "Rate cache directory (default $XDG_CACHE_HOME/fxbatch);\nalso where `rates update` keeps a newer ECB history",
      group: .fetching),
    OptionSpec(names: ["--no-cache"], valueName: nil, help: "Neither read nor write the rate cache", group: .fetching),
    OptionSpec(
      names: ["--offline"], valueName: nil, help: "Use only the cache, embedded data and files; no network", group: .fetching),
    OptionSpec(
      names: ["--output-dir"], valueName: "DIR",
      help: "Write X.converted.csv into DIR (which must exist) instead of beside X.csv", group: .output),
    OptionSpec(
      names: ["--output-decimal-separator"], valueName: ". | ,",
      help: "Decimal mark of fx_rate and fx_converted (default .); not for\nworkbooks, whose fx cells are numbers",
      group: .output, completion: .words([".", ","])),
    OptionSpec(
      names: ["--no-header-output"], valueName: nil,
      help: "CSV: write the annotated copy without its header line, so\ncopies of chunks can be concatenated",
      group: .output),
    OptionSpec(names: ["--report"], valueName: "FILE", help: "Also write the run summary as JSON to FILE", group: .output),
    OptionSpec(
      names: ["--max-errors"], valueName: "N|P%",
      help:
        "Exit 0 when at most N records (or P% of the run's records,\n0 to 100) fail on their own data (default 0); a source's\nfailures are not within it (--max-source-errors)",
      group: .output),
    OptionSpec(
      names: ["--max-source-errors"], valueName: "N|P%",
      help: "Records a rate source may fail (source_unavailable, timeout,\nbad_response) and the run not exit 3 (default 0)",
      group: .output),
    OptionSpec(
      names: ["--fail-on"], valueName: "fallback|stale",
      help:
        "Count these as record errors for the exit status: fallback\nrecords; stale: every converted record when the rates end\nmore than --max-staleness days before today (repeatable, A,B)",
      group: .output, completion: .words(ErrorBudget.Strictness.allCases.map(\.rawValue)), repeatable: true),
    OptionSpec(
      names: ["--plan"], valueName: nil, help: "Print the rate lookups and requests the run needs; fetch and write nothing",
      group: .output),
    OptionSpec(names: ["-q", "--quiet"], valueName: nil, help: "Print no summary (file errors and why a run failed are still printed)", group: .output),
    OptionSpec(names: ["-h", "--help"], valueName: nil, help: "Show this help"),
  ]

  /// The command's one definition: help, parser options, man page and completions.
  static let spec = CommandSpec(
    name: "convert",
    arguments: "[options] [FILE...]",
    summary: "Convert \(FormatRegistry.displayNames) files; writes X.converted.EXT beside X.EXT",
    description: """
      Converts each record's amount into the to-currency at the reference rate of the record's date, rounded once
      to the currency's ISO 4217 minor units, and writes a copy of each file with these fields appended:
      fx_rate, fx_converted, fx_currency, fx_rate_date, fx_source, fx_status (ok|fallback|error|skipped), fx_error.
      CSV files gain columns; in JSON and JSON Lines files each record object gains these members; in XML each
      record element gains an <fx> child whose attributes carry them (rate, converted, currency, rate-date, ...).
      FILE may be \(FormatRegistry.displayNames); - reads standard input. A file or stream compressed with
      gzip, zstd, xz or bzip2 is read as what it holds, and X.csv.gz's copy is X.converted.csv.gz.
      Rates: the embedded ECB euro reference rates 1999-01-04 .. 2026-10-30, unless --rates is given.
      With no FILE, when standard input is not a terminal (a pipe or a redirected file), reads it and writes the
      annotated copy to standard output: 'cat f.csv | fxbatch convert' is 'fxbatch convert - -o -'.
      """,
    options: options,
    examples: [
      (
        "Every amount of a file with amount and currency columns to euros (delimiter and decimal mark detected)",
        "fxbatch convert --to EUR statement.csv"
      ),
      (
        "Name the fields; dates written 31/12/2024",
        "fxbatch convert --to EUR --amount-field Total --from-field Curr --date-format dmy export.csv"
      ),
      (
        "A Stripe list or Stripe objects one per line: recognized (data, amount/fee/net in cents, currency, created)",
        "fxbatch convert --to EUR balance_transactions.json charges.jsonl"
      ),
      (
        "Shopify orders: a nested money object (amount and currency_code); --to over their currency members",
        "fxbatch convert --to EUR --amount-field total_price_set.shop_money --override-currency-fields orders.jsonl"
      ),
      (
        "An ISO 20022 camt.053 statement, UBL invoices (payable and tax amounts): recognized, no field options",
        "fxbatch convert --to USD statement.xml invoices/*.xml"
      ),
      (
        "JSON records under data.items, to standard output", "fxbatch convert --records-path data.items --to USD -o - orders.json"
      ),
      (
        "The sheet Q3 of a workbook, to pounds at monthly average rates",
        "fxbatch convert --sheet Q3 --to GBP --rate-kind average book.xlsx"
      ),
      (
        "Your own rates, and the rates used written to a lock file",
        "fxbatch convert --rates my-rates.csv --lock rates.lock payments.csv"
      ),
      (
        "Rates from Frankfurter, kept for a rerun without network",
        "fxbatch convert --source frankfurter --lock rates.lock payments.csv"
      ),
    ],
    footer: ExitStatus.helpText
      + "\n  A refused file: not read, parsed or written (nothing written for it), or a lock\n  file or --report asked for not written. --max-errors and --max-source-errors\n  let a few failed records exit 0; the summary's last line says which status and why.",
    argumentCompletion: .file)

  static let usage = spec.usage

  static var help: String { spec.help }

  static func run(_ arguments: ArraySlice<String>) -> Int32 {
    var options: BatchOptions
    let reportPath: String?
    let quiet: Bool
    let sourceChoice: SourceChoice
    let planOnly: Bool
    let budget: ErrorBudget
    do {
      let parsed = try ParsedArguments.parse(arguments, options: Self.options)
      if parsed.has("--help") {
        Console.out(help)
        return ExitStatus.success.code
      }
      if parsed.has("--version") { return FXBatchCommand.printVersion() }
      budget = try errorBudget(parsed)
      options = try batchOptions(parsed)
      sourceChoice = try Self.sourceChoice(parsed)
      try checkRateRule(options.rateRule, source: sourceChoice, parsed: parsed)
      reportPath = parsed.value("--report")
      quiet = parsed.has("--quiet")
      planOnly = parsed.has("--plan")
    } catch {
      return FXBatchCommand.usageError(error, usage: "USAGE: \(usage)\nSee 'fxbatch convert --help'.\n")
    }
    guard let source = load(sourceChoice, options: &options, quiet: quiet, planOnly: planOnly) else {
      return ExitStatus.fileRefused.code
    }
    if isatty(2) == 1, !quiet { options.progress = ProgressLine.show }
    let job = BatchJob(options: options, source: source)
    if planOnly {
      let (report, plan) = job.plan()
      Console.out(PlanText.text(report: report, plan: plan, source: source.info))
      for file in report.files { if let fileError = file.fileError { Console.error(fileError + "\n") } }
      return report.files.contains { $0.fileError != nil } ? ExitStatus.fileRefused.code : ExitStatus.success.code
    }
    var report = job.run()
    report.judge(budget)
    ProgressLine.finish()
    // The report is the last file written: the run is finished once it is in place (a signal while the summary
    // prints interrupts nothing, ``Interrupts``).
    let reportWritten = reportPath.map { write(report, to: $0) } ?? true
    if !reportWritten { report.setExitStatus(.fileRefused) }
    let status = Interrupts.finished(report.exitStatus)
    if !quiet {
      Console.error(RunSummary.text(of: report, fieldNames: options.fieldNames, fixedFrom: options.fixedFrom != nil))
    } else {
      // Quiet hides the summary, never why the run failed (a file, the lock file).
      for file in report.files { if let fileError = file.fileError { Console.error(fileError + "\n") } }
      if let lockFileError = report.lockFileError { Console.error(lockFileError + "\n") }
    }
    return status
  }

  /// Writes a report as JSON (`--report FILE`, `report merge -o FILE`; `-` for standard output); `false` after
  /// printing why it could not.
  static func write(_ report: RunReport, to reportPath: String) -> Bool {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      let bytes = try encoder.encode(report)
      if reportPath == "-" {
        Console.out(String(decoding: bytes, as: UTF8.self) + "\n")
        return true
      }
      StaleTemporaryFiles.remove(in: [PathText.directory(of: reportPath)])
      let file = try AtomicFile(path: reportPath)
      try file.sink.write(bytes)
      try file.commit()
      return true
    } catch {
      Console.error("\(reportPath):1:1: error: cannot write the report: \(error)\n")
      return false
    }
  }

  /// `--max-errors`, `--max-source-errors` and `--fail-on`.
  /// `--skip-rows-matching REGEX` and `--no-skip-totals`: which records are summary rows (``RowSkipRule``).
  static func skipRule(_ parsed: ParsedArguments) throws(UsageError) -> RowSkipRule {
    var pattern: NSRegularExpression? = nil
    if let expression = parsed.value("--skip-rows-matching") {
      do throws(RowSkipRuleError) {
        pattern = try RowSkipRule.pattern(expression)
      } catch {
        throw UsageError(error.description)
      }
    }
    return RowSkipRule(skipsTotals: !parsed.has("--no-skip-totals"), pattern: pattern)
  }

  static func errorBudget(_ parsed: ParsedArguments) throws(UsageError) -> ErrorBudget {
    var budget = ErrorBudget()
    func limit(_ option: String) throws(UsageError) -> ErrorBudget.Limit? {
      guard let text = parsed.value(option) else { return nil }
      guard let limit = ErrorBudget.Limit(text) else {
        throw UsageError(
          "\(option) \(text.isEmpty ? "''" : text): not a number of records (0, 1, 2, …) or a percentage of them from 0% to 100% (0.5%)")
      }
      return limit
    }
    budget.maxErrors = try limit("--max-errors")
    budget.maxSourceErrors = try limit("--max-source-errors")
    for text in parsed.values("--fail-on") {
      for word in text.split(separator: ",", omittingEmptySubsequences: false) {
        guard let strictness = ErrorBudget.Strictness(rawValue: String(word)) else {
          throw UsageError("--fail-on \(text): \(word.isEmpty ? "an empty name" : "'\(word)'") is neither fallback nor stale")
        }
        budget.failOn.insert(strictness)
      }
    }
    return budget
  }

  static let lockUsage = "fxbatch rates lock [convert options] FILE... -o LOCKFILE"

  /// `fxbatch rates lock FILE... -o LOCKFILE`: convert's options; `-o` names the lock file.
  static func lock(_ arguments: ArraySlice<String>) -> Int32 {
    var options: BatchOptions
    let sourceChoice: SourceChoice
    let quiet: Bool
    do throws(UsageError) {
      var parsed = try ParsedArguments.parse(arguments, options: Self.options)
      if parsed.has("--help") {
        Console.out(RatesCommand.help(for: ["lock"]))
        return ExitStatus.success.code
      }
      if parsed.has("--version") { return FXBatchCommand.printVersion() }
      let convertOnly = ["--lock", "--output-dir", "--report", "--max-errors", "--max-source-errors"]
      for option in convertOnly where parsed.value(option) != nil {
        throw UsageError("\(option) is for convert; rates lock writes the lock file -o names")
      }
      if !parsed.values("--fail-on").isEmpty {
        throw UsageError("--fail-on is for convert; rates lock writes the lock file -o names")
      }
      for flag in ["--frozen", "--plan", "--no-header-output"] where parsed.has(flag) {
        throw UsageError("\(flag) is for convert; rates lock writes the lock file -o names")
      }
      guard let path = parsed.value("--output"), path != "-", !path.isEmpty else {
        throw UsageError("rates lock needs -o LOCKFILE, the lock file to write")
      }
      // Checked under the name the user gave (it is convert's --lock from here on).
      try WrittenPath.check(path, option: "-o")
      guard !parsed.positionals.isEmpty else {
        throw UsageError("rates lock needs the files whose rate keys to lock (- for standard input)")
      }
      parsed.rename("--output", to: "--lock")
      options = try batchOptions(parsed)
      sourceChoice = try Self.sourceChoice(parsed)
      try checkRateRule(options.rateRule, source: sourceChoice, parsed: parsed)
      quiet = parsed.has("--quiet")
    } catch {
      return FXBatchCommand.usageError(error, usage: "USAGE: \(lockUsage)\nSee 'fxbatch rates lock --help'.\n")
    }
    guard let source = load(sourceChoice, options: &options, quiet: quiet, planOnly: false) else {
      return ExitStatus.fileRefused.code
    }
    let report = BatchJob(options: options, source: source).lock()
    // A lock that leaves keys out (the source failed them) makes their records fail in every part: status 3.
    let status = Interrupts.finished(report.exitStatus)
    for file in report.files { if let fileError = file.fileError { Console.error(fileError + "\n") } }
    if let lockFileError = report.lockFileError { Console.error(lockFileError + "\n") }
    if !quiet, let lockFile = report.lockFile {
      var line = "\(lockFile): written, the rates of \(report.rates.source.identifier)"
      if let fetch = report.fetch {
        line += "; requests: \(fetch.requests) sent, \(fetch.retries) retries, \(fetch.failedRequests) failed"
      }
      if report.lockFileLeftOut > 0 { line += "; \(report.lockFileLeftOut) keys left out (the source failed them)" }
      Console.error(line + "\n")
    }
    return status
  }

  /// Loads the source the options name; `nil` after printing why it cannot be loaded.
  static func load(_ choice: SourceChoice, options: inout BatchOptions, quiet: Bool, planOnly: Bool)
    -> RateSourceChoice?
  {
    switch choice {
    case .lockFile(let path):
      do {
        let (source, defaultDay) = try LockFile.replay(path: path, rule: options.rateRule)
        if options.defaultDate == nil { options.defaultDate = defaultDay }  // the locked run's day for undated records
        return source
      } catch {
        Console.error("\(error)\n")
        return nil
      }
    case .table(let path, let cacheDirectory):
      switch FXBatchCommand.loadRates(path: path, cacheDirectory: cacheDirectory) {
      case .success(let table): return .table(table)
      case .failure(let error):
        Console.error("\(error)\n")
        return nil
      }
    case .provider(let provider, var settings, let cacheDirectory):
      if isatty(2) == 1, !quiet { settings.progress = ProgressLine.show }
      // --plan writes nothing: it reads an existing cache but does not create one.
      if let cacheDirectory, !planOnly || FileManager.default.fileExists(atPath: cacheDirectory.path) {
        do { settings.cache = try RateCache(directory: cacheDirectory.path) } catch {
          if cacheDirectory.explicit {
            Console.error("\(error)\n")
            return nil
          }
          Console.error("fxbatch: warning: running without the rate cache: \(error)\n")
        }
      }
      return .provider(provider, settings)
    case .chain(let links):
      var loaded: [RateSourceChoice.ChainLink] = []
      for (name, link) in links {
        guard let source = load(link, options: &options, quiet: quiet, planOnly: planOnly) else { return nil }
        loaded.append(RateSourceChoice.ChainLink(name: name, source: source))
      }
      return .chain(loaded)
    }
  }

  private static func batchOptions(_ parsed: ParsedArguments) throws(UsageError) -> BatchOptions {
    var options = BatchOptions(today: try FXBatchCommand.today())
    // Every record by the general rules: the same output, slower; for checking the fast paths against them.
    options.fastPath = ProcessInfo.processInfo.environment["FXBATCH_GENERAL_PATH"] != "1"
    options.inputPaths = parsed.positionals
    if options.inputPaths.isEmpty {
      // First use: data piped in is the input, as Miller and xsv read it; its copy goes to standard output (the
      // destination of `-` without -o). From a terminal nothing would come: say what to give instead.
      guard isatty(0) == 0 else {
        throw UsageError("no input files; give FILE..., or pipe the data in (standard input is a terminal)")
      }
      options.inputPaths = ["-"]
    }
    if options.inputPaths.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read only once") }
    for option in ["--output", "--output-dir", "--rates", "--report", "--lock", "--cache-dir"] where parsed.value(option) == "" {
      throw UsageError("\(option) needs a non-empty path")
    }
    // Files written after the conversion must be writable before it starts, or a run would fail half done.
    for option in ["--report", "--lock"] {
      guard let path = parsed.value(option), !(option == "--lock" && parsed.has("--frozen")) else { continue }
      try WrittenPath.check(path, option: option)
    }
    if let output = parsed.value("--output") {
      guard options.inputPaths.count == 1 else { throw UsageError("-o takes one input file; use --output-dir for several") }
      guard parsed.value("--output-dir") == nil else { throw UsageError("-o and --output-dir exclude each other") }
      if output != "-" { try WrittenPath.check(output, option: "-o", directoryHint: "use --output-dir \(output)") }
      options.destination = output == "-" ? .standardOutput : .file(output)
    } else if let directory = parsed.value("--output-dir") {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw UsageError("--output-dir \(directory): no such directory")
      }
      options.destination = .directory(directory)
    }
    options.ratesPath = parsed.value("--rates")
    if !parsed.has("--frozen") { options.lockPath = parsed.value("--lock") }
    // The lock and the report never replace an input, an output or each other.
    let written = ["--lock", "--report"].compactMap { option in parsed.value(option).map { (option, $0) } }
    for (option, path) in written {
      if let conflict = options.conflict(ofWrittenFile: path) { throw UsageError("\(option) \(path): \(conflict)") }
    }
    if written.count == 2, BatchOptions.sameFile(written[0].1, written[1].1) {
      throw UsageError("--lock and --report name the same file \(written[1].1)")
    }
    if let text = parsed.value("--from") { options.fixedFrom = try OptionValues.currency(text, option: "--from") }
    if let text = parsed.value("--to") { options.fixedTo = try OptionValues.currency(text, option: "--to") }
    var amounts: [AmountField] = []
    if let text = parsed.value("--amount-field") {
      do throws(AmountFieldError) { amounts = try AmountField.parse(text) } catch { throw UsageError(error.description) }
    }
    options.fieldNames = FieldNames(
      amounts: amounts, from: parsed.value("--from-field"), to: parsed.value("--to-field"),
      date: parsed.value("--date-field"))
    for role in ["from", "to"] where parsed.value("--\(role)") != nil && parsed.value("--\(role)-field") != nil {
      throw UsageError("--\(role) and --\(role)-field both give the \(role)-currency: use one of them")
    }
    options.undated = parsed.has("--undated")
    options.skipRule = try skipRule(parsed)
    options.overrideCurrencyFields = parsed.has("--override-currency-fields")
    if options.overrideCurrencyFields, options.fixedFrom == nil, options.fixedTo == nil {
      throw UsageError("--override-currency-fields is for --from CODE or --to CODE")
    }
    if let text = parsed.value("--date") { options.defaultDate = try OptionValues.day(text, option: "--date") }
    if let text = parsed.value("--date-format") {
      options.dateFormat = try OptionValues.dateFormat(text)
      options.dateFormatIsGiven = true
    }
    if let text = parsed.value("--amount-unit") {
      options.amountUnit = try OptionValues.amountUnit(text)
      options.amountUnitIsGiven = true
    }
    options.minorUnits = try OptionValues.minorUnits(parsed.values("--minor-units"))
    if !options.minorUnits.isEmpty, options.amountUnit != .minor {
      throw UsageError("--minor-units is for amounts in minor units: add --amount-unit minor")
    }
    if let text = parsed.value("--max-staleness") {
      options.maxStaleness = try OptionValues.nonNegativeInteger(text, option: "--max-staleness")
    }
    if let text = parsed.value("--max-record-size") {
      options.limits.maxRecordBytes = try OptionValues.byteCount(text, option: "--max-record-size")
    }
    if let text = parsed.value("--max-input-size") {
      options.maxInputBytes = try OptionValues.byteCount(text, option: "--max-input-size")
    }
    if let text = parsed.value("--rounding") { options.rounding = try OptionValues.rounding(text) }
    options.rateRule = try OptionValues.rateRule(kind: parsed.value("--rate-kind"), period: parsed.value("--period"))
    if let text = parsed.value("--format") { options.format = try OptionValues.format(text) }
    if let text = parsed.value("--records-path") { options.recordsPath = try OptionValues.recordsPath(text) }
    options.recordElement = parsed.value("--record-element")
    options.sheet = parsed.value("--sheet")
    if let text = parsed.value("--header-row") {
      guard let row = Int(text), (1...CellReference.rowCount).contains(row) else {
        throw UsageError("--header-row \(text): expected a row number from 1 to \(CellReference.rowCount)")
      }
      options.headerRow = row
    }
    if let text = parsed.value("--encoding") { options.encoding = try OptionValues.encoding(text) }
    if let text = parsed.value("--header") { options.header = try OptionValues.header(text) }
    if let text = parsed.value("--first-line") {
      guard let line = Int(text), line >= 1, line <= 1 << 53 else {
        throw UsageError("--first-line \(text): expected a line number, 1 or more")
      }
      options.firstLine = line
    }
    options.writesHeader = !parsed.has("--no-header-output")
    if let text = parsed.value("--delimiter") { options.delimiter = try OptionValues.delimiter(text) }
    if let text = parsed.value("--decimal-separator") {
      options.decimalMark = try OptionValues.decimalMark(text, option: "--decimal-separator")
    }
    if let text = parsed.value("--output-decimal-separator") {
      options.outputDecimalMark = try OptionValues.decimalMark(text, option: "--output-decimal-separator")
    }
    options.currencies = CurrencyResolver(
      aliases: try OptionValues.currencyNames(parsed.values("--alias"), option: "--alias"),
      symbols: try OptionValues.currencyNames(parsed.values("--symbol"), option: "--symbol"))
    return options
  }

  /// A period rule (`--rate-kind average|closing`) needs the daily rates of whole periods: every source of
  /// `--source` (or of its list) must answer period rules (``RateSourceDefinition/answersPeriodRules``); a lock
  /// file's rule is checked when it is read.
  static func checkRateRule(_ rule: RateRule, source: SourceChoice, parsed: ParsedArguments) throws(UsageError) {
    guard rule != .spot else { return }
    if case .lockFile = source { return }
    let named = sourceList(parsed).compactMap(RateSourceRegistry.source(named:))
    guard named.contains(where: { !$0.answersPeriodRules }) else { return }
    let periodSources = RateSourceRegistry.sources.filter { $0.answersPeriodRules }
    throw UsageError(
      "--rate-kind \(parsed.value("--rate-kind") ?? "") works with "
        + RateSourceRegistry.sentenceList(periodSources.map { $0.sourceSummary }, conjunction: "and")
        + " (--source \(RateSourceRegistry.sentenceList(periodSources.map { $0.sourceName })), or a list of those),"
        + " not with --source \(parsed.value("--source") ?? "")"
    )
  }

  /// The rate source the options name, before anything is loaded.
  enum SourceChoice {
    /// The embedded history (`nil`) or a rates file.
    case table(String?, cacheDirectory: String?)
    /// A service; the cache directory unless `--no-cache` (`explicit` when given with `--cache-dir`).
    case provider(any RateProvider, FetchSettings, cache: (path: String, explicit: Bool)?)
    /// `--frozen`: the lock file.
    case lockFile(String)
    /// `--source A,B,…`: each link by its name.
    indirect case chain([(name: String, choice: SourceChoice)])
  }

  /// The names `--source` gives (`A,B,…` for a chain), else the default: the embedded history, or the rates
  /// file `--rates` names.
  static func sourceList(_ parsed: ParsedArguments) -> [String] {
    let list =
      parsed.value("--source")
      ?? (parsed.value("--rates") == nil ? RateSourceRegistry.defaultSource : RateSourceRegistry.ratesFileSource)
      .sourceName
    return list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
  }

  /// "; did you mean 'frankfurter'?" after an unknown source name when one is close, else nothing.
  static func sourceSuggestion(_ name: String, among names: [String] = RateSourceRegistry.names) -> String {
    Suggestion.closest(to: name, among: names).map { "; did you mean '\($0)'?" } ?? ""
  }

  /// `(the last four fetch rates over HTTP)` in `--source`'s help.
  static var networkSourcesHelp: String {
    let network = RateSourceRegistry.networkNames
    let counts = ["two", "three", "four", "five", "six", "seven", "eight", "nine"]
    if network.count >= 2, network.count - 2 < counts.count, RateSourceRegistry.names.suffix(network.count) == network[...] {
      return "the last \(counts[network.count - 2]) fetch rates over HTTP"
    }
    return "\(RateSourceRegistry.sentenceList(network, conjunction: "and")) fetch rates over HTTP"
  }

  /// `--source A,B,…`: every name known and named once; `--rates` for the rates file's source, the network
  /// options only with a network link, and `--endpoint` only when one link is a service (it is the root of one
  /// service).
  private static func chainChoice(_ list: String, parsed: ParsedArguments) throws(UsageError) -> SourceChoice {
    let names = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    var seen: Set<String> = []
    for name in names {
      guard !name.isEmpty else { throw UsageError("--source \(list): an empty name in the list") }
      guard RateSourceRegistry.source(named: name) != nil else {
        throw UsageError(
          "--source \(list): unknown source \(name); expected \(RateSourceRegistry.names.joined(separator: ", "))"
            + sourceSuggestion(name))
      }
      guard seen.insert(name).inserted else { throw UsageError("--source \(list): \(name) is named twice") }
    }
    let ratesFile = RateSourceRegistry.ratesFileSource.sourceName
    if parsed.value("--rates") != nil, !seen.contains(ratesFile) {
      throw UsageError("--rates is for the source \(ratesFile); add \(ratesFile) to --source \(list)")
    }
    let network = names.filter { RateSourceRegistry.source(named: $0)?.isNetworkSource == true }
    if network.isEmpty, let option = networkOptions(parsed).first {
      throw UsageError("\(option) is for a network source, and --source \(list) has none")
    }
    if parsed.value("--endpoint") != nil, network.count > 1 {
      throw UsageError(
        "--endpoint is the root of one service, and --source \(list) names \(network.count) (\(network.joined(separator: ", "))); "
          + "drop --endpoint or chain one of them")
    }
    if parsed.value("--date-policy") != nil, !seen.contains(CalculatorProvider.sourceName) {
      throw UsageError(
        "--date-policy is for the source \(CalculatorProvider.sourceName), and --source \(list) does not name it")
    }
    var links: [(name: String, choice: SourceChoice)] = []
    let deadline = try OptionValues.deadline(parsed.value("--deadline"))  // one for the whole chain
    for name in names { links.append((name, try singleChoice(name, parsed: parsed, inChain: true, deadline: deadline))) }
    return .chain(links)
  }

  /// The network options given.
  private static func networkOptions(_ parsed: ParsedArguments) -> [String] {
    ["--endpoint", "--jobs", "--timeout", "--retries", "--retry-delay", "--deadline", "--date-policy"].filter {
      parsed.value($0) != nil
    }
  }

  static func sourceChoice(_ parsed: ParsedArguments) throws(UsageError) -> SourceChoice {
    let names = sourceList(parsed)
    let name = names.joined(separator: ",")
    if let text = parsed.value("--providers") {
      _ = try OptionValues.providers(text)
      guard names.contains(FrankfurterProvider.sourceName) else {
        throw UsageError(
          "--providers is for --source \(FrankfurterProvider.sourceName) (v2), and --source \(name) does not name it")
      }
    }
    if parsed.has("--frozen") {
      guard let lockPath = parsed.value("--lock") else { throw UsageError("--frozen needs --lock FILE to read the rates from") }
      return .lockFile(lockPath)
    }
    if parsed.has("--no-cache"), parsed.value("--cache-dir") != nil {
      throw UsageError("--no-cache and --cache-dir exclude each other")
    }
    if names.count > 1 {
      return try chainChoice(name, parsed: parsed)
    }
    return try singleChoice(name, parsed: parsed, inChain: false)
  }

  /// One source by its name (alone, or a link of a chain, whose options ``chainChoice(_:parsed:)`` checked),
  /// made by its ``RateSourceDefinition``.
  private static func singleChoice(
    _ name: String, parsed: ParsedArguments, inChain: Bool, deadline: FetchDeadline? = nil
  ) throws(UsageError) -> SourceChoice {
    var sourceOptions = RateSourceOptions()
    let ratesPath = parsed.value("--rates")
    sourceOptions.ratesPath = ratesPath
    if let text = parsed.value("--endpoint") { sourceOptions.endpoint = try OptionValues.endpoint(text) }
    guard let definition = RateSourceRegistry.source(named: name) else {
      throw UsageError(
        "--source \(name): expected \(RateSourceRegistry.sentenceList(RateSourceRegistry.names))" + sourceSuggestion(name))
    }
    var settings = FetchSettings()
    if !definition.isNetworkSource {
      if !definition.readsRatesFile, ratesPath != nil, !inChain {
        throw UsageError("--rates needs --source \(RateSourceRegistry.ratesFileSource.sourceName) (or no --source)")
      }
      if definition.readsRatesFile, ratesPath == nil { throw UsageError("--source \(name) needs --rates FILE") }
      if let option = networkOptions(parsed).first, !inChain {
        throw UsageError("\(option) is for --source \(RateSourceRegistry.sentenceList(RateSourceRegistry.networkNames))")
      }
      sourceOptions.cacheDirectory = FXBatchCommand.cacheDirectory(parsed)
    } else {
      if ratesPath != nil, !inChain {
        throw UsageError("--rates is for --source \(RateSourceRegistry.ratesFileSource.sourceName), not \(name)")
      }
      settings = try fetchSettings(parsed, deadline: deadline)
      if let text = parsed.value("--date-policy") {
        guard name == CalculatorProvider.sourceName || inChain else {
          throw UsageError("--date-policy is for --source \(CalculatorProvider.sourceName)")
        }
        guard let policy = CalculatorProvider.DatePolicy(rawValue: text) else {
          throw UsageError("--date-policy \(text): expected strict or latest")
        }
        sourceOptions.datePolicy = policy
      }
      if let text = parsed.value("--providers") { sourceOptions.providers = try OptionValues.providers(text) }
    }
    sourceOptions.today = try? FXBatchCommand.today()
    let setup: RateSourceSetup
    do { setup = try definition.makeSource(sourceOptions) } catch {
      if case .needsToday = error { _ = try FXBatchCommand.today() }  // says why today is not known
      throw UsageError(error.description)
    }
    switch setup {
    case .table(let path, let cacheDirectory):
      return .table(path, cacheDirectory: cacheDirectory)
    case .provider(let provider):
      settings.offline = parsed.has("--offline")
      var cache: (path: String, explicit: Bool)? = nil
      if let directory = parsed.value("--cache-dir") {
        cache = (directory, true)
      } else if !parsed.has("--no-cache"),
        let directory = RateCache.defaultDirectory(environment: ProcessInfo.processInfo.environment)
      {
        cache = (directory, false)
      }
      return .provider(provider, settings, cache: cache)
    }
  }

  /// The fetch options (`--jobs`, `--timeout`, `--retries`, `--retry-delay`, `--deadline`, else the chain's
  /// `deadline`).
  private static func fetchSettings(_ parsed: ParsedArguments, deadline: FetchDeadline?) throws(UsageError) -> FetchSettings {
    var settings = FetchSettings()
    if let text = parsed.value("--jobs") {
      guard let jobs = Int(text), (1...256).contains(jobs) else { throw UsageError("--jobs \(text): expected 1 to 256") }
      settings.jobs = jobs
    }
    if let text = parsed.value("--timeout") {
      settings.timeout = try OptionValues.seconds(text, option: "--timeout", range: 0.001...3600)
    }
    if let text = parsed.value("--retries") {
      guard let retries = Int(text), (0...20).contains(retries) else { throw UsageError("--retries \(text): expected 0 to 20") }
      settings.retryPolicy.retries = retries
    }
    if let text = parsed.value("--retry-delay") {
      settings.retryPolicy.baseDelay = try OptionValues.seconds(text, option: "--retry-delay", range: 0...60)
    }
    if let deadline {
      settings.deadline = deadline
    } else {
      settings.deadline = try OptionValues.deadline(parsed.value("--deadline"))
    }
    return settings
  }
}
