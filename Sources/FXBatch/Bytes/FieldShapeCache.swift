// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

/// Remembers what a record's sequence of field names (its *shape*: a JSON object's member names in order)
/// resolves to — which member plays which role — so that records sharing their names, as nearly all records of
/// an export do, are resolved once instead of once per record.
///
/// Keys are the names' raw bytes; the last shape used is compared first, then a hash table is probed. At most
/// ``capacityLimit`` shapes are kept: past that, ``shape(count:name:resolve:)`` returns `nil` for a new shape
/// and the caller takes its general path.
struct FieldShapeCache<Value> {
  /// The names of every shape, back to back.
  private var names: [UInt8] = []
  /// Per member of every shape, back to back: where its name starts in ``names`` and its length.
  private var members: [(start: Int, length: Int)] = []
  /// Per shape: its first entry in ``members`` and its member count.
  private var bounds: [(first: Int, count: Int)] = []
  private var values: [Value] = []
  private var slots: [Int32] = Array(repeating: -1, count: 64)
  private var hashes: [UInt64] = Array(repeating: 0, count: 64)
  private var last = -1
  /// The most shapes kept.
  static var capacityLimit: Int { 4096 }

  init() {}

  /// The index and value of the shape of a record.
  ///
  /// - Parameters:
  ///   - count: the record's number of fields.
  ///   - name: the bytes of field `i`'s name.
  ///   - resolve: the value of a new shape, from its names decoded as UTF-8 (as the general parser decodes them).
  /// - Returns: the shape's index (stable for the cache's life) and value; `nil` for a new shape past
  ///   ``capacityLimit``.
  @inline(__always)
  mutating func shape(
    count: Int, name: (Int) -> ByteView, resolve: ([String]) -> Value
  ) -> (index: Int, value: Value)? {
    if last >= 0, matches(last, count: count, name: name) { return (last, values[last]) }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for member in 0..<count {
      for byte in name(member) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
      hash = (hash ^ 0xFF) &* 0x100_0000_01B3
    }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    while slots[slot] >= 0 {
      let index = Int(slots[slot])
      if hashes[slot] == hash, matches(index, count: count, name: name) {
        last = index
        return (index, values[index])
      }
      slot = (slot + 1) & mask
    }
    guard values.count < Self.capacityLimit else { return nil }
    var decoded: [String] = []
    bounds.append((members.count, count))
    for member in 0..<count {
      let bytes = name(member)
      members.append((names.count, bytes.count))
      names.append(contentsOf: bytes)
      decoded.append(bytes.text)
    }
    let index = values.count
    values.append(resolve(decoded))
    slots[slot] = Int32(index)
    hashes[slot] = hash
    if values.count * 2 > slots.count { grow() }
    last = index
    return (index, values[index])
  }

  /// Whether shape `index` has these names.
  @inline(__always)
  private func matches(_ index: Int, count: Int, name: (Int) -> ByteView) -> Bool {
    let shape = bounds[index]
    guard shape.count == count else { return false }
    return names.withUnsafeBufferPointer { stored in
      members.withUnsafeBufferPointer { members in
        for member in 0..<count {
          let bytes = name(member)
          let expected = members[shape.first + member]
          guard expected.length == bytes.count else { return false }
          // Names are short: a loop beats a call to memcmp.
          for offset in 0..<bytes.count where stored[expected.start + offset] != bytes[offset] { return false }
        }
        return true
      }
    }
  }

  private mutating func grow() {
    let oldSlots = slots
    let oldHashes = hashes
    slots = Array(repeating: -1, count: oldSlots.count * 2)
    hashes = Array(repeating: 0, count: oldSlots.count * 2)
    let mask = slots.count - 1
    for (position, index) in oldSlots.enumerated() where index >= 0 {
      let hash = oldHashes[position]
      var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = index
      hashes[slot] = hash
    }
  }
}
