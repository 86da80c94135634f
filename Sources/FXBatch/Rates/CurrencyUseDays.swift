/// Per ISO 4217 code, the first day it is no longer itself (``CurrencyLifecycle/endOfUse(of:)``), found by its
/// letters without hashing: whether a key's currencies are both in use on its day, so that
/// ``CurrencyLifecycle/route(for:)`` routes the key to itself. The lifecycle's own answer per code, computed once;
/// a frozen run asks it for each key of its lock.
struct CurrencyUseDays: Sendable {
  /// Per code's letters (5 bits each), the day (days since 1970) from which it is no longer itself; `Int.max`:
  /// never; `Int.min`: not an ISO 4217 code (not kept).
  private let ends: [Int]

  init() {
    var ends = [Int](repeating: .min, count: 1 << 15)
    for entry in ISO4217.entries {
      guard let code = CurrencyCode(entry.code), let index = Self.index(of: code) else { continue }
      ends[index] = CurrencyLifecycle.endOfUse(of: code)?.daysSinceEpoch ?? .max
    }
    self.ends = ends
  }

  /// A code's place in ``ends``; `nil` unless it is three letters A–Z.
  @inline(__always)
  private static func index(of code: CurrencyCode) -> Int? {
    var index = 0
    for shift: UInt32 in [16, 8, 0] {
      let letter = Int(code.packed >> shift & 0xFF) &- 65
      guard letter >= 0, letter < 26 else { return nil }
      index = index << 5 | letter
    }
    return index
  }

  /// Whether both currencies of a key are themselves on its day (then its route is the key itself, with no
  /// change applied); `nil` when a code is not an ISO 4217 code: ask ``CurrencyLifecycle/route(for:)``.
  func bothInUse(_ key: RateKey) -> Bool? {
    guard let base = Self.index(of: key.pair.base), let quote = Self.index(of: key.pair.quote) else { return nil }
    let (baseEnd, quoteEnd) = (ends[base], ends[quote])
    guard baseEnd != .min, quoteEnd != .min else { return nil }
    let day = key.day.daysSinceEpoch
    return day < baseEnd && day < quoteEnd
  }
}
