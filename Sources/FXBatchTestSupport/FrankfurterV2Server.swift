import FXBatch
import Foundation

/// Frankfurter's v2 `GET /v2/rates`, implemented for tests over a small in-memory table of published rates
/// against one pivot currency, as the service computes it (lineofflight/frankfurter: `lib/versions/v2.rb`,
/// `lib/versions/v2/rate_query.rb`, `lib/carry_forward.rb`, `lib/roundable.rb`). Install it on a
/// ``LoopbackHTTPServer`` with ``install(on:)``.
///
/// - Parameters `base` (default EUR), `quotes` (a filter on the rows answered), `date`, or `from` and `to`
///   (`to` defaults to ``today``); neither is the latest (``today`` + 1).
/// - One day: each quote's latest row within 14 days on or before it (carry-forward), dated by its own day.
/// - A range: the anchors are the table's days in it, and its first day when that has no rows; each
///   anchor's carry-forward snapshot is answered, each (quote, date) once, so a quote appears on its own
///   publication days and the first day reaches back to the latest earlier row.
/// - A base other than the pivot: each rate divided by the base's (`derive`), plus the base → pivot row;
///   rows keep their quote's date. The arithmetic is binary floating point, as the service's is, and every
///   rate is rounded by magnitude as `Roundable#round` does, then written as Ruby writes a Float (`4.0e-05`,
///   `433.9`; over 5000 an integer).
/// - The identity row (base = quote, rate 1.0) when `quotes` includes the base or is absent.
/// - Errors `{"status":…,"message":…}`: 422 for an unknown parameter, an invalid date, `date` with
///   `from`/`to`, a currency it does not know (`invalid currency: A,B`), a daily range longer than the service
///   computes live (``rangeYears``, `validate_range_cost!`: `date range exceeds 5 years at daily granularity; …`);
///   503 for a base in ``unavailableBases`` (the service's request timeout).
///
/// `GET /v2/currencies` answers the currencies it knows (``currenciesResponse(to:)``).
///
/// - `providers=A,B` answers only those providers' rows; `expand=providers` adds each row's
///   `"providers":[{"key","rate"}]` (here every quote's rows are one provider's: ``Row/provider``; a cross row
///   names its quote's provider, the base → pivot row the base's). `Accept: application/x-ndjson` answers the
///   rows one JSON object a line.
///
/// Not implemented: one provider's own digits passed through, blends and `excluded` providers, `group`, CSV,
/// legacy currencies in `/v2/currencies`, and the 3-month chunks of a long range (their
/// extra snapshots are dropped by the (quote, date) rule, except a cross rate whose base moved while its quote
/// was carried).
public struct FrankfurterV2Server: Sendable {
  /// A published rate: 1 pivot = `rate` quote on `date`.
  public struct Row: Sendable {
    public var date: CalendarDay
    public var quote: String
    public var rate: Double
    /// The key of the provider that published it (`ECB`, `BOC`, …).
    public var provider: String
  }

  public let pivot: String
  /// Each quote's rows in date order.
  let rowsByQuote: [String: [Row]]
  /// The days with rows, ascending.
  let dates: [CalendarDay]
  /// The currencies the service knows, publishing or not: the pivot, the table's, and any given.
  public let known: Set<String>
  /// Bases answered 503.
  public var unavailableBases: Set<String> = []
  /// The longest daily range computed live, in years (`MAX_DAILY_RANGE_YEARS`, 5): a range whose last day (or
  /// today, if earlier) is after its first day plus 12 × this many months is refused with a 422 naming it, unless
  /// served from the materialised table (``blendedTableReady`` and neither `providers=` nor `expand=providers`),
  /// or `providers=` of at most 5 providers with `quotes=` of at most 5.
  public var rangeYears = 5
  /// Whether plain ranges are served from the materialised table (no range limit); `false`: as while it is
  /// rebuilt, every range shape is computed live, within ``rangeYears``.
  public var blendedTableReady = true
  /// Refuses, as the ``rangeYears`` limit does (its message), every range longer than this many days: a service
  /// that serves less than it says.
  public var refusedRangeDays: Int? = nil
  /// The service's today.
  public var today: CalendarDay
  /// Rows added as they are to every range answer (a broken service: e.g. a row dated after the range asked),
  /// `(date, quote, rate)` written as JSON numbers; never in a one-day answer.
  public var strayRangeRows: [(String, String, String)] = []

  /// - Parameters:
  ///   - pivot: the currency the table's rates are against.
  ///   - rows: `(date, quote, rate)`, the rate as the provider publishes it.
  ///   - alsoKnown: currencies the service knows without rates in the table.
  ///   - today: the service's today.
  ///   - providers: the provider of each quote's rows, by quote (default `ECB`).
  public init(
    pivot: String = "EUR", rows: [(String, String, String)], alsoKnown: [String] = [], today: String = "2026-12-01",
    providers: [String: String] = [:]
  ) {
    self.pivot = pivot
    let parsed = rows.map { date, quote, rate in
      guard let day = CalendarDay(iso8601: date), let value = Double(rate) else {
        preconditionFailure("not a row: \(date) \(quote) \(rate)")
      }
      return Row(date: day, quote: quote, rate: value, provider: providers[quote] ?? "ECB")
    }
    rowsByQuote = Dictionary(grouping: parsed, by: \.quote).mapValues { $0.sorted { $0.date < $1.date } }
    dates = Set(parsed.map(\.date)).sorted()
    known = Set([pivot] + rows.map(\.1) + alsoKnown)
    self.today = CalendarDay(iso8601: today) ?? CalendarDay(daysSinceEpoch: 0)
  }

  /// Currency names for `/v2/currencies` (the service's are from the `money` gem); a currency without one is
  /// named by its code, as the service does.
  public var names: [String: String] = [:]

  /// Routes `/v2/rates` and `/v2/currencies` of a server to this service.
  public func install(on server: LoopbackHTTPServer) {
    server.route("/v2/rates") { request in response(to: request) }
    server.route("/v2/currencies") { request in currenciesResponse(to: request) }
  }

  /// `GET /v2/currencies`: every known currency in code order, as `{"iso_code","iso_numeric","name","symbol",
  /// "start_date","end_date"}` (lib/public/v2/openapi.json `Currency`): the first and last days of its rows (the
  /// pivot's: of any row), `null` for a currency without rows. `scope=all` is accepted (legacy currencies are
  /// not told apart here); any other parameter is a 422.
  public func currenciesResponse(to request: HTTPRequestHead) -> ScriptedResponse {
    for item in request.queryItems {
      guard item.name == "scope" else { return error(422, "unknown parameter: \(item.name)") }
      guard item.value == "all" else { return error(422, "invalid scope") }
    }
    let body = known.sorted().map { code in
      let rows = rowsByQuote[code] ?? []
      let first = code == pivot ? dates.first : rows.first?.date
      let last = code == pivot ? dates.last : rows.last?.date
      let days = [first, last].map { $0.map { #""\#($0)""# } ?? "null" }
      return #"{"iso_code":"\#(code)","iso_numeric":null,"name":"\#(names[code] ?? code)","symbol":null,"#
        + #""start_date":\#(days[0]),"end_date":\#(days[1])}"#
    }
    return .json("[" + body.joined(separator: ",") + "]")
  }

  /// The service's answer to a request.
  public func response(to request: HTTPRequestHead) -> ScriptedResponse {
    var parameters: [String: String] = [:]
    for item in request.queryItems { parameters[item.name] = item.value ?? "" }
    let unknown = parameters.keys.filter { !["base", "quotes", "date", "from", "to", "providers", "expand"].contains($0) }
      .sorted()
    if !unknown.isEmpty { return error(422, "unknown parameter: \(unknown.joined(separator: ", "))") }
    let days = ["date", "from", "to"].map { name in parameters[name].map { CalendarDay(iso8601: $0) } }
    if days.contains(where: { $0 != nil && $0! == nil }) { return error(422, "invalid date") }
    let (date, from, to) = (days[0].flatMap { $0 }, days[1].flatMap { $0 }, days[2].flatMap { $0 })
    if date != nil, from != nil || to != nil { return error(422, "conflicting params") }
    let base = parameters["base"]?.uppercased() ?? "EUR"
    let quotes = parameters["quotes"].map { $0.uppercased().split(separator: ",").map(String.init) }
    let invalid =
      (parameters["base"] == nil ? [] : [base]).filter { !known.contains($0) }
      + (quotes ?? []).filter { !known.contains($0) }
    if !invalid.isEmpty { return error(422, "invalid currency: \(invalid.joined(separator: ","))") }
    let expand = parameters["expand"].map { $0.lowercased().split(separator: ",").map(String.init) } ?? []
    if let other = expand.first(where: { $0 != "providers" }) { return error(422, "invalid expand: \(other)") }
    let providers = parameters["providers"].map { Set($0.uppercased().split(separator: ",").map(String.init)) }
    if let from,
      let refusal = rangeRefusal(
        from: from, to: min(to ?? today, today), providers: providers, expand: !expand.isEmpty, quotes: quotes)
    {
      return error(422, refusal)
    }
    if unavailableBases.contains(base) { return error(503, "request exceeded 10s timeout") }

    var records: [(date: CalendarDay, quote: String, rate: String, provider: String?)] = []
    if let from {
      let end = to ?? today
      // The days with rows from the lookback before the range to its end; the anchors are those in the range.
      let window = dates[Self.count(dates, onOrBefore: from.adding(days: -15)) { $0 }..<Self.count(dates, onOrBefore: end) { $0 }]
      var anchors = window.filter { $0 >= from }
      if !window.contains(from) { anchors.insert(from, at: 0) }
      var seen = Set<String>()
      for anchor in anchors {
        for record in emit(snapshot(on: anchor, providers: providers), base: base, quotes: quotes, range: true)
        where seen.insert("\(record.quote) \(record.date)").inserted {
          records.append(record)
        }
      }
      records.sort { ($0.date, $0.quote) < ($1.date, $1.quote) }
    } else {
      records = emit(snapshot(on: date ?? today.adding(days: 1), providers: providers), base: base, quotes: quotes, range: false)
    }
    if from != nil {
      records += strayRangeRows.compactMap { date, quote, rate in
        CalendarDay(iso8601: date).map { (date: $0, quote: quote, rate: rate, provider: nil) }
      }
    }
    let body = records.map { record in
      // `expand=providers`: the providers behind the row and each one's rate (one provider a quote here).
      let expanded = record.provider.map { #","providers":[{"key":"\#($0)","rate":\#(record.rate)}]"# } ?? ""
      return #"{"date":"\#(record.date)","base":"\#(base)","quote":"\#(record.quote)","rate":\#(record.rate)"#
        + (expand.isEmpty ? "" : expanded) + "}"
    }
    if request.header("accept")?.contains("application/x-ndjson") ?? false {
      // One JSON object a line, as the service streams NDJSON.
      return ScriptedResponse(
        status: 200, headers: ["Content-Type": "application/x-ndjson"], body: Data(body.map { $0 + "\n" }.joined().utf8))
    }
    return .json("[" + body.joined(separator: ",") + "]")
  }

  /// `validate_range_cost!`: the 422 message refusing a daily range, or `nil` when it is served.
  public func rangeRefusal(from: CalendarDay, to: CalendarDay, providers: Set<String>?, expand: Bool, quotes: [String]?)
    -> String?
  {
    if providers == nil, !expand, blendedTableReady { return nil }
    if let providers, let quotes, providers.count <= 5, Set(quotes).count <= 5 { return nil }
    let tooLong =
      to > Self.adding(months: 12 * rangeYears, to: from) || refusedRangeDays.map { to.days(since: from) > $0 } ?? false
    guard tooLong else { return nil }
    return "date range exceeds \(rangeYears) years at daily granularity; filter with quotes= (5 currencies or fewer), "
      + "aggregate with group=week or group=month, or split the range into shorter requests"
  }

  /// Ruby's `Date#>>`: some months later, the day clamped to the month's last.
  public static func adding(months: Int, to day: CalendarDay) -> CalendarDay {
    let (year, month, dayOfMonth) = day.components
    let index = year * 12 + (month - 1) + months
    for candidate in stride(from: dayOfMonth, through: 1, by: -1) {
      if let result = CalendarDay(year: index / 12, month: index % 12 + 1, day: candidate) { return result }
    }
    return day
  }

  private func error(_ status: Int, _ message: String) -> ScriptedResponse {
    .json(#"{"status":\#(status),"message":"\#(message)"}"#, status: status)
  }

  /// Each quote's latest row within 14 days on or before a day (`CarryForward.apply`), of the given providers'
  /// rows (all when `nil`).
  private func snapshot(on day: CalendarDay, providers: Set<String>?) -> [Row] {
    rowsByQuote.keys.sorted().compactMap { quote in
      guard let rows = rowsByQuote[quote]?.filter({ providers?.contains($0.provider) ?? true }) else { return nil }
      let count = Self.count(rows, onOrBefore: day) { $0.date }
      guard count > 0, rows[count - 1].date >= day.adding(days: -14) else { return nil }
      return rows[count - 1]
    }
  }

  /// How many of some items in ascending day order are on or before a day.
  static func count<Item>(
    _ items: [Item], onOrBefore day: CalendarDay, _ dayOf: (Item) -> CalendarDay
  ) -> Int {
    var low = 0
    var high = items.count
    while low < high {
      let middle = (low + high) / 2
      if dayOf(items[middle]) <= day { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// A snapshot's rows in the asked base, filtered, rounded and written (`emit_records`).
  private func emit(_ snapshot: [Row], base: String, quotes: [String]?, range: Bool) -> [(
    date: CalendarDay, quote: String, rate: String, provider: String?
  )] {
    if snapshot.isEmpty { return [] }
    var blended = snapshot
    if base != pivot {
      // `derive`: every rate over the base's, and the base → pivot row; no path without the base's rate.
      guard let baseRow = snapshot.first(where: { $0.quote == base }) else { return [] }
      // A cross row keeps its quote's providers, the base → pivot row the base's (`rebase_row`).
      blended = snapshot.filter { $0.quote != base }.map {
        Row(date: $0.date, quote: $0.quote, rate: $0.rate / baseRow.rate, provider: $0.provider)
      }
      blended.append(Row(date: baseRow.date, quote: pivot, rate: 1.0 / baseRow.rate, provider: baseRow.provider))
    }
    var records = blended.filter { quotes?.contains($0.quote) ?? true }.map {
      (date: $0.date, quote: $0.quote, rate: Self.rubyText(Self.round($0.rate)), provider: Optional($0.provider))
    }
    if quotes?.contains(base) ?? true, !records.contains(where: { $0.quote == base }) {
      let reference = records.map(\.date).max() ?? blended.map(\.date).max() ?? today
      records.append((reference, base, "1.0", nil))
    }
    return range ? records.sorted { ($0.date, $0.quote) < ($1.date, $1.quote) } : records.sorted { $0.quote < $1.quote }
  }

  /// `Roundable#round`: whole above 5000, else 2, 3, 4, 5 or 6 decimals by magnitude (`nil` decimals: whole).
  public static func round(_ value: Double) -> (value: Double, whole: Bool) {
    if value > 5000 { return (value.rounded(), true) }
    let decimals = value > 80 ? 2 : value > 20 ? 3 : value > 1 ? 4 : value > 0.0001 ? 5 : 6
    return (Double(String(format: "%.\(decimals)f", value)) ?? value, false)
  }

  /// A rounded rate as Ruby (and Oj's compat mode) writes it: an Integer's digits, or a Float's shortest
  /// text with `.0` in its mantissa (`1.0`, `4.0e-05`).
  public static func rubyText(_ rounded: (value: Double, whole: Bool)) -> String {
    if rounded.whole { return String(Int(rounded.value)) }
    let text = "\(rounded.value)"
    guard let exponent = text.firstIndex(of: "e") else { return text }
    let mantissa = text[..<exponent]
    return mantissa.contains(".") ? text : mantissa + ".0" + text[exponent...]
  }
}
