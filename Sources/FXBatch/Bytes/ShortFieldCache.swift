// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

/// Remembers what a short field's bytes decode to (a currency code, a date), so that a column with few distinct
/// values (30 currencies, 366 dates) is decoded once per distinct value instead of once per record.
///
/// Keys are the field's raw bytes, at most 15 of them, packed into two words; an open-addressing table with a
/// multiplicative hash. Longer fields, and fields past ``capacityLimit`` distinct values, are not cached: the
/// caller decodes them every time, with the same rules.
struct ShortFieldCache<Value> {
  private var keys: [(UInt64, UInt64)]
  private var values: [Value?]
  private var count = 0
  private var mask: Int
  /// The most distinct values kept.
  static var capacityLimit: Int { 1 << 16 }

  init() {
    keys = Array(repeating: (0, 0), count: 64)
    values = Array(repeating: nil, count: 64)
    mask = 63
  }

  /// The packed key of a field, or `nil` when it is longer than 15 bytes.
  @inline(__always)
  static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
    let count = bytes.count
    guard count <= 15 else { return nil }
    var low: UInt64 = 0
    var high: UInt64 = UInt64(count) << 56 | 1 << 63
    for index in 0..<count {
      let byte = UInt64(bytes[index])
      if index < 8 { low |= byte << (8 * UInt64(index)) } else { high |= byte << (8 * UInt64(index - 8)) }
    }
    return (low, high)
  }

  /// ``key(_:)`` of a field followed by at least 16 readable bytes (``CSVRecordView/readablePadding``): two
  /// word loads instead of a loop over bytes.
  @inline(__always)
  static func key(padded bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
    let count = bytes.count
    guard count <= 15 else { return nil }
    guard let start = bytes.baseAddress else { return (0, 1 << 63) }
    let raw = UnsafeRawPointer(start)
    let first = UInt64(littleEndian: UnalignedWord.load(raw))
    let second = UInt64(littleEndian: UnalignedWord.load(raw + 8))
    // Masks keep the field's bytes only: `count` bytes of the first word, `count − 8` of the second.
    let lowMask: UInt64 = count >= 8 ? ~0 : (1 << (8 * UInt64(count))) &- 1
    let highMask: UInt64 = count <= 8 ? 0 : (1 << (8 * UInt64(count - 8))) &- 1
    return (first & lowMask, (second & highMask) | UInt64(count) << 56 | 1 << 63)
  }

  /// ``key(_:)`` of a view's bytes.
  @inline(__always)
  static func key(_ bytes: ByteView) -> (UInt64, UInt64)? { key(bytes.buffer) }

  /// ``key(padded:)`` of a view whose bytes are followed by readable ones up to 16 in all (checked in debug builds).
  @inline(__always)
  static func key(padded bytes: ByteView) -> (UInt64, UInt64)? {
    assert(
      bytes.count > 15 || bytes.count + bytes.readablePadding >= 16 || bytes.buffer.baseAddress == nil,
      "ShortFieldCache: a field without 16 readable bytes")
    return key(padded: bytes.buffer)
  }

  @inline(__always)
  private func slot(_ key: (UInt64, UInt64)) -> Int {
    let mixed = (key.0 &* 0x9E37_79B9_7F4A_7C15) ^ (key.1 &* 0xC2B2_AE3D_27D4_EB4F)
    return Int(truncatingIfNeeded: (mixed ^ (mixed >> 29))) & mask
  }

  /// The value remembered for a key.
  @inline(__always)
  func value(for key: (UInt64, UInt64)) -> Value? {
    var index = slot(key)
    while true {
      let found = keys[index]
      if found.1 == 0 { return nil }
      if found == key { return values[index] }
      index = (index + 1) & mask
    }
  }

  /// Remembers a value (ignored past ``capacityLimit`` values).
  mutating func insert(_ value: Value, for key: (UInt64, UInt64)) {
    guard count < Self.capacityLimit else { return }
    if (count + 1) * 2 > keys.count { grow() }
    var index = slot(key)
    while keys[index].1 != 0 {
      if keys[index] == key {
        values[index] = value
        return
      }
      index = (index + 1) & mask
    }
    keys[index] = key
    values[index] = value
    count += 1
  }

  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    keys = Array(repeating: (0, 0), count: oldKeys.count * 2)
    values = Array(repeating: nil, count: oldKeys.count * 2)
    mask = keys.count - 1
    count = 0
    for (index, key) in oldKeys.enumerated() where key.1 != 0 {
      if let value = oldValues[index] { insert(value, for: key) }
    }
  }
}

/// A cache is a value (its arrays copy on write): each thread's copy is its own.
extension ShortFieldCache: Sendable where Value: Sendable {}
