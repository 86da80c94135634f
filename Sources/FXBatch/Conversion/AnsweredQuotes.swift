/// The answers of a source that answers pairs (Frankfurter, the calculator) or of a lock file's quotes, as
/// ``TableConverter`` reads them per record: for each key of the run, its record in the run's ``AnswerTable`` —
/// the quote's exact rate as two 64-bit integers with their scales, and its texts (rate, rate date, source) as
/// ranges of the table's bytes.
///
/// It is a view of the table the general rules filled (``QuoteBook``'s general answers, after the currency
/// lifecycle has routed each key): the fast path reads their answers, it never decides a rate, and nothing is
/// copied. A key whose answer is an error, or whose rate does not fit 56-bit integers, has no entry: its records
/// take the general path, which writes the same bytes.
struct AnsweredQuotes: Sendable {
  /// One answered key: its record in the table.
  typealias Entry = AnswerTable.Record

  /// The keys records are looked up in: the run's keys (the ``QuoteBook``'s), or the table's own (a lock's
  /// answers, ``init(table:isFinal:)``), whose key index is its record.
  let index: RateKeyIndex
  /// Whether ``index`` is the table's own (a key's index is its entry), not the run's keys.
  let byOwnKeys: Bool
  /// The table's own keys as a grid, when they fill it (``RateKeyGrid``): found without hashing.
  let grid: RateKeyGrid?
  /// Per key index of the run's keys, its entry in ``entries``; −1: the general rules write the record. Empty
  /// for the table's own keys.
  private(set) var entryOfKey: [Int32]
  /// For the table's own keys (``byOwnKeys``), a bit per entry: whether the fast path converts with it (its rate
  /// fits, and it is its key's answer under the general rules); empty for the run's keys (``entryOfKey``).
  let converts: [UInt64]
  /// The table's records.
  private(set) var entries: [Entry]
  /// The table's texts, ``AnswerTable/padding`` zero bytes after the last (for word copies).
  private(set) var texts: [UInt8]
  private let table: AnswerTable

  /// The largest rate significand kept (as ``TableConverter`` keeps a table's cells).
  private static let largestSignificand = UInt64.max >> 8

  /// - Parameters:
  ///   - keys: the run's keys.
  ///   - table: the general rules' answers.
  ///   - record: the record in `table` of the key at an index, if it has one.
  init(keys: RateKeyIndex, table: AnswerTable, record: (Int) -> Int?) {
    index = keys
    byOwnKeys = false
    grid = nil
    self.table = table
    entries = table.records
    texts = table.texts
    converts = []
    entryOfKey = Array(repeating: -1, count: keys.count)
    for index in 0..<keys.count {
      guard let position = record(index), Self.fits(entries[position]) else { continue }
      entryOfKey[index] = Int32(position)
    }
  }

  /// The answers of a table found by its own keys, without a list of the run's keys (a frozen run reads no keys
  /// in pass 1): a key's record is written as it is only when `isFinal` says the general rules answer the key
  /// with it (asked of each record once, here, in the table's order); else the general path decides.
  init(table: AnswerTable, isFinal: (Int) -> Bool) {
    index = table.keys
    byOwnKeys = true
    grid = RateKeyGrid(table.keys)
    self.table = table
    entries = table.records
    texts = table.texts
    var converts = [UInt64](repeating: 0, count: (table.count + 63) / 64)
    for record in 0..<table.count where Self.fits(table.records[record]) && isFinal(record) {
      converts[record >> 6] |= 1 << UInt64(record & 63)
    }
    self.converts = converts
    entryOfKey = []
  }

  /// The answers of a table found by its own keys, each record its key's answer under the general rules (a
  /// table the general rules filled for every key of the run, ``QuoteBook``'s without a local table).
  init(table: AnswerTable) {
    self.init(table: table) { _ in true }
  }

  /// Whether an entry's rate is one the fast path converts with (a rate, of two 56-bit significands).
  @inline(__always)
  static func fits(_ entry: Entry) -> Bool {
    entry.flags.isDisjoint(with: [.failure, .exactRate, .spilled]) && entry.numerator > 0
      && entry.numerator <= largestSignificand && entry.denominator > 0 && entry.denominator <= largestSignificand
      && Int(entry.numeratorScale) <= ExactDecimal.maximumDigits && Int(entry.denominatorScale) <= ExactDecimal.maximumDigits
  }

  /// The entry of a key, if it has one.
  @inline(__always)
  func entry(base: CurrencyCode, quote: CurrencyCode, day: CalendarDay) -> Int? {
    guard let packed = RateKeyIndex.pack(base: base, quote: quote, day: day), let found = index.index(of: packed) else {
      return nil
    }
    guard !byOwnKeys else { return converts[found >> 6] >> UInt64(found & 63) & 1 == 1 ? found : nil }
    let entry = Int(entryOfKey[found])
    return entry >= 0 ? entry : nil
  }

  /// Whether every byte of every text may be written as it is (`allowed`): else the format's general writer,
  /// which quotes or escapes, writes every record.
  func textsAreSafe(where allowed: (UInt8) -> Bool) -> Bool { table.textsAreSafe(where: allowed) }
}
