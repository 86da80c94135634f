/// The reference rates of a span of days — each publication day's, or one average or closing rate per calendar
/// period — as the price lists accounting tools import (`fxbatch rates export`): CSV, JSON Lines, Beancount
/// `price` directives, Ledger/hledger `P` directives (both of the last two after a `commodity` declaration of
/// each currency they name).
///
/// Each rate is written as ``RateQuote/rateText``: a published rate exactly as published; a cross rate or an
/// average exact when it terminates within 10 significant digits, else rounded half-even to 10 significant
/// digits, which is within 5 × 10⁻¹⁰ of the exact value, relative.
public struct RateExport: Sendable {
  /// The file formats of an export.
  public enum Format: String, CaseIterable, Sendable {
    case csv
    case jsonl
    case beancount
    case ledger
  }

  /// The day a period rate is dated on.
  ///
  /// `end` (the default): the period's last publication day averaged, or its closing day — the day the rate
  /// is known, so a ledger never holds a price before it could have been had. `start`: the period's first
  /// calendar day, so that a tool valuing a day at the latest price on or before it (hledger and Ledger
  /// `--value=then`, Beancount) values every day of the period at that period's own average, not at the
  /// previous period's.
  public enum DateAt: String, CaseIterable, Sendable {
    case end
    case start
  }

  /// One exported rate: one unit of ``base`` is worth ``rateText`` units of ``quote``.
  public struct Row: Equatable, Sendable {
    /// The publication day of a daily rate or a closing rate; for an average, the period's last publication day
    /// averaged (the day accounting tools date a period's price on); under ``DateAt/start``, a period rate's
    /// period's first calendar day.
    public let date: CalendarDay
    public let base: CurrencyCode
    public let quote: CurrencyCode
    public let rateText: String
    /// The period of an average or closing rate (`2024-03`, `2024-Q1`, `2024`); `nil` for a daily rate.
    public let period: String?
    /// What the rate is computed from, as `fx_source` says it.
    public let source: String
  }

  /// The rows of an export, and the rates it could not give (a period the source has not finished, a currency
  /// asked for that has no rate in a period).
  public let rows: [Row]
  public let skipped: [(what: String, error: RowError)]

  /// Collects the rates of `base` against each of `quotes` from a table.
  ///
  /// - Parameters:
  ///   - quotes: the quote currencies; empty for every currency the table published between `from` and `to`.
  ///     Under ``RateRule/spot`` a day a quote currency was not published (`N/A`) has no row for it, as the
  ///     source has none; a quote currency with no rate at all in the span is in ``skipped``. Under a period
  ///     rule, the default quotes of a period are those published in it; a quote asked for by name that has no
  ///     rate in a period is in ``skipped``.
  ///   - from: the first day; under a period rule, the first period is the one containing it.
  ///   - to: the last day; under a period rule, the last period is the one containing it.
  ///   - dateAt: the day a period rate is dated on (``DateAt``); a daily rate is dated on its own day.
  public init(
    table: RateTable, base: CurrencyCode, quotes: [CurrencyCode], from: CalendarDay, to: CalendarDay, rule: RateRule,
    dateAt: DateAt = .end
  ) {
    var rows: [Row] = []
    var skipped: [(String, RowError)] = []
    let published = Self.publishedCurrencies(of: table, from: from, to: to)
    let chosen = (quotes.isEmpty ? published.sorted { $0.description < $1.description } : quotes).filter { $0 != base }
    switch rule.period {
    case .none:
      var answered: Set<CurrencyCode> = []
      for day in table.days where from <= day && day <= to {
        for quote in chosen {
          guard case .success(let found) = table.quote(for: RateKey(base: base, quote: quote, day: day), maxStaleness: 0)
          else { continue }
          answered.insert(quote)
          rows.append(
            Row(date: day, base: base, quote: quote, rateText: found.rateText, period: nil, source: found.source))
        }
      }
      for quote in chosen where !answered.contains(quote) {
        skipped.append(("\(base)/\(quote)", RowError(.noRate, "no \(base)/\(quote) rate from \(from) to \(to)")))
      }
    case .some(let period):
      // By default a period exports the currencies published in it, as a day does: one not yet or no longer
      // published (BGN before 2000, HRK after 2022) is not a failure the user asked about.
      var inPeriod: (first: CalendarDay, currencies: Set<CurrencyCode>)? = nil
      (rows, skipped) = Self.periodRows(
        base: base, quotes: chosen, from: from, to: to, period: period, dateAt: dateAt,
        includes: { span, quote in
          guard quotes.isEmpty else { return true }
          if inPeriod?.first != span.first {
            inPeriod = (span.first, Self.publishedCurrencies(of: table, from: span.first, to: span.last))
          }
          return inPeriod?.currencies.contains(quote) ?? false
        },
        answer: { table.quote(for: $0, rule: rule, maxStaleness: 0) })
    }
    self.rows = rows
    self.skipped = skipped
  }

  /// Collects the period rates of `base` against each of `quotes` from a source that answers keys (the ECB feed,
  /// Frankfurter v2, a chain: ``RateSourceChoice/answers(to:rule:maxStaleness:today:)``), all asked at once.
  ///
  /// - Parameters:
  ///   - quotes: the quote currencies, by name (a service lists no currencies per period).
  ///   - rule: a period rule.
  ///   - today: the run's day.
  ///   - dateAt: the day a period rate is dated on (``DateAt``).
  public init(
    source: RateSourceChoice, base: CurrencyCode, quotes: [CurrencyCode], from: CalendarDay, to: CalendarDay,
    period: RatePeriod, rule: RateRule, today: CalendarDay, dateAt: DateAt = .end
  ) {
    var keys: Set<RateKey> = []
    var span = period.span(containing: from)
    while span.first <= to {
      for quote in quotes where quote != base { keys.insert(RateKey(base: base, quote: quote, day: span.first)) }
      span = period.span(containing: span.last.adding(days: 1))
    }
    let answers = source.answers(to: keys, rule: rule, maxStaleness: 0, today: today)
    (rows, skipped) = Self.periodRows(
      base: base, quotes: quotes.filter { $0 != base }, from: from, to: to, period: period, dateAt: dateAt,
      includes: { _, _ in true },
      answer: { answers[$0] ?? .failure(RowError(.noRate, "no rate was looked up for \($0.pair)")) })
  }

  /// One row per period from `from` to `to` and quote that `includes` (the key of a period is its first day),
  /// dated by the answer's rate day (``DateAt/end``) or the period's first day (``DateAt/start``); an error is
  /// skipped with the period and pair.
  private static func periodRows(
    base: CurrencyCode, quotes: [CurrencyCode], from: CalendarDay, to: CalendarDay, period: RatePeriod,
    dateAt: DateAt, includes: (RatePeriod.Span, CurrencyCode) -> Bool, answer: (RateKey) -> Result<RateQuote, RowError>
  ) -> ([Row], [(what: String, error: RowError)]) {
    var rows: [Row] = []
    var skipped: [(what: String, error: RowError)] = []
    var span = period.span(containing: from)
    while span.first <= to {
      for quote in quotes where includes(span, quote) {
        switch answer(RateKey(base: base, quote: quote, day: span.first)) {
        case .success(let found):
          guard let rateDay = found.rateDay else { continue }
          let day = dateAt == .start ? span.first : rateDay
          rows.append(
            Row(date: day, base: base, quote: quote, rateText: found.rateText, period: span.label, source: found.source))
        case .failure(let error):
          skipped.append(("\(span.label) \(base)/\(quote)", error))
        }
      }
      span = period.span(containing: span.last.adding(days: 1))
    }
    return (rows, skipped)
  }

  /// The currencies with at least one published rate from `from` to `to`, the pivot included.
  static func publishedCurrencies(of table: RateTable, from: CalendarDay, to: CalendarDay) -> Set<CurrencyCode> {
    let rows = table.rows(in: RatePeriod.Span(first: from, last: to, label: ""))
    var currencies: Set<CurrencyCode> = rows.isEmpty ? [] : [table.pivot]
    let width = table.pairs.count
    for (column, pair) in table.pairs.enumerated() where table.values.hasRate(column: column, width: width, in: rows) {
      currencies.insert(pair.base)
      currencies.insert(pair.quote)
    }
    return currencies
  }

  /// The export as text in a format.
  ///
  /// - Parameters:
  ///   - heading: a line saying where the rates come from (a comment in Beancount and Ledger files).
  ///   - commodities: whether a Beancount or Ledger file declares each currency it names first
  ///     (``commodityText(_:format:)``).
  public func text(_ format: Format, heading: String, commodities: Bool = true) -> String {
    var text = ""
    switch format {
    case .csv: text = "date,base,quote,rate,period,source\n"
    case .jsonl: break
    case .beancount, .ledger:
      text = Self.comment(heading)
      if commodities { text += Self.commodityText(Self.firstUses(rows), format: format) }
    }
    return text + Self.priceText(rows, format: format)
  }

  /// The price lines of some rows in a format (no heading, header or commodity declarations).
  static func priceText(_ rows: [Row], format: Format) -> String {
    var text = ""
    switch format {
    case .csv:
      for row in rows {
        let fields = [row.date.description, "\(row.base)", "\(row.quote)", row.rateText, row.period ?? "", row.source]
        text += fields.map(Self.csvField).joined(separator: ",") + "\n"
      }
    case .jsonl:
      for row in rows {
        let period = row.period.map(JSONAnnotatingWriter.quoted) ?? "null"
        text +=
          "{\"date\":\"\(row.date)\",\"base\":\"\(row.base)\",\"quote\":\"\(row.quote)\",\"rate\":\(row.rateText),"
          + "\"period\":\(period),\"source\":\(JSONAnnotatingWriter.quoted(row.source))}\n"
      }
    case .beancount:
      for row in rows {
        text += "\(row.date) price \(row.base) \(row.rateText) \(row.quote)\n"
        if let period = row.period { text += "  period: \(JSONAnnotatingWriter.quoted(period))\n" }
        text += "  source: \(JSONAnnotatingWriter.quoted(row.source))\n"
      }
    case .ledger:
      for row in rows {
        text += Self.comment("\(row.period.map { "\($0): " } ?? "")\(row.source)")
        text += "P \(row.date) \(row.base) \(row.rateText) \(row.quote)\n"
      }
    }
    return text
  }

  /// Each currency the rows name, with the first day a row names it.
  static func firstUses(_ rows: [Row]) -> [CurrencyCode: CalendarDay] {
    var first: [CurrencyCode: CalendarDay] = [:]
    for row in rows {
      for currency in [row.base, row.quote] where first[currency].map({ row.date < $0 }) ?? true {
        first[currency] = row.date
      }
    }
    return first
  }

  /// The declarations of some currencies, in code order.
  ///
  /// Beancount: `2024-01-02 commodity USD`, dated on the first day a price names it (a commodity is declared
  /// on or before its first use). Ledger and hledger: `commodity USD` with a `format` of the currency's ISO 4217
  /// minor units, which is how both show amounts of it, `bal -X USD` and `--value` results included
  /// (`5413.00 USD`, not the price's `5413.000000000 USD`), and which hledger's `check commodities` wants. A
  /// currency without decimals is written `format JPY 1000.`, the code first: hledger needs the decimal mark in
  /// a format, and Ledger refuses one after the number (`1000. JPY`), so this is the one form both read. A code
  /// ISO 4217 gives no minor unit (XAU, XDR) is declared without a format (shown as its amounts are written).
  static func commodityText(_ currencies: [CurrencyCode: CalendarDay], format: Format) -> String {
    var text = ""
    for (currency, day) in currencies.sorted(by: { $0.key < $1.key }) {
      switch format {
      case .beancount:
        text += "\(day) commodity \(currency)\n"
      case .ledger:
        guard let decimals = ISO4217.minorUnits(of: currency) else {
          text += "commodity \(currency)\n"
          continue
        }
        let example = decimals == 0 ? "\(currency) 1000." : "1000.\(String(repeating: "0", count: decimals)) \(currency)"
        text += "commodity \(currency)\n  format \(example)\n"
      case .csv, .jsonl:
        break
      }
    }
    return text
  }

  /// A Ledger or Beancount comment line (`; TEXT`): a line break in the text (a rates file's name) is written
  /// `\n`, or the rest of the text would be a line of the ledger (`P 2024-02-01 EUR 9 USD`, a forged price).
  static func comment(_ text: String) -> String {
    "; " + String(text.flatMap { $0.isNewline ? ["\\", "n"] : [$0] }) + "\n"
  }

  /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
  static func csvField(_ text: String) -> String {
    // `isNewline`: `\r\n` is one Character, neither `\n` nor `\r`.
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
    return "\"" + String(text.flatMap { $0 == "\"" ? ["\"", "\""] : [$0] }) + "\""
  }
}
