import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The runs the JSON and JSON Lines fast-path suites (and `CSVEmptyRowTests`) compare, in 1, 2, 3 and 5 parts,
/// and the part-file check. CSV's own adversarial inputs are cases of ``FastGeneralDifferentialTests``
/// (`FastGeneralDifferentialTests+CSVAdversarialCases.swift`); these go when those suites are cases too.
enum CSVFastPathAdversarialTests {
  struct Outcome: Equatable {
    let output: Data?
    let report: RunReport
  }

  /// Part files of this process left in the temporary directory.
  static func leftoverPartFiles() -> [String] {
    let directory = NSTemporaryDirectory()
    let prefix = "fxbatch-part-\(getpid())-"
    return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(prefix) }
  }

  /// The part files in `current()` but not in `before` that stay: a file another test of this process is making at
  /// that moment (an unnamed temporary file has its name for an instant) is gone within two seconds.
  static func lingering(_ current: () -> [String], before: Set<String>) -> Set<String> {
    var left = Set(current()).subtracting(before)
    var waits = 0
    while !left.isEmpty, waits < 20 {
      usleep(100_000)
      waits += 1
      left.formIntersection(current())
    }
    return left
  }

  static func run(
    input: String, output: String, fastPath: Bool, parts: Int, rates: RateTable, configure: (inout BatchOptions) -> Void
  ) throws -> Outcome {
    unlink(output)
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [input]
    options.destination = .file(output)
    options.fastPath = fastPath
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    configure(&options)
    let report = BatchJob(options: options, rates: rates).run()
    return Outcome(output: FileManager.default.contents(atPath: output), report: report)
  }

  /// Runs the general path and the fast path in 1, 2, 3 and 5 parts on the bytes; records the first difference.
  @discardableResult
  static func check(
    _ name: String, _ bytes: [UInt8], rates: RateTable = EmbeddedECBHistory.table, fileName: String = "in.csv",
    sourceLocation: SourceLocation = #_sourceLocation, configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Bool {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent(fileName).path
    let output = directory.url.appendingPathComponent("out.csv").path
    try Data(bytes).write(to: URL(fileURLWithPath: input))
    let before = Set(leftoverPartFiles())
    let general = try run(input: input, output: output, fastPath: false, parts: 1, rates: rates, configure: configure)
    var same = true
    for parts in [1, 2, 3, 5] {
      let fast = try run(input: input, output: output, fastPath: true, parts: parts, rates: rates, configure: configure)
      if fast != general {
        same = false
        var detail = ""
        if fast.report != general.report {
          detail += "\n  report fast:    \(summary(fast.report))\n  report general: \(summary(general.report))"
        }
        if fast.output != general.output {
          let a = String(decoding: fast.output ?? Data(), as: UTF8.self).components(separatedBy: "\n")
          let b = String(decoding: general.output ?? Data(), as: UTF8.self).components(separatedBy: "\n")
          if let line = zip(a, b).enumerated().first(where: { $0.1.0 != $0.1.1 }) {
            detail +=
              "\n  output line \(line.offset + 1): fast \(line.element.0.debugDescription)\n    general \(line.element.1.debugDescription)"
          } else {
            detail +=
              "\n  output lines: fast \(a.count), general \(b.count) (fast nil: \(fast.output == nil), general nil: \(general.output == nil))"
          }
        }
        Issue.record("\(name): parts \(parts) differs from the general path\(detail)", sourceLocation: sourceLocation)
        break
      }
    }
    let after = lingering(leftoverPartFiles, before: before)
    if !after.isEmpty {
      Issue.record("\(name): part files left behind: \(after.sorted())", sourceLocation: sourceLocation)
      for file in after { unlink((NSTemporaryDirectory() as NSString).appendingPathComponent(file)) }
    }
    return same
  }

  static func summary(_ report: RunReport) -> String {
    let file = report.files.first
    return
      "totals \(report.totals.records)/\(report.totals.ok)/\(report.totals.fallback)/\(report.totals.error) \(report.totals.errorsByCode.sorted { $0.key < $1.key }) withoutDate \(report.rates.recordsWithoutDate) mark \(file?.decimalMark ?? "-") \(file?.decimalMarkInferredFrom ?? "-") fileError \(file?.fileError ?? "-") recon \(report.reconciliation.map { "\($0.currency) \($0.records) \($0.roundedRecordsTotal ?? "nil") \($0.exactTotalRounded ?? "nil")" })"
  }

  @discardableResult
  static func check(
    _ name: String, _ text: String, rates: RateTable = EmbeddedECBHistory.table, fileName: String = "in.csv",
    sourceLocation: SourceLocation = #_sourceLocation, configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Bool {
    try check(
      name, Array(text.utf8), rates: rates, fileName: fileName, sourceLocation: sourceLocation, configure: configure)
  }
}
