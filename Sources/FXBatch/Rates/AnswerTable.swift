/// The answers to rate keys of a source that answers keys one by one (Frankfurter, the calculator, a lock file's
/// quotes, a chain), kept as integers in flat arrays: a key packed into one word (``RateKeyIndex``), its answer a
/// fixed-size ``Record`` — the rate as two 64-bit significands with their scales, the rate day, the status — and
/// its texts (rate, rate date or period, `fx_source`, an error's message) as ranges into one byte store that keeps
/// each distinct text once. A million records with 300,000 distinct keys need about 60 bytes per key, not a
/// ``RateQuote`` with its strings in several dictionaries.
///
/// The general rules still decide every answer: a table only keeps what they said, and ``answer(at:)`` gives it
/// back as the very ``RateQuote`` (or ``RowError``) that was stored. Record `i` answers key `i` of ``keys``; a key
/// set twice keeps its last answer.
struct AnswerTable: Sendable {
  /// Where a text is in ``texts``.
  struct TextRange: Sendable, Equatable {
    var start: UInt32
    var count: UInt32
  }

  /// What a record holds besides its figures.
  struct Flags: OptionSet, Sendable {
    let rawValue: UInt8
    /// An error: ``Record/code`` and the message in ``Record/sourceText``.
    static let failure = Flags(rawValue: 1)
    static let fallback = Flags(rawValue: 2)
    /// The rate does not fit two 64-bit significands: ``Record/numerator`` indexes ``exactRates``.
    static let exactRate = Flags(rawValue: 4)
    static let hasRateDay = Flags(rawValue: 8)
    /// ``Record/dayText`` is a period (`2024-03`), not the rate day's text.
    static let hasPeriod = Flags(rawValue: 16)
    /// Not the source's own answer: the currency lifecycle's (a fixed conversion, a withdrawn currency), or a key
    /// no answer mentioned. A lock file keeps only the source's answers.
    static let derived = Flags(rawValue: 32)
    /// A text too long for a record's short ranges: ``Record/numerator`` indexes ``spilled``.
    static let spilled = Flags(rawValue: 64)
    /// A key of a table made for a run's keys (``init(answering:)``) not answered yet: ``record(for:)`` is `nil`.
    static let unanswered = Flags(rawValue: 128)
  }

  /// One key's answer (40 bytes): the rate's two 64-bit significands, where its texts start, and one word of the
  /// narrow fields. A value that does not fit its field (``largestSourceCount``, ``rateDays``, ``largestScale``) is
  /// kept beside the records (``Flags/spilled``, ``Flags/exactRate``).
  struct Record: Sendable {
    /// The rate as `numerator·10^(−numeratorScale) ÷ (denominator·10^(−denominatorScale))`; with
    /// ``Flags/exactRate`` or ``Flags/spilled``, an index into ``exactRates`` or ``spilled``.
    var numerator: UInt64
    /// With ``Flags/failure``: the error's code (``code``).
    var denominator: UInt64
    /// `fx_source`'s text, or an error's message.
    var sourceStart: UInt32
    var rateStart: UInt32
    var dayStart: UInt32
    /// The rate day (days since 1970-01-01, with ``Flags/hasRateDay``) in the high 24 bits, signed, and
    /// `fx_rate_date`'s byte count in the low 8.
    private var dayWord: UInt32
    /// From the low bits: the quote currency's letters (15 bits, 5 a letter), `fx_rate`'s byte count (8), the
    /// numerator's and the denominator's scales (6 each), the minor units (4), the flags (8), `fx_source`'s byte
    /// count (17).
    private var word: UInt64

    /// The longest `fx_source` text or error message a record holds.
    static let largestSourceCount = (1 << 17) - 1
    /// The rate days a record holds (about 22,900 years either side of 1970).
    static let rateDays = -(1 << 23)..<(1 << 23)
    /// The largest scale of a significand a record holds.
    static let largestScale = 63
    /// The largest number of minor units a record holds.
    static let largestMinorUnits: UInt8 = 15

    /// A record of these fields; each must fit (the callers check: ``largestSourceCount``, ``rateDays``,
    /// ``largestScale``, ``largestMinorUnits``).
    init(
      numerator: UInt64, denominator: UInt64, sourceStart: UInt32, sourceCount: UInt32, rateStart: UInt32,
      dayStart: UInt32, rateDay: Int32, quoteLetters: UInt32, rateCount: UInt8, dayCount: UInt8,
      numeratorScale: UInt8, denominatorScale: UInt8, minorUnits: UInt8, flags: Flags, code: UInt8
    ) {
      assert(Int(sourceCount) <= Self.largestSourceCount && Self.rateDays.contains(Int(rateDay)))
      assert(Int(numeratorScale) <= Self.largestScale && Int(denominatorScale) <= Self.largestScale)
      assert(minorUnits <= Self.largestMinorUnits)
      self.numerator = numerator
      self.denominator = flags.contains(.failure) ? UInt64(code) : denominator
      self.sourceStart = sourceStart
      self.rateStart = rateStart
      self.dayStart = dayStart
      dayWord = UInt32(bitPattern: rateDay) << 8 | UInt32(dayCount)
      let letters =
        UInt64((quoteLetters >> 16 &- 65) & 31) << 10 | UInt64((quoteLetters >> 8 &- 65) & 31) << 5
        | UInt64((quoteLetters &- 65) & 31)
      word =
        letters | UInt64(rateCount) << 15 | UInt64(numeratorScale & 63) << 23 | UInt64(denominatorScale & 63) << 29
        | UInt64(minorUnits & 15) << 35 | UInt64(flags.rawValue) << 39 | UInt64(sourceCount & 0x1FFFF) << 47
    }

    /// Days since 1970-01-01 (with ``Flags/hasRateDay``).
    var rateDay: Int32 { Int32(bitPattern: dayWord) >> 8 }
    var dayCount: UInt8 { UInt8(truncatingIfNeeded: dayWord) }
    /// The quote currency's letters, packed (``CurrencyCode/packed``).
    var quoteLetters: UInt32 {
      let letters = UInt32(truncatingIfNeeded: word) & 0x7FFF
      return (letters >> 10 + 65) << 16 | (letters >> 5 & 31 + 65) << 8 | (letters & 31 + 65)
    }
    var rateCount: UInt8 { UInt8(truncatingIfNeeded: word >> 15) }
    var numeratorScale: UInt8 {
      get { UInt8(truncatingIfNeeded: word >> 23) & 63 }
      set { word = word & ~(63 << 23) | UInt64(newValue & 63) << 23 }
    }
    var denominatorScale: UInt8 {
      get { UInt8(truncatingIfNeeded: word >> 29) & 63 }
      set { word = word & ~(63 << 29) | UInt64(newValue & 63) << 29 }
    }
    /// The quote currency's ISO 4217 minor units.
    var minorUnits: UInt8 { UInt8(truncatingIfNeeded: word >> 35) & 15 }
    var flags: Flags {
      get { Flags(rawValue: UInt8(truncatingIfNeeded: word >> 39)) }
      set { word = word & ~(0xFF << 39) | UInt64(newValue.rawValue) << 39 }
    }
    var sourceCount: UInt32 { UInt32(truncatingIfNeeded: word >> 47) }
    /// An error's code, as its index in ``RowError/Code/allCases`` (with ``Flags/failure``).
    var code: UInt8 { UInt8(truncatingIfNeeded: denominator) }

    var isFallback: Bool { flags.contains(.fallback) }
    var isFailure: Bool { flags.contains(.failure) }
    /// `fx_rate`'s text.
    var rateText: TextRange { TextRange(start: rateStart, count: UInt32(rateCount)) }
    /// `fx_rate_date`'s text: the period, else the rate day (empty for none).
    var dayText: TextRange { TextRange(start: dayStart, count: UInt32(dayCount)) }
    var sourceText: TextRange { TextRange(start: sourceStart, count: sourceCount) }

    /// The figures of a rate as a record keeps them, or `nil` when a significand does not fit 64 bits (or is not
    /// positive): then the rate is kept beside the records.
    static func rateFields(_ rate: ExchangeRate) -> (
      numerator: UInt64, denominator: UInt64, numeratorScale: UInt8, denominatorScale: UInt8
    )? {
      let numerator = rate.numerator
      let denominator = rate.denominator
      guard numerator.significand > 0, numerator.significand <= Int128(UInt64.max), denominator.significand > 0,
        denominator.significand <= Int128(UInt64.max), (0...largestScale).contains(numerator.scale),
        (0...largestScale).contains(denominator.scale)
      else { return nil }
      return (
        UInt64(numerator.significand), UInt64(denominator.significand), UInt8(numerator.scale), UInt8(denominator.scale)
      )
    }

    /// The record of a key not answered yet (``init(answering:)``).
    static let unanswered = Record(
      numerator: 0, denominator: 0, sourceStart: 0, sourceCount: 0, rateStart: 0, dayStart: 0, rateDay: 0,
      quoteLetters: 0, rateCount: 0, dayCount: 0, numeratorScale: 0, denominatorScale: 0, minorUnits: 0,
      flags: .unanswered, code: 0)
  }

  /// The keys, packed; key `i` is answered by record `i`.
  private(set) var keys = RateKeyIndex()
  private(set) var records: [Record] = []
  /// The texts back to back, each distinct text once, then ``padding`` zero bytes (for word copies of the last).
  private(set) var texts = [UInt8](repeating: 0, count: AnswerTable.padding)
  /// Rates that do not fit a record.
  private var exactRates: [ExchangeRate] = []
  /// Answers whose texts do not fit a record's ranges (a rate text over 255 bytes, a store over 4 GB).
  private var spilled: [Result<RateQuote, RowError>] = []
  private var interned = TextInterner()
  /// Per rate day, its text's range.
  private var dayTexts: [Int32: TextRange] = [:]
  /// Which bytes occur in the texts of answers (not of errors): ``textsAreSafe(where:)``.
  private var bytesSeen = [Bool](repeating: false, count: 256)
  /// Per quote currency (its letters as ``RateKeyIndex`` packs them), its minor units; 255: not looked up.
  private var minorUnitsOf = [UInt8](repeating: 255, count: 1 << 15)
  /// The last rate day whose text was asked, and its text (a lock's lines come day by day).
  private var lastDay: (day: Int32, text: TextRange)? = nil

  /// The error codes, in the order ``Record/code`` numbers them.
  private static let codes = RowError.Code.allCases
  private static let codeIndex = Dictionary(
    uniqueKeysWithValues: RowError.Code.allCases.enumerated().map { ($1, UInt8($0)) })

  /// Readable bytes kept after the last text (``ByteCursor/wordCopyLimit``).
  static let padding = ByteCursor.wordCopyLimit

  init() {}

  /// A table for a run's keys, sharing their index (record `i` answers key `i` of `keys`), each key unanswered
  /// (``record(for:)`` is `nil`) until it is set: a million keys are then indexed once, not once for pass 1 and
  /// again for their answers. A key set that `keys` does not hold gives the table its own copy of the index.
  init(answering keys: RateKeyIndex) {
    self.keys = keys
    records = Array(repeating: .unanswered, count: keys.count)
  }

  /// A table of some answers.
  init(_ answers: [RateKey: Result<RateQuote, RowError>]) {
    reserveCapacity(answers.count)
    for (key, answer) in answers { set(key, answer) }
  }

  /// Room for `count` keys, so that a table of known size grows once.
  mutating func reserveCapacity(_ count: Int) { reserveCapacity(records: count, keys: count) }

  /// Room for `records` records (memory that stays untouched until used) and a key index for `keys` (made now).
  mutating func reserveCapacity(records recordCount: Int, keys count: Int) {
    keys.reserveCapacity(count)
    records.reserveCapacity(recordCount)
  }

  /// How many keys are answered.
  var count: Int { records.count }

  /// The key of a record.
  func key(at record: Int) -> RateKey { keys.key(at: record) }

  /// The record of a key, or `nil` when it has none.
  @inline(__always)
  func record(for key: RateKey) -> Int? {
    guard let packed = RateKeyIndex.pack(key) else { return nil }
    return record(packed: packed)
  }

  @inline(__always)
  func record(packed: UInt64) -> Int? {
    guard let index = keys.index(of: packed), !records[index].flags.contains(.unanswered) else { return nil }
    return index
  }

  /// The record of the key at a position of another index, or `nil` when it has none: found in place when the
  /// table's key there is that key (a table made for that index, ``init(answering:)``), else looked up.
  @inline(__always)
  func record(ofKeyAt position: Int, in other: RateKeyIndex) -> Int? {
    let packed = other.packedKeys[position]
    guard position < records.count, keys.packedKeys[position] == packed else { return record(packed: packed) }
    return records[position].flags.contains(.unanswered) ? nil : position
  }

  /// Whether every key of the table's index has its answer (none left unanswered by ``init(answering:)``).
  var answersEveryKey: Bool { !records.contains { $0.flags.contains(.unanswered) } }

  /// The answer of a key, or `nil` when it has none.
  func answer(for key: RateKey) -> Result<RateQuote, RowError>? {
    record(for: key).map(answer(at:))
  }

  /// Whether a record holds a rate (not an error).
  func isSuccess(at record: Int) -> Bool { !records[record].isFailure }

  /// The error code of a record that holds an error.
  func errorCode(at record: Int) -> RowError.Code? {
    let found = records[record]
    guard found.isFailure else { return nil }
    if found.flags.contains(.spilled), case .failure(let error) = spilled[Int(found.numerator)] { return error.code }
    return Self.codes[Int(found.code)]
  }

  /// The rate day of a record that holds a rate with one.
  func rateDay(at record: Int) -> CalendarDay? {
    let found = records[record]
    guard !found.isFailure else { return nil }
    if found.flags.contains(.spilled) { return try? spilled[Int(found.numerator)].get().rateDay }
    return found.flags.contains(.hasRateDay) ? CalendarDay(daysSinceEpoch: Int(found.rateDay)) : nil
  }

  /// Whether a record is the source's own answer (what a lock file keeps), not one the rules derived.
  func isSourceAnswer(at record: Int) -> Bool { !records[record].flags.contains(.derived) }

  /// The exact rate of a record that holds a rate (not a spilled one).
  func rate(of record: Record) -> ExchangeRate {
    if record.flags.contains(.exactRate) { return exactRates[Int(record.numerator)] }
    return ExchangeRate(
      numerator: ExactDecimal(significand: Int128(record.numerator), scale: Int(record.numeratorScale)),
      denominator: ExactDecimal(significand: Int128(record.denominator), scale: Int(record.denominatorScale)))
  }

  /// A text of the store as a string.
  func string(_ range: TextRange) -> String {
    String(decoding: texts[Int(range.start)..<Int(range.start + range.count)], as: UTF8.self)
  }

  /// The answer of a record, as it was set.
  func answer(at index: Int) -> Result<RateQuote, RowError> {
    let found = records[index]
    if found.flags.contains(.spilled) { return spilled[Int(found.numerator)] }
    if found.isFailure {
      return .failure(RowError(Self.codes[Int(found.code)], string(found.sourceText)))
    }
    let hasPeriod = found.flags.contains(.hasPeriod)
    return .success(
      RateQuote(
        rate: rate(of: found), rateText: string(found.rateText),
        rateDay: found.flags.contains(.hasRateDay) ? CalendarDay(daysSinceEpoch: Int(found.rateDay)) : nil,
        isFallback: found.isFallback, source: string(found.sourceText),
        period: hasPeriod ? string(found.dayText) : nil))
  }

  // MARK: Adding

  /// Makes the keys stored as new (``store(_:packed:isNew:)``) findable: before the table is asked for a key or
  /// given one that may be there.
  mutating func indexKeys() { keys.indexAppended() }

  /// Sets a key's answer (replacing an earlier one).
  ///
  /// - Parameter derived: whether the rules derived it rather than the source said it (``Flags/derived``).
  /// - Returns: the key's record.
  @discardableResult
  mutating func set(_ key: RateKey, _ answer: Result<RateQuote, RowError>, derived: Bool = false) -> Int? {
    guard let packed = RateKeyIndex.pack(key) else { return nil }
    let record = makeRecord(answer, quote: key.pair.quote, derived: derived)
    return store(record, packed: packed)
  }

  /// Stores a record as a packed key's answer.
  ///
  /// - Parameter isNew: whether the caller knows the key is not in the table yet: its record is appended and
  ///   the key found only once ``indexKeys()`` has run (a lock's lines in their written order).
  @discardableResult
  mutating func store(_ record: Record, packed: UInt64, isNew: Bool = false) -> Int {
    if isNew {
      records.append(record)
      return keys.append(new: packed)
    }
    let index = keys.insert(packed)
    if index == records.count {
      records.append(record)
    } else {
      records[index] = record
    }
    return index
  }

  /// Copies another table's record as a key's answer.
  @discardableResult
  mutating func copy(_ record: Int, of other: AnswerTable, as key: RateKey, derived: Bool = false) -> Int? {
    set(key, other.answer(at: record), derived: derived || other.records[record].flags.contains(.derived))
  }

  /// Stores a quote read from bytes (a lock file's line) as a packed key's answer, without forming a
  /// ``RateQuote``; `false` when its texts do not fit a record (then ``set(_:_:derived:)`` stores it).
  mutating func storeQuote(
    packed: UInt64, quote: CurrencyCode, rate: ExchangeRate, rateText: ArraySlice<UInt8>, rateDay: CalendarDay?,
    isFallback: Bool, period: ArraySlice<UInt8>?, source: ArraySlice<UInt8>, isNew: Bool = false
  ) -> Bool {
    var flags: Flags = isFallback ? [.fallback] : []
    var packedDay: Int32 = 0
    if let rateDay {
      guard Record.rateDays.contains(rateDay.daysSinceEpoch) else { return false }
      let day = Int32(rateDay.daysSinceEpoch)
      packedDay = day
      flags.insert(.hasRateDay)
    }
    let day: TextRange?
    if let period {
      flags.insert(.hasPeriod)
      day = intern(period, answer: true)
    } else if rateDay != nil {
      day = dayText(packedDay)
    } else {
      day = TextRange(start: 0, count: 0)
    }
    guard let day, day.count <= 255, rateText.count <= 255, source.count <= Record.largestSourceCount,
      let rateRange = intern(rateText, answer: true), let sourceRange = intern(source, answer: true)
    else { return false }
    var record = Record(
      numerator: 0, denominator: 0, sourceStart: sourceRange.start, sourceCount: sourceRange.count,
      rateStart: rateRange.start, dayStart: day.start, rateDay: packedDay, quoteLetters: quote.packed,
      rateCount: UInt8(rateRange.count), dayCount: UInt8(day.count), numeratorScale: 0, denominatorScale: 0,
      minorUnits: minorUnits(of: quote), flags: flags, code: 0)
    setRate(rate, of: &record)
    store(record, packed: packed, isNew: isNew)
    return true
  }

  /// Stores an error read from bytes as a packed key's answer; `false` when the store is full.
  mutating func storeError(
    packed: UInt64, quote: CurrencyCode, code: RowError.Code, message: ArraySlice<UInt8>, isNew: Bool = false
  ) -> Bool {
    guard message.count <= Record.largestSourceCount, let range = intern(message, answer: false) else { return false }
    store(
      Record(
        numerator: 0, denominator: 0, sourceStart: range.start, sourceCount: range.count, rateStart: 0, dayStart: 0,
        rateDay: 0, quoteLetters: quote.packed, rateCount: 0, dayCount: 0, numeratorScale: 0, denominatorScale: 0,
        minorUnits: minorUnits(of: quote), flags: .failure,
        code: Self.codeIndex[code] ?? 0),
      packed: packed, isNew: isNew)
    return true
  }

  /// Takes a request's answers (``AnswerBatch``): its texts copied in one piece after the store's (not looked up
  /// among them), each key's record pointing into them, the answers it keeps as values set one by one.
  mutating func take(_ batch: AnswerBatch) {
    let offset = texts.count - Self.padding
    guard offset + batch.texts.count + Self.padding < Int(UInt32.max) else {
      for (key, answer) in batch.values { set(key, answer) }
      return
    }
    texts.removeLast(Self.padding)
    texts.append(contentsOf: batch.texts)
    texts.append(contentsOf: repeatElement(0, count: Self.padding))
    var seen = [Bool](repeating: false, count: 256)
    for byte in batch.texts { seen[Int(byte)] = true }
    for byte in 0..<256 where seen[byte] { bytesSeen[byte] = true }
    let shift = UInt32(offset)
    for answer in batch.answers {
      let rate = batch.rates[Int(answer.rate)]
      let quote = RateKeyIndex.quote(ofPacked: answer.packed)
      guard Record.rateDays.contains(Int(answer.rateDay)), Int(rate.sourceText.count) <= Record.largestSourceCount,
        let day = dayText(answer.rateDay), day.count <= 255
      else {
        set(RateKeyIndex.unpack(answer.packed), .success(batch.quote(of: answer)))
        continue
      }
      let flags: Flags = answer.isFallback ? [.fallback, .hasRateDay] : [.hasRateDay]
      store(
        Record(
          numerator: rate.numerator, denominator: rate.denominator, sourceStart: rate.sourceText.start + shift,
          sourceCount: rate.sourceText.count, rateStart: rate.rateText.start + shift, dayStart: day.start,
          rateDay: answer.rateDay, quoteLetters: quote.packed, rateCount: UInt8(rate.rateText.count),
          dayCount: UInt8(day.count), numeratorScale: rate.numeratorScale, denominatorScale: rate.denominatorScale,
          minorUnits: minorUnits(of: quote), flags: flags, code: 0),
        packed: answer.packed)
    }
    for (key, answer) in batch.others { set(key, answer) }
  }

  /// Room for about `count` more bytes of text (memory that stays untouched until used), so that the store grows once.
  mutating func reserveTextCapacity(_ count: Int) { texts.reserveCapacity(texts.count + count) }

  private mutating func makeRecord(_ answer: Result<RateQuote, RowError>, quote: CurrencyCode, derived: Bool) -> Record {
    var flags: Flags = derived ? [.derived] : []
    switch answer {
    case .failure(let error):
      flags.insert(.failure)
      guard error.message.utf8.count <= Record.largestSourceCount, let message = intern(error.message.utf8, answer: false)
      else { return spill(answer, quote, flags) }
      return Record(
        numerator: 0, denominator: 0, sourceStart: message.start, sourceCount: message.count, rateStart: 0, dayStart: 0,
        rateDay: 0, quoteLetters: quote.packed, rateCount: 0, dayCount: 0, numeratorScale: 0, denominatorScale: 0,
        minorUnits: minorUnits(of: quote), flags: flags,
        code: Self.codeIndex[error.code] ?? 0)
    case .success(let found):
      if found.isFallback { flags.insert(.fallback) }
      var rateDay: Int32 = 0
      if let day = found.rateDay, Record.rateDays.contains(day.daysSinceEpoch) {
        rateDay = Int32(day.daysSinceEpoch)
        flags.insert(.hasRateDay)
      } else if found.rateDay != nil {
        return spill(answer, quote, flags)
      }
      let day: TextRange?
      if let period = found.period {
        flags.insert(.hasPeriod)
        day = intern(period.utf8, answer: true)
      } else if flags.contains(.hasRateDay) {
        day = dayText(rateDay)
      } else {
        day = TextRange(start: 0, count: 0)
      }
      guard let day, day.count <= 255, found.source.utf8.count <= Record.largestSourceCount,
        let rateText = intern(found.rateText.utf8, answer: true), rateText.count <= 255,
        let source = intern(found.source.utf8, answer: true)
      else { return spill(answer, quote, flags) }
      var record = Record(
        numerator: 0, denominator: 0, sourceStart: source.start, sourceCount: source.count, rateStart: rateText.start,
        dayStart: day.start, rateDay: rateDay, quoteLetters: quote.packed, rateCount: UInt8(rateText.count),
        dayCount: UInt8(day.count), numeratorScale: 0, denominatorScale: 0, minorUnits: minorUnits(of: quote),
        flags: flags, code: 0)
      setRate(found.rate, of: &record)
      return record
    }
  }

  /// Puts a rate into a record: as two 64-bit significands where they fit, else in ``exactRates``.
  mutating func setRate(_ rate: ExchangeRate, of record: inout Record) {
    if let fields = Record.rateFields(rate) {
      record.numerator = fields.numerator
      record.denominator = fields.denominator
      record.numeratorScale = fields.numeratorScale
      record.denominatorScale = fields.denominatorScale
    } else {
      record.flags.insert(.exactRate)
      record.numerator = UInt64(exactRates.count)
      exactRates.append(rate)
    }
  }

  private mutating func spill(_ answer: Result<RateQuote, RowError>, _ quote: CurrencyCode, _ flags: Flags) -> Record {
    spilled.append(answer)
    var flags = flags
    flags.insert(.spilled)
    return Record(
      numerator: UInt64(spilled.count - 1), denominator: 0, sourceStart: 0, sourceCount: 0, rateStart: 0, dayStart: 0,
      rateDay: 0, quoteLetters: quote.packed, rateCount: 0, dayCount: 0, numeratorScale: 0, denominatorScale: 0,
      minorUnits: minorUnits(of: quote), flags: flags, code: 0)
  }

  /// The ISO 4217 minor units of a quote currency (2 for one ISO 4217 does not list).
  mutating func minorUnits(of quote: CurrencyCode) -> UInt8 {
    let packed = quote.packed
    let first = Int(((packed >> 16) & 0xFF) &- 65) & 31
    let second = Int(((packed >> 8) & 0xFF) &- 65) & 31
    let third = Int((packed & 0xFF) &- 65) & 31
    let letters = (first << 10) | (second << 5) | third
    let known = minorUnitsOf[letters]
    if known != 255 { return known }
    let units = UInt8(clamping: min(ISO4217.currency(for: quote)?.minorUnits ?? 2, Int(Record.largestMinorUnits)))
    minorUnitsOf[letters] = units
    return units
  }

  /// The text of a rate day, kept once per day.
  mutating func dayText(_ day: Int32) -> TextRange? {
    if let lastDay, lastDay.day == day { return lastDay.text }
    if let known = dayTexts[day] {
      lastDay = (day, known)
      return known
    }
    let text = intern(CalendarDay(daysSinceEpoch: Int(day)).description.utf8, answer: true)
    if let text {
      dayTexts[day] = text
      lastDay = (day, text)
    }
    return text
  }

  /// The range of a text in the store, added once; `nil` when the store would pass 4 GB.
  ///
  /// - Parameter answer: whether an answer writes the text (``textsAreSafe(where:)`` looks at those only).
  mutating func intern<Bytes: Collection<UInt8>>(_ bytes: Bytes, answer: Bool) -> TextRange? {
    let found = interned.intern(bytes, in: &texts, padding: Self.padding)
    guard let found else { return nil }
    if answer, !interned.isMarked(found.entry) {
      interned.mark(found.entry)
      for byte in texts[Int(found.range.start)..<Int(found.range.start + found.range.count)] {
        bytesSeen[Int(byte)] = true
      }
    }
    return found.range
  }

  /// Frees the index of the distinct texts (about 17 bytes per text) once a table is complete (a lock read whole):
  /// a text added later is stored again rather than found.
  mutating func dropTextIndex() { interned = TextInterner() }

  /// Whether every byte of every answer's text may be written as it is (`allowed`).
  func textsAreSafe(where allowed: (UInt8) -> Bool) -> Bool {
    bytesSeen.indices.allSatisfy { !bytesSeen[$0] || allowed(UInt8($0)) }
  }

  /// Gives this copy its own storage (before it runs on another thread).
  mutating func makeUnique() {
    records = records.map { $0 }
    texts = texts.map { $0 }
  }
}
