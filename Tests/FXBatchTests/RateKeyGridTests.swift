import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// ``RateKeyGrid``, the keys of a dense lock found by arithmetic: every cell of its space finds what the hashed
/// ``RateKeyIndex`` finds, for keys in the written order (found by rank) and in another order (an index per
/// cell); sparse keys get no grid. A frozen run on a dense lock converts through it as the general path does.
@Suite("Rate key grid")
struct RateKeyGridTests {
  static let codes = ["EUR", "USD", "GBP", "JPY", "CHF"].compactMap { CurrencyCode($0) }
  static let firstDay = CalendarDay(year: 2024, month: 3, day: 1) ?? CalendarDay(daysSinceEpoch: 0)

  /// The keys of every pair of these currencies (base ≠ quote) on 10 days, some left out, in the order a lock
  /// writes them (day, base, quote).
  static func denseKeys() -> [RateKey] {
    var keys: [RateKey] = []
    for day in 0..<10 {
      for base in codes.sorted() {
        for quote in codes.sorted() where base != quote && (day * 7 + Int(base.packed ^ quote.packed)) % 5 != 0 {
          keys.append(RateKey(base: base, quote: quote, day: firstDay.adding(days: day)))
        }
      }
    }
    return keys
  }

  /// Every key of the grid's space and around it: the grid finds each key's index exactly as the hashed index.
  static func expectSameAsTheIndex(_ grid: RateKeyGrid, _ index: RateKeyIndex) {
    let others = codes + ["SEK", "ZZZ"].compactMap { CurrencyCode(letters: $0) }
    for day in -2..<12 {
      for base in others {
        for quote in others {
          let key = RateKey(base: base, quote: quote, day: firstDay.adding(days: day))
          let expected = RateKeyIndex.pack(key).flatMap(index.index(of:))
          #expect(grid.index(base: base, quote: quote, day: key.day) == expected, "\(key)")
        }
      }
    }
  }

  @Test func keysInTheWrittenOrderAreFoundByRank() throws {
    let keys = Self.denseKeys()
    let index = RateKeyIndex(keys)
    #expect(index.count == keys.count && keys.count > 5 * 5 * 10 / 2)
    let grid = try #require(RateKeyGrid(index))
    Self.expectSameAsTheIndex(grid, index)
  }

  @Test func keysInAnotherOrderKeepTheirIndexPerCell() throws {
    var keys = Self.denseKeys()
    keys.swapAt(0, keys.count - 1)
    keys.swapAt(3, 40)
    let index = RateKeyIndex(keys)
    let grid = try #require(RateKeyGrid(index))
    Self.expectSameAsTheIndex(grid, index)
    #expect(grid.index(base: keys[0].pair.base, quote: keys[0].pair.quote, day: keys[0].day) == 0)
  }

  // A key a year away from the rest leaves the grid mostly empty: no grid, the hashed index finds the keys.
  @Test func sparseKeysHaveNoGrid() {
    var keys = Self.denseKeys()
    keys.append(RateKey(base: Self.codes[0], quote: Self.codes[1], day: Self.firstDay.adding(days: 400)))
    #expect(RateKeyGrid(RateKeyIndex(keys)) == nil)
    #expect(RateKeyGrid(RateKeyIndex([RateKey]())) == nil)
  }

  // A frozen run on a dense lock (found through its grid): an error key, a stale fallback rate, a legacy
  // currency's key (routed through its changeover, so the general path answers it), keys not in the lock:
  // the fast path writes what the general path writes, and converts the rest.
  @Test(arguments: [1, 3])
  func aFrozenRunOnADenseLockWritesWhatTheGeneralPathWrites(parts: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var table = AnswerTable()
    var rows = ["id,date,amount,from,to"]
    let litas = try #require(CurrencyCode("LTL"))
    for (number, key) in (Self.denseKeys() + [RateKey(base: litas, quote: Self.codes[1], day: Self.firstDay)]).enumerated() {
      let value = "1.\(1000 + number)"
      var rateDay = key.day
      if number == 17 { rateDay = key.day.adding(days: -9) }  // older than --max-staleness 5
      if number == 30 {
        table.set(key, .failure(RowError(.noRate, "Frankfurter: not found")))
      } else {
        let rate = ExchangeRate(numerator: try #require(ExactDecimal(value)))
        table.set(
          key,
          .success(
            RateQuote(
              rate: rate, rateText: rate.decimalText(), rateDay: rateDay,
              isFallback: rateDay != key.day, source: "frankfurter \(key.pair.base)/\(key.pair.quote)=\(value)")))
      }
      rows.append("\(number),\(key.day),\(100 + number),\(key.pair.base),\(key.pair.quote)")
      rows.append("\(number)b,\(key.day),-\(number + 1),\(key.pair.base),\(key.pair.quote)")
    }
    rows.append("x1,2024-03-04,10,EUR,SEK")
    rows.append("x2,2024-05-04,10,EUR,USD")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    try LockFile.write(
      quotes: table, source: AnswerTableTests.source, defaultDay: Self.firstDay.adding(days: 9), to: lock)
    let input = try directory.write(rows.joined(separator: "\n") + "\n", named: "in.csv")
    let (frozen, _) = try TableSourceDifferentialTests.frozen(lock)
    guard case .lockFile(_, let locked) = frozen else {
      Issue.record("a quotes lock")
      return
    }
    #expect(RateKeyGrid(locked.answers.keys) != nil)
    let tally = FastPathTally()
    let fast = try TableSourceDifferentialTests.run(input, format: .csv, source: frozen, parts: parts) {
      $0.fastPathTally = tally
    }
    let general = try TableSourceDifferentialTests.run(input, format: .csv, source: frozen, parts: parts) {
      $0.fastPath = false
    }
    TableSourceDifferentialTests.compare(fast, general, "frozen dense lock, \(parts) parts")
    // Every record but the error key's, the stale one's, the legacy one's and the two not in the lock.
    #expect(tally.records == rows.count - 1 - 3 * 2 - 2)
    let text = String(decoding: fast.output, as: UTF8.self)
    #expect(text.contains("stale_rate") && text.contains("no_rate"))
  }
}
