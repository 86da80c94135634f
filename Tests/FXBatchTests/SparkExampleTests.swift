import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Examples/spark/fxbatch_spark.py under Spark in local mode (`pyspark` from PyPI in `Tests/.venv`, which
/// `.ci/run` installs, and Java 17): a seeded dataset in several partitions, each piped through the one shipped
/// binary with the one lock file, gives the records and the merged report of one fxbatch run over the whole
/// file; convert options after `--` reach every partition; a failed partition is named with its lines and
/// fxbatch's message names the line in the whole input. Every job runs in one Spark session (one JVM start: the
/// session costs most of the time). Skipped, saying so, where pyspark or Java is absent.
@Suite("Spark example", .serialized)
struct SparkExampleTests {
  static let python: String? = TestTools.python(importing: "pyspark")
  static let java: String? = TestTools.onPath("java")

  /// The example script in the repository.
  static var script: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/spark/fxbatch_spark.py").path
  }

  /// Runs the example's `main` once per job in one Python process and one Spark session; the jobs' statuses.
  static let harness = """
    import json, os, runpy, sys
    script, jobs = sys.argv[1], json.loads(sys.argv[2])
    # Loaded under a name no module has, so that Spark ships its functions to the Python workers by value.
    example = runpy.run_path(script, run_name="fxbatch_spark_example")
    from pyspark.sql import SparkSession
    spark = SparkSession.builder.master("local[2]").appName("fxbatch-tests").getOrCreate()
    statuses = []
    for job in jobs:
        os.chdir(job["directory"])
        sys.stderr.write("\\n=== job " + job["name"] + "\\n")
        statuses.append(example["main"](job["argv"], spark=spark))
    spark.stop()
    print(json.dumps(statuses))
    """

  /// One job: the example's arguments, run in `directory`.
  struct Job: Encodable {
    let name: String
    let directory: String
    let argv: [String]
  }

  static func jobArguments(
    _ cli: CLIRunner, lock: String, input: String, partitions: Int, convert: [String] = [], name: String
  ) -> [String] {
    [
      "--fxbatch", cli.executable.path, "--lock", lock, "--input", input, "--output", "out-\(name)", "--reports",
      "reports-\(name)", "--report", "total-\(name).json", "--partitions", "\(partitions)",
    ] + (convert.isEmpty ? [] : ["--"] + convert)
  }

  /// The part files of a job's output, concatenated in partition order.
  static func sparkOutput(_ directory: TemporaryDirectory, _ name: String) throws -> String {
    let output = directory.url.appendingPathComponent(name)
    let parts = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasPrefix("part-") }.sorted()
    var concatenated = ""
    for part in parts { concatenated += try String(contentsOf: output.appendingPathComponent(part), encoding: .utf8) }
    return concatenated
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

    // Data without a to-currency field, a header name holding the delimiter, and no final newline: the options
    // after `--` (`--to EUR --amount-field …`) go to every partition. The lock is made with them too.
    let convert = ["--to", "EUR", "--amount-field", "Total\\, EUR"]
    let currencies = ["USD", "GBP", "CHF", "JPY", "XXQ"]
    let small =
      ["date,\"Total, EUR\",currency"]
      + (0..<60).map { index in
        "2024-0\(1 + index % 9)-\(10 + index % 15),\(index * 37 % 9_000).\(10 + index % 89),\(currencies[index % 5])"
      }
    _ = try directory.write("small.csv", small.joined(separator: "\n"))
    let smallLock = try cli.run(["rates", "lock", "-q", "small.csv", "-o", "small.lock"] + convert, in: directory.url)
    #expect(smallLock.status == 0, "\(smallLock.standardError)")
    let smallSingle = try cli.run(
      ["convert", "-q", "small.csv", "-o", "small.out.csv", "--lock", "small.lock", "--frozen", "--report", "small.json"]
        + convert, in: directory.url)
    #expect(smallSingle.status == 1, "XXQ is no currency")
    // The same data with a quote never closed on line 40: the partition holding it fails, named with its lines.
    var bad = small
    bad[39] = "2024-01-09,\"7,USD"
    _ = try directory.write("bad.csv", bad.joined(separator: "\n") + "\n")
    _ = try directory.write("bad.lock", try directory.read("small.lock"))

    let jobs = [
      Job(
        name: "big", directory: directory.path,
        argv: Self.jobArguments(cli, lock: "rates.lock", input: "data.csv", partitions: 6, name: "big")),
      Job(
        name: "small", directory: directory.path,
        argv: Self.jobArguments(
          cli, lock: "small.lock", input: "small.csv", partitions: 3, convert: convert, name: "small")),
      Job(
        name: "bad", directory: directory.path,
        argv: Self.jobArguments(cli, lock: "bad.lock", input: "bad.csv", partitions: 3, convert: convert, name: "bad")),
      // Refused before Spark runs a partition: an option the job sets, and one fxbatch refuses.
      Job(
        name: "job-option", directory: directory.path,
        argv: Self.jobArguments(
          cli, lock: "small.lock", input: "small.csv", partitions: 3, convert: ["--lock", "other.lock"], name: "o1")),
      Job(
        name: "usage", directory: directory.path,
        argv: Self.jobArguments(
          cli, lock: "small.lock", input: "small.csv", partitions: 3, convert: ["--to", "EURO"], name: "o2")),
    ]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", Self.harness, Self.script, String(decoding: try JSONEncoder().encode(jobs), as: UTF8.self)]
    process.currentDirectoryURL = directory.url
    var environment = ProcessInfo.processInfo.environment
    environment["FXBATCH_TODAY"] = cli.environment["FXBATCH_TODAY"]
    environment["TMPDIR"] = directory.path
    process.environment = environment
    let errors = Pipe()
    let output = Pipe()
    process.standardError = errors
    process.standardOutput = output
    try process.run()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let errorText = String(decoding: errorData, as: UTF8.self)
    try #require(process.terminationStatus == 0, "the Spark jobs failed: \(errorText.suffix(3000))")
    let statuses = try JSONDecoder().decode([Int].self, from: Data((outputText.split(separator: "\n").last ?? "").utf8))
    // As one fxbatch run: 1 when records failed on their own data, 2 a refused input, 64 a usage error.
    #expect(statuses == [1, 1, 2, 64, 64], "\(errorText.suffix(3000))")

    // The partitions' copies, concatenated in partition order: one run's records, record for record.
    let concatenated = try Self.sparkOutput(directory, "out-big")
    let expected = try directory.read("single.csv")
    let expectedRecords = expected.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
    let sparkRecords = concatenated.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(sparkRecords.count == expectedRecords.count)
    #expect(sparkRecords.elementsEqual(expectedRecords))

    // The merged report: one run's, but for `files` (one per partition).
    let decoder = JSONDecoder()
    var merged = try decoder.decode(
      RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("total-big.json")))
    let whole = try decoder.decode(RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("single.json")))
    #expect(merged.files.count >= 6)
    #expect(merged.files.allSatisfy { $0.input == "-" && $0.output == "-" })
    #expect(whole.totals.records == lines.count)
    merged.files = whole.files
    #expect(merged == whole)

    // The options after `--`: every record converted to EUR from its Total, as the single run converts them. A
    // part file ends every record with a newline; the last record's is the one the input lacks.
    let smallRecords = try directory.read("small.out.csv").split(separator: "\n", omittingEmptySubsequences: false)
      .dropFirst()
    let sparkSmall = try Self.sparkOutput(directory, "out-small")
    #expect(sparkSmall.hasSuffix("\n"))
    #expect(sparkSmall.dropLast().split(separator: "\n", omittingEmptySubsequences: false).elementsEqual(smallRecords))
    #expect(smallRecords.count == 60)
    #expect(
      smallRecords.filter { $0.hasSuffix(",ok,") || $0.hasSuffix(",fallback,") }.count == 48,
      "\(smallRecords.prefix(3))")
    var smallMerged = try decoder.decode(
      RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("total-small.json")))
    let smallWhole = try decoder.decode(
      RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("small.json")))
    smallMerged.files = smallWhole.files
    #expect(smallMerged == smallWhole)

    // The failed partition: its lines in the input, fxbatch's status, and its message at line 40 of the input
    // (--first-line), never line 0 or a line of the partition.
    let failure = try #require(
      errorText.firstMatch(
        of:
          #/fxbatch_spark\.py: partition (\d+) \(lines (\d+)-(\d+) of bad\.csv\): fxbatch exited 2 \(file-refused\)\n-:40:12: error: quoted field is never closed/#
      ),
      "\(errorText.suffix(3000))")
    let (first, last) = (Int(failure.output.2) ?? 0, Int(failure.output.3) ?? 0)
    #expect(first <= 40 && 40 <= last && first >= 2, "\(failure.output.0)")
    #expect(errorText.contains("fxbatch_spark.py: --lock after --: give the lock with --lock before --"))
    #expect(errorText.contains("--to EURO: not an ISO 4217 currency code"), "\(errorText.suffix(3000))")
  }
}
