import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 30: a rate table holds its rates dense or sparse (``RateGrid/Builder``), and the fast path reads its cells
/// when used and lets its rows go past a million cells (``TableConverter``). Whatever the storage, a run must write
/// byte for byte what the dense table on the general path writes: spot rates, fallbacks within and past
/// `--max-staleness`, days without rates, cross rates through the pivot, inverse pairs, period rates, euro
/// changeovers, the first and last days, days before and after the rates. Seeded random tables and records, so a
/// failure repeats.
@Suite("Sparse tables: sparse = dense, fast = general, end to end")
struct SparseTableDifferentialTests {
  typealias Generator = RateGridTests.Generator

  /// A random source: `pivot` against each currency (GBP the other way round), one direct pair, days from
  /// `first` (weekdays, some holidays with no rate at all), each cell present with probability `fill`; rates of
  /// 0 to 8 decimals, a few tiny (1e-30) or of 30 digits.
  static func table(seed: UInt64, pivot: String, first: CalendarDay, dayCount: Int, fill: Double) -> (
    builder: RateGrid.Builder, pairs: [CurrencyPair], days: [CalendarDay]
  ) {
    var generator = Generator(state: seed)
    let codes = ["EUR", "USD", "JPY", "GBP", "CHF", "HRK", "BGN", "RON", "SEK"].filter { $0 != pivot }
    var pairs = codes.map { code in
      code == "GBP"
        ? CurrencyPair(base: CurrencyCode(code)!, quote: CurrencyCode(pivot)!)
        : CurrencyPair(base: CurrencyCode(pivot)!, quote: CurrencyCode(code)!)
    }
    pairs.append(CurrencyPair(base: CurrencyCode("CHF")!, quote: CurrencyCode("SEK")!))
    var days: [CalendarDay] = []
    var builder = RateGrid.Builder()
    var day = first
    while days.count < dayCount {
      defer { day = day.adding(days: 1) }
      let weekday = (day.daysSinceEpoch % 7 + 7 + 3) % 7  // 0 Monday (1970-01-01 was a Thursday)
      if weekday >= 5 && Int.random(in: 0..<10, using: &generator) != 0 { continue }
      let row = days.count
      days.append(day)
      // A holiday: a day the source names with no rate at all (an empty `<Cube time>`).
      if Int.random(in: 0..<15, using: &generator) == 0 { continue }
      for column in pairs.indices where Double.random(in: 0..<1, using: &generator) < fill {
        let value: ExactDecimal
        switch Int.random(in: 0..<50, using: &generator) {
        case 0: value = ExactDecimal(significand: Int128(Int.random(in: 1...9, using: &generator)), scale: 30)
        case 1: value = ExactDecimal("123456789012345678901234567890")!
        default:
          value = ExactDecimal(
            significand: Int128(Int.random(in: 1...99_999_999, using: &generator)), scale: Int.random(in: 0...8, using: &generator))
        }
        builder.append(row: row, column: column, value: value)
      }
    }
    return (builder, pairs, days)
  }

  /// Records on random days from 40 days before the table's first to 40 after its last (the first and last days
  /// themselves often), random pairs of the table's currencies and a few others, random amounts.
  static func records(seed: UInt64, days: [CalendarDay], count: Int) -> String {
    var generator = Generator(state: seed ^ 0xA5A5)
    let codes = ["EUR", "USD", "JPY", "GBP", "CHF", "HRK", "BGN", "RON", "SEK", "NOK", "BGL"]
    let amounts = ["100", "-42.42", "0.01", "98765432109876.54", "1", "0", "7.5", "123456.789"]
    var text = "id,date,amount,from,to\n"
    for index in 0..<count {
      let day: CalendarDay
      switch Int.random(in: 0..<10, using: &generator) {
      case 0: day = days[0].adding(days: Int.random(in: -40...2, using: &generator))
      case 1: day = days[days.count - 1].adding(days: Int.random(in: -2...40, using: &generator))
      case 2: day = days[Int.random(in: days.indices, using: &generator)]
      default:
        day = days[0].adding(days: Int.random(in: 0...days[days.count - 1].days(since: days[0]), using: &generator))
      }
      let from = codes.randomElement(using: &generator)!
      let to = Int.random(in: 0..<20, using: &generator) == 0 ? from : codes.randomElement(using: &generator)!
      text += "R\(index),\(day),\(amounts.randomElement(using: &generator)!),\(from),\(to)\n"
    }
    return text
  }

  static let info = RateSourceInfo(identifier: "file:rates.csv", publisher: "rates.csv", description: "rates file")

  struct Variant: CustomStringConvertible {
    let dense: Bool
    let fastPath: Bool
    let parts: Int
    var description: String { "\(dense ? "dense" : "sparse"), \(fastPath ? "fast" : "general"), \(parts) part(s)" }
  }

  static let variants = [false, true].flatMap { dense in
    [false, true].flatMap { fastPath in [1, 3].map { Variant(dense: dense, fastPath: fastPath, parts: $0) } }
  }

  static func run(
    _ input: String, table: RateTable, variant: Variant, rule: RateRule, maxStaleness: Int, today: CalendarDay,
    in directory: TemporaryDirectory
  ) throws -> TableSourceDifferentialTests.Run {
    let output = directory.url.appendingPathComponent("out-\(UUID().uuidString).csv").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    var options = BatchOptions(today: today)
    options.inputPaths = [input]
    options.destination = .file(output)
    options.parallelParts = variant.parts
    options.parallelMinimumSize = 0
    options.fastPath = variant.fastPath
    options.rateRule = rule
    options.maxStaleness = maxStaleness
    let report = BatchJob(options: options, source: .table(table)).run()
    #expect(report.files.first?.fileError == nil)
    return .init(output: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))), report: report)
  }

  /// Every variant of every rule against the dense table on the general path in one part.
  static func compareVariants(
    builder: RateGrid.Builder, pairs: [CurrencyPair], days: [CalendarDay], records: String,
    rules: [(RateRule, Int)], variants: [Variant] = variants, seed: UInt64
  ) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(records, named: "in.csv")
    let rows = max(days.count, 1)
    let tables = [true, false].map { dense in
      (dense, RateTable(info: info, pairs: pairs, days: days, grid: builder.grid(rows: rows, width: pairs.count, dense: dense)))
    }
    #expect(!tables[0].1.values.isSparse && tables[1].1.values.isSparse)
    let today = days[days.count - 1]
    for (rule, maxStaleness) in rules {
      let reference = try run(
        input, table: tables[0].1, variant: Variant(dense: true, fastPath: false, parts: 1), rule: rule,
        maxStaleness: maxStaleness, today: today, in: directory)
      for variant in variants {
        let table = tables.first { $0.0 == variant.dense }!.1
        let result = try run(
          input, table: table, variant: variant, rule: rule, maxStaleness: maxStaleness, today: today, in: directory)
        let comment: Comment = "seed \(seed), \(rule), --max-staleness \(maxStaleness), \(variant)"
        TableSourceDifferentialTests.compare(result, reference, comment)
        if result.output != reference.output {
          let lines = zip(
            String(decoding: result.output, as: UTF8.self).split(separator: "\n"),
            String(decoding: reference.output, as: UTF8.self).split(separator: "\n")
          ).filter { $0.0 != $0.1 }.prefix(3)
          for (got, expected) in lines { Issue.record("\(comment)\n got: \(got)\nwant: \(expected)") }
        }
      }
    }
  }

  static let rules: [(RateRule, Int)] = [
    (.spot, 0), (.spot, 5), (.spot, 1_000_000), (.average(.month), 5), (.closing(.quarter), 5), (.average(.year), 5),
  ]

  /// Five years across the HRK (2023) and BGN (2026) euro changeovers, cells thinned out, the pivot EUR or USD.
  @Test(arguments: [(UInt64(1), "EUR", 0.9), (2, "EUR", 0.3), (3, "USD", 0.6), (4, "EUR", 0.05)])
  func thinnedSourceConvertsAsDense(seed: UInt64, pivot: String, fill: Double) throws {
    let (builder, pairs, days) = Self.table(
      seed: seed, pivot: pivot, first: CalendarDay(iso8601: "2021-09-01")!, dayCount: 1_300, fill: fill)
    try Self.compareVariants(
      builder: builder, pairs: pairs, days: days, records: Self.records(seed: seed, days: days, count: 1_200),
      rules: Self.rules, seed: seed)
  }

  /// A source whose few rates span the calendar: a first day in the year 0001, a century-and-a-half gap, then
  /// rates up to 9999: records from 150 years before the last rate (before the fast path's day index), in year
  /// 0001 and 9999, with a `--max-staleness` reaching back over them.
  @Test(arguments: [UInt64(11), 12])
  func sourceSpanningTheCalendarConvertsAsDense(seed: UInt64) throws {
    var (builder, pairs, days) = Self.table(
      seed: seed, pivot: "EUR", first: CalendarDay(iso8601: "9999-10-01")!, dayCount: 60, fill: 0.7)
    // Rows 0 and 1 before the others: renumber, then add year 0001 and 150 years before.
    builder.renumberRows(days.indices.map { $0 + 2 })
    let early = [CalendarDay(iso8601: "0001-01-01")!, CalendarDay(iso8601: "9849-06-15")!]
    for (row, _) in early.enumerated() {
      for column in pairs.indices { builder.append(row: row, column: column, value: ExactDecimal("1.\(row + 2)\(column)")!) }
    }
    days = early + days
    var generator = Generator(state: seed)
    var records = "id,date,amount,from,to\n"
    let probes = [
      "0001-01-01", "0001-01-02", "0002-03-04", "9849-06-14", "9849-06-15", "9849-06-16", "9899-01-01", "9999-09-30",
      "9999-12-31",
    ]
    let codes = ["EUR", "USD", "JPY", "GBP", "CHF", "SEK"]
    for index in 0..<400 {
      let day = index < 200 ? probes[index % probes.count] : days.randomElement(using: &generator)!.description
      records +=
        "R\(index),\(day),100,\(codes.randomElement(using: &generator)!),\(codes.randomElement(using: &generator)!)\n"
    }
    try Self.compareVariants(
      builder: builder, pairs: pairs, days: days, records: records,
      rules: [(.spot, 0), (.spot, 5), (.spot, 60_000), (.spot, 4_000_000)], seed: seed)
  }

  /// A table of 2,016 pairs (every pair of 64 currencies, one way round) over 1,200 days, 15% of its cells
  /// present: sparse as built. Records jump between old and new days, so the fast path loads more than a million
  /// cells and lets its rows go, on one thread and on three.
  @Test func wideTableReleasingRowsConvertsAsDense() throws {
    let seed: UInt64 = 21
    var generator = Generator(state: seed)
    let codes = Array(
      ISO4217.allCurrencies.map(\.code).filter { CurrencyLifecycle.endOfUse(of: $0) == nil }.prefix(64))
    #expect(codes.count == 64)
    let pairs = codes.indices.flatMap { i in codes.indices.filter { $0 > i }.map { CurrencyPair(base: codes[i], quote: codes[$0]) } }
    let first = CalendarDay(iso8601: "2019-01-01")!
    let days = (0..<1_200).map { first.adding(days: $0) }
    var builder = RateGrid.Builder()
    for row in days.indices {
      for column in pairs.indices where Int.random(in: 0..<100, using: &generator) < 15 {
        builder.append(
          row: row, column: column,
          value: ExactDecimal(significand: Int128(Int.random(in: 1...9_999_999, using: &generator)), scale: 4))
      }
    }
    #expect(builder.grid(rows: days.count, width: pairs.count).isSparse)
    var records = "id,date,amount,from,to\n"
    for index in 0..<5_000 {
      let day = days.randomElement(using: &generator)!.adding(days: Int.random(in: -1...1, using: &generator))
      records +=
        "R\(index),\(day),1000,\(codes.randomElement(using: &generator)!),\(codes.randomElement(using: &generator)!)\n"
    }
    try Self.compareVariants(
      builder: builder, pairs: pairs, days: days, records: records, rules: [(.spot, 0), (.spot, 3)],
      variants: Self.variants.filter { $0.fastPath || $0.parts == 1 }, seed: seed)
  }
}
