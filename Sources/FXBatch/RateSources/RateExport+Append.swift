import Foundation

/// `rates export --append`: the prices of an export that an existing file of the same format does not hold yet.
///
/// A price is its day, pair (base → quote, as written) and rate. A row whose day and pair the file has at the
/// same rate (compared as numbers: `1.0826` is `1.08260`) is already there; at another rate it is an error,
/// never a second price of the day (ledger tools would pick one of two without a word). The file's price lines
/// are read in the export's format: Ledger `P` directives (`P 2024-02-29 EUR 1.0826 USD`, a `/` date and a time
/// too), Beancount `price` entries, or the rows of a CSV or JSON Lines export; other lines (transactions,
/// comments, options) are left alone, and a file in the other ledger format is refused.
extension RateExport {
  /// What `--append` writes after a file's bytes.
  public struct Appendix: Sendable {
    /// The file's bytes as read (empty for a file that does not exist yet).
    public let existing: [UInt8]
    /// The text to append: empty when the file holds every price already.
    public let text: String
    /// Prices written, and prices the file holds already.
    public let added: Int
    public let present: Int
  }

  /// The text that brings an existing file up to this export.
  ///
  /// - Parameters:
  ///   - path: the file (none yet, empty or blank: the whole export is its appendix).
  ///   - heading: the comment line that heads what a Beancount or Ledger file gets.
  ///   - commodities: whether the currencies of the new prices that the file does not declare are declared
  ///     (``commodityText(_:format:)``) before them.
  /// - Returns: the appendix; it starts with a line feed when the file does not end with one.
  /// - Throws: ``RatesFileError`` at the file's line: a price of a day and pair the export has at another rate,
  ///   a price line that cannot be read, a file of another format, or one that cannot be read at all.
  public func appendix(
    toFileAt path: String, format: Format, heading: String, commodities: Bool
  ) throws(RatesFileError) -> Appendix {
    var existing: [UInt8] = []
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      // Not a device or a pipe either: reading `/dev/stdout` or a FIFO would wait for input that never comes.
      let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
      guard !isDirectory.boolValue, type == .typeRegular else {
        throw RatesFileError(path: path, line: 1, column: 1, message: "is not a regular file to append to")
      }
      do { existing = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) } catch {
        throw RatesFileError(path: path, line: 1, column: 1, message: "cannot read the file: \(error.localizedDescription)")
      }
    }
    let text = String(decoding: existing, as: UTF8.self)
    if text.allSatisfy(\.isWhitespace) {
      return Appendix(
        existing: existing, text: self.text(format, heading: heading, commodities: commodities), added: rows.count,
        present: 0)
    }
    let held = try ExistingPrices(text, path: path, format: format)
    var new: [Row] = []
    var conflicts: [(row: Row, held: ExistingPrices.Price)] = []
    for row in rows {
      guard let price = held.prices[PriceKey(date: row.date, base: row.base, quote: row.quote)] else {
        new.append(row)
        continue
      }
      let same =
        ExactDecimal(row.rateText).map { $0.normalized == price.rate?.normalized } ?? (row.rateText == price.rateText)
      if !same { conflicts.append((row, price)) }
    }
    if let (row, price) = conflicts.first {
      let more = conflicts.count > 1 ? " (and \(conflicts.count - 1) more)" : ""
      throw RatesFileError(
        path: path, line: price.line, column: 1,
        message:
          "the file's \(row.date) \(row.base)/\(row.quote) price is \(price.rateText); the export's is \(row.rateText)\(more): --append adds prices, it never writes a second one of a day and pair"
      )
    }
    guard !new.isEmpty else { return Appendix(existing: existing, text: "", added: 0, present: rows.count) }
    var appended = text.hasSuffix("\n") || text.hasSuffix("\r\n") ? "" : "\n"
    if format == .beancount || format == .ledger {
      appended += Self.comment(heading)
      if commodities {
        appended += Self.commodityText(Self.firstUses(new).filter { !held.commodities.contains($0.key) }, format: format)
      }
    }
    appended += Self.priceText(new, format: format)
    return Appendix(existing: existing, text: appended, added: new.count, present: rows.count - new.count)
  }

  /// A price's day and pair.
  struct PriceKey: Hashable {
    let date: CalendarDay
    let base: CurrencyCode
    let quote: CurrencyCode
  }

  /// The prices and commodity declarations of an existing file, read in one export format.
  struct ExistingPrices {
    struct Price {
      /// `nil` for a rate that is not plain decimal text (compared as text then).
      let rate: ExactDecimal?
      let rateText: String
      let line: Int
    }

    /// The first price of each day and pair.
    private(set) var prices: [PriceKey: Price] = [:]
    private(set) var commodities: Set<CurrencyCode> = []

    init(_ text: String, path: String, format: Format) throws(RatesFileError) {
      func fail(_ number: Int, _ message: String) -> RatesFileError {
        RatesFileError(path: path, line: number, column: 1, message: message)
      }
      if format == .csv {
        try readCSV(path: path, fail: fail)
        return
      }
      // `\r\n` is one Character: split at it too, or a CRLF file is one line whose prices go unread (and a
      // second price of a day would be appended).
      var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
      if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0] = lines[0].dropFirst() }
      for (index, line) in lines.enumerated() {
        let number = index + 1
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        switch format {
        case .ledger:
          if line.hasPrefix("P ") || line.hasPrefix("P\t") {
            try add(ledgerPrice: words, line: number, fail: fail)
          } else if line.hasPrefix("commodity ") || line.hasPrefix("commodity\t") {
            declare(words.dropFirst())
          } else if words.count > 1, CalendarDay(iso8601: words[0]) != nil, ["price", "commodity"].contains(words[1]) {
            throw fail(number, "a Beancount \(words[1]) entry in a Ledger file; --format beancount appends to it")
          }
        case .beancount:
          guard !line.hasPrefix("P ") else {
            throw fail(number, "a Ledger P directive in a Beancount file; --format ledger appends to it")
          }
          let entry = words.prefix { !$0.hasPrefix(";") }
          guard entry.count > 1, let day = CalendarDay(iso8601: entry[0].replacingOccurrences(of: "/", with: "-")) else {
            continue
          }
          if entry[1] == "commodity" {
            declare(entry.dropFirst(2).prefix(1))
          } else if entry[1] == "price" {
            guard entry.count == 5 else { throw fail(number, "a price entry fxbatch cannot read: \(line)") }
            // Beancount numbers may group thousands with commas.
            let rate = entry[3].replacingOccurrences(of: ",", with: "")
            try add(day: day, base: entry[2], rateText: rate, quote: entry[4], line: number, fail: fail)
          }
        case .csv:
          break
        case .jsonl:
          guard !line.allSatisfy(\.isWhitespace) else { continue }
          let value: JSONValue
          do { value = try JSONParser.parse(Array(line.utf8)) } catch {
            throw fail(number, "not a JSON Lines rates export: \(error)")
          }
          guard let date = value["date"]?.stringValue, let day = CalendarDay(iso8601: date),
            let base = value["base"]?.stringValue, let quote = value["quote"]?.stringValue,
            let rate = value["rate"]?.numberText
          else { throw fail(number, "a line without a date, base, quote and rate: \(line)") }
          try add(day: day, base: base, rateText: rate, quote: quote, line: number, fail: fail)
        }
      }
    }

    /// The rows of a CSV export (`date,base,quote,rate,…`), read by the CSV reader.
    private mutating func readCSV(path: String, fail: (Int, String) -> RatesFileError) throws(RatesFileError) {
      var line = 1
      do {
        let reader = try CSVReader(path: path, delimiter: UInt8(ascii: ","))
        var header = true
        while let record = try reader.next() {
          line = record.line
          if record.isBlank { continue }
          let fields = (0..<record.fieldCount).map(record.field)
          if header {
            guard fields.prefix(4).map({ $0.lowercased() }) == ["date", "base", "quote", "rate"] else {
              throw fail(line, "not a rates export CSV: its header is not date,base,quote,rate,…")
            }
            header = false
            continue
          }
          guard fields.count >= 4, let day = CalendarDay(iso8601: fields[0]) else {
            throw fail(line, "a row without a YYYY-MM-DD date, base, quote and rate: \(fields.joined(separator: ","))")
          }
          try add(day: day, base: fields[1], rateText: fields[3], quote: fields[2], line: line, fail: fail)
        }
      } catch let error as RatesFileError {
        throw error
      } catch {
        throw fail(line, "\(error)")
      }
    }

    /// `P DATE [TIME] BASE RATE QUOTE` (or `BASE QUOTE RATE`, the amount's code first); a line of other
    /// commodities (a stock, `$`) cannot be a price of the export and is left alone.
    private mutating func add(
      ledgerPrice words: [String], line: Int, fail: (Int, String) -> RatesFileError
    ) throws(RatesFileError) {
      let entry = words.prefix { !$0.hasPrefix(";") }
      let date = entry.count > 1 ? entry[1].replacingOccurrences(of: "/", with: "-") : ""
      guard let day = CalendarDay(iso8601: date) else {
        throw fail(line, "a P directive without a YYYY-MM-DD date fxbatch can read: \(words.joined(separator: " "))")
      }
      var rest = Array(entry.dropFirst(2))
      if rest.first?.contains(":") == true { rest.removeFirst() }
      guard rest.count == 3, Self.code(rest[0]) != nil else { return }
      if Self.code(rest[2]) != nil {
        try add(day: day, base: rest[0], rateText: rest[1], quote: rest[2], line: line, fail: fail)
      } else if Self.code(rest[1]) != nil {
        try add(day: day, base: rest[0], rateText: rest[2], quote: rest[1], line: line, fail: fail)
      }
    }

    private mutating func add(
      day: CalendarDay, base: String, rateText: String, quote: String, line: Int,
      fail: (Int, String) -> RatesFileError
    ) throws(RatesFileError) {
      guard let baseCode = Self.code(base), let quoteCode = Self.code(quote) else {
        throw fail(line, "a price of \(base) in \(quote), not two ISO 4217 codes")
      }
      let key = PriceKey(date: day, base: baseCode, quote: quoteCode)
      if prices[key] == nil { prices[key] = Price(rate: ExactDecimal(rateText), rateText: rateText, line: line) }
    }

    /// The ISO code a ledger commodity names, written as the export writes it (upper case).
    private static func code(_ word: String) -> CurrencyCode? {
      CurrencyCode(word).flatMap { $0.description == word ? $0 : nil }
    }

    /// `commodity USD`, hledger's `commodity 1,000.00 USD`, Beancount's `commodity USD`: the first code named.
    private mutating func declare(_ words: some Sequence<String>) {
      if let code = words.lazy.compactMap(Self.code).first { commodities.insert(code) }
    }
  }
}
