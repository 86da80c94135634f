import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// A big CSV file under a local table gets a provisional pass 1 (part starts, and the decimal mark from the
/// first records); pass 2 checks it against every record and falls back to two full passes when it was wrong.
/// Either way the output and the report must be those of the general path.
@Suite("CSV provisional scan")
struct CSVProvisionalScanTests {
  /// `records` plain records, fields separated by `;`; those from `lateFrom` on use `late(index)` as their
  /// amount field.
  static func file(records: Int, lateFrom: Int, late: (Int) -> String) -> String {
    var text = "id;date;amount;from;to\n"
    for index in 0..<records {
      let amount = index >= lateFrom ? late(index) : "\(index % 997).\(index % 89 + 10)"
      text += "\(index);2024-0\(index % 9 + 1)-1\(index % 9);\(amount);\(["USD", "GBP", "JPY"][index % 3]);EUR\n"
    }
    return text
  }

  struct Outcome: Equatable {
    let output: Data
    let counts: RunReport.Counts?
    let decimalMark: String?
    let inferredFrom: String?
    let reconciliation: [Reconciliation]
  }

  static func run(_ path: String, fastPath: Bool) throws -> Outcome {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out.csv").path
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [path]
    options.destination = .file(output)
    options.fastPath = fastPath
    options.parallelParts = 2
    options.parallelMinimumSize = 0
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.files.first?.fileError == nil)
    let file = report.files.first
    return Outcome(
      output: try Data(contentsOf: URL(fileURLWithPath: output)), counts: file?.counts, decimalMark: file?.decimalMark,
      inferredFrom: file?.decimalMarkInferredFrom, reconciliation: report.reconciliation)
  }

  /// Whether pass 1 of the job would be provisional for a file.
  static func isProvisional(_ path: String) throws -> Bool {
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [path]
    options.destination = .file(path + ".out")
    options.parallelParts = 2
    options.parallelMinimumSize = 0
    let job = BatchJob(options: options, rates: EmbeddedECBHistory.table)
    let (scan, _) = try CSVFormat.scanCSVFile(
      displayPath: path, readPath: path, outputPath: path + ".out", context: job.formatContext)
    return scan.csv.isProvisional && !scan.partStarts.isEmpty
  }

  @Test func plainFileIsConvertedInOnePassWithTheGeneralPathsOutput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("plain.csv")
    try Self.file(records: 3_000, lateFrom: .max) { _ in "" }.write(to: input, atomically: true, encoding: .utf8)
    #expect(try Self.isProvisional(input.path))
    let fast = try Self.run(input.path, fastPath: true)
    #expect(fast.decimalMark == ".")
    #expect(fast.inferredFrom == "amounts")
    #expect(fast == (try Self.run(input.path, fastPath: false)))
  }

  /// The first records prove `.`, later ones `,` (`lateFrom` on): only the whole file shows which mark more
  /// cells prove, and the cells proving the other are `ambiguous_amount` errors.
  /// - 2900 `.`, 100 `,`: the provisional mark stands; the 100 late cells are errors, as in two full passes.
  /// - 1000 `.`, 2000 `,`: decimal comma, decided otherwise than the sample: read again; the 1000 `.` cells are errors.
  /// - 1500 each: undecided; every cell depends on the mark and is `invalid_amount`.
  @Test(
    arguments: [
      (2_900, ".", ["ambiguous_amount": 100]), (1_000, ",", ["ambiguous_amount": 1_000]), (1_500, nil, ["invalid_amount": 3_000]),
    ] as [(Int, String?, [String: Int])])
  func markProvedOtherwiseLater(lateFrom: Int, mark: String?, errors: [String: Int]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("mixed.csv")
    try Self.file(records: 3_000, lateFrom: lateFrom) { "\($0 % 50),5" }.write(to: input, atomically: true, encoding: .utf8)
    #expect(try Self.isProvisional(input.path))
    let fast = try Self.run(input.path, fastPath: true)
    #expect(fast.decimalMark == mark)
    #expect(fast.inferredFrom == mark.map { _ in "amounts" })
    #expect(fast.counts?.errorsByCode == errors)
    #expect(fast == (try Self.run(input.path, fastPath: false)))
  }

  /// Only integers first (no evidence: `.`, no basis), then `,` decimals: the decision changes.
  @Test func markWithoutEvidenceFirstThenCommaIsReadAgain() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("late-comma.csv")
    let text = Self.file(records: 3_000, lateFrom: 0) { $0 < 2_950 ? "\($0 % 700)" : "\($0 % 50),25" }
    try text.write(to: input, atomically: true, encoding: .utf8)
    let fast = try Self.run(input.path, fastPath: true)
    #expect(fast.decimalMark == ",")
    #expect(fast == (try Self.run(input.path, fastPath: false)))
  }

  /// A quoted field with a line feed after the sample: a part split at a line feed may start inside it.
  @Test func quotedFieldAfterTheSampleIsReadAgain() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("quoted.csv")
    let text = Self.file(records: 3_000, lateFrom: 2_500) { $0 == 2_500 ? "\"1\n2.50\"" : "\($0 % 300).75" }
    try text.write(to: input, atomically: true, encoding: .utf8)
    #expect(try Self.isProvisional(input.path))
    let fast = try Self.run(input.path, fastPath: true)
    #expect(fast == (try Self.run(input.path, fastPath: false)))
  }
}
