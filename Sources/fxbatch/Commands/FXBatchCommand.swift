import FXBatch
import Foundation

/// `fxbatch`: dispatches to the subcommands.
enum FXBatchCommand {
  static let version = "0.1.0"

  /// What the tool does, for the top-level help and the man page.
  static let description = """
    Converts money in files: every record's amount from its currency into another, exactly, at ECB euro
    reference rates (embedded, no network needed) or your own rates, written as an annotated copy.
    """

  /// Every command, in the order help lists them: the one source of help, man page and completions.
  static var commands: [CommandSpec] {
    [ConvertCommand.spec] + RatesCommand.specs + [ReportCommand.spec, CompletionsCommand.spec]
  }

  /// The options of `fxbatch` itself, before any command.
  static let options: [OptionSpec] = [
    OptionSpec(
      names: ["-h", "--help"], valueName: nil, help: "Show help (also: fxbatch help <command>, fxbatch <command> --help)"),
    OptionSpec(names: ["--version"], valueName: nil, help: "Show the version"),
  ]

  /// The words that may follow `fxbatch` (hidden `man-page` aside).
  static let commandNames = ["convert", "rates", "report", "completions", "help"]

  static var usage: String {
    var lines = ["USAGE: fxbatch <command> [options]", "", description, "", "COMMANDS:"]
    for command in commands {
      lines.append("  " + command.name.padding(toLength: 18, withPad: " ", startingAt: 0) + command.summary)
    }
    lines += ["", "OPTIONS:"]
    for option in options {
      lines.append("  " + option.label.padding(toLength: 18, withPad: " ", startingAt: 0) + option.help)
    }
    lines += [
      "", "See 'fxbatch convert --help' for conversion options and examples, 'man fxbatch' for everything.", "",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// Runs the tool with the arguments after the program name; returns the exit status.
  static func run(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
      return usageError(UsageError("missing command"), usage: usage)
    }
    let rest = arguments.dropFirst()
    switch command {
    case "-h", "--help":
      Console.out(usage)
      return ExitStatus.success.code
    case "help":
      switch rest.first {
      case nil: Console.out(usage)
      case "convert": Console.out(ConvertCommand.help)
      case "rates": Console.out(RatesCommand.help(for: Array(rest.dropFirst())))
      case "completions": Console.out(CompletionsCommand.spec.help)
      case "report": Console.out(ReportCommand.spec.help)
      case let other?:
        return usageError(unknownCommand(other), usage: usage)
      }
      return ExitStatus.success.code
    case "--version":
      return printVersion()
    case "convert":
      return ConvertCommand.run(rest)
    case "rates":
      return RatesCommand.run(rest)
    case "report":
      return ReportCommand.run(rest)
    case "completions":
      return CompletionsCommand.run(rest)
    case "man-page":
      // Hidden: writes docs/man/fxbatch.1 (`swift run fxbatch man-page > docs/man/fxbatch.1`).
      Console.out(ManPage.text)
      return ExitStatus.success.code
    default:
      return usageError(unknownCommand(command), usage: usage)
    }
  }

  /// Prints `fxbatch VERSION` (`--version`, before or after a command); returns 0.
  static func printVersion() -> Int32 {
    Console.out("fxbatch \(version)\n")
    return ExitStatus.success.code
  }

  /// "no command 'conver'; did you mean 'convert'?" (options too: `--verison`).
  static func unknownCommand(_ name: String) -> UsageError {
    let candidates = name.hasPrefix("-") ? options.flatMap(\.names) : commandNames
    return UsageError(
      "no command '\(name)'" + (Suggestion.closest(to: name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""))
  }

  /// Prints a usage error (one line, then the usage) and returns 64.
  static func usageError(_ error: UsageError, usage: String) -> Int32 {
    Console.error("fxbatch: error: \(error.description)\n\n\(usage)")
    return ExitStatus.usage.code
  }

  /// Today in UTC, or `FXBATCH_TODAY` (YYYY-MM-DD) for reproducible reports.
  static func today() throws(UsageError) -> CalendarDay {
    if let text = ProcessInfo.processInfo.environment["FXBATCH_TODAY"] {
      return try OptionValues.day(text, option: "FXBATCH_TODAY")
    }
    return CalendarDay(daysSinceEpoch: Int((Date().timeIntervalSince1970 / 86_400).rounded(.down)))
  }

  /// The rate table: `--rates FILE`, or the embedded ECB history (or the newer one `rates update` kept in the
  /// cache at `cacheDirectory`).
  static func loadRates(path: String?, cacheDirectory: String?) -> Result<RateTable, RatesFileError> {
    do { return .success(try RateSourceSetup.loadTable(path: path, cacheDirectory: cacheDirectory)) } catch {
      return .failure(error)
    }
  }

  /// The cache directory an option set names: `--cache-dir`, none with `--no-cache`, else the default.
  static func cacheDirectory(_ parsed: ParsedArguments) -> String? {
    if parsed.has("--no-cache") { return nil }
    return parsed.value("--cache-dir") ?? RateCache.defaultDirectory(environment: ProcessInfo.processInfo.environment)
  }
}
