/// The keys of a ``RateKeyIndex`` laid out as a grid of (day, base, quote) cells, for keys that fill most of
/// their grid (a lock of a year's payments between a few dozen currencies): a key is found by arithmetic, not
/// hashing, in a grid small enough to stay in the processor's cache where the hashed slots (12 bytes a slot, at
/// most 3/4 full) do not.
///
/// The currencies take their places in the order of their codes, so a lock's keys in their written order
/// (day, base, quote) are in the grid's order: then a key's index is its cell's rank among the filled cells,
/// and the grid is one bit a cell with a count per 64 cells (82 KB for 300,000 keys of 30 currencies over a
/// year). Keys in another order keep their index in each cell (4 bytes a cell).
struct RateKeyGrid: Sendable {
  /// Per currency code's letters (5 bits each), its place among the grid's currencies; 255: none.
  private let place: [UInt8]
  /// The packed code at each place (a code whose letters are not A–Z could share a place: it is checked).
  private let codes: [UInt32]
  /// Per 64 cells, the count of filled cells before them and the bits of the filled ones (keys in grid order).
  private let ranks: [UInt64]
  /// Per cell, its key's index (−1: none), for keys in another order; empty when ``ranks`` holds them.
  private let cells: [Int32]
  private let currencyCount: Int
  private let firstDay: Int
  private let dayCount: Int

  /// A grid of no keys (finds none).
  init() {
    place = []
    codes = []
    ranks = []
    cells = []
    currencyCount = 0
    firstDay = 0
    dayCount = 0
  }

  /// The grid of an index's keys, or `nil` when they do not fill a quarter of it (or over 255 currencies, or
  /// cells past 2^28).
  init?(_ keys: RateKeyIndex) {
    guard keys.count > 0 else { return nil }
    var seen = [Bool](repeating: false, count: 1 << 15)
    var codes: [UInt32] = []
    var firstDay = Int.max
    var lastDay = Int.min
    for index in 0..<keys.count {
      let key = keys.key(at: index)
      for code in [key.pair.base, key.pair.quote] where !seen[Self.letters(code)] {
        seen[Self.letters(code)] = true
        codes.append(code.packed)
      }
      firstDay = min(firstDay, key.day.daysSinceEpoch)
      lastDay = max(lastDay, key.day.daysSinceEpoch)
    }
    let dayCount = lastDay - firstDay + 1
    let (pairs, pairsOverflow) = codes.count.multipliedReportingOverflow(by: codes.count)
    let (cellCount, cellsOverflow) = pairs.multipliedReportingOverflow(by: dayCount)
    guard codes.count < 255, !pairsOverflow, !cellsOverflow, cellCount <= 1 << 28, cellCount / 4 <= keys.count else {
      return nil
    }
    codes.sort()
    var place = [UInt8](repeating: 255, count: 1 << 15)
    for (index, code) in codes.enumerated() {
      let letters = Self.letters(CurrencyCode(packed: code))
      guard place[letters] == 255 else { return nil }  // two codes of the same letters' bits
      place[letters] = UInt8(index)
    }
    func cell(_ key: RateKey) -> Int {
      ((key.day.daysSinceEpoch - firstDay) * codes.count + Int(place[Self.letters(key.pair.base)])) * codes.count
        + Int(place[Self.letters(key.pair.quote)])
    }
    var inOrder = true
    var last = -1
    for index in 0..<keys.count {
      let found = cell(keys.key(at: index))
      if found <= last {
        inOrder = false
        break
      }
      last = found
    }
    if inOrder {
      var ranks = [UInt64](repeating: 0, count: 2 * ((cellCount + 63) / 64))
      for index in 0..<keys.count {
        let found = cell(keys.key(at: index))
        ranks[2 * (found >> 6) + 1] |= 1 << UInt64(found & 63)
      }
      var count: UInt64 = 0
      for word in 0..<(ranks.count / 2) {
        ranks[2 * word] = count
        count += UInt64(ranks[2 * word + 1].nonzeroBitCount)
      }
      self.ranks = ranks
      cells = []
    } else {
      var cells = [Int32](repeating: -1, count: cellCount)
      for index in 0..<keys.count { cells[cell(keys.key(at: index))] = Int32(index) }
      self.cells = cells
      ranks = []
    }
    self.place = place
    self.codes = codes
    currencyCount = codes.count
    self.firstDay = firstDay
    self.dayCount = dayCount
  }

  /// The index of a key, or `nil` when it is not in the grid.
  @inline(__always)
  func index(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) -> Int? {
    let offset = day.daysSinceEpoch &- firstDay
    guard offset >= 0, offset < dayCount else { return nil }
    let basePlace = Int(place[Self.letters(base)])
    let quotePlace = Int(place[Self.letters(quote)])
    guard basePlace != 255, quotePlace != 255, codes[basePlace] == base.packed, codes[quotePlace] == quote.packed
    else { return nil }
    let cell = (offset &* currencyCount &+ basePlace) &* currencyCount &+ quotePlace
    guard cells.isEmpty else {
      let found = cells[cell]
      return found >= 0 ? Int(found) : nil
    }
    let bits = ranks[(cell &>> 6) &<< 1 | 1]
    let bit = UInt64(cell & 63)
    guard bits &>> bit & 1 == 1 else { return nil }
    return Int(ranks[(cell &>> 6) &<< 1]) &+ (bits & ((1 &<< bit) &- 1)).nonzeroBitCount
  }

  /// A code's place in ``place``: five bits of each letter.
  @inline(__always)
  private static func letters(_ code: CurrencyCode) -> Int {
    let packed = code.packed
    return Int((packed >> 6) & 0x7C00 | (packed >> 3) & 0x3E0 | packed & 0x1F)
  }
}
