/// The rate keys pass 1 gathers on the byte-level paths: for a ``TableRateProvider``, the oldest and the newest
/// key it accepts among records — all its planner needs (its requests depend only on the days its keys span),
/// without a per-key index; for a source that answers keys one by one (Frankfurter, the calculator, a lock
/// file's quotes: ``init()``), every distinct key.
///
/// A record whose day lies within the span found so far cannot widen it, so only a record outside it is
/// routed through the currency lifecycle and the provider's precheck; the span is then exact, and parts of a
/// file read on other threads each keep their own and are merged (``add(_:)``).
struct KeySpan: Sendable {
  /// Whether the provider would be asked a record's key (its market key is not a same-currency key and passes
  /// the precheck).
  let accepts: @Sendable (RateKey) -> Bool
  private(set) var oldest: RateKey?
  private(set) var newest: RateKey?
  /// Every key added, when the span collects them all (``init()``); `nil` for a span.
  private(set) var all: RateKeyIndex?

  init(accepts: @escaping @Sendable (RateKey) -> Bool) { self.accepts = accepts }

  /// Collects every key (``oldest`` and ``newest`` stay `nil`).
  init() {
    accepts = { _ in true }
    all = RateKeyIndex()
  }

  /// Adds a record's key.
  @inline(__always)
  mutating func add(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) {
    if all != nil {
      // A day that cannot be packed is more than 2³³ days from 1970: no parsed date is one.
      if let packed = RateKeyIndex.pack(base: base, quote: quote, day: day) { all!.insert(packed) }
      return
    }
    if let oldest, let newest, oldest.day <= day, day <= newest.day { return }
    add(RateKey(base: base, quote: quote, day: day))
  }

  mutating func add(_ key: RateKey) {
    if all != nil {
      if let packed = RateKeyIndex.pack(key) { all!.insert(packed) }
      return
    }
    if let oldest, let newest, oldest.day <= key.day, key.day <= newest.day { return }
    guard accepts(key) else { return }
    if oldest.map({ key.day < $0.day }) ?? true { oldest = key }
    if newest.map({ key.day > $0.day }) ?? true { newest = key }
  }

  /// Adds the span of another part.
  mutating func add(_ other: KeySpan) {
    if let others = other.all, all != nil {
      all!.formUnion(others)
      return
    }
    for key in [other.oldest, other.newest].compactMap({ $0 }) { add(key) }
  }

  /// The span's keys (none, one or two), or every key collected, as pass 1's keys.
  var keys: RateKeyIndex { all ?? RateKeyIndex([oldest, newest].compactMap { $0 }) }
}
