/// The answers of a source that answers pairs (Frankfurter, the calculator) or of a lock file's quotes, as
/// ``TableConverter`` reads them per record: for each key of the run, the quote's exact rate as two 64-bit
/// integers with their scales, and the quote's texts (rate, rate date, source) as bytes.
///
/// It is built once per run from the general rules' answers (``QuoteBook``'s general answers, after the currency
/// lifecycle has routed each key): the fast path caches them, it never decides a rate. A key whose answer is an
/// error, or whose rate does not fit 64-bit integers, has no entry: its records take the general path, which
/// writes the same bytes.
struct AnsweredQuotes: Sendable {
  /// One answered key.
  struct Entry: Sendable {
    /// The rate as `numerator·10^(−numeratorScale) ÷ (denominator·10^(−denominatorScale))`.
    let numerator: UInt64
    let denominator: UInt64
    let numeratorScale: UInt8
    let denominatorScale: UInt8
    /// The quote currency's ISO 4217 minor units.
    let minorUnits: UInt8
    let isFallback: Bool
    /// The quote currency's letters, packed (``CurrencyCode/packed``).
    let quoteLetters: UInt32
    /// The quote's rate text, rate day text (empty: none) and source text in ``texts``.
    let rateText: TextRange
    let dayText: TextRange
    let sourceText: TextRange
  }

  /// Where a text is in ``texts``.
  struct TextRange: Sendable {
    let start: Int32
    let count: Int32
  }

  /// The run's keys (the ``QuoteBook``'s).
  let keys: RateKeyIndex
  /// Per key index, its entry in ``entries``; −1: the general rules write the record.
  private(set) var entryOfKey: [Int32]
  private(set) var entries: [Entry] = []
  /// The texts back to back, then ``ByteCursor/wordCopyLimit`` zero bytes (for word copies of the last one).
  private(set) var texts: [UInt8] = []
  /// Which bytes occur in any text (``textsAreSafe(where:)``).
  private var bytesSeen = [Bool](repeating: false, count: 256)

  /// The largest rate significand kept (as ``TableConverter`` keeps a table's cells).
  private static let largestSignificand = Int128(UInt64.max >> 8)

  /// - Parameters:
  ///   - keys: the run's keys.
  ///   - answer: the general rules' answer to the key at an index.
  init(keys: RateKeyIndex, answer: (Int) -> Result<RateQuote, RowError>) {
    self.keys = keys
    entryOfKey = Array(repeating: -1, count: keys.count)
    var dayTexts: [Int: TextRange] = [:]
    var periodTexts: [String: TextRange] = [:]
    for index in 0..<keys.count {
      guard case .success(let quote) = answer(index) else { continue }
      let key = keys.key(at: index)
      let rate = quote.rate
      guard rate.numerator.significand > 0, rate.numerator.significand <= Self.largestSignificand,
        rate.denominator.significand > 0, rate.denominator.significand <= Self.largestSignificand,
        rate.numerator.scale <= ExactDecimal.maximumDigits, rate.denominator.scale <= ExactDecimal.maximumDigits,
        let minorUnits = UInt8(exactly: ISO4217.currency(for: key.pair.quote)?.minorUnits ?? 2)
      else { continue }
      // Offsets are 32-bit: a run whose texts would not fit (gigabytes of source names) converts the rest on
      // the general path.
      guard texts.count + quote.rateText.utf8.count + quote.source.utf8.count + 16 < Int(Int32.max) else { continue }
      let rateText = add(quote.rateText)
      let sourceText = add(quote.source)
      let day: TextRange
      if let period = quote.period {
        if let known = periodTexts[period] {
          day = known
        } else {
          day = add(period)
          periodTexts[period] = day
        }
      } else if let rateDay = quote.rateDay {
        if let known = dayTexts[rateDay.daysSinceEpoch] {
          day = known
        } else {
          day = add(rateDay.description)
          dayTexts[rateDay.daysSinceEpoch] = day
        }
      } else {
        day = TextRange(start: 0, count: 0)
      }
      entries.append(
        Entry(
          numerator: UInt64(rate.numerator.significand), denominator: UInt64(rate.denominator.significand),
          numeratorScale: UInt8(rate.numerator.scale), denominatorScale: UInt8(rate.denominator.scale),
          minorUnits: minorUnits, isFallback: quote.isFallback, quoteLetters: key.pair.quote.packed,
          rateText: rateText, dayText: day, sourceText: sourceText))
      entryOfKey[index] = Int32(entries.count - 1)
    }
    texts.append(contentsOf: repeatElement(0, count: ByteCursor.wordCopyLimit))
  }

  /// Appends a text to ``texts``.
  private mutating func add(_ text: String) -> TextRange {
    let start = texts.count
    for byte in text.utf8 {
      texts.append(byte)
      bytesSeen[Int(byte)] = true
    }
    return TextRange(start: Int32(start), count: Int32(texts.count - start))
  }

  /// The entry of a key, if it has one.
  @inline(__always)
  func entry(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) -> Int? {
    guard let packed = RateKeyIndex.pack(base: base, quote: quote, day: day), let index = keys.index(of: packed) else {
      return nil
    }
    let entry = Int(entryOfKey[index])
    return entry >= 0 ? entry : nil
  }

  /// Whether every byte of every text may be written as it is (`allowed`): else the format's general writer,
  /// which quotes or escapes, writes every record.
  func textsAreSafe(where allowed: (UInt8) -> Bool) -> Bool {
    bytesSeen.indices.allSatisfy { !bytesSeen[$0] || allowed(UInt8($0)) }
  }

  /// Gives this copy its own storage (before it runs on another thread; see ``TableConverter/makeUnique()``).
  mutating func makeUnique() {
    entryOfKey = entryOfKey.map { $0 }
    entries = entries.map { $0 }
    texts = texts.map { $0 }
  }
}
