/// Converts records straight from a rate table (the embedded ECB history, `--rates FILE`, a fetched ECB feed, a
/// table lock) without a per-key answer, or from the answered quotes of a source that answers pairs
/// (``AnsweredQuotes``: Frankfurter, the calculator, a quotes lock): the per-record fast path of every source.
///
/// Everything it looks up is small and reused across records — the pair's columns (``QuoteBook/LegPlan``), the
/// publication row of each day, the table's cells as 64-bit integers — so a million records with 300,000
/// distinct (pair, day) keys stay in the processor's caches and in constant memory. The rate text, the
/// conversion and its rounding are computed per record in 64/128-bit integers.
///
/// It applies the same rules as ``RateTable/quote(for:maxStaleness:)`` behind
/// ``CurrencyLifecycle/route(for:)``, for the cases it handles: both currencies in use on the day (no changeover
/// applies), a published pair or a cross through the pivot, cells that fit 64 bits. For any other case
/// ``convert(base:quote:day:amount:)`` returns `nil` and the caller takes the general path, which also writes
/// every error.
///
/// Under answered quotes (``init(answers:rounding:)``) it converts a record whose key has an answer with the
/// answer's exact rate, and writes the answer's texts: the general rules decided the answer, the converter only
/// does its arithmetic in 64/128-bit integers.
struct TableConverter {
  let table: RateTable
  let rounding: RoundingMode
  /// The cells as significand and scale (scale `0xFF`: not published or too wide for the fast path;
  /// ``notLoaded``: not read yet; a row not loaded has no slot: see ``slotOfRow``).
  private var significands: [UInt64] = []
  private var scales: [UInt8] = []
  /// Each row's slot in ``significands``, ``scales`` and ``cellTexts`` (−1: not loaded): only the rows a file
  /// touches take memory.
  private var slotOfRow: [Int32]
  /// The rows loaded, and the rows whose day text is made, to let them go (``unloadRows()``).
  private var loadedRows: [Int32] = []
  private var rowsWithDayText: [Int32] = []
  /// The most cells loaded at once (17 bytes each, per thread): past it the rows loaded and their texts are let
  /// go and loaded again when asked. The ECB history (7,000 days × 40 pairs) never reaches it; a table of
  /// thousands of pairs would otherwise cost its width for every day a file touches.
  private static let loadedCellLimit = 1 << 20
  /// The most days before the table's last publication that ``rowByDay`` covers: a table whose days span from
  /// the year 1000 must not cost 4 bytes a day of its span per thread. Earlier days take the general path.
  private static let coveredDaySpan = 36_600
  private let width: Int
  /// The publication row of each day from ``firstDay``; −1 when the general rules decide (an error), −2 before
  /// the day is first asked.
  private var rowByDay: [Int32]
  private static let unknownRow: Int32 = -2
  private let firstDay: Int
  private let maxStaleness: Int
  private var plans: [QuoteBook.LegPlan?] = []
  /// Per plan: the first day either currency is not itself any more (`Int.max`: never), and the index of the
  /// quote currency's account.
  private var planEnds: [Int] = []
  private var planAccounts: [Int] = []
  private var planIndex = RateKeyIndex()
  /// Texts made on first use: each cell's `PIVOT/CUR=value` and each row's day, back to back.
  private var texts: [UInt8] = []
  private var cellTexts: [Int32] = []
  private var dayTexts: [Int32]
  private var identifiers: (early: [UInt8], later: [UInt8], from: Int)
  /// Each row's publication day (days since 1970), and whether the table is undated: the table's own arrays
  /// are shared by the copies on other threads, and touching them per record costs contended reference counts.
  private var rowDays: [Int]
  private let isUndated: Bool
  /// Per target currency seen, its reconciliation figures (merged into a ledger by ``flush(into:)``).
  private var accounts: [Account] = []
  private var accountByCurrency: [UInt32: Int] = [:]
  /// Whether records convert from ``answers`` rather than from ``table`` (then an empty table).
  private let convertsAnswers: Bool
  /// With several amounts per record (`--amount-field A,B,C`), their NAMEs in order: each target currency has an
  /// account per amount, handed to the ledger under its NAME (``flush(into:)``). Set before the first
  /// conversion; empty for one amount.
  var amountNames: [String] = [] {
    didSet { amountSlots = max(1, amountNames.count) }
  }
  /// Where the engine counts the records it converted through this converter (``BatchOptions/fastPathTally``);
  /// `nil` outside the tests that check a run took the fast path.
  var tally: FastPathTally? = nil
  /// How many accounts each target currency has: one per amount.
  private(set) var amountSlots = 1
  private var answers: AnsweredQuotes?
  /// ``answers``' entries, texts and key lookup, and per entry its account (−1: not made yet), held directly:
  /// read per record without unwrapping the optional.
  private var answerEntries: [AnsweredQuotes.Entry] = []
  private var answerTexts: [UInt8] = []
  /// ``answers``' key index, and each key's entry when the index is the run's keys (``AnsweredQuotes/byOwnKeys``
  /// when empty), read in place per record: reaching them through the optional ``answers`` copied it per record.
  private var answerIndex = Self.noKeys
  private var answerEntryOfKey: [Int32] = []
  private var answersByOwnKeys = false
  /// ``answers``' grid of its own keys, when they fill it (``AnsweredQuotes/grid``): found in it, not hashed.
  private var answerGrid = RateKeyGrid()
  private var answersByGrid = false
  /// For the table's own keys, a bit per entry: whether the fast path converts with it (``AnsweredQuotes/converts``).
  private var answerConverts: [UInt64] = []
  private static let noKeys = RateKeyIndex()
  /// Per quote currency's letters (``Self/letterIndex(_:)``), its first account (−1: none yet).
  private var accountOfQuote: [Int32] = []

  struct Account {
    let currency: CurrencyCode
    let minorUnits: Int
    var records = 0
    var roundedSum = WideSum()
    var streamed = StreamedTotal()
  }

  /// The result of one conversion.
  struct Conversion {
    let converted: ExactDecimal
    let row: Int
    /// The row's slot in the converter's cell arrays.
    let slot: Int
    let plan: Int
    let isFallback: Bool
    /// The rate as `numerator·10^(−numeratorScale) ÷ (denominator·10^(−denominatorScale))`.
    let numerator: UInt64
    let numeratorScale: Int
    let denominator: UInt64
    let denominatorScale: Int

    @inline(__always)
    init(_ rate: Located, converted: ExactDecimal) {
      self.converted = converted
      (row, slot, plan, isFallback) = (rate.row, rate.slot, rate.plan, rate.isFallback)
      (numerator, numeratorScale, denominator, denominatorScale) = (
        rate.numerator, rate.numeratorScale, rate.denominator, rate.denominatorScale
      )
    }
  }

  /// - Parameters:
  ///   - table: the run's table.
  ///   - maxStaleness: `--max-staleness`.
  init(table: RateTable, maxStaleness: Int, rounding: RoundingMode) {
    self.table = table
    self.rounding = rounding
    width = table.pairs.count
    // Rows and days are prepared on first use: a small file touches a few of the history's 7,000 days.
    slotOfRow = Array(repeating: -1, count: max(table.days.count, 1))
    rowDays = table.days.map(\.daysSinceEpoch)
    isUndated = table.isUndated
    self.maxStaleness = maxStaleness
    convertsAnswers = false
    if let first = table.days.first, let last = table.days.last {
      let covered = min(last.daysSinceEpoch - first.daysSinceEpoch + 1, Self.coveredDaySpan)
      firstDay = last.daysSinceEpoch - covered + 1
      // Days after the last publication use its row while within --max-staleness; the array covers ten years
      // of them at most (a huge --max-staleness must not allocate gigabytes): later days take the general path.
      let after = min(max(0, maxStaleness), 3_660)
      rowByDay = Array(repeating: Self.unknownRow, count: covered + after)
    } else {
      firstDay = 0
      rowByDay = []
    }
    dayTexts = Array(repeating: -1, count: max(table.days.count, 1) * 2)
    // Kept with readable bytes after them for ``ByteCursor/putShort(_:from:count:)``.
    let padding = repeatElement(UInt8(0), count: ByteCursor.wordCopyLimit)
    identifiers = (
      Array(table.identifier(for: nil).utf8) + padding,
      Array((table.laterSource?.identifier ?? table.info.identifier).utf8) + padding,
      table.laterSource?.from.daysSinceEpoch ?? Int.max
    )
  }

  /// A converter of answered quotes (see the type's description).
  init(answers: AnsweredQuotes, rounding: RoundingMode) {
    self.init(
      table: RateTable(info: RateSourceInfo(identifier: "", publisher: "", description: ""), pairs: [], days: [], values: []),
      maxStaleness: 0, rounding: rounding, convertsAnswers: true)
    self.answers = answers
    answerEntries = answers.entries
    answerTexts = answers.texts
    answerConverts = answers.converts
    accountOfQuote = Array(repeating: -1, count: 1 << 15)
    answerIndex = answers.index
    answerEntryOfKey = answers.entryOfKey
    answersByOwnKeys = answers.byOwnKeys
    if let grid = answers.grid {
      answerGrid = grid
      answersByGrid = true
    }
  }

  private init(table: RateTable, maxStaleness: Int, rounding: RoundingMode, convertsAnswers: Bool) {
    self.table = table
    self.rounding = rounding
    self.convertsAnswers = convertsAnswers
    width = 0
    slotOfRow = []
    rowDays = []
    isUndated = false
    self.maxStaleness = maxStaleness
    firstDay = 0
    rowByDay = []
    dayTexts = []
    identifiers = ([], [], Int.max)
  }

  /// Whether the table's source identifiers (or every answered quote's texts) may be written unescaped in a
  /// template's format.
  func textsAreSafe(in template: AnnotationTemplate) -> Bool {
    if let answers {
      return answers.textsAreSafe { template.allowsUnescaped($0) || ($0 == 32 && template.spaceIsPlain) }
    }
    return [identifiers.early, identifiers.later].allSatisfy {
      $0.dropLast(ByteCursor.wordCopyLimit).allSatisfy(template.allowsUnescaped)
    }
  }

  /// Converts an amount; `nil` when the general rules must decide (see the type's description).
  @inline(__always)
  mutating func convert(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay, amount: ExactDecimal) -> Conversion? {
    guard let rate = locate(base: base, quote: quote, day: day), let divided = divide(amount, rate: rate) else {
      return nil
    }
    record(divided, account: rate.account)
    return Conversion(rate, converted: divided.converted)
  }

  /// Converts a record's several amounts (`--amount-field A,B,C`) at its one rate, each rounded and added to
  /// its amount's account as ``convert(base:quote:day:amount:)`` does one; `nil` when the general rules must
  /// decide any of them (then none is added). The conversion's ``Conversion/converted`` is the first amount's.
  ///
  /// - Parameter converted: gets the converted amounts in order.
  @inline(__always)
  mutating func convert(
    base: CurrencyCode, quote: CurrencyCode, day: CalendarDay, amounts: InlineList<ExactDecimal>,
    converted: inout InlineList<ExactDecimal>
  ) -> Conversion? {
    guard amounts.count <= amountSlots, let rate = locate(base: base, quote: quote, day: day) else { return nil }
    var divided = InlineList<Divided>(filler: Divided())
    for index in 0..<amounts.count {
      guard let one = divide(amounts[index], rate: rate) else { return nil }
      _ = divided.append(one)
    }
    converted.removeAll()
    for index in 0..<divided.count {
      record(divided[index], account: rate.account + index)
      _ = converted.append(divided[index].converted)
    }
    return Conversion(rate, converted: divided[0].converted)
  }

  /// A record's rate: its key's row, plan and cells, and the account of its target currency (of its first
  /// amount; the next amounts' accounts follow it).
  struct Located {
    var row = 0
    var slot = 0
    var plan = 0
    var isFallback = false
    var numerator: UInt64 = 1
    var numeratorScale = 0
    var denominator: UInt64 = 1
    var denominatorScale = 0
    var minorUnits = 0
    var account = 0
  }

  /// The rate of a key; `nil` when the general rules must decide.
  @inline(__always)
  private mutating func locate(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) -> Located? {
    if convertsAnswers { return locateAnswered(base: base, quote: quote, day: day) }
    guard base != quote, !isUndated, let planNumber = plan(base: base, quote: quote),
      day.daysSinceEpoch < planEnds[planNumber]
    else { return nil }
    let offset = day.daysSinceEpoch - firstDay
    guard offset >= 0, offset < rowByDay.count else { return nil }
    var row = Int(rowByDay[offset])
    if row == Int(Self.unknownRow) {
      row = (try? table.publicationRow(for: day, maxStaleness: maxStaleness).get()) ?? -1
      rowByDay[offset] = Int32(row)
    }
    guard row >= 0, let plan = plans[planNumber] else { return nil }
    var slot = Int(slotOfRow[row])
    if slot < 0 { slot = load(row: row) }
    // rate = numerator ÷ denominator, each a product of published values: (nq·db) ÷ (dq·nb).
    let firstCell = slot * width + plan.first
    if scales[firstCell] == Self.notLoaded { loadCell(firstCell, row: row, column: plan.first) }
    guard scales[firstCell] != 0xFF else { return nil }
    var numerator: UInt64 = 1
    var numeratorScale = 0
    var denominator: UInt64 = 1
    var denominatorScale = 0
    if let second = plan.second {
      let secondCell = slot * width + second
      if scales[secondCell] == Self.notLoaded { loadCell(secondCell, row: row, column: second) }
      guard scales[secondCell] != 0xFF else { return nil }
      // toBase (first) inverted, then toQuote (second).
      if plan.firstInverted {
        numerator = significands[firstCell]
        numeratorScale = Int(scales[firstCell])
      } else {
        denominator = significands[firstCell]
        denominatorScale = Int(scales[firstCell])
      }
      if plan.secondInverted {
        let (product, overflow) = denominator.multipliedReportingOverflow(by: significands[secondCell])
        guard !overflow else { return nil }
        denominator = product
        denominatorScale += Int(scales[secondCell])
      } else {
        let (product, overflow) = numerator.multipliedReportingOverflow(by: significands[secondCell])
        guard !overflow else { return nil }
        numerator = product
        numeratorScale += Int(scales[secondCell])
      }
    } else if plan.firstInverted {
      denominator = significands[firstCell]
      denominatorScale = Int(scales[firstCell])
    } else {
      numerator = significands[firstCell]
      numeratorScale = Int(scales[firstCell])
    }
    return Located(
      row: row, slot: slot, plan: planNumber, isFallback: rowDays[row] != day.daysSinceEpoch, numerator: numerator,
      numeratorScale: numeratorScale, denominator: denominator, denominatorScale: denominatorScale,
      minorUnits: plan.minorUnits, account: planAccounts[planNumber])
  }

  /// ``locate(base:quote:day:)`` of a key's answered quote; the rate's ``Located/row`` is the answer's entry.
  @inline(__always)
  private mutating func locateAnswered(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) -> Located? {
    let index: Int
    if answersByGrid {
      guard let found = answerGrid.index(base: base, quote: quote, day: day) else { return nil }
      index = found
    } else {
      guard let packed = RateKeyIndex.pack(base: base, quote: quote, day: day),
        let found = answerIndex.index(of: packed)
      else { return nil }
      index = answersByOwnKeys ? found : Int(answerEntryOfKey[found])
      guard index >= 0 else { return nil }
    }
    // A key of the table's own is converted only when its answer fits and stands (``AnsweredQuotes/converts``).
    guard !answersByOwnKeys || answerConverts[index &>> 6] &>> UInt64(index & 63) & 1 == 1 else { return nil }
    let entry = answerEntries[index]
    var account = Int(accountOfQuote[Self.letterIndex(entry.quoteLetters)])
    if account < 0 || accounts[account].currency.packed != entry.quoteLetters {
      account = answerAccount(of: entry)
    }
    return Located(
      row: index, slot: 0, plan: -1, isFallback: entry.isFallback, numerator: entry.numerator,
      numeratorScale: Int(entry.numeratorScale), denominator: entry.denominator,
      denominatorScale: Int(entry.denominatorScale), minorUnits: Int(entry.minorUnits), account: account)
  }

  /// The first account of an entry's quote currency, added when it is new.
  private mutating func answerAccount(of entry: AnsweredQuotes.Entry) -> Int {
    let account: Int
    if let known = accountByCurrency[entry.quoteLetters] {
      account = known
    } else {
      account = addAccounts(currency: CurrencyCode(packed: entry.quoteLetters), minorUnits: Int(entry.minorUnits))
      accountByCurrency[entry.quoteLetters] = account
    }
    let letters = Self.letterIndex(entry.quoteLetters)
    if accountOfQuote[letters] < 0 { accountOfQuote[letters] = Int32(account) }
    return account
  }

  /// A currency's place in ``accountOfQuote``: five bits of each letter (codes that are not three letters A–Z may
  /// share a place: the account's currency is checked).
  @inline(__always)
  private static func letterIndex(_ packed: UInt32) -> Int {
    Int((packed >> 6) & 0x7C00 | (packed >> 3) & 0x3E0 | packed & 0x1F)
  }

  /// Adds a target currency's accounts, one per amount (``amountSlots``), and returns the first one's index.
  private mutating func addAccounts(currency: CurrencyCode, minorUnits: Int) -> Int {
    let first = accounts.count
    for _ in 0..<amountSlots { accounts.append(Account(currency: currency, minorUnits: minorUnits)) }
    return first
  }

  /// An amount divided at a rate and rounded (``divide(_:rate:)``), with what its account needs.
  struct Divided {
    var converted = ExactDecimal.zero
    var negative = false
    var quotient: UInt128 = 0
    var remainder: UInt128 = 0
    var divisor: UInt128 = 1
  }

  /// `amount × numerator·10^(−numeratorScale) ÷ (denominator·10^(−denominatorScale))` rounded once to
  /// `minorUnits` decimals, as ``ExchangeRate/convert(_:minorUnits:rounding:)``; `nil` when 128 bits do not
  /// suffice (the general path then converts the record). Nothing is added to an account.
  @inline(__always)
  private func divide(_ amount: ExactDecimal, rate: Located) -> Divided? {
    let (numerator, numeratorScale) = (rate.numerator, rate.numeratorScale)
    let (denominator, denominatorScale) = (rate.denominator, rate.denominatorScale)
    let minorUnits = rate.minorUnits
    // result × 10^m = a·n·10^(sd + m) ÷ (d·10^(sa + sn))
    let exponent = denominatorScale + minorUnits - amount.scale - numeratorScale
    guard exponent > -20, exponent < 20 else { return nil }
    let magnitude = amount.significand.magnitude
    let (product, overflowProduct) = magnitude.multipliedReportingOverflow(by: UInt128(word: numerator))
    let (dividend, overflowDividend) = product.multipliedReportingOverflow(
      by: exponent > 0 ? ExactDecimal.powerOfTen(exponent) : 1)
    let (divisor, overflowDivisor) = UInt128(word: denominator).multipliedReportingOverflow(
      by: exponent < 0 ? ExactDecimal.powerOfTen(-exponent) : 1)
    guard !overflowProduct, !overflowDividend, !overflowDivisor else { return nil }
    let quotient: UInt128
    let remainder: UInt128
    if divisor <= UInt128(word: .max), dividend >> 64 < divisor {
      let (q, r) = UInt64(divisor).dividingFullWidthOnce(
        (UInt64(truncatingIfNeeded: dividend >> 64), UInt64(truncatingIfNeeded: dividend)))
      quotient = UInt128(word: q)
      remainder = UInt128(word: r)
    } else {
      (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
    }
    let comparison = remainder < divisor - remainder ? -1 : (remainder > divisor - remainder ? 1 : 0)
    var rounded = quotient
    if rounding.roundsAwayFromZero(
      remainderComparedToHalf: comparison, remainderIsZero: remainder == 0, quotientIsOdd: quotient & 1 == 1)
    {
      rounded += 1
    }
    guard rounded < ExactDecimal.powerOfTen(ExactDecimal.maximumDigits) else { return nil }
    let negative = amount.significand < 0
    let converted = ExactDecimal(significand: negative ? -Int128(rounded) : Int128(rounded), scale: minorUnits)
    return Divided(converted: converted, negative: negative, quotient: quotient, remainder: remainder, divisor: divisor)
  }

  /// The scale of a cell not read from the table yet.
  private static let notLoaded: UInt8 = 0xFE

  /// Gives a row a new slot of ``significands`` and ``scales``, its cells read from the table when first used
  /// (``loadCell(_:row:column:)``): a row of a table of thousands of pairs costs a fill, not a read of each.
  ///
  /// - Returns: the slot.
  private mutating func load(row: Int) -> Int {
    if significands.count + width > Self.loadedCellLimit { unloadRows() }
    let slot = significands.count / max(width, 1)
    loadedRows.append(Int32(row))
    // Filled from arrays (not `repeatElement`, which a debug build appends element by element).
    significands.append(contentsOf: [UInt64](repeating: 0, count: width))
    scales.append(contentsOf: [UInt8](repeating: Self.notLoaded, count: width))
    cellTexts.append(contentsOf: [Int32](repeating: -1, count: 2 * width))
    slotOfRow[row] = Int32(slot)
    return slot
  }

  /// Reads a cell of a loaded row from the table: its significand and scale, or scale `0xFF` (not published, or
  /// too wide for the fast path).
  private mutating func loadCell(_ cell: Int, row: Int, column: Int) {
    if let value = table.values[row * width + column], value.significand > 0,
      value.significand <= Int128(UInt64.max >> 8)
    {
      significands[cell] = UInt64(value.significand)
      scales[cell] = UInt8(value.scale)
    } else {
      scales[cell] = 0xFF
    }
  }

  /// Lets every loaded row and every text go (``loadedCellLimit``); a conversion made before is not used after:
  /// each is written before the next record converts.
  private mutating func unloadRows() {
    for row in loadedRows { slotOfRow[Int(row)] = -1 }
    for row in rowsWithDayText {
      dayTexts[2 * Int(row)] = -1
      dayTexts[2 * Int(row) + 1] = -1
    }
    loadedRows.removeAll(keepingCapacity: true)
    rowsWithDayText.removeAll(keepingCapacity: true)
    significands.removeAll(keepingCapacity: true)
    scales.removeAll(keepingCapacity: true)
    cellTexts.removeAll(keepingCapacity: true)
    texts.removeAll(keepingCapacity: true)
  }

  /// Adds a divided amount to an account.
  @inline(__always)
  private mutating func record(_ divided: Divided, account index: Int) {
    accounts[index].records += 1
    accounts[index].roundedSum.add(divided.converted.significand)
    accounts[index].streamed.add(
      negative: divided.negative, quotient: divided.quotient, remainder: divided.remainder, divisor: divided.divisor)
  }

  /// Gives this copy its own buffers for everything it reads per record (before it runs on another thread
  /// than the value it was copied from, so the threads do not contend for the same reference counts).
  mutating func makeUnique() {
    // `map` makes new storage (an assignment would share the old).
    func copy<Element>(_ array: [Element]) -> [Element] { array.map { $0 } }
    significands = copy(significands)
    scales = copy(scales)
    slotOfRow = copy(slotOfRow)
    loadedRows = copy(loadedRows)
    rowsWithDayText = copy(rowsWithDayText)
    rowByDay = copy(rowByDay)
    rowDays = copy(rowDays)
    plans = copy(plans)
    planEnds = copy(planEnds)
    planAccounts = copy(planAccounts)
    accounts = copy(accounts)
    texts = copy(texts)
    cellTexts = copy(cellTexts)
    dayTexts = copy(dayTexts)
    identifiers = (copy(identifiers.early), copy(identifiers.later), identifiers.from)
    // The answered entries, texts, key index and grid are read, never written, and stay shared: a copy per part
    // would cost over 60 bytes per key.
    answerEntryOfKey = copy(answerEntryOfKey)
    accountOfQuote = copy(accountOfQuote)
  }

  /// Hands the reconciliation figures of the records converted so far to a ledger, and starts afresh.
  mutating func flush(into ledger: inout ReconciliationLedger) {
    for index in accounts.indices {
      let account = accounts[index]
      guard account.records > 0 else { continue }
      ledger.add(
        records: account.records, roundedSum: account.roundedSum, streamed: account.streamed, currency: account.currency,
        name: amountNames.isEmpty ? nil : amountNames[index % amountSlots])
      accounts[index] = Account(currency: account.currency, minorUnits: account.minorUnits)
    }
  }

  /// The index of a pair's plan in ``plans`` (whose entry is `nil` when the general rules decide).
  @inline(__always)
  private mutating func plan(base: CurrencyCode, quote: CurrencyCode) -> Int? {
    guard let packed = RateKeyIndex.pack(base: base, quote: quote, day: CalendarDay(daysSinceEpoch: 0)) else { return nil }
    if let found = planIndex.index(of: packed) { return found }
    planIndex.insert(packed)
    let plan = QuoteBook.plan(for: CurrencyPair(base: base, quote: quote), in: table)
    plans.append(plan)
    planEnds.append(
      min(
        CurrencyLifecycle.endOfUse(of: base)?.daysSinceEpoch ?? Int.max,
        CurrencyLifecycle.endOfUse(of: quote)?.daysSinceEpoch ?? Int.max))
    if let account = accountByCurrency[quote.packed] {
      planAccounts.append(account)
    } else {
      let account = addAccounts(
        currency: quote, minorUnits: plan?.minorUnits ?? ISO4217.currency(for: quote)?.minorUnits ?? 2)
      accountByCurrency[quote.packed] = account
      planAccounts.append(account)
    }
    return plans.count - 1
  }

  // MARK: Texts

  /// The most bytes ``appendAnnotation(_:template:to:)`` writes besides the template and the source identifier:
  /// rate text (64), converted amount (42), currency (3), day (10), two cell texts (2 × 64), status (8), and the
  /// word copies' overrun (``ByteCursor/wordCopyLimit``).
  private static let annotationValueBound = 64 + 42 + 3 + 10 + 2 * 64 + 8 + ByteCursor.wordCopyLimit

  /// Writes the rate text of a conversion at a cursor: ``ExchangeRate/decimalText(significantDigits:)`` with 10
  /// digits, computed in 64/128-bit integers (the general function when they do not suffice; its text fits the
  /// 64 bytes reserved for it).
  @inline(__always)
  func writeRateText(_ conversion: Conversion, to cursor: inout ByteCursor) {
    let n = conversion.numerator
    let d = conversion.denominator
    let sn = conversion.numeratorScale
    let sd = conversion.denominatorScale
    let significantDigits = 10
    let estimate = (ExactDecimal.digitCount(n) - sn) - (ExactDecimal.digitCount(d) - sd)
    var decimals = min(max(significantDigits - estimate, 0), ExactDecimal.maximumDigits)
    while sd + decimals <= 38, sn <= 19 {
      let (dividend, overflowDividend) = UInt128(word: n).multipliedReportingOverflow(by: ExactDecimal.powerOfTen(sd + decimals))
      let (divisor, overflowDivisor) = UInt128(word: d).multipliedReportingOverflow(by: ExactDecimal.powerOfTen(sn))
      guard !overflowDividend, !overflowDivisor else { break }
      let quotient: UInt128
      let remainder: UInt128
      if divisor <= UInt128(word: .max), dividend >> 64 < divisor {
        let (q, r) = UInt64(divisor).dividingFullWidthOnce(
          (UInt64(truncatingIfNeeded: dividend >> 64), UInt64(truncatingIfNeeded: dividend)))
        (quotient, remainder) = (UInt128(word: q), UInt128(word: r))
      } else {
        (quotient, remainder) = dividend.quotientAndRemainder(dividingBy: divisor)
      }
      let comparison = remainder < divisor - remainder ? -1 : (remainder > divisor - remainder ? 1 : 0)
      var rounded = quotient
      if comparison > 0 || (comparison == 0 && quotient & 1 == 1) { rounded += 1 }
      guard rounded <= UInt128(word: .max) else { break }
      // A rate that rounds to zero here is written by the general function (in scientific notation).
      guard rounded > 0 else { break }
      var value = UInt64(rounded)
      if decimals > 0, ExactDecimal.digitCount(value) > significantDigits {
        decimals -= 1
        continue
      }
      while decimals > 0, value % 10 == 0 {
        value /= 10
        decimals -= 1
      }
      cursor.put(ExactDecimal(significand: Int128(value), scale: decimals))
      return
    }
    if let rate = rate(conversion) {
      cursor.put(Array(rate.decimalText().utf8.prefix(64)))
    }
  }

  /// The exact rate of a conversion.
  func rate(_ conversion: Conversion) -> ExchangeRate? {
    if convertsAnswers {
      return ExchangeRate(
        numerator: ExactDecimal(significand: Int128(conversion.numerator), scale: conversion.numeratorScale),
        denominator: ExactDecimal(significand: Int128(conversion.denominator), scale: conversion.denominatorScale))
    }
    return plans[conversion.plan]?.rate(row: conversion.row, in: table)
  }

  /// Appends a conversion's annotation values in a format's template (``AnnotationTemplate``): the rate, the
  /// converted amount, the quote currency, the rate date, the source with the published rates used, the status
  /// and the empty error.
  ///
  /// One reservation in the buffer, then word copies of the short texts (the template, the table's texts and
  /// identifiers are kept with ``ByteCursor/wordCopyLimit`` readable bytes after them).
  @inline(__always)
  mutating func appendAnnotation(_ conversion: Conversion, template: AnnotationTemplate, to bytes: inout ByteBuffer) {
    appendAnnotation(conversion, count: 1, amount: { _ in conversion.converted }, template: template, to: &bytes)
  }

  /// ``appendAnnotation(_:template:to:)`` of a record of several amounts: `converted` in the template's converted
  /// slots (``AnnotationTemplate/amountCount``, as many as `converted` holds), the other values as for one.
  @inline(__always)
  mutating func appendAnnotation(
    _ conversion: Conversion, converted: InlineList<ExactDecimal>, template: AnnotationTemplate,
    to bytes: inout ByteBuffer
  ) {
    appendAnnotation(
      conversion, count: converted.count, amount: { converted[$0] }, template: template, to: &bytes)
  }

  /// ``appendAnnotation(_:template:to:)`` of `count` converted amounts (`amount(i)`, in the template's converted
  /// slots): the one writer of both, so one amount and several are written by one rule (with one amount,
  /// `count` is the constant 1 and the loops fold away).
  @inline(__always)
  private mutating func appendAnnotation(
    _ conversion: Conversion, count: Int, amount: (Int) -> ExactDecimal, template: AnnotationTemplate,
    to bytes: inout ByteBuffer
  ) {
    let amountsBound = count * ExactDecimal.maximumTextLength
    if convertsAnswers {
      let entry = answerEntries[conversion.row]
      let bound =
        template.bytes.count + Int(entry.rateText.count) + Int(entry.dayText.count) + Int(entry.sourceText.count)
        + amountsBound + 3 + 8 + 4 * ByteCursor.wordCopyLimit
      let letters = entry.quoteLetters
      bytes.append(maximum: bound, copyingFrom: template.bytes, answerTexts) { cursor, pieces, texts in
        cursor.putPiece(0, of: template, from: pieces)
        cursor.putShort(texts, from: Int(entry.rateText.start), count: Int(entry.rateText.count))
        for index in 0..<count {
          cursor.putPiece(1 + index, of: template, from: pieces)
          cursor.put(amount(index))
        }
        cursor.putPiece(count + 1, of: template, from: pieces)
        Self.putCurrency(letters, to: &cursor)
        cursor.putPiece(count + 2, of: template, from: pieces)
        cursor.putShort(texts, from: Int(entry.dayText.start), count: Int(entry.dayText.count))
        cursor.putPiece(count + 3, of: template, from: pieces)
        cursor.putShort(texts, from: Int(entry.sourceText.start), count: Int(entry.sourceText.count))
        cursor.putPiece(count + 4, of: template, from: pieces)
        Self.putStatus(isFallback: entry.isFallback, to: &cursor)
        cursor.putPiece(count + 5, of: template, from: pieces)
        cursor.putPiece(count + 6, of: template, from: pieces)
      }
      return
    }
    guard let plan = plans[conversion.plan] else { return }
    let firstText = cellText(slot: conversion.slot, row: conversion.row, column: plan.first)
    var secondText = (start: 0, length: 0)
    if let second = plan.second { secondText = cellText(slot: conversion.slot, row: conversion.row, column: second) }
    let dayText = dayText(row: conversion.row)
    let later = rowDays[conversion.row] >= identifiers.from
    let identifier = later ? identifiers.later : identifiers.early
    let identifierLength = identifier.count - ByteCursor.wordCopyLimit
    let bound = template.bytes.count + identifierLength + Self.annotationValueBound + amountsBound
    let isFallback = conversion.isFallback
    let letters = plan.quote.packed
    let hasSecond = plan.second != nil
    bytes.append(maximum: bound, copyingFrom: template.bytes, texts, identifier) { cursor, pieces, texts, identifier in
      cursor.putPiece(0, of: template, from: pieces)
      writeRateText(conversion, to: &cursor)
      for index in 0..<count {
        cursor.putPiece(1 + index, of: template, from: pieces)
        cursor.put(amount(index))
      }
      cursor.putPiece(count + 1, of: template, from: pieces)
      Self.putCurrency(letters, to: &cursor)
      cursor.putPiece(count + 2, of: template, from: pieces)
      cursor.putShort(texts, from: dayText.start, count: dayText.length)
      cursor.putPiece(count + 3, of: template, from: pieces)
      cursor.putShort(identifier, from: 0, count: identifierLength)
      cursor.put(UInt8(ascii: " "))
      cursor.putShort(texts, from: firstText.start, count: firstText.length)
      if hasSecond {
        cursor.put(UInt8(ascii: " "))
        cursor.putShort(texts, from: secondText.start, count: secondText.length)
      }
      cursor.putPiece(count + 4, of: template, from: pieces)
      Self.putStatus(isFallback: isFallback, to: &cursor)
      cursor.putPiece(count + 5, of: template, from: pieces)
      cursor.putPiece(count + 6, of: template, from: pieces)
    }
  }

  /// Where each of a conversion's annotation values ends in the buffer ``appendValues(_:to:)`` appended them to
  /// (each starts where the one before ends), and the rate day when the converter knows it as a day.
  struct ValueEnds {
    var rate = 0
    var converted = 0
    var currency = 0
    var day = 0
    var source = 0
    var status = 0
    var rateDay: CalendarDay? = nil
  }

  /// Appends a conversion's annotation values one after the other, for a format that writes each into a place
  /// of its own (a workbook's cells) rather than through one template: the same texts as
  /// ``appendAnnotation(_:template:to:)`` (the rate, the converted amount, the quote currency, the rate date,
  /// the source with the published rates used, the status), and where each ends.
  mutating func appendValues(_ conversion: Conversion, to bytes: inout ByteBuffer) -> ValueEnds {
    appendValues(conversion, to: &bytes) { bytes in
      bytes.append(maximum: ExactDecimal.maximumTextLength) { $0.put(conversion.converted) }
    }
  }

  /// ``appendValues(_:to:)`` of a record of several amounts: `converted` in place of the one
  /// (``convert(base:quote:day:amounts:converted:)``); `convertedEnds` gets where each ends (``ValueEnds/converted``
  /// is the last one's end).
  mutating func appendValues(
    _ conversion: Conversion, converted: InlineList<ExactDecimal>, convertedEnds: inout InlineList<Int>,
    to bytes: inout ByteBuffer
  ) -> ValueEnds {
    convertedEnds.removeAll()
    return appendValues(conversion, to: &bytes) { bytes in
      for index in 0..<converted.count {
        let amount = converted[index]
        bytes.append(maximum: ExactDecimal.maximumTextLength) { $0.put(amount) }
        _ = convertedEnds.append(bytes.count)
      }
    }
  }

  /// ``appendValues(_:to:)``, the converted amounts written by `appendConverted`.
  @inline(__always)
  private mutating func appendValues(
    _ conversion: Conversion, to bytes: inout ByteBuffer, converted appendConverted: (inout ByteBuffer) -> Void
  ) -> ValueEnds {
    var ends = ValueEnds()
    /// Appends `count` bytes of `texts` from `start`.
    func append(_ texts: [UInt8], _ start: Int, _ count: Int) {
      texts.withUnsafeBufferPointer { bytes.append(UnsafeBufferPointer(rebasing: $0[start..<(start + count)])) }
    }
    if convertsAnswers {
      let entry = answerEntries[conversion.row]
      append(answerTexts, Int(entry.rateText.start), Int(entry.rateText.count))
      ends.rate = bytes.count
      appendConverted(&bytes)
      ends.converted = bytes.count
      bytes.append(maximum: 3) { Self.putCurrency(entry.quoteLetters, to: &$0) }
      ends.currency = bytes.count
      append(answerTexts, Int(entry.dayText.start), Int(entry.dayText.count))
      ends.day = bytes.count
      append(answerTexts, Int(entry.sourceText.start), Int(entry.sourceText.count))
      ends.source = bytes.count
      bytes.append(maximum: 8) { Self.putStatus(isFallback: entry.isFallback, to: &$0) }
      ends.status = bytes.count
      return ends
    }
    guard let plan = plans[conversion.plan] else { return ends }
    let firstText = cellText(slot: conversion.slot, row: conversion.row, column: plan.first)
    var secondText = (start: 0, length: 0)
    if let second = plan.second { secondText = cellText(slot: conversion.slot, row: conversion.row, column: second) }
    let dayText = dayText(row: conversion.row)
    let identifier = rowDays[conversion.row] >= identifiers.from ? identifiers.later : identifiers.early
    // 64 bytes for the rate text, as in appendAnnotation(_:template:to:).
    bytes.append(maximum: 64) { writeRateText(conversion, to: &$0) }
    ends.rate = bytes.count
    appendConverted(&bytes)
    ends.converted = bytes.count
    bytes.append(maximum: 3) { Self.putCurrency(plan.quote.packed, to: &$0) }
    ends.currency = bytes.count
    append(texts, dayText.start, dayText.length)
    ends.day = bytes.count
    ends.rateDay = CalendarDay(daysSinceEpoch: rowDays[conversion.row])
    append(identifier, 0, identifier.count - ByteCursor.wordCopyLimit)
    bytes.append(UInt8(ascii: " "))
    append(texts, firstText.start, firstText.length)
    if plan.second != nil {
      bytes.append(UInt8(ascii: " "))
      append(texts, secondText.start, secondText.length)
    }
    ends.source = bytes.count
    bytes.append(maximum: 8) { Self.putStatus(isFallback: conversion.isFallback, to: &$0) }
    ends.status = bytes.count
    return ends
  }

  /// Writes a currency's three letters (``CurrencyCode/packed``).
  @inline(__always)
  private static func putCurrency(_ letters: UInt32, to cursor: inout ByteCursor) {
    cursor.put(UInt8(truncatingIfNeeded: letters >> 16))
    cursor.put(UInt8(truncatingIfNeeded: letters >> 8))
    cursor.put(UInt8(truncatingIfNeeded: letters))
  }

  /// Writes `fallback` or `ok` (``RowOutcome/status``).
  @inline(__always)
  private static func putStatus(isFallback: Bool, to cursor: inout ByteCursor) {
    if isFallback {
      cursor.putWord(0x6B63_6162_6C6C_6166, count: 8)  // "fallback"
    } else {
      cursor.putWord(0x6B6F, count: 2)  // "ok"
    }
  }

  /// A cell's `PIVOT/CUR=value` text in ``texts`` (made on first use).
  @inline(__always)
  private mutating func cellText(slot: Int, row: Int, column: Int) -> (start: Int, length: Int) {
    let cell = slot * width + column
    let known = (Int(cellTexts[2 * cell]), Int(cellTexts[2 * cell + 1]))
    if known.0 >= 0 { return known }
    let start = addText(QuoteBook.LegPlan.cellText(row: row, column: column, in: table))
    let length = texts.count - ByteCursor.wordCopyLimit - start
    cellTexts[2 * cell] = Int32(start)
    cellTexts[2 * cell + 1] = Int32(length)
    return (start, length)
  }

  /// A row's day text, `YYYY-MM-DD`, in ``texts`` (made on first use).
  @inline(__always)
  private mutating func dayText(row: Int) -> (start: Int, length: Int) {
    let known = (Int(dayTexts[2 * row]), Int(dayTexts[2 * row + 1]))
    if known.0 >= 0 { return known }
    let start = addText(table.days[row].description)
    let length = texts.count - ByteCursor.wordCopyLimit - start
    dayTexts[2 * row] = Int32(start)
    dayTexts[2 * row + 1] = Int32(length)
    rowsWithDayText.append(Int32(row))
    return (start, length)
  }

  /// Appends a text (at most 64 bytes kept) to ``texts``, which always ends with ``ByteCursor/wordCopyLimit``
  /// zero bytes, and returns where it starts.
  private mutating func addText(_ text: String) -> Int {
    if texts.count >= ByteCursor.wordCopyLimit { texts.removeLast(ByteCursor.wordCopyLimit) }
    let start = texts.count
    texts.append(contentsOf: text.utf8.prefix(64))
    texts.append(contentsOf: repeatElement(0, count: ByteCursor.wordCopyLimit))
    return start
  }
}
