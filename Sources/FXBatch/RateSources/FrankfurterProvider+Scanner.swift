import Foundation

/// The fast reading of a v2 answer (``FrankfurterProvider/answers(to:response:maxStaleness:)``): a byte scanner over
/// the body, for the shape the service writes — a JSON array of `{"date","base","quote","rate"}` objects, with
/// `"providers":[{"key","date","rate","excluded"}]` under `expand=providers` — that keeps an index of each quote's
/// rows (day and where the rate's text is, 16 bytes a row) and makes a rate's `String` and value only for the rows
/// the request's keys take (the latest row on or before each key's day). A `JSONValue` tree and a dictionary of
/// rows of a 40,000-row answer cost more than its 2.6 MB of text, and most of the time to read it.
///
/// Anything the scanner does not read as the JSON reader would — an escape or a byte outside printable ASCII in a
/// string, a member other than those above or given twice, a value of another type, a date that is not a valid
/// `YYYY-MM-DD`, another base, a quote that is not three capitals, a rate that is not a positive number fxbatch
/// reads exactly, a provider key it would refuse, a quote with two rows of one day, a byte order mark, NDJSON, more
/// values than the answer's limit, malformed JSON — declines to the JSON reader
/// (``FrankfurterProvider/readerAnswers(to:response:maxStaleness:)``), so every answer and every error is the
/// reader's (a differential test holds the two to the same answers).
extension FrankfurterProvider {
  /// A row as the scanner keeps it.
  struct ScannedRow {
    /// The row's day, as days since 1970-01-01.
    var day: Int32
    /// The provider keys the row names: an index into ``FrankfurterV2Scanner/providerLists`` (0: none).
    var providers: Int32
    /// Where the rate's text is in the body.
    var rateStart: Int32
    var rateLength: Int16
    /// Whether the text is digits with at most one `.`, no sign or exponent, at most 38 digits (read by
    /// ``ExactDecimal/init(plainUTF8:)``; otherwise by ``ExactDecimal/init(jsonNumber:)``).
    var isPlain: Bool
  }

  /// The keys' answers from an answer read by the scanner, or `nil` when it declines (see above).
  func scannedAnswers(to request: RateRequest, response: HTTPResponse, maxStaleness: Int) -> [RateKey: Result<
    RateQuote, RowError
  >]? {
    guard let base = request.keys.first?.pair.base else { return [:] }
    if response.headers["content-type"]?.lowercased().hasPrefix("application/x-ndjson") ?? false { return nil }
    let limit = answerLimit(for: request, maxStaleness: maxStaleness)
    return response.body.withUnsafeBytes { raw -> [RateKey: Result<RateQuote, RowError>]? in
      let bytes = ByteView(raw.bindMemory(to: UInt8.self))
      guard bytes.count < Int(Int32.max) else { return nil }
      var scanner = FrankfurterV2Scanner(bytes: bytes, base: base.packed, pinned: providers, maximumValues: limit)
      guard scanner.scanAnswer(), scanner.orderRows() else { return nil }
      var results: [RateKey: Result<RateQuote, RowError>] = [:]
      results.reserveCapacity(request.keys.count)
      for key in request.keys {
        let slot = FrankfurterV2Scanner.slot(of: key.pair.quote.packed)
        let index = slot.map { scanner.slotIndex[$0] } ?? -1
        let rows = index >= 0 ? scanner.rowsOfQuote[Int(index)] : []
        guard let scanned = Self.latest(in: rows, onOrBefore: key.day) else {
          results[key] = .failure(RowError(.noRate, "Frankfurter has no \(key.pair) rate on or before \(key.day)"))
          continue
        }
        let start = Int(scanned.rateStart)
        let text = bytes[start..<start + Int(scanned.rateLength)].buffer
        let rateText = String(decoding: text, as: UTF8.self)
        // The scanner checked that the text reads as a positive number.
        guard let value = scanned.isPlain ? ExactDecimal(plainUTF8: text) : ExactDecimal(jsonNumber: rateText) else {
          return nil
        }
        let row = Row(
          day: CalendarDay(daysSinceEpoch: Int(scanned.day)), text: rateText, value: value,
          providers: scanner.providerLists[Int(scanned.providers)])
        results[key] = answer(for: key, row: row, maxStaleness: maxStaleness)
      }
      return results
    }
  }

  /// The last scanned row on or before a day, of rows in day order.
  private static func latest(in rows: [ScannedRow], onOrBefore day: CalendarDay) -> ScannedRow? {
    latestPosition(in: rows, onOrBefore: day).map { rows[$0] }
  }

  /// The position of the last scanned row on or before a day, of rows in day order.
  static func latestPosition(in rows: [ScannedRow], onOrBefore day: CalendarDay) -> Int? {
    var low = 0
    var high = rows.count
    let target = day.daysSinceEpoch
    while low < high {
      let middle = (low + high) / 2
      if Int(rows[middle].day) <= target { low = middle + 1 } else { high = middle }
    }
    return low == 0 ? nil : low - 1
  }
}

/// The byte scanner of a v2 answer (``FrankfurterProvider/scannedAnswers(to:response:maxStaleness:)``): every method
/// returns `false` (or `nil`) where the answer is not of the shape it reads, and the caller declines.
struct FrankfurterV2Scanner {
  private let bytes: ByteView
  private var index = 0
  /// The values read, counted as ``JSONParser`` counts them (members' values and array elements at any depth,
  /// and the document), and the most it may read (the reader's limit: beyond it the reader refuses the answer).
  private var values = 0
  private let maximumValues: Int
  /// The base asked, as ``CurrencyCode`` packs it.
  private let base: UInt32
  /// The providers pinned with `--providers` (a row naming another is the reader's to refuse), or none.
  private let pinned: [String]
  /// Per quote slot (``slot(of:)``), the index of its rows in ``rowsOfQuote``, or -1.
  private(set) var slotIndex = [Int32](repeating: -1, count: 26 * 26 * 26)
  /// Each quote's rows, in the answer's order until ``orderRows()``, then in day order.
  private(set) var rowsOfQuote: [[FrankfurterProvider.ScannedRow]] = []
  /// The distinct lists of provider keys rows name (the first: none), and the index of each by its keys joined.
  private(set) var providerLists: [[String]] = [[]]
  private var providerListIndex: [String: Int32] = ["": 0]

  init(bytes: ByteView, base: UInt32, pinned: [String], maximumValues: Int) {
    self.bytes = bytes
    self.base = base
    self.pinned = pinned
    self.maximumValues = maximumValues
  }

  /// The slot of a quote's three capitals (packed as ``CurrencyCode`` packs them), or `nil` for other letters.
  @inline(__always)
  static func slot(of packed: UInt32) -> Int? {
    let first = Int((packed >> 16) & 0xFF) - Int(UInt8(ascii: "A"))
    let second = Int((packed >> 8) & 0xFF) - Int(UInt8(ascii: "A"))
    let third = Int(packed & 0xFF) - Int(UInt8(ascii: "A"))
    guard packed >> 24 == 0, (0..<26).contains(first), (0..<26).contains(second), (0..<26).contains(third) else {
      return nil
    }
    return (first * 26 + second) * 26 + third
  }

  // MARK: The answer

  /// Reads the whole body: `[` rows separated by `,` `]`, whitespace around; `false` for anything else.
  mutating func scanAnswer() -> Bool {
    skipWhitespace()
    guard take(UInt8(ascii: "[")), count() else { return false }
    skipWhitespace()
    if !take(UInt8(ascii: "]")) {
      while true {
        guard count(), scanRow() else { return false }
        skipWhitespace()
        if take(UInt8(ascii: ",")) {
          skipWhitespace()
          continue
        }
        guard take(UInt8(ascii: "]")) else { return false }
        break
      }
    }
    skipWhitespace()
    return index == bytes.count
  }

  /// Puts each quote's rows in day order; `false` when a quote has two rows of one day (which the reader refuses
  /// when their rates differ, and otherwise answers with one of them).
  mutating func orderRows() -> Bool {
    for quote in rowsOfQuote.indices {
      let rows = rowsOfQuote[quote]
      var ordered = true
      for position in rows.indices.dropFirst() where rows[position - 1].day >= rows[position].day {
        ordered = false
        break
      }
      if ordered { continue }
      let sorted = rows.sorted { $0.day < $1.day }
      for position in sorted.indices.dropFirst() where sorted[position - 1].day == sorted[position].day { return false }
      rowsOfQuote[quote] = sorted
    }
    return true
  }

  /// One row: an object of `date`, `base`, `quote`, `rate` and optionally `providers`, each once, in any order.
  private mutating func scanRow() -> Bool {
    let rowStart = index
    if let read = scanServiceRow() { return read }
    index = rowStart
    guard take(UInt8(ascii: "{")) else { return false }
    var seen: UInt8 = 0
    var day: Int32 = 0
    var slot = 0
    var rate: (start: Int, length: Int, isPlain: Bool) = (0, 0, false)
    var providers: Int32 = 0
    while true {
      skipWhitespace()
      guard let name = plainString() else { return false }
      skipWhitespace()
      guard take(UInt8(ascii: ":")), count() else { return false }
      skipWhitespace()
      let member = Self.member(bytes, name)
      guard member != 0, seen & member == 0 else { return false }
      seen |= member
      switch member {
      case Self.dateMember:
        guard let text = plainString(), let parsed = Self.day(bytes, text) else { return false }
        day = parsed
      case Self.baseMember:
        guard let text = plainString(), let packed = Self.capitals(bytes, text), packed == base else { return false }
      case Self.quoteMember:
        guard let text = plainString(), let packed = Self.capitals(bytes, text), let quoteSlot = Self.slot(of: packed) else {
          return false
        }
        slot = quoteSlot
      case Self.rateMember:
        guard let number = positiveNumber() else { return false }
        rate = number
      default:
        guard let list = scanProviders() else { return false }
        providers = list
      }
      skipWhitespace()
      if take(UInt8(ascii: ",")) { continue }
      guard take(UInt8(ascii: "}")) else { return false }
      break
    }
    guard seen & Self.requiredMembers == Self.requiredMembers else { return false }
    return add(day: day, slot: slot, rate: rate, providers: providers)
  }

  /// The row as the service writes it, `{"date":"YYYY-MM-DD","base":"AAA","quote":"BBB","rate":N}` without
  /// whitespace, read at fixed offsets: whether it is read (`false`: declined), or `nil` when the row is laid out
  /// otherwise (``scanRow()`` then reads it member by member).
  private mutating func scanServiceRow() -> Bool? {
    let at = index
    guard bytes.count - at > Self.serviceRowPrefix else { return nil }
    // The prefix's fixed bytes, compared 8 at a time (the words of `layout`, masked where the row's own text is).
    for word in 0..<7 where bytes.word(at: at + word * 8) & layout.masks[word] != layout.words[word] { return nil }
    index = at + Self.serviceRowPrefix
    // Rows come day by day: a day's text is read once.
    let dayText = bytes.word(at: at + 9)
    let dayEnd = bytes.word(at: at + 17, length: 2)
    if dayText != lastDay.text || dayEnd != lastDay.end || lastDay.day == nil {
      lastDay = (dayText, dayEnd, Self.day(bytes, at + 9..<at + 19))
    }
    guard let day = lastDay.day, Self.capitals(bytes, at + 29..<at + 32) == base,
      let quote = Self.capitals(bytes, at + 43..<at + 46), let slot = Self.slot(of: quote), let rate = positiveNumber(),
      take(UInt8(ascii: "}"))
    else { return nil }
    // Four members' values.
    values += 4
    guard values <= maximumValues else { return false }
    return add(day: day, slot: slot, rate: rate, providers: 0)
  }

  /// The bytes of a service row before its rate (``scanServiceRow()``).
  private static let serviceRowPrefix = 55
  /// The fixed bytes of a service row's first 56 (``serviceRowPrefix`` and one of the rate), as 7 little-endian
  /// words and the masks that keep them (zero where the day, base, quote and rate are).
  private let layout: (words: [UInt64], masks: [UInt64]) = {
    let template = Array(#"{"date":"YYYY-MM-DD","base":"BBB","quote":"QQQ","rate":N"#.utf8)
    var words = [UInt64](repeating: 0, count: 7)
    var masks = [UInt64](repeating: 0, count: 7)
    for (offset, byte) in template.enumerated() {
      let variable = (9..<19).contains(offset) || (29..<32).contains(offset) || (43..<46).contains(offset) || offset >= 55
      guard !variable else { continue }
      words[offset / 8] |= UInt64(byte) << (8 * UInt64(offset % 8))
      masks[offset / 8] |= 0xFF << (8 * UInt64(offset % 8))
    }
    return (words, masks)
  }()
  /// The last day's text read by ``scanServiceRow()`` and its day.
  private var lastDay: (text: UInt64, end: UInt64, day: Int32?) = (0, 0, nil)

  /// Adds a row to its quote's rows.
  private mutating func add(day: Int32, slot: Int, rate: (start: Int, length: Int, isPlain: Bool), providers: Int32) -> Bool {
    guard rate.length <= Int(Int16.max) else { return false }
    var quoteIndex = slotIndex[slot]
    if quoteIndex < 0 {
      quoteIndex = Int32(rowsOfQuote.count)
      slotIndex[slot] = quoteIndex
      rowsOfQuote.append([])
    }
    rowsOfQuote[Int(quoteIndex)].append(
      FrankfurterProvider.ScannedRow(
        day: day, providers: providers, rateStart: Int32(rate.start), rateLength: Int16(rate.length),
        isPlain: rate.isPlain))
    return true
  }

  private static let dateMember: UInt8 = 1
  private static let baseMember: UInt8 = 2
  private static let quoteMember: UInt8 = 4
  private static let rateMember: UInt8 = 8
  private static let providersMember: UInt8 = 16
  private static let requiredMembers: UInt8 = 15

  /// The bit of a row's member name, or 0 for another name.
  private static func member(_ bytes: ByteView, _ name: Range<Int>) -> UInt8 {
    if equals(bytes, name, "date") { return dateMember }
    if equals(bytes, name, "base") { return baseMember }
    if equals(bytes, name, "quote") { return quoteMember }
    if equals(bytes, name, "rate") { return rateMember }
    if equals(bytes, name, "providers") { return providersMember }
    return 0
  }

  /// Whether some bytes of the body are an ASCII word.
  private static func equals(_ bytes: ByteView, _ range: Range<Int>, _ word: StaticString) -> Bool {
    bytes[range].equals(word)
  }

  /// Three capitals packed as ``CurrencyCode`` packs them, or `nil` for other text.
  private static func capitals(_ bytes: ByteView, _ range: Range<Int>) -> UInt32? {
    guard range.count == 3 else { return nil }
    var packed: UInt32 = 0
    for position in range {
      let byte = bytes[position]
      guard byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") else { return nil }
      packed = packed << 8 | UInt32(byte)
    }
    return packed
  }

  /// The day of a `YYYY-MM-DD` text, as ``CalendarDay/init(iso8601:)`` reads it, or `nil`.
  private static func day(_ bytes: ByteView, _ range: Range<Int>) -> Int32? {
    guard range.count == 10 else { return nil }
    let at = range.lowerBound
    guard bytes[at + 4] == UInt8(ascii: "-"), bytes[at + 7] == UInt8(ascii: "-") else { return nil }
    func number(_ offsets: Range<Int>) -> Int? {
      var value = 0
      for offset in offsets {
        let digit = bytes[at + offset] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let dayOfMonth = number(8..<10),
      let day = CalendarDay(year: year, month: month, day: dayOfMonth), let days = Int32(exactly: day.daysSinceEpoch)
    else { return nil }
    return days
  }

  // MARK: Providers

  /// A row's `providers`: an array of objects of `key` (a provider key), `date` (a string), `rate` (a number) and
  /// `excluded` (`true` or `false`), each at most once and `key` present; the index of the keys not excluded in
  /// ``providerLists``. `nil` for anything else, and for a key not pinned (when some are).
  private mutating func scanProviders() -> Int32? {
    guard take(UInt8(ascii: "[")) else { return nil }
    var keys: [String] = []
    skipWhitespace()
    if !take(UInt8(ascii: "]")) {
      while true {
        guard count(), let key = scanProvider() else { return nil }
        if let key { keys.append(key) }
        skipWhitespace()
        if take(UInt8(ascii: ",")) {
          skipWhitespace()
          continue
        }
        guard take(UInt8(ascii: "]")) else { return nil }
        break
      }
    }
    if !pinned.isEmpty, !keys.allSatisfy(pinned.contains) { return nil }
    let joined = keys.joined(separator: ",")
    if let known = providerListIndex[joined] { return known }
    let index = Int32(providerLists.count)
    providerLists.append(keys)
    providerListIndex[joined] = index
    return index
  }

  /// One provider of a row: its key when not excluded (`.some(nil)` when excluded), `nil` when not of the shape.
  private mutating func scanProvider() -> String?? {
    guard take(UInt8(ascii: "{")) else { return nil }
    var key: String? = nil
    var excluded = false
    var seen: UInt8 = 0
    while true {
      skipWhitespace()
      guard let name = plainString() else { return nil }
      skipWhitespace()
      guard take(UInt8(ascii: ":")), count() else { return nil }
      skipWhitespace()
      var member: UInt8 = 0
      if Self.equals(bytes, name, "key") {
        member = 1
      } else if Self.equals(bytes, name, "date") {
        member = 2
      } else if Self.equals(bytes, name, "rate") {
        member = 4
      } else if Self.equals(bytes, name, "excluded") {
        member = 8
      }
      guard member != 0, seen & member == 0 else { return nil }
      seen |= member
      switch member {
      case 1:
        guard let text = plainString() else { return nil }
        let word = bytes[text].text
        guard FrankfurterProvider.isProviderKey(word) else { return nil }
        key = word
      case 2:
        guard plainString() != nil else { return nil }
      case 4:
        guard number() != nil else { return nil }
      default:
        if literal("true") {
          excluded = true
        } else if !literal("false") {
          return nil
        }
      }
      skipWhitespace()
      if take(UInt8(ascii: ",")) { continue }
      guard take(UInt8(ascii: "}")) else { return nil }
      break
    }
    guard let key else { return nil }
    return .some(excluded ? nil : key)
  }

  // MARK: Tokens

  /// Counts a value; `false` past the reader's limit.
  private mutating func count() -> Bool {
    values += 1
    return values <= maximumValues
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      let byte = bytes[index]
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      index += 1
    }
  }

  /// Takes one byte when it is next.
  private mutating func take(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// Takes a literal word (`true`, `false`) when it is next.
  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard bytes.count - index >= count, Self.equals(bytes, index..<index + count, word) else { return false }
    index += count
    return true
  }

  /// A string of printable ASCII without escapes: the range of its text; `nil` for another value or string.
  private mutating func plainString() -> Range<Int>? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return start..<index - 1
      }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
      index += 1
    }
    return nil
  }

  /// A JSON number (RFC 8259): its range, whether it is plain (no sign or exponent, at most 38 digits), and
  /// whether it has a nonzero digit; `nil` for another value or malformed number.
  private mutating func number() -> (range: Range<Int>, isPlain: Bool, hasNonzeroDigit: Bool)? {
    let start = index
    var isPlain = true
    var digits = 0
    var nonzero = false
    if take(UInt8(ascii: "-")) { isPlain = false }
    func scanDigits() -> Int {
      let from = index
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
        if bytes[index] != UInt8(ascii: "0") { nonzero = true }
        index += 1
      }
      return index - from
    }
    let integerStart = index
    let integerDigits = scanDigits()
    guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
    digits += integerDigits
    if take(UInt8(ascii: ".")) {
      let fraction = scanDigits()
      guard fraction > 0 else { return nil }
      digits += fraction
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isPlain = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      let mantissaNonzero = nonzero
      guard scanDigits() > 0 else { return nil }
      nonzero = mantissaNonzero
    }
    return (start..<index, isPlain && digits <= ExactDecimal.maximumDigits, nonzero)
  }

  /// A rate: a JSON number that fxbatch reads exactly as a positive value (what the reader accepts as a row's
  /// rate); `nil` otherwise.
  private mutating func positiveNumber() -> (start: Int, length: Int, isPlain: Bool)? {
    guard let number = number() else { return nil }
    let range = number.range
    if number.isPlain {
      guard number.hasNonzeroDigit else { return nil }
    } else {
      let text = bytes[range].text
      guard let value = ExactDecimal(jsonNumber: text), value.significand > 0 else { return nil }
    }
    return (range.lowerBound, range.count, number.isPlain)
  }
}
