import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// A file cut into chunks at line ends, each chunk converted on its own (`--header`, `--no-header-output`, as a
/// cluster job pipes its partitions), gives the same records as one run over the whole file.
@Suite("partitioned runs")
struct PartitionedRunTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let fields = ["date", "from", "to", "amount"]

  /// `count` records from a seeded generator (the same every run): dates over 2019–2025 (weekends fall back),
  /// amounts with up to four decimals, pairs among eight currencies, and now and then a record that fails
  /// (an unknown currency, an amount that is no number, a date before the euro).
  static func records(count: Int, seed: UInt64) -> [String] {
    var state = seed
    func next(_ bound: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % bound
    }
    let currencies = ["EUR", "USD", "GBP", "JPY", "CHF", "SEK", "PLN", "HUF"]
    var lines: [String] = []
    lines.reserveCapacity(count)
    for _ in 0..<count {
      let day = String(format: "%04d-%02d-%02d", 2019 + Int(next(7)), 1 + Int(next(12)), 1 + Int(next(28)))
      var from = currencies[Int(next(8))]
      let to = currencies[Int(next(8))]
      var amount = "\(next(1_000_000))" + (next(2) == 0 ? "" : ".\(next(10_000))")
      var date = day
      switch next(200) {
      case 0: from = "XXQ"
      case 1: amount = "n/a"
      case 2: date = "1998-06-01"
      default: break
      }
      lines.append("\(date),\(from),\(to),\(amount)")
    }
    return lines
  }

  /// The lines cut into `parts` chunks of uneven sizes, each ending at a line end.
  static func chunks(of lines: [String], parts: Int) -> [String] {
    var result: [String] = []
    var start = 0
    for part in 0..<parts {
      let end = part == parts - 1 ? lines.count : start + (lines.count - start) / (parts - part) + part * 7
      result.append(lines[start..<min(end, lines.count)].map { $0 + "\n" }.joined())
      start = min(end, lines.count)
    }
    return result
  }

  @Test func concatenatedChunkOutputsEqualOneRun() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = Self.records(count: 20_000, seed: 18)
    let header = Self.fields.joined(separator: ",")
    _ = try directory.write("whole.csv", header + "\n" + lines.map { $0 + "\n" }.joined())
    let whole = try cli.run(["convert", "whole.csv", "-o", "-", "-q"], in: directory.url)
    #expect(whole.status == 1, "the generator writes failing records")
    var concatenated = ""
    for chunk in Self.chunks(of: lines, parts: 5) {
      let part = try cli.run(
        ["convert", "-", "-o", "-", "-q", "--header", header, "--no-header-output"], in: directory.url,
        input: Data(chunk.utf8))
      #expect(part.status == 1 || part.status == 0, "\(part.standardError)")
      concatenated += part.standardOutput
    }
    let wholeLines = whole.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(wholeLines.first == "\(header),fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error")
    #expect(wholeLines.dropFirst().joined(separator: "\n") == concatenated)
    #expect(concatenated.split(separator: "\n").count == lines.count)
  }

  /// The report of a run, decoded.
  static func report(_ name: String, in directory: TemporaryDirectory) throws -> RunReport {
    try JSONDecoder().decode(RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent(name)))
  }

  // Each chunk's --report, merged, is the whole run's report but for `files` (per run: the merged report lists
  // every chunk's file; their counts add up to the whole's). Under each rounding mode, as the reconciliation's
  // exact total is rounded with it; crosses (USD→GBP) make products that are not finite decimals.
  @Test(arguments: ["half-up", "half-even", "down", "up"])
  func mergedChunkReportsEqualOneRunsReport(rounding: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = Self.records(count: 6_000, seed: 1103)
    let header = Self.fields.joined(separator: ",")
    _ = try directory.write("whole.csv", header + "\n" + lines.map { $0 + "\n" }.joined())
    let whole = try cli.run(
      ["convert", "whole.csv", "-o", "whole.out.csv", "-q", "--rounding", rounding, "--report", "whole.json"],
      in: directory.url)
    #expect(whole.status == 1)
    var names: [String] = []
    for (index, chunk) in Self.chunks(of: lines, parts: 4).enumerated() {
      _ = try directory.write("part-\(index).csv", chunk)
      let part = try cli.run(
        [
          "convert", "part-\(index).csv", "-o", "part-\(index).out.csv", "-q", "--header", header, "--no-header-output",
          "--rounding", rounding, "--report", "part-\(index).json",
        ], in: directory.url)
      #expect(part.status <= 1, "\(part.standardError)")
      names.append("part-\(index).json")
    }
    let merge = try cli.run(["report", "merge"] + names + ["-o", "total.json"], in: directory.url)
    #expect(merge.status == 0, "\(merge.standardError)")
    var merged = try Self.report("total.json", in: directory)
    let single = try Self.report("whole.json", in: directory)
    #expect(merged.files.map(\.input) == names.map { $0.replacingOccurrences(of: ".json", with: ".csv") })
    var counts = RunReport.Counts()
    for file in merged.files { counts.add(file.counts) }
    #expect(counts == single.files[0].counts)
    #expect(single.reconciliation.count >= 7)
    #expect(single.unroundedTotals?.contains { $0.inexactTerms > 0 } == true, "crosses are not finite decimals")
    merged.files = single.files
    #expect(merged == single)
    // A part that ran under another rounding is refused.
    _ = try cli.run(
      [
        "convert", "part-0.csv", "-o", "other.csv", "-q", "--header", header, "--rounding", rounding == "up" ? "down" : "up",
        "--report", "other.json",
      ], in: directory.url)
    let refused = try cli.run(["report", "merge", "part-1.json", "other.json", "-o", "bad.json"], in: directory.url)
    #expect(refused.status == 2)
    #expect(
      refused.standardError.contains(
        "other.json: its rounding (\(rounding == "up" ? "down" : "up")) differs from part-1.json's (\(rounding))"),
      "\(refused.standardError)")
  }

  // A report changed by hand, with counts that would overflow, or merged twice is refused (exit 2, one line),
  // never added up: the merge has only the reports to go by.
  @Test func tamperedOrRepeatedReportsAreRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = Self.records(count: 400, seed: 77)
    let header = Self.fields.joined(separator: ",")
    for (index, chunk) in Self.chunks(of: lines, parts: 2).enumerated() {
      _ = try directory.write("part-\(index).csv", chunk)
      _ = try cli.run(
        [
          "convert", "part-\(index).csv", "-o", "part-\(index).out.csv", "-q", "--header", header, "--report",
          "part-\(index).json",
        ],
        in: directory.url)
    }
    let good = try cli.run(["report", "merge", "part-0.json", "part-1.json", "-o", "total.json"], in: directory.url)
    #expect(good.status == 0, "\(good.standardError)")
    let original = try String(contentsOf: directory.url.appendingPathComponent("part-1.json"), encoding: .utf8)
    let report = try Self.report("part-1.json", in: directory)
    let records = report.totals.records
    let edits: [(String, String, String)] = [
      ("\"records\" : \(records)", "\"records\" : \(records + 1)", "not its ok, fallback and error records added up"),
      ("\"records\" : \(records)", "\"records\" : 9223372036854775807", "a count out of range"),
      ("\"exitStatus\" : \(report.exitStatus)", "\"exitStatus\" : 99", "exit status 99"),
    ]
    for (number, (from, to, message)) in edits.enumerated() {
      #expect(original.contains(from), "\(from)")
      _ = try directory.write("edited-\(number).json", original.replacingOccurrences(of: from, with: to))
      let refused = try cli.run(
        ["report", "merge", "part-0.json", "edited-\(number).json", "-o", "bad.json"], in: directory.url)
      #expect(refused.status == 2, "\(to)")
      #expect(refused.standardError.contains(message), "\(refused.standardError)")
    }
    _ = try directory.write("copy.json", original)
    for twice in [["part-1.json", "part-1.json"], ["part-1.json", "./part-1.json"], ["part-1.json", "copy.json"]] {
      let refused = try cli.run(["report", "merge"] + twice + ["-o", "bad.json"], in: directory.url)
      #expect(refused.status == 2)
      #expect(refused.standardError.contains("the same report as part-1.json"), "\(refused.standardError)")
    }
    _ = try directory.write("broken.json", "{\"files\": []}")
    let broken = try cli.run(["report", "merge", "part-0.json", "broken.json", "-o", "bad.json"], in: directory.url)
    #expect(broken.status == 2)
    #expect(broken.standardError.contains("not a report fxbatch wrote (no "), "\(broken.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/bad.json"))
  }

  // A merged report given again with one of its parts (or two merged reports sharing a part) was merged: its
  // files list the part's, so their records were counted twice (5 records of 3, every total doubled for the
  // part's currencies). A file the same in every figure in two parts is refused; files without records are not.
  @Test func aMergedReportWithOneOfItsPartsIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = Self.fields.joined(separator: ",")
    for (index, chunk) in Self.chunks(of: Self.records(count: 60, seed: 9), parts: 3).enumerated() {
      _ = try directory.write("part-\(index).csv", chunk)
      _ = try cli.run(
        ["convert", "part-\(index).csv", "-o", "-", "-q", "--header", header, "--report", "part-\(index).json"],
        in: directory.url)
    }
    let merged = try cli.run(["report", "merge", "part-0.json", "part-1.json", "-o", "m01.json"], in: directory.url)
    #expect(merged.status == 0, "\(merged.standardError)")
    let other = try cli.run(["report", "merge", "part-1.json", "part-2.json", "-o", "m12.json"], in: directory.url)
    #expect(other.status == 0, "\(other.standardError)")
    for (parts, message) in [
      (["m01.json", "part-1.json"], "part-1.json: its file part-1.csv is counted in m01.json already"),
      (["part-0.json", "m01.json"], "m01.json: its file part-0.csv is counted in part-0.json already"),
      (["m01.json", "m12.json"], "m12.json: its file part-1.csv is counted in m01.json already"),
    ] {
      let refused = try cli.run(["report", "merge"] + parts + ["-o", "total.json"], in: directory.url)
      #expect(refused.status == 2)
      #expect(refused.standardError.contains(message), "\(refused.standardError)")
      #expect(!FileManager.default.fileExists(atPath: directory.path + "/total.json"))
    }
    // -o naming one of the parts (or a link to it) would replace it: refused, the part kept.
    try FileManager.default.createSymbolicLink(atPath: directory.path + "/link.json", withDestinationPath: "m01.json")
    let before = try Data(contentsOf: directory.url.appendingPathComponent("m01.json"))
    for output in ["m01.json", "./m01.json", "link.json"] {
      let overwriting = try cli.run(["report", "merge", "m01.json", "part-2.json", "-o", output], in: directory.url)
      #expect(overwriting.status == 64)
      #expect(
        overwriting.standardError.contains("-o \(output): is the report m01.json, which is merged, not replaced"),
        "\(overwriting.standardError)")
      #expect(try Data(contentsOf: directory.url.appendingPathComponent("m01.json")) == before)
    }
    let whole = try cli.run(["report", "merge", "m01.json", "part-2.json", "-o", "total.json"], in: directory.url)
    #expect(whole.status == 0, "\(whole.standardError)")
    #expect(try Self.report("total.json", in: directory).totals.records == 60)
  }

  // Two empty partitions read from standard input (Spark leaves many) write reports alike in every value: the
  // merge refused the whole job as 'the same report'. Reports without records add nothing and are merged.
  @Test func reportsOfEmptyPartitionsAreMerged() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = Self.fields.joined(separator: ",")
    let lines = Self.records(count: 30, seed: 3)
    _ = try directory.write("all.csv", ([header] + lines).joined(separator: "\n") + "\n")
    #expect(try cli.run(["rates", "lock", "all.csv", "-o", "rates.lock"], in: directory.url).status == 0)
    let chunk = ["convert", "-", "-o", "-", "-q", "--lock", "rates.lock", "--frozen", "--header", header, "--delimiter", ","]
    for (index, input) in ["", lines.joined(separator: "\n") + "\n", ""].enumerated() {
      let run = try cli.run(chunk + ["--report", "part-\(index).json"], in: directory.url, input: Data(input.utf8))
      #expect(run.status == 0, "\(run.standardError)")
    }
    let merged = try cli.run(
      ["report", "merge", "part-0.json", "part-1.json", "part-2.json", "-o", "total.json"], in: directory.url)
    #expect(merged.status == 0, "\(merged.standardError)")
    #expect(try Self.report("total.json", in: directory).totals == (try Self.report("part-1.json", in: directory).totals))
    // A part with records given twice is still refused.
    _ = try directory.write("copy.json", try directory.read("part-1.json"))
    let twice = try cli.run(["report", "merge", "part-1.json", "copy.json", "-o", "bad.json"], in: directory.url)
    #expect(twice.status == 2)
    #expect(twice.standardError.contains("the same report as part-1.json"), "\(twice.standardError)")
  }

  // A report file far larger than any fxbatch writes was read whole before it was parsed (a 3 GB sparse file:
  // 6.3 GB of memory, still reading after 30 s): it is refused unread. A report read from a pipe (`<(…)`,
  // /dev/stdin), which was refused as 'cannot be read', is merged.
  @Test func aHugeReportIsRefusedUnreadAndAPipedOneIsMerged() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = Self.fields.joined(separator: ",")
    for (index, chunk) in Self.chunks(of: Self.records(count: 40, seed: 5), parts: 2).enumerated() {
      _ = try directory.write("part-\(index).csv", chunk)
      _ = try cli.run(
        ["convert", "part-\(index).csv", "-o", "-", "-q", "--header", header, "--report", "part-\(index).json"],
        in: directory.url)
    }
    let huge = directory.url.appendingPathComponent("huge.json")
    #expect(FileManager.default.createFile(atPath: huge.path, contents: Data("{".utf8)))
    let handle = try FileHandle(forWritingTo: huge)
    try handle.truncate(atOffset: UInt64(ReportPart.maximumSize) + 1)
    try handle.close()
    let refused = try cli.run(["report", "merge", "part-0.json", "huge.json", "-o", "total.json"], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("huge.json:1:1: error: the report is larger than the 512 MB"), "\(refused.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/total.json"))
    let second = try Data(contentsOf: directory.url.appendingPathComponent("part-1.json"))
    let piped = try cli.run(
      ["report", "merge", "part-0.json", "/dev/stdin", "-o", "piped.json"], in: directory.url, input: second)
    #expect(piped.status == 0, "\(piped.standardError)")
    let files = try cli.run(["report", "merge", "part-0.json", "part-1.json", "-o", "files.json"], in: directory.url)
    #expect(files.status == 0)
    #expect(try Self.report("piped.json", in: directory).totals == (try Self.report("files.json", in: directory).totals))
  }

  // Issue 30: report merge took a part as it said: one whose unrounded total contradicted its own
  // reconciliation (the merged difference came out −10,999.98), a wrong difference, a member given twice (which
  // fxbatch read first and Python and jq last), and a copy written again in another layout, whose counts were
  // added twice. Each part's reconciliation must follow from its own figures, and a part is the same part
  // whatever its bytes.
  @Test func partsWhoseFiguresDisagreeOrRepeatAreRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = Self.fields.joined(separator: ",")
    _ = try directory.write("part-0.csv", "2024-01-05,USD,EUR,12500\n2024-01-05,USD,EUR,10\n2024-01-08,EUR,GBP,100\n")
    _ = try directory.write("part-1.csv", "2024-01-09,USD,EUR,7\n")
    for index in 0..<2 {
      let run = try cli.run(
        ["convert", "part-\(index).csv", "-o", "part-\(index).out.csv", "-q", "--header", header, "--report", "part-\(index).json"],
        in: directory.url)
      #expect(run.status == 0, "\(run.standardError)")
    }
    let original = try String(contentsOf: directory.url.appendingPathComponent("part-0.json"), encoding: .utf8)
    #expect(original.contains(#""total" : "11454.99496383115099349875""#), "\(original)")
    let edits: [(String, String, String)] = [
      (
        #""total" : "11454.99496383115099349875""#, #""total" : "22454.99496383115099349875""#,
        "the exact EUR total rounded, 11454.99, is not its unrounded total 22454.99496383115099349875 rounded (22454.99)"
      ),
      (#""difference" : "0.01""#, #""difference" : "0.02""#, "the EUR difference 0.02 is not its rounded total less its exact total (0.01)"),
      (
        #""exactTotalRounded" : "11454.99""#, #""exactTotalRounded" : "454.99""#,
        "is not its unrounded total 11454.99496383115099349875 rounded"
      ),
      (#""ok" : 3,"#, #""ok" : 3, "ok" : 0,"#, "the member files[0].counts.ok occurs twice"),
      // The reconciliation's member (a currency total has a "records" member too).
      (
        #""records" : 2,\#n          "roundedRecordsTotal""#,
        #""records" : 2, "records" : 1,\#n          "roundedRecordsTotal""#,
        "the member files[0].reconciliation[0].records occurs twice"
      ),
    ]
    for (number, (from, to, message)) in edits.enumerated() {
      #expect(original.contains(from), "\(from)")
      _ = try directory.write("edited-\(number).json", original.replacingOccurrences(of: from, with: to))
      let refused = try cli.run(["report", "merge", "edited-\(number).json", "part-1.json", "-o", "bad.json"], in: directory.url)
      #expect(refused.status == 2, "\(to)")
      #expect(refused.standardError.contains(message), "\(refused.standardError)")
    }
    // The run's figures and its files' disagree (the file's reconciliation edited, the run's not).
    let first = try #require(original.range(of: #""roundedRecordsTotal" : "86.15""#))
    _ = try directory.write("file-only.json", original.replacingCharacters(in: first, with: #""roundedRecordsTotal" : "96.15""#))
    let fileOnly = try cli.run(["report", "merge", "file-only.json", "part-1.json", "-o", "bad.json"], in: directory.url)
    #expect(fileOnly.status == 2)
    #expect(fileOnly.standardError.contains("its sum of rounded GBP amounts is not its files' added up"), "\(fileOnly.standardError)")
    // A copy written again (compact, members in another order) is the same part.
    let value = try JSONSerialization.jsonObject(with: Data(original.utf8))
    let compact = try JSONSerialization.data(withJSONObject: value, options: [])
    #expect(compact != Data(original.utf8))
    try compact.write(to: directory.url.appendingPathComponent("copy.json"))
    let twice = try cli.run(["report", "merge", "part-0.json", "part-1.json", "copy.json", "-o", "bad.json"], in: directory.url)
    #expect(twice.status == 2)
    #expect(twice.standardError.contains("copy.json:1:1: error: the same report as part-0.json"), "\(twice.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/bad.json"))
    // The honest parts merge, the copy alone with the other too.
    let merged = try cli.run(["report", "merge", "copy.json", "part-1.json", "-o", "total.json"], in: directory.url)
    #expect(merged.status == 0, "\(merged.standardError)")
    #expect(try Self.report("total.json", in: directory).totals.records == 4)
  }

  // Standard input under a local table with the decimal mark given is read once, without a copy: with $TMPDIR a
  // directory that does not exist (where the copy would go: a run that made one would fail, status 2) it
  // converts, as the copied run (no --decimal-separator) does.
  @Test func standardInputStreamsInOnePassUnderATable() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = Self.records(count: 5_000, seed: 42)
    let input = Data(lines.map { $0 + "\n" }.joined().utf8)
    let header = ["--header", Self.fields.joined(separator: ","), "--no-header-output"]
    let copied = try cli.run(["convert", "-", "-o", "-", "-q"] + header, in: directory.url, input: input)
    #expect(copied.status == 1)
    var noTemporaryDirectory = cli
    noTemporaryDirectory.environment["TMPDIR"] = directory.path + "/missing"
    let streamed = try noTemporaryDirectory.run(
      ["convert", "-", "-o", "-", "-q", "--decimal-separator", "."] + header, in: directory.url, input: input)
    #expect(streamed.status == 1, "\(streamed.standardError)")
    #expect(streamed.standardOutput == copied.standardOutput)
  }

  @Test func headerOutputIsTheGivenNamesAndFileInputWorksToo() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = Self.records(count: 50, seed: 7)
    _ = try directory.write(
      "whole.csv", "date;from;to;amount\n" + lines.map { $0.replacingOccurrences(of: ",", with: ";") + "\n" }.joined())
    _ = try directory.write("body.csv", lines.map { $0.replacingOccurrences(of: ",", with: ";") + "\n" }.joined())
    let whole = try cli.run(["convert", "whole.csv", "-o", "-", "-q"], in: directory.url)
    let body = try cli.run(["convert", "body.csv", "-o", "-", "-q", "--header", "date,from,to,amount"], in: directory.url)
    #expect(body.status == whole.status)
    #expect(body.standardOutput == whole.standardOutput, "the header is written with the file's delimiter")
  }

  @Test func headerIsRefusedForJSONLinesAndChecked() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("a.jsonl", #"{"date":"2024-01-02","from":"USD","to":"EUR","amount":"1"}"# + "\n")
    let refused = try cli.run(["convert", "a.jsonl", "-o", "-", "--header", "date,from,to,amount"], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("--header names the fields of CSV input"))
    let plain = try cli.run(["convert", "a.jsonl", "-o", "-", "-q", "--no-header-output"], in: directory.url)
    #expect(plain.status == 0)
    #expect(plain.standardOutput.hasPrefix(#"{"date":"2024-01-02""#))
    // A workbook keeps its header row: refused rather than ignored.
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Samples")
    try FileManager.default.copyItem(
      atPath: samples.appendingPathComponent("expenses.xlsx").path, toPath: directory.path + "/b.xlsx")
    let workbook = try cli.run(["convert", "b.xlsx", "-o", "b.out.xlsx", "--no-header-output"], in: directory.url)
    #expect(workbook.status == 2)
    #expect(workbook.standardError.contains("--no-header-output leaves out a CSV copy's header line"))
    let twice = try cli.run(["convert", "a.jsonl", "--header", "a,b,a"], in: directory.url)
    #expect(twice.status == 64)
    #expect(twice.standardError.contains("a is named twice"))
  }
}
