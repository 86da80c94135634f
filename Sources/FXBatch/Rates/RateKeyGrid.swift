/// The keys of a ``RateKeyIndex`` laid out as a grid of (base, quote, day) cells, each holding its key's index:
/// for keys that fill most of their grid (a lock of a year's payments between a few dozen currencies), a key is
/// found by arithmetic in 4 bytes per cell — a grid small enough to stay in the processor's cache where the
/// hashed slots (12 bytes per slot, at most 3/4 full) do not.
struct RateKeyGrid: Sendable {
  /// Per currency code's letters (5 bits each), its place among the grid's currencies; 255: none.
  private let place: [UInt8]
  /// The packed code at each place (a code whose letters are not A–Z could share a place: it is checked).
  private let codes: [UInt32]
  /// Per cell `(base place × currencies + quote place) × days + (day − firstDay)`, the key's index; −1: none.
  private let cells: [Int32]
  private let currencyCount: Int
  private let firstDay: Int
  private let dayCount: Int

  /// A grid of no keys (finds none).
  init() {
    place = []
    codes = []
    cells = []
    currencyCount = 0
    firstDay = 0
    dayCount = 0
  }

  /// The grid of an index's keys, or `nil` when they do not fill a quarter of it (or over 255 currencies, or
  /// cells past 2^28).
  init?(_ keys: RateKeyIndex) {
    guard keys.count > 0 else { return nil }
    var place = [UInt8](repeating: 255, count: 1 << 15)
    var codes: [UInt32] = []
    var firstDay = Int.max
    var lastDay = Int.min
    for index in 0..<keys.count {
      let key = keys.key(at: index)
      for code in [key.pair.base, key.pair.quote] {
        let letters = Self.letters(code)
        if place[letters] == 255 {
          guard codes.count < 255 else { return nil }
          place[letters] = UInt8(codes.count)
          codes.append(code.packed)
        } else if codes[Int(place[letters])] != code.packed {
          return nil
        }
      }
      firstDay = min(firstDay, key.day.daysSinceEpoch)
      lastDay = max(lastDay, key.day.daysSinceEpoch)
    }
    let dayCount = lastDay - firstDay + 1
    let (pairs, pairsOverflow) = codes.count.multipliedReportingOverflow(by: codes.count)
    let (cellCount, cellsOverflow) = pairs.multipliedReportingOverflow(by: dayCount)
    guard !pairsOverflow, !cellsOverflow, cellCount <= 1 << 28, cellCount / 4 <= keys.count else { return nil }
    var cells = [Int32](repeating: -1, count: cellCount)
    for index in 0..<keys.count {
      let key = keys.key(at: index)
      let cell =
        (Int(place[Self.letters(key.pair.base)]) * codes.count + Int(place[Self.letters(key.pair.quote)])) * dayCount
        + key.day.daysSinceEpoch - firstDay
      cells[cell] = Int32(index)
    }
    self.place = place
    self.codes = codes
    self.cells = cells
    currencyCount = codes.count
    self.firstDay = firstDay
    self.dayCount = dayCount
  }

  /// The index of a key, or `nil` when it is not in the grid.
  @inline(__always)
  func index(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) -> Int? {
    guard !cells.isEmpty else { return nil }
    let offset = day.daysSinceEpoch &- firstDay
    guard offset >= 0, offset < dayCount else { return nil }
    let basePlace = Int(place[Self.letters(base)])
    let quotePlace = Int(place[Self.letters(quote)])
    guard basePlace != 255, quotePlace != 255, codes[basePlace] == base.packed, codes[quotePlace] == quote.packed
    else { return nil }
    let found = cells[(basePlace &* currencyCount &+ quotePlace) &* dayCount &+ offset]
    return found >= 0 ? Int(found) : nil
  }

  /// A code's place in ``place``: five bits of each letter.
  @inline(__always)
  private static func letters(_ code: CurrencyCode) -> Int {
    let packed = code.packed
    return Int((packed >> 6) & 0x7C00 | (packed >> 3) & 0x3E0 | packed & 0x1F)
  }
}
