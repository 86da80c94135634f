extension LockFile {
  /// Writes the `quote` and `error` lines of a quotes lock from an ``AnswerTable``, as bytes.
  struct QuoteLineWriter {
    let rule: RateRule
    /// Per day, its text.
    private var dayTexts: [Int: [UInt8]] = [:]

    init(rule: RateRule) { self.rule = rule }

    /// Appends a record's line.
    ///
    /// - Returns: `false` when the record is left out (an error about the exchange).
    mutating func append(record: Int, of table: AnswerTable, to body: inout [UInt8]) -> Bool {
      let key = table.key(at: record)
      let answer = table.answer(at: record)
      if case .failure(let error) = answer, error.code.isAboutTheExchange { return false }
      var fields: [String] = []
      switch answer {
      case .success(let quote):
        body.append(contentsOf: "quote ".utf8)
        appendKey(key, to: &body)
        fields = [
          quote.rate.numerator.description, quote.rate.denominator.description, LockFile.line(quote.rateText),
          quote.rateDay?.description ?? "-", quote.isFallback ? "fallback" : "ok",
        ]
        if rule != .spot { fields.append(quote.period.map(LockFile.line) ?? "-") }
        fields.append(LockFile.line(quote.source))
      case .failure(let error):
        body.append(contentsOf: "error ".utf8)
        appendKey(key, to: &body)
        fields = [error.code.rawValue, LockFile.line(error.message)]
      }
      for field in fields {
        body.append(UInt8(ascii: " "))
        body.append(contentsOf: field.utf8)
      }
      body.append(UInt8(ascii: "\n"))
      return true
    }

    /// `BASE QUOTE DAY`.
    private mutating func appendKey(_ key: RateKey, to body: inout [UInt8]) {
      for code in [key.pair.base, key.pair.quote] {
        body.append(UInt8(truncatingIfNeeded: code.packed >> 16))
        body.append(UInt8(truncatingIfNeeded: code.packed >> 8))
        body.append(UInt8(truncatingIfNeeded: code.packed))
        body.append(UInt8(ascii: " "))
      }
      let day = key.day.daysSinceEpoch
      if let text = dayTexts[day] {
        body.append(contentsOf: text)
      } else {
        let text = Array(key.day.description.utf8)
        dayTexts[day] = text
        body.append(contentsOf: text)
      }
    }
  }
}

extension LockFile {
  /// Reads the `quote` and `error` lines of a quotes lock straight into an ``AnswerTable``: the fields found as
  /// byte ranges of the line, the usual line read as bytes, and any other line (a field that is not in the form
  /// fxbatch writes, a check that fails) read again by the rules of ``readAsText(_:line:)``, which say why.
  struct QuoteLineReader {
    let rule: RateRule
    let path: String
    /// The lines' answers; keys stored as new (after every earlier one in the written order) are found only once
    /// ``AnswerTable/indexKeys()`` has run.
    private(set) var table = AnswerTable()
    /// The greatest key stored so far in the written order (``order(_:)``; 0: none): a line whose key comes after
    /// it cannot repeat an earlier one, and its key is stored without looking it up.
    private var greatestOrder: UInt64 = 0
    /// Per currency's letters (``RateKeyIndex``'s 15 bits), 1: an ISO 4217 code, 2: not one, 0: not looked up.
    private var known = [UInt8](repeating: 0, count: 1 << 15)

    /// - Parameter size: the lock's size in bytes, which bounds its lines (a line has at least 40 bytes; a
    ///   lock fxbatch writes about 85).
    init(rule: RateRule, path: String, size: Int) {
      self.rule = rule
      self.path = path
      table.reserveCapacity(records: size / 40, keys: size / 88)
    }

    private func fail(_ line: Int, _ message: String) -> RatesFileError {
      RatesFileError(path: path, line: line, column: 1, message: message)
    }

    /// Reads one line.
    mutating func read(_ line: ArraySlice<UInt8>, line number: Int) throws(RatesFileError) {
      if readQuickly(line) { return }
      try readAsText(String(decoding: line, as: UTF8.self), line: number)
    }

    /// The line read from its bytes; `false` when it is not in the form fxbatch writes or a check fails (nothing
    /// is stored then).
    ///
    /// The line is read by its indices, each field a range found after the last (`BASE QUOTE DAY ` has fixed
    /// widths): slices are made only for the calls that read them.
    private mutating func readQuickly(_ line: ArraySlice<UInt8>) -> Bool {
      let space = UInt8(ascii: " ")
      let isError = line.starts(with: Self.errorPrefix)
      guard isError || line.starts(with: Self.quotePrefix) else { return false }
      // `quote ` or `error `, `BASE `, `QUOTE `, `YYYY-MM-DD `: the key's fields end at fixed offsets.
      let first = line.startIndex
      guard line.count > 25, line[first + 9] == space, line[first + 13] == space, line[first + 24] == space,
        let base = code(line[(first + 6)..<(first + 9)]), let quote = code(line[(first + 10)..<(first + 13)]),
        let keyDay = Self.day(line[(first + 14)..<(first + 24)]),
        let packed = RateKeyIndex.pack(base: base, quote: quote, day: keyDay)
      else { return false }
      let order = Self.order(packed)
      let isNew = order > greatestOrder
      if !isNew {
        table.indexKeys()
        guard table.record(packed: packed) == nil else { return false }
      }
      defer { greatestOrder = max(greatestOrder, order) }
      var position = first + 25
      /// The next field (up to the next space), or `nil` when the line ends before a space.
      func field() -> Range<Int>? {
        guard let end = line[position...].firstIndex(of: space) else { return nil }
        defer { position = end + 1 }
        return position..<end
      }
      if isError {
        guard let codeField = field(),
          let code = RowError.Code(rawValue: String(decoding: line[codeField], as: UTF8.self))
        else { return false }
        return table.storeError(packed: packed, quote: quote, code: code, message: line[position...], isNew: isNew)
      }
      guard let numeratorField = field(), let denominatorField = field(), let rateField = field(),
        let rateDayField = field(), let statusField = field()
      else { return false }
      var periodField: Range<Int>? = nil
      if rule != .spot {
        guard let found = field() else { return false }
        periodField = found
      }
      let sourceField = position..<line.endIndex
      guard let numerator = ExactDecimal(plainUTF8: line[numeratorField]), numerator.significand > 0,
        let denominator = ExactDecimal(plainUTF8: line[denominatorField]), denominator.significand > 0
      else { return false }
      var rateDay: CalendarDay? = nil
      if !Self.equal(line, rateDayField, Self.dash) {
        guard let day = Self.day(line[rateDayField]) else { return false }
        rateDay = day
      }
      let isFallback: Bool
      if Self.equal(line, statusField, Self.ok) {
        isFallback = false
      } else if Self.equal(line, statusField, Self.fallback) {
        isFallback = true
      } else {
        return false
      }
      let rate = ExchangeRate(numerator: numerator, denominator: denominator)
      guard Self.rateText(line[rateField], isTextOf: rate, numeratorText: line[numeratorField]) else { return false }
      let latest = rule.period.map { $0.span(containing: keyDay).last } ?? keyDay
      if let rateDay, rateDay > latest { return false }
      if base == quote, numerator.normalized != denominator.normalized { return false }
      if rule == .spot {
        if let rateDay, isFallback != (rateDay != keyDay) { return false }
        if base != quote, !agrees(rate, base: base, quote: quote, source: line[sourceField]) { return false }
      }
      let period = periodField.flatMap { Self.equal(line, $0, Self.dash) ? nil : line[$0] }
      return table.storeQuote(
        packed: packed, quote: quote, rate: rate, rateText: line[rateField], rateDay: rateDay, isFallback: isFallback,
        period: period, source: line[sourceField], isNew: isNew)
    }

    /// A packed key's place in the written order, (day, base, quote) (``LockFile/write(quotes:source:defaultDay:to:rule:)``).
    @inline(__always)
    static func order(_ packed: UInt64) -> UInt64 { (packed & ((1 << 34) - 1)) << 30 | packed >> 34 }

    /// Whether the bytes `range` of a line are `text`.
    @inline(__always)
    private static func equal(_ line: ArraySlice<UInt8>, _ range: Range<Int>, _ text: [UInt8]) -> Bool {
      guard range.count == text.count else { return false }
      for offset in 0..<text.count where line[range.lowerBound + offset] != text[offset] { return false }
      return true
    }

    /// A currency of three upper-case letters that ISO 4217 lists; `nil` for anything else (read as text).
    private mutating func code(_ bytes: ArraySlice<UInt8>) -> CurrencyCode? {
      guard bytes.count == 3 else { return nil }
      var letters = 0
      var packed: UInt32 = 0
      for byte in bytes {
        guard byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return nil }
        letters = letters << 5 | Int(byte - UInt8(ascii: "A"))
        packed = packed << 8 | UInt32(byte)
      }
      let code = CurrencyCode(packed: packed)
      if known[letters] == 0 { known[letters] = ISO4217.currency(for: code) != nil ? 1 : 2 }
      return known[letters] == 1 ? code : nil
    }

    /// A day written `YYYY-MM-DD`.
    private static func day(_ bytes: ArraySlice<UInt8>) -> CalendarDay? {
      guard bytes.count == 10 else { return nil }
      let start = bytes.startIndex
      guard bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-") else { return nil }
      func number(_ from: Int, _ to: Int) -> Int? {
        var value = 0
        for index in (start + from)..<(start + to) {
          let digit = bytes[index] &- UInt8(ascii: "0")
          guard digit < 10 else { return nil }
          value = value * 10 + Int(digit)
        }
        return value
      }
      guard let year = number(0, 4), let month = number(5, 7), let day = number(8, 10) else { return nil }
      return CalendarDay(year: year, month: month, day: day)
    }

    /// Whether `text` is ``ExchangeRate/decimalText(significantDigits:)`` of a rate: for a rate `n ÷ 1` (or
    /// `÷ 1.0`) whose `n`
    /// is written plainly with at most 10 significant digits, `n` without its trailing fractional zeros; else
    /// the text computed.
    private static func rateText(_ text: ArraySlice<UInt8>, isTextOf rate: ExchangeRate, numeratorText: ArraySlice<UInt8>)
      -> Bool
    {
      let zero = UInt8(ascii: "0")
      let point = UInt8(ascii: ".")
      if rate.denominator.normalized == .one, let first = numeratorText.first,
        first > zero && first <= UInt8(ascii: "9")
          || (first == zero && numeratorText.dropFirst().first == point)
      {
        var end = numeratorText.endIndex
        if numeratorText.contains(point) {
          while numeratorText[end - 1] == zero { end -= 1 }
          if numeratorText[end - 1] == point { end -= 1 }
        }
        let shown = numeratorText[numeratorText.startIndex..<end]
        var significant = 0
        var leading = true
        for byte in shown where byte != point {
          if leading, byte == zero { continue }
          leading = false
          significant += 1
        }
        if significant <= 10 { return text.elementsEqual(shown) }
      }
      return text.elementsEqual(rate.decimalText().utf8)
    }

    /// Whether a quote's fraction is the one published rate its `fx_source` names, as
    /// ``LockFile/disagreement(of:rate:rateDay:isFallback:source:)`` checks it (`false`: not such a source, or not
    /// that rate; then the text rules say which).
    private mutating func agrees(
      _ rate: ExchangeRate, base: CurrencyCode, quote: CurrencyCode, source: ArraySlice<UInt8>
    ) -> Bool {
      let equals = UInt8(ascii: "=")
      let space = UInt8(ascii: " ")
      guard let sign = source.firstIndex(of: equals), !source[(sign + 1)...].contains(equals) else { return false }
      let wordStart = source[..<sign].lastIndex(of: space).map { $0 + 1 } ?? source.startIndex
      let wordEnd = source[sign...].firstIndex(of: space) ?? source.endIndex
      guard sign - wordStart == 7, source[wordStart + 3] == UInt8(ascii: "/"),
        let from = code(source[wordStart..<(wordStart + 3)]), let to = code(source[(wordStart + 4)..<(wordStart + 7)])
      else { return false }
      let value = source[(sign + 1)..<wordEnd]
      guard !value.contains(UInt8(ascii: "e")), !value.contains(UInt8(ascii: "E")),
        let published = ExactDecimal(plainUTF8: value), published.significand > 0
      else { return false }
      let legLetters = (from.packed, to.packed)
      let named: ExchangeRate
      if legLetters.0 == base.packed, legLetters.1 == quote.packed {
        named = ExchangeRate(numerator: published)
      } else if legLetters.0 == quote.packed, legLetters.1 == base.packed {
        named = ExchangeRate(numerator: published).inverted
      } else {
        return false
      }
      guard let left = rate.numerator.multiplied(by: named.denominator),
        let right = named.numerator.multiplied(by: rate.denominator)
      else { return false }
      return left == right
    }

    private static let dash = Array("-".utf8)
    private static let ok = Array("ok".utf8)
    private static let fallback = Array("fallback".utf8)
    private static let errorPrefix = Array("error ".utf8)
    private static let quotePrefix = Array("quote ".utf8)

    /// A line read as text, field by field (every check says what is wrong).
    mutating func readAsText(_ text: String, line index: Int) throws(RatesFileError) {
      table.indexKeys()
      if text.hasPrefix("error ") {
        let fields = text.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 6, let base = CurrencyCode(fields[1]), let quote = CurrencyCode(fields[2]),
          let keyDay = CalendarDay(iso8601: fields[3]), let code = RowError.Code(rawValue: fields[4])
        else { throw fail(index, "malformed error line") }
        let key = RateKey(base: base, quote: quote, day: keyDay)
        guard table.record(for: key) == nil else { throw fail(index, "\(key.pair) on \(keyDay) is in the lock twice") }
        table.set(key, .failure(RowError(code, fields[5])))
        noteStored(key)
        return
      }
      let quoteFields = rule == .spot ? 10 : 11
      let fields = text.split(separator: " ", maxSplits: quoteFields - 1, omittingEmptySubsequences: false).map(String.init)
      guard fields.count == quoteFields, fields[0] == "quote", let base = CurrencyCode(fields[1]),
        let quote = CurrencyCode(fields[2]),
        let keyDay = CalendarDay(iso8601: fields[3]),
        let numerator = ExactDecimal(fields[4]), numerator.significand > 0,
        let denominator = ExactDecimal(fields[5]), denominator.significand > 0,
        fields[7] == "-" || CalendarDay(iso8601: fields[7]) != nil, fields[8] == "ok" || fields[8] == "fallback"
      else { throw fail(index, "malformed quote line") }
      let rate = ExchangeRate(numerator: numerator, denominator: denominator)
      guard fields[6] == rate.decimalText() else {
        throw fail(index, "the rate \(fields[6]) is not the quote's \(numerator) ÷ \(denominator) (\(rate.decimalText()))")
      }
      let key = RateKey(base: base, quote: quote, day: keyDay)
      if let problem = LockFile.problem(
        of: key, rate: rate, rateDay: CalendarDay(iso8601: fields[7]), seen: table.record(for: key) != nil, rule: rule)
      {
        throw fail(index, problem)
      }
      if rule == .spot,
        let problem = LockFile.disagreement(
          of: key, rate: rate, rateDay: CalendarDay(iso8601: fields[7]), isFallback: fields[8] == "fallback",
          source: fields[quoteFields - 1])
      {
        throw fail(index, problem)
      }
      table.set(
        key,
        .success(
          RateQuote(
            rate: rate, rateText: fields[6], rateDay: CalendarDay(iso8601: fields[7]), isFallback: fields[8] == "fallback",
            source: fields[quoteFields - 1], period: quoteFields == 11 && fields[9] != "-" ? fields[9] : nil)))
      noteStored(key)
    }

    /// Counts a key stored by ``readAsText(_:line:)`` in ``greatestOrder``.
    private mutating func noteStored(_ key: RateKey) {
      if let packed = RateKeyIndex.pack(key) { greatestOrder = max(greatestOrder, Self.order(packed)) }
    }
  }
}
