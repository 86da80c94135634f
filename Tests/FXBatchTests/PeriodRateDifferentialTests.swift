import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Under a period rule a table source's records convert from the answers of their keys (``AnsweredQuotes``) on
/// the fast path: byte for byte what the general rules write, in CSV, JSON, JSON Lines and XML, in one part and
/// in parts, for messy records (errors, unfinished periods, legacy currencies, undated records).
@Suite("Period rates: fast path = general path")
struct PeriodRateDifferentialTests {
  typealias Format = TableSourceDifferentialTests.Format

  @Test(arguments: Format.allCases, [RateRule.average(.month), .closing(.quarter), .average(.year)])
  func fastPathWritesWhatTheGeneralPathWrites(format: Format, rule: RateRule) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(format.messyFile(seed: 19), named: "in.\(format.rawValue)")
    let source = RateSourceChoice.table(EmbeddedECBHistory.table)
    let general = try TableSourceDifferentialTests.run(input, format: format, source: source, parts: 1) {
      $0.rateRule = rule
      $0.fastPath = false
    }
    #expect(general.report.totals.ok > 100)
    #expect(general.report.totals.error > 0)
    let text = String(decoding: general.output, as: UTF8.self)
    let kind = rule == .closing(.quarter) ? "closing" : "average"
    #expect(text.contains("ecb-embedded \(kind) 2024"), "the rule's rates are written")
    #expect(text.contains("period_incomplete"), "2026-10-30 and 2026-11-20 are in unfinished periods")
    for parts in [1, 3] {
      let fast = try TableSourceDifferentialTests.run(input, format: format, source: source, parts: parts) {
        $0.rateRule = rule
      }
      TableSourceDifferentialTests.compare(fast, general, "\(rule), fast path in \(parts) parts")
    }
    let spot = try TableSourceDifferentialTests.run(input, format: format, source: source, parts: 1)
    #expect(spot.output != general.output, "the rule changes the rates")
  }
}

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
