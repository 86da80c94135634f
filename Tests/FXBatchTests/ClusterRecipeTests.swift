import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// docs/cluster.md's recipes, each a test: the script under its `# recipe: NAME` line, taken from the page as it
/// is, run on a small file (2,500 records in chunks of 700, no final newline) against the debug binary gives
/// one run's records and, merged, its report; a chunk with a quote never closed stops it with the chunk's first
/// line and fxbatch's message at the line of the whole file. Hadoop Streaming's mapper too. Skipped, saying so,
/// where a recipe's tool is absent.
@Suite("cluster recipes", .serialized)
struct ClusterRecipeTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static var page: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/cluster.md")
  }

  /// The script of the recipe `name`: its code block from the `# recipe:` line on.
  static func recipe(_ name: String) throws -> String {
    let text = try String(contentsOf: page, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex(of: "# recipe: \(name)"), "docs/cluster.md has no recipe \(name)")
    let end = try #require(lines[start...].firstIndex { $0.hasPrefix("```") })
    return lines[start..<end].joined(separator: "\n") + "\n"
  }

  @Test(.enabled(if: TestTools.onPath("split") != nil && TestTools.onPath("xargs") != nil, "needs split and xargs"))
  func splitAndXargs() throws {
    try check("split-xargs", failedChunk: "part-000002 (from line 1402 of data.csv)")
  }

  @Test(.enabled(if: TestTools.onPath("parallel") != nil, "needs GNU parallel (Debian parallel, which .ci/run installs)"))
  func gnuParallel() throws {
    try check("parallel-pipe", failedChunk: "chunk 3 (from line 1402 of data.csv)")
  }

  // Hadoop Streaming's mapper, as the page gives it (the `-mapper "…"` string as the shell hands it to Hadoop,
  // which splits it at spaces outside quotes, as `sh` does here): a chunk whose records fail on their own data
  // passes (0, not fxbatch's 1, which would fail the task), a refused chunk fails with fxbatch's 2.
  @Test func hadoopStreamingMapperPassesRecordErrorsAndFailsRefusals() throws {
    let text = try String(contentsOf: Self.page, encoding: .utf8)
    let line = try #require(
      text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("-mapper \"") })
    var mapper = line.trimmingCharacters(in: .whitespaces).dropFirst("-mapper \"".count)
    #expect(mapper.hasSuffix("\""))
    mapper = mapper.dropLast()
    let command = mapper.replacingOccurrences(of: "\\$", with: "$")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = PartitionedRunTests.fields.joined(separator: ",")
    #expect(command.contains("--header \(header)"))
    let records = PartitionedRunTests.records(count: 800, seed: 34)
    _ = try directory.write("data.csv", header + "\n" + records.map { $0 + "\n" }.joined())
    _ = try directory.write("chunk.csv", records[400...].map { $0 + "\n" }.joined())
    _ = try directory.write("bad.csv", "2024-01-05,USD,EUR,1\n2024-01-09,USD,EUR,\"7\n")
    try FileManager.default.createSymbolicLink(
      atPath: directory.path + "/fxbatch", withDestinationPath: cli.executable.path)
    let locked = try cli.run(["rates", "lock", "-q", "data.csv", "-o", "rates.lock"], in: directory.url)
    #expect(locked.status == 0, "\(locked.standardError)")
    let single = try cli.run(
      [
        "convert", "-q", "chunk.csv", "-o", "single.csv", "--lock", "rates.lock", "--frozen", "--header", header,
        "--no-header-output",
      ], in: directory.url)
    #expect(single.status == 1, "the generator writes failing records")
    for (input, status) in [("chunk.csv", Int32(0)), ("bad.csv", 2)] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", command]
      process.currentDirectoryURL = directory.url
      process.environment = ["PATH": "/usr/bin:/bin", "FXBATCH_TODAY": cli.environment["FXBATCH_TODAY"] ?? "2026-11-29"]
      process.standardInput = try FileHandle(forReadingFrom: directory.url.appendingPathComponent(input))
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == status, "\(input)")
      if status == 0 { #expect(text == (try directory.read("single.csv"))) }
    }
  }

  /// Runs the recipe on good data and on data with a broken line 1,800.
  func check(_ name: String, failedChunk: String) throws {
    let script = try Self.recipe(name)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = PartitionedRunTests.fields.joined(separator: ",")
    let records = PartitionedRunTests.records(count: 2_500, seed: 33)
    let data = header + "\n" + records.joined(separator: "\n")
    let good = directory.url.appendingPathComponent("good")
    let bad = directory.url.appendingPathComponent("bad")
    for folder in [good, bad] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
    try data.write(to: good.appendingPathComponent("data.csv"), atomically: false, encoding: .utf8)
    var broken = records
    broken[1_798] = "2024-01-09,USD,EUR,\"7"
    try (header + "\n" + broken.joined(separator: "\n")).write(
      to: bad.appendingPathComponent("data.csv"), atomically: false, encoding: .utf8)
    try script.write(to: directory.url.appendingPathComponent("recipe.sh"), atomically: false, encoding: .utf8)

    let locked = try cli.run(["rates", "lock", "-q", "data.csv", "-o", "rates.lock"], in: good)
    #expect(locked.status == 0, "\(locked.standardError)")
    try FileManager.default.copyItem(at: good.appendingPathComponent("rates.lock"), to: bad.appendingPathComponent("rates.lock"))
    let single = try cli.run(
      ["convert", "-q", "data.csv", "-o", "single.csv", "--lock", "rates.lock", "--frozen", "--report", "single.json"],
      in: good)
    #expect(single.status == 1, "the generator writes failing records")

    let run = try runScript(in: good)
    #expect(run.status == 0, "\(run.standardError)")
    // The copies concatenated: one run's records, byte for byte (no final newline, as the input).
    let expected = try String(contentsOf: good.appendingPathComponent("single.csv"), encoding: .utf8)
    let converted = try String(contentsOf: good.appendingPathComponent("converted.csv"), encoding: .utf8)
    #expect(converted == String(expected[expected.index(after: try #require(expected.firstIndex(of: "\n")))...]))
    #expect(!converted.hasSuffix("\n"))
    let decoder = JSONDecoder()
    var merged = try decoder.decode(RunReport.self, from: Data(contentsOf: good.appendingPathComponent("total.json")))
    let whole = try decoder.decode(RunReport.self, from: Data(contentsOf: good.appendingPathComponent("single.json")))
    #expect(merged.files.count == 4)
    merged.files = whole.files
    #expect(merged == whole)

    let failed = try runScript(in: bad)
    #expect(failed.status == 2, "\(failed.standardError)")
    #expect(
      failed.standardError.contains("\(failedChunk): fxbatch exited 2: -:1800:20: error: quoted field is never closed"),
      "\(failed.standardError)")
    #expect(failed.standardError.contains("a chunk failed: nothing merged"))
    #expect(!FileManager.default.fileExists(atPath: bad.appendingPathComponent("total.json").path))
  }

  /// `sh ../recipe.sh` in `directory`, the debug binary first on the PATH.
  func runScript(in directory: URL) throws -> (status: Int32, standardError: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["../recipe.sh"]
    process.currentDirectoryURL = directory
    process.environment = [
      "PATH": cli.executable.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": directory.path,
      "TMPDIR": directory.path, "LINES": "700", "FXBATCH_TODAY": cli.environment["FXBATCH_TODAY"] ?? "2026-11-29",
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }
}
