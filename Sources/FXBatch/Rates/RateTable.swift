/// Reference rates by publication day, and the rules that turn them into the rate for a ``RateKey``.
///
/// The table is a grid: one row per publication day (ascending), one column per published pair (for the ECB,
/// EUR/USD, EUR/JPY, …); a missing cell means no rate was published for that pair that day (`N/A`). An
/// undated table (a fixed rate list) has a single row that serves every day.
public struct RateTable: Sendable {
  public let info: RateSourceInfo
  /// The published pairs, the grid's columns.
  public let pairs: [CurrencyPair]
  /// Publication days, ascending; empty for an undated table.
  public let days: [CalendarDay]
  /// The currency cross rates go through: the base most pairs share (EUR for the ECB).
  public let pivot: CurrencyCode
  /// Row-major grid, `max(days.count, 1) × pairs.count`.
  let values: RateGrid
  let columnByPair: [CurrencyPair: Int]
  private let coveredCurrencies: Set<CurrencyCode>
  /// For a table merged from two sources: from this day on, quotes name the second source's identifier.
  public internal(set) var laterSource: (from: CalendarDay, identifier: String)?
  /// What the source covers beyond the rows held (see ``Coverage``).
  public internal(set) var coverage = Coverage()
  /// Records the rows and columns the date rules read, for a lock file (``RateTableUsage``); `nil`: not recorded.
  var usage: RateTableUsage?
  private let undated: Bool

  /// The bounds of a source that the rows alone do not tell. ``publicationRow(for:maxStaleness:)`` is the one
  /// place that applies them.
  public struct Coverage: Sendable {
    /// The source's first and last publication days (`nil`: the table's first and last rows).
    public var firstDay: CalendarDay?
    public var lastDay: CalendarDay?
    /// The day the source first published rates at all, when known (the ECB's reference rates: 1999-01-04).
    /// The days before it are no publication days of the source, so a period that begins before it is complete
    /// from it on: the ECB's average of 1999 is over every 1999 publication day (``firstDay`` may be later, for a
    /// table holding only the source's newer days, such as the ECB's 90-day file).
    public var firstPublication: CalendarDay?
    /// No rates exist for later days (a feed fetched today has nothing for tomorrow), whatever
    /// `--max-staleness` allows.
    public var validThrough: CalendarDay?
    /// Set for a table that holds only some of its source's rows and columns (one rebuilt from a lock file).
    var partial: Partial?

    public init() {}
  }

  /// A table with some of its source's rows and columns: a day whose deciding publication is not held, or a
  /// pair whose column is not kept, is a `no_rate` error naming the holder, never another day's or pair's rate.
  struct Partial: Sendable {
    /// Who holds the rows, as messages name it: "the lock file rates.lock".
    let holder: String
    /// Per row: the source's next publication day after it (`nil`: none); the row decides only earlier days.
    let nextDays: [CalendarDay?]
    /// Columns `0..<keptColumns` hold the source's cells; the rest only name the source's other pairs.
    let keptColumns: Int
  }

  /// Creates a table from its grid.
  ///
  /// - Parameters:
  ///   - values: row-major, `max(days.count, 1) × pairs.count` cells; every rate must be positive.
  public init(info: RateSourceInfo, pairs: [CurrencyPair], days: [CalendarDay], values: [ExactDecimal?]) {
    self.init(info: info, pairs: pairs, days: days, grid: RateGrid(values))
  }

  /// Creates a table from its grid (see ``RateGrid``).
  init(info: RateSourceInfo, pairs: [CurrencyPair], days: [CalendarDay], grid values: RateGrid, undated: Bool? = nil) {
    precondition(values.count == max(days.count, 1) * pairs.count, "grid size mismatch")
    self.undated = undated ?? days.isEmpty
    self.info = info
    self.pairs = pairs
    self.days = days
    self.values = values
    var columnByPair: [CurrencyPair: Int] = [:]
    var baseCounts: [CurrencyCode: Int] = [:]
    for (index, pair) in pairs.enumerated() {
      columnByPair[pair] = columnByPair[pair] ?? index
      baseCounts[pair.base, default: 0] += 1
    }
    self.columnByPair = columnByPair
    coveredCurrencies = Set(pairs.flatMap { [$0.base, $0.quote] })
    pivot = baseCounts.max { lhs, rhs in (lhs.value, rhs.key) < (rhs.value, lhs.key) }?.key ?? .euro
  }

  /// The most publication days a table may have: 200,000 is over 500 years of daily rates (the ECB's history
  /// has 7,000). A source declaring more (a feed of a million empty `<Cube time>` days) is refused as it is
  /// read, so memory stays bounded whatever the days' span.
  public static let maximumDays = 200_000
  /// The most pairs a table may have (its currencies are ISO 4217 codes, about 240): every pair of 100
  /// currencies both ways is under 10,000.
  public static let maximumPairs = 10_000

  /// Why a source's rates are refused past ``maximumDays``.
  static var tooManyDays: String {
    "more than \(maximumDays.groupedText) days of rates; a rate source may have at most \(maximumDays.groupedText) (over 500 years of daily rates)"
  }

  /// Why a source's rates are refused past ``maximumPairs``.
  static var tooManyPairs: String {
    "more than \(maximumPairs.groupedText) currency pairs; a rate source may have at most \(maximumPairs.groupedText)"
  }

  /// A count with thousands separators, as the messages write limits (`200,000`).

  public var isUndated: Bool { undated }
  /// The source's first publication day (``Coverage/firstDay``, else the first row's).
  public var firstDay: CalendarDay? { coverage.firstDay ?? days.first }
  /// The source's last publication day (``Coverage/lastDay``, else the last row's).
  public var lastDay: CalendarDay? { coverage.lastDay ?? days.last }

  /// The source's next publication day after a row (`nil`: none known, the row decides every later day within
  /// the staleness limit).
  func nextDay(after row: Int) -> CalendarDay? {
    if let partial = coverage.partial { return partial.nextDays[row] }
    return row + 1 < days.count ? days[row + 1] : nil
  }

  /// This table, recording the rows and columns its rules read from now on (for a lock file).
  func recordingUsage() -> RateTable {
    var table = self
    table.usage = RateTableUsage(rows: max(days.count, 1), columns: pairs.count)
    return table
  }

  /// The error for a cell of a column a partial table does not keep, or `nil`.
  func unkeptColumnError(_ column: Int) -> RowError? {
    guard let partial = coverage.partial, column >= partial.keptColumns else { return nil }
    return RowError(.noRate, "\(partial.holder) holds no \(pairs[column]) rates")
  }

  /// The currencies the table can convert between (the pivot included).
  public var currencies: Set<CurrencyCode> { coveredCurrencies.union([pivot]) }

  /// The rate for a key under the date rules.
  ///
  /// The latest publication day on or before the key's day decides. A day with no publication (weekend,
  /// TARGET holiday) uses the latest earlier one if it is at most `maxStaleness` days older (the quote is then
  /// a fallback); a currency not published on the deciding day gives an error, never another day's rate.
  /// Rates are never interpolated and never taken from a later day.
  ///
  /// - Parameters:
  ///   - key: pair and day.
  ///   - maxStaleness: how many days older than the key's day the deciding publication may be.
  /// - Returns: the quote, or a `no_rate`, `date_out_of_range` or `stale_rate` error.
  public func quote(for key: RateKey, maxStaleness: Int) -> Result<RateQuote, RowError> {
    let pair = key.pair
    if pair.base == pair.quote {
      return .success(
        RateQuote(rate: .one, rateText: "1", rateDay: isUndated ? nil : key.day, isFallback: false, source: "same currency"))
    }
    for currency in [pair.base, pair.quote] where !currencies.contains(currency) {
      return .failure(RowError(.noRate, "the \(info.publisher) rates have no \(currency) rates at all"))
    }
    let row: Int
    var rateDay: CalendarDay? = nil
    if isUndated {
      row = 0
      usage?.mark(row: 0)
    } else {
      switch publicationRow(for: key.day, maxStaleness: maxStaleness) {
      case .failure(let error): return .failure(error)
      case .success(let found): row = found
      }
      rateDay = days[row]
    }
    var legs: [String] = []
    var unkept: RowError? = nil
    func leg(from pivot: CurrencyCode, to currency: CurrencyCode) -> ExchangeRate?? {
      if currency == pivot { return .some(.one) }
      if let column = columnByPair[CurrencyPair(base: pivot, quote: currency)] {
        usage?.mark(columns: [column])
        if let error = unkeptColumnError(column) { unkept = unkept ?? error }
        guard let value = values[row * pairs.count + column] else { return .some(nil) }
        legs.append("\(pivot)/\(currency)=\(value)")
        return .some(ExchangeRate(numerator: value))
      }
      if let column = columnByPair[CurrencyPair(base: currency, quote: pivot)] {
        usage?.mark(columns: [column])
        if let error = unkeptColumnError(column) { unkept = unkept ?? error }
        guard let value = values[row * pairs.count + column] else { return .some(nil) }
        legs.append("\(currency)/\(pivot)=\(value)")
        return .some(ExchangeRate(numerator: value).inverted)
      }
      return nil
    }
    func notPublished(_ currency: CurrencyCode) -> RowError {
      if let unkept { return unkept }
      let day = rateDay.map { " on \($0)" } ?? ""
      return RowError(.noRate, "\(info.publisher) published no \(currency) rate\(day)")
    }
    let rate: ExchangeRate
    // A directly published pair, either way round, is used as published; anything else crosses the pivot.
    if case .some(.some(let direct)) = leg(from: pair.base, to: pair.quote) {
      rate = direct
    } else {
      // A lock that does not keep the direct pair cannot say whether the source published it that day.
      if let unkept { return .failure(unkept) }
      legs = []
      func missingLeg(_ currency: CurrencyCode, _ found: ExchangeRate??) -> RowError {
        guard case .none = found else { return notPublished(currency) }
        return RowError(
          .noRate,
          "the \(info.publisher) rates have no \(currency) rate against \(pivot), which cross rates go through, nor a direct \(pair) rate"
        )
      }
      let baseLeg = leg(from: pivot, to: pair.base)
      guard case .some(.some(let toBase)) = baseLeg else { return .failure(missingLeg(pair.base, baseLeg)) }
      let quoteLeg = leg(from: pivot, to: pair.quote)
      guard case .some(.some(let toQuote)) = quoteLeg else { return .failure(missingLeg(pair.quote, quoteLeg)) }
      guard let cross = toBase.inverted.chained(with: toQuote) else {
        return .failure(RowError(.amountOverflow, "the cross rate \(pair) needs more than 38 digits"))
      }
      rate = cross
    }
    return .success(
      RateQuote(
        rate: rate, rateText: rate.decimalText(), rateDay: rateDay, isFallback: rateDay.map { $0 != key.day } ?? false,
        source: ([identifier(for: rateDay)] + legs).joined(separator: " ")))
  }

  /// The grid row of the deciding publication day for a date, under the table's ``Coverage``; the row found
  /// (also for a stale or too-late day, whose error names it) is recorded in ``usage``.
  func publicationRow(for day: CalendarDay, maxStaleness: Int) -> Result<Int, RowError> {
    guard let first = firstDay, let last = lastDay else { return .failure(RowError(.noRate, "the table is empty")) }
    if day < first {
      return .failure(
        RowError(.dateOutOfRange, "\(day) is before the \(info.publisher) rates start (\(first)); no earlier rate exists"))
    }
    if let validThrough = coverage.validThrough, day > validThrough {
      return .failure(RowError(.dateOutOfRange, "\(day) is in the future; no rates exist for it yet"))
    }
    func notHeld() -> RowError {
      RowError(.noRate, "\(coverage.partial?.holder ?? "the table") holds no \(info.publisher) publication deciding \(day)")
    }
    guard let held = days.first, day >= held else { return .failure(notHeld()) }
    // Binary search for the last day <= `day`.
    var low = 0
    var high = days.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if days[middle] <= day { low = middle } else { high = middle - 1 }
    }
    if let partial = coverage.partial, let next = partial.nextDays[low], day >= next { return .failure(notHeld()) }
    usage?.mark(row: low)
    let age = day.days(since: days[low])
    if age > maxStaleness {
      if days[low] == last {
        return .failure(
          RowError(
            .dateOutOfRange,
            "\(day) is \(age) days after the \(info.publisher) rates end (\(last)); use --rates FILE with newer rates, or --max-staleness \(age) to accept the \(last) rates"
          ))
      }
      return .failure(
        RowError(
          .staleRate,
          "\(info.publisher) published no rates in the \(maxStaleness) days up to \(day) (latest: \(days[low])); use --max-staleness \(age) to accept it"
        ))
    }
    return .success(low)
  }

  func identifier(for rateDay: CalendarDay?) -> String {
    if let laterSource, let rateDay, rateDay >= laterSource.from { return laterSource.identifier }
    return info.identifier
  }

  /// This table followed by the days of `newer` after this table's last day (a refreshed history on top of
  /// the embedded one). Quotes from those days name `newer`'s identifier; the source's first publication is
  /// this table's.
  ///
  /// - Parameter info: the merged table's description.
  public func extended(with newer: RateTable, info: RateSourceInfo) -> RateTable {
    guard let last = lastDay, let newerLast = newer.lastDay, newerLast > last else { return self }
    var pairs = self.pairs
    for pair in newer.pairs where !pairs.contains(pair) { pairs.append(pair) }
    var mergedColumn: [CurrencyPair: Int] = [:]
    for (column, pair) in pairs.enumerated() { mergedColumn[pair] = mergedColumn[pair] ?? column }
    let newRows = newer.days.indices.filter { newer.days[$0] > last }
    // The rates present only, so that the merge costs what the two tables hold, not days × pairs.
    var builder = RateGrid.Builder()
    values.forEachRate(rows: days.count, width: self.pairs.count) { row, column, value in
      let pair = self.pairs[column]
      // A pair named twice reads its first column, as ``quote(for:maxStaleness:)`` does.
      if columnByPair[pair] == column, let merged = mergedColumn[pair] { builder.append(row: row, column: merged, value: value) }
    }
    let firstNewRow = newRows.first ?? newer.days.count
    newer.values.forEachRate(rows: newer.days.count, width: newer.pairs.count) { row, column, value in
      let pair = newer.pairs[column]
      guard row >= firstNewRow, newer.columnByPair[pair] == column, let merged = mergedColumn[pair] else { return }
      builder.append(row: days.count + row - firstNewRow, column: merged, value: value)
    }
    let mergedDays = days + newRows.map { newer.days[$0] }
    var merged = RateTable(
      info: info, pairs: pairs, days: mergedDays, grid: builder.grid(rows: mergedDays.count, width: pairs.count))
    merged.laterSource = (newer.days[newRows[0]], newer.info.identifier)
    merged.coverage.firstPublication = coverage.firstPublication
    return merged
  }
}
