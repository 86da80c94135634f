import FXBatchTestSupport
import Testing

@testable import FXBatch

/// ``RateGrid``: the sparse form (the rates present, per column) reads as the dense one, cell for cell, and the
/// builder keeps a nearly full table dense and a sparse one sparse (issue 30: a grid of days × pairs, whatever
/// the rates present, took gigabytes).
@Suite("RateGrid: sparse = dense")
struct RateGridTests {
  /// A deterministic generator (SplitMix64), so a failure repeats.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Random cells of a `rows × width` grid, each present with probability `fill`, added in random order; one in
  /// ten too wide for 64 bits when `wide`.
  static func builder(rows: Int, width: Int, fill: Double, wide: Bool, seed: UInt64) -> RateGrid.Builder {
    var generator = Generator(state: seed)
    var cells: [(Int, Int, ExactDecimal)] = []
    for row in 0..<rows {
      for column in 0..<width where Double.random(in: 0..<1, using: &generator) < fill {
        let significand =
          wide && Int.random(in: 0..<10, using: &generator) == 0
          ? Int128(UInt64.max) * 7 : Int128(Int.random(in: 1...9_999_999, using: &generator))
        cells.append((row, column, ExactDecimal(significand: significand, scale: Int.random(in: 0...8, using: &generator))))
      }
    }
    cells.shuffle(using: &generator)
    var builder = RateGrid.Builder()
    for (row, column, value) in cells { builder.append(row: row, column: column, value: value) }
    return builder
  }

  @Test(arguments: [(0.0, false), (0.05, false), (0.5, true), (1.0, false)])
  func sparseReadsAsDense(fill: Double, wide: Bool) {
    let rows = 120
    let width = 9
    let builder = Self.builder(rows: rows, width: width, fill: fill, wide: wide, seed: UInt64(fill * 100) + 1)
    let dense = builder.grid(rows: rows, width: width, dense: true)
    let sparse = builder.grid(rows: rows, width: width, dense: false)
    #expect(sparse.isSparse && !dense.isSparse)
    #expect(sparse.count == dense.count)
    for index in 0..<rows * width { #expect(sparse[index] == dense[index], "cell \(index)") }
    for row in 0..<rows { #expect(sparse.row(row, width: width) == dense.row(row, width: width)) }
    for column in 0..<width {
      let (s, d) = (
        sparse.firstAndLastRow(column: column, width: width, rows: rows),
        dense.firstAndLastRow(column: column, width: width, rows: rows)
      )
      #expect(s?.first == d?.first && s?.last == d?.last)
      for range in [0..<0, 0..<rows, 3..<4, 10..<57, 119..<120] {
        #expect(
          sparse.hasRate(column: column, width: width, in: range) == dense.hasRate(column: column, width: width, in: range))
      }
    }
    var fromSparse: [Int: ExactDecimal] = [:]
    sparse.forEachRate(rows: rows, width: width) { row, column, value in fromSparse[row * width + column] = value }
    var fromDense: [Int: ExactDecimal] = [:]
    dense.forEachRate(rows: rows, width: width) { row, column, value in fromDense[row * width + column] = value }
    #expect(fromSparse == fromDense)
    #expect(fromSparse.count == builder.count)
  }

  /// A nearly full table (the ECB's history) stays dense, whatever its size; one with a rate in few of its
  /// cells past a million is sparse; a small one is dense.
  @Test func builderChoosesByDensity() {
    let full = Self.builder(rows: 2_000, width: 40, fill: 0.9, wide: false, seed: 7)
    #expect(!full.grid(rows: 2_000, width: 40).isSparse)
    let few = Self.builder(rows: 30_000, width: 50, fill: 0.01, wide: false, seed: 8)
    #expect(few.grid(rows: 30_000, width: 50).isSparse)
    let small = Self.builder(rows: 100, width: 50, fill: 0.01, wide: false, seed: 9)
    #expect(!small.grid(rows: 100, width: 50).isSparse)
  }

  /// A rates file of many days and pairs but few rates holds them sparse, and answers as a dense table would.
  @Test func ratesFileOfFewRatesIsSparse() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let codes = ["USD", "JPY", "GBP", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF"]
    let pairs = codes.flatMap { base in codes.filter { $0 != base }.map { (base, $0) } }
    let first = CalendarDay(iso8601: "1000-01-01")!
    var text = "date,base,quote,rate\n"
    for index in 0..<20_000 {
      text += "\(first.adding(days: index)),\(pairs[index % pairs.count].0),\(pairs[index % pairs.count].1),1.\(index % 97 + 1)\n"
    }
    let path = try directory.write(text, named: "rates.csv")
    let table = try RatesFile.load(path: path)
    #expect(table.values.isSparse)
    #expect(table.days.count == 20_000 && table.pairs.count == 90)
    let day = first.adding(days: 12_345)
    let pair = pairs[12_345 % pairs.count]
    let quote = try table.quote(
      for: RateKey(base: CurrencyCode(pair.0)!, quote: CurrencyCode(pair.1)!, day: day), maxStaleness: 0
    )
    .get()
    #expect(quote.rateText == "1.\(12_345 % 97 + 1)")
    // The next day has another pair only: this one was not published then.
    let next = table.quote(
      for: RateKey(base: CurrencyCode(pair.0)!, quote: CurrencyCode(pair.1)!, day: day.adding(days: 1)), maxStaleness: 0)
    guard case .failure(let error) = next else {
      Issue.record("a rate on \(day.adding(days: 1))")
      return
    }
    #expect(error.code == .noRate)
  }
}
