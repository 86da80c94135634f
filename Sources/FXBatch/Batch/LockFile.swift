/// A lock file (`--lock FILE`): every rate a run used — (base, quote, day) → exact rate, rate day and
/// source — so that a later run with `--frozen` takes its rates only from it and reproduces the conversion
/// byte for byte.
///
/// CSV (RFC 4180) with the header `base,quote,date,numerator,denominator,rate,rate_date,fallback,source`: the
/// exact rate is `numerator ÷ denominator` (quote units per base unit), `rate` is its display text.
public enum LockFile {
  static let header = ["base", "quote", "date", "numerator", "denominator", "rate", "rate_date", "fallback", "source"]

  /// Writes the successful answers of a run, sorted, atomically.
  ///
  /// - Throws: ``OutputError`` when the file cannot be written.
  public static func write(_ quotes: [RateKey: Result<RateQuote, RowError>], to path: String) throws(OutputError) {
    let file = try AtomicFile(path: path)
    var lines = [header.joined(separator: ",")]
    let found = quotes.compactMap { key, result in (try? result.get()).map { (key, $0) } }
    for (key, quote) in found.sorted(by: {
      ($0.0.day, $0.0.pair.base, $0.0.pair.quote) < ($1.0.day, $1.0.pair.base, $1.0.pair.quote)
    }) {
      let fields = [
        key.pair.base.description, key.pair.quote.description, key.day.description, quote.rate.numerator.description,
        quote.rate.denominator.description, quote.rateText, quote.rateDay?.description ?? "", quote.isFallback ? "1" : "0",
        quote.source,
      ]
      lines.append(fields.map(csvField).joined(separator: ","))
    }
    try file.sink.write(lines.joined(separator: "\n") + "\n")
    try file.commit()
  }

  private static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Reads a lock file.
  ///
  /// - Returns: the quotes by key.
  /// - Throws: ``RatesFileError`` with the line of a bad record.
  public static func load(path: String) throws(RatesFileError) -> [RateKey: RateQuote] {
    func fail(_ line: Int, _ message: String) -> RatesFileError {
      RatesFileError(path: path, line: line, column: 1, message: message)
    }
    var quotes: [RateKey: RateQuote] = [:]
    do {
      let reader = try CSVReader(path: path, delimiter: UInt8(ascii: ","))
      var sawHeader = false
      while let record = try reader.next() {
        if record.isBlank { continue }
        let fields = (0..<record.fieldCount).map(record.field)
        if !sawHeader {
          guard fields == header else {
            throw fail(record.line, "not an fxbatch lock file (expected the header \(header.joined(separator: ",")))")
          }
          sawHeader = true
          continue
        }
        guard fields.count == header.count, let base = CurrencyCode(fields[0]), let quote = CurrencyCode(fields[1]),
          let day = CalendarDay(iso8601: fields[2]), let numerator = ExactDecimal(fields[3]), numerator.significand > 0,
          let denominator = ExactDecimal(fields[4]), denominator.significand > 0, ["0", "1"].contains(fields[7])
        else { throw fail(record.line, "malformed lock record") }
        let rateDay: CalendarDay?
        if fields[6].isEmpty {
          rateDay = nil
        } else {
          guard let parsed = CalendarDay(iso8601: fields[6]) else { throw fail(record.line, "malformed rate_date") }
          rateDay = parsed
        }
        quotes[RateKey(base: base, quote: quote, day: day)] = RateQuote(
          rate: ExchangeRate(numerator: numerator, denominator: denominator), rateText: fields[5], rateDay: rateDay,
          isFallback: fields[7] == "1", source: fields[8])
      }
      guard sawHeader else { throw fail(1, "the lock file is empty") }
    } catch let error as RatesFileError {
      throw error
    } catch let error as CSVError {
      throw RatesFileError(path: path, line: error.line, column: error.column, message: error.description)
    } catch {
      throw fail(1, "\(error)")
    }
    return quotes
  }
}
