import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// What the XML fast path must hold besides writing what the general path writes (its documents and options are
/// cases of ``FastGeneralDifferentialTests``, `FastGeneralDifferentialTests+XMLCases.swift`): a tie in the
/// streamed total settled exactly, and the template's `fx` element the one libxml2's writer makes; and the runs
/// other XML suites compare (``run(_:fastPath:parts:configure:)``, ``compare(_:_:_:)``).
@Suite("XML fast path", .tags(.sanitized))
struct XMLFastPathTests {
  struct Run: Equatable {
    let output: Data?
    let file: RunReport.File
    let totals: RunReport.Counts
    let reconciliation: [Reconciliation]
    let withoutDate: Int
  }

  static func run(_ path: String, fastPath: Bool, parts: Int = 1, configure: (inout BatchOptions) -> Void = { _ in }) throws
    -> Run
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out.xml").path
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [path]
    options.destination = .file(output)
    options.fastPath = fastPath
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    configure(&options)
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    var file = try #require(report.files.first)
    file.output = nil
    return Run(
      output: FileManager.default.contents(atPath: output), file: file, totals: report.totals,
      reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate)
  }

  /// Whether pass 1 takes the fast path for a document.
  static func takesFastPath(_ path: String, configure: (inout BatchOptions) -> Void = { _ in }) throws -> Bool {
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [path]
    configure(&options)
    let job = BatchJob(options: options, rates: EmbeddedECBHistory.table)
    return XMLFormat.scanXMLFileFast(
      displayPath: path, readPath: path, outputPath: "/dev/null", context: job.formatContext) != nil
  }

  /// Reports the first differing line of two outputs.
  static func compare(_ fast: Run, _ general: Run, _ comment: Comment) {
    #expect(fast == general, comment)
    guard let fastOutput = fast.output, let generalOutput = general.output, fastOutput != generalOutput else { return }
    let fastLines = String(decoding: fastOutput, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let generalLines = String(decoding: generalOutput, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for (line, (a, b)) in zip(fastLines, generalLines).enumerated() where a != b {
      Issue.record("\(comment) line \(line + 1): fast \(a) / general \(b)")
      return
    }
  }

  /// Thirds whose exact total is a whole number of cents: the streamed total cannot settle its rounding, and the
  /// records are read again (through the scanner, by the general rules) to sum them exactly, as the general path
  /// does; under `--rates FILE`.
  @Test func tieInTheStreamedTotalIsSettledExactly() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rates = try directory.write("date,base,quote,rate\n2024-01-05,EUR,CHF,3\n2024-01-05,EUR,USD,1\n", named: "rates.csv")
    // 0.01 CHF at 1/3 = 0.00333… USD, three times: rounded 0.00 each, exact total 0.01.
    let record = "<p><date>2024-01-05</date><amount>0.01</amount><from>CHF</from><to>USD</to></p>\n"
    let path = try directory.write("<ps>\n" + String(repeating: record, count: 3) + "</ps>\n", named: "thirds.xml")
    let table = try RatesFile.load(path: rates)
    #expect(try Self.takesFastPath(path))
    for rounding in RoundingMode.allCases {
      var runs: [Run] = []
      for fastPath in [true, false] {
        let output = directory.url.appendingPathComponent("out-\(fastPath).xml").path
        var options = BatchOptions(today: try day("2026-11-29"))
        options.inputPaths = [path]
        options.destination = .file(output)
        options.fastPath = fastPath
        options.rounding = rounding
        let report = BatchJob(options: options, rates: table).run()
        var file = try #require(report.files.first)
        file.output = nil
        runs.append(
          Run(
            output: FileManager.default.contents(atPath: output), file: file, totals: report.totals,
            reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate))
      }
      #expect(runs[0] == runs[1], "\(rounding)")
      #expect(runs[0].reconciliation.first?.exactTotalRounded == "0.01", "\(rounding)")
    }
  }

  /// The `fx` element of the template is the one libxml2's writer makes for the same values.
  @Test func templateMatchesTheElementEncoder() throws {
    let values = ["0.9025270758", "1624.55", "EUR", "2019-12-24", "ecb-embedded EUR/USD=1.108", "fallback", ""]
    var buffer = ByteBuffer(capacity: 256)
    let template = AnnotationTemplate.xmlElement
    for (index, value) in values.enumerated() {
      buffer.append(Array(template.bytes[template.starts[index]..<template.starts[index + 1]]))
      buffer.append(Array(value.utf8))
    }
    buffer.append(Array(template.bytes[template.starts[7]..<template.starts[8]]))
    var encoded: [UInt8] = []
    try XMLElementEncoder(encoding: "UTF-8").writeEmptyElement("fx", attributes: zip(XMLAnnotatingWriter.attributeNames, values))
    {
      encoded.append(contentsOf: $0)
    }
    #expect(Array(buffer.bytes) == encoded)
  }
}
