import Testing

@testable import FXBatch

extension BytesTests {
  @Suite("ShortFieldCache")
  struct ShortFieldCacheTests {
    typealias Cache = ShortFieldCache<Int>

    @Test func keyPacksTheBytesAndTheLength() {
      let memory = ExactBytes("EUR")
      // 'E' 0x45, 'U' 0x55, 'R' 0x52, least significant first; the count in the top byte's low bits, and the
      // top bit set (a used slot).
      let expected: (UInt64, UInt64) = (0x52_55_45, 3 << 56 | 1 << 63)
      #expect(Cache.key(memory.view).map { $0 == expected } == true)
      #expect(Cache.key(memory.buffer).map { $0 == expected } == true)
      let empty = ExactBytes("")
      #expect(withExtendedLifetime(empty) { Cache.key(empty.view) }.map { $0 == (0, 1 << 63) } == true)
    }

    @Test func fifteenBytesAreTheLongestKey() {
      let fifteen = ExactBytes("2024-01-31T10:0")
      let sixteen = ExactBytes("2024-01-31T10:00")
      let expectedHigh = Self.littleEndian(Array("2024-01-31T10:0".utf8)[8...]) | 15 << 56 | 1 << 63
      #expect(Cache.key(fifteen.view).map { $0 == (Self.littleEndian(Array("2024-01-".utf8)), expectedHigh) } == true)
      #expect(Cache.key(sixteen.view) == nil)
      #expect(Cache.key(padded: sixteen.view) == nil)
    }

    static func littleEndian(_ bytes: some Sequence<UInt8>) -> UInt64 { BytesTests.littleEndian(bytes) }

    @Test(arguments: 0...15)
    func paddedKeyIsTheKeyWhateverFollows(count: Int) {
      let text = Array("ABCDEFGHIJKLMNO".utf8).prefix(count)
      // Exactly 16 bytes readable from the field's start, the rest of them not the field's.
      let padded = ExactBytes(Array(text), padding: 16 - count, fill: 0xA5)
      let plain = ExactBytes(Array(text))
      let key = Cache.key(plain.view)
      #expect(key != nil)
      #expect(Cache.key(padded: padded.view).map { found in key.map { $0 == found } == true } == true)
    }

    @Test func keysOfDifferentLengthsDiffer() {
      let one = ExactBytes([0x41])
      let two = ExactBytes([0x41, 0])
      let (short, long) = withExtendedLifetime((one, two)) { (Cache.key(one.view), Cache.key(two.view)) }
      #expect(short.map { $0.0 } == long.map { $0.0 })
      #expect(short.map { $0.1 } != long.map { $0.1 })
    }

    @Test func remembersValuesAcrossGrowth() throws {
      var cache = Cache()
      var keys: [(UInt64, UInt64)] = []
      for value in 0..<2000 {
        let memory = ExactBytes("day-\(value)")
        let key = try #require(withExtendedLifetime(memory) { Cache.key(memory.view) })
        #expect(cache.value(for: key) == nil)
        cache.insert(value, for: key)
        keys.append(key)
      }
      for (value, key) in keys.enumerated() { #expect(cache.value(for: key) == value) }
      cache.insert(-1, for: keys[7])
      #expect(cache.value(for: keys[7]) == -1)
      #expect(cache.value(for: keys[8]) == 8)
    }

    @Test func valuesPastTheLimitAreNotKept() throws {
      var cache = Cache()
      for value in 0..<Cache.capacityLimit {
        cache.insert(value, for: (UInt64(value), 1 << 63 | 8 << 56))
      }
      let extra: (UInt64, UInt64) = (UInt64(Cache.capacityLimit), 1 << 63 | 8 << 56)
      cache.insert(1, for: extra)
      #expect(cache.value(for: extra) == nil)
      #expect(cache.value(for: (0, 1 << 63 | 8 << 56)) == 0)
      #expect(cache.value(for: (UInt64(Cache.capacityLimit - 1), 1 << 63 | 8 << 56)) == Cache.capacityLimit - 1)
    }
  }
}
