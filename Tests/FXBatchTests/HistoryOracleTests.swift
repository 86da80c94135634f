import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Conversions over the whole ECB history against an independent oracle: `Fixtures/history/oracle.py`
/// computed 400 seeded random records (any currency pair, any day 1999–2026, signed amounts with 0–4
/// decimals) with Python fractions, rounded in each mode to the target's ISO 4217 minor units.
@Suite("Exact over the whole ECB history (independent oracle)")
struct HistoryOracleTests {
  @Test(arguments: [(RoundingMode.halfUp, 0), (.halfEven, 1), (.down, 2), (.up, 3)])
  func matchesTheOracle(mode: RoundingMode, column: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Fixture.path("history", "random-400.csv")
    let output = directory.url.appendingPathComponent("out.csv").path
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [input]
    options.destination = .file(output)
    options.rounding = mode
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.totals.records == 400)
    #expect(report.totals.error == 0)
    let converted = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst().map { line in
      String(line.split(separator: ",", omittingEmptySubsequences: false)[5])
    }
    let expected = try String(contentsOfFile: try Fixture.path("history", "random-400.expected.csv"), encoding: .utf8)
      .split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[column]) }
    #expect(converted.count == 400)
    for (index, (got, want)) in zip(converted, expected).enumerated() where got != want {
      Issue.record("record \(index + 1) (\(mode.rawValue)): fxbatch \(got), oracle \(want)")
    }
  }
}
