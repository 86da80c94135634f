import Foundation

/// A lock file (`--lock FILE`): what the source said in a run — its identity, the day used for records without a
/// date, and the reference rates (or answered quotes) the run used — so that a later run with `--frozen` takes
/// its rates only from it and reproduces the conversion byte for byte, on any day.
///
/// Version 2 (`fxbatch-lock/2`, written) is UTF-8 text, one `name value` line each, in this order:
/// ```
/// fxbatch-lock/2
/// source ecb-embedded                      the identifier fx_source starts with
/// publisher ECB                            as row messages name it
/// description ECB euro foreign exchange reference rates (embedded history)
/// default-day 2024-12-31                   the day of records without a date
/// rule average month                       (optional) a period rule's run (--rate-kind, --period): its
///                                          answers are kept as quotes, each with its period
/// table dated                              a table source (embedded, --rates FILE, the ECB feed); or: quotes
/// first-day 1999-01-04                     the source's first and last publication days
/// last-day 2026-10-30
/// valid-through 2026-12-01                 (optional) no rates exist after this day (a fetched feed's today)
/// later-source 2026-10-31 ecb-cache        (optional) from this day on, fx_source names this identifier
/// pairs EUR/USD EUR/JPY                    the columns kept: the pairs the run's rules read
/// other-pairs EUR/CHF                      (optional) the source's other pairs, not kept
/// rate 2024-01-02 2024-01-03 1.0956 156.33 a publication day the rules read, the source's next publication
///                                          day (- for none; the row decides only the days before it), and the
///                                          cells in `pairs` order as published (N/A: none)
/// quote EUR USD 2024-03-01 1.0833 1 1.0833 2024-03-01 ok frankfurter EUR/USD=1.0833
///                                          (quotes sources) base, quote, day, numerator, denominator, rate
///                                          text, rate day (- for none), ok|fallback, (after a `rule` line)
///                                          the period fx_rate_date names (- for none), then fx_source's text,
///                                          which says what was averaged
/// error EUR USD 2024-02-01 no_rate Frankfurter: not found
///                                          (quotes sources) a key the source gave no rate for: base, quote,
///                                          day, the error's code and message, as the run wrote them
/// sha256 9f86d0…                           SHA-256 of every byte before this line
/// ```
/// Rows ascend by day, pairs keep the table's column order, quotes and errors sort by (day, base, quote): the
/// same run writes the same bytes, and a frozen run on a quotes lock writes its records byte for byte as the run
/// that wrote the lock did, its errors too. An undated table has one row, `rate - - …`. A frozen run on a table lock converts
/// from the rows kept (``RateTable/Partial``); a day whose deciding publication, or a pair whose column, the
/// lock does not hold is a `no_rate` error naming the lock.
///
/// Version 1 (`fxbatch-lock/1`, still read): JSON, `{"format", "defaultDay", "rates": [{"base", "quote",
/// "date", "numerator", "denominator", "rate", "rateDate", "fallback", "source"}]}`, every cross pair a run
/// used. It has no digest: each entry is checked against its own source text (``disagreement(of:rate:rateDay:isFallback:source:)``),
/// and a member given twice is refused.
public enum LockFile {
  static let version1 = "fxbatch-lock/1"
  static let version2 = "fxbatch-lock/2"

  /// The rates of a lock file.
  public enum Rates: Sendable {
    /// A table source's rows and columns, as a table (its ``RateTable/info`` is the locked source's).
    case table(RateTable)
    /// Answered quotes by key (a quotes source, or a version 1 lock).
    case quotes(LockedQuotes)
  }

  /// What a source that answers keys said in the locked run.
  public struct LockedQuotes: Sendable {
    /// Its answers by key: each key's rate, or the error of a key it was asked and gave no rate for (version 2
    /// locks).
    var answers: AnswerTable
    /// The locked source (version 2 locks): a frozen run names it as the locked run did; `nil` for version 1.
    public var source: RateSourceInfo?
    /// The rule the locked run converted under (`--rate-kind`, `--period`): a frozen run must use the same.
    public var rule: RateRule

    public init(
      quotes: [RateKey: RateQuote], errors: [RateKey: RowError] = [:], source: RateSourceInfo? = nil,
      rule: RateRule = .spot
    ) {
      var answers = AnswerTable()
      for (key, quote) in quotes { answers.set(key, .success(quote)) }
      for (key, error) in errors { answers.set(key, .failure(error)) }
      self.init(answers: answers, source: source, rule: rule)
    }

    init(answers: AnswerTable, source: RateSourceInfo? = nil, rule: RateRule = .spot) {
      self.answers = answers
      self.source = source
      self.rule = rule
    }

    /// The rate of each key it answered.
    public var quotes: [RateKey: RateQuote] {
      var quotes: [RateKey: RateQuote] = [:]
      for record in 0..<answers.count {
        if case .success(let quote) = answers.answer(at: record) { quotes[answers.key(at: record)] = quote }
      }
      return quotes
    }

    /// The error of each key it was asked and gave no rate for.
    public var errors: [RateKey: RowError] {
      var errors: [RateKey: RowError] = [:]
      for record in 0..<answers.count {
        if case .failure(let error) = answers.answer(at: record) { errors[answers.key(at: record)] = error }
      }
      return errors
    }
  }

  // MARK: Writing

  /// Writes the rows and columns of a table that a run's rules read (``RateTableUsage``), atomically.
  ///
  /// - Parameters:
  ///   - table: the run's table.
  ///   - used: its rows and columns read, ascending.
  ///   - defaultDay: the day records without a date used.
  ///   - path: where to write.
  /// - Throws: ``OutputError`` when the file cannot be written.
  static func write(table: RateTable, used: (rows: [Int], columns: [Int]), defaultDay: CalendarDay, to path: String)
    throws(OutputError)
  {
    var lines = header(table.info, defaultDay: defaultDay)
    lines.append(table.isUndated ? "table undated" : "table dated")
    if !table.isUndated {
      if let first = table.firstDay { lines.append("first-day \(first)") }
      if let last = table.lastDay { lines.append("last-day \(last)") }
    }
    if let validThrough = table.coverage.validThrough { lines.append("valid-through \(validThrough)") }
    if let later = table.laterSource { lines.append("later-source \(later.from) \(line(later.identifier))") }
    let kept = Set(used.columns)
    lines.append((["pairs"] + used.columns.map { table.pairs[$0].description }).joined(separator: " "))
    let others = table.pairs.indices.filter { !kept.contains($0) }
    if !others.isEmpty { lines.append((["other-pairs"] + others.map { table.pairs[$0].description }).joined(separator: " ")) }
    let rows = table.isUndated ? [0] : used.rows
    for row in rows {
      var fields = ["rate"]
      if table.isUndated {
        fields += ["-", "-"]
      } else {
        fields.append(table.days[row].description)
        fields.append(table.nextDay(after: row)?.description ?? "-")
      }
      let width = table.pairs.count
      for column in used.columns { fields.append(table.values[row * width + column]?.description ?? "N/A") }
      lines.append(fields.joined(separator: " "))
    }
    try write(lines, to: path)
  }

  /// Writes the answers of a run on a quotes source, sorted, atomically: its quotes, and the errors of the keys it
  /// gave no rate for. Errors about the exchange rather than the key (``RowError/Code/isAboutTheExchange``: the
  /// source unreachable, a timeout, an unusable answer) are left out: replaying them would freeze a passing
  /// failure, and a frozen run reports such a key as not in the lock file. Records the rules derived (a fixed
  /// conversion's answer, ``AnswerTable/Flags/derived``) are not the source's and are left out too, uncounted.
  ///
  /// - Parameters:
  ///   - quotes: the run's answers.
  ///   - source: the source that answered.
  ///   - defaultDay: the day records without a date used.
  ///   - path: where to write.
  ///   - rule: the run's rule; a period rule is written as a `rule` line and each quote keeps its period.
  /// - Returns: how many keys were left out.
  /// - Throws: ``OutputError`` when the file cannot be written.
  @discardableResult
  static func write(
    quotes: AnswerTable, source: RateSourceInfo, defaultDay: CalendarDay, to path: String, rule: RateRule = .spot
  ) throws(OutputError) -> Int {
    // (day, base, quote) order: the packed key's day (its low 34 bits) before its letters (the high 30).
    var order: [(UInt64, Int32)] = []
    order.reserveCapacity(quotes.count)
    for record in 0..<quotes.count where quotes.isSourceAnswer(at: record) {
      let packed = quotes.keys.packedKeys[record]
      order.append(((packed & ((1 << 34) - 1)) << 30 | packed >> 34, Int32(record)))
    }
    order.sort { $0.0 < $1.0 }
    // Written a block at a time, the digest computed as it goes: a million quotes are 90 MB of lines.
    let file = try AtomicFile(path: path)
    var hasher = SHA256Digest.Hasher()
    var body: [UInt8] = []
    func flush() throws(OutputError) {
      hasher.update(body[...])
      try file.sink.write(body[...])
      body.removeAll(keepingCapacity: true)
    }
    var lines = header(source, defaultDay: defaultDay)
    if let description = rule.periodDescription { lines.append("rule \(description)") }
    lines.append("quotes")
    for line in lines {
      body.append(contentsOf: line.utf8)
      body.append(UInt8(ascii: "\n"))
    }
    var writer = QuoteLineWriter(rule: rule)
    var leftOut = 0
    for (_, record) in order {
      if !writer.append(record: Int(record), of: quotes, to: &body) { leftOut += 1 }
      if body.count >= 1 << 20 { try flush() }
    }
    try flush()
    try file.sink.write("sha256 \(hasher.finalize())\n")
    try file.commit()
    return leftOut
  }

  /// Writes the answers of a run on a quotes source (``write(quotes:source:defaultDay:to:rule:)``).
  @discardableResult
  static func write(
    quotes: [RateKey: Result<RateQuote, RowError>], source: RateSourceInfo, defaultDay: CalendarDay, to path: String,
    rule: RateRule = .spot
  ) throws(OutputError) -> Int {
    try write(quotes: AnswerTable(quotes), source: source, defaultDay: defaultDay, to: path, rule: rule)
  }

  private static func header(_ info: RateSourceInfo, defaultDay: CalendarDay) -> [String] {
    [
      version2, "source \(line(info.identifier))", "publisher \(line(info.publisher))",
      "description \(line(info.description))", "default-day \(defaultDay)",
    ]
  }

  /// A value as one line (a line feed in a name would end it).
  static func line(_ text: String) -> String {
    text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
  }

  private static func write(_ lines: [String], to path: String) throws(OutputError) {
    try write(body: Array((lines.joined(separator: "\n") + "\n").utf8), to: path)
  }

  /// Writes a lock's lines and their digest line, atomically.
  private static func write(body: [UInt8], to path: String) throws(OutputError) {
    let file = try AtomicFile(path: path)
    try file.sink.write(body[...])
    try file.sink.write("sha256 \(SHA256Digest.hex(of: body))\n")
    try file.commit()
  }

  // MARK: Reading

  /// The largest lock file read (bytes).
  static let maximumSize = 256 << 20

  /// Reads a lock file of either version.
  ///
  /// - Returns: its rates and the day for records without a date.
  /// - Throws: ``RatesFileError`` naming the first bad line, or a digest that does not match the content.
  public static func load(path: String) throws(RatesFileError) -> (rates: Rates, defaultDay: CalendarDay) {
    // A lock is read whole: one far larger than any run writes (a year of 30 currencies is under 100 KB, a
    // million answered quotes about 100 MB) is refused before it is read.
    let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
    if size > maximumSize {
      throw RatesFileError(
        path: path, line: 1, column: 1,
        message: "the lock file is \(size >> 20) MB, more than the \(maximumSize >> 20) MB a lock file may have")
    }
    // A version 2 lock as written is read a block at a time, straight into its table; one whose line ends a
    // checkout changed (``asWritten(_:)``) and a version 1 lock are read whole.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor >= 0 {
      defer { close(descriptor) }
      var head = [UInt8](repeating: 0, count: 32)
      head.removeLast(head.count - max(0, FileBytes.read(from: descriptor, into: &head, fileOffset: 0)))
      let offset = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      if head.dropFirst(offset).starts(with: Array((version2 + "\n").utf8)) {
        let digest = ContentDigest.start(descriptor: descriptor, from: offset, size: size)
        var lines = Lines(descriptor: descriptor, offset: offset, hashes: digest == nil)
        return try loadVersion2(&lines, path: path, size: size, digest: digest)
      }
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      // Say why: a newcomer's `--frozen` before any `--lock` run met a bare "cannot read".
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      let reason = descriptor < 0 ? String(cString: strerror(errno)) : "it could not be read whole"
      if descriptor >= 0 { close(descriptor) }
      throw RatesFileError(
        path: path, line: 1, column: 1,
        message: "cannot read the lock file: \(reason) (a run with --lock FILE and without --frozen writes it)")
    }
    let bytes = asWritten([UInt8](data))
    if bytes.starts(with: Array((version2 + "\n").utf8)) {
      var lines = Lines(bytes: bytes)
      return try loadVersion2(&lines, path: path, size: bytes.count)
    }
    let (quotes, defaultDay) = try loadVersion1(data, path: path)
    return (.quotes(LockedQuotes(quotes: quotes)), defaultDay)
  }

  /// A version 2 lock's bytes as fxbatch wrote them, when a checkout or an editor only changed its line ends to
  /// CRLF (git's `core.autocrlf`) or put a UTF-8 byte order mark before it: written lines never hold a carriage
  /// return, so undoing those gives back the very bytes, and the digest still checks every one of them.
  /// Anything else is returned as it is.
  static func asWritten(_ bytes: [UInt8]) -> [UInt8] {
    var text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    guard text.starts(with: Array((version2 + "\r\n").utf8)) else { return text }
    var lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // Every line end a CRLF (the last line's may be missing): else it is not a converted lock.
    let ended = lines.dropLast()
    guard ended.allSatisfy({ $0.last == UInt8(ascii: "\r") }) else { return text }
    lines = ended.map { $0.dropLast() } + [lines[lines.count - 1].last == UInt8(ascii: "\r") ? lines[lines.count - 1].dropLast() : lines[lines.count - 1]]
    text = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    return text
  }

  /// A table lock's lines from its `table` line (`index`); `lines` holds every line before its digest line.
  static func tableLock(
    lines: [String], index start: Int, path: String, identifier: String, publisher: String, description: String,
    defaultDay: CalendarDay
  ) throws(RatesFileError) -> (rates: Rates, defaultDay: CalendarDay) {
    func fail(_ line: Int, _ message: String) -> RatesFileError {
      RatesFileError(path: path, line: line, column: 1, message: message)
    }
    var index = start
    /// The value of the next line, which must be named `name`.
    func value(_ name: String, optional: Bool = false) throws(RatesFileError) -> String? {
      guard index < lines.count, lines[index] == name || lines[index].hasPrefix(name + " ") else {
        if optional { return nil }
        throw fail(index + 1, "expected a `\(name)` line")
      }
      index += 1
      return String(lines[index - 1].dropFirst(min(name.count + 1, lines[index - 1].count)))
    }
    func day(_ text: String?, line: Int) throws(RatesFileError) -> CalendarDay {
      guard let text, let found = CalendarDay(iso8601: text) else { throw fail(line, "malformed day \(text ?? "")") }
      return found
    }
    guard let kind = try value("table"), kind == "dated" || kind == "undated" else {
      throw fail(index, "expected `table dated`, `table undated` or `quotes`")
    }
    let dated = kind == "dated"
    var coverage = RateTable.Coverage()
    if dated {
      coverage.firstDay = try day(try value("first-day"), line: index)
      coverage.lastDay = try day(try value("last-day"), line: index)
    }
    if let text = try value("valid-through", optional: true) { coverage.validThrough = try day(text, line: index) }
    var laterSource: (from: CalendarDay, identifier: String)? = nil
    if let text = try value("later-source", optional: true) {
      let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { throw fail(index, "malformed later-source") }
      laterSource = (try day(parts[0], line: index), parts[1])
    }
    func pairs(_ text: String?) throws(RatesFileError) -> [CurrencyPair] {
      var found: [CurrencyPair] = []
      for name in (text ?? "").split(separator: " ") {
        let codes = name.split(separator: "/")
        guard codes.count == 2, let base = CurrencyCode(codes[0]), let quote = CurrencyCode(codes[1]) else {
          throw fail(index, "malformed pair \(name)")
        }
        found.append(CurrencyPair(base: base, quote: quote))
      }
      return found
    }
    let kept = try pairs(try value("pairs"))
    let others = try pairs(try value("other-pairs", optional: true))
    guard kept.count + others.count <= RateTable.maximumPairs else { throw fail(index, RateTable.tooManyPairs) }
    guard lines.count - index <= RateTable.maximumDays else { throw fail(index + 1, RateTable.tooManyDays) }
    var days: [CalendarDay] = []
    var nextDays: [CalendarDay?] = []
    // The kept cells present only: the other pairs' columns hold none (``RateGrid/Builder``).
    var cells = RateGrid.Builder()
    while index < lines.count {
      let fields = lines[index].split(separator: " ", omittingEmptySubsequences: false)
      index += 1
      guard fields.count == 3 + kept.count, fields[0] == "rate" else { throw fail(index, "malformed rate line") }
      if dated {
        let rowDay = try day(String(fields[1]), line: index)
        guard days.last.map({ $0 < rowDay }) ?? true else { throw fail(index, "rows out of order") }
        days.append(rowDay)
        nextDays.append(fields[2] == "-" ? nil : try day(String(fields[2]), line: index))
      } else {
        guard fields[1] == "-", fields[2] == "-", nextDays.isEmpty else { throw fail(index, "malformed rate line") }
        nextDays.append(nil)
      }
      for (column, cell) in fields[3...].enumerated() where cell != "N/A" {
        guard let value = ExactDecimal(cell), value.significand > 0 else { throw fail(index, "malformed rate \(cell)") }
        cells.append(row: nextDays.count - 1, column: column, value: value)
      }
    }
    let width = kept.count + others.count
    guard dated || nextDays.count == 1 else { throw fail(index, "an undated table has one rate line") }
    let info = RateSourceInfo(
      identifier: identifier, publisher: publisher, description: "\(description), frozen in the lock file \(path)")
    var table = RateTable(
      info: info, pairs: kept + others, days: days, grid: cells.grid(rows: max(days.count, 1), width: width), undated: !dated)
    coverage.partial = RateTable.Partial(
      holder: "the lock file \(path) (--frozen)", nextDays: nextDays.isEmpty ? [nil] : nextDays, keptColumns: kept.count)
    table.coverage = coverage
    table.laterSource = laterSource
    return (.table(table), defaultDay)
  }

  /// What is wrong with a locked quote that no run writes: a key given twice (which one would a run take?), a
  /// rate day after the key's day (no source answers with rates from the future), a same-currency rate other
  /// than 1.
  /// Under a period rule a rate's day may follow the key's, within the key's period, never after it.
  static func problem(
    of key: RateKey, rate: ExchangeRate, rateDay: CalendarDay?, seen: Bool, rule: RateRule = .spot
  ) -> String? {
    if seen { return "\(key.pair) on \(key.day) is in the lock twice" }
    let latest = rule.period.map { $0.span(containing: key.day).last } ?? key.day
    if let rateDay, rateDay > latest { return "the rate of \(key.pair) on \(key.day) is of a later day, \(rateDay)" }
    if key.pair.base == key.pair.quote, rate.numerator.normalized != rate.denominator.normalized {
      return "\(key.pair) is one currency: its rate is 1, not \(rate.decimalText())"
    }
    return nil
  }

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

  /// Reads a version 1 lock file.
  private static func loadVersion1(_ data: Data, path: String) throws(RatesFileError) -> (
    quotes: [RateKey: RateQuote], defaultDay: CalendarDay
  ) {
    func fail(_ message: String) -> RatesFileError { RatesFileError(path: path, line: 1, column: 1, message: message) }
    guard let document = try? JSONDecoder().decode(Document.self, from: data), document.format == version1 else {
      throw fail("not an fxbatch lock file (\(version2) or \(version1))")
    }
    // A member given twice is read one way here (the first) and another by other tools (the last).
    if let repeated = (try? JSONParser.parse([UInt8](data)))?.repeatedMember {
      throw fail("the member \(repeated) occurs twice: which value counts is unclear")
    }
    guard let defaultDay = CalendarDay(iso8601: document.defaultDay) else { throw fail("malformed defaultDay") }
    var quotes: [RateKey: RateQuote] = [:]
    for (index, entry) in document.rates.enumerated() {
      guard let base = CurrencyCode(entry.base), let quote = CurrencyCode(entry.quote),
        let day = CalendarDay(iso8601: entry.date),
        let numerator = ExactDecimal(entry.numerator), numerator.significand > 0,
        let denominator = ExactDecimal(entry.denominator), denominator.significand > 0
      else { throw fail("malformed rate entry \(index + 1)") }
      let rate = ExchangeRate(numerator: numerator, denominator: denominator)
      guard entry.rate == rate.decimalText() else {
        throw fail(
          "the rate \(entry.rate) of entry \(index + 1) is not its \(numerator) ÷ \(denominator) (\(rate.decimalText()))")
      }
      var rateDay: CalendarDay? = nil
      if let text = entry.rateDate {
        guard let parsed = CalendarDay(iso8601: text) else { throw fail("malformed rateDate in entry \(index + 1)") }
        rateDay = parsed
      }
      let key = RateKey(base: base, quote: quote, day: day)
      if let problem = problem(of: key, rate: rate, rateDay: rateDay, seen: quotes[key] != nil)
        ?? disagreement(of: key, rate: rate, rateDay: rateDay, isFallback: entry.fallback, source: entry.source)
      {
        throw fail("entry \(index + 1): \(problem); a version 1 lock has no digest: each rate is checked against its source")
      }
      quotes[key] = RateQuote(
        rate: ExchangeRate(numerator: numerator, denominator: denominator), rateText: entry.rate, rateDay: rateDay,
        isFallback: entry.fallback, source: entry.source)
    }
    return (quotes, defaultDay)
  }
}
