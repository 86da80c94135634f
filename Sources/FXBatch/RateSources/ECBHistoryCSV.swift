import Foundation

/// Parses the ECB reference-rate history CSV (`eurofxref-hist.csv` from
/// https://www.ecb.europa.eu/stats/eurofxref/): a header `Date,USD,JPY,…`, then one line per publication day,
/// newest first, each rate the number of units of the currency per 1 EUR, `N/A` where the ECB published no
/// rate that day. Every line ends with a trailing comma (an empty last column, which is not a currency).
public enum ECBHistoryCSV {
  /// Whether bytes look like an ECB history CSV: a first field `Date` followed by currency codes.
  static func matches(header: String) -> Bool {
    let fields = header.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace }
    guard fields.count >= 2, fields[0].lowercased() == "date" else { return false }
    return fields.dropFirst().allSatisfy { $0.isEmpty || CurrencyCode(letters: $0) != nil }
  }

  /// Parses a whole history file.
  ///
  /// - Parameters:
  ///   - bytes: the file's bytes (UTF-8, a byte order mark allowed).
  ///   - path: the name used in errors.
  ///   - info: the source description the table carries.
  /// - Returns: a table with one EUR/currency pair per currency column, days ascending.
  /// - Throws: ``RatesFileError`` for an unknown currency in the header, a bad date, a duplicate day, a rate
  ///   that is not a positive decimal, or a line with the wrong number of fields.
  public static func parse(_ buffer: UnsafeBufferPointer<UInt8>, path: String, info: RateSourceInfo) throws(RatesFileError)
    -> RateTable
  {
    try parse(ByteView(buffer), path: path, info: info)
  }

  /// Parses a whole history file from a view of its bytes (as the public `parse` does).
  static func parse(_ bytes: ByteView, path: String, info: RateSourceInfo) throws(RatesFileError) -> RateTable {
    var lineNumber = 0
    var currencies: [CurrencyCode] = []
    var currencyColumns: [Int] = []  // field index of each currency
    var fieldCount = 0
    // Each line's day, and the rates present with their line's row (``RateGrid/Builder``): a line of `N/A`s
    // costs its day only.
    var days: [CalendarDay] = []
    var cells = RateGrid.Builder()
    var seenDays: Set<CalendarDay> = []
    var index = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    while index < bytes.count {
      lineNumber += 1
      var lineEnd = index
      while lineEnd < bytes.count, bytes[lineEnd] != 10, bytes[lineEnd] != 13 { lineEnd += 1 }
      let lineStart = index
      index = lineEnd
      if index < bytes.count, bytes[index] == 13 { index += 1 }
      if index < bytes.count, bytes[index] == 10, index == lineEnd || bytes[index - 1] == 13 { index += 1 }
      if lineEnd == lineStart { continue }  // blank line
      // Split the line at commas, remembering each field's start column.
      var fields: [(start: Int, end: Int)] = []
      var fieldStart = lineStart
      for position in lineStart...lineEnd where position == lineEnd || bytes[position] == UInt8(ascii: ",") {
        fields.append((fieldStart, position))
        fieldStart = position + 1
      }
      func text(_ field: (start: Int, end: Int)) -> String {
        bytes.slice(field.start..<field.end).text
      }
      func fail(_ field: (start: Int, end: Int), _ message: String) -> RatesFileError {
        RatesFileError(path: path, line: lineNumber, column: field.start - lineStart + 1, message: message)
      }
      if currencies.isEmpty {
        guard text(fields[0]).trimmingWhitespace.lowercased() == "date" else {
          throw fail(fields[0], "expected the ECB history header `Date,USD,JPY,…`")
        }
        fieldCount = fields.count
        for (position, field) in fields.enumerated().dropFirst() {
          let name = text(field).trimmingWhitespace
          if name.isEmpty { continue }  // the trailing empty column
          guard let code = CurrencyCode(name) else {
            throw fail(field, "\(RowError.quoted(name)) in the header is not an ISO 4217 currency code")
          }
          guard !currencies.contains(code) else { throw fail(field, "currency \(code) appears twice in the header") }
          currencies.append(code)
          currencyColumns.append(position)
        }
        guard !currencies.isEmpty else { throw fail(fields[0], "the header names no currency") }
        continue
      }
      guard fields.count == fieldCount || (fields.count == fieldCount - 1 && text(fields[fields.count - 1]) != "") else {
        throw fail(fields[min(fields.count, fieldCount) - 1], "line has \(fields.count) fields, the header has \(fieldCount)")
      }
      guard let day = CalendarDay(iso8601: text(fields[0])) else {
        throw fail(fields[0], "\(RowError.quoted(text(fields[0]))) is not a YYYY-MM-DD date")
      }
      guard seenDays.insert(day).inserted else { throw fail(fields[0], "day \(day) appears twice") }
      guard days.count < RateTable.maximumDays else { throw fail(fields[0], "\(day): \(RateTable.tooManyDays)") }
      for (currencyColumn, column) in currencyColumns.enumerated() where column < fields.count {
        let field = fields[column]
        let cell = bytes.slice(field.start..<field.end)
        if cell.isEmpty || cell.elementsEqual("N/A".utf8) { continue }
        guard let rate = ExactDecimal(plainUTF8: cell.buffer), rate.significand > 0 else {
          throw fail(field, "\(RowError.quoted(text(field))) is not a positive decimal rate")
        }
        cells.append(row: days.count, column: currencyColumn, value: rate)
      }
      days.append(day)
    }
    guard !currencies.isEmpty else {
      throw RatesFileError(path: path, line: 1, column: 1, message: "the file is empty")
    }
    guard !days.isEmpty else {
      throw RatesFileError(path: path, line: 2, column: 1, message: "the file has a header but no rates")
    }
    // Rows ascending by day (the file lists the newest first).
    let order = days.indices.sorted { days[$0] < days[$1] }
    var rowOf = [Int](repeating: 0, count: days.count)
    for (position, row) in order.enumerated() { rowOf[row] = position }
    cells.renumberRows(rowOf)
    var table = RateTable(
      info: info, pairs: currencies.map { CurrencyPair(base: .euro, quote: $0) }, days: order.map { days[$0] },
      grid: cells.grid(rows: days.count, width: currencies.count))
    // The ECB's own layout: its rates, first published on 1999-01-04.
    table.coverage.firstPublication = ECBCoverage.firstDay
    return table
  }

  /// A table over static text in the ECB history layout (the history compiled into the binary), reading only
  /// the header and each line's date now, and a line's rates when a day is first asked (``RateGrid``).
  ///
  /// - Precondition: the text is a valid history (``parse(_:path:info:)`` accepts it; the tests check the
  ///   compiled-in one).
  static func indexLazily(_ text: StaticString, info: RateSourceInfo) -> RateTable {
    let bytes = ByteView(text)
    var currencies: [CurrencyCode] = []
    var columns: [Int] = []
    var rows: [(day: CalendarDay, line: Range<Int>)] = []
    var index = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    precondition(!bytes.isEmpty, "the embedded ECB history is empty")
    while index < bytes.count {
      // memchr finds each line feed (a CR before it is trimmed): the whole history is 1.9 MB.
      let start = index
      let feed = bytes.firstIndex(of: 10, from: index) ?? bytes.count
      index = feed + 1
      var lineEnd = feed
      if lineEnd > start, bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
      let line = start..<lineEnd
      if line.isEmpty { continue }
      if currencies.isEmpty {
        var field = 0
        var start = line.lowerBound
        for position in line.lowerBound...line.upperBound
        where position == line.upperBound || bytes[position] == UInt8(ascii: ",") {
          let name = bytes.slice(start..<position).text.trimmingWhitespace
          if field > 0, let code = CurrencyCode(name) {
            currencies.append(code)
            columns.append(field)
          }
          field += 1
          start = position + 1
        }
        continue
      }
      let dateEnd = min(line.lowerBound + 10, line.upperBound)
      guard let day = CalendarDay(iso8601Bytes: bytes.slice(line.lowerBound..<dateEnd)) else {
        preconditionFailure("the embedded ECB history has a line without a date")
      }
      rows.append((day, line))
    }
    rows.sort { $0.day < $1.day }
    var table = RateTable(
      info: info, pairs: currencies.map { CurrencyPair(base: .euro, quote: $0) }, days: rows.map(\.day),
      grid: RateGrid(lazy: RateGrid.LazyRows(text: text, lineRanges: rows.map(\.line), columns: columns)))
    // The ECB's own layout: its rates, first published on 1999-01-04.
    table.coverage.firstPublication = ECBCoverage.firstDay
    return table
  }

  /// The largest text ``render(_:)`` writes: a day costs 4 bytes per currency even without rates (`N/A,`), so a
  /// sparse table of many days and currencies would be far larger as this layout than as its source (the ECB's
  /// whole history is 2 MB).
  public static let maximumTextSize = 32 << 20

  /// The fewest bytes a table takes in the ECB history layout: each day's date and comma, and `N/A,` or more
  /// per currency.
  public static func minimumTextSize(of table: RateTable) -> Int {
    (table.days.count + 1) * (11 + 4 * table.pairs.count)
  }

  /// Writes a table of EUR/currency pairs in the ECB history layout: `Date,USD,…,` header, newest day first,
  /// `N/A` for a missing rate, a trailing comma on every line.
  ///
  /// - Returns: `nil` when a pair's base is not the euro (the layout has no place for it), or when the text
  ///   would be larger than ``maximumTextSize``.
  public static func render(_ table: RateTable) -> String? {
    guard table.pairs.allSatisfy({ $0.base == .euro }), !table.days.isEmpty,
      minimumTextSize(of: table) <= maximumTextSize
    else { return nil }
    var text: [UInt8] = []
    text.reserveCapacity(minimumTextSize(of: table))
    text.append(contentsOf: "Date,".utf8)
    for pair in table.pairs { text.append(contentsOf: "\(pair.quote),".utf8) }
    let width = table.pairs.count
    for row in table.days.indices.reversed() {
      text.append(UInt8(ascii: "\n"))
      text.append(contentsOf: table.days[row].description.utf8)
      text.append(UInt8(ascii: ","))
      for column in 0..<width {
        if let value = table.values[row * width + column] {
          text.append(contentsOf: value.description.utf8)
          text.append(UInt8(ascii: ","))
        } else {
          text.append(contentsOf: "N/A,".utf8)
        }
      }
      guard text.count <= maximumTextSize else { return nil }
    }
    text.append(UInt8(ascii: "\n"))
    return String(decoding: text, as: UTF8.self)
  }
}
