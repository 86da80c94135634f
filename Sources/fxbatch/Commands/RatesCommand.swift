import FXBatch
import Foundation

/// `fxbatch rates show BASE QUOTE [--date D]`, `fxbatch rates update`, `fxbatch rates currencies [--source S]`
enum RatesCommand {
  /// The options of every `rates` subcommand, each tagged with the subcommands it is for: one parse serves them
  /// all (an option of another subcommand is refused by name), and each subcommand's help lists its own.
  static let options: [OptionSpec] = [
    OptionSpec(
      names: ["--date"], valueName: "YYYY-MM-DD", help: "The day (default: the newest rate day)", group: .essential,
      subcommands: ["show"]),
    OptionSpec(
      names: ["--from"], valueName: "YYYY-MM-DD", help: "The first day (or the period containing it)", group: .essential,
      subcommands: ["export"]),
    OptionSpec(
      names: ["--to"], valueName: "YYYY-MM-DD", help: "The last day (or the period containing it)", group: .essential,
      subcommands: ["export"]),
    OptionSpec(
      names: ["--base"], valueName: "CODE", help: "The base currency (default: the rates' pivot, EUR)", group: .essential,
      subcommands: ["export"]),
    OptionSpec(
      names: ["--quotes"], valueName: "A,B,…", help: "The quote currencies (default: every one published)",
      group: .essential, subcommands: ["export"]),
    OptionSpec(
      names: ["--source"], valueName: "NAME",
      help: OptionSpec.wrapped(
        RateSourceRegistry.helpList(RateSourceRegistry.sources.filter { $0.listsCurrencies })
          + ", or a list (embedded,frankfurter)"),
      group: .essential, completion: .words(RateSourceRegistry.listingNames), subcommands: ["show", "export", "currencies"]),
    OptionSpec(
      names: ["--rates"], valueName: "FILE", help: "Use a rates file instead of the embedded ECB history", group: .rates,
      subcommands: ["show", "export", "currencies"]),
    OptionSpec(
      names: ["--rate-kind"], valueName: "KIND", help: "spot (default), average or closing rate of the --period",
      group: .rates, completion: .words(RateRule.kindNames), subcommands: ["show", "export"]),
    OptionSpec(
      names: ["--period"], valueName: "PERIOD", help: "month (default), quarter or year (containing the day)",
      group: .rates, completion: .words(RatePeriod.allCases.map(\.rawValue)), subcommands: ["show", "export"]),
    OptionSpec(
      names: ["--max-staleness"], valueName: "DAYS", help: "Use rates at most DAYS older than the date (default 5)",
      group: .rates, subcommands: ["show"]),
    OptionSpec(
      names: ["--endpoint"], valueName: "URL",
      help:
        "update: the ECB files' directory (default the ECB's);\nshow, export, currencies: the root of the one service --source names",
      group: .fetching, subcommands: ["update", "show", "export", "currencies"]),
    OptionSpec(
      names: ["--timeout"], valueName: "SECONDS", help: "Wait this long for an answer (default 60)", group: .fetching,
      subcommands: ["update", "show", "export", "currencies"]),
    OptionSpec(
      names: ["--deadline"], valueName: "SECONDS", help: "Fetch for at most this long in all, retries included (default 120)",
      group: .fetching, subcommands: ["update", "show", "export", "currencies"]),
    OptionSpec(
      names: ["--cache-dir"], valueName: "DIR", help: "Rate cache directory (default $XDG_CACHE_HOME/fxbatch)",
      group: .fetching),
    OptionSpec(
      names: ["--no-cache"], valueName: nil, help: "Ignore the rate cache (use the embedded history)", group: .fetching,
      subcommands: ["show", "export", "currencies"]),
    OptionSpec(
      names: ["--format"], valueName: "FORMAT", help: "csv (default), jsonl, beancount (price) or ledger (P)",
      group: .output, completion: .words(RateExport.Format.allCases.map(\.rawValue)), subcommands: ["export"]),
    OptionSpec(
      names: ["-o", "--output"], valueName: "FILE", help: "Write to FILE (default: standard output)", group: .output,
      subcommands: ["export"]),
    OptionSpec(
      names: ["--append"], valueName: nil,
      help: "Add to -o FILE only the prices it lacks (a price of the same day\nand pair at another rate is an error)",
      group: .output, subcommands: ["export"]),
    OptionSpec(
      names: ["--date-at"], valueName: "end|start",
      help: "Date a period rate on the period's last publication day (end,\ndefault) or its first day (start, for --value=then)",
      group: .output, completion: .words(RateExport.DateAt.allCases.map(\.rawValue)), subcommands: ["export"]),
    OptionSpec(
      names: ["--no-commodities"], valueName: nil,
      help: "Leave out the commodity declarations of a beancount or ledger file", group: .output,
      subcommands: ["export"]),
    OptionSpec(names: ["-h", "--help"], valueName: nil, help: "Show this help"),
  ]

  /// The subcommands, each defined once: help, man page and completions come from here.
  static let specs: [CommandSpec] = [
    subcommand(
      "show", arguments: "BASE QUOTE [options]", summary: "Print a rate and the day it was published",
      description: """
        Prints how many units of QUOTE one unit of BASE is worth on a day, the day the rates were published
        (the latest publication on or before the date) and the published rates it is computed from; with
        --rate-kind average or closing, the average or closing rate of the period containing the date, as
        convert computes it. --source answers as convert does (--endpoint, --timeout).
        """,
      examples: [
        ("The newest dollar to euro rate", "fxbatch rates show USD EUR"),
        ("The pound in yen on a day", "fxbatch rates show GBP JPY --date 2020-03-16"),
        (
          "The average dollar rate of the first quarter of 2024",
          "fxbatch rates show USD EUR --date 2024-02-01 --rate-kind average --period quarter"
        ),
      ],
      argumentCompletion: .none),
    subcommand(
      "export", arguments: "--from YYYY-MM-DD --to YYYY-MM-DD [options]",
      summary: "Write daily, average or closing rates for ledgers (CSV, JSONL, Beancount, Ledger)",
      description: """
        Writes the rates of BASE against each quote currency on every publication day from --from to
        --to, or (--rate-kind average|closing) one rate per period, as CSV or JSON Lines (date, base, quote,
        rate, period, source), Beancount price directives or Ledger/hledger P directives. Rates are written as
        published, or (crosses, averages) to 10 significant digits, within 5e-10 of the exact value.
        --source takes convert's sources (--endpoint, --timeout); a service or a list exports period rates
        (--rate-kind average|closing) of the --quotes named. Beancount and Ledger files declare each
        currency first (commodity, with its ISO 4217 decimals for Ledger/hledger). A period rate is dated on
        the period's last publication day, when it is known (--date-at end), or on its first day (--date-at
        start), so that --value=then values each day of a period at that period's own average. --append adds
        to -o FILE only the prices it does not hold, in one atomic write.
        """,
      examples: [
        ("Daily USD and GBP rates of 2024 as CSV", "fxbatch rates export --from 2024-01-01 --to 2024-12-31 --quotes USD,GBP"),
        (
          "Monthly averages in dollars, as Beancount prices",
          "fxbatch rates export --from 2024-01-01 --to 2024-12-31 --base USD --rate-kind average --format beancount -o prices.beancount"
        ),
        (
          "Add this month's daily rates to a Ledger price file",
          "fxbatch rates export --from 2024-03-01 --to 2024-03-31 --format ledger -o prices.journal --append"
        ),
      ]),
    subcommand(
      "update", arguments: "[options]",
      summary: "Fetch the ECB history into the rate cache (newer than the embedded one)",
      description: """
        Fetches the ECB's full history (eurofxref-hist.xml) into the rate cache; later runs on the
        embedded source use it when it is newer than the embedded history, and say so.
        """,
      examples: [("Fetch the newest ECB history", "fxbatch rates update")]),
    subcommand(
      "currencies", arguments: "[options]", summary: "List the currencies a source covers, with first and last days",
      description: """
        Lists what a source covers, one currency a line: code, first and last day with a rate
        (- where the source does not publish them: frankfurter-v1), the source, and the name where the source
        gives one (frankfurter: GET /v2/currencies; embedded, file, ecb: the days each currency has a rate).
        A list of sources names each currency once, with the first source that covers it, as convert asks them.
        """,
      examples: [
        ("What the embedded ECB history covers", "fxbatch rates currencies"),
        ("What convert --source embedded,frankfurter would find", "fxbatch rates currencies --source embedded,frankfurter"),
      ]),
    CommandSpec(
      name: "rates lock", arguments: "FILE... -o LOCKFILE [options]",
      summary: "Read only the files' rate keys and write the lock convert --frozen reads",
      description: """
        Reads only the rate keys of the files (convert's pass 1), asks the source for them as convert would
        (with the same bounded concurrency), and writes the lock file that convert --lock FILE --frozen reads;
        converts nothing. Freeze first, then convert the parts of the data anywhere with the same rates. Takes
        convert's source, format and field options.
        """,
      options: ConvertCommand.options.filter {
        ![
          "--lock", "--frozen", "--output-dir", "--report", "--plan", "--no-header-output", "--max-errors",
          "--max-source-errors", "--fail-on",
        ].contains($0.names.last ?? "")
      },
      examples: [
        (
          "Freeze the rates of a dataset from Frankfurter, then convert a part with them",
          "fxbatch rates lock data/*.csv --source frankfurter -o rates.lock"
        )
      ],
      footer: ExitStatus.helpText + "\n  3: the lock is written without the keys the source failed.",
      argumentCompletion: .file),
  ]

  /// A `rates` subcommand's definition, with the options of ``options`` tagged for it.
  private static func subcommand(
    _ name: String, arguments: String, summary: String, description: String,
    examples: [(comment: String, command: String)], argumentCompletion: ValueCompletion = .none
  ) -> CommandSpec {
    CommandSpec(
      name: "rates \(name)", arguments: arguments, summary: summary, description: description,
      options: options.filter { $0.subcommands.isEmpty || $0.subcommands.contains(name) }, examples: examples,
      footer: ExitStatus.helpText + "\n  rates show and export: 1 is a pair without a rate; 3 the source failed for it.",
      argumentCompletion: argumentCompletion)
  }

  /// The subcommand names, in order.
  static var subcommandNames: [String] { specs.map { String($0.name.dropFirst("rates ".count)) } }

  static let usage = specs.map(\.usage).joined(separator: "\n       ")

  /// `fxbatch rates --help`: each subcommand's usage and summary.
  static var help: String {
    var lines = ["USAGE: \(usage)", "", "SUBCOMMANDS:"]
    for spec in specs {
      lines.append("  " + spec.name.padding(toLength: 18, withPad: " ", startingAt: 0) + spec.summary)
    }
    lines += ["", "See 'fxbatch rates SUBCOMMAND --help' for its options and examples."]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The help of the subcommand named first among `positionals`, else ``help``.
  static func help(for positionals: [String]) -> String {
    specs.first { $0.name == "rates \(positionals.first ?? "")" }?.help ?? help
  }

  static func run(_ arguments: ArraySlice<String>) -> Int32 {
    // `rates lock` reads inputs as convert does: convert's options.
    if arguments.first == "lock" { return ConvertCommand.lock(arguments.dropFirst()) }
    let fullUsage = "USAGE: \(usage)\nSee 'fxbatch rates --help'.\n"
    let parsed: ParsedArguments
    do { parsed = try ParsedArguments.parse(arguments, options: options) } catch {
      return FXBatchCommand.usageError(error, usage: fullUsage)
    }
    if parsed.has("--help") {
      Console.out(help(for: parsed.positionals))
      return ExitStatus.success.code
    }
    if parsed.has("--version") { return FXBatchCommand.printVersion() }
    if let subcommand = parsed.positionals.first, subcommandNames.contains(subcommand) {
      // An option of another subcommand is refused by name, never ignored.
      for option in options where !option.subcommands.isEmpty && !option.subcommands.contains(subcommand) {
        guard let key = option.names.last, parsed.value(key) != nil || parsed.has(key) else { continue }
        let names = option.subcommands
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        return FXBatchCommand.usageError(UsageError("\(key) is for rates \(list)"), usage: fullUsage)
      }
    }
    let base: CurrencyCode
    let quote: CurrencyCode
    var date: CalendarDay? = nil
    var maxStaleness = 5
    var rule = RateRule.spot
    var source: ConvertCommand.SourceChoice? = nil
    if parsed.positionals.first == "currencies" { return currencies(parsed, usage: fullUsage) }
    if parsed.positionals.first == "update" { return update(parsed, usage: fullUsage) }
    if parsed.positionals.first == "export" { return export(parsed, usage: fullUsage) }
    do throws(UsageError) {
      guard parsed.positionals.first == "show" else {
        throw UsageError(
          parsed.positionals.isEmpty
            ? "missing subcommand: show, export, update or currencies"
            : "no subcommand '\(parsed.positionals[0])'"
              + (Suggestion.closest(to: parsed.positionals[0], among: subcommandNames).map { "; did you mean '\($0)'?" }
                ?? ""))
      }
      guard parsed.positionals.count == 3 else { throw UsageError("rates show needs BASE and QUOTE, e.g. rates show USD EUR") }
      base = try OptionValues.currency(parsed.positionals[1], option: "BASE")
      quote = try OptionValues.currency(parsed.positionals[2], option: "QUOTE")
      if let text = parsed.value("--date") { date = try OptionValues.day(text, option: "--date") }
      if let text = parsed.value("--max-staleness") {
        maxStaleness = try OptionValues.nonNegativeInteger(text, option: "--max-staleness")
      }
      rule = try OptionValues.rateRule(kind: parsed.value("--rate-kind"), period: parsed.value("--period"))
      if parsed.value("--source") != nil { source = try sourceChoice(parsed, rule: rule) }
    } catch {
      return FXBatchCommand.usageError(error, usage: fullUsage)
    }
    let answer: Result<RateQuote, RowError>
    let day: CalendarDay
    if let source {
      // A source named: answered as convert answers a record of that day (the same resolver).
      guard let today = today(), let loaded = load(source, rule: rule, today: today) else {
        return ExitStatus.fileRefused.code
      }
      day = date ?? loaded.lastDay ?? today
      let key = RateKey(base: base, quote: quote, day: day)
      answer =
        loaded.answers(to: [key], rule: rule, maxStaleness: maxStaleness, today: today)[key]
        ?? .failure(RowError(.noRate, "no rate was looked up for \(key.pair)"))
    } else {
      guard let rates = loadRates(parsed) else { return ExitStatus.fileRefused.code }
      day = date ?? rates.lastDay ?? CalendarDay(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86_400))
      // Legacy currencies go through their fixed conversions, as in `convert`.
      answer = CurrencyLifecycle.route(for: RateKey(base: base, quote: quote, day: day)).flatMap { route in
        route.quote(from: rates.quote(for: route.marketKey, rule: rule, maxStaleness: maxStaleness))
      }
    }
    switch answer {
    case .success(let found):
      let published: String
      if let period = found.period {
        published = "period \(period)"
      } else if rule != .spot, let rateDay = found.rateDay {
        published = "rate date \(rateDay)"
      } else {
        published =
          found.rateDay.map { "rate date \($0)" + ($0 != day ? " (no publication on \(day))" : "") } ?? "undated rate"
      }
      Console.out("1 \(base) = \(found.rateText) \(quote)  \(published)  source \(found.source)\n")
      return ExitStatus.success.code
    case .failure(let error):
      Console.error("fxbatch: \(error)\n")
      return ExitStatus.of(error).code
    }
  }

  /// The source `--source` names (with `--rates`, `--endpoint`, `--timeout`, `--cache-dir`, `--no-cache` as
  /// convert reads them), checked against the rule as convert checks it.
  private static func sourceChoice(_ parsed: ParsedArguments, rule: RateRule) throws(UsageError) -> ConvertCommand.SourceChoice {
    let choice = try ConvertCommand.sourceChoice(parsed)
    try ConvertCommand.checkRateRule(rule, source: choice, parsed: parsed)
    return choice
  }

  /// Today (`FXBATCH_TODAY` when set); `nil` after printing why it cannot be read.
  private static func today() -> CalendarDay? {
    do { return try FXBatchCommand.today() } catch {
      Console.error("fxbatch: error: \(error)\n")
      return nil
    }
  }

  /// The loaded source; `nil` after printing why it cannot be loaded.
  private static func load(_ choice: ConvertCommand.SourceChoice, rule: RateRule, today: CalendarDay) -> RateSourceChoice? {
    var options = BatchOptions(today: today)
    options.rateRule = rule
    return ConvertCommand.load(choice, options: &options, quiet: true, planOnly: false)
  }

  /// The rates `--rates FILE` names, else the embedded history (or its newer copy in the cache); `nil` after
  /// printing why it cannot be read.
  private static func loadRates(_ parsed: ParsedArguments) -> RateTable? {
    let path = parsed.value("--rates")
    switch FXBatchCommand.loadRates(path: path, cacheDirectory: path == nil ? FXBatchCommand.cacheDirectory(parsed) : nil) {
    case .success(let table): return table
    case .failure(let error):
      Console.error("\(error)\n")
      return nil
    }
  }

  /// `rates export`: the rates of a span of days, daily or per period, in a price-list format.
  private static func export(_ parsed: ParsedArguments, usage: String) -> Int32 {
    var from = CalendarDay(daysSinceEpoch: 0)
    var to = from
    var base: CurrencyCode? = nil
    var quotes: [CurrencyCode] = []
    var format = RateExport.Format.csv
    var rule = RateRule.spot
    var dateAt = RateExport.DateAt.end
    var source: ConvertCommand.SourceChoice? = nil
    let append = parsed.has("--append")
    let commodities = !parsed.has("--no-commodities")
    do throws(UsageError) {
      guard parsed.positionals.count == 1 else { throw UsageError("rates export takes no arguments; give --from and --to") }
      guard let fromText = parsed.value("--from"), let toText = parsed.value("--to") else {
        throw UsageError("rates export needs --from YYYY-MM-DD and --to YYYY-MM-DD")
      }
      from = try OptionValues.day(fromText, option: "--from")
      to = try OptionValues.day(toText, option: "--to")
      guard from <= to else { throw UsageError("--from \(from) is after --to \(to)") }
      if let text = parsed.value("--base") { base = try OptionValues.currency(text, option: "--base") }
      if let text = parsed.value("--quotes") {
        for code in text.split(separator: ",", omittingEmptySubsequences: false) {
          let quote = try OptionValues.currency(String(code), option: "--quotes")
          // Each price once: a repeated quote would write every row twice into a ledger.
          if quotes.contains(quote) { throw UsageError("--quotes \(text): \(quote) is named twice") }
          quotes.append(quote)
        }
      }
      if let text = parsed.value("--format") {
        guard let found = RateExport.Format(rawValue: text) else {
          throw UsageError(
            "--format \(text): expected one of \(RateExport.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        format = found
      }
      rule = try OptionValues.rateRule(kind: parsed.value("--rate-kind"), period: parsed.value("--period"))
      if let text = parsed.value("--date-at") {
        guard let found = RateExport.DateAt(rawValue: text) else {
          throw UsageError("--date-at \(text): expected end or start")
        }
        guard rule.period != nil else {
          throw UsageError(
            "--date-at is for period rates (--rate-kind average|closing); a daily rate is dated on its publication day")
        }
        dateAt = found
      }
      if !commodities, format != .beancount, format != .ledger {
        throw UsageError("--no-commodities is for --format beancount and ledger; \(format.rawValue) declares none")
      }
      if parsed.value("--output") == "" { throw UsageError("-o needs a non-empty path") }
      if append, (parsed.value("--output") ?? "-") == "-" {
        throw UsageError("--append needs -o FILE, the file to add the prices to")
      }
      if parsed.value("--source") != nil {
        let choice = try sourceChoice(parsed, rule: rule)
        if case .table = choice {
        } else if case .provider(let provider, _, _) = choice, provider is any TableRateProvider, rule == .spot {
          source = choice  // the feed's daily rates, from the file fetched for the span
        } else {
          // A service answers rates of keys: the periods of the currencies named, not every day it published.
          guard rule.period != nil, !quotes.isEmpty else {
            throw UsageError(
              "rates export --source \(parsed.value("--source") ?? "") gives period rates (--rate-kind average|closing) of the --quotes named; daily rates are exported from the embedded history or --rates FILE"
            )
          }
          source = choice
        }
      }
    } catch {
      return FXBatchCommand.usageError(error, usage: usage)
    }
    let exported: RateExport
    let description: String
    var fetched: RateTable? = nil
    if let source, rule == .spot {
      guard let today = today(), let loaded = load(source, rule: rule, today: today) else {
        return ExitStatus.fileRefused.code
      }
      switch loaded.fetchedTable(from: from, to: to, today: today) {
      case .success(let table): fetched = table
      case .failure(let error):
        Console.error("fxbatch: \(loaded.info.publisher): \(error)\n")
        return ExitStatus.of(error).code
      case nil:
        Console.error("fxbatch: error: \(loaded.info.publisher) gave no table of daily rates to export\n")
        return ExitStatus.fileRefused.code
      }
    }
    if let source, let period = rule.period {
      guard let today = today(), let loaded = load(source, rule: rule, today: today) else {
        return ExitStatus.fileRefused.code
      }
      let exportBase = base ?? .euro
      if quotes.contains(exportBase) {
        return FXBatchCommand.usageError(
          UsageError(
            "--quotes \(parsed.value("--quotes") ?? ""): \(exportBase) is the base; its rate to itself is 1, not exported"),
          usage: usage)
      }
      exported = RateExport(
        source: loaded, base: exportBase, quotes: quotes, from: from, to: to, period: period, rule: rule, today: today,
        dateAt: dateAt)
      description = loaded.info.description
    } else {
      guard let rates = fetched ?? loadRates(parsed) else { return ExitStatus.fileRefused.code }
      if quotes.contains(base ?? rates.pivot) {
        let reason = "\(base ?? rates.pivot) is the base\(base == nil ? " (the rates' pivot; --base for another)" : "")"
        return FXBatchCommand.usageError(
          UsageError("--quotes \(parsed.value("--quotes") ?? ""): \(reason); its rate to itself is 1, not exported"),
          usage: usage)
      }
      exported = RateExport(
        table: rates, base: base ?? rates.pivot, quotes: quotes, from: from, to: to, rule: rule, dateAt: dateAt)
      description = rates.info.description
    }
    let kind = rule.periodDescription.map { ", \($0) rates" } ?? ", daily reference rates"
    let dated = rule.period != nil && dateAt == .start ? ", dated on each period's first day" : ""
    let heading = "fxbatch rates export: \(description)\(kind)\(dated), \(from) .. \(to)"
    if append, let path = parsed.value("--output") {
      let appendix: RateExport.Appendix
      do {
        appendix = try exported.appendix(toFileAt: path, format: format, heading: heading, commodities: commodities)
      } catch {
        Console.error("\(error)\n")
        return ExitStatus.fileRefused.code
      }
      if !appendix.text.isEmpty {
        do {
          // The file's bytes and the new prices, renamed over the file at once.
          let file = try AtomicFile(path: path)
          try file.sink.write(appendix.existing)
          try file.sink.write(appendix.text)
          try file.commit()
        } catch {
          Console.error("\(path):1:1: error: cannot write the rates: \(error)\n")
          return ExitStatus.fileRefused.code
        }
      }
      func prices(_ count: Int) -> String { count == 1 ? "1 price" : "\(count) prices" }
      Console.error("fxbatch: \(path): \(prices(appendix.added)) added, \(prices(appendix.present)) already there\n")
    } else if let path = parsed.value("--output"), path != "-" {
      let text = exported.text(format, heading: heading, commodities: commodities)
      do {
        let file = try AtomicFile(path: path)
        try file.sink.write(text)
        try file.commit()
      } catch {
        Console.error("\(path):1:1: error: cannot write the rates: \(error)\n")
        return ExitStatus.fileRefused.code
      }
    } else {
      let text = exported.text(format, heading: heading, commodities: commodities)
      Console.out(text)
    }
    for (what, error) in exported.skipped { Console.error("fxbatch: \(what) not exported: \(error)\n") }
    return exported.skipped.map { ExitStatus.of($0.error) }.reduce(ExitStatus.success, ExitStatus.worst).code
  }

  /// `rates update`: fetch, validate and keep the ECB history.
  private static func update(_ parsed: ParsedArguments, usage: String) -> Int32 {
    guard parsed.positionals.count == 1 else {
      return FXBatchCommand.usageError(UsageError("rates update takes no arguments"), usage: usage)
    }
    guard let directory = FXBatchCommand.cacheDirectory(parsed) else {
      return FXBatchCommand.usageError(
        UsageError("rates update needs a cache: --cache-dir DIR (no HOME or XDG_CACHE_HOME is set)"), usage: usage)
    }
    let endpoint: URL
    let timeout: Double
    let deadline: FetchDeadline
    do throws(UsageError) {
      endpoint =
        try parsed.value("--endpoint").map { text throws(UsageError) in try OptionValues.endpoint(text) }
        ?? ECBFeedProvider.defaultEndpoint
      timeout =
        try parsed.value("--timeout").map { text throws(UsageError) in
          try OptionValues.seconds(text, option: "--timeout", range: 0.001...3600)
        } ?? 60
      deadline = try OptionValues.deadline(parsed.value("--deadline"))
    } catch {
      return FXBatchCommand.usageError(error, usage: usage)
    }
    switch ECBHistoryUpdate.run(
      endpoint: endpoint, cacheDirectory: directory, timeout: timeout, deadline: deadline,
      today: try? FXBatchCommand.today())
    {
    case .success(let outcome):
      Console.out(outcome.summary + "\n")
    case .failure(let failure):
      Console.error(failure.description + "\n")
      switch failure {
      case .unreachable, .badAnswer: return ExitStatus.sourceFailed.code
      case .unusable: return ExitStatus.fileRefused.code
      }
    }
    return ExitStatus.success.code
  }
}
