import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// ``AnswerTable``, the compact table of answered keys, and the quotes lock read into it and written from it:
/// each answer given back as the general rules gave it, and the lock's bytes as the text writer wrote them.
@Suite("Answer table")
struct AnswerTableTests {
  static func day(_ text: String) throws -> CalendarDay { try #require(CalendarDay(iso8601: text)) }

  static func key(_ base: String, _ quote: String, _ day: String) throws -> RateKey {
    RateKey(base: try #require(CurrencyCode(base)), quote: try #require(CurrencyCode(quote)), day: try Self.day(day))
  }

  static func decimal(_ text: String) throws -> ExactDecimal { try #require(ExactDecimal(text)) }

  static let source = RateSourceInfo(identifier: "frankfurter", publisher: "Frankfurter", description: "Frankfurter v1")

  /// A quote of a published rate `value` of `base`/`quote` on `day`, as a service answers it.
  static func published(_ base: String, _ quote: String, _ day: String, _ value: String, source: String? = nil) throws
    -> (RateKey, Result<RateQuote, RowError>)
  {
    let rate = ExchangeRate(numerator: try decimal(value))
    return (
      try key(base, quote, day),
      .success(
        RateQuote(
          rate: rate, rateText: rate.decimalText(), rateDay: try Self.day(day), isFallback: false,
          source: source ?? "frankfurter \(base)/\(quote)=\(value)"))
    )
  }

  /// The table's answer to each key is the answer it was given.
  static func expectSame(_ table: AnswerTable, _ answers: [(RateKey, Result<RateQuote, RowError>)]) {
    for (key, answer) in answers { #expect(table.answer(for: key) == answer, "\(key)") }
  }

  /// Writes a quotes lock of some answers, reads it back and writes it again: the answers and the bytes stay.
  static func roundTrip(_ answers: [(RateKey, Result<RateQuote, RowError>)], rule: RateRule = .spot) throws -> [UInt8] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var table = AnswerTable()
    for (key, answer) in answers { table.set(key, answer) }
    let first = directory.url.appendingPathComponent("first.lock").path
    let second = directory.url.appendingPathComponent("second.lock").path
    let day = try Self.day("2024-12-31")
    try LockFile.write(quotes: table, source: source, defaultDay: day, to: first, rule: rule)
    guard case .quotes(let locked) = try LockFile.load(path: first).rates else {
      Issue.record("a quotes lock")
      return []
    }
    #expect(locked.rule == rule)
    expectSame(locked.answers, answers)
    try LockFile.write(quotes: locked.answers, source: source, defaultDay: day, to: second, rule: rule)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: first)))
    #expect(bytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: second))))
    return bytes
  }

  // 98765432109876543210 needs 67 bits: the rate is kept exactly beside the records, and the fast path leaves it
  // to the general path; 12345678901234567891 fits 64 bits but not the fast path's 56.
  @Test func aRateOfTwentySignificantDigitsIsKeptExactly() throws {
    let answers = [
      try Self.published("EUR", "USD", "2024-03-01", "98765432.109876543210"),
      try Self.published("EUR", "JPY", "2024-03-01", "1234567890.1234567891"),
      try Self.published("EUR", "GBP", "2024-03-01", "0.8338"),
    ]
    var table = AnswerTable()
    for (key, answer) in answers { table.set(key, answer) }
    Self.expectSame(table, answers)
    #expect(try table.answer(for: answers[0].0)?.get().rateText == "98765432.11")
    let keys = RateKeyIndex(answers.map(\.0))
    let answered = AnsweredQuotes(keys: keys, table: table) { table.record(for: keys.key(at: $0)) }
    let usd = answers[0].0
    let gbp = answers[2].0
    #expect(answered.entry(base: usd.pair.base, quote: usd.pair.quote, day: usd.day) == nil)
    #expect(answered.entry(base: answers[1].0.pair.base, quote: answers[1].0.pair.quote, day: usd.day) == nil)
    let entry = try #require(answered.entry(base: gbp.pair.base, quote: gbp.pair.quote, day: gbp.day))
    #expect(answered.entries[entry].numerator == 8338 && answered.entries[entry].numeratorScale == 4)
    let lock = String(decoding: try Self.roundTrip(answers), as: UTF8.self)
    #expect(lock.contains("\nquote EUR USD 2024-03-01 98765432.109876543210 1 98765432.11 2024-03-01 ok "))
  }

  // A 10 KB fx_source is one text of the store: given back whole, written on its line and read back.
  @Test func aSourceTextOfTenKilobytes() throws {
    let long = "frankfurter " + String(repeating: "desk-", count: 2_000) + " EUR/USD=1.0833"
    let answers = [try Self.published("EUR", "USD", "2024-03-01", "1.0833", source: long)]
    var table = AnswerTable()
    for (key, answer) in answers { table.set(key, answer) }
    Self.expectSame(table, answers)
    let lock = String(decoding: try Self.roundTrip(answers), as: UTF8.self)
    #expect(lock.contains("\nquote EUR USD 2024-03-01 1.0833 1 1.0833 2024-03-01 ok \(long)\n"))
  }

  // An error key keeps its code and message; an error about the exchange is left out of the lock.
  @Test func anErrorKeyKeepsItsCodeAndMessage() throws {
    let answers: [(RateKey, Result<RateQuote, RowError>)] = [
      (try Self.key("EUR", "XAU", "2024-03-01"), .failure(RowError(.noRate, "Frankfurter: not found"))),
      (try Self.key("EUR", "USD", "2024-03-02"), .failure(RowError(.unknownCurrency, "no \"USD\" here"))),
    ]
    var table = AnswerTable()
    for (key, answer) in answers { table.set(key, answer) }
    table.set(try Self.key("EUR", "GBP", "2024-03-01"), .failure(RowError(.timeout, "too slow")))
    Self.expectSame(table, answers)
    #expect(table.errorCode(at: try #require(table.record(for: answers[0].0))) == .noRate)
    let lock = String(decoding: try Self.roundTrip(answers), as: UTF8.self)
    #expect(lock.contains("\nerror EUR XAU 2024-03-01 no_rate Frankfurter: not found\nerror EUR USD 2024-03-02 "))
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.url.appendingPathComponent("rates.lock").path
    #expect(try LockFile.write(quotes: table, source: Self.source, defaultDay: Self.day("2024-12-31"), to: path) == 1)
  }

  // A period rule's answer keeps its period (fx_rate_date) beside its rate day.
  @Test func aPeriodKeyKeepsItsPeriod() throws {
    let rate = ExchangeRate(numerator: try Self.decimal("1.08716"), denominator: try Self.decimal("1"))
    let answers: [(RateKey, Result<RateQuote, RowError>)] = [
      (
        try Self.key("EUR", "USD", "2024-03-12"),
        .success(
          RateQuote(
            rate: rate, rateText: "1.08716", rateDay: try Self.day("2024-03-28"), isFallback: false,
            source: "ecb-embedded average of 20 days EUR/USD", period: "2024-03"))
      ),
      (
        try Self.key("EUR", "EUR", "2024-03-12"),
        .success(
          RateQuote(
            rate: .one, rateText: "1", rateDay: nil, isFallback: false, source: "same currency", period: "2024-03"))
      ),
    ]
    var table = AnswerTable()
    for (key, answer) in answers { table.set(key, answer) }
    Self.expectSame(table, answers)
    let lock = String(decoding: try Self.roundTrip(answers, rule: .average(.month)), as: UTF8.self)
    #expect(lock.contains("\nrule average month\nquotes\n"))
    #expect(lock.contains("\nquote EUR USD 2024-03-12 1.08716 1 1.08716 2024-03-28 ok 2024-03 ecb-embedded average"))
  }

  // The lock written from the table is the text the line writer wrote: header, lines sorted by (day, base, quote),
  // line feeds in texts written as spaces, the digest of every byte before its line.
  @Test func theLockIsWrittenAsTheTextWriterWroteIt() throws {
    let answers = [
      try Self.published("USD", "EUR", "2024-03-02", "0.9219"),
      try Self.published("EUR", "USD", "2024-03-02", "1.0846"),
      try Self.published("EUR", "USD", "2024-03-01", "1.0833", source: "frankfurter\nEUR/USD=1.0833"),
    ]
    var table = AnswerTable()
    for (key, answer) in answers { table.set(key, answer) }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.url.appendingPathComponent("rates.lock").path
    try LockFile.write(quotes: table, source: Self.source, defaultDay: try Self.day("2024-12-31"), to: path)
    let body = """
      fxbatch-lock/2
      source frankfurter
      publisher Frankfurter
      description Frankfurter v1
      default-day 2024-12-31
      quotes
      quote EUR USD 2024-03-01 1.0833 1 1.0833 2024-03-01 ok frankfurter EUR/USD=1.0833
      quote EUR USD 2024-03-02 1.0846 1 1.0846 2024-03-02 ok frankfurter EUR/USD=1.0846
      quote USD EUR 2024-03-02 0.9219 1 0.9219 2024-03-02 ok frankfurter USD/EUR=0.9219

      """
    let expected = body + "sha256 \(SHA256Digest.hex(of: Array(body.utf8)))\n"
    #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == expected)
  }

  // Record and text offsets past 24 bits: 2^16 keys over 180 years of days and every quote currency's letters,
  // 1,700 distinct 10 KB texts (17 MB of store), each key's answer given back, the lock sorted.
  @Test func offsetsPastTwentyFourBits() throws {
    var table = AnswerTable()
    let codes = ISO4217.entries.compactMap { CurrencyCode($0.code) }.prefix(16)
    let filler = String(repeating: "x", count: 10_000)
    var keys: [RateKey] = []
    for index in 0..<(1 << 16) {
      let key = RateKey(
        base: codes[index % codes.count], quote: .euro, day: CalendarDay(daysSinceEpoch: index / codes.count * 16 - 40_000))
      keys.append(key)
      let source = index < 1_700 ? "s\(index) \(filler)" : "s\(index % 7)"
      table.set(
        key,
        .success(
          RateQuote(
            rate: ExchangeRate(numerator: ExactDecimal(significand: Int128(index + 1), scale: 3)), rateText: "r",
            rateDay: key.day, isFallback: false, source: source)))
    }
    #expect(table.count == 1 << 16)
    #expect(table.texts.count > 1 << 24)
    for index in [0, 1_699, 1_700, 40_000, (1 << 16) - 1] {
      let quote = try table.answer(for: keys[index])?.get()
      #expect(quote?.rate.numerator == ExactDecimal(significand: Int128(index + 1), scale: 3))
      #expect(quote?.source.hasPrefix("s\(index < 1_700 ? index : index % 7)") == true)
    }
  }

  // 2^24 distinct keys (32 bases × 32 quotes × 16,384 days), each with its own rate, stored as a lock's reader
  // stores its lines in their written order (``AnswerTable/store(_:packed:isNew:)``, records reserved from the
  // lock's size, then the key index filled in one pass, which grows it past 2^24 slots), the last 1,024 keys
  // added one by one: every key's answer found and given back at the edges of the range and across it, and keys
  // never stored not found. The time limit catches an index whose slots stop spreading (a hash of fewer bits
  // than the table's size clusters every key into part of it). About a minute in a debug build: run with
  // FXBATCH_LARGE_TESTS=1.
  @Test(
    .enabled(if: ProcessInfo.processInfo.environment["FXBATCH_LARGE_TESTS"] == "1"), .timeLimit(.minutes(3)))
  func twoToTheTwentyFourKeys() throws {
    let count = 1 << 24
    let codes = Array(ISO4217.entries.compactMap { CurrencyCode($0.code) }.prefix(32))
    try #require(codes.count == 32)
    let firstDay = -8_000
    func key(_ index: Int) -> RateKey {
      RateKey(base: codes[index & 31], quote: codes[index >> 5 & 31], day: CalendarDay(daysSinceEpoch: firstDay + index >> 10))
    }
    var table = AnswerTable()
    table.reserveCapacity(records: count, keys: 1 << 23)
    let rateRange = table.intern("1.2345".utf8, answer: true)
    let rateText = try #require(rateRange)
    var sources: [AnswerTable.TextRange] = []
    for source in 0..<64 {
      let range = table.intern("desk \(source)".utf8, answer: true)
      sources.append(try #require(range))
    }
    let letters = codes.map { (RateKeyIndex.pack(base: $0, quote: $0, day: CalendarDay(daysSinceEpoch: 0)) ?? 0) >> 49 }
    #expect(Set(letters).count == 32)
    var dayFields: (rateDay: Int32, start: UInt32, count: UInt8) = (0, 0, 0)
    for index in 0..<count {
      if index & 1023 == 0 {
        let day = Int32(firstDay + index >> 10)
        guard let text = table.dayText(day) else {
          Issue.record("no text for day \(day)")
          return
        }
        dayFields = (day, text.start, UInt8(text.count))
      }
      // The packed key of key(index): letters, letters, day + 2^33 (``RateKeyIndex/pack(base:quote:day:)``).
      let packed = letters[index & 31] << 49 | letters[index >> 5 & 31] << 34 | UInt64(firstDay + index >> 10 + 1 << 33)
      let source = sources[index & 63]
      let record = AnswerTable.Record(
        numerator: UInt64(index + 1), denominator: 1, sourceStart: source.start, sourceCount: source.count,
        rateStart: rateText.start, dayStart: dayFields.start, rateDay: dayFields.rateDay,
        quoteLetters: codes[index >> 5 & 31].packed, rateCount: UInt8(rateText.count), dayCount: dayFields.count,
        numeratorScale: 4, denominatorScale: 0, minorUnits: 2, flags: [.hasRateDay], code: 0)
      // Keys are in the written order but for the last 1,024, added one by one once the others are indexed.
      if index == count - 1024 { table.indexKeys() }
      guard table.store(record, packed: packed, isNew: index < count - 1024) == index else {
        Issue.record("key \(index) stored as another record")
        return
      }
    }
    table.indexKeys()
    #expect(table.count == count)
    var samples = [0, 1, 1023, 1024, (1 << 23) - 1, 1 << 23, count - 1025, count - 1024, count - 2, count - 1]
    for bits in 10...24 { samples += [3 << bits / 4 - 1, 3 << bits / 4, 3 << bits / 4 + 1] }
    samples += Array(stride(from: 7, to: count, by: 65_537))
    let answered = AnsweredQuotes(table: table) { _ in true }
    for index in samples {
      let key = key(index)
      #expect(RateKeyIndex.pack(key) == table.keys.packedKeys[index])
      let record = try #require(table.record(for: key), "key \(index)")
      #expect(record == index)
      #expect(table.key(at: record) == key)
      #expect(answered.entry(base: key.pair.base, quote: key.pair.quote, day: key.day) == index)
      let quote = try table.answer(at: record).get()
      #expect(quote.rate == ExchangeRate(numerator: ExactDecimal(significand: Int128(index + 1), scale: 4)))
      #expect(quote.rateText == "1.2345" && quote.source == "desk \(index & 63)" && quote.rateDay == key.day)
    }
    // Keys never stored: a day after the last, a currency none of the keys has.
    let last = key(count - 1)
    #expect(table.record(for: RateKey(base: last.pair.base, quote: last.pair.quote, day: last.day.adding(days: 1))) == nil)
    let stranger = try #require(ISO4217.entries.compactMap { CurrencyCode($0.code) }.first { !codes.contains($0) })
    #expect(table.record(for: RateKey(base: codes[0], quote: stranger, day: key(0).day)) == nil)
  }

  // The answers of a chain (the embedded history, then a lock's quotes for what it lacks) are locked as the
  // source answers of its links, and a frozen run on that lock writes the chain run's bytes.
  @Test func aLockOfAChainRun() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(
      "date,amount,from,to\n2024-03-04,100,EUR,USD\n2024-03-04,100,EUR,AED\n2024-03-04,100,EUR,EUR\n"
        + "2024-03-04,100,EUR,XAU\n", named: "in.csv")
    let aed = try Self.published("EUR", "AED", "2024-03-04", "3.9912", source: "desk EUR/AED=3.9912")
    let xau = (
      try Self.key("EUR", "XAU", "2024-03-04"), Result<RateQuote, RowError>.failure(RowError(.noRate, "not at this desk"))
    )
    var answers = AnswerTable()
    answers.set(aed.0, aed.1)
    answers.set(xau.0, xau.1)
    let chain = RateSourceChoice.chain([
      .init(name: "embedded", source: .table(EmbeddedECBHistory.table)),
      .init(name: "desk", source: .lockFile(path: "desk.lock", quotes: LockFile.LockedQuotes(answers: answers))),
    ])
    let lock = directory.url.appendingPathComponent("chain.lock").path
    let chained = try TableSourceDifferentialTests.run(input, format: .csv, source: chain, parts: 1, lock: lock)
    let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: lock)), as: UTF8.self)
    // Embedded ECB 2024-03-04: EUR/USD 1.0846.
    #expect(text.contains("\nquote EUR AED 2024-03-04 3.9912 1 3.9912 2024-03-04 ok desk EUR/AED=3.9912\n"))
    #expect(text.contains("\nquote EUR USD 2024-03-04 1.0846 1 1.0846 2024-03-04 ok ecb-embedded EUR/USD=1.0846\n"))
    #expect(text.contains("\nerror EUR XAU 2024-03-04 no_rate no source of the chain has a rate for EUR/XAU"))
    let (frozen, _) = try TableSourceDifferentialTests.frozen(lock)
    for fastPath in [true, false] {
      let replayed = try TableSourceDifferentialTests.run(input, format: .csv, source: frozen, parts: 1) {
        $0.fastPath = fastPath
      }
      TableSourceDifferentialTests.compare(replayed, chained, "frozen chain lock, fast path \(fastPath)")
    }
  }

  // A table made for a run's keys shares their index: each key is unanswered (no record) until set, its record is
  // the key's index, and a key the run did not collect is still set (the table then indexes its own copy).
  @Test func aTableForARunsKeysSharesTheirIndex() throws {
    let usd = try Self.published("EUR", "USD", "2024-03-04", "1.0846")
    let gbp = try Self.published("EUR", "GBP", "2024-03-04", "0.8556")
    let jpy = try Self.published("EUR", "JPY", "2024-03-04", "162.94")
    let index = RateKeyIndex([usd.0, gbp.0])
    var table = AnswerTable(answering: index)
    #expect(table.count == 2)
    #expect(table.record(for: usd.0) == nil && table.answer(for: gbp.0) == nil)
    #expect(!table.answersEveryKey)
    table.set(gbp.0, gbp.1)
    #expect(table.record(for: gbp.0) == 1 && table.record(for: usd.0) == nil)
    table.set(usd.0, usd.1)
    #expect(table.record(for: usd.0) == 0 && table.answersEveryKey)
    table.set(jpy.0, jpy.1)
    #expect(table.record(for: jpy.0) == 2 && table.count == 3)
    Self.expectSame(table, [usd, gbp, jpy])
    let jpyKey = try #require(RateKeyIndex.pack(jpy.0))
    #expect(index.count == 2)
    #expect(index.index(of: jpyKey) == nil)
  }

  // A batch of answers (rates shared by the keys that take them, texts found in the source's, errors as values)
  // is taken as its values: the same answers, and the same lock bytes, as when each is set one by one.
  @Test func aBatchIsTakenAsItsValues() throws {
    var batch = AnswerBatch()
    func add(_ base: String, _ quote: String, _ written: String, days: [(String, String)]) throws {
      let value = try #require(ExactDecimal(jsonNumber: written))
      let rate = ExchangeRate(numerator: value)
      let prefix = Array("frankfurter-v2 \(base)/\(quote)=".utf8)
      let added = batch.addRate(rate, rateText: rate.decimalText().utf8, sourcePrefix: prefix, written: Array(written.utf8))
      let index = try #require(added)
      for (day, rateDay) in days {
        let added = batch.add(
          try Self.key(base, quote, day), rate: index, rateDay: try Self.day(rateDay), isFallback: day != rateDay)
        #expect(added)
      }
    }
    // Written as its text, with more digits than its text, and in an exponent (its text kept apart).
    try add("EUR", "USD", "1.0846", days: [("2024-03-04", "2024-03-04")])
    try add(
      "EUR", "GBP", "0.85500",
      days: [("2024-03-01", "2024-03-01"), ("2024-03-02", "2024-03-01"), ("2024-03-03", "2024-03-01")])
    try add("VND", "EUR", "3.7e-05", days: [("2024-03-04", "2024-03-04")])
    let xau = try Self.key("EUR", "XAU", "2024-03-04")
    batch.add(xau, .failure(RowError(.noRate, "Frankfurter has no EUR/XAU rate on or before 2024-03-04")))
    let values = batch.values
    #expect(values.count == 6 && batch.count == 6 && batch.answersAny)
    let gbp = try #require(try values[try Self.key("EUR", "GBP", "2024-03-03")]?.get())
    #expect(gbp.rateText == "0.855" && gbp.source == "frankfurter-v2 EUR/GBP=0.85500" && gbp.isFallback)
    #expect(gbp.rateDay == (try Self.day("2024-03-01")))
    let vnd = try #require(try values[try Self.key("VND", "EUR", "2024-03-04")]?.get())
    #expect(vnd.rateText == "0.000037" && vnd.source == "frankfurter-v2 VND/EUR=3.7e-05" && !vnd.isFallback)
    // Texts of a rate are kept once: the GBP rate's three keys share them.
    #expect(batch.rates.count == 3)
    let texts = "frankfurter-v2 EUR/USD=1.0846" + "frankfurter-v2 EUR/GBP=0.85500" + "frankfurter-v2 VND/EUR=3.7e-05" + "0.000037"
    #expect(batch.texts == Array(texts.utf8))

    var taken = AnswerTable()
    taken.set(try Self.key("EUR", "USD", "2024-03-04"), .failure(RowError(.badResponse, "replaced")))
    taken.take(batch)
    var set = AnswerTable()
    for (key, answer) in values { set.set(key, answer) }
    Self.expectSame(taken, values.map { ($0.key, $0.value) })
    #expect(taken.count == 6)
    #expect(taken.textsAreSafe { $0 != UInt8(ascii: "-") } == false)
    #expect(taken.textsAreSafe { $0 != UInt8(ascii: ",") })

    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var locks: [[UInt8]] = []
    for (name, table) in [("taken", taken), ("set", set)] {
      let path = directory.url.appendingPathComponent("\(name).lock").path
      try LockFile.write(quotes: table, source: Self.source, defaultDay: try Self.day("2024-12-31"), to: path)
      locks.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }
    #expect(locks[0] == locks[1])
  }

  // A record is 40 bytes; what does not fit its narrow fields (a source text or message over 128 KB, a rate day
  // 23,000 years away) is kept beside the records and given back as it was set.
  @Test func whatARecordCannotHoldIsKeptBeside() throws {
    #expect(MemoryLayout<AnswerTable.Record>.stride == 40)
    let long = String(repeating: "s", count: AnswerTable.Record.largestSourceCount + 1)
    let key = try Self.key("EUR", "USD", "2024-03-04")
    let far = RateKey(base: .euro, quote: try #require(CurrencyCode("JPY")), day: CalendarDay(daysSinceEpoch: 1 << 23))
    let fine = try #require(ExactDecimal("1.5"))
    let answers: [(RateKey, Result<RateQuote, RowError>)] = [
      (
        key,
        .success(
          RateQuote(
            rate: ExchangeRate(numerator: fine), rateText: "1.5", rateDay: key.day, isFallback: false, source: long))
      ),
      (
        far,
        .success(
          RateQuote(rate: ExchangeRate(numerator: fine), rateText: "1.5", rateDay: far.day, isFallback: true, source: "s"))
      ),
      (try Self.key("EUR", "GBP", "2024-03-04"), .failure(RowError(.noRate, long))),
    ]
    var table = AnswerTable()
    for (key, answer) in answers { table.set(key, answer) }
    Self.expectSame(table, answers)
    #expect(table.errorCode(at: try #require(table.record(for: answers[2].0))) == .noRate)
    #expect(table.rateDay(at: try #require(table.record(for: far))) == far.day)
    // The narrow fields of a record that fits.
    table.set(key, try Self.published("EUR", "USD", "2024-03-04", "1.0846").1)
    let record = table.records[try #require(table.record(for: key))]
    #expect(record.quoteLetters == CurrencyCode("USD")?.packed && record.minorUnits == 2 && record.rateCount == 6)
    #expect(record.numerator == 10846 && record.numeratorScale == 4 && record.denominator == 1)
    #expect(record.rateDay == Int32(key.day.daysSinceEpoch) && record.dayCount == 10 && !record.isFallback)
    #expect(record.sourceCount == UInt32("frankfurter EUR/USD=1.0846".utf8.count))
  }
}
