/// At most ``capacity`` values kept inline (no allocation): a record's amounts and their conversions on the
/// fast path (``TableConverter/convert(base:quote:day:amounts:converted:)``).
struct InlineList<Element> {
  /// The most values a list holds.
  static var capacity: Int { 8 }
  private var storage: (Element, Element, Element, Element, Element, Element, Element, Element)
  /// How many values the list holds.
  private(set) var count = 0

  /// An empty list; `filler` fills the unused places.
  init(filler: Element) {
    storage = (filler, filler, filler, filler, filler, filler, filler, filler)
  }

  /// Forgets the values.
  @inline(__always)
  mutating func removeAll() { count = 0 }

  /// Adds a value; `false` when the list is full.
  @inline(__always)
  mutating func append(_ value: Element) -> Bool {
    switch count {
    case 0: storage.0 = value
    case 1: storage.1 = value
    case 2: storage.2 = value
    case 3: storage.3 = value
    case 4: storage.4 = value
    case 5: storage.5 = value
    case 6: storage.6 = value
    case 7: storage.7 = value
    default: return false
    }
    count += 1
    return true
  }

  /// The value at `index` (0 ..< ``count``).
  @inline(__always)
  subscript(index: Int) -> Element {
    switch index {
    case 0: return storage.0
    case 1: return storage.1
    case 2: return storage.2
    case 3: return storage.3
    case 4: return storage.4
    case 5: return storage.5
    case 6: return storage.6
    default: return storage.7
    }
  }
}
