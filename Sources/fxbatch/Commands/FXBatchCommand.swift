import FXBatch
import Foundation

/// `fxbatch`: dispatches to the subcommands.
enum FXBatchCommand {
  static let version = "0.1.0"

  static let usage = """
    USAGE: fxbatch <command> [options]

    Converts money in files: every record's amount from its currency into another, exactly, at ECB euro
    reference rates (embedded, no network needed) or your own rates, written as an annotated copy.

    COMMANDS:
      convert [options] FILE...     Convert \(FormatRegistry.displayNames) files; writes X.converted.EXT beside X.EXT
      rates show BASE QUOTE         Print a rate and the day it was published
      rates export --from D --to D  Write daily, average or closing rates for ledgers (CSV, JSONL, Beancount, Ledger)
      rates update                  Fetch the ECB history into the rate cache (newer than the embedded one)
      rates currencies              List the currencies a source covers, with first and last days
      rates lock FILE... -o LOCK    Read only the files' rate keys and write the lock convert --frozen reads
      report merge PART... -o FILE  Merge the --report files of runs over parts of the data into one

    OPTIONS:
      -h, --help                    Show help (also: fxbatch help <command>, fxbatch <command> --help)
      --version                     Show the version

    See 'fxbatch convert --help' for conversion options.

    """

  /// Runs the tool with the arguments after the program name; returns the exit status.
  static func run(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
      return usageError(UsageError("missing command"), usage: usage)
    }
    let rest = arguments.dropFirst()
    switch command {
    case "-h", "--help":
      Console.out(usage)
      return ExitStatus.success
    case "help":
      switch rest.first {
      case nil: Console.out(usage)
      case "convert": Console.out(ConvertCommand.help)
      case "rates": Console.out(RatesCommand.help)
      case "report": Console.out(ReportCommand.help)
      case let other?:
        return usageError(UsageError("no command '\(other)'"), usage: usage)
      }
      return ExitStatus.success
    case "--version":
      Console.out("fxbatch \(version)\n")
      return ExitStatus.success
    case "convert":
      return ConvertCommand.run(rest)
    case "rates":
      return RatesCommand.run(rest)
    case "report":
      return ReportCommand.run(rest)
    default:
      return usageError(UsageError("no command '\(command)'"), usage: usage)
    }
  }

  /// Prints a usage error (one line, then the usage) and returns 64.
  static func usageError(_ error: UsageError, usage: String) -> Int32 {
    Console.error("fxbatch: error: \(error.description)\n\n\(usage)")
    return ExitStatus.usage
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
    guard let path else {
      let cache = cacheDirectory.flatMap { directory in
        FileManager.default.fileExists(atPath: directory) ? try? RateCache(directory: directory) : nil
      }
      return .success(EmbeddedECBHistory.newest(cache: cache))
    }
    do { return .success(try RatesFile.load(path: path)) } catch { return .failure(error) }
  }

  /// The cache directory an option set names: `--cache-dir`, none with `--no-cache`, else the default.
  static func cacheDirectory(_ parsed: ParsedArguments) -> String? {
    if parsed.has("--no-cache") { return nil }
    return parsed.value("--cache-dir") ?? RateCache.defaultDirectory(environment: ProcessInfo.processInfo.environment)
  }
}
