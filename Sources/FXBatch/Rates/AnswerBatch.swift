/// One request's answers as a provider reads them, in the form an ``AnswerTable`` takes whole
/// (``AnswerTable/take(_:)``): each key's answer is a few integers — its packed key, the rate it takes, the rate
/// day — and each rate a row of integers with its texts (rate, `fx_source`) as ranges of the batch's own bytes, kept
/// once however many keys take it (a weekend's keys take Friday's rate). An answer of 6,000 keys then makes no
/// ``RateQuote`` nor `String` per key, and the table copies the batch's texts in one piece instead of finding each
/// text among its own.
///
/// The provider's rules still decide each answer; the batch only keeps what they said. An answer that does not fit
/// this form (an error, a rate wider than 64 bits, a text over 255 bytes) is kept as the value the rules gave
/// (``others``), and ``values`` gives every answer back as a value.
struct AnswerBatch: Sendable {
  /// A rate some keys take.
  struct Rate: Sendable, Equatable {
    /// The rate as `numerator·10^(−numeratorScale) ÷ (denominator·10^(−denominatorScale))`.
    var numerator: UInt64
    var denominator: UInt64
    var numeratorScale: UInt8
    var denominatorScale: UInt8
    /// `fx_rate`'s and `fx_source`'s texts in ``texts``.
    var rateText: AnswerTable.TextRange
    var sourceText: AnswerTable.TextRange
  }

  /// A key answered with one of the batch's rates.
  struct Answer: Sendable, Equatable {
    /// The key, as ``RateKeyIndex`` packs it.
    var packed: UInt64
    /// Its rate in ``rates``.
    var rate: Int32
    /// The rate's publication day, as days since 1970-01-01.
    var rateDay: Int32
    var isFallback: Bool
  }

  private(set) var rates: [Rate] = []
  private(set) var answers: [Answer] = []
  /// The rates' texts, back to back.
  private(set) var texts: [UInt8] = []
  /// Answers kept as the values the rules gave (errors, and answers that do not fit a ``Rate``).
  private(set) var others: [(key: RateKey, answer: Result<RateQuote, RowError>)] = []

  init() {}

  /// A batch of answers given as values.
  init(_ values: [RateKey: Result<RateQuote, RowError>]) {
    others = values.map { (key: $0.key, answer: $0.value) }
  }

  /// How many keys the batch answers.
  var count: Int { answers.count + others.count }

  /// Whether some key is answered with a rate (not an error).
  var answersAny: Bool {
    !answers.isEmpty || others.contains { (try? $0.answer.get()) != nil }
  }

  /// Adds a rate and its texts; `nil` when it does not fit a ``Rate`` (a significand over 64 bits, a text over 255
  /// bytes, a batch over 2 GB of text): the caller then adds its keys as values.
  ///
  /// - Parameters:
  ///   - rate: the exact rate.
  ///   - rateText: `fx_rate`'s text; when it is a run of the source text's bytes, it is kept there, not again.
  ///   - sourcePrefix: `fx_source`'s text up to the rate as written (`frankfurter-v2 EUR/USD=`).
  ///   - written: the rate as the source wrote it, the rest of `fx_source`.
  mutating func addRate(
    _ rate: ExchangeRate, rateText: some Collection<UInt8>, sourcePrefix: [UInt8], written: some Collection<UInt8>
  ) -> Int32? {
    let sourceCount = sourcePrefix.count + written.count
    guard let fields = AnswerTable.Record.rateFields(rate), rateText.count <= 255,
      texts.count + sourceCount + rateText.count < Int(UInt32.max) / 2, rates.count < Int(Int32.max)
    else { return nil }
    let sourceStart = texts.count
    texts.append(contentsOf: sourcePrefix)
    texts.append(contentsOf: written)
    // The rate's text is most often the rate as written (`…EUR/USD=1.0856`), or begins it (`1.23` of `1.2300`):
    // found there, it costs no bytes.
    let writtenStart = sourceStart + sourcePrefix.count
    var rateStart = texts.count
    if texts[writtenStart...].starts(with: rateText) {
      rateStart = writtenStart
    } else {
      texts.append(contentsOf: rateText)
    }
    rates.append(
      Rate(
        numerator: fields.numerator, denominator: fields.denominator, numeratorScale: fields.numeratorScale,
        denominatorScale: fields.denominatorScale,
        rateText: AnswerTable.TextRange(start: UInt32(rateStart), count: UInt32(rateText.count)),
        sourceText: AnswerTable.TextRange(start: UInt32(sourceStart), count: UInt32(sourceCount))))
    return Int32(rates.count - 1)
  }

  /// Adds a key answered with one of the batch's rates, published on `rateDay`; `false` when the key or the day
  /// cannot be packed (the caller then adds it as a value).
  mutating func add(_ key: RateKey, rate: Int32, rateDay: CalendarDay, isFallback: Bool) -> Bool {
    guard let packed = RateKeyIndex.pack(key), let day = Int32(exactly: rateDay.daysSinceEpoch) else { return false }
    answers.append(Answer(packed: packed, rate: rate, rateDay: day, isFallback: isFallback))
    return true
  }

  /// Adds a key's answer as a value.
  mutating func add(_ key: RateKey, _ answer: Result<RateQuote, RowError>) {
    others.append((key: key, answer: answer))
  }

  /// A text of the batch as a string.
  func string(_ range: AnswerTable.TextRange) -> String {
    String(decoding: texts[Int(range.start)..<Int(range.start + range.count)], as: UTF8.self)
  }

  /// The answer of a key answered with a rate, as a value (the ``RateQuote`` ``AnswerTable/take(_:)`` keeps).
  func quote(of answer: Answer) -> RateQuote {
    let rate = rates[Int(answer.rate)]
    return RateQuote(
      rate: ExchangeRate(
        numerator: ExactDecimal(significand: Int128(rate.numerator), scale: Int(rate.numeratorScale)),
        denominator: ExactDecimal(significand: Int128(rate.denominator), scale: Int(rate.denominatorScale))),
      rateText: string(rate.rateText), rateDay: CalendarDay(daysSinceEpoch: Int(answer.rateDay)),
      isFallback: answer.isFallback, source: string(rate.sourceText))
  }

  /// Every key's answer as a value.
  var values: [RateKey: Result<RateQuote, RowError>] {
    var values: [RateKey: Result<RateQuote, RowError>] = [:]
    values.reserveCapacity(count)
    for answer in answers { values[RateKeyIndex.unpack(answer.packed)] = .success(quote(of: answer)) }
    for (key, answer) in others { values[key] = answer }
    return values
  }
}
