import Foundation

/// Parses a user's own rate list: a CSV with a header naming `base`, `quote` and `rate` fields, and optionally
/// `date` (e.g. a company's month-end table), one rate per line: `rate` units of `quote` per 1 `base`.
///
/// Without a `date` field the table is undated: its rates serve every day. Header names are matched
/// case-insensitively; `from` / `to` are accepted for `base` / `quote`.
public enum SimpleRatesCSV {
  /// Whether a header line names the fields this format needs.
  static func matches(header: [String]) -> Bool {
    (try? columns(of: header)) != nil
  }

  private static func columns(of header: [String]) throws -> (date: Int?, base: Int, quote: Int, rate: Int) {
    let names = header.map(FieldMapping.normalizedName)
    func find(_ candidates: [String]) -> Int? { names.firstIndex { candidates.contains($0) } }
    guard let base = find(["base", "from", "basecurrency"]), let quote = find(["quote", "to", "quotecurrency"]),
      let rate = find(["rate"])
    else { throw CSVError.missingHeader }
    return (find(["date", "ratedate"]), base, quote, rate)
  }

  /// Parses a rate list file.
  ///
  /// - Parameters:
  ///   - path: the file to read.
  ///   - info: the source description the table carries.
  /// - Returns: a table with one column per distinct pair; one row per date (or one undated row).
  /// - Throws: ``RatesFileError`` with the line and column of the first bad line: a missing field, an unknown
  ///   code, a pair of a currency with itself, a rate that is not a positive decimal, a bad date, an empty
  ///   date in a dated file, or the same pair and date twice with different rates.
  public static func parse(path: String, info: RateSourceInfo) throws(RatesFileError) -> RateTable {
    func fail(_ line: Int, _ column: Int, _ message: String) -> RatesFileError {
      RatesFileError(path: path, line: line, column: column, message: message)
    }
    let reader: CSVReader
    do { reader = try CSVReader(path: path) } catch { throw fail(1, 1, "\(error)") }
    var layout: (date: Int?, base: Int, quote: Int, rate: Int)?
    var pairs: [CurrencyPair] = []
    var columnByPair: [CurrencyPair: Int] = [:]
    /// The rates as read, and each one's place by (day, pair column): one entry per rate, never a row per day
    /// times every pair (``RateGrid/Builder``).
    var cellDays: [Int] = []
    var cellColumns: [Int] = []
    var cellValues: [ExactDecimal] = []
    var cellByPlace: [CellPlace: Int] = [:]
    var seenDays: Set<Int> = []
    func storedRate(on day: CalendarDay?, column: Int) -> ExactDecimal? {
      cellByPlace[CellPlace(day: day?.daysSinceEpoch ?? Int.min, column: column)].map { cellValues[$0] }
    }
    do {
      while let record = try reader.next() {
        if record.isBlank { continue }
        // Whitespace around a field is not part of it (`trimmingWhitespace`: Foundation's trimming took a fifth of the time).
        let fields = (0..<record.fieldCount).map { record.field($0).trimmingWhitespace }
        func column(_ index: Int) -> Int {
          index < record.fieldCount ? record.fieldRanges[index].lowerBound + 1 : record.raw.count + 1
        }
        guard let columns = layout else {
          guard let found = try? columns(of: fields) else {
            throw fail(record.line, 1, "expected a header naming base, quote, rate (and optionally date) fields")
          }
          layout = found
          continue
        }
        func field(_ index: Int, _ name: String) throws(RatesFileError) -> String {
          guard index < fields.count, !fields[index].isEmpty else {
            throw fail(record.line, column(index), "the \(name) is empty")
          }
          return fields[index]
        }
        let baseText = try field(columns.base, "base currency")
        let quoteText = try field(columns.quote, "quote currency")
        guard let base = CurrencyCode(baseText) else {
          throw fail(record.line, column(columns.base), "\(RowError.quoted(baseText)) is not an ISO 4217 currency code")
        }
        guard let quote = CurrencyCode(quoteText) else {
          throw fail(record.line, column(columns.quote), "\(RowError.quoted(quoteText)) is not an ISO 4217 currency code")
        }
        guard base != quote else { throw fail(record.line, column(columns.quote), "a rate of \(base) against itself") }
        let rateText = try field(columns.rate, "rate")
        guard let rate = ExactDecimal(rateText), rate.significand > 0 else {
          throw fail(record.line, column(columns.rate), "\(RowError.quoted(rateText)) is not a positive decimal rate")
        }
        var day: CalendarDay? = nil
        if let dateColumn = columns.date {
          let dateText = try field(dateColumn, "date")
          guard let parsed = CalendarDay(iso8601: dateText) else {
            throw fail(record.line, column(dateColumn), "\(RowError.quoted(dateText)) is not a YYYY-MM-DD date")
          }
          day = parsed
        }
        let pair = CurrencyPair(base: base, quote: quote)
        let pairColumn = columnByPair[pair] ?? pairs.count
        if pairColumn == pairs.count {
          guard pairs.count < RateTable.maximumPairs else {
            throw fail(record.line, column(columns.base), "\(pair): \(RateTable.tooManyPairs)")
          }
          pairs.append(pair)
          columnByPair[pair] = pairColumn
        }
        if let day, let dateColumn = columns.date, seenDays.insert(day.daysSinceEpoch).inserted,
          seenDays.count > RateTable.maximumDays
        {
          throw fail(record.line, column(dateColumn), "\(day): \(RateTable.tooManyDays)")
        }
        // Compared as numbers: 1.1193 and 1.11930 are the same rate written twice, not a conflict.
        if let existing = storedRate(on: day, column: pairColumn), existing.normalized != rate.normalized {
          throw fail(
            record.line, column(columns.rate),
            "\(pair) on \(day.map(String.init(describing:)) ?? "every day") is given twice (\(existing) and \(rate))")
        }
        // Both directions of a pair on one day must be exact inverses, or the table contradicts itself.
        let inverse = CurrencyPair(base: quote, quote: base)
        if let inverseColumn = columnByPair[inverse], let other = storedRate(on: day, column: inverseColumn),
          rate.multiplied(by: other).map({ $0.normalized != .one }) ?? true
        {
          throw fail(
            record.line, column(columns.rate),
            "\(pair) \(rate) and \(inverse) \(other) on \(day.map(String.init(describing:)) ?? "every day") are not inverses; give one direction"
          )
        }
        // A rate given twice keeps its later spelling (1.11930), as the table always did.
        let place = CellPlace(day: day?.daysSinceEpoch ?? Int.min, column: pairColumn)
        if let index = cellByPlace[place] {
          cellValues[index] = rate
        } else {
          cellByPlace[place] = cellValues.count
          cellDays.append(place.day)
          cellColumns.append(pairColumn)
          cellValues.append(rate)
        }
      }
    } catch let error as RatesFileError {
      throw error
    } catch let error as CSVError {
      throw fail(error.line, error.column, error.description)
    } catch {
      throw fail(1, 1, "\(error)")
    }
    guard layout != nil else { throw fail(1, 1, "the file is empty") }
    guard !pairs.isEmpty else { throw fail(2, 1, "the file has a header but no rates") }
    let days = seenDays.sorted().map(CalendarDay.init(daysSinceEpoch:))
    var rowOfDay: [Int: Int] = [:]
    for (row, day) in days.enumerated() { rowOfDay[day.daysSinceEpoch] = row }
    var builder = RateGrid.Builder()
    for index in cellValues.indices {
      builder.append(row: rowOfDay[cellDays[index]] ?? 0, column: cellColumns[index], value: cellValues[index])
    }
    return RateTable(info: info, pairs: pairs, days: days, grid: builder.grid(rows: max(days.count, 1), width: pairs.count))
  }
}

/// A rate's place in a rates file: its day (days since 1970, `Int.min` in an undated file) and its pair's column.
private struct CellPlace: Hashable {
  let day: Int
  let column: Int
}
