import Foundation

/// Frankfurter's rates API, v2 (`--source frankfurter`; self-hostable, default https://api.frankfurter.dev):
/// about 200 currencies blended from the reference rates of many central banks and official sources.
///
/// `GET /v2/rates?base=B&quotes=Q1,Q2&from=D1&to=D2` (or `date=D`) answers a JSON array of
/// `{"date","base","quote","rate"}` rows, each dated by its own observation day: a range holds every
/// publication of each quote in it, and its first day reaches back to each quote's latest row before it
/// (the service carries a currency forward up to 14 days). Errors are `{"status","message"}`: 422 for a
/// validation error (an unknown currency, parameter or date), 404, 503.
///
/// Requests go per base currency and date range, not per day (``requests(for:today:maxStaleness:)``): ranges of up
/// to the service's five years, as few as an answer's size allows; a range the service refuses as too long is
/// asked again in shorter ones (``narrowed(_:after:maxStaleness:)``). Each key takes the latest row of its pair
/// on or before its day, within `--max-staleness` (``answers(to:response:maxStaleness:)``).
///
/// Provenance: `--providers ECB,BOC` pins the providers whose rates the service blends (`providers=`) and asks
/// each row's providers (`expand=providers`); `fx_source` then names them, `frankfurter-v2(ECB+BOC) EUR/USD=…`
/// (``source(of:_:)``). Unpinned, the service blends all its providers and `fx_source` names the service alone.
public struct FrankfurterProvider: RateProvider {
  public let endpoint: URL
  /// The provider keys pinned with `--providers` (as the service spells them), or none: the service's blend.
  public let providers: [String]
  public let info: RateSourceInfo
  /// The first day any v2 provider publishes (the Bundesbank's series start on 1948-06-21).
  public let firstDay = CalendarDay(year: 1948, month: 6, day: 21) ?? CalendarDay(daysSinceEpoch: -7864)

  public static let defaultEndpoint = URL(string: "https://api.frankfurter.dev")!
  /// The longest daily range the service serves, in years (`MAX_DAILY_RANGE_YEARS` of its
  /// `lib/versions/v2/rate_query.rb`): it refuses (422, "date range exceeds 5 years at daily granularity; …") a
  /// range whose last day (or today, if earlier) is after its first day plus 60 months, for the shapes it computes
  /// live (`providers=`, `expand=providers`, or any range while its materialised table is not ready). Requests
  /// stay within it whatever the shape; a 422 naming another number is honoured (``narrowed(_:after:maxStaleness:)``).
  static let serviceRangeYears = 5
  /// The most values an answer is planned to hold (``answerValues(quotes:keySpan:lookback:)``): about 100,000 rows
  /// (some 6.5 MB of JSON); a base's keys whose answer would hold more are asked in more requests.
  static let maximumPlannedValues = 500_000
  /// How many times the planned values (``maximumValues(for:maxStaleness:)``) an answer may hold before it is refused
  /// while it is parsed: the limit bounds memory, not the answer's shape (an identity row every day, a `providers`
  /// array the request did not ask for are read); an answer 10 times larger is refused.
  static let answerMargin = 4
  /// The furthest a request reaches back before its first key's day for the latest earlier row (a longer
  /// `--max-staleness` is honoured up to this).
  static let maximumLookbackDays = 366
  /// How many days the service itself carries a currency forward on a single day's answer.
  static let serviceCarryForwardDays = 14

  /// The most providers `--providers` may pin (each adds values to a row of the answer).
  public static let maximumProviders = 16

  /// - Parameters:
  ///   - endpoint: the service's root.
  ///   - providers: provider keys to pin (``isProviderKey(_:)`` each, at most ``maximumProviders``), or none.
  public init(endpoint: URL = FrankfurterProvider.defaultEndpoint, providers: [String] = []) {
    self.endpoint = endpoint
    self.providers = providers
    let v2 = Self.info(version: "v2", endpoint: endpoint)
    // The description keys the rate cache: a pinned run never takes a blend's cached rates, nor the reverse.
    info =
      providers.isEmpty
      ? v2
      : RateSourceInfo(
        identifier: v2.identifier, publisher: v2.publisher,
        description: v2.description + " of the providers " + providers.joined(separator: ","))
  }

  /// Whether a text is a provider key as the service spells them: capitals, digits and `_`, 2 to 16, starting
  /// with a capital (`ECB`, `BOC`, `TCMB`, `HACIENDA_CR`).
  public static func isProviderKey(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard (2...16).contains(bytes.count), let first = bytes.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first)
    else { return false }
    return bytes.allSatisfy {
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || $0 == UInt8(ascii: "_")
    }
  }

  /// The service at an endpoint, by API version: `fx_source` starts `frankfurter-v2` or `frankfurter-v1`.
  static func info(version: String, endpoint: URL) -> RateSourceInfo {
    RateSourceInfo(
      identifier: "frankfurter-\(version)", publisher: "Frankfurter",
      description: "Frankfurter \(version) rates API (\(endpoint.displayText))")
  }

  /// Days before the first rates and future days are never asked; currencies are the service's to judge
  /// (an unknown one is its 422).
  public func precheck(_ key: RateKey, today: CalendarDay) -> RowError? {
    if key.day < firstDay { return RowError(.dateOutOfRange, "\(key.day) is before Frankfurter's first rates (\(firstDay))") }
    if key.day > today { return RowError(.dateOutOfRange, "\(key.day) is in the future; no rates exist for it yet") }
    return nil
  }

  /// One request per base currency and group of days (``groups(_:lookback:rangeDays:)``): a group asks for the
  /// quotes of its keys from its first day less the lookback (`maxStaleness`, at most ``maximumLookbackDays``)
  /// to its last day, so that the latest row on or before each day is in the answer, within the service's
  /// ``serviceRangeYears`` and ``maximumPlannedValues``. A group of one day whose lookback is within the
  /// service's own carry-forward asks `date=` instead. So five years of a few quotes cost one request per base,
  /// and two weekend days that fall back to one Friday are one request.
  public func requests(for keys: [RateKey], today: CalendarDay, maxStaleness: Int) -> [RateRequest] {
    let lookback = Self.lookback(maxStaleness)
    var byBase: [CurrencyCode: [RateKey]] = [:]
    for key in keys { byBase[key.pair.base, default: []].append(key) }
    var requests: [RateRequest] = []
    for base in byBase.keys.sorted() {
      let sorted = (byBase[base] ?? []).sorted { ($0.day, $0.pair.quote) < ($1.day, $1.pair.quote) }
      for group in groups(sorted, lookback: lookback, rangeDays: Self.maximumRangeDays(years: Self.serviceRangeYears)) {
        if let request = request(base: base, keys: group, lookback: lookback) { requests.append(request) }
      }
    }
    return requests
  }

  /// How far a request reaches back before its first key's day: `--max-staleness`, at most ``maximumLookbackDays``.
  static func lookback(_ maxStaleness: Int) -> Int { min(max(maxStaleness, 0), maximumLookbackDays) }

  /// The longest range, in days from its first day to its last, that is within some years of its first day by
  /// any calendar: 365 a year (60 months from any day are at least 1,825 days), so the service's
  /// `to <= from >> 12 × years` holds for every such range.
  static func maximumRangeDays(years: Int) -> Int { 365 * years }

  /// The one rule that cuts a base's keys (sorted by day) into the groups one request each asks: a group starts
  /// at its first key with every key of that day (a day is never cut), and takes the following days' keys while
  /// its range — from its first day less `lookback` (never before ``firstDay``) to the day taken — stays within
  /// `rangeDays` and its answer within ``maximumPlannedValues`` (``answerValues(quotes:keySpan:lookback:)``).
  /// Greedy, so the fewest groups for sparse days: each group reaches as far as the limits allow.
  func groups(_ keys: [RateKey], lookback: Int, rangeDays: Int) -> [[RateKey]] {
    var groups: [[RateKey]] = []
    var start = 0
    while start < keys.count {
      let first = keys[start].day
      let from = max(first.adding(days: -lookback), firstDay)
      var quotes: Set<CurrencyCode> = []
      var end = start
      while end < keys.count, keys[end].day == first {
        quotes.insert(keys[end].pair.quote)
        end += 1
      }
      while end < keys.count, keys[end].day.days(since: from) <= rangeDays {
        let day = keys[end].day
        var dayEnd = end
        var more = quotes
        while dayEnd < keys.count, keys[dayEnd].day == day {
          more.insert(keys[dayEnd].pair.quote)
          dayEnd += 1
        }
        guard answerValues(quotes: more.count, keySpan: day.days(since: first), lookback: lookback) <= Self.maximumPlannedValues
        else { break }
        quotes = more
        end = dayEnd
      }
      groups.append(Array(keys[start..<end]))
      start = end
    }
    return groups
  }

  /// The request for one base's keys, sorted by day.
  private func request(base: CurrencyCode, keys: [RateKey], lookback: Int) -> RateRequest? {
    guard let first = keys.first?.day, let last = keys.last?.day else { return nil }
    let days =
      first == last && lookback <= Self.serviceCarryForwardDays
      ? nil : (from: max(first.adding(days: -lookback), firstDay), to: last)
    return request(base: base, quotes: Set(keys.map(\.pair.quote)), days: days, day: first, keys: keys)
  }

  /// The request for some quotes against a base: of one day (`date=`, when `days` is `nil`), or of every
  /// publication from one day to another (`from=`, `to=`), answering `keys`.
  func request(
    base: CurrencyCode, quotes: Set<CurrencyCode>, days: (from: CalendarDay, to: CalendarDay)?, day: CalendarDay,
    keys: [RateKey]
  ) -> RateRequest? {
    let quotes = quotes.sorted().map(\.description).joined(separator: ",")
    var components = URLComponents(
      url: endpoint.appendingPathComponent("v2").appendingPathComponent("rates"), resolvingAgainstBaseURL: false)
    // The endpoint's own query (an access key, say) is kept, before the request's parameters.
    var items = components?.queryItems ?? []
    items += [URLQueryItem(name: "base", value: base.description), URLQueryItem(name: "quotes", value: quotes)]
    if let days {
      items.append(URLQueryItem(name: "from", value: days.from.description))
      items.append(URLQueryItem(name: "to", value: days.to.description))
    } else {
      items.append(URLQueryItem(name: "date", value: day.description))
    }
    if !providers.isEmpty {
      items.append(URLQueryItem(name: "providers", value: providers.joined(separator: ",")))
      items.append(URLQueryItem(name: "expand", value: "providers"))
    }
    components?.queryItems = items
    guard let url = components?.url else { return nil }
    return RateRequest(url: url, keys: keys)
  }

  /// One published row of a quote: its day, and its rate as written and read exactly.
  struct Row {
    let day: CalendarDay
    let text: String
    let value: ExactDecimal
    /// The providers the row names (`expand=providers`, those not excluded from the blend), or none.
    let providers: [String]
  }

  public func answers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<
    RateQuote, RowError
  >] {
    // The byte scanner reads the service's shape; anything else is the JSON reader's (same answers, same errors).
    scannedAnswers(to: request, response: response, maxStaleness: maxStaleness)
      ?? readerAnswers(to: request, response: response, maxStaleness: maxStaleness)
  }

  /// ``answers(to:response:maxStaleness:)`` read by the JSON reader (``publishedRows(request:response:maxStaleness:)``):
  /// the answers of anything the byte scanner declines (``scannedAnswers(to:response:maxStaleness:)``).
  func readerAnswers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<
    RateQuote, RowError
  >] {
    let rows: [String: [Row]]
    let badQuotes: [String: String]
    switch publishedRows(request: request, response: response, maxStaleness: maxStaleness) {
    case .success(let read): (rows, badQuotes) = read
    case .failure(let error): return failAll(request, error)
    }
    var results: [RateKey: Result<RateQuote, RowError>] = [:]
    for key in request.keys {
      let quote = key.pair.quote.description
      if let reason = badQuotes[quote] {
        results[key] = .failure(RowError(.badResponse, "Frankfurter: \(reason)"))
      } else if let row = Self.latest(in: rows[quote] ?? [], onOrBefore: key.day) {
        results[key] = answer(for: key, row: row, maxStaleness: maxStaleness)
      } else {
        results[key] = .failure(RowError(.noRate, "Frankfurter has no \(key.pair) rate on or before \(key.day)"))
      }
    }
    return results
  }

  /// The rows of an answer (to a request whose keys share one base), by quote in day order, and the quotes whose
  /// rows fxbatch cannot read exactly, with why (such a quote answers none of its keys; the others still do); or
  /// the error of the whole answer.
  func publishedRows(request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> Result<
    (rows: [String: [Row]], bad: [String: String]), RowError
  > {
    let items: [JSONValue]
    switch Self.rateRows(response, maximumValues: answerLimit(for: request, maxStaleness: maxStaleness)) {
    case .success(let rows): items = rows
    case .failure(let error): return .failure(error)
    }
    func bad(_ reason: String) -> Result<(rows: [String: [Row]], bad: [String: String]), RowError> {
      .failure(RowError(.badResponse, "Frankfurter: \(reason)"))
    }
    guard let base = request.keys.first?.pair.base.description else { return .success(([:], [:])) }
    var rows: [String: [Row]] = [:]
    // A quote with a row fxbatch cannot read exactly answers none of its keys; the other quotes still do.
    var badQuotes: [String: String] = [:]
    for item in items {
      // A member given twice would be read differently by different JSON readers: refuse it.
      guard case .object(let members) = item, Set(members.map(\.key)).count == members.count else {
        return bad("a rate is not an object with each member once")
      }
      guard item["base"]?.stringValue == base else { return bad("the answer is for another base currency") }
      guard let quote = item["quote"]?.stringValue else { return bad("a rate has no quote currency") }
      guard let dayText = item["date"]?.stringValue, let day = CalendarDay(iso8601: dayText) else {
        return bad("a \(quote) rate has no valid date")
      }
      guard let text = item["rate"]?.numberText, let value = ExactDecimal(jsonNumber: text), value.significand > 0 else {
        badQuotes[quote] = "the \(quote) rate of \(day) is not a positive number"
        continue
      }
      switch Self.providerKeys(item["providers"]) {
      case .success(let named) where providers.isEmpty || named.allSatisfy(providers.contains):
        rows[quote, default: []].append(Row(day: day, text: text, value: value, providers: named))
      case .success(let named):
        badQuotes[quote] = "the \(quote) rate of \(day) names providers not asked for (\(named.joined(separator: ",")))"
      case .failure(let reason): badQuotes[quote] = "the \(quote) rate of \(day): \(reason.message)"
      }
    }
    for (quote, quoteRows) in rows {
      let sorted = quoteRows.sorted { $0.day < $1.day }
      rows[quote] = sorted
      for (earlier, later) in zip(sorted, sorted.dropFirst()) where earlier.day == later.day && earlier.text != later.text {
        badQuotes[quote] = "two \(quote) rates for \(later.day)"
      }
    }
    return .success((rows, badQuotes))
  }

  /// The JSON values a valid answer to a request holds at most (``answerValues(quotes:keySpan:lookback:)`` of its
  /// keys); an answer is read up to ``answerMargin`` times this (``answerLimit(for:maxStaleness:)``).
  func maximumValues(for request: RateRequest, maxStaleness: Int) -> Int {
    guard let first = request.keys.map(\.day).min(), let last = request.keys.map(\.day).max() else { return 1 }
    return answerValues(
      quotes: Set(request.keys.map(\.pair.quote)).count, keySpan: last.days(since: first), lookback: Self.lookback(maxStaleness))
  }

  /// The most values an answer is read with before it is refused while it is parsed (memory): ``answerMargin``
  /// times ``maximumValues(for:maxStaleness:)``, so that an answer a little larger than the strict count (an
  /// identity row every day, a `providers` array) is read.
  func answerLimit(for request: RateRequest, maxStaleness: Int) -> Int {
    Self.answerMargin * maximumValues(for: request, maxStaleness: maxStaleness)
  }

  /// The JSON values of a valid answer for some quotes over some days: a row (an object of 4 members, 5 values;
  /// with pinned providers also the `providers` array and, per provider, an object of at most 3 members) per
  /// quote and day from the first key's day less the lookback and the service's carry-forward to the last key's
  /// day (`keySpan` days after the first), the base's identity row, and the array. The one count both the plan
  /// (``groups(_:lookback:rangeDays:)``) and the reading (``maximumValues(for:maxStaleness:)``) use.
  func answerValues(quotes: Int, keySpan: Int, lookback: Int) -> Int {
    let days = keySpan + lookback + Self.serviceCarryForwardDays + 1
    let perRow = 5 + (providers.isEmpty ? 0 : 1 + 4 * providers.count)
    return perRow * (quotes * days + 1) + 1
  }

  /// The rows of a 2xx answer: a JSON array, or NDJSON (`Content-Type: application/x-ndjson`: one JSON object a
  /// line), within the same limit of values, refused while it is parsed (memory).
  static func rateRows(_ response: HTTPResponse, maximumValues: Int) -> Result<[JSONValue], RowError> {
    guard response.headers["content-type"]?.lowercased().hasPrefix("application/x-ndjson") ?? false else {
      switch document(response, maximumValues: maximumValues) {
      case .success(.array(let array)): return .success(array)
      case .success: return .failure(RowError(.badResponse, "Frankfurter: the answer is not a list of rates"))
      case .failure(let error): return .failure(error)
      }
    }
    var rows: [JSONValue] = []
    var valuesLeft = maximumValues - 1  // as the array a JSON answer would be
    for (index, line) in response.body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
      if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) { continue }
      do {
        let row = try JSONParser.parse([UInt8](line), maximumValues: valuesLeft)
        valuesLeft -= row.valueCount
        rows.append(row)
      } catch {
        let reason =
          error.message.hasPrefix("more than")
          ? "the answer holds more than \(maximumValues) values (members and array elements)"
          : "line \(index + 1) is not JSON (column \(error.column): \(error.message))"
        return .failure(RowError(.badResponse, "Frankfurter: \(reason)"))
      }
    }
    return .success(rows)
  }

  /// The provider keys of a row's `providers` member (`[{"key","rate","excluded"?}]`), those not excluded from
  /// the blend; none when the row has no such member.
  static func providerKeys(_ member: JSONValue?) -> Result<[String], RowError> {
    guard let member else { return .success([]) }
    guard case .array(let entries) = member else { return .failure(RowError(.badResponse, "its providers are not a list")) }
    var keys: [String] = []
    for entry in entries {
      guard case .object(let members) = entry, Set(members.map(\.key)).count == members.count,
        let key = entry["key"]?.stringValue, isProviderKey(key)
      else { return .failure(RowError(.badResponse, "a provider is not an object with a key")) }
      switch entry["excluded"] {
      case nil, .bool(false)?: keys.append(key)
      case .bool(true)?: continue
      default: return .failure(RowError(.badResponse, "provider \(key)'s excluded is not true or false"))
      }
    }
    return .success(keys)
  }

  /// The JSON document of a 2xx answer (v1 or v2), or `bad_response` for a body that is not JSON, holds more
  /// values than the request can validly be answered with (refused while it is parsed: memory), or is an
  /// error (`{"error": …}` or `{"message": …}`).
  static func document(_ response: HTTPResponse, maximumValues: Int) -> Result<JSONValue, RowError> {
    let document: JSONValue
    do { document = try JSONParser.parse([UInt8](response.body), maximumValues: maximumValues) } catch {
      let reason = error.message.hasPrefix("more than") ? "the answer holds \(error.message)" : "not JSON (\(error))"
      return .failure(RowError(.badResponse, "Frankfurter: \(reason)"))
    }
    if let message = document["error"]?.stringValue ?? document["message"]?.stringValue {
      return .failure(RowError(.badResponse, "Frankfurter: \(message)"))
    }
    return .success(document)
  }

  /// The last row on or before a day, of rows in day order (binary search: a year of rows per quote).
  private static func latest(in rows: [Row], onOrBefore day: CalendarDay) -> Row? {
    var low = 0
    var high = rows.count
    while low < high {
      let middle = (low + high) / 2
      if rows[middle].day <= day { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : rows[low - 1]
  }

  /// A key's answer from the latest row on or before its day: `stale_rate` beyond `--max-staleness`.
  func answer(for key: RateKey, row: Row, maxStaleness: Int) -> Result<RateQuote, RowError> {
    let age = key.day.days(since: row.day)
    guard age <= maxStaleness else {
      return .failure(
        RowError(
          .staleRate,
          "Frankfurter's latest \(key.pair) rate before \(key.day) is of \(row.day); use --max-staleness \(age) to accept it"))
    }
    let rate = ExchangeRate(numerator: row.value)
    return .success(
      RateQuote(
        rate: rate, rateText: rate.decimalText(), rateDay: row.day, isFallback: row.day != key.day,
        source: source(of: key, row)))
  }

  /// `fx_source` of a row: the service, the providers the row names (else those pinned: the service blended
  /// only theirs), the pair and the rate as written: `frankfurter-v2(ECB+BOC) EUR/USD=1.0856`.
  private func source(of key: RateKey, _ row: Row) -> String {
    sourcePrefix(of: key, providers: row.providers) + row.text
  }

  /// `fx_source` of a key's rows naming some providers, up to the rate: `frankfurter-v2(ECB+BOC) EUR/USD=`.
  func sourcePrefix(of key: RateKey, providers named: [String]) -> String {
    let named = named.isEmpty ? providers : named
    let service = named.isEmpty ? info.identifier : "\(info.identifier)(\(named.joined(separator: "+")))"
    return "\(service) \(key.pair.base)/\(key.pair.quote)="
  }

  /// A 422 names what it refused (`invalid currency: XYZ`): `no_rate` for the keys in an unknown currency. A
  /// 404 is a wrong endpoint (v2 answers an empty list for days without rates). Service failures (5xx,
  /// timeouts) keep their own errors.
  public func rowError(for failure: FetchError, request: RateRequest) -> RowError {
    guard case .httpStatus(let status, _, _, _) = failure, let message = Self.serviceMessage(failure) else {
      return failure.rowError
    }
    if status == 404 { return RowError(.badResponse, "Frankfurter: \(message) (is --endpoint a Frankfurter v2 service?)") }
    if status == 422 {
      return RowError(message.hasPrefix(Self.invalidCurrency) ? .noRate : .badResponse, "Frankfurter: \(message)")
    }
    return failure.rowError
  }

  /// ``rowError(for:request:)``, but a 422 that names unknown currencies is a `no_rate` only for keys in
  /// them; the other keys were refused with them, not for want of a rate, and are asked again
  /// (``narrowed(_:after:maxStaleness:)``), whose answers replace this `bad_response` (never cached nor locked).
  public func rowErrors(for failure: FetchError, request: RateRequest) -> [RateKey: RowError] {
    let error = rowError(for: failure, request: request)
    guard let named = Self.unknownCurrencies(failure) else {
      return Dictionary(request.keys.map { ($0, error) }, uniquingKeysWith: { first, _ in first })
    }
    var errors: [RateKey: RowError] = [:]
    for key in request.keys {
      if named.contains(key.pair.base.description) || named.contains(key.pair.quote.description) {
        errors[key] = error
      } else {
        errors[key] = RowError(
          .badResponse, "Frankfurter refused the request for \(key.pair.base) rates with it (\(error.message))")
      }
    }
    return errors
  }

  /// The requests to send instead of a refused one: after a 422 naming unknown currencies, the same request
  /// without the keys in them (``withoutUnknownCurrencies(_:after:)``); after a 422 refusing a range as longer
  /// than N years, its keys split into ranges within N years (``split(_:withinYears:maxStaleness:)``). None
  /// otherwise, or when nothing smaller is left to ask.
  public func narrowed(_ request: RateRequest, after failure: FetchError, maxStaleness: Int) -> [RateRequest] {
    if let narrowed = withoutUnknownCurrencies(request, after: failure) { return [narrowed] }
    guard let years = Self.refusedRangeYears(failure) else { return [] }
    return split(request, withinYears: years, maxStaleness: maxStaleness)
  }

  /// A request's keys cut into requests within some years (``groups(_:lookback:rangeDays:)``, the plan's rule
  /// with the service's stated limit), or, when the refused range was already within them (the service serves
  /// less than it says), within half the refused range: each narrowing asks strictly shorter ranges, so a
  /// service that keeps refusing ends at requests of one day, which are not split (none is returned).
  func split(_ request: RateRequest, withinYears years: Int, maxStaleness: Int) -> [RateRequest] {
    let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    func day(_ name: String) -> CalendarDay? {
      items.last(where: { $0.name == name })?.value.flatMap { CalendarDay(iso8601: $0) }
    }
    guard let base = request.keys.first?.pair.base, let from = day("from"), let to = day("to") else { return [] }
    let asked = to.days(since: from)
    let stated = Self.maximumRangeDays(years: years)
    let lookback = Self.lookback(maxStaleness)
    let sorted = request.keys.sorted { ($0.day, $0.pair.quote) < ($1.day, $1.pair.quote) }
    let groups = groups(sorted, lookback: lookback, rangeDays: asked > stated ? stated : asked / 2)
    guard groups.count > 1 else { return [] }
    return groups.compactMap { self.request(base: base, keys: $0, lookback: lookback) }
  }

  /// After a 422 naming unknown currencies, the same request without the keys in them (`nil` when none is
  /// left, or for another failure): one unknown currency does not cost its base's other quotes.
  func withoutUnknownCurrencies(_ request: RateRequest, after failure: FetchError) -> RateRequest? {
    guard let named = Self.unknownCurrencies(failure) else { return nil }
    let keys = request.keys.filter { !named.contains($0.pair.base.description) && !named.contains($0.pair.quote.description) }
    guard !keys.isEmpty, keys.count < request.keys.count,
      var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    else { return nil }
    let quotes = Set(keys.map(\.pair.quote)).sorted().map(\.description).joined(separator: ",")
    components.queryItems = components.queryItems?.map { $0.name == "quotes" ? URLQueryItem(name: "quotes", value: quotes) : $0 }
    return components.url.map { RateRequest(url: $0, keys: keys) }
  }

  private static let invalidCurrency = "invalid currency: "
  private static let rangeRefusal = "date range exceeds "

  /// The years a 422 `date range exceeds N years …` says the service serves (1 to 100), or `nil` for another
  /// failure.
  static func refusedRangeYears(_ failure: FetchError) -> Int? {
    guard case .httpStatus(422, _, _, _) = failure, let message = serviceMessage(failure), message.hasPrefix(rangeRefusal)
    else { return nil }
    let rest = message.dropFirst(rangeRefusal.count)
    let digits = rest.prefix { ("0"..."9").contains($0) }
    guard digits.count <= 3, let years = Int(digits), (1...100).contains(years), rest.dropFirst(digits.count).hasPrefix(" year")
    else { return nil }
    return years
  }

  /// The currencies a 422 `invalid currency: A,B` names.
  private static func unknownCurrencies(_ failure: FetchError) -> Set<String>? {
    guard case .httpStatus(422, _, _, _) = failure, let message = serviceMessage(failure), message.hasPrefix(invalidCurrency)
    else { return nil }
    return Set(message.dropFirst(invalidCurrency.count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
  }

  /// The `message` of a `{"status","message"}` error body.
  private static func serviceMessage(_ failure: FetchError) -> String? {
    guard case .httpStatus(_, _, _, let body) = failure else { return nil }
    // An error body is `{"status": …, "message": …}`.
    return (try? JSONParser.parse(Array(body.utf8), maximumValues: 16))?["message"]?.stringValue
  }
}
