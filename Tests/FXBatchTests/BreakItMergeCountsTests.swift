import FXBatchTestSupport
import Foundation
import Testing

/// `report merge` of forged reports whose counts are each in range but overflow `Int` where the merge adds them
/// up (a part's error codes, its files' reconciliations, fetch and chain counts, inexact terms, lock file
/// counts): each crashed the merge (a trap, exit 132); each is refused with 2 and names the part.
@Suite("break it: report merge counts")
struct BreakItMergeCountsTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// Edits the decoded report of a small run and merges it with `second` (an edit of it too), or alone.
  func merge(
    _ edit: (inout [String: Any], Int) -> Void, parts: Int = 2
  ) throws -> CLIRunner.Result {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("a.csv", "id,amount,currency,date\n1,10.00,USD,2024-02-01\n2,20.50,GBP,2024-02-02\n")
    let run = try cli.run(["convert", "a.csv", "--to", "EUR", "-o", "a.out.csv", "-q", "--report", "a.json"], in: directory.url)
    #expect(run.status == 0, "\(run.standardError)")
    let original = try Data(contentsOf: directory.url.appendingPathComponent("a.json"))
    var names: [String] = []
    for part in 0..<parts {
      var report = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
      // Parts of other files (the same file twice would be refused as counted twice).
      var files = try #require(report["files"] as? [[String: Any]])
      files[0]["input"] = "part-\(part).csv"
      report["files"] = files
      edit(&report, part)
      let name = "part-\(part).json"
      try JSONSerialization.data(withJSONObject: report).write(to: directory.url.appendingPathComponent(name))
      names.append(name)
    }
    return try cli.run(["report", "merge"] + names + ["-o", "total.json"], in: directory.url)
  }

  static let most = 1_000_000_000_000_000  // the largest count a report may hold
  static let intMax = Int.max

  @Test func countsThatOverflowWhenAddedAreRefused() throws {
    func expectRefused(_ result: CLIRunner.Result, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(result.status == 2, "\(result.standardError)", sourceLocation: sourceLocation)
      #expect(result.standardError.contains(message), "\(result.standardError)", sourceLocation: sourceLocation)
    }
    // 10,000 error codes of 10^15 errors each: their sum passes Int.max.
    expectRefused(
      try merge(
        { report, _ in
          let codes = Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("code\($0)", Self.most) })
          let counts: [String: Any] = [
            "records": Self.most, "ok": 0, "fallback": 0, "error": Self.most, "errorsByCode": codes,
          ]
          report["totals"] = counts
          var files = report["files"] as! [[String: Any]]
          files[0]["counts"] = counts
          report["files"] = files
        }, parts: 1),
      "its error codes do not add up")
    // Fetch counts of Int.max in two parts.
    expectRefused(
      try merge { report, _ in
        report["fetch"] = ["requests": Self.intMax, "retries": 0, "failedRequests": 0, "cacheHits": 0]
      },
      "its fetch counts are out of range")
    // The chain of rate sources.
    expectRefused(
      try merge { report, _ in
        report["chain"] = [["name": "ecb", "source": "ecb", "asked": Self.intMax, "answered": 0, "failed": 0]]
      },
      "its chain counts are out of range")
    // Inexact terms of an unrounded total.
    expectRefused(
      try merge { report, _ in
        var totals = report["unroundedTotals"] as! [[String: Any]]
        totals[0]["inexactTerms"] = Self.intMax
        report["unroundedTotals"] = totals
      },
      "inexact terms")
    // Records a lock file left out.
    expectRefused(try merge { report, _ in report["lockFileLeftOut"] = Self.intMax }, "lockFileLeftOut")
    // A file's reconciliation, twice in one part.
    expectRefused(
      try merge(
        { report, _ in
          var files = report["files"] as! [[String: Any]]
          var reconciliation = files[0]["reconciliation"] as! [[String: Any]]
          reconciliation[0]["records"] = Self.intMax
          files[0]["reconciliation"] = reconciliation
          var empty = files[0]
          empty["input"] = "other.csv"
          empty["counts"] = ["records": 0, "ok": 0, "fallback": 0, "error": 0, "errorsByCode": [String: Int]()]
          files.append(empty)
          report["files"] = files
        }, parts: 1),
      "has a count out of range")
    // A file's currency totals, in two files of a part.
    expectRefused(
      try merge(
        { report, _ in
          var files = report["files"] as! [[String: Any]]
          var totals = files[0]["currencyTotals"] as! [String: Any]
          var from = totals["from"] as! [[String: Any]]
          from[0]["records"] = Self.intMax
          totals["from"] = from
          files[0]["currencyTotals"] = totals
          var empty = files[0]
          empty["input"] = "other.csv"
          empty["counts"] = ["records": 0, "ok": 0, "fallback": 0, "error": 0, "errorsByCode": [String: Int]()]
          files.append(empty)
          report["files"] = files
        }, parts: 1),
      "have a count out of range")
  }

  @Test func unforgedPartsStillMerge() throws {
    let merged = try merge { _, _ in }
    #expect(merged.status == 0, "\(merged.standardError)")
  }
}

/// Parts judged against one error budget: `report merge` judged none (it kept the parts' worst status), so two
/// parts each within `--max-errors 1` merged to exit status 0 while one run over both gives 1 (the Spark job's
/// status is the merged report's).
@Suite("break it: report merge budget")
struct BreakItMergeBudgetTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  func run(_ budget: [String]) throws -> (parts: [Int32], whole: Int32, merged: CLIRunner.Result, report: String) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = "id,amount,currency,date\n"
    let rows = ["1,10.00,USD,2024-02-01\n2,x,USD,2024-02-01\n", "3,10.00,USD,2024-02-01\n4,y,USD,2024-02-01\n"]
    _ = try directory.write("whole.csv", header + rows.joined())
    var parts: [Int32] = []
    for (index, part) in rows.enumerated() {
      _ = try directory.write("p\(index).csv", header + part)
      let run = try cli.run(
        ["convert", "p\(index).csv", "--to", "EUR", "-o", "p\(index).out", "-q", "--report", "p\(index).json"] + budget,
        in: directory.url)
      parts.append(run.status)
    }
    let whole = try cli.run(["convert", "whole.csv", "--to", "EUR", "-o", "whole.out", "-q"] + budget, in: directory.url)
    let merged = try cli.run(["report", "merge", "p0.json", "p1.json", "-o", "total.json"], in: directory.url)
    let report = (try? String(contentsOf: directory.url.appendingPathComponent("total.json"), encoding: .utf8)) ?? ""
    return (parts, whole.status, merged, report)
  }

  @Test func theMergeIsJudgedAgainstThePartsBudget() throws {
    let count = try run(["--max-errors", "1"])
    #expect(count.parts == [0, 0])
    #expect(count.whole == 1)
    #expect(count.merged.status == 0, "\(count.merged.standardError)")
    #expect(count.report.contains("\"exitStatus\" : 1"), "\(count.report)")
    #expect(count.report.contains("\"maxErrors\" : \"1\""), "\(count.report)")
    #expect(count.report.contains("\"withinMaxErrors\" : false"), "\(count.report)")
    // 50% in each part and in the whole: held.
    let percent = try run(["--max-errors", "50%"])
    #expect(percent.parts == [0, 0])
    #expect(percent.whole == 0)
    #expect(percent.report.contains("\"exitStatus\" : 0"), "\(percent.report)")
    #expect(percent.report.contains("\"withinMaxErrors\" : true"), "\(percent.report)")
    // No budget: the worst part's status, as before.
    let none = try run([])
    #expect(none.parts == [1, 1])
    #expect(none.report.contains("\"exitStatus\" : 1"), "\(none.report)")
    #expect(!none.report.contains("\"budget\""), "\(none.report)")
  }
}
