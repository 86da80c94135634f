/// Converts the record rows of a workbook's sheet (`.xlsx`, `.ods`) in pass 2 and holds each row's annotation
/// values as bytes for the format's cell writer: on the fast path where it can (the engine's per-record rule,
/// ``FastRecordConverter``: one amount or the amounts of `--amount-field A,B,C`, from the run's table or from
/// answered quotes, with its arithmetic in 64/128-bit integers), else by the general rules (``RecordConverter``),
/// which also write every error. Both give the same bytes (`FastGeneralDifferentialTests`, `XLSXFastPathTests`,
/// `ODSFastPathTests`). A row's key and amounts come from its fields read by the general rules
/// (``RecordNormalizer``: ``convert(_:)``), or from a format's row decoder (``convert(reading:)``: `.xlsx`'s
/// scanned rows).
struct WorkbookRowConverter {
  private let context: FormatContext
  private let normalizer: RecordNormalizer
  private let parser: AmountParser
  private let quotes: QuoteBook
  /// The engine's per-record rule; `nil` off the fast path.
  private var fast: FastRecordConverter?
  /// How many amounts each record has (one, or the amounts of `--amount-field A,B,C`).
  private let amountCount: Int
  private var scratch = ByteBuffer(capacity: 512)
  /// With several amounts, where each converted amount's value ends in ``scratch``.
  private var convertedEnds = InlineList<Int>(filler: 0)
  /// The general rules' counts and figures (the fast path's are handed over to them: ``finish()``).
  private var counts = RunReport.Counts()
  private var withoutDate = 0
  private var ledger: ReconciliationLedger
  /// The run's annotation fields (``AnnotationLayout``).
  private let layout: AnnotationLayout
  /// The values of the row converted last, back to back in ``layout``'s order, and where each ends.
  private var valueBytes = ByteBuffer(capacity: 512)
  private var valueEnds: [Int]
  /// The digits after the decimal mark of the row's converted amount (the first, of several; `nil`: not
  /// converted).
  private(set) var decimals: Int? = nil
  /// The row's rate day, when the fast path knows it as a day (else read from its text).
  private(set) var rateDay: CalendarDay? = nil

  init(context: FormatContext, scan: FileScan, quotes: QuoteBook) {
    self.context = context
    normalizer = scan.normalizer
    parser = scan.amountParser(currencies: context.options.currencies)
    self.quotes = quotes
    fast = context.makeTableConverter(quotes: quotes).map {
      FastRecordConverter(
        keys: FieldKeyDecoder(normalizer: scan.normalizer), converter: $0, skipRule: context.recordConverter.skipRule)
    }
    ledger = ReconciliationLedger(exactCurrencies: context.options.exactTotalCurrencies)
    layout = context.annotationLayout
    amountCount = layout.amountCount
    valueEnds = Array(repeating: 0, count: layout.count)
  }

  /// The row's value of the `index`th ``AnnotationColumn`` (`fx_rate`, …, `fx_error`), empty for none: a view
  /// valid until the converter next changes.
  @inline(__always)
  func value(_ index: Int) -> ByteView {
    ByteView(valueBytes.bytes).slice((index == 0 ? 0 : valueEnds[index - 1])..<valueEnds[index])
  }

  /// Appends the row's values to `bytes` (back to back, in ``AnnotationColumn`` order), for a cell writer that
  /// writes them later; returns where each ends, from where they start there, and what the cells' styles take.
  func appendValues(to bytes: inout ByteBuffer) -> WorkbookRowValues {
    var ends = InlineArray<7, Int>(repeating: 0)
    for index in 0..<WorkbookRowValues.count { ends[index] = valueEnds[index] }
    bytes.append(ByteView(valueBytes.bytes).slice(0..<valueEnds[valueEnds.count - 1]))
    return WorkbookRowValues(
      ends: ends, moreEnds: Array(valueEnds.dropFirst(WorkbookRowValues.count)), decimals: decimals, rateDay: rateDay)
  }

  /// The row's values as text (``RowOutcome/cells(decimalMark:)``).
  var values: [String] { valueEnds.indices.map { String(decoding: value($0).buffer, as: UTF8.self) } }

  /// Makes the values the header's names.
  mutating func setHeader() {
    setValues(layout.fieldNames)
    decimals = nil
    rateDay = nil
  }

  /// Converts a record and counts it.
  mutating func convert(_ fields: RecordFields) {
    decimals = nil
    rateDay = nil
    if convertFast(fields) { return }
    let outcome = context.recordConverter.outcome(
      of: fields, normalizer: normalizer, parser: parser, quotes: quotes, withoutDate: &withoutDate, ledger: &ledger)
    counts.add(outcome)
    setValues(outcome.cells(decimalMark: .point, layout: layout))
    if case .converted(let amount, _, _, _) = outcome { decimals = amount.scale }
  }

  /// Converts `count` records of the same fields (the rows of an `.ods` repeated row) at the cost of one, and
  /// counts them all: the record is converted once (its values are each one's), and its counts and
  /// reconciliation figures are added `count` times by doubling (exact sums: the same figures as `count`
  /// conversions). Only for fields that do not depend on the record's place (no message naming its own cell).
  mutating func convert(_ fields: RecordFields, count: Int) {
    guard count > 1 else {
      if count == 1 { convert(fields) }
      return
    }
    // The record's figures alone: the fast path's are handed over first (its accounts start afresh).
    fast?.handOver(counts: &counts, withoutDate: &withoutDate, ledger: &ledger)
    var one = (
      counts: RunReport.Counts(), withoutDate: 0, ledger: ReconciliationLedger(exactCurrencies: ledger.exactCurrencies)
    )
    swap(&counts, &one.counts)
    swap(&withoutDate, &one.withoutDate)
    swap(&ledger, &one.ledger)
    convert(fields)
    fast?.handOver(counts: &counts, withoutDate: &withoutDate, ledger: &ledger)
    swap(&counts, &one.counts)
    swap(&withoutDate, &one.withoutDate)
    swap(&ledger, &one.ledger)
    var left = count
    while left > 0 {
      if left & 1 == 1 {
        counts.add(one.counts)
        withoutDate += one.withoutDate
        ledger.add(one.ledger)
      }
      left >>= 1
      if left > 0 {
        one.counts.add(one.counts)
        one.withoutDate *= 2
        one.ledger.add(one.ledger)
      }
    }
  }

  /// The run's figures for the sheet, once every row is converted.
  mutating func finish() -> (counts: RunReport.Counts, withoutDate: Int, ledger: ReconciliationLedger) {
    fast?.handOver(counts: &counts, withoutDate: &withoutDate, ledger: &ledger)
    return (counts, withoutDate, ledger)
  }

  /// Converts a record on the fast path, its key and amounts read by the general rules; `false` leaves it to
  /// them.
  private mutating func convertFast(_ fields: RecordFields) -> Bool {
    guard fast != nil, fields.problem == nil, case .success(let found) = normalizer.rateKey(of: fields) else {
      return false
    }
    let key = (
      base: found.key.pair.base, quote: found.key.pair.quote, day: found.key.day, usedDefaultDay: found.usedDefaultDay
    )
    let (normalizer, parser) = (self.normalizer, self.parser)
    /// Appends a field's amount as written.
    func append(_ field: RecordFields, to amounts: inout FastRecordAmounts) -> Bool {
      guard case .success(let written) = normalizer.amount(of: field, parser: parser, currency: key.base) else {
        return false
      }
      return amounts.append(written)
    }
    return convert(reading: { _, amounts in
      if fields.amounts.isEmpty { return append(fields, to: &amounts) ? key : nil }
      // An amount's own problem or currency: the general rules decide.
      for field in fields.amounts where field.problem != nil || field.from != .absent || !append(field, to: &amounts) {
        return nil
      }
      return key
    })
  }

  /// Converts a record row on the fast path, its key and amounts read by `read` (through the engine's key
  /// decoder, into its amounts: ``FastRecordConverter/convert(reading:)``), and counts it; `false` (nothing
  /// counted) leaves the row to ``convert(_:)``.
  @inline(__always)
  mutating func convert(
    reading read: (_ keys: inout FieldKeyDecoder, _ amounts: inout FastRecordAmounts) -> FieldKeyDecoder.Key?
  ) -> Bool {
    decimals = nil
    rateDay = nil
    guard let conversion = fast?.convert(reading: read) else { return false }
    if amountCount > 1 { return setSeveral(conversion) }
    guard let ends = fast?.converter.appendValues(conversion, to: &scratch) else { return false }
    swap(&valueBytes, &scratch)
    scratch.removeAll()
    (valueEnds[0], valueEnds[1], valueEnds[2], valueEnds[3]) = (ends.rate, ends.converted, ends.currency, ends.day)
    (valueEnds[4], valueEnds[5], valueEnds[6]) = (ends.source, ends.status, ends.status)  // the last: no error
    decimals = conversion.converted.scale
    rateDay = ends.rateDay
    return true
  }

  /// Sets the values of a record of several amounts converted on the fast path.
  private mutating func setSeveral(_ conversion: TableConverter.Conversion) -> Bool {
    guard let several = fast?.converted,
      let ends = fast?.converter.appendValues(
        conversion, converted: several, convertedEnds: &convertedEnds, to: &scratch)
    else { return false }
    swap(&valueBytes, &scratch)
    scratch.removeAll()
    valueEnds[0] = ends.rate
    for index in 0..<several.count { valueEnds[1 + index] = convertedEnds[index] }
    let next = 1 + several.count
    (valueEnds[next], valueEnds[next + 1], valueEnds[next + 2]) = (ends.currency, ends.day, ends.source)
    (valueEnds[next + 3], valueEnds[next + 4]) = (ends.status, ends.status)  // the last: no error
    decimals = conversion.converted.scale
    rateDay = ends.rateDay
    return true
  }

  private mutating func setValues(_ values: [String]) {
    valueBytes.removeAll()
    for (index, value) in values.enumerated() {
      valueBytes.append(Array(value.utf8))
      valueEnds[index] = valueBytes.count
    }
  }
}

/// The annotation values of one converted row, copied out of its ``WorkbookRowConverter`` for a cell writer
/// (``WorkbookRowConverter/appendValues(to:)``): the values are back to back in a buffer of the caller's.
struct WorkbookRowValues {
  /// The annotation columns (``AnnotationColumn``'s cases; `XLSXFastPathTests` checks it), as the size of
  /// ``ends`` writes it.
  static let count = 7
  /// Where each column's value ends, from the row's first value byte: the first seven columns'.
  var ends: InlineArray<7, Int>
  /// With several amounts (``AnnotationLayout``), where the columns after the seventh end; empty for one amount.
  var moreEnds: [Int] = []
  /// The digits after the decimal mark of the row's converted amount (`nil`: not converted).
  var decimals: Int?
  /// The row's rate day, when the fast path knows it as a day (else read from its text).
  var rateDay: CalendarDay?

  /// The `index`th column's value among `bytes`, the row's values from its first.
  @inline(__always)
  func value(_ index: Int, in bytes: ByteView) -> ByteView {
    bytes.slice((index == 0 ? 0 : end(index - 1))..<end(index))
  }

  @inline(__always)
  private func end(_ index: Int) -> Int { index < Self.count ? ends[index] : moreEnds[index - Self.count] }
}
