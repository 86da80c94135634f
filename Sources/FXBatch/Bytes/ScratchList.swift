// Bytes/ holds the library's unsafe code: pointers live only in these small types, which check every index,
// offset and count in debug builds (`assert`, free in release builds) and are tested directly (`BytesTests`).
// Code elsewhere reads and writes bytes through them; docs/development.md, "Unsafe code", lists the exceptions left.

/// A list of plain values (field ranges, a record's fields: no references, nothing to deinitialize) in memory that a reader allocates once and reuses
/// from record to record: no array's uniqueness check, retain or release per record, and copying the list
/// (handing a record to the fast path) costs nothing.
///
/// Copies share the memory: one owner allocates it (``allocate(capacity:)``), grows it, and frees it
/// (``deallocate()``) when it goes; a copy is valid until then, and sees what is appended through it.
/// Indices are checked against ``count`` and ``capacity`` in debug builds.
struct ScratchList<Element>: RandomAccessCollection {
  private var base: UnsafeMutablePointer<Element>
  /// The values the memory has room for.
  private(set) var capacity: Int
  /// The values in the list.
  private(set) var count = 0

  private init(base: UnsafeMutablePointer<Element>, capacity: Int) {
    self.base = base
    self.capacity = capacity
  }

  /// An empty list with room for `capacity` values (at least 1); the caller frees it with ``deallocate()``.
  static func allocate(capacity: Int) -> ScratchList {
    assert(capacity > 0, "ScratchList: capacity \(capacity)")
    assert(_isPOD(Element.self), "ScratchList: \(Element.self) is not a plain value")
    return ScratchList(base: .allocate(capacity: capacity), capacity: capacity)
  }

  /// Frees the memory (plain values need no deinitialization); no copy may be used after.
  func deallocate() { base.deallocate() }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  // Plain index moves and iteration, as a buffer pointer's: the collection defaults check every step against the
  // bounds, in release builds too.
  @inline(__always)
  func index(after index: Int) -> Int { index &+ 1 }

  @inline(__always)
  func index(before index: Int) -> Int { index &- 1 }

  @inline(__always)
  func makeIterator() -> UnsafeBufferPointer<Element>.Iterator {
    UnsafeBufferPointer(start: base, count: count).makeIterator()
  }

  /// A value; setting it writes the shared memory, which every copy sees.
  @inline(__always)
  subscript(index: Int) -> Element {
    get {
      assert(index >= 0 && index < count, "ScratchList: index \(index) out of 0..<\(count)")
      return base[index]
    }
    nonmutating set {
      assert(index >= 0 && index < count, "ScratchList: index \(index) out of 0..<\(count)")
      base[index] = newValue
    }
  }

  /// Appends a value; there must be room (``count`` < ``capacity``).
  @inline(__always)
  mutating func append(_ element: Element) {
    assert(count < capacity, "ScratchList: full at \(capacity)")
    (base + count).initialize(to: element)
    count &+= 1
  }

  /// Appends a value, first doubling the capacity when the list is full.
  ///
  /// - Returns: whether it grew: the memory moved, and the owner must keep this copy (the old memory is freed,
  ///   and other copies are no longer valid).
  @inline(__always)
  @discardableResult
  mutating func appendGrowing(_ element: Element) -> Bool {
    var grew = false
    if count == capacity {
      grow()
      grew = true
    }
    append(element)
    return grew
  }

  @inline(never)
  private mutating func grow() {
    let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity *= 2
  }

  /// Empties the list, keeping the memory.
  @inline(__always)
  mutating func removeAll() { count = 0 }
}
