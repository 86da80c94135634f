import FXBatch
import Foundation

/// `fxbatch convert [options] FILE...`
enum ConvertCommand {
  static let options: [OptionSpec] = [
    OptionSpec(
      names: ["-o", "--output"], valueName: "FILE", help: "Write the annotated copy to FILE (one input only; - for stdout)"),
    OptionSpec(names: ["--output-dir"], valueName: "DIR", help: "Write X.converted.csv into DIR instead of beside X.csv"),
    OptionSpec(
      names: ["--rates"], valueName: "FILE",
      help: "Use your rates: an ECB XML feed, an ECB history CSV,\nor a CSV with date,base,quote,rate (date optional)"),
    OptionSpec(names: ["--from"], valueName: "CODE", help: "The from-currency of every record (no from field needed)"),
    OptionSpec(names: ["--to"], valueName: "CODE", help: "The to-currency of every record (no to field needed)"),
    OptionSpec(names: ["--amount-field"], valueName: "NAME", help: "Header name of the amount (default: amount, value, …)"),
    OptionSpec(
      names: ["--from-field"], valueName: "NAME", help: "Header name of the from-currency (default: from, currency, ccy, …)"),
    OptionSpec(
      names: ["--to-field"], valueName: "NAME", help: "Header name of the to-currency (default: to, target_currency, …)"),
    OptionSpec(names: ["--date-field"], valueName: "NAME", help: "Header name of the value date (default: date, value_date, …)"),
    OptionSpec(names: ["--date"], valueName: "YYYY-MM-DD", help: "Date of records without one (default: newest rate day)"),
    OptionSpec(
      names: ["--date-format"], valueName: "iso|dmy|mdy",
      help: "How slash dates are written: dmy 31/12/2024, mdy 12/31/2024\n(default iso: YYYY-MM-DD and other unambiguous layouts)"
    ),
    OptionSpec(
      names: ["--max-staleness"], valueName: "DAYS", help: "Use rates at most DAYS older than a record's date (default 5)"),
    OptionSpec(names: ["--rounding"], valueName: "MODE", help: "half-up (default, EU Reg. 1103/97), half-even, down, up"),
    OptionSpec(names: ["--delimiter"], valueName: "D", help: ", or ; or tab (default: detected from the header line)"),
    OptionSpec(names: ["--decimal-separator"], valueName: ". | ,", help: "Decimal mark of amounts (default: inferred per file)"),
    OptionSpec(names: ["--report"], valueName: "FILE", help: "Also write the run summary as JSON to FILE"),
    OptionSpec(names: ["-q", "--quiet"], valueName: nil, help: "Print no summary (errors are still printed)"),
    OptionSpec(names: ["-h", "--help"], valueName: nil, help: "Show this help"),
  ]

  static let usage = "fxbatch convert [options] FILE...   (FILE - reads standard input)"

  static let help = helpText(
    usage: usage,
    summary: """
      Converts each record's amount into the to-currency at the reference rate of the record's date, rounded once
      to the currency's ISO 4217 minor units, and writes a copy of each file with these fields appended:
      fx_rate, fx_converted, fx_currency, fx_rate_date, fx_source, fx_status (ok|fallback|error), fx_error.
      Rates: the embedded ECB euro reference rates 1999-01-04 .. 2026-10-30, unless --rates is given.
      """,
    options: options,
    footer: """
      EXIT STATUS: 0 all records converted (fallback included), 1 some records failed,
                   2 a file could not be read or parsed (nothing written for it), 64 usage error.
      """)

  static func run(_ arguments: ArraySlice<String>) -> Int32 {
    let options: BatchOptions
    let reportPath: String?
    let quiet: Bool
    do {
      let parsed = try ParsedArguments.parse(arguments, options: Self.options)
      if parsed.has("--help") {
        Console.out(help)
        return ExitStatus.success
      }
      options = try batchOptions(parsed)
      reportPath = parsed.value("--report")
      quiet = parsed.has("--quiet")
    } catch {
      return FXBatchCommand.usageError(error, usage: "USAGE: \(usage)\nSee 'fxbatch convert --help'.\n")
    }
    let rates: RateTable
    switch FXBatchCommand.loadRates(path: options.ratesPath) {
    case .success(let table): rates = table
    case .failure(let error):
      Console.error("\(error)\n")
      return ExitStatus.fileError
    }
    let report = BatchJob(options: options, rates: rates).run()
    if !quiet {
      Console.error(RunSummary.text(of: report))
    } else {
      for file in report.files { if let fileError = file.fileError { Console.error(fileError + "\n") } }
    }
    if let reportPath {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      do {
        try encoder.encode(report).write(to: URL(fileURLWithPath: reportPath), options: .atomic)
      } catch {
        Console.error("\(reportPath):1:1: error: cannot write the report: \(error.localizedDescription)\n")
        return ExitStatus.fileError
      }
    }
    return report.exitStatus
  }

  private static func batchOptions(_ parsed: ParsedArguments) throws(UsageError) -> BatchOptions {
    var options = BatchOptions(today: try FXBatchCommand.today())
    options.inputPaths = parsed.positionals
    guard !options.inputPaths.isEmpty else { throw UsageError("no input files") }
    if options.inputPaths.filter({ $0 == "-" }).count > 1 { throw UsageError("standard input (-) can be read only once") }
    if let output = parsed.value("--output") {
      guard options.inputPaths.count == 1 else { throw UsageError("-o takes one input file; use --output-dir for several") }
      guard parsed.value("--output-dir") == nil else { throw UsageError("-o and --output-dir exclude each other") }
      options.destination = output == "-" ? .standardOutput : .file(output)
    } else if let directory = parsed.value("--output-dir") {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw UsageError("--output-dir \(directory): no such directory")
      }
      options.destination = .directory(directory)
    }
    options.ratesPath = parsed.value("--rates")
    if let text = parsed.value("--from") { options.fixedFrom = try OptionValues.currency(text, option: "--from") }
    if let text = parsed.value("--to") { options.fixedTo = try OptionValues.currency(text, option: "--to") }
    options.fieldNames = FieldNames(
      amount: parsed.value("--amount-field"), from: parsed.value("--from-field"), to: parsed.value("--to-field"),
      date: parsed.value("--date-field"))
    if let text = parsed.value("--date") { options.defaultDate = try OptionValues.day(text, option: "--date") }
    if let text = parsed.value("--date-format") { options.dateFormat = try OptionValues.dateFormat(text) }
    if let text = parsed.value("--max-staleness") {
      options.maxStaleness = try OptionValues.nonNegativeInteger(text, option: "--max-staleness")
    }
    if let text = parsed.value("--rounding") { options.rounding = try OptionValues.rounding(text) }
    if let text = parsed.value("--delimiter") { options.delimiter = try OptionValues.delimiter(text) }
    if let text = parsed.value("--decimal-separator") { options.decimalMark = try OptionValues.decimalMark(text) }
    return options
  }
}
