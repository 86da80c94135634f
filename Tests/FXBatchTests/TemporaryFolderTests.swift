import FXBatchTestSupport
import Foundation
import Testing

/// Issue 33: the test suite removes what it creates in the temporary folder (it left `fxbatch-tests-*`
/// folders behind), and so does `fxbatch` itself.
@Suite("temporary folder")
struct TemporaryFolderTests {
  /// `Tests/`, found from this file's path.
  static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

  /// Where a test makes a ``TemporaryDirectory`` (or takes one from a helper) and never removes it: `file:line`.
  ///
  /// A directory bound to a name (`let directory = try TemporaryDirectory()`, `try Self.directory(…)`) must be
  /// removed (`directory.remove()`) within the lines that follow, before the next test; a helper that returns
  /// it (`-> TemporaryDirectory`, a tuple holding one) hands that duty to its callers, who are checked too.
  static func directoriesNotRemoved(in text: String, file: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let made = /(?:let|var)?\s*\(?(\w+)(?:,\s*\w+\))?\s*=\s*try\s+(?:[\w.]+\.)?(?:TemporaryDirectory\(\)|directory\(|convert\()/
    var found: [String] = []
    for (index, line) in lines.enumerated() {
      guard line.contains("TemporaryDirectory()") || line.contains("directory(") || line.contains("let (directory,"),
        let match = line.firstMatch(of: made)
      else { continue }
      let name = String(match.1)
      guard name == "directory" || name == "own" || line.contains("TemporaryDirectory()") else { continue }
      if line.contains("convert("), !line.contains("(directory,") { continue }
      // A helper returning the directory: its callers remove it.
      let before = lines[max(0, index - 4)..<index].joined(separator: "\n")
      if before.contains("-> TemporaryDirectory") || before.contains("TemporaryDirectory,") { continue }
      var removed = false
      for next in lines[index..<min(lines.count, index + 40)] {
        if next.contains("\(name).remove()") {
          removed = true
          break
        }
        if next.contains("@Test") { break }
      }
      if !removed { found.append("\(file):\(index + 1)") }
    }
    return found
  }

  @Test func everyTestRemovesTheDirectoriesItMakes() throws {
    let enumerator = try #require(FileManager.default.enumerator(at: Self.testsDirectory, includingPropertiesForKeys: nil))
    var checked = 0
    var notRemoved: [String] = []
    for case let url as URL in enumerator
    where url.pathExtension == "swift" && url.lastPathComponent != "TemporaryFolderTests.swift" {
      let text = try String(contentsOf: url, encoding: .utf8)
      guard text.contains("TemporaryDirectory") else { continue }
      checked += 1
      notRemoved += Self.directoriesNotRemoved(in: text, file: url.lastPathComponent)
    }
    #expect(checked > 50, "the tests are not at \(Self.testsDirectory.path)")
    #expect(notRemoved.isEmpty, "made and never removed: \(notRemoved.sorted())")
  }

  // The checker finds what it is for (PartsRunnerTests made three directories and removed none).
  @Test func theCheckerFindsADirectoryNotRemoved() {
    let leaky = """
      @Test func a() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a", "b")
      }

      @Test func b() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
      }

      static func make() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        return directory
      }

      @Test func c() throws {
        let directory = try Self.make()
        #expect(true)
      }

      @Test func d() throws {
        let directory = try Self.directory(with: [])
        defer { directory.remove() }
      }
      """
    #expect(Self.directoriesNotRemoved(in: leaky, file: "Leaky.swift") == ["Leaky.swift:2"])
  }

  // A suite-like workload of the binary — standard input copied to $TMPDIR to be read twice, a file refused, a
  // report merged — leaves $TMPDIR as it found it.
  @Test func fxbatchLeavesItsTemporaryFolderAsItFoundIt() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let scratch = directory.url.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    var runner = cli
    runner.environment["TMPDIR"] = scratch.path
    let lines = #"{"date":"2024-03-01","amount":"10","currency":"USD"}"# + "\n"
    let piped = try runner.run(
      ["convert", "--format", "jsonl", "--to", "EUR", "-", "-o", "-"], in: directory.url, input: Data(lines.utf8))
    #expect(piped.status == 0, "\(piped.standardError)")
    #expect(piped.standardOutput.contains("\"fx_status\":\"ok\""))
    try directory.write("a.csv", "date,amount,currency\n2024-03-01,10,USD\n")
    let refused = try runner.run(["convert", "--to", "EUR", "--report", "a.json", "a.csv", "missing.csv"], in: directory.url)
    #expect(refused.status == 2)
    let report = try runner.run(["convert", "-q", "--to", "EUR", "--report", "b.json", "a.csv"], in: directory.url)
    #expect(report.status == 0)
    #expect(try runner.run(["report", "merge", "b.json", "-o", "-"], in: directory.url).status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
  }
}
