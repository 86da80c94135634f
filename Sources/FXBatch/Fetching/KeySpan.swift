/// The oldest and the newest rate key a ``TableRateProvider`` accepts among records: all its planner needs
/// (its requests depend only on the days its keys span), gathered in pass 1 without a per-key index.
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

  init(accepts: @escaping @Sendable (RateKey) -> Bool) { self.accepts = accepts }

  /// Adds a record's key.
  @inline(__always)
  mutating func add(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) {
    if let oldest, let newest, oldest.day <= day, day <= newest.day { return }
    add(RateKey(base: base, quote: quote, day: day))
  }

  mutating func add(_ key: RateKey) {
    if let oldest, let newest, oldest.day <= key.day, key.day <= newest.day { return }
    guard accepts(key) else { return }
    if oldest.map({ key.day < $0.day }) ?? true { oldest = key }
    if newest.map({ key.day > $0.day }) ?? true { newest = key }
  }

  /// Adds the span of another part.
  mutating func add(_ other: KeySpan) {
    for key in [other.oldest, other.newest].compactMap({ $0 }) { add(key) }
  }

  /// The span's keys (none, one or two), as pass 1's keys.
  var keys: RateKeyIndex { RateKeyIndex([oldest, newest].compactMap { $0 }) }
}
