import FXBatch
import Foundation

/// `fxbatch report merge PART.json... -o TOTAL.json`
enum ReportCommand {
  static let options: [OptionSpec] = [
    OptionSpec(names: ["-o", "--output"], valueName: "FILE", help: "Write the merged report to FILE (- for stdout)"),
    OptionSpec(names: ["-h", "--help"], valueName: nil, help: "Show this help"),
  ]

  static let spec = CommandSpec(
    name: "report merge", arguments: "PART.json... -o TOTAL.json",
    summary: "Merge the --report files of runs over parts of the data into one",
    description: """
      Writes the report of one run over all the data from the --report files of runs over its parts (the
      partitions of a cluster job, each converted with the same lock file): counts, error codes and the
      rounding reconciliation per currency as one run gives them, the parts' unrounded totals added exactly
      and rounded once. The files of every part are listed. Parts that ran with other rates or rules
      (source, days, period rule, rounding, staleness) are refused, and so is a part whose figures do not
      follow from each other, one with a member named twice, or the same part twice (by its content).
      """,
    options: options,
    examples: [("The report of a job's partitions", "fxbatch report merge reports/part-*.json -o total.json")],
    footer: ExitStatus.helpText + "\n  2: a report refused (unreadable, merged twice, of other rates), or the merge not written.",
    argumentCompletion: .file)

  static var usage: String { spec.usage }
  static var help: String { spec.help }

  static func run(_ arguments: ArraySlice<String>) -> Int32 {
    let fullUsage = "USAGE: \(usage)\nSee 'fxbatch report --help'.\n"
    let parsed: ParsedArguments
    do throws(UsageError) {
      parsed = try ParsedArguments.parse(arguments, options: options)
      if parsed.has("--help") {
        Console.out(help)
        return ExitStatus.success.code
      }
      if parsed.has("--version") { return FXBatchCommand.printVersion() }
      guard parsed.positionals.first == "merge" else {
        throw UsageError(
          parsed.positionals.isEmpty ? "missing subcommand: merge" : "no subcommand '\(parsed.positionals[0])'")
      }
      guard parsed.positionals.count > 1 else { throw UsageError("report merge needs the reports to merge") }
      guard let output = parsed.value("--output"), !output.isEmpty else {
        throw UsageError("report merge needs -o FILE (- for standard output)")
      }
      if output != "-" {
        try WrittenPath.check(output, option: "-o")
        // The merged report replaces its file: a part given as -o would be lost.
        if let part = parsed.positionals.dropFirst().first(where: { WrittenPath.isSameFile($0, output) }) {
          throw UsageError("-o \(output): is the report \(part), which is merged, not replaced; write the merge elsewhere")
        }
      }
    } catch {
      return FXBatchCommand.usageError(error, usage: fullUsage)
    }
    var parts: [(name: String, report: RunReport)] = []
    // The same part twice would be counted twice: by its path, or by its content (a copy of it, even written
    // again in another layout).
    var seen: [String: String] = [:]
    var seenPaths: [String: String] = [:]
    for path in parsed.positionals.dropFirst() {
      let part: ReportPart
      do { part = try ReportPart(bytes: try ReportPart.contents(of: path), name: path) } catch {
        Console.error("\(error)\n")
        return ExitStatus.fileRefused.code
      }
      let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
      // Reports of empty partitions (Spark leaves many) are alike in every value, and add nothing twice.
      let counts = part.report.totals.records > 0
      if let earlier = seenPaths[resolved] ?? (counts ? seen[part.digest] : nil) {
        Console.error("\(path):1:1: error: the same report as \(earlier): each part's report is merged once\n")
        return ExitStatus.fileRefused.code
      }
      seenPaths[resolved] = path
      seen[part.digest] = path
      parts.append((path, part.report))
    }
    do {
      let merged = try RunReport.merged(parts)
      let written = ConvertCommand.write(merged, to: parsed.value("--output") ?? "-")
      return Interrupts.finished(written ? ExitStatus.success.code : ExitStatus.fileRefused.code)
    } catch {
      Console.error("fxbatch: error: \(error)\n")
      return ExitStatus.fileRefused.code
    }
  }
}
