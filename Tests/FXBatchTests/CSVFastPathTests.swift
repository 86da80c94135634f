import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

@testable import FXBatch

/// What the CSV fast path must hold besides writing what the general path writes (its files and options are
/// cases of ``FastGeneralDifferentialTests``, `FastGeneralDifferentialTests+CSVCases.swift`): progress reports,
/// the streamed total, and the byte-level amount reader's agreement with the general rules.
@Suite("CSV fast path", .tags(.sanitized))
struct CSVFastPathTests {
  /// A big file reports its progress in bytes of the file and records (the CLI draws it as a bar when standard
  /// error is a terminal; the end-to-end tests, on pipes, show none): in both passes when it is read twice (a
  /// quoted field here), in pass 2 only when pass 1 was provisional.
  @Test(arguments: [true, false])
  func progressIsReported(quoted: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("big.csv")
    var text = "date,amount,from,to\n" + (quoted ? "\"2024-01-02\",1.25,USD,EUR\n" : "")
    for index in 0..<40_000 { text += "2024-01-0\(index % 9 + 1),\(index).25,USD,EUR\n" }
    try text.write(to: input, atomically: true, encoding: .utf8)
    let reports = Mutex<[BatchProgress]>([])
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [input.path]
    options.destination = .file(directory.url.appendingPathComponent("out.csv").path)
    options.parallelMinimumSize = 0
    options.parallelParts = 2
    options.progress = { progress in reports.withLock { $0.append(progress) } }
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    #expect(report.totals.ok + report.totals.fallback == 40_000 + (quoted ? 1 : 0))
    let seen = reports.withLock { $0 }
    #expect(seen.contains { $0.pass == 1 } == quoted)
    #expect(seen.contains { $0.pass == 2 })
    #expect(seen.allSatisfy { $0.file == input.path && $0.bytesDone > 0 && $0.bytesDone <= $0.bytesTotal && $0.records > 0 })
  }

  @Test func streamedTotalAgreesWithTheExactTotal() throws {
    // 100 ÷ 1.95583 + 100 × 1.0684 ÷ 7.5345 = 65.309292… (as in ExactTotalTests)
    var streamed = StreamedTotal()
    var exact = ExactTotal()
    for (amount, numerator, denominator) in [("100", "1", "1.95583"), ("100", "1.0684", "7.5345"), ("-0.005", "1", "1")] {
      let rate = ExchangeRate(numerator: try decimal(numerator), denominator: try decimal(denominator))
      streamed.add(try decimal(amount), at: rate, minorUnits: 2)
      exact.add(try decimal(amount), at: rate)
    }
    for rounding in RoundingMode.allCases {
      #expect(
        streamed.rounded(minorUnits: 2, rounding: rounding)
          == .value(try #require(exact.rounded(minorUnits: 2, rounding: rounding))))
    }
    var thirds = StreamedTotal()
    for _ in 0..<3 {
      thirds.add(try decimal("0.01"), at: ExchangeRate(numerator: .one, denominator: try decimal("3")), minorUnits: 2)
    }
    #expect(thirds.rounded(minorUnits: 2, rounding: .halfUp) == .undetermined)
  }

  /// The byte-level amount reader and decimal-mark evidence agree with the general ones on random cells.
  @Test func plainAmountsAndEvidenceAgreeWithTheGeneralRules() {
    var state: UInt64 = 7
    let alphabet = Array("0123456789.,-+ 1".utf8)
    for _ in 0..<20_000 {
      var cell: [UInt8] = []
      state = state &* 6_364_136_223_846_793_005 &+ 1
      for _ in 0..<Int(state >> 60) + 1 {
        state = state &* 6_364_136_223_846_793_005 &+ 1
        cell.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
      }
      let text = String(decoding: cell, as: UTF8.self)
      cell.withUnsafeBufferPointer { bytes in
        for mark in [DecimalMark.point, .comma] {
          if let fast = FieldKeyDecoder.plainAmount(ByteView(bytes), mark: mark.byte) {
            #expect(AmountParser(decimalMark: mark).parse(text) == .success(fast), "\(text)")
          }
        }
        if let fast = FieldKeyDecoder.evidence(ByteView(bytes)) {
          #expect(fast == DecimalMarkInference.evidence(text), "\(text)")
        }
      }
    }
  }
}
