import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

@testable import FXBatch

/// The per-record fast path (``CSVFastRecordReader`` in ``FastRecordLoop``: in-place records, cached fields,
/// ``TableConverter``) must give byte for byte the output, counts and reconciliation of the general path, which
/// it leaves every case it does not handle to.
@Suite("CSV fast path = general path", .tags(.sanitized))
struct CSVFastPathTests {
  /// A seeded file mixing what the fast path converts with what it must leave alone: errors of every kind,
  /// changeover currencies, quoted and padded fields, short and long records, blank lines, CRLF, grouped and
  /// signed amounts, weekend and holiday dates, dates outside the history, records without a date.
  static func messyFile(records: Int, seed: UInt64, quotes: Bool = true) -> String {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let allCurrencies = [
      "USD", "JPY", "GBP", "CHF", "EUR", "KRW", "IDR", "HUF", "BGN", "HRK", "DEM", "TRL", "usd", " GBP", "\"CHF\"", "XXX", "",
      "RUB", "ISK", "€",
    ]
    let allDates = [
      "2024-01-05", "2024-01-06", "2024-12-25", "2025-12-31", "2026-01-02", "1998-12-31", "1999-01-04", "2001-06-01",
      "2030-01-01", "", "2024-02-30", "05/01/2024", "\"2024-03-01\"", "2026-10-30", "2026-11-20",
    ]
    let allAmounts = [
      "12.50", "7", "-3.25", "0.005", "0.015", "1,234.50", "(5.00)", "12.50-", "abc", "", "100000000000000000000.5", "+4.2",
      "0", "-0.00", "123456789012345678.9", "1.234", " 9.99", "\"1,000.00\"", "0.1234567", "999999999999999999",
    ]
    let unquoted: (String) -> Bool = { quotes || !$0.contains("\"") }
    let (currencies, dates, amounts) = (allCurrencies.filter(unquoted), allDates.filter(unquoted), allAmounts.filter(unquoted))
    var text = "id,date,amount,from,to\r\n"
    for index in 0..<records {
      switch next(40) {
      case 0: text += "\r\n"
      case 1: text += "\(index),2024-01-05,1.00,USD\r\n"
      case 2: text += "\(index),2024-01-05,1.00,USD,EUR,extra\r\n"
      default:
        let from = currencies[next(currencies.count)]
        let to = next(3) == 0 ? currencies[next(currencies.count)] : ["EUR", "USD", "JPY", "GBP"][next(4)]
        text += "\(index),\(dates[next(dates.count)]),\(amounts[next(amounts.count)]),\(from),\(to)\r\n"
      }
    }
    return text
  }

  struct Run: Equatable {
    let output: Data
    let totals: RunReport.Counts
    let reconciliation: [Reconciliation]
    let withoutDate: Int
  }

  static func run(_ path: String, fastPath: Bool, rounding: RoundingMode, rates: RateTable, parts: Int = 1) throws -> Run {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out.csv").path
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [path]
    options.destination = .file(output)
    options.rounding = rounding
    options.fastPath = fastPath
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    let report = BatchJob(options: options, rates: rates).run()
    #expect(report.files.first?.fileError == nil)
    return Run(
      output: try Data(contentsOf: URL(fileURLWithPath: output)), totals: report.totals,
      reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate)
  }

  /// A file converted in parts on several threads gives the output of one pass; without quoted fields, pass 1
  /// runs in parts too (with them, it reads the file in one pass, as a quoted field may hold line ends).
  @Test(arguments: [(2, true), (3, true), (7, true), (2, false), (3, false), (7, false)])
  func partsGiveTheSameOutput(parts: Int, quotes: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("messy.csv")
    try Self.messyFile(records: 2000, seed: 7, quotes: quotes).write(to: input, atomically: true, encoding: .utf8)
    let inParts = try Self.run(input.path, fastPath: true, rounding: .halfUp, rates: EmbeddedECBHistory.table, parts: parts)
    let general = try Self.run(input.path, fastPath: false, rounding: .halfUp, rates: EmbeddedECBHistory.table)
    #expect(inParts == general)
  }

  /// Pass 1 in parts gives up on meeting a quoted field and reads the whole file again: the decimal mark is
  /// decided from all of it (here: points first, quoted commas later, so a mixed column with no mark).
  @Test func quotedFieldLateInTheFileStillCounts() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("late.csv")
    var text = "date,amount,from,to\n"
    for _ in 0..<300 { text += "2024-01-05,12.50,USD,EUR\n" }
    for _ in 0..<300 { text += "2024-01-05,\"12,50\",USD,EUR\n" }
    try text.write(to: input, atomically: true, encoding: .utf8)
    let inParts = try Self.run(input.path, fastPath: true, rounding: .halfUp, rates: EmbeddedECBHistory.table, parts: 2)
    let general = try Self.run(input.path, fastPath: false, rounding: .halfUp, rates: EmbeddedECBHistory.table)
    #expect(inParts == general)
    #expect(general.totals.error == 600)
  }

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

  /// A huge --max-staleness (any age) costs no memory in the fast path, and converts as the general path does.
  @Test func hugeMaxStaleness() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent("late.csv")
    try "date,amount,from,to\n2024-01-05,1.00,USD,EUR\n2040-06-01,2.00,USD,EUR\n9999-12-31,3.00,GBP,JPY\n".write(
      to: input, atomically: true, encoding: .utf8)
    var runs: [Run] = []
    for fastPath in [true, false] {
      let output = directory.url.appendingPathComponent("out-\(fastPath).csv").path
      var options = BatchOptions(today: try day("2026-11-29"))
      options.inputPaths = [input.path]
      options.destination = .file(output)
      options.fastPath = fastPath
      options.maxStaleness = Int.max / 4
      let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
      runs.append(
        Run(
          output: try Data(contentsOf: URL(fileURLWithPath: output)), totals: report.totals,
          reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate))
    }
    #expect(runs[0] == runs[1])
    #expect(runs[0].totals.records == 3)
  }

  @Test(arguments: [("history", "random-400.csv"), ("e2e", "mixed.csv"), ("e2e", "bom-crlf-semicolon.csv")])
  func fixturesGiveTheSameOutput(folder: String, name: String) throws {
    let path = try Fixture.path(folder, name)
    for rounding in RoundingMode.allCases {
      let fast = try Self.run(path, fastPath: true, rounding: rounding, rates: EmbeddedECBHistory.table)
      let general = try Self.run(path, fastPath: false, rounding: rounding, rates: EmbeddedECBHistory.table)
      #expect(fast == general, "\(name), \(rounding)")
    }
  }

  /// Thirds: each record's exact value has an endless fraction, and their exact total is a whole number of
  /// cents, so the streamed total's truncated fractions cannot settle the rounding and the records are read again.
  @Test func tieInTheStreamedTotalIsSettledExactly() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rates = directory.url.appendingPathComponent("rates.csv")
    try "date,base,quote,rate\n2024-01-05,EUR,AAA,3\n2024-01-05,EUR,USD,1\n".replacingOccurrences(of: "AAA", with: "CHF")
      .write(to: rates, atomically: true, encoding: .utf8)
    let input = directory.url.appendingPathComponent("in.csv")
    // 0.01 CHF at 1/3 = 0.00333… USD, three times: rounded 0.00 each, exact total 0.01.
    try "date,amount,from,to\n2024-01-05,0.01,CHF,USD\n2024-01-05,0.01,CHF,USD\n2024-01-05,0.01,CHF,USD\n"
      .write(to: input, atomically: true, encoding: .utf8)
    let table = try RatesFile.load(path: rates.path)
    for rounding in RoundingMode.allCases {
      let fast = try Self.run(input.path, fastPath: true, rounding: rounding, rates: table)
      let general = try Self.run(input.path, fastPath: false, rounding: rounding, rates: table)
      #expect(fast == general)
      #expect(fast.reconciliation.first?.exactTotalRounded == "0.01", "\(rounding)")
    }
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
