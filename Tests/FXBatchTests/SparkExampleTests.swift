import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Examples/spark/fxbatch_spark.py under Spark in local mode (`pyspark` from PyPI in `Tests/.venv`, which
/// `.ci/run` installs, and Java 17): a seeded dataset in several partitions, each piped through the one shipped
/// binary with the one lock file, gives the records and the merged report of one fxbatch run over the whole
/// file. Skipped where pyspark or Java is absent.
@Suite("Spark example", .serialized)
struct SparkExampleTests {
  static let python: String? = TestTools.python(importing: "pyspark")
  static let java: String? = TestTools.onPath("java")

  /// The example script in the repository.
  static var script: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/spark/fxbatch_spark.py").path
  }

  @Test(.enabled(if: python != nil && java != nil, "needs pyspark in Tests/.venv and java on the PATH"))
  func partitionedSparkJobEqualsOneRun() throws {
    let cli = try CLIRunner()
    let python = try #require(Self.python)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = PartitionedRunTests.records(count: 300_000, seed: 2026)
    let header = PartitionedRunTests.fields.joined(separator: ",")
    _ = try directory.write("data.csv", header + "\n" + lines.map { $0 + "\n" }.joined())
    let locked = try cli.run(["rates", "lock", "-q", "data.csv", "-o", "rates.lock"], in: directory.url)
    #expect(locked.status == 0, "\(locked.standardError)")
    let single = try cli.run(
      ["convert", "-q", "data.csv", "-o", "single.csv", "--lock", "rates.lock", "--frozen", "--report", "single.json"],
      in: directory.url)
    #expect(single.status == 1, "the generator writes failing records")

    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      Self.script, "--fxbatch", cli.executable.path, "--lock", "rates.lock", "--input", "data.csv", "--output", "out",
      "--reports", "reports", "--report", "total.json", "--partitions", "6", "--master", "local[2]",
    ]
    process.currentDirectoryURL = directory.url
    var environment = ProcessInfo.processInfo.environment
    environment["FXBATCH_TODAY"] = cli.environment["FXBATCH_TODAY"]
    environment["TMPDIR"] = directory.path
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "the Spark job failed: \(errorText.suffix(3000))")

    // The partitions' copies, concatenated in partition order: one run's records, record for record.
    let output = directory.url.appendingPathComponent("out")
    let parts = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix("part-") }.sorted()
    #expect(parts.count >= 6)
    var concatenated = ""
    for part in parts { concatenated += try String(contentsOf: output.appendingPathComponent(part), encoding: .utf8) }
    let expected = try directory.read("single.csv")
    let expectedRecords = expected.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
    let sparkRecords = concatenated.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(sparkRecords.count == expectedRecords.count)
    #expect(sparkRecords.elementsEqual(expectedRecords))

    // The merged report: one run's, but for `files` (one per partition).
    let decoder = JSONDecoder()
    var merged = try decoder.decode(RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("total.json")))
    let whole = try decoder.decode(RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("single.json")))
    #expect(merged.files.count >= 6)
    #expect(merged.files.allSatisfy { $0.input == "-" && $0.output == "-" })
    #expect(whole.totals.records == lines.count)
    merged.files = whole.files
    #expect(merged == whole)
  }
}
