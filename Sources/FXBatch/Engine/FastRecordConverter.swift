/// The fast path's per-record rule, the same for every format: a record's rate key and its amounts as written
/// (read by the format: a ``FastRecordReader``, a workbook's row decoder) become the amounts in the
/// from-currency's major units (``FieldKeyDecoder/majorAmount(_:currency:)``), converted at the record's one rate
/// (``TableConverter``, one amount or the amounts of `--amount-field A,B,C`), and the record is counted (ok or
/// fallback, and whether it had no date).
///
/// ``FastRecordLoop`` (the text formats: the record's bytes with the annotation appended) and the workbooks' row
/// converter (the values of their fx_* cells) both convert through it, so the rule lives here alone.
struct FastRecordConverter {
  /// The one cached key decoder the format's reader decodes through.
  var keys: FieldKeyDecoder
  var converter: TableConverter
  /// The record's amounts as the reader read them (in the order of the run's amount fields), reused from record
  /// to record: the reader fills them before ``convert(_:)``.
  var amounts = FastRecordAmounts()
  /// How many amounts each record has (``TableConverter/amountSlots``: one, or the amounts of
  /// `--amount-field A,B,C`).
  let amountCount: Int
  private var majors = InlineList<ExactDecimal>(filler: .zero)
  /// With several amounts, each amount of the record converted last, in order.
  private(set) var converted = InlineList<ExactDecimal>(filler: .zero)
  /// The records converted since the figures were last handed over (``handOver(counts:withoutDate:ledger:)``),
  /// and how many of them had no date.
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0
  /// Per from-currency met, the converted records and the sums of their amounts in major units (one per amount),
  /// handed to the ledger's source totals (``ReconciliationLedger/sourceTotals()``): the accounts of the currency
  /// in slot `s` are `accounts[s × amountCount ..< (s + 1) × amountCount]`, in the order of the amounts.
  private var accounts: [ReconciliationLedger.SourceAccount] = []
  /// The currency of each slot, in the order met.
  private var slotCurrencies: [CurrencyCode] = []
  /// Per currency code's letters (``slotTableIndex(_:)``), its slot + 1; 0: none yet. Empty until a record is
  /// converted.
  private var slotOfCode: [UInt16] = []
  /// The run's summary-row rule: a record it may skip is left to the general rules, which judge it
  /// (``RecordConverter``).
  let skipRule: RowSkipRule

  init(keys: FieldKeyDecoder, converter: TableConverter, skipRule: RowSkipRule) {
    self.keys = keys
    self.converter = converter
    self.skipRule = skipRule
    amountCount = converter.amountSlots
  }

  /// Converts the record whose key is `key` and whose amounts are in ``amounts``, and counts it.
  ///
  /// - Returns: the conversion (with several amounts, each converted is in ``converted``); `nil` leaves the record
  ///   to the general rules, with nothing converted or counted: it has another number of amounts, an amount that
  ///   is not a whole number of minor units (`--amount-unit minor`), a rate the table does not give plainly, or
  ///   it may be a summary row (``RowSkipRule/needsGeneralRules(usedDefaultDay:)``).
  ///
  /// - Parameters:
  ///   - hasLabel: whether the format's records have a first field (``FastRecordReader/hasLabels``).
  ///   - label: the record's first non-blank field (``FastRecordReader/label(of:)``), asked only when the
  ///     summary-row rule may skip the record; `nil`: unknown.
  @inline(__always)
  mutating func convert(
    _ key: FieldKeyDecoder.Key, hasLabel: Bool = true, label: () -> String? = { nil }
  ) -> TableConverter.Conversion? {
    guard amounts.count == amountCount else { return nil }
    if hasLabel, skipRule.needsGeneralRules(usedDefaultDay: key.usedDefaultDay) {
      guard let label = label(), !skipRule.mayskip(label: label) else { return nil }
    }
    let conversion: TableConverter.Conversion
    if amountCount > 1 {
      guard let found = convertSeveral(key) else { return nil }
      conversion = found
      let first = slot(of: key.base) &* amountCount
      for amount in 0..<majors.count {
        accounts[first &+ amount].add(majors[amount])
      }
    } else {
      guard let amount = keys.majorAmount(amounts[0], currency: key.base),
        let found = converter.convert(base: key.base, quote: key.quote, day: key.day, amount: amount)
      else { return nil }
      conversion = found
      let first = slot(of: key.base) &* amountCount
      accounts[first].add(amount)
    }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if key.usedDefaultDay { withoutDate += 1 }
    return conversion
  }

  /// Reads a record through `read` (its key through ``keys``, its amounts into ``amounts``) and converts it
  /// (``convert(_:)``): for a format whose reader is not a ``FastRecordReader`` (a workbook's rows).
  ///
  /// - Parameter read: the record's key, its amounts appended; `nil` leaves the record to the general rules.
  @inline(__always)
  mutating func convert(
    reading read: (_ keys: inout FieldKeyDecoder, _ amounts: inout FastRecordAmounts) -> FieldKeyDecoder.Key?
  ) -> TableConverter.Conversion? {
    amounts.removeAll()
    guard let key = read(&keys, &amounts) else { return nil }
    return convert(key)
  }

  /// The slot of a from-currency's accounts in ``accounts``, added when it is new.
  @inline(__always)
  private mutating func slot(of currency: CurrencyCode) -> Int {
    let index = Self.slotTableIndex(currency)
    if !slotOfCode.isEmpty {
      let found = Int(slotOfCode[index])
      if found > 0, slotCurrencies[found &- 1] == currency { return found &- 1 }
    }
    return addSlot(for: currency, at: index)
  }

  /// A currency code's place in ``slotOfCode``: five bits of each letter (codes that are not three letters A–Z
  /// may share a place; ``addSlot(for:at:)`` tells them apart).
  @inline(__always)
  private static func slotTableIndex(_ currency: CurrencyCode) -> Int {
    let packed = currency.packed
    return Int((packed >> 6) & 0x7C00 | (packed >> 3) & 0x3E0 | packed & 0x1F)
  }

  private mutating func addSlot(for currency: CurrencyCode, at index: Int) -> Int {
    if let known = slotCurrencies.firstIndex(of: currency) { return known }
    if slotOfCode.isEmpty { slotOfCode = Array(repeating: 0, count: 1 << 15) }
    slotCurrencies.append(currency)
    accounts += repeatElement(ReconciliationLedger.SourceAccount(), count: amountCount)
    let slot = slotCurrencies.count - 1
    if slotOfCode[index] == 0, slot < Int(UInt16.max) { slotOfCode[index] = UInt16(slot + 1) }
    return slot
  }

  /// ``convert(_:)`` of a record of several amounts.
  @inline(__always)
  private mutating func convertSeveral(_ key: FieldKeyDecoder.Key) -> TableConverter.Conversion? {
    majors.removeAll()
    for index in 0..<amounts.count {
      guard let major = keys.majorAmount(amounts[index], currency: key.base) else { return nil }
      _ = majors.append(major)
    }
    return converter.convert(base: key.base, quote: key.quote, day: key.day, amounts: majors, converted: &converted)
  }

  /// Clears the counts and figures and gives this copy its own caches (a copy that converts another part of the
  /// file on another thread).
  mutating func restart() {
    counts = RunReport.Counts()
    withoutDate = 0
    clearAccounts()
    var empty = ReconciliationLedger()
    converter.flush(into: &empty)
    converter.makeUnique()
    keys.makeUnique()
  }

  /// Adds the counts and figures since the last hand-over to the caller's, and starts them afresh.
  mutating func handOver(
    counts total: inout RunReport.Counts, withoutDate totalWithoutDate: inout Int, ledger: inout ReconciliationLedger
  ) {
    total.add(counts)
    totalWithoutDate += withoutDate
    converter.tally?.add(counts.records)
    counts = RunReport.Counts()
    withoutDate = 0
    converter.flush(into: &ledger)
    let names = converter.amountNames
    for (slot, currency) in slotCurrencies.enumerated() {
      for index in 0..<amountCount where accounts[slot * amountCount + index].records > 0 {
        ledger.add(
          source: accounts[slot * amountCount + index], currency: currency, name: names.isEmpty ? nil : names[index])
      }
    }
    clearAccounts()
  }

  /// Forgets every currency's accounts (the table of slots is kept, emptied).
  private mutating func clearAccounts() {
    for currency in slotCurrencies { slotOfCode[Self.slotTableIndex(currency)] = 0 }
    slotCurrencies = []
    accounts = []
  }
}
