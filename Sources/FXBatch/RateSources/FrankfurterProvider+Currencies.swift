import Foundation

extension FrankfurterProvider {
  /// `GET {endpoint}/v2/currencies?scope=all`: every currency the service has rates for, legacy ones included.
  public var currenciesURL: URL {
    Self.url(endpoint, path: ["v2", "currencies"], query: [URLQueryItem(name: "scope", value: "all")])
  }

  /// The most JSON values a currency list may hold: about 200 currencies of 8 members, each with its list of
  /// providers (80 or so): far below this; more is refused while it is parsed (memory).
  static let maximumCurrencyListValues = 200_000

  /// Reads v2's currency list: an array of `{"iso_code", "name", "start_date", "end_date", …}` objects (dates
  /// `null` when the service has no rates for the currency; other members ignored).
  ///
  /// - Parameters:
  ///   - body: the answer's body.
  ///   - url: the request's URL, for the error.
  ///   - source: the source's name, for ``CurrencyCoverage/source``.
  /// - Returns: the currencies in code order.
  /// - Throws: ``CurrencyListingError`` for an answer that is not such a list.
  public static func currencies(from body: Data, url: URL, source: String) throws(CurrencyListingError) -> [CurrencyCoverage] {
    func bad(_ reason: String) -> CurrencyListingError { .badAnswer(url: url.displayText, reason: reason) }
    guard case .array(let items) = try document(body, url: url) else { throw bad("the answer is not an array") }
    var currencies: [String: CurrencyCoverage] = [:]
    for item in items {
      guard case .object(let members) = item, Set(members.map(\.key)).count == members.count else {
        throw bad("a currency is not an object with each member once")
      }
      guard let code = item["iso_code"]?.stringValue, isCode(code) else { throw bad("a currency has no valid iso_code") }
      guard let name = item["name"]?.stringValue else { throw bad("\(code) has no name") }
      var days: [CalendarDay?] = []
      for member in ["start_date", "end_date"] {
        switch item[member] {
        case nil, .null?: days.append(nil)
        case .string(let text)?:
          guard let day = CalendarDay(iso8601: text) else { throw bad("\(code)'s \(member) \(text) is not a date") }
          days.append(day)
        default: throw bad("\(code)'s \(member) is not a date")
        }
      }
      if let first = days[0], let last = days[1], first > last { throw bad("\(code)'s start_date is after its end_date") }
      guard currencies[code] == nil else { throw bad("\(code) is listed twice") }
      currencies[code] = CurrencyCoverage(code: code, name: name, firstDay: days[0], lastDay: days[1], source: source)
    }
    return currencies.values.sorted { $0.code < $1.code }
  }

  /// A JSON body, parsed within the currency list's value limit.
  static func document(_ body: Data, url: URL) throws(CurrencyListingError) -> JSONValue {
    do { return try JSONParser.parse([UInt8](body), maximumValues: maximumCurrencyListValues) } catch {
      throw .badAnswer(url: url.displayText, reason: "not JSON (\(error))")
    }
  }

  /// Whether a text is three upper-case ASCII letters, as the service writes a code.
  static func isCode(_ text: String) -> Bool {
    text.utf8.count == 3 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
  }

  /// A URL under an endpoint, keeping the endpoint's own query (an access key, say) before the given items.
  static func url(_ endpoint: URL, path: [String], query: [URLQueryItem]) -> URL {
    let url = path.reduce(endpoint) { $0.appendingPathComponent($1) }
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let items = (components?.queryItems ?? []) + query
    components?.queryItems = items.isEmpty ? nil : items
    return components?.url ?? url
  }
}

extension FrankfurterV1Provider {
  /// `GET {endpoint}/v1/currencies`: the codes and names of the currencies v1 serves (no dates).
  public var currenciesURL: URL { FrankfurterProvider.url(endpoint, path: ["v1", "currencies"], query: []) }

  /// Reads v1's currency list, `{"AUD": "Australian Dollar", …}`: names only, v1 publishes no dates.
  ///
  /// - Parameters:
  ///   - body: the answer's body.
  ///   - url: the request's URL, for the error.
  ///   - source: the source's name, for ``CurrencyCoverage/source``.
  /// - Returns: the currencies in code order, without days.
  /// - Throws: ``CurrencyListingError`` for an answer that is not such a list.
  public static func currencies(from body: Data, url: URL, source: String) throws(CurrencyListingError) -> [CurrencyCoverage] {
    func bad(_ reason: String) -> CurrencyListingError { .badAnswer(url: url.displayText, reason: reason) }
    guard case .object(let members) = try FrankfurterProvider.document(body, url: url) else {
      throw bad("the answer is not an object of codes and names")
    }
    guard Set(members.map(\.key)).count == members.count else { throw bad("a currency is listed twice") }
    return try members.map { member throws(CurrencyListingError) in
      guard FrankfurterProvider.isCode(member.key), let name = member.value.stringValue else {
        throw bad("\(member.key) is not a currency code with a name")
      }
      return CurrencyCoverage(code: member.key, name: name, source: source)
    }.sorted { $0.code < $1.code }
  }
}
