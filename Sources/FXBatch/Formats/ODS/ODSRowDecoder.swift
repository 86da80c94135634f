/// Decodes a record row's rate key and amounts from the cells ``ODSContentScanner`` read (``ODSContentScanner/cells``),
/// for both passes of a table the scanner reads, as ``XLSXRowDecoder`` does for `.xlsx`: it locates the cells and
/// feeds their bytes to the one cached key decoder (``FieldKeyDecoder``), one per kind of cell (a string cell's
/// text, a date cell's `office:date-value`, a number), so that equal bytes of different kinds are never taken for
/// each other. In pass 2 it reads a row for the engine's per-record rule (``read(_:in:keys:amounts:)``,
/// ``FastRecordConverter``), which converts it.
///
/// It decides nothing of its own: a cell's value is what the general road reads from the same cell
/// (``ODSContentScanner/value(of:)``, ``WorkbookRecords/fields(of:mapping:dateField:cellName:)``), decoded by the
/// general rules (a date cell's value through ``WorkbookRecords/typedDay(_:)``, a number through
/// ``ExactDecimal/init(spreadsheetNumber:)``); a cell those rules refuse, a missing currency, text to decode (a
/// reference, a span), an amount cell that is not a number gives `nil`, and the caller reads the row whole by the
/// general rules (`ODSFastPathTests`, `FastGeneralDifferentialTests` compare both).
///
/// A class: the converter's closures call it for every row, and a struct of caches would be copied at each call.
final class ODSRowDecoder {
  typealias Cell = ODSContentScanner.Cell
  let normalizer: RecordNormalizer
  let mapping: FieldMapping
  /// The key decoder of string cells (by their text; in pass 2 the engine's, ``read(_:in:keys:amounts:)``), of
  /// date cells (by their `office:date-value`), and of number cells in the date field (under a unix date format).
  private var textCells: FieldKeyDecoder
  private var dateCells: FieldKeyDecoder
  private var numberCells: FieldKeyDecoder

  init(mapping: FieldMapping, normalizer: RecordNormalizer) {
    self.mapping = mapping
    self.normalizer = normalizer
    textCells = FieldKeyDecoder(normalizer: normalizer)
    dateCells = FieldKeyDecoder(normalizer: normalizer)
    numberCells = FieldKeyDecoder(normalizer: normalizer)
  }

  /// The row's used cell standing for `column`, if it has one (a cell may stand for several columns).
  @inline(__always)
  static func cell(_ column: Int, in cells: [Cell]) -> Cell? {
    for cell in cells where cell.column + cell.count > column { return cell.column <= column ? cell : nil }
    return nil
  }

  /// Whether every amount cell of the row is a number cell (its amount then says nothing of the decimal mark,
  /// and the row is not blank).
  func amountsAreNumbers(_ cells: [Cell]) -> Bool {
    if mapping.amounts.isEmpty { return Self.isNumber(mapping.amount, cells) }
    return mapping.amounts.allSatisfy { Self.isNumber($0, cells) }
  }

  private static func isNumber(_ column: Int, _ cells: [Cell]) -> Bool {
    guard let cell = cell(column, in: cells), case .number = cell.value else { return false }
    return true
  }

  /// The row's rate key, and whether it used the default day (pass 1); `nil` when the general rules must read
  /// the row.
  func key(_ cells: [Cell], in bytes: ByteView) -> (key: RateKey, usedDefaultDay: Bool)? {
    guard let key = key(cells, in: bytes, text: &textCells) else { return nil }
    return (RateKey(base: key.base, quote: key.quote, day: key.day), key.usedDefaultDay)
  }

  /// Reads a record row for the engine's per-record rule (pass 2): its key, string cells decoded through `keys`,
  /// and its amounts (one, or each of `--amount-field A,B,C` in order) when every amount cell is a number.
  ///
  /// - Returns: the key; `nil` when the general rules must read the row.
  @inline(__always)
  func read(_ cells: [Cell], in bytes: ByteView, keys: inout FieldKeyDecoder, amounts: inout FastRecordAmounts)
    -> FieldKeyDecoder.Key?
  {
    guard let key = key(cells, in: bytes, text: &keys) else { return nil }
    if mapping.amounts.isEmpty { return Self.appendAmount(mapping.amount, cells, bytes, to: &amounts) ? key : nil }
    for column in mapping.amounts where !Self.appendAmount(column, cells, bytes, to: &amounts) { return nil }
    return key
  }

  @inline(__always)
  private func key(_ cells: [Cell], in bytes: ByteView, text: inout FieldKeyDecoder) -> FieldKeyDecoder.Key? {
    let mapping = self.mapping
    return text.key(
      from: { Self.currency(mapping.from, in: cells, bytes, text: &$0) },
      to: { Self.currency(mapping.to, in: cells, bytes, text: &$0) },
      date: { text in
        guard let column = mapping.date, let cell = Self.cell(column, in: cells) else { return .absent }
        return self.date(cell, bytes, text: &text)
      })
  }

  /// Appends the amount of the row's cell in `column` when it is a number cell; `false` otherwise. (The general
  /// road reads it as ``ExactDecimal/spreadsheetNumberText(_:)`` of the same bytes.)
  @inline(__always)
  private static func appendAmount(_ column: Int, _ cells: [Cell], _ bytes: ByteView, to amounts: inout FastRecordAmounts)
    -> Bool
  {
    guard let cell = cell(column, in: cells), case .number(let range) = cell.value,
      let amount = ExactDecimal(spreadsheetNumber: bytes.slice(range).buffer)
    else { return false }
    return amounts.append(amount)
  }

  /// The code of a currency cell by the general rules (text, not blank, a known code); `text` decodes it.
  @inline(__always)
  private static func currency(_ column: Int?, in cells: [Cell], _ bytes: ByteView, text: inout FieldKeyDecoder)
    -> CurrencyCode?
  {
    guard let column, let cell = cell(column, in: cells), case .text(let range) = cell.value else { return nil }
    return text.currency(bytes.slice(range))
  }

  /// A date cell's value by the general rules: a date cell's value is its day (``WorkbookRecords/typedDay(_:)``,
  /// then the date format); text is read by the date format (through `text`); an empty cell is no date; a number
  /// is the unix time it holds under a unix date format (else the general rules read it).
  @inline(__always)
  private func date(_ cell: Cell, _ bytes: ByteView, text: inout FieldKeyDecoder) -> FieldKeyDecoder.DateValue? {
    switch cell.value {
    case .date(let range):
      let value = bytes.slice(range)
      return dateCells.date(cacheKey: FieldKeyDecoder.cacheKey(value)) { WorkbookRecords.typedDay(value.text) }
    case .text(let range):
      return text.date(bytes.slice(range))
    case .number(let range):
      guard normalizer.dateFormat.isUnix else { return nil }
      let number = bytes.slice(range)
      return numberCells.date(cacheKey: FieldKeyDecoder.cacheKey(number)) {
        ExactDecimal.spreadsheetNumberText(number.text)
      }
    case .other(.empty): return .absent
    case .other: return nil
    }
  }

  /// What the row's date cell says about the order of slash dates (``DateLayoutInference/evidence(_:)``), as the
  /// general road reads the same cell: a date cell's day and text through the key decoders' caches; a number, an
  /// empty or a missing cell, or no date field say nothing; `nil` when the general rules must read the row.
  func dateEvidence(_ cells: [Cell], in bytes: ByteView) -> DateLayoutInference.Evidence? {
    guard let column = mapping.date, let cell = Self.cell(column, in: cells) else { return .neutral }
    switch cell.value {
    case .number, .other(.empty): return .neutral
    case .date(let range):
      // Three digits first (`2024-…`): its day (the first ten bytes, or all) is no slash date either.
      let value = bytes.slice(range)
      if FieldKeyDecoder.startsWithThreeDigits(value) { return .neutral }
      return dateCells.dateEvidence(cacheKey: FieldKeyDecoder.cacheKey(value)) {
        WorkbookRecords.typedDay(value.text)
      }
    case .text(let range): return textCells.dateEvidence(bytes.slice(range))
    case .other: return nil
    }
  }
}
