import FXBatch
import Foundation

/// `fxbatch rates show BASE QUOTE [--date D]`
enum RatesCommand {
  static let options: [OptionSpec] = [
    OptionSpec(names: ["--date"], valueName: "YYYY-MM-DD", help: "The day (default: the newest rate day)"),
    OptionSpec(names: ["--rates"], valueName: "FILE", help: "Use a rates file instead of the embedded ECB history"),
    OptionSpec(names: ["--max-staleness"], valueName: "DAYS", help: "Use rates at most DAYS older than the date (default 5)"),
    OptionSpec(names: ["-h", "--help"], valueName: nil, help: "Show this help"),
  ]

  static let usage = "fxbatch rates show BASE QUOTE [--date YYYY-MM-DD] [--rates FILE]"

  static let help = helpText(
    usage: usage,
    summary: """
      Prints how many units of QUOTE one unit of BASE is worth on a day, the day the rates were published
      (the latest publication on or before the date) and the published rates it is computed from.
      """,
    options: options)

  static func run(_ arguments: ArraySlice<String>) -> Int32 {
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
    do throws(UsageError) {
      guard parsed.positionals.first == "show" else {
        throw UsageError(parsed.positionals.isEmpty ? "missing subcommand 'show'" : "no subcommand '\(parsed.positionals[0])'")
      }
      guard parsed.positionals.count == 3 else { throw UsageError("rates show needs BASE and QUOTE, e.g. rates show USD EUR") }
      base = try OptionValues.currency(parsed.positionals[1], option: "BASE")
      quote = try OptionValues.currency(parsed.positionals[2], option: "QUOTE")
      if let text = parsed.value("--date") { date = try OptionValues.day(text, option: "--date") }
      if let text = parsed.value("--max-staleness") {
        maxStaleness = try OptionValues.nonNegativeInteger(text, option: "--max-staleness")
      }
    } catch {
      return FXBatchCommand.usageError(error, usage: fullUsage)
    }
    let rates: RateTable
    switch FXBatchCommand.loadRates(path: parsed.value("--rates")) {
    case .success(let table): rates = table
    case .failure(let error):
      Console.error("\(error)\n")
      return ExitStatus.fileError
    }
    let day = date ?? rates.lastDay ?? CalendarDay(daysSinceEpoch: Int(Date().timeIntervalSince1970 / 86_400))
    switch rates.quote(for: RateKey(base: base, quote: quote, day: day), maxStaleness: maxStaleness) {
    case .success(let found):
      let published =
        found.rateDay.map { "rate date \($0)" + (found.isFallback ? " (no publication on \(day))" : "") } ?? "undated rate"
      Console.out("1 \(base) = \(found.rateText) \(quote)  \(published)  source \(found.source)\n")
      return ExitStatus.success
    case .failure(let error):
      Console.error("fxbatch: \(error)\n")
      return ExitStatus.rowErrors
    }
  }
}
