import Foundation

/// Frankfurter's open-source rates API, its frozen v1 (`--source frankfurter-v1`; self-hostable, default
/// https://api.frankfurter.dev; `--source frankfurter` speaks v2, ``FrankfurterProvider``), ECB rates only: `GET /v1/{YYYY-MM-DD}?base=A&symbols=B,C` answers
/// `{"amount":1.0,"base":"A","date":"…","rates":{"B":…,"C":…}}`, where `date` is the publication day used,
/// possibly earlier than asked (weekends, holidays). One request per base currency and day.
public struct FrankfurterV1Provider: RateProvider {
  public let endpoint: URL
  public let info: RateSourceInfo
  /// Frankfurter serves the ECB reference rates, which start on 1999-01-04.
  public let firstDay = ECBCoverage.firstDay

  /// The same service as v2's (``FrankfurterProvider/defaultEndpoint``).
  public static let defaultEndpoint = FrankfurterProvider.defaultEndpoint

  public init(endpoint: URL = FrankfurterV1Provider.defaultEndpoint) {
    self.endpoint = endpoint
    info = FrankfurterProvider.info(version: "v1", endpoint: endpoint)
  }

  public func precheck(_ key: RateKey, today: CalendarDay) -> RowError? {
    ECBCoverage.precheck(key, today: today, service: "Frankfurter")
  }

  public func requests(for keys: [RateKey], today: CalendarDay, maxStaleness: Int) -> [RateRequest] {
    var groups: [String: [RateKey]] = [:]
    for key in keys { groups["\(key.day) \(key.pair.base)", default: []].append(key) }
    return groups.keys.sorted().compactMap { group in
      guard let keys = groups[group], let first = keys.first else { return nil }
      let symbols = Set(keys.map(\.pair.quote.description)).sorted().joined(separator: ",")
      var components = URLComponents(
        url: endpoint.appendingPathComponent("v1").appendingPathComponent(first.day.description), resolvingAgainstBaseURL: false)
      // The endpoint's own query (an access key, say) is kept, before the request's parameters.
      let given = components?.queryItems ?? []
      components?.queryItems =
        given + [
          URLQueryItem(name: "base", value: first.pair.base.description), URLQueryItem(name: "symbols", value: symbols),
        ]
      guard let url = components?.url else { return nil }
      return RateRequest(url: url, keys: keys)
    }
  }

  /// The most JSON values an answer may hold. A day's answer has one rate per currency (about 35 values); a
  /// valid 28 MB answer of 2 million members made a JSON tree of 390 MB, past the memory the answer limit is
  /// meant to bound, so a larger answer is refused while it is parsed.
  static let maximumValues = 10_000

  public func answers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<
    RateQuote, RowError
  >] {
    func bad(_ reason: String) -> [RateKey: Result<RateQuote, RowError>] {
      failAll(request, RowError(.badResponse, "Frankfurter: \(reason)"))
    }
    let document: JSONValue
    switch FrankfurterProvider.document(response, maximumValues: Self.maximumValues) {
    case .success(let parsed): document = parsed
    case .failure(let error): return failAll(request, error)
    }
    // A member given twice would be read differently by different JSON readers: refuse it.
    for object in [document, document["rates"]] {
      if case .object(let members)? = object, Set(members.map(\.key)).count != members.count {
        return bad("the answer has a member twice")
      }
    }
    guard case .object(let rateMembers)? = document["rates"] else { return bad("the answer has no rates") }
    guard let dayText = document["date"]?.stringValue, let rateDay = CalendarDay(iso8601: dayText) else {
      return bad("the answer has no valid date")
    }
    guard let first = request.keys.first, document["base"]?.stringValue == first.pair.base.description else {
      return bad("the answer is for another base currency")
    }
    // Rates are per `amount` units of the base (1 unless asked otherwise).
    var amount = ExactDecimal.one
    if let amountValue = document["amount"] {
      guard let text = amountValue.numberText, let parsed = ExactDecimal(jsonNumber: text), parsed.significand > 0 else {
        return bad("the amount is not a positive number")
      }
      amount = parsed
    }
    var results: [RateKey: Result<RateQuote, RowError>] = [:]
    for key in request.keys {
      guard rateDay <= key.day else {
        results[key] = .failure(RowError(.badResponse, "Frankfurter answered rates of \(rateDay) for \(key.day), a later day"))
        continue
      }
      let age = key.day.days(since: rateDay)
      guard age <= maxStaleness else {
        results[key] = .failure(
          RowError(
            .staleRate,
            "Frankfurter's latest rates before \(key.day) are of \(rateDay); use --max-staleness \(age) to accept them"))
        continue
      }
      guard let member = rateMembers.first(where: { $0.key == key.pair.quote.description }) else {
        results[key] = .failure(RowError(.noRate, "Frankfurter has no \(key.pair.quote) rate on \(rateDay)"))
        continue
      }
      guard let text = member.value.numberText, let value = ExactDecimal(jsonNumber: text), value.significand > 0 else {
        results[key] = .failure(RowError(.badResponse, "Frankfurter: the \(key.pair.quote) rate is not a positive number"))
        continue
      }
      let rate = ExchangeRate(numerator: value, denominator: amount)
      results[key] = .success(
        RateQuote(
          rate: rate, rateText: rate.decimalText(), rateDay: rateDay, isFallback: rateDay != key.day,
          source: "frankfurter-v1 \(key.pair.base)/\(key.pair.quote)=\(text)"))
    }
    return results
  }

  /// 404 and 422 carry a JSON `message` (e.g. an unknown currency or date): a `no_rate` with that message.
  public func rowError(for failure: FetchError, request: RateRequest) -> RowError {
    // Only Frankfurter's own JSON message means "no such rate"; an HTML 404 is a wrong endpoint.
    if case .httpStatus(let status, _, _, let body) = failure, status == 404 || status == 422,
      let message = (try? JSONParser.parse(Array(body.utf8), maximumValues: Self.maximumValues))?["message"]?.stringValue
    {
      return RowError(.noRate, "Frankfurter: \(message)")
    }
    return failure.rowError
  }
}
