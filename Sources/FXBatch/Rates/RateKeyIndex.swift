/// The distinct rate keys of a run, each with a dense index (0, 1, 2, … in the order first seen): pass 1 adds
/// every record's key, pass 2 finds each record's answer by the key's index.
///
/// A key is packed into one 64-bit word — each ISO 4217 code as three 5-bit letters, the day as an offset
/// from −2³³ days — and the table is open addressing with a multiplicative hash, so adding or finding a key
/// costs a few nanoseconds and 12 bytes per slot, instead of a `Set<RateKey>`'s hashing and 24+ bytes.
struct RateKeyIndex {
  private var slots: [UInt64]
  private var slotIndices: [Int32]
  private var mask: Int
  /// 64 − log2 of the slot count: a key's slot is the top bits of its hash, as many as the table needs.
  private var shift: UInt64
  /// The keys, packed, in index order.
  private(set) var packedKeys: [UInt64] = []
  /// How many of ``packedKeys`` are in the slots: the rest were appended unindexed (``append(new:)``) and are
  /// found once ``indexAppended()`` adds them.
  private var indexedCount = 0

  init() {
    slots = Array(repeating: 0, count: 1024)
    slotIndices = Array(repeating: 0, count: 1024)
    mask = 1023
    shift = 54
  }

  /// An index of these keys (a key whose day cannot be packed is left out; no parsed date is such a day).
  init(_ keys: some Sequence<RateKey>) {
    self.init()
    for key in keys {
      if let packed = Self.pack(key) { insert(packed) }
    }
  }

  var count: Int { packedKeys.count }

  /// Every key.
  var allKeys: Set<RateKey> { Set(packedKeys.map(Self.unpack)) }

  /// The packed form of a key; `nil` for a day more than 2³³ days from 1970 (none that a date parses to).
  @inline(__always)
  static func pack(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) -> UInt64? {
    let offset = day.daysSinceEpoch &+ (1 << 33)
    guard offset > 0, offset < 1 << 34 else { return nil }
    return UInt64(letters(base)) << 49 | UInt64(letters(quote)) << 34 | UInt64(offset)
  }

  @inline(__always)
  static func pack(_ key: RateKey) -> UInt64? { pack(base: key.pair.base, quote: key.pair.quote, day: key.day) }

  /// The key of a packed word.
  static func unpack(_ packed: UInt64) -> RateKey {
    RateKey(
      base: code(UInt32(truncatingIfNeeded: packed >> 49) & 0x7FFF),
      quote: code(UInt32(truncatingIfNeeded: packed >> 34) & 0x7FFF),
      day: CalendarDay(daysSinceEpoch: Int(packed & ((1 << 34) - 1)) - (1 << 33)))
  }

  /// The key with this index.
  func key(at index: Int) -> RateKey { Self.unpack(packedKeys[index]) }

  @inline(__always)
  private static func letters(_ code: CurrencyCode) -> UInt32 {
    let packed = code.packed
    return (packed >> 16 & 0xFF - 65) << 10 | (packed >> 8 & 0xFF - 65) << 5 | (packed & 0xFF - 65)
  }

  private static func code(_ letters: UInt32) -> CurrencyCode {
    CurrencyCode(packed: (letters >> 10 & 31 + 65) << 16 | (letters >> 5 & 31 + 65) << 8 | (letters & 31 + 65))
  }

  @inline(__always)
  private func slot(_ packed: UInt64) -> Int {
    let mixed = packed &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed >> shift)
  }

  /// The index of a packed key, or `nil` when it was never added.
  @inline(__always)
  func index(of packed: UInt64) -> Int? {
    assert(indexedCount == packedKeys.count, "RateKeyIndex: keys appended unindexed")
    var slot = self.slot(packed)
    while true {
      let found = slots[slot]
      if found == packed { return Int(slotIndices[slot]) }
      if found == 0 { return nil }
      slot = (slot + 1) & mask
    }
  }

  /// Adds a packed key (no effect when it is there already).
  ///
  /// - Returns: the key's index.
  @discardableResult
  @inline(__always)
  mutating func insert(_ packed: UInt64) -> Int {
    assert(indexedCount == packedKeys.count, "RateKeyIndex: keys appended unindexed")
    var slot = self.slot(packed)
    while true {
      let found = slots[slot]
      if found == packed { return Int(slotIndices[slot]) }
      if found == 0 { break }
      slot = (slot + 1) & mask
    }
    let index = packedKeys.count
    slots[slot] = packed
    slotIndices[slot] = Int32(index)
    packedKeys.append(packed)
    indexedCount = packedKeys.count
    if packedKeys.count * 4 > slots.count * 3 { grow() }
    return index
  }

  /// Appends a key the caller knows is not in the index yet (a lock's keys in their written order, each after
  /// the last), without finding its slot: ``indexAppended()`` adds such keys to the slots in one pass, before the
  /// index is asked or added to again.
  ///
  /// - Returns: the key's index.
  @inline(__always)
  mutating func append(new packed: UInt64) -> Int {
    packedKeys.append(packed)
    return packedKeys.count - 1
  }

  /// Adds the keys appended by ``append(new:)`` to the slots (a tight loop, whose cache misses overlap).
  mutating func indexAppended() {
    guard indexedCount < packedKeys.count else { return }
    var capacity = slots.count
    while packedKeys.count * 4 > capacity * 3 { capacity *= 2 }
    if capacity > slots.count { return rehash(capacity) }
    for index in indexedCount..<packedKeys.count {
      let packed = packedKeys[index]
      var slot = self.slot(packed)
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = packed
      slotIndices[slot] = Int32(index)
    }
    indexedCount = packedKeys.count
  }

  /// Adds every key of another index.
  mutating func formUnion(_ other: RateKeyIndex) {
    for packed in other.packedKeys { insert(packed) }
  }

  /// Room for `count` keys without growing.
  mutating func reserveCapacity(_ count: Int) {
    packedKeys.reserveCapacity(count)
    var capacity = slots.count
    while count * 4 > capacity * 3 { capacity *= 2 }
    if capacity > slots.count { rehash(capacity) }
  }

  private mutating func grow() { rehash(slots.count * 2) }

  private mutating func rehash(_ capacity: Int) {
    slots = Array(repeating: 0, count: capacity)
    slotIndices = Array(repeating: 0, count: capacity)
    mask = capacity - 1
    shift = UInt64(64 - capacity.trailingZeroBitCount)
    for (index, packed) in packedKeys.enumerated() {
      var slot = self.slot(packed)
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = packed
      slotIndices[slot] = Int32(index)
    }
    indexedCount = packedKeys.count
  }
}
