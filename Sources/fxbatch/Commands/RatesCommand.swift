import FXBatch
import Foundation

/// `fxbatch rates show BASE QUOTE [--date D]`, `fxbatch rates update`, `fxbatch rates currencies [--source S]`
enum RatesCommand {
  static let options: [OptionSpec] = [
    OptionSpec(names: ["--date"], valueName: "YYYY-MM-DD", help: "The day (default: the newest rate day)"),
    OptionSpec(names: ["--rates"], valueName: "FILE", help: "Use a rates file instead of the embedded ECB history"),
    OptionSpec(names: ["--max-staleness"], valueName: "DAYS", help: "Use rates at most DAYS older than the date (default 5)"),
    OptionSpec(
      names: ["--rate-kind"], valueName: "KIND", help: "show, export: spot (default), average or closing rate of the --period"),
    OptionSpec(
      names: ["--period"], valueName: "PERIOD", help: "show, export: month (default), quarter or year (containing --date)"),
    OptionSpec(names: ["--from"], valueName: "YYYY-MM-DD", help: "export: the first day (or the period containing it)"),
    OptionSpec(names: ["--to"], valueName: "YYYY-MM-DD", help: "export: the last day (or the period containing it)"),
    OptionSpec(names: ["--base"], valueName: "CODE", help: "export: the base currency (default: the rates' pivot, EUR)"),
    OptionSpec(
      names: ["--quotes"], valueName: "A,B,…", help: "export: the quote currencies (default: every one published)"),
    OptionSpec(
      names: ["--format"], valueName: "FORMAT", help: "export: csv (default), jsonl, beancount (price) or ledger (P)"),
    OptionSpec(names: ["-o", "--output"], valueName: "FILE", help: "export: write to FILE (default: standard output)"),
    OptionSpec(names: ["--cache-dir"], valueName: "DIR", help: "Rate cache directory (default $XDG_CACHE_HOME/fxbatch)"),
    OptionSpec(names: ["--no-cache"], valueName: nil, help: "Ignore the rate cache (show: use the embedded history)"),
    OptionSpec(
      names: ["--source"], valueName: "NAME",
      help:
        "currencies: embedded (default), file (with --rates), ecb,\nfrankfurter, frankfurter-v1, or a list (embedded,frankfurter)"
    ),
    OptionSpec(
      names: ["--endpoint"], valueName: "URL",
      help: "update: the ECB files' directory (default the ECB's);\ncurrencies: the root of the one service --source names"),
    OptionSpec(
      names: ["--timeout"], valueName: "SECONDS", help: "update, currencies: wait this long for an answer (default 60)"),
    OptionSpec(names: ["-h", "--help"], valueName: nil, help: "Show this help"),
  ]

  static let usage = """
    fxbatch rates show BASE QUOTE [--date YYYY-MM-DD] [--rates FILE]
                             [--rate-kind spot|average|closing] [--period month|quarter|year]
           fxbatch rates export --from YYYY-MM-DD --to YYYY-MM-DD [--base CODE] [--quotes A,B,…]
                                [--rate-kind …] [--period …] [--format csv|jsonl|beancount|ledger] [-o FILE]
           fxbatch rates update [--endpoint URL] [--cache-dir DIR]
           fxbatch rates currencies [--source NAME[,NAME...]] [--endpoint URL]
           fxbatch rates lock FILE... -o LOCKFILE [convert's source, format and field options]
    """

  static let help = helpText(
    usage: usage,
    summary: """
      show: prints how many units of QUOTE one unit of BASE is worth on a day, the day the rates were published
      (the latest publication on or before the date) and the published rates it is computed from; with
      --rate-kind average or closing, the average or closing rate of the period containing the date, as
      convert computes it.
      export: writes the rates of BASE against each quote currency on every publication day from --from to
      --to, or (--rate-kind average|closing) one rate per period, as CSV or JSON Lines (date, base, quote,
      rate, period, source), Beancount price directives or Ledger/hledger P directives. Rates are written as
      published, or (crosses, averages) to 10 significant digits, within 5e-10 of the exact value.
      update: fetches the ECB's full history (eurofxref-hist.xml) into the rate cache; later runs on the
      embedded source use it when it is newer than the embedded history, and say so.
      currencies: lists what a source covers, one currency a line: code, first and last day with a rate
      (- where the source does not publish them: frankfurter-v1), the source, and the name where the source
      gives one (frankfurter: GET /v2/currencies; embedded, file, ecb: the days each currency has a rate).
      A list of sources names each currency once, with the first source that covers it, as convert asks them.
      lock: reads only the rate keys of the files (convert's pass 1), asks the source for them as convert would,
      and writes the lock file convert --lock FILE --frozen reads; converts nothing (freeze first, then convert
      the parts of the data anywhere with the same rates).
      """,
    options: options)

  static func run(_ arguments: ArraySlice<String>) -> Int32 {
    // `rates lock` reads inputs as convert does: convert's options.
    if arguments.first == "lock" { return ConvertCommand.lock(arguments.dropFirst()) }
    let fullUsage = "USAGE: \(usage)\nSee 'fxbatch rates --help'.\n"
    let parsed: ParsedArguments
    do { parsed = try ParsedArguments.parse(arguments, options: options) } catch {
      return FXBatchCommand.usageError(error, usage: fullUsage)
    }
    if parsed.has("--help") {
      Console.out(help)
      return ExitStatus.success
    }
    let base: CurrencyCode
    let quote: CurrencyCode
    var date: CalendarDay? = nil
    var maxStaleness = 5
    var rule = RateRule.spot
    if parsed.positionals.first == "currencies" { return currencies(parsed, usage: fullUsage) }
    if parsed.value("--source") != nil {
      return FXBatchCommand.usageError(UsageError("--source is for rates currencies"), usage: fullUsage)
    }
    if parsed.positionals.first == "update" { return update(parsed, usage: fullUsage) }
    if parsed.positionals.first == "export" { return export(parsed, usage: fullUsage) }
    do throws(UsageError) {
      guard parsed.positionals.first == "show" else {
        throw UsageError(
          parsed.positionals.isEmpty
            ? "missing subcommand: show, export, update or currencies" : "no subcommand '\(parsed.positionals[0])'")
      }
      guard parsed.positionals.count == 3 else { throw UsageError("rates show needs BASE and QUOTE, e.g. rates show USD EUR") }
      for option in ["--from", "--to", "--base", "--quotes", "--format", "--output"] where parsed.value(option) != nil {
        throw UsageError("\(option) is for rates export")
      }
      base = try OptionValues.currency(parsed.positionals[1], option: "BASE")
      quote = try OptionValues.currency(parsed.positionals[2], option: "QUOTE")
      if let text = parsed.value("--date") { date = try OptionValues.day(text, option: "--date") }
      if let text = parsed.value("--max-staleness") {
        maxStaleness = try OptionValues.nonNegativeInteger(text, option: "--max-staleness")
      }
      rule = try OptionValues.rateRule(kind: parsed.value("--rate-kind"), period: parsed.value("--period"))
    } catch {
      return FXBatchCommand.usageError(error, usage: fullUsage)
    }
    guard let rates = loadRates(parsed) else { return ExitStatus.fileError }
    let day = date ?? rates.lastDay ?? CalendarDay(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86_400))
    // Legacy currencies go through their fixed conversions, as in `convert`.
    let answer = CurrencyLifecycle.route(for: RateKey(base: base, quote: quote, day: day)).flatMap { route in
      route.quote(from: rates.quote(for: route.marketKey, rule: rule, maxStaleness: maxStaleness))
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
      return ExitStatus.success
    case .failure(let error):
      Console.error("fxbatch: \(error)\n")
      return ExitStatus.rowErrors
    }
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
      if parsed.value("--output") == "" { throw UsageError("-o needs a non-empty path") }
    } catch {
      return FXBatchCommand.usageError(error, usage: usage)
    }
    guard let rates = loadRates(parsed) else { return ExitStatus.fileError }
    if quotes.contains(base ?? rates.pivot) {
      let reason = "\(base ?? rates.pivot) is the base\(base == nil ? " (the rates' pivot; --base for another)" : "")"
      return FXBatchCommand.usageError(
        UsageError("--quotes \(parsed.value("--quotes") ?? ""): \(reason); its rate to itself is 1, not exported"),
        usage: usage)
    }
    let exported = RateExport(
      table: rates, base: base ?? rates.pivot, quotes: quotes, from: from, to: to, rule: rule)
    let kind = rule.periodDescription.map { ", \($0) rates" } ?? ", daily reference rates"
    let text = exported.text(format, heading: "fxbatch rates export: \(rates.info.description)\(kind), \(from) .. \(to)")
    if let path = parsed.value("--output"), path != "-" {
      do {
        let file = try AtomicFile(path: path)
        try file.sink.write(text)
        try file.commit()
      } catch {
        Console.error("\(path):1:1: error: cannot write the rates: \(error)\n")
        return ExitStatus.fileError
      }
    } else {
      Console.out(text)
    }
    for (what, error) in exported.skipped { Console.error("fxbatch: \(what) not exported: \(error)\n") }
    return exported.skipped.isEmpty ? ExitStatus.success : ExitStatus.rowErrors
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
    do throws(UsageError) {
      endpoint =
        try parsed.value("--endpoint").map { text throws(UsageError) in try OptionValues.endpoint(text) }
        ?? ECBFeedProvider.defaultEndpoint
      timeout =
        try parsed.value("--timeout").map { text throws(UsageError) in
          try OptionValues.seconds(text, option: "--timeout", range: 0.001...3600)
        } ?? 60
    } catch {
      return FXBatchCommand.usageError(error, usage: usage)
    }
    let cache: RateCache
    do { cache = try RateCache(directory: directory) } catch {
      Console.error("\(error)\n")
      return ExitStatus.fileError
    }
    let url = endpoint.appendingPathComponent("eurofxref-hist.xml")
    let fetcher = RateFetcher(
      transport: CurlTransport(maximumConnections: 1, timeout: timeout), jobs: 1, timeout: timeout,
      retryPolicy: RetryPolicy())
    let response: HTTPResponse
    switch fetcher.fetch([url]).results[0] {
    case .success(let answer): response = answer
    case .failure(let error):
      Console.error("fxbatch: \(url.absoluteString): \(error.rowError)\n")
      return ExitStatus.rowErrors
    }
    let info = RateSourceInfo(identifier: "ecb", publisher: "ECB", description: url.absoluteString)
    let table: RateTable
    do {
      table = try [UInt8](response.body).withUnsafeBufferPointer { buffer throws(RatesFileError) in
        try ECBXMLFeed.parse(buffer, path: url.absoluteString, info: info)
      }
    } catch {
      Console.error("\(error)\n")
      return ExitStatus.fileError
    }
    guard let csv = ECBHistoryCSV.render(table), let first = table.firstDay, let last = table.lastDay else {
      Console.error("fxbatch: \(url.absoluteString): not a history of euro reference rates\n")
      return ExitStatus.fileError
    }
    if let problem = EmbeddedECBHistory.disagreement(with: table, today: (try? FXBatchCommand.today()) ?? last) {
      Console.error("fxbatch: \(url.absoluteString): \(problem); nothing was kept\n")
      return ExitStatus.fileError
    }
    do { try cache.storeHistory(csv: csv, lastDay: last, source: EmbeddedECBHistory.cacheSource) } catch {
      Console.error("\(error)\n")
      return ExitStatus.fileError
    }
    let embeddedLast = EmbeddedECBHistory.table.lastDay.map(String.init(describing:)) ?? "?"
    let verdict = last > (EmbeddedECBHistory.table.lastDay ?? last) ? "newer than" : "not newer than"
    Console.out(
      "fetched \(table.days.count) days, \(first) .. \(last), into \(cache.path); \(verdict) the embedded history (ends \(embeddedLast))\n"
    )
    return ExitStatus.success
  }
}
