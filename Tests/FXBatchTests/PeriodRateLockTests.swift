import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

@Suite("Period rates: lock files")
struct PeriodRateLockTests {
  // A period rule's lock keeps the rule and each answer with its period and what was averaged; a run on it
  // (the CLI's --frozen) writes the same bytes.
  @Test(arguments: [RateRule.average(.month), .closing(.quarter), .average(.year)])
  func aPeriodLockReplaysByteForByte(rule: RateRule) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(
      "id,date,amount,from,to\n1,2024-02-10,1000,USD,EUR\n2,2008-12-15,1000,ISK,USD\n3,2026-10-15,1000,USD,EUR\n",
      named: "in.csv")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(directory.url.appendingPathComponent("a.csv").path)
    options.lockPath = lock
    options.rateRule = rule
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.lockFileError == nil)
    #expect(report.lockFile == lock)
    let text = try String(contentsOfFile: lock, encoding: .utf8)
    #expect(text.contains("\nrule \(rule.periodDescription ?? "")\nquotes\n"))
    let (rates, _) = try LockFile.load(path: lock)
    guard case .quotes(let locked) = rates else {
      Issue.record("a period lock keeps quotes")
      return
    }
    #expect(locked.rule == rule)
    options.destination = .file(directory.url.appendingPathComponent("b.csv").path)
    options.lockPath = nil
    let frozen = BatchJob(options: options, source: .lockFile(path: lock, quotes: locked)).run()
    #expect(frozen.exitStatus == report.exitStatus)
    #expect(try directory.read("a.csv") == directory.read("b.csv"))
  }
}
