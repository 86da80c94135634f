/// The answer to every distinct rate key of a run, looked up by the key's index in pass 2.
///
/// Keys a local rate table answers with its own published rates (the embedded ECB history, `--rates FILE`) are
/// kept as a few integers each — the publication row, the pair's leg plan, the rate text — and their rate and
/// `fx_source` text are formed from the table's cells when a record is written; a million records with
/// 300,000 distinct (pair, day) keys then need a few megabytes, not a `RateQuote` with its strings per key.
/// Every other key (a provider's, a lock file's, a currency with a lifecycle change, an error) keeps the answer
/// the general rules resolved, as a record of an ``AnswerTable`` (a ``RateQuote`` is formed from it when a record
/// takes the general path).
struct QuoteBook {
  /// How a table answer's rate is formed from the table's columns (the same for every day of a pair).
  struct LegPlan {
    /// The published pair's column (a direct rate), or the pivot → base column (a cross rate).
    let first: Int
    let firstInverted: Bool
    /// The pivot → quote column of a cross rate; `nil` for a direct rate.
    let second: Int?
    let secondInverted: Bool
    /// The quote currency and its ISO 4217 minor units.
    let quote: CurrencyCode
    let minorUnits: Int

    /// The exact rate on a row of the table, as ``RateTable/quote(for:maxStaleness:)`` forms it; `nil` when a cell
    /// is not published (the general rules then say why) or the cross rate overflows.
    func rate(row: Int, in table: RateTable) -> ExchangeRate? {
      let width = table.pairs.count
      guard let firstValue = table.values[row * width + first] else { return nil }
      let firstRate =
        firstInverted ? ExchangeRate(numerator: .one, denominator: firstValue) : ExchangeRate(numerator: firstValue)
      guard let second else { return firstRate }
      guard let secondValue = table.values[row * width + second] else { return nil }
      let secondRate =
        secondInverted ? ExchangeRate(numerator: .one, denominator: secondValue) : ExchangeRate(numerator: secondValue)
      return firstRate.inverted.chained(with: secondRate)
    }

    /// A leg's `fx_source` text, `PIVOT/CUR=value` (the published pair of the cell as written by the table).
    static func cellText(row: Int, column: Int, in table: RateTable) -> String {
      let pair = table.pairs[column]
      return "\(pair.base)/\(pair.quote)=\(table.values[row * table.pairs.count + column].map(\.description) ?? "")"
    }
  }

  /// One key's answer from a table: its publication row, leg plan, and rate text in ``texts``.
  struct TableAnswer {
    let row: Int32
    let plan: UInt16
    let isFallback: Bool
    let textStart: Int32
    let textLength: UInt8
  }

  enum Answer {
    case table(TableAnswer)
    /// A record of ``general`` (−1: none).
    case general(Int32)
  }

  let keys: RateKeyIndex
  private(set) var answers: [Answer] = []
  private(set) var general = AnswerTable()
  /// The table the ``Answer/table(_:)`` answers come from.
  let table: RateTable?
  private(set) var plans: [LegPlan] = []
  /// Rate texts, back to back.
  private(set) var texts: [UInt8] = []
  /// Answers a key that was not collected (a record of a file whose keys the table answers as they come).
  private let onDemand: ((RateKey) -> Result<RateQuote, RowError>)?
  /// The table's identifier before and after ``RateTable/laterSource`` takes over, as UTF-8.
  private let identifiers: (early: [UInt8], later: [UInt8], from: CalendarDay?)
  /// The general answers as the fast path reads them (``TableConverter/init(answers:rounding:)``), when asked
  /// for (`answering`).
  private(set) var answered: AnsweredQuotes? = nil

  /// Answers every key (the general ones through `resolveGeneral`).
  ///
  /// - Parameters:
  ///   - keys: the run's distinct keys.
  ///   - table: the local table of the run, or `nil` (a provider or a lock file): then every key goes through
  ///     `resolveGeneral`.
  ///   - maxStaleness: `--max-staleness`.
  ///   - onDemand: answers a key that is not in `keys` (a CSV file's records under a table source are not collected:
  ///     they are converted by ``TableConverter``, and only a record it leaves to the general rules asks).
  ///   - answering: whether to make ``answered`` (a run without a table, on the fast path).
  ///   - lockAnswers: ``answered`` when given (a frozen run's lock, whose keys pass 1 does not collect).
  ///   - resolveGeneral: answers the keys a table does not answer with its own plan (or all of them).
  init(
    keys: RateKeyIndex, table: RateTable?, maxStaleness: Int,
    onDemand: ((RateKey) -> Result<RateQuote, RowError>)? = nil, answering: Bool = false,
    answered lockAnswers: AnsweredQuotes? = nil, resolveGeneral: (RateKeyIndex) -> AnswerTable
  ) {
    self.keys = keys
    self.table = table
    self.onDemand = onDemand
    if let table {
      identifiers = (
        Array(table.identifier(for: nil).utf8),
        Array(table.identifier(for: table.laterSource?.from).utf8), table.laterSource?.from
      )
    } else {
      identifiers = ([], [], nil)
    }
    var generalKeys: [Int] = []
    if let table {
      answers.reserveCapacity(keys.count)
      var planByPair: [UInt64: Int] = [:]  // −1: no plan
      var rowByDay: [Int: Int] = [:]  // −1: the general rules decide
      var endOfUse: [UInt32: CalendarDay?] = [:]
      for index in 0..<keys.count {
        let key = keys.key(at: index)
        let pair = key.pair
        let inUse = { (code: CurrencyCode) -> Bool in
          let end: CalendarDay?
          if let known = endOfUse[code.packed] {
            end = known
          } else {
            end = CurrencyLifecycle.endOfUse(of: code)
            endOfUse[code.packed] = end
          }
          return end.map { key.day < $0 } ?? true
        }
        guard pair.base != pair.quote, inUse(pair.base), inUse(pair.quote) else {
          answers.append(.general(-1))
          generalKeys.append(index)
          continue
        }
        let pairKey = UInt64(pair.base.packed) << 32 | UInt64(pair.quote.packed)
        let planIndex: Int
        if let found = planByPair[pairKey] {
          planIndex = found
        } else {
          if let plan = Self.plan(for: pair, in: table) {
            plans.append(plan)
            planIndex = plans.count - 1
          } else {
            planIndex = -1
          }
          planByPair[pairKey] = planIndex
        }
        let row: Int
        if table.isUndated {
          row = 0
        } else if let found = rowByDay[key.day.daysSinceEpoch] {
          row = found
        } else {
          row = (try? table.publicationRow(for: key.day, maxStaleness: maxStaleness).get()) ?? -1
          rowByDay[key.day.daysSinceEpoch] = row
        }
        guard planIndex >= 0, row >= 0, planIndex <= Int(UInt16.max), let rate = plans[planIndex].rate(row: row, in: table)
        else {
          answers.append(.general(-1))
          generalKeys.append(index)
          continue
        }
        let start = texts.count
        texts.append(contentsOf: rate.decimalText().utf8)
        answers.append(
          .table(
            TableAnswer(
              row: Int32(row), plan: UInt16(planIndex),
              isFallback: !table.isUndated && table.days[row] != key.day,
              textStart: Int32(start), textLength: UInt8(texts.count - start))))
      }
    }
    if table == nil {
      // Every key is general: its answer is the general table's record of it, found by the key (no list of
      // positions per key beside the table's own index).
      general = resolveGeneral(keys)
      if answering, let lockAnswers {
        answered = lockAnswers
      } else if answering, general.count == keys.count {
        // The table answers the run's keys and no others (it holds every one of them).
        answered = AnsweredQuotes(table: general)
      } else if answering {
        let (general, keys) = (general, keys)
        answered = AnsweredQuotes(keys: keys, table: general) { general.record(packed: keys.packedKeys[$0]) }
      }
      return
    } else {
      var asked = RateKeyIndex()
      asked.reserveCapacity(generalKeys.count)
      for index in generalKeys { asked.insert(keys.packedKeys[index]) }
      general = resolveGeneral(asked)
    }
    for index in generalKeys {
      answers[index] = .general(Int32(general.record(packed: keys.packedKeys[index]) ?? -1))
    }
    if answering, let lockAnswers {
      answered = lockAnswers
    } else if answering {
      let answers = answers
      answered = AnsweredQuotes(keys: keys, table: general) { index in
        guard case .general(let position) = answers[index], position >= 0 else { return nil }
        return Int(position)
      }
    }
  }

  /// The columns a pair's rate comes from, as ``RateTable/quote(for:maxStaleness:)`` picks them: a published
  /// pair either way round, else a cross through the pivot. The columns are recorded in the table's
  /// ``RateTable/usage``.
  static func plan(for pair: CurrencyPair, in table: RateTable) -> LegPlan? {
    let plan = unrecordedPlan(for: pair, in: table)
    if let plan, let usage = table.usage { usage.mark(columns: [plan.first] + (plan.second.map { [$0] } ?? [])) }
    return plan
  }

  private static func unrecordedPlan(for pair: CurrencyPair, in table: RateTable) -> LegPlan? {
    func leg(from base: CurrencyCode, to quote: CurrencyCode) -> (Int, Bool)? {
      if let column = table.columnByPair[CurrencyPair(base: base, quote: quote)] { return (column, false) }
      if let column = table.columnByPair[CurrencyPair(base: quote, quote: base)] { return (column, true) }
      return nil
    }
    if let direct = leg(from: pair.base, to: pair.quote) {
      return LegPlan(
        first: direct.0, firstInverted: direct.1, second: nil, secondInverted: false, quote: pair.quote,
        minorUnits: ISO4217.currency(for: pair.quote)?.minorUnits ?? 2)
    }
    let pivot = table.pivot
    guard pair.base != pivot, pair.quote != pivot, let toBase = leg(from: pivot, to: pair.base),
      let toQuote = leg(from: pivot, to: pair.quote)
    else { return nil }
    return LegPlan(
      first: toBase.0, firstInverted: toBase.1, second: toQuote.0, secondInverted: toQuote.1, quote: pair.quote,
      minorUnits: ISO4217.currency(for: pair.quote)?.minorUnits ?? 2)
  }

  /// The rate of a table answer.
  @inline(__always)
  func rate(of answer: TableAnswer) -> ExchangeRate? {
    guard let table else { return nil }
    return plans[Int(answer.plan)].rate(row: Int(answer.row), in: table)
  }

  /// The answer to a key as a ``RateQuote`` (the general path of a record, JSON, XML, lock files).
  func quote(for key: RateKey) -> Result<RateQuote, RowError> {
    guard let packed = RateKeyIndex.pack(key), let index = keys.index(of: packed) else {
      return onDemand?(key) ?? .failure(RowError(.noRate, "no rate was looked up for \(key.pair) on \(key.day)"))
    }
    guard table != nil else {
      guard let record = general.record(packed: packed) else {
        return .failure(RowError(.noRate, "no rate was looked up for \(key.pair) on \(key.day)"))
      }
      return general.answer(at: record)
    }
    switch answers[index] {
    case .general(let position):
      guard position >= 0 else {
        return .failure(RowError(.noRate, "no rate was looked up for \(key.pair) on \(key.day)"))
      }
      return general.answer(at: Int(position))
    case .table(let answer):
      guard let table, let rate = rate(of: answer) else {
        return .failure(RowError(.noRate, "no rate was looked up for \(key.pair) on \(key.day)"))
      }
      var source = identifiers.early
      let plan = plans[Int(answer.plan)]
      if let from = identifiers.from, !table.isUndated, table.days[Int(answer.row)] >= from { source = identifiers.later }
      for column in [plan.first, plan.second] {
        guard let column else { continue }
        source.append(UInt8(ascii: " "))
        source.append(contentsOf: LegPlan.cellText(row: Int(answer.row), column: column, in: table).utf8)
      }
      let rateDay = table.isUndated ? nil : table.days[Int(answer.row)]
      return .success(
        RateQuote(
          rate: rate,
          rateText: String(
            decoding: texts[Int(answer.textStart)..<Int(answer.textStart) + Int(answer.textLength)], as: UTF8.self),
          rateDay: rateDay, isFallback: answer.isFallback, source: String(decoding: source, as: UTF8.self)))
    }
  }
}
