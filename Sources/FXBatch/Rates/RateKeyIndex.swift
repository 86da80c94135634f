/// The distinct rate keys of a run, each with a dense index (0, 1, 2, … in the order first seen): pass 1 adds
/// every record's key, pass 2 finds each record's answer by the key's index.
///
/// A key is packed into one 64-bit word — each ISO 4217 code as three 5-bit letters, the day as an offset
/// from −2³³ days — and the table is open addressing with a multiplicative hash, so adding or finding a key
/// costs a few nanoseconds, instead of a `Set<RateKey>`'s hashing and 24+ bytes. A slot is 4 bytes: the key's
/// index and, above it, some bits of the key's hash, so that a probe reads a key only when those bits match (a
/// million keys: 8 MB of slots and 8 MB of keys).
struct RateKeyIndex {
  /// Per slot: 0 when empty, else the key's index + 1 (``indexMask``) and bits of its hash (``tagMask``).
  private var slots: [UInt32]
  private var mask: Int
  /// 64 less the bits of a slot's number: a key's first slot is the top bits of its hash.
  private var shift: UInt64
  private var indexMask: UInt32
  private var tagMask: UInt32
  /// The keys, packed, in index order.
  private(set) var packedKeys: [UInt64] = []
  /// How many of ``packedKeys`` are in the slots: the rest were appended unindexed (``append(new:)``) and are
  /// found once ``indexAppended()`` adds them.
  private var indexedCount = 0

  init() {
    slots = []
    mask = 0
    shift = 0
    indexMask = 0
    tagMask = 0
    resize(1024)
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

  /// The quote currency of a packed key.
  @inline(__always)
  static func quote(ofPacked packed: UInt64) -> CurrencyCode { code(UInt32(truncatingIfNeeded: packed >> 34) & 0x7FFF) }

  /// The key with this index.
  func key(at index: Int) -> RateKey { Self.unpack(packedKeys[index]) }

  /// A code's three letters as 15 bits (each letter less `A`, 5 bits).
  @inline(__always)
  static func letters(_ code: CurrencyCode) -> UInt32 {
    let packed = code.packed
    return (packed >> 16 & 0xFF - 65) << 10 | (packed >> 8 & 0xFF - 65) << 5 | (packed & 0xFF - 65)
  }

  private static func code(_ letters: UInt32) -> CurrencyCode {
    CurrencyCode(packed: (letters >> 10 & 31 + 65) << 16 | (letters >> 5 & 31 + 65) << 8 | (letters & 31 + 65))
  }

  /// A key's first slot and the hash bits its slot keeps.
  @inline(__always)
  private func place(_ packed: UInt64) -> (slot: Int, tag: UInt32) {
    let mixed = packed &* 0x9E37_79B9_7F4A_7C15
    return (Int(truncatingIfNeeded: mixed >> shift), UInt32(truncatingIfNeeded: mixed >> 8) & tagMask)
  }

  /// The index of a packed key, or `nil` when it was never added.
  @inline(__always)
  func index(of packed: UInt64) -> Int? {
    assert(indexedCount == packedKeys.count, "RateKeyIndex: keys appended unindexed")
    let (first, tag) = place(packed)
    var slot = first
    while true {
      let found = slots[slot]
      if found == 0 { return nil }
      if found & tagMask == tag {
        let index = Int(found & indexMask) &- 1
        if packedKeys[index] == packed { return index }
      }
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
    let (first, tag) = place(packed)
    var slot = first
    while true {
      let found = slots[slot]
      if found == 0 { break }
      if found & tagMask == tag {
        let index = Int(found & indexMask) &- 1
        if packedKeys[index] == packed { return index }
      }
      slot = (slot + 1) & mask
    }
    let index = packedKeys.count
    slots[slot] = tag | UInt32(index + 1)
    packedKeys.append(packed)
    indexedCount = packedKeys.count
    if packedKeys.count * 4 > slots.count * 3 { resize(slots.count * 2) }
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
    if capacity > slots.count { return resize(capacity) }
    for index in indexedCount..<packedKeys.count {
      let (first, tag) = place(packedKeys[index])
      var slot = first
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = tag | UInt32(index + 1)
    }
    indexedCount = packedKeys.count
  }

  /// Adds every key of another index (into an empty one: takes it, sharing its storage).
  mutating func formUnion(_ other: RateKeyIndex) {
    if packedKeys.isEmpty {
      self = other
      return
    }
    for packed in other.packedKeys { insert(packed) }
  }

  /// Room for `count` keys without growing.
  mutating func reserveCapacity(_ count: Int) {
    packedKeys.reserveCapacity(count)
    var capacity = slots.count
    while count * 4 > capacity * 3 { capacity *= 2 }
    if capacity > slots.count { resize(capacity) }
  }

  /// Makes `capacity` slots (a power of two) and puts every key in its slot: an index + 1 up to `capacity` needs the
  /// bits up to and including the capacity's, the rest keep hash bits.
  private mutating func resize(_ capacity: Int) {
    precondition(capacity <= 1 << 31, "more rate keys than an index holds")
    let indexBits = capacity.trailingZeroBitCount + 1
    indexMask = indexBits >= 32 ? .max : (1 << UInt32(indexBits)) - 1
    tagMask = ~indexMask
    mask = capacity - 1
    shift = UInt64(64 - capacity.trailingZeroBitCount)
    slots = Array(repeating: 0, count: capacity)
    for (index, packed) in packedKeys.enumerated() {
      let (first, tag) = place(packed)
      var slot = first
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = tag | UInt32(index + 1)
    }
    indexedCount = packedKeys.count
  }
}
