/// Remembers what a record's sequence of field names (its *shape*: a JSON object's member names in order)
/// resolves to — which member plays which role — so that records sharing their names, as nearly all records of
/// an export do, are resolved once instead of once per record.
///
/// Keys are the names' raw bytes; the last shape used is compared first, then a hash table is probed. At most
/// ``capacityLimit`` shapes are kept: past that, ``shape(count:name:resolve:)`` returns `nil` for a new shape
/// and the caller takes its general path.
struct FieldShapeCache<Value> {
  /// The names of every shape, back to back, each name followed by its length as 4 bytes.
  private var names: [UInt8] = []
  /// Per shape: the start and end of its names in ``names``, and its member count.
  private var bounds: [(start: Int, end: Int, count: Int)] = []
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
    count: Int, name: (Int) -> UnsafeBufferPointer<UInt8>, resolve: ([String]) -> Value
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
    let start = names.count
    var decoded: [String] = []
    for member in 0..<count {
      let bytes = name(member)
      names.append(contentsOf: bytes)
      withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { names.append(contentsOf: $0) }
      decoded.append(String(decoding: bytes, as: UTF8.self))
    }
    let index = values.count
    bounds.append((start, names.count, count))
    values.append(resolve(decoded))
    slots[slot] = Int32(index)
    hashes[slot] = hash
    if values.count * 2 > slots.count { grow() }
    last = index
    return (index, values[index])
  }

  /// Whether shape `index` has these names.
  @inline(__always)
  private func matches(_ index: Int, count: Int, name: (Int) -> UnsafeBufferPointer<UInt8>) -> Bool {
    let shape = bounds[index]
    guard shape.count == count else { return false }
    return names.withUnsafeBufferPointer { stored in
      var at = shape.start
      for member in 0..<count {
        let bytes = name(member)
        guard at + bytes.count + 4 <= shape.end else { return false }
        for offset in 0..<bytes.count where stored[at + offset] != bytes[offset] { return false }
        at += bytes.count
        let length = Int(stored[at]) | Int(stored[at + 1]) << 8 | Int(stored[at + 2]) << 16 | Int(stored[at + 3]) << 24
        guard length == bytes.count else { return false }
        at += 4
      }
      return at == shape.end
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
