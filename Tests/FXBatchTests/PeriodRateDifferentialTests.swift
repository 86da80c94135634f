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

@Suite("Period rates: no lock")
struct PeriodRateLockTests {
  // The library refuses to write a lock for a period rule (the CLI refuses the options before): the lock would
  // hold only the rows of days, not the periods averaged.
  @Test func aPeriodRunWritesNoLock() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write("id,date,amount,from,to\n1,2024-02-10,1000,USD,EUR\n", named: "in.csv")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(directory.url.appendingPathComponent("out.csv").path)
    options.lockPath = lock
    options.rateRule = .average(.month)
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.lockFileError?.contains("period rates (--rate-kind) cannot be locked yet") == true)
    #expect(report.exitStatus == 2)
    #expect(!FileManager.default.fileExists(atPath: lock))
  }
}
