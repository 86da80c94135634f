import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 33: exit statuses that tell a bad record (1) from a dead source (3) and a refused file (2), error
/// budgets (`--max-errors`, `--max-source-errors`, `--fail-on`), through the real `fxbatch` binary.
@Suite("exit statuses and error budgets")
struct ExitStatusTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// 10 records, EUR → USD on a Friday at the embedded rates; `bad` of them with an amount that is no number.
  static func records(bad: Int, weekend: Int = 0) -> String {
    var csv = "date,amount,from,to\n"
    for index in 0..<10 {
      let amount = index < bad ? "N/A" : "100"
      let date = index >= 10 - weekend ? "2024-03-02" : "2024-03-01"
      csv += "\(date),\(amount),EUR,USD\n"
    }
    return csv
  }

  /// The summary's last line.
  static func lastLine(_ result: CLIRunner.Result) -> String {
    String(result.standardError.split(separator: "\n").last ?? "")
  }

  /// A server that was started and stopped: its port refuses connections, as a source that is down.
  static func deadEndpoint() throws -> String {
    let server = try LoopbackHTTPServer()
    let endpoint = server.baseURL.absoluteString
    server.stop()
    return endpoint
  }

  func convert(_ arguments: [String], csv: String, environment: [String: String] = [:]) throws -> CLIRunner.Result {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", csv)
    var runner = cli
    for (name, value) in environment { runner.environment[name] = value }
    return try runner.run(["convert", "-o", "-"] + arguments + ["in.csv"], in: directory.url)
  }

  func report(_ arguments: [String], csv: String) throws -> (CLIRunner.Result, [String: Any]) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", csv)
    let result = try cli.run(["convert", "-o", "-", "--report", "report.json"] + arguments + ["in.csv"], in: directory.url)
    let json = try JSONSerialization.jsonObject(with: Data(try directory.read("report.json").utf8)) as? [String: Any]
    return (result, try #require(json))
  }

  // MARK: - Statuses

  @Test func everyRecordConvertedIsZeroAndSaysSo() throws {
    let (result, json) = try report([], csv: Self.records(bad: 0))
    #expect(result.status == 0)
    #expect(Self.lastLine(result) == "exit status 0 (ok): every record converted")
    #expect(json["exitStatus"] as? Int == 0)
    #expect(json["exitStatusName"] as? String == "ok")
    #expect(json["budget"] == nil)
  }

  @Test func recordsFailingOnTheirOwnDataAreOne() throws {
    let (result, json) = try report([], csv: Self.records(bad: 2))
    #expect(result.status == 1)
    #expect(Self.lastLine(result) == "exit status 1 (record-errors): 2 records failed on their own data")
    #expect(json["exitStatus"] as? Int == 1)
    #expect(json["exitStatusName"] as? String == "record-errors")
  }

  // The case: the service unreachable, every key source_unavailable. It was 1, as two N/A amounts are.
  @Test func aSourceThatIsDownIsThreeAndWinsOverRecordErrors() throws {
    let endpoint = try Self.deadEndpoint()
    let (result, json) = try report(
      ["--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0"], csv: Self.records(bad: 2))
    #expect(result.status == 3, "\(result.standardError)")
    #expect(result.standardError.contains("source_unavailable 8"))
    #expect(
      Self.lastLine(result)
        == "exit status 3 (source-failed): a rate source failed for 8 records (source_unavailable, timeout, bad_response); 2 records failed on their own data"
    )
    #expect(json["exitStatus"] as? Int == 3)
    #expect(json["exitStatusName"] as? String == "source-failed")
    // A record budget never covers a source: only --max-source-errors does.
    let wide = try convert(
      ["--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0", "--max-errors", "100%"],
      csv: Self.records(bad: 2))
    #expect(wide.status == 3)
    let sourceBudget = try convert(
      ["--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0", "--max-source-errors", "8"],
      csv: Self.records(bad: 2))
    #expect(sourceBudget.status == 1, "within the source's budget, the record errors are left")
    #expect(
      Self.lastLine(sourceBudget).contains("8 records (source_unavailable, timeout, bad_response), within --max-source-errors 8"))
    let both = try convert(
      [
        "--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0", "--max-source-errors", "80%",
        "--max-errors", "2",
      ], csv: Self.records(bad: 2))
    #expect(both.status == 0)
    let tooFew = try convert(
      ["--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0", "--max-source-errors", "79.9%"],
      csv: Self.records(bad: 2))
    #expect(tooFew.status == 3)
    #expect(Self.lastLine(tooFew).contains("more than --max-source-errors 79.9% allows"))
  }

  @Test func aRefusedFileWinsOverEverything() throws {
    let endpoint = try Self.deadEndpoint()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", Self.records(bad: 2))
    let result = try cli.run(
      [
        "convert", "--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0", "--max-errors",
        "100%", "in.csv", "missing.csv",
      ], in: directory.url)
    #expect(result.status == 2)
    #expect(Self.lastLine(result) == "exit status 2 (file-refused): 1 file was refused")
  }

  // MARK: - Budgets: 0, 100 %, below and above the errors

  @Test(arguments: [
    ("0", 1), ("1", 1), ("2", 0), ("3", 0), ("0%", 1), ("19%", 1), ("19.99%", 1), ("20%", 0), ("20.0001%", 0), ("100%", 0),
  ])
  func aRecordBudget(limit: String, status: Int32) throws {
    let (result, json) = try report(["--max-errors", limit], csv: Self.records(bad: 2))
    #expect(result.status == status, "\(limit)")
    let word = status == 0 ? "within --max-errors \(limit)" : "more than --max-errors \(limit) allows"
    #expect(Self.lastLine(result).hasSuffix("2 records failed on their own data, \(word)"), "\(Self.lastLine(result))")
    let budget = try #require(json["budget"] as? [String: Any])
    #expect(budget["maxErrors"] as? String == limit)
    #expect(budget["recordErrors"] as? Int == 2)
    #expect(budget["withinMaxErrors"] as? Bool == (status == 0))
  }

  @Test func aBudgetOfNoneAtAllConvertsAsBefore() throws {
    let plain = try convert([], csv: Self.records(bad: 2))
    let budgeted = try convert(["--max-errors", "100%"], csv: Self.records(bad: 2))
    #expect(plain.standardOutput == budgeted.standardOutput, "a budget changes the status only")
    #expect(try convert(["--max-errors", "0"], csv: Self.records(bad: 0)).status == 0)
    #expect(try convert(["--max-errors", "0%"], csv: Self.records(bad: 0)).status == 0)
  }

  @Test func fallbackAndStaleRecordsCountWhenAsked() throws {
    let weekend = Self.records(bad: 0, weekend: 3)
    #expect(try convert([], csv: weekend).status == 0)
    let strict = try convert(["--fail-on", "fallback"], csv: weekend)
    #expect(strict.status == 1)
    #expect(Self.lastLine(strict).contains("3 records counted as errors (failed on their own data, or --fail-on fallback)"))
    #expect(try convert(["--fail-on", "fallback", "--max-errors", "3"], csv: weekend).status == 0)
    #expect(try convert(["--fail-on", "fallback", "--max-errors", "29%"], csv: weekend).status == 1)
    // The embedded rates end 2026-10-30, 30 days before the tests' today (2026-11-29): stale past 5 days.
    let stale = try convert(["--fail-on", "stale"], csv: Self.records(bad: 2))
    #expect(stale.status == 1)
    #expect(
      Self.lastLine(stale).contains(
        "10 records counted as errors (2 failed on their own data, 8 converted but counted by --fail-on stale: the "
          + "rates end 2026-10-30, 30 days before today, more than --max-staleness 5; use newer rates (--source ecb "
          + "or frankfurter, --rates FILE) or --max-staleness 30 to accept them)"), "\(Self.lastLine(stale))")
    #expect(try convert(["--fail-on", "stale", "--max-staleness", "30"], csv: Self.records(bad: 0)).status == 0)
    #expect(try convert(["--fail-on", "fallback,stale", "--max-staleness", "30"], csv: weekend).status == 1)
    #expect(try convert(["--fail-on", "stale", "--fail-on", "fallback", "--max-staleness", "30"], csv: weekend).status == 1)
  }

  @Test(arguments: [
    ["--max-errors", "-1"], ["--max-errors", "101%"], ["--max-errors", "abc"], ["--max-errors", "5%%"],
    ["--max-errors", ""], ["--max-errors", "1.5"], ["--max-errors", "%"], ["--max-errors", "0.00001%"],
    ["--max-errors", " 5"], ["--max-source-errors", "-3%"], ["--max-source-errors", "x"], ["--fail-on", "stale,"],
    ["--fail-on", "errors"], ["--fail-on", ""], ["--max-errors"],
  ])
  func nonsenseIsAUsageError(arguments: [String]) throws {
    let result = try convert(arguments, csv: Self.records(bad: 0))
    #expect(result.status == 64, "\(arguments)")
    let firstLine = result.standardError.split(separator: "\n").first ?? ""
    #expect(firstLine.hasPrefix("fxbatch: error: \(arguments[0])"), "\(firstLine)")
    #expect(result.standardOutput.isEmpty)
  }

  @Test func rateCommandsGiveTheSameMeanings() throws {
    let endpoint = try Self.deadEndpoint()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", Self.records(bad: 0))
    let shown = try cli.run(
      [
        "rates", "show", "EUR", "USD", "--date", "2024-03-01", "--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache",
      ],
      in: directory.url)
    #expect(shown.status == 3, "\(shown.standardError)")
    let noRate = try cli.run(["rates", "show", "EUR", "USD", "--date", "1990-01-01"], in: directory.url)
    #expect(noRate.status == 1)
    let locked = try cli.run(
      [
        "rates", "lock", "in.csv", "--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0", "-o",
        "r.lock",
      ],
      in: directory.url)
    #expect(locked.status == 3, "\(locked.standardError)")
    let lockBudget = try cli.run(["rates", "lock", "in.csv", "--max-errors", "5", "-o", "r.lock"], in: directory.url)
    #expect(lockBudget.status == 64)
    let updated = try cli.run(
      ["rates", "update", "--endpoint", endpoint, "--cache-dir", "cache", "--timeout", "5"], in: directory.url)
    #expect(updated.status == 3)
    let refused = try cli.run(["report", "merge", "missing.json", "-o", "-"], in: directory.url)
    #expect(refused.status == 2)
  }

  @Test func aMergeKeepsTheWorstStatusOfItsParts() throws {
    let endpoint = try Self.deadEndpoint()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("a.csv", Self.records(bad: 2))
    try directory.write("b.csv", Self.records(bad: 0))
    let base = ["convert", "-q", "--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache", "--retries", "0"]
    #expect(try cli.run(["convert", "-q", "--report", "a.json", "a.csv"], in: directory.url).status == 1)
    #expect(try cli.run(base + ["--report", "b.json", "b.csv"], in: directory.url).status == 3)
    let merged = try cli.run(["report", "merge", "a.json", "b.json", "-o", "-"], in: directory.url)
    // Parts of other sources are refused; a part's status 3 is a status fxbatch gives, not a changed report.
    #expect(merged.status == 2)
    #expect(!merged.standardError.contains("exit status 3 is none fxbatch gives"), "\(merged.standardError)")
    #expect(try cli.run(base + ["--report", "c.json", "a.csv"], in: directory.url).status == 3)
    let same = try cli.run(["report", "merge", "b.json", "c.json", "-o", "m.json"], in: directory.url)
    #expect(same.status == 0, "\(same.standardError)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(try directory.read("m.json").utf8)) as? [String: Any])
    #expect(json["exitStatus"] as? Int == 3)
    #expect(json["exitStatusName"] as? String == "source-failed")
  }

  // Ctrl-C in the middle of a run: 130, the table's `interrupted`, and no temporary file left.
  @Test func anInterruptIsOneHundredThirty() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let process = Process()
    process.executableURL = cli.executable
    process.arguments = ["convert", "-q", "-", "-o", "out.csv"]
    process.currentDirectoryURL = directory.url
    process.environment = ["TMPDIR": directory.path, "FXBATCH_TODAY": "2026-11-29"]
    let input = Pipe()
    process.standardInput = input
    try process.run()
    // Standard input is spooled and never ends: the run is mid-way when the signal comes.
    input.fileHandleForWriting.write(Data("date,amount,from,to\n2020-01-02,100,EUR,USD\n".utf8))
    let deadline = Date().addingTimeInterval(10)
    while try directory.fileNames().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    process.interrupt()
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == ExitStatus.interrupted.code)
    #expect(try directory.fileNames().isEmpty)
  }

  // MARK: - Help, version

  @Test func helpAndTheManPageListEveryStatus() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for command in [
      ["convert"], ["rates", "show"], ["rates", "lock"], ["rates", "export"], ["rates", "update"], ["report", "merge"],
    ] {
      let help = try cli.run(command + ["--help"], in: directory.url)
      for status in ExitStatus.allCases {
        #expect(help.standardOutput.contains("\n  \(status.code)"), "\(command): \(status)")
      }
    }
    let man = try cli.run(["man-page"], in: directory.url).standardOutput
    for status in ExitStatus.allCases { #expect(man.contains(".TP\n\(status.code) (\(status.name))")) }
  }

  @Test(arguments: [
    ["--version"], ["convert", "--version"], ["convert", "--to", "EUR", "--version"], ["rates", "show", "--version"],
    ["rates", "lock", "--version"], ["report", "merge", "--version"], ["completions", "--version"],
  ])
  func versionAfterAnyCommand(arguments: [String]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == 0, "\(arguments): \(result.standardError)")
    #expect(result.standardOutput == "fxbatch 0.1.0\n")
  }

  @Test func aValueThatReadsAsVersionIsTheOptionsValue() throws {
    // `--amount-field --version` names a field: the parser takes the value before it looks for --version.
    let result = try convert(["--to", "EUR", "--amount-field", "--version"], csv: "--version,currency\n5,USD\n")
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("5,USD,"))
  }

  // MARK: - The table

  @Test func limitsReadExactly() {
    #expect(ErrorBudget.Limit("0.5%") == .percent(5, scale: 1))
    #expect(ErrorBudget.Limit("0.5%")?.description == "0.5%")
    #expect(ErrorBudget.Limit("0.05%")?.description == "0.05%")
    #expect(ErrorBudget.Limit("100%")?.allows(10, of: 10) == true)
    #expect(ErrorBudget.Limit("0.5%")?.allows(5, of: 1000) == true)
    #expect(ErrorBudget.Limit("0.5%")?.allows(6, of: 1000) == false)
    #expect(ErrorBudget.Limit("99.9999%")?.allows(Int.max / 2, of: Int.max / 2) == false)
    for nonsense in ["-1", "101%", "100.0001%", "abc", "5%%", "", "1e3", "+1", "٣"] {
      #expect(ErrorBudget.Limit(nonsense) == nil, "\(nonsense)")
    }
  }

  @Test func aRefusedFileWinsOverASourceThatWinsOverRecords() {
    #expect(ExitStatus.worst(.recordErrors, .sourceFailed) == .sourceFailed)
    #expect(ExitStatus.worst(.sourceFailed, .fileRefused) == .fileRefused)
    #expect(ExitStatus.worst(.fileRefused, .recordErrors) == .fileRefused)
    #expect(ExitStatus.allCases.map(\.code) == [0, 1, 2, 3, 64, 130])
    #expect(Set(ExitStatus.allCases.map(\.name)).count == ExitStatus.allCases.count)
  }
}
