/// Converts the record rows of a workbook's sheet (`.xlsx`, `.ods`) in pass 2 and holds each row's annotation
/// values as bytes for the format's cell writer: on the fast path where it can (``TableConverter``, from the
/// run's table or from answered quotes: the answers the general rules give, with its arithmetic in 64/128-bit
/// integers), else by the general rules (``RecordConverter``), which also write every error. Both give the same
/// bytes (`XLSXFastPathTests`, `ODSFastPathTests`); the record's key and amount are read by the general rules
/// either way (``RecordNormalizer``).
struct WorkbookRowConverter {
  private let context: FormatContext
  private let normalizer: RecordNormalizer
  private let parser: AmountParser
  private let quotes: QuoteBook
  private var converter: TableConverter?
  private var scratch = ByteBuffer(capacity: 512)
  private(set) var counts = RunReport.Counts()
  private(set) var withoutDate = 0
  private var ledger: ReconciliationLedger
  /// The run's annotation fields (``AnnotationLayout``).
  private let layout: AnnotationLayout
  /// The values of the row converted last, back to back in ``layout``'s order, and where each ends.
  private var valueBytes = ByteBuffer(capacity: 512)
  private var valueEnds: [Int]
  /// The digits after the decimal mark of the row's converted amount (`nil`: not converted).
  private(set) var decimals: Int? = nil
  /// The row's rate day, when the fast path knows it as a day (else read from its text).
  private(set) var rateDay: CalendarDay? = nil

  init(context: FormatContext, scan: FileScan, quotes: QuoteBook) {
    self.context = context
    normalizer = scan.normalizer
    parser = scan.amountParser(currencies: context.options.currencies)
    self.quotes = quotes
    // Several amounts (`--amount-field A,B,C`): workbook rows convert by the general rules (docs/speed.md).
    converter = context.annotationLayout.amountCount == 1 ? context.makeTableConverter(quotes: quotes) : nil
    ledger = ReconciliationLedger(exactCurrencies: context.options.exactTotalCurrencies)
    layout = context.annotationLayout
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
    converter?.flush(into: &ledger)
    var one = (
      counts: RunReport.Counts(), withoutDate: 0, ledger: ReconciliationLedger(exactCurrencies: ledger.exactCurrencies)
    )
    swap(&counts, &one.counts)
    swap(&withoutDate, &one.withoutDate)
    swap(&ledger, &one.ledger)
    convert(fields)
    converter?.flush(into: &ledger)
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
    converter?.flush(into: &ledger)
    return (counts, withoutDate, ledger)
  }

  /// Converts a record on the fast path; `false` leaves it to the general rules.
  private mutating func convertFast(_ fields: RecordFields) -> Bool {
    guard converter != nil, fields.problem == nil, case .success(let found) = normalizer.rateKey(of: fields),
      case .success(let written) = normalizer.amount(of: fields, parser: parser, currency: found.key.pair.base),
      case .success(let amount) = normalizer.majorAmount(written, currency: found.key.pair.base)
    else { return false }
    return convert(key: found.key, usedDefaultDay: found.usedDefaultDay, amount: amount)
  }

  /// Converts a record whose key and amount (in major units) were read already (by the general rules, or from
  /// their cached answers: ``XLSXRowDecoder``) on the fast path, and counts it; `false` (nothing counted) leaves the record to
  /// ``convert(_:)``.
  mutating func convert(key: RateKey, usedDefaultDay: Bool, amount: ExactDecimal) -> Bool {
    decimals = nil
    rateDay = nil
    guard converter != nil,
      let conversion = converter?.convert(base: key.pair.base, quote: key.pair.quote, day: key.day, amount: amount),
      let ends = converter?.appendValues(conversion, to: &scratch)
    else { return false }
    counts.records += 1
    if conversion.isFallback { counts.fallback += 1 } else { counts.ok += 1 }
    if usedDefaultDay { withoutDate += 1 }
    swap(&valueBytes, &scratch)
    scratch.removeAll()
    (valueEnds[0], valueEnds[1], valueEnds[2], valueEnds[3]) = (ends.rate, ends.converted, ends.currency, ends.day)
    (valueEnds[4], valueEnds[5], valueEnds[6]) = (ends.source, ends.status, ends.status)  // the last: no error
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
