/// One currency a rate source covers (`fxbatch rates currencies`): its code, its name where the source gives
/// one, and the first and last days the source has a rate for it (`nil` where the source does not publish them).
public struct CurrencyCoverage: Sendable, Equatable {
  /// The ISO 4217 code as the source writes it (three upper-case letters).
  public var code: String
  /// The currency's name as the source gives it, or `nil`.
  public var name: String?
  /// The first day the source has a rate for the currency, or `nil` when not published.
  public var firstDay: CalendarDay?
  /// The last day the source has a rate for the currency, or `nil` when not published.
  public var lastDay: CalendarDay?
  /// The name of the source that covers it, as given after `--source` (in a chain: the first link that does).
  public var source: String

  /// Control characters and other invisible ones in `name` (a service's text) are written `\u{…}`, so that a
  /// listing stays one currency a line.
  public init(code: String, name: String? = nil, firstDay: CalendarDay? = nil, lastDay: CalendarDay? = nil, source: String) {
    self.code = code
    self.name = name.map(RowError.visible)
    self.firstDay = firstDay
    self.lastDay = lastDay
    self.source = source
  }

  /// The currencies of a chain's links, each once, from the first link that covers it, by code.
  ///
  /// - Parameter links: each link's currencies, in the chain's order.
  /// - Returns: the currencies in code order.
  public static func chained(_ links: [[CurrencyCoverage]]) -> [CurrencyCoverage] {
    var byCode: [String: CurrencyCoverage] = [:]
    for link in links {
      for currency in link where byCode[currency.code] == nil { byCode[currency.code] = currency }
    }
    return byCode.values.sorted { $0.code < $1.code }
  }
}

/// A currency list that cannot be read: the service's answer is not the documented shape.
public enum CurrencyListingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The answer from `url` is not a currency list, for `reason`.
  case badAnswer(url: String, reason: String)

  public var description: String {
    switch self {
    case .badAnswer(let url, let reason): return "fxbatch: \(url): not a currency list: \(reason)"
    }
  }
}
