import Foundation

/// The legacy calculator service (`--source calculator`), in the format of Google's retired
/// `/ig/calculator?hl=en&q=1USD=?INR` endpoint, which answered repaired JSON such as
/// `{lhs: "1 U.S. dollar",rhs: "54.836587 Indian rupees",error: "",icc: true}` (read with ``RepairedJSON``
/// and ``CalculatorAnswer``). The default endpoint is that retired URL; point `--endpoint` at a service or mock
/// that still speaks the format.
///
/// One request per distinct currency pair, asking for one unit of the base; amounts are converted locally.
/// The service has no historical rates: its answer is today's rate. A record dated another day gets
/// `no_rate`, unless `--date-policy latest` accepts today's rate for it (marked `fallback`, rate date today).
public struct CalculatorProvider: RateProvider {
  /// How records not dated today are treated.
  public enum DatePolicy: String, Sendable, CaseIterable {
    /// Only records dated today are converted (default).
    case strict
    /// Every record uses today's rate; records of other days are marked `fallback`.
    case latest
  }

  public let endpoint: URL
  public let info: RateSourceInfo
  public let today: CalendarDay
  public let datePolicy: DatePolicy
  /// The service answers any day with today's rate; the first day it "has" is irrelevant.
  public let firstDay = CalendarDay(year: 1999, month: 1, day: 4) ?? CalendarDay(daysSinceEpoch: 10_595)
  /// Today's answers must not outlive the day: nothing is cached.
  public var cachesAnswers: Bool { false }

  public static let defaultEndpoint = URL(string: "http://www.google.com/ig/calculator")!

  public init(endpoint: URL = CalculatorProvider.defaultEndpoint, today: CalendarDay, datePolicy: DatePolicy = .strict) {
    self.endpoint = endpoint
    self.today = today
    self.datePolicy = datePolicy
    info = RateSourceInfo(
      identifier: "calculator", publisher: "the calculator", description: "calculator service (\(endpoint.displayText))")
  }

  public func precheck(_ key: RateKey, today: CalendarDay) -> RowError? {
    if datePolicy == .latest, key.day != today {
      // Today's rate is for today's currencies: a record whose currency changed (redenomination, euro
      // changeover, withdrawal) between its date and today cannot use it.
      let now = CurrencyLifecycle.route(for: RateKey(base: key.pair.base, quote: key.pair.quote, day: today))
      if (try? now.get().marketKey.pair) != key.pair {
        return RowError(
          .noRate,
          "the calculator has only today's rates, and \(key.pair) has changed between \(key.day) and today (currency lifecycle); use a dated source"
        )
      }
    }
    guard datePolicy == .strict, key.day != today else { return nil }
    return RowError(
      .noRate,
      "the calculator has no historical rates (record dated \(key.day), today is \(today)); --date-policy latest uses today's rate"
    )
  }

  public func requests(for keys: [RateKey], today: CalendarDay, maxStaleness: Int) -> [RateRequest] {
    var groups: [CurrencyPair: [RateKey]] = [:]
    for key in keys { groups[key.pair, default: []].append(key) }
    return groups.keys.sorted { ($0.base, $0.quote) < ($1.base, $1.quote) }.compactMap { pair in
      var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
      // The endpoint's own query is kept, before the request's parameters.
      let given = components?.queryItems ?? []
      components?.queryItems =
        given + [
          URLQueryItem(name: "hl", value: "en"), URLQueryItem(name: "q", value: "1\(pair.base)=?\(pair.quote)"),
        ]
      guard let url = components?.url, let keys = groups[pair] else { return nil }
      return RateRequest(url: url, keys: keys)
    }
  }

  public func answers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<
    RateQuote, RowError
  >] {
    let rate: ExchangeRate
    let answer = CalculatorAnswer.parse([UInt8](response.body))
    switch answer.flatMap({ $0.rate() }) {
    case .failure(let error): return failAll(request, error)
    case .success(let found): rate = found
    }
    if let answer = try? answer.get(), let pair = request.keys.first?.pair, let mismatch = Self.mismatch(answer, asked: pair) {
      return failAll(request, mismatch)
    }
    let text = rate.decimalText()
    return Dictionary(
      uniqueKeysWithValues: request.keys.map { key in
        (
          key,
          .success(
            RateQuote(
              rate: rate, rateText: text, rateDay: today, isFallback: key.day != today,
              source: "calculator \(key.pair.base)/\(key.pair.quote)=\(text)"))
        )
      })
  }

  /// Why an answer is not the one asked for, or `nil` when it is: the request asks for one unit of the pair's
  /// base in its quote (`q=1USD=?EUR`), so `lhs` must be 1 of the base and `rhs` in the quote, each unit a
  /// currency of ``CurrencyNames`` (an answer in a unit fxbatch does not know is not trusted either).
  ///
  /// - Parameters:
  ///   - answer: an answer whose quantities ``CalculatorAnswer/rate()`` has read.
  ///   - pair: the pair the request asked.
  /// - Returns: a `bad_response` error naming what was asked and what was answered.
  static func mismatch(_ answer: CalculatorAnswer, asked pair: CurrencyPair) -> RowError? {
    guard let lhs = CalculatorQuantity(reading: answer.lhs), let rhs = CalculatorQuantity(reading: answer.rhs) else {
      return nil
    }
    let asked = "calculator: asked for 1 \(pair.base) in \(pair.quote), answered"
    let shown = "\(CalculatorAnswer.quoted(answer.lhs)) = \(CalculatorAnswer.quoted(answer.rhs))"
    var units: [CurrencyCode] = []
    for (side, quantity) in [("lhs", lhs), ("rhs", rhs)] {
      guard !quantity.unit.trimmingWhitespace.isEmpty else {
        return RowError(.badResponse, "\(asked) \(shown): the \(side) names no currency")
      }
      guard let code = CurrencyNames.currency(named: quantity.unit) else {
        return RowError(
          .badResponse, "\(asked) \(shown): \(CalculatorAnswer.quoted(quantity.unit)) is not a currency fxbatch knows")
      }
      units.append(code)
    }
    guard units[0] == pair.base, units[1] == pair.quote, lhs.value.normalized == .one else {
      return RowError(.badResponse, "\(asked) \(lhs.value.normalized) \(units[0]) in \(units[1]) (\(shown))")
    }
    return nil
  }
}
