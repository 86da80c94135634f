import Testing

@testable import FXBatch

/// ``RateKeyIndex``: each key's index in the order first added, found again through 4-byte slots that keep the
/// index and some of the key's hash bits, across growth.
@Suite("Rate key index")
struct RateKeyIndexTests {
  /// Keys over every pair of some codes and a run of days: neighbours that differ in one letter or one day.
  static func keys(days: Range<Int>) -> [UInt64] {
    let codes = ["EUR", "USD", "GBP", "JPY", "CHF", "AED", "ZAR", "ZWG"].compactMap { CurrencyCode($0) }
    var keys: [UInt64] = []
    for day in days {
      for base in codes {
        for quote in codes {
          if let packed = RateKeyIndex.pack(base: base, quote: quote, day: CalendarDay(daysSinceEpoch: day)) {
            keys.append(packed)
          }
        }
      }
    }
    return keys
  }

  // 128,000 keys added one by one (the index grows from 1,024 slots to 262,144), some twice: each keeps the index
  // it was first given, and keys never added are not found.
  @Test func keysKeepTheirIndexAcrossGrowth() {
    let keys = Self.keys(days: -1_000..<1_000)
    var index = RateKeyIndex()
    for (position, packed) in keys.enumerated() {
      #expect(index.insert(packed) == position)
      if position % 7 == 0 { #expect(index.insert(keys[position / 2]) == position / 2) }
    }
    #expect(index.count == keys.count)
    #expect(index.packedKeys == keys)
    var found = 0
    for (position, packed) in keys.enumerated() where index.index(of: packed) == position { found += 1 }
    #expect(found == keys.count)
    let absent = Self.keys(days: 1_000..<1_100)
    #expect(absent.allSatisfy { index.index(of: $0) == nil })
    #expect(index.key(at: 5) == RateKeyIndex.unpack(keys[5]))
  }

  // A union into an empty index takes the other's keys in their order; into a non-empty one, adds the new ones
  // after its own.
  @Test func unionsKeepTheOrderFirstSeen() {
    let first = Self.keys(days: 0..<10)
    let second = Self.keys(days: 5..<20)
    var empty = RateKeyIndex()
    empty.formUnion(RateKeyIndex(first.map(RateKeyIndex.unpack)))
    #expect(empty.packedKeys == first)
    empty.formUnion(RateKeyIndex(second.map(RateKeyIndex.unpack)))
    #expect(empty.packedKeys == first + second.filter { !first.contains($0) })
    var reserved = RateKeyIndex()
    reserved.reserveCapacity(5_000)
    for packed in second { reserved.insert(packed) }
    #expect(second.indices.allSatisfy { reserved.index(of: second[$0]) == $0 })
  }
}
