import Foundation

/// A lock file (`--lock FILE`): every rate a run used — (base, quote, day) → exact rate, rate day and source —
/// and the day it used for records without a date, so that a later run with `--frozen` takes its rates only
/// from it and reproduces the conversion byte for byte, on any day.
///
/// JSON: `{"format": "fxbatch-lock/1", "defaultDay": "YYYY-MM-DD", "rates": [{"base", "quote", "date",
/// "numerator", "denominator", "rate", "rateDate", "fallback", "source"}]}`; the exact rate is
/// `numerator ÷ denominator` (quote units per base unit, decimal text), `rate` its display text.
public enum LockFile {
  static let format = "fxbatch-lock/1"

  struct Document: Codable {
    var format: String
    var defaultDay: String
    var rates: [Entry]
  }

  struct Entry: Codable {
    var base: String
    var quote: String
    var date: String
    var numerator: String
    var denominator: String
    var rate: String
    var rateDate: String?
    var fallback: Bool
    var source: String
  }

  /// Writes the successful answers of a run, sorted, atomically.
  ///
  /// - Parameters:
  ///   - quotes: the run's answers; failures are left out.
  ///   - defaultDay: the day records without a date used.
  ///   - path: where to write.
  /// - Throws: ``OutputError`` when the file cannot be written.
  public static func write(_ quotes: [RateKey: Result<RateQuote, RowError>], defaultDay: CalendarDay, to path: String)
    throws(OutputError)
  {
    let found = quotes.compactMap { key, result in (try? result.get()).map { (key, $0) } }
      .sorted { ($0.0.day, $0.0.pair.base, $0.0.pair.quote) < ($1.0.day, $1.0.pair.base, $1.0.pair.quote) }
    let document = Document(
      format: format, defaultDay: defaultDay.description,
      rates: found.map { key, quote in
        Entry(
          base: key.pair.base.description, quote: key.pair.quote.description, date: key.day.description,
          numerator: quote.rate.numerator.description, denominator: quote.rate.denominator.description, rate: quote.rateText,
          rateDate: quote.rateDay?.description, fallback: quote.isFallback, source: quote.source)
      })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(document) else { throw .writeFailed(reason: "cannot encode the lock file") }
    let file = try AtomicFile(path: path)
    try file.sink.write(data)
    try file.sink.write("\n")
    try file.commit()
  }

  /// Reads a lock file.
  ///
  /// - Returns: the quotes by key and the day for records without a date.
  /// - Throws: ``RatesFileError`` naming the first bad entry.
  public static func load(path: String) throws(RatesFileError) -> (quotes: [RateKey: RateQuote], defaultDay: CalendarDay) {
    func fail(_ message: String) -> RatesFileError { RatesFileError(path: path, line: 1, column: 1, message: message) }
    guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read the lock file") }
    guard let document = try? JSONDecoder().decode(Document.self, from: data), document.format == format else {
      throw fail("not an fxbatch lock file (\(format))")
    }
    guard let defaultDay = CalendarDay(iso8601: document.defaultDay) else { throw fail("malformed defaultDay") }
    var quotes: [RateKey: RateQuote] = [:]
    for (index, entry) in document.rates.enumerated() {
      guard let base = CurrencyCode(entry.base), let quote = CurrencyCode(entry.quote),
        let day = CalendarDay(iso8601: entry.date),
        let numerator = ExactDecimal(entry.numerator), numerator.significand > 0,
        let denominator = ExactDecimal(entry.denominator), denominator.significand > 0
      else { throw fail("malformed rate entry \(index + 1)") }
      var rateDay: CalendarDay? = nil
      if let text = entry.rateDate {
        guard let parsed = CalendarDay(iso8601: text) else { throw fail("malformed rateDate in entry \(index + 1)") }
        rateDay = parsed
      }
      quotes[RateKey(base: base, quote: quote, day: day)] = RateQuote(
        rate: ExchangeRate(numerator: numerator, denominator: denominator), rateText: entry.rate, rateDay: rateDay,
        isFallback: entry.fallback, source: entry.source)
    }
    return (quotes, defaultDay)
  }
}
