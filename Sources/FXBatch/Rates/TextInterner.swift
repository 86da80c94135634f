/// The distinct texts of an ``AnswerTable``'s store, found by their bytes (open addressing over a 64-bit hash).
struct TextInterner: Sendable {
  private var slots = [Int32](repeating: -1, count: 64)
  private var ranges: [AnswerTable.TextRange] = []
  private var hashes: [UInt64] = []
  private var marked: [Bool] = []

  /// The entry and range of a text, added to `store` (before its `padding` trailing zeros) when new; `nil` when
  /// the store would pass `UInt32.max` bytes.
  mutating func intern<Bytes: Collection<UInt8>>(_ bytes: Bytes, in store: inout [UInt8], padding: Int) -> (
    entry: Int, range: AnswerTable.TextRange
  )? {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let count = bytes.count
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: (hash ^ hash >> 29) & UInt64(mask))
    while true {
      let entry = Int(slots[slot])
      if entry < 0 { break }
      if hashes[entry] == hash, Int(ranges[entry].count) == count {
        let start = Int(ranges[entry].start)
        if store[start..<(start + count)].elementsEqual(bytes) { return (entry, ranges[entry]) }
      }
      slot = (slot + 1) & mask
    }
    let start = store.count - padding
    guard start + count + padding < Int(UInt32.max) else { return nil }
    store.removeLast(padding)
    store.append(contentsOf: bytes)
    store.append(contentsOf: repeatElement(0, count: padding))
    let entry = ranges.count
    ranges.append(AnswerTable.TextRange(start: UInt32(start), count: UInt32(count)))
    hashes.append(hash)
    marked.append(false)
    slots[slot] = Int32(entry)
    if ranges.count * 2 > slots.count { grow() }
    return (entry, ranges[entry])
  }

  func isMarked(_ entry: Int) -> Bool { marked[entry] }
  mutating func mark(_ entry: Int) { marked[entry] = true }

  private mutating func grow() {
    slots = [Int32](repeating: -1, count: slots.count * 2)
    let mask = slots.count - 1
    for (entry, hash) in hashes.enumerated() {
      var slot = Int(truncatingIfNeeded: (hash ^ hash >> 29) & UInt64(mask))
      while slots[slot] >= 0 { slot = (slot + 1) & mask }
      slots[slot] = Int32(entry)
    }
  }
}
