import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

@testable import FXBatch

/// The one parts runner: parts' outputs joined in order, findings in order, errors in part order, no temporary
/// file left behind.
@Suite("Parts runner", .tags(.sanitized))
struct PartsRunnerTests {
  struct PartFailed: Error, Equatable { let part: Int }

  private static let prefix = "fxbatch-runner-test-part"

  private static func leftBehind() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix(prefix) }
  }

  @Test(arguments: [1, 2, 3, 8])
  func outputsAreJoinedInPartOrder(parts: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = (directory.path as NSString).appendingPathComponent("out.txt")
    let file = try AtomicFile(path: path)
    let results = try PartsRunner.convert(parts: parts, into: file.sink, temporaryPrefix: Self.prefix) { part, sink in
      // Part 0 writes more than the sink buffers, so its own writes interleave with nothing.
      let line = String(repeating: "\(part)", count: part == 0 ? 300_000 : 3) + "\n"
      try sink.write(line)
      try sink.flush()
      return part * 10
    }
    try file.commit()
    #expect(results == (0..<parts).map { $0 * 10 })
    let expected = (0..<parts).map { String(repeating: "\($0)", count: $0 == 0 ? 300_000 : 3) + "\n" }.joined()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    #expect(try Self.leftBehind().isEmpty)
  }

  @Test func theFirstFailingPartInPartOrderIsThrownAndNothingIsLeftBehind() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try AtomicFile(path: (directory.path as NSString).appendingPathComponent("out.txt"))
    defer { file.discard() }
    #expect(throws: PartFailed(part: 2)) {
      _ = try PartsRunner.convert(parts: 5, into: file.sink, temporaryPrefix: Self.prefix) { part, sink in
        try sink.write("part \(part)\n")
        if part == 2 || part == 4 { throw PartFailed(part: part) }
        return part
      }
    }
    #expect(try Self.leftBehind().isEmpty)
  }

  @Test func scanGivesEveryPartsFindingsInOrder() {
    let results = PartsRunner.scan(parts: 6) { part -> Int in
      if part == 3 { throw PartFailed(part: 3) }
      return part * part
    }
    #expect(results.count == 6)
    for (part, result) in results.enumerated() {
      if part == 3 {
        #expect(throws: PartFailed(part: 3)) { try result.get() }
      } else {
        #expect((try? result.get()) == part * part)
      }
    }
  }

  // Found by trying to break it: `kill -9` left part files in $TMPDIR. A part's file has no name from the start.
  @Test func aPartsFileHasNoNameAndReadsBackWhatWasWritten() throws {
    let descriptor = try UnnamedTemporaryFile.create(prefix: Self.prefix)
    defer { close(descriptor) }
    #expect(try Self.leftBehind().isEmpty, "unlinked as soon as it is made")
    let sink = ByteSink(descriptor: descriptor)
    try sink.write("part one\n")
    try sink.flush()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = (directory.path as NSString).appendingPathComponent("out.txt")
    let file = try AtomicFile(path: path)
    try file.sink.write("head\n")
    try PartsRunner.append(descriptor, to: file.sink)
    try file.commit()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "head\npart one\n")
  }

  /// Issue 30: a part whose temporary file cannot be made (here `$TMPDIR` does not exist; a full one fails its
  /// writes, see ``PartsWithoutRoomTests``) was the file's "cannot write the output". It is converted again in
  /// its turn, straight into the output: the same bytes and results, in order.
  @Test(arguments: [2, 3, 8])
  func aPartWithoutATemporaryFileIsConvertedInItsTurn(parts: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = (directory.path as NSString).appendingPathComponent("out.txt")
    let file = try AtomicFile(path: path)
    let calls = Mutex<[Int]>([])
    let results = try PartsRunner.convert(
      parts: parts, into: file.sink, temporaryPrefix: Self.prefix,
      temporaryDirectory: directory.url.appendingPathComponent("missing").path
    ) { part, sink in
      calls.withLock { $0.append(part) }
      try sink.write(String(repeating: "\(part)", count: part == 0 ? 300_000 : 3) + "\n")
      return part * 10
    }
    try file.commit()
    #expect(results == (0..<parts).map { $0 * 10 })
    let expected = (0..<parts).map { String(repeating: "\($0)", count: $0 == 0 ? 300_000 : 3) + "\n" }.joined()
    #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    // Parts after the first had no file to write: each is converted after the parallel run, in part order.
    #expect(calls.withLock { $0 } == Array(0..<parts))
  }

  /// A part that fails for its own reasons still fails the file, in part order, when it is converted again.
  @Test func aPartsOwnErrorIsStillThrownWithoutATemporaryFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try AtomicFile(path: (directory.path as NSString).appendingPathComponent("out.txt"))
    defer { file.discard() }
    #expect(throws: PartFailed(part: 2)) {
      _ = try PartsRunner.convert(
        parts: 4, into: file.sink, temporaryPrefix: Self.prefix,
        temporaryDirectory: directory.url.appendingPathComponent("missing").path
      ) { part, sink in
        try sink.write("part \(part)\n")
        if part >= 2 { throw PartFailed(part: part) }
        return part
      }
    }
  }
}

/// Issue 30: with `$TMPDIR` full (its writes failing: past `ulimit -f` here) or missing, a file converted in
/// parts said "cannot write the output". The parts that cannot be kept are converted again in their turn, so
/// the run writes the output of a run in one pass.
@Suite("parts runner: no room in $TMPDIR")
struct PartsWithoutRoomTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// Runs `sh -c SCRIPT fxbatch` (the script runs `"$0"`, the binary) in a directory: standard output read
  /// through a pipe (which `ulimit -f` does not limit), standard error from a file.
  func run(_ script: String, in directory: TemporaryDirectory, environment: [String: String]) throws -> (
    status: Int32, output: Data, errors: String
  ) {
    let errorPath = directory.url.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: errorPath.path, contents: nil)
    let errors = try FileHandle(forWritingTo: errorPath)
    defer { try? errors.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, cli.executable.path]
    process.currentDirectoryURL = directory.url
    process.environment = cli.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, data, (try? String(contentsOf: errorPath, encoding: .utf8)) ?? "")
  }

  /// A file of about 9 MB (converted in parts from 8 MiB) in CSV or JSON Lines.
  static func bigFile(_ format: String) -> String {
    let currencies = ["USD", "GBP", "JPY", "CHF"]
    var text = format == "csv" ? "date,amount,from,to\n" : ""
    for index in 0..<(format == "csv" ? 370_000 : 150_000) {
      let (day, amount, to) = (2 + index % 3, "\(index % 10_000).\(index % 90 + 10)", currencies[index % 4])
      text +=
        format == "csv"
        ? "2020-01-0\(day),\(amount),EUR,\(to)\n"
        : #"{"date":"2020-01-0\#(day)","amount":\#(amount),"from":"EUR","to":"\#(to)"}"# + "\n"
    }
    return text
  }

  @Test(arguments: ["csv", "jsonl"])
  func aFileInPartsIsWrittenInOnePassWhenTheTemporaryDirectoryHasNoRoom(format: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(Self.bigFile(format), named: "in.\(format)")
    let convert = "exec \"$0\" convert -q in.\(format) -o -"
    let expected = try run(convert, in: directory, environment: [:])
    #expect(expected.status == 0, "\(expected.errors)")
    #expect(expected.output.count > 8 << 20)
    // $TMPDIR missing: no part file can be made.
    let missing = try run(convert, in: directory, environment: ["TMPDIR": directory.path + "/missing"])
    #expect(missing.status == 0, "\(missing.errors)")
    #expect(missing.output == expected.output)
    // Part files past 1,000 blocks fail their writes (EFBIG, as ENOSPC on a full disk); standard output, a pipe,
    // is not limited.
    let full = try run("ulimit -f 1000; " + convert, in: directory, environment: [:])
    #expect(full.status == 0, "\(full.errors)")
    #expect(full.output == expected.output)
    #expect(!full.errors.contains("cannot write"))
  }
}
