import FXBatchTestSupport
import Foundation
import Testing

@testable import fxbatch

/// The command line's one definition per command, and what is made from it: `--help`, "did you mean …?", the
/// man page and the shell completions.
@Suite("command line: help, suggestions, man page, completions")
struct CommandLineTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The repository's root, for docs/man/fxbatch.1.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Runs a program; its status and standard output and error together.
  static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  // MARK: did you mean

  @Test(arguments: [
    ("--to-currency", ConvertCommand.options.flatMap(\.names), "--to"),
    ("--from-currency", ConvertCommand.options.flatMap(\.names), "--from"),
    ("--sorce", ConvertCommand.options.flatMap(\.names), "--source"),
    ("--date-fromat", ConvertCommand.options.flatMap(\.names), "--date-format"),
    ("--Rounding", ConvertCommand.options.flatMap(\.names), "--rounding"),
    ("--so", ConvertCommand.options.flatMap(\.names), "--source"),
    ("conver", FXBatchCommand.commandNames, "convert"),
    ("--fromat", ConvertCommand.options.flatMap(\.names), "--format"),  // a swap is one edit
    ("rate", FXBatchCommand.commandNames, "rates"),
    ("shwo", RatesCommand.subcommandNames, "show"),
  ])
  func suggestsTheClosestName(typed: String, candidates: [String], expected: String) {
    #expect(Suggestion.closest(to: typed, among: candidates) == expected)
  }

  @Test(arguments: [
    ("--bogus", ConvertCommand.options.flatMap(\.names)),
    ("-x", ConvertCommand.options.flatMap(\.names)),
    // Too short to abbreviate: `--r` could be --rates, --rounding, --report, …
    ("--r", ConvertCommand.options.flatMap(\.names)),
    ("frobnicate", FXBatchCommand.commandNames),
  ])
  func suggestsNothingWhenNothingIsClose(typed: String, candidates: [String]) {
    #expect(Suggestion.closest(to: typed, among: candidates) == nil)
  }

  @Test(arguments: [
    (["convert", "--to-currency", "EUR", "a.csv"], "fxbatch: error: unknown option --to-currency; did you mean --to?"),
    (["convert", "--sorce", "ecb", "a.csv"], "fxbatch: error: unknown option --sorce; did you mean --source?"),
    (["convert", "--sorce=ecb", "a.csv"], "fxbatch: error: unknown option --sorce; did you mean --source?"),
    (["conver", "a.csv"], "fxbatch: error: no command 'conver'; did you mean 'convert'?"),
    (["help", "rate"], "fxbatch: error: no command 'rate'; did you mean 'rates'?"),
    (["--verison"], "fxbatch: error: no command '--verison'; did you mean '--version'?"),
    (["rates", "shwo", "USD", "EUR"], "fxbatch: error: no subcommand 'shwo'; did you mean 'show'?"),
    (["rates", "show", "USD", "EUR", "--dat", "2020-01-02"], "fxbatch: error: unknown option --dat; did you mean --date?"),
    (["completions", "bsh"], "fxbatch: error: completions bsh: expected bash, zsh or fish; did you mean 'bash'?"),
  ])
  func misspellingsAreUsageErrorsThatSuggest(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(message + "\n"), "\(result.standardError)")
    #expect(result.standardError.contains("USAGE:"))
    #expect(result.standardOutput.isEmpty)
  }

  // MARK: help

  @Test(arguments: [
    (["convert", "--help"], "convert"), (["help", "convert"], "convert"), (["rates", "show", "--help"], "rates show"),
    (["help", "rates", "export"], "rates export"), (["rates", "update", "-h"], "rates update"),
    (["rates", "currencies", "--help"], "rates currencies"), (["completions", "--help"], "completions"),
  ])
  func eachCommandsHelpListsItsOptionsEssentialsFirstThenExamples(arguments: [String], command: String) throws {
    let spec = try #require(FXBatchCommand.commands.first { $0.name == command })
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == 0)
    let help = result.standardOutput
    #expect(help.hasPrefix("USAGE: fxbatch \(command) "))
    // Every option of the definition, under its group's heading, the groups in order, then the examples.
    var last = help.startIndex
    for group in OptionGroup.allCases {
      let members = spec.options.filter { $0.group == group }
      guard !members.isEmpty else { continue }
      let heading = try #require(help.range(of: "\n\(group.title):\n"), "\(group.title) in \(command)")
      #expect(heading.lowerBound > last, "\(group.title) out of order in \(command)")
      last = heading.lowerBound
      for option in members {
        let line = try #require(help.range(of: "\n  \(option.label)"), "\(option.label) in \(command)")
        #expect(line.lowerBound > heading.lowerBound)
        last = line.lowerBound
      }
    }
    let examples = try #require(help.range(of: "\nEXAMPLES:\n"))
    #expect(examples.lowerBound > last)
    for example in spec.examples { #expect(help.contains("\n  \(example.command)\n")) }
  }

  @Test func convertHelpPutsTheEssentialsBeforeRatesAndFetching() throws {
    let help = ConvertCommand.help
    let positions = try [
      "  -o, --output", "  --to CODE", "  --from CODE", "  --amount-field", "  --date-format", "  --rates FILE",
      "  --endpoint URL",
    ].map { try #require(help.range(of: $0)?.lowerBound, "\($0)") }
    #expect(positions == positions.sorted())
    #expect(ConvertCommand.options.filter { $0.group == .essential }.map(\.key).prefix(3) == ["--output", "--to", "--from"])
  }

  /// Every example's command line parses against the options of its own command: no example uses an option the
  /// command does not have.
  @Test func everyExampleParsesWithItsCommandsOptions() throws {
    for spec in FXBatchCommand.commands {
      for example in spec.examples where example.command.hasPrefix("fxbatch \(spec.name) ") {
        let words = example.command.split(separator: " ").dropFirst(1 + spec.name.split(separator: " ").count).map(String.init)
        #expect(throws: Never.self, "\(example.command)") {
          _ = try ParsedArguments.parse(ArraySlice(words), options: spec.options)
        }
      }
    }
  }

  @Test func theHelpExampleConvertsASampleToEuros() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Data("amount;currency;date\n100,00;USD;2020-01-02\n".utf8).write(
      to: directory.url.appendingPathComponent("statement.csv"))
    let example = try #require(ConvertCommand.spec.examples.first)
    #expect(example.command == "fxbatch convert --to EUR statement.csv")
    let result = try cli.run(["convert", "--to", "EUR", "statement.csv"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let converted = try String(contentsOf: directory.url.appendingPathComponent("statement.converted.csv"), encoding: .utf8)
    // 100 USD→EUR on 2020-01-02: 100 / 1.1193 = 89.341…, 89.34 (fx fields use '.' unless
    // --output-decimal-separator says otherwise).
    #expect(converted.contains(";89.34;EUR;2020-01-02;"), "\(converted)")
  }

  // MARK: man page

  @Test func theCommittedManPageIsTheGeneratedOne() throws {
    let committed = try String(contentsOf: Self.root.appendingPathComponent("docs/man/fxbatch.1"), encoding: .utf8)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let generated = try cli.run(["man-page"], in: directory.url)
    #expect(generated.status == 0)
    #expect(generated.standardOutput == ManPage.text)
    #expect(
      committed == generated.standardOutput,
      "docs/man/fxbatch.1 is out of date; regenerate it: swift run fxbatch man-page > docs/man/fxbatch.1")
  }

  @Test func theManPageHasEveryCommandOptionAndExample() {
    let page = ManPage.text
    for spec in FXBatchCommand.commands {
      #expect(page.contains(".SH \"FXBATCH \(spec.name.uppercased())\"\n"))
      for option in spec.options {
        for name in option.names { #expect(page.contains("\\fB\(ManPage.escaped(name))\\fR"), "\(name)") }
      }
      for example in spec.examples { #expect(page.contains("\n\(ManPage.escaped(example.command))\n")) }
    }
  }

  @Test(arguments: [
    ("--to-field", "\\-\\-to\\-field"), ("half-up", "half-up"), ("1999-01-04", "1999-01-04"), (".csv", "\\&.csv"),
    ("'$=USD'", "\\&'$=USD'"), ("a\\b", "a\\eb"), ("¥ €", "\\[u00A5] \\[u20AC]"),
  ])
  func roffEscaping(text: String, expected: String) {
    #expect(ManPage.escaped(text) == expected)
  }

  /// groff reads the page without a warning (`-ww`: all of them); skipped where groff is absent.
  @Test(.enabled(if: TestTools.onPath("groff") != nil))
  func groffFormatsTheManPageWithoutWarnings() throws {
    let groff = try #require(TestTools.onPath("groff"))
    let result = try Self.run(
      groff, ["-man", "-Tutf8", "-ww", "-z", Self.root.appendingPathComponent("docs/man/fxbatch.1").path])
    #expect(result.status == 0)
    #expect(result.output.isEmpty, "\(result.output)")
  }

  // MARK: completions

  /// `fxbatch completions SHELL`, written to `directory/name`.
  func completionScript(_ shell: String, named name: String, in directory: URL) throws -> URL {
    let script = try cli.run(["completions", shell], in: directory)
    try #require(script.status == 0, "\(script.standardError)")
    let file = directory.appendingPathComponent(name)
    try Data(script.standardOutput.utf8).write(to: file)
    return file
  }

  /// What bash completes for a command line, the last word being the one completed.
  func bashCompletions(_ words: [String], in directory: URL) throws -> [String] {
    _ = try completionScript("bash", named: "fxbatch.bash", in: directory)
    let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    let program = """
      source ./fxbatch.bash || exit 3
      complete -p fxbatch >/dev/null || exit 4
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
      _fxbatch
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try Self.run("/bin/bash", ["--norc", "--noprofile", "-c", program], in: directory)
    try #require(result.status == 0, "\(result.output)")
    return result.output.split(separator: "\n").map(String.init).sorted()
  }

  @Test(arguments: [
    (["fxbatch", "convert", "--so"], ["--source"]),
    (["fxbatch", "co"], ["completions", "convert"]),
    (["fxbatch", "rates", "ex"], ["export"]),
    (["fxbatch", "rates", "--cache-dir", "d", "cu"], ["currencies"]),
    (["fxbatch", "convert", "--format", ""], ["csv", "json", "jsonl", "ods", "xlsx", "xml"]),
    (["fxbatch", "convert", "--format", "=", "js"], ["json", "jsonl"]),
    (["fxbatch", "convert", "--to", "EUR", "--source", "frank"], ["frankfurter", "frankfurter-v1"]),
    (["fxbatch", "convert", "--rounding", "half"], ["half-even", "half-up"]),
    (["fxbatch", "convert", "--rate-kind", ""], ["average", "closing", "spot"]),
    (["fxbatch", "convert", "--date-format", "d"], ["dmy"]),
    (["fxbatch", "rates", "export", "--period", "q"], ["quarter"]),
    (["fxbatch", "rates", "export", "--format", "b"], ["beancount"]),
    (["fxbatch", "rates", "currencies", "--source", "frankfurter-"], ["frankfurter-v1"]),
    // Options are a subcommand's own: --source is for rates show, export and currencies, not rates update.
    (["fxbatch", "rates", "show", "--so"], ["--source"]),
    (["fxbatch", "rates", "update", "--so"], []),
    (["fxbatch", "rates", "export", "--fo"], ["--format"]),
    (["fxbatch", "completions", ""], ["bash", "fish", "zsh"]),
    // File names where a file goes: convert's arguments, -o, --rates; none for a currency.
    (["fxbatch", "convert", "--to", "EUR", "sam"], ["sample.csv", "sample.json"]),
    (["fxbatch", "convert", "--rates", "sam"], ["sample.csv", "sample.json"]),
    (["fxbatch", "convert", "--to", "sam"], []),
    (["fxbatch", "convert", "--output-dir", "s"], ["subdir"]),
  ])
  func bashCompletesCommandsOptionsValuesAndFiles(words: [String], expected: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for name in ["sample.csv", "sample.json", "other.txt"] {
      try Data().write(to: directory.url.appendingPathComponent(name))
    }
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("subdir"), withIntermediateDirectories: false)
    #expect(try bashCompletions(words, in: directory.url) == expected)
  }

  /// Every option of every command completes in bash after its command.
  @Test func bashCompletesEveryOptionOfEveryCommand() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for spec in FXBatchCommand.commands {
      let offered = try bashCompletions(["fxbatch"] + spec.name.split(separator: " ").map(String.init) + ["-"], in: directory.url)
      #expect(offered == spec.options.flatMap(\.names).sorted(), "\(spec.name)")
    }
  }

  /// fish completes for real: `complete -C` asks the loaded script what it offers for a command line.
  @Test(
    .enabled(if: TestTools.onPath("fish") != nil),
    arguments: [
      ("fxbatch convert --so", ["--source"]), ("fxbatch rates ex", ["export"]),
      ("fxbatch convert --format j", ["json", "jsonl"]), ("fxbatch rates export --format b", ["beancount"]),
      ("fxbatch convert --rounding half", ["half-even", "half-up"]), ("fxbatch --ver", ["--version"]),
      ("fxbatch completions ", ["bash", "fish", "zsh"]),
    ])
  func fishCompletesCommandsOptionsAndValues(line: String, expected: [String]) throws {
    let fish = try #require(TestTools.onPath("fish"))
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try completionScript("fish", named: "fxbatch.fish", in: directory.url)
    let result = try Self.run(fish, ["--no-config", "-c", "source \(file.path); complete -C '\(line)'"])
    #expect(result.status == 0, "\(result.output)")
    let offered = result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
    #expect(offered == expected, "\(result.output)")
  }

  /// zsh runs the script's function with its completion builtins replaced by functions that print what they are
  /// given (outside a completion widget zsh has no `compadd`): what it would offer, before zsh filters by prefix.
  @Test(
    .enabled(if: TestTools.onPath("zsh") != nil),
    arguments: [
      (["fxbatch", "convert", "--so"], ConvertCommand.options.flatMap(\.names)),
      (["fxbatch", "rates", "show", "--"], RatesCommand.specs[0].options.flatMap(\.names)),
      (["fxbatch", "convert", "--format", ""], ["csv", "json", "jsonl", "ods", "xlsx", "xml"]),
      (["fxbatch", "rates", "--cache-dir", "d", ""], ["show", "export", "update", "currencies", "lock"]),
      (["fxbatch", "rates", "export", "--format", ""], ["csv", "jsonl", "beancount", "ledger"]),
      (["fxbatch", "convert", "--to", "EUR", ""], ["<files>"]), (["fxbatch", "convert", "--output-dir", ""], ["<files -/>"]),
      (["fxbatch", "convert", "--to", ""], []),
    ])
  func zshOffersCommandsOptionsValuesAndFiles(words: [String], expected: [String]) throws {
    let zsh = try #require(TestTools.onPath("zsh"))
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try completionScript("zsh", named: "_fxbatch", in: directory.url)
    let program = """
      compdef() { : }
      _describe() { local -a entries; entries=("${(@P)4}"); print -l -- "${entries[@]%%:*}" }
      compadd() { [[ $1 == -- ]] && shift; print -l -- "$@" }
      _files() { print -l -- "<files${1:+ $1}>" }
      source \(file.path)
      words=(\(words.map { "'\($0)'" }.joined(separator: " "))); CURRENT=\(words.count)
      _fxbatch
      """
    let result = try Self.run(zsh, ["-f", "-c", program])
    #expect(result.output.split(separator: "\n").map(String.init) == expected, "\(result.output)")
  }

  @Test(.enabled(if: TestTools.onPath("zsh") != nil))
  func zshReadsItsScript() throws { try checkSyntax(shell: "zsh") }

  @Test(.enabled(if: TestTools.onPath("fish") != nil))
  func fishReadsItsScript() throws { try checkSyntax(shell: "fish") }

  /// `zsh -n` or `fish -n` reads the script without a word, and it names every long option.
  func checkSyntax(shell: String) throws {
    let path = try #require(TestTools.onPath(shell))
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try completionScript(shell, named: "fxbatch.\(shell)", in: directory.url)
    let script = try String(contentsOf: file, encoding: .utf8)
    let result = try Self.run(path, ["-n", file.path])
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.isEmpty, "\(result.output)")
    for spec in FXBatchCommand.commands {
      for option in spec.options {
        let long = option.names.last ?? ""
        #expect(script.contains(shell == "fish" ? "-l \(long.dropFirst(2))" : "'\(long):"), "\(long)")
      }
    }
  }

  // Issue 30: -q hid a lock file that could not be written (exit 2, not a word). Every exit of 2 says why in a
  // line on standard error, quiet or not, for every command; a standard output that cannot be written (a full
  // disk, /dev/full) crashed rates, report merge and help with a trap: it is such a failure too.
  @Test(arguments: [
    (["convert", "-q", "--lock", "/dev/full", "in.csv", "-o", "out.csv"], "/dev/full:1:1: error: cannot write the lock file"),
    (["convert", "-q", "--lock", "rates.lock", "--output-dir", ".", "missing.csv"], "rates.lock: not written, as missing.csv"),
    (["convert", "-q", "--report", "/dev/full", "in.csv", "-o", "out.csv"], "/dev/full:1:1: error: cannot write the report"),
    (["convert", "-q", "in.csv", "-o", "/dev/full"], "cannot write the output: No space left on device"),
    (["convert", "-q", "--lock", "none.lock", "--frozen", "in.csv"], "none.lock:1:1: error: cannot read the lock file"),
    (["convert", "-q", "--plan", "missing.csv"], "missing.csv:1:1: error:"),
    (["rates", "lock", "-q", "in.csv", "-o", "/dev/full"], "/dev/full:1:1: error: cannot write the lock file"),
    (["rates", "lock", "-q", "in.csv", "missing.csv", "-o", "rates.lock"], "rates.lock: not written, as missing.csv"),
    (["rates", "export", "--from", "2024-01-02", "--to", "2024-01-05", "-o", "/dev/full"], "cannot write the rates"),
    (["rates", "currencies", "--source", "file", "--rates", "missing.csv"], "missing.csv"),
    (["report", "merge", "missing.json", "-o", "total.json"], "missing.json:1:1: error: no such file"),
    (["report", "merge", "in.csv", "-o", "total.json"], "in.csv:1:1: error: not a report fxbatch wrote"),
  ])
  func everyFailureSaysWhyQuietOrNot(arguments: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2024-01-05,12500,USD,EUR\n")
    #expect(try cli.run(["rates", "lock", "-q", "in.csv", "-o", "rates.lock"], in: directory.url).status == 0)
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == 2, "\(arguments): \(result.standardError)")
    #expect(result.standardError.contains(message), "\(arguments): \(result.standardError)")
  }

  @Test(arguments: [
    ["rates", "show", "USD", "EUR"], ["rates", "export", "--from", "2024-01-02", "--to", "2024-01-05"],
    ["report", "merge", "part.json", "-o", "-"], ["convert", "-q", "in.csv", "-o", "-"], ["--help"],
  ])
  func aStandardOutputThatCannotBeWrittenSaysWhy(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2024-01-05,12500,USD,EUR\n")
    #expect(try cli.run(["convert", "-q", "in.csv", "-o", "out.csv", "--report", "part.json"], in: directory.url).status == 0)
    let process = Process()
    process.executableURL = cli.executable
    process.arguments = arguments
    process.currentDirectoryURL = directory.url
    process.environment = cli.environment
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 2, "\(text)")
    #expect(text.contains("No space left on device"), "\(text)")
    #expect(text.split(separator: "\n").count <= 2, "\(text)")
  }

  // `rates show` and `rates export` with a source read FXBATCH_TODAY: a malformed one ended them with status 2
  // and nothing said.
  @Test(arguments: [
    ["rates", "show", "USD", "EUR", "--source", "ecb"], ["rates", "export", "--from", "2024-01-02", "--to", "2024-01-05", "--source", "ecb"],
  ])
  func aMalformedTodaySaysSo(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2024-13-01"
    let result = try runner.run(arguments + ["--no-cache", "--endpoint", "http://127.0.0.1:9/"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains("fxbatch: error: FXBATCH_TODAY 2024-13-01: not a calendar date"), "\(result.standardError)")
  }
}
