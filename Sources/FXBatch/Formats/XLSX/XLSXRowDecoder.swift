/// Decodes a record row's rate key and amounts from the cells ``XLSXSheetScanner`` read by its simple rules, for
/// both passes of a sheet the scanner reads: it locates the cells and feeds them to the one cached key decoder
/// (``FieldKeyDecoder``), one per kind of cell bytes (inline text, a shared string's index, a number), so that
/// equal bytes of different kinds are never taken for each other. In pass 2 it reads a row for the engine's
/// per-record rule (``read(_:in:keys:amounts:)``, ``FastRecordConverter``), which converts it.
///
/// It decides nothing of its own: a cell's value is what the general path reads from the same cell
/// (``WorkbookRecords/fields(of:mapping:dateField:)``, ``XLSXBook/fields(of:mapping:)``), decoded by the general
/// rules; a cell those rules refuse, a missing cell, text to decode or an amount cell that is not a number gives
/// `nil`, and the caller reads the row whole by the general rules (`FastGeneralDifferentialTests` compares both paths).
///
/// A class: the converter's closures call it for every row, and a struct of caches would be copied at each call.
final class XLSXRowDecoder {
  let normalizer: RecordNormalizer
  let mapping: FieldMapping
  /// What the book says of its cells (not the book itself: a struct of many references, copied at each use).
  private let dateStyles: Set<Int>
  private let dateSystem: XLSXDateSystem
  private let sharedStrings: [String]
  /// The key decoder of text cells (by their bytes; in pass 2 the engine's, ``read(_:in:keys:amounts:)``), of
  /// shared-string cells (by their index's bytes), and of number cells in the date field (a serial date in a
  /// date style; under a unix date format, the number).
  private var textCells: FieldKeyDecoder
  private var sharedCells: FieldKeyDecoder
  private var numberCells: FieldKeyDecoder

  init(book: XLSXBook, mapping: FieldMapping, normalizer: RecordNormalizer) {
    dateStyles = book.dateStyles
    dateSystem = book.dateSystem
    sharedStrings = book.sharedStrings.strings
    self.mapping = mapping
    self.normalizer = normalizer
    textCells = FieldKeyDecoder(normalizer: normalizer)
    sharedCells = FieldKeyDecoder(normalizer: normalizer)
    numberCells = FieldKeyDecoder(normalizer: normalizer)
  }

  /// The row's cell in `column`, if it has one.
  @inline(__always)
  private static func cell(_ column: Int, in cells: [XLSXSheetScanner.Cell]) -> XLSXSheetScanner.Cell? {
    for cell in cells where cell.column >= column { return cell.column == column ? cell : nil }
    return nil
  }

  /// The row's rate key, and whether it used the default day (pass 1); `nil` when the general rules must read the
  /// row.
  func key(_ cells: [XLSXSheetScanner.Cell], in bytes: ByteView) -> (key: RateKey, usedDefaultDay: Bool)? {
    guard let key = key(cells, in: bytes, text: &textCells) else { return nil }
    return (RateKey(base: key.base, quote: key.quote, day: key.day), key.usedDefaultDay)
  }

  /// Reads a record row for the engine's per-record rule (pass 2): its key, text cells decoded through `keys`,
  /// and its amounts (one, or each of `--amount-field A,B,C` in order) when every amount cell is a number the
  /// spreadsheet rule reads (``ExactDecimal/init(spreadsheetNumber:)``: the shortest decimal of its double, the
  /// rule the general path reads it by).
  ///
  /// - Returns: the key; `nil` when the general rules must read the row.
  @inline(__always)
  func read(
    _ cells: [XLSXSheetScanner.Cell], in bytes: ByteView, keys: inout FieldKeyDecoder,
    amounts: inout FastRecordAmounts
  ) -> FieldKeyDecoder.Key? {
    guard let key = key(cells, in: bytes, text: &keys) else { return nil }
    if mapping.amounts.isEmpty { return Self.appendAmount(mapping.amount, cells, bytes, to: &amounts) ? key : nil }
    for column in mapping.amounts where !Self.appendAmount(column, cells, bytes, to: &amounts) { return nil }
    return key
  }

  /// The row's rate key, its text cells decoded through `text`; shared strings and numbers through their own
  /// decoders.
  @inline(__always)
  private func key(_ cells: [XLSXSheetScanner.Cell], in bytes: ByteView, text: inout FieldKeyDecoder)
    -> FieldKeyDecoder.Key?
  {
    let mapping = self.mapping
    return text.key(
      from: { self.currency(mapping.from, in: cells, bytes, text: &$0) },
      to: { self.currency(mapping.to, in: cells, bytes, text: &$0) },
      date: { text in
        guard let column = mapping.date, let cell = Self.cell(column, in: cells) else { return .absent }
        return self.date(cell, bytes, text: &text)
      })
  }

  /// Appends the amount of the row's cell in `column` when it is a plain number; `false` otherwise.
  @inline(__always)
  private static func appendAmount(
    _ column: Int, _ cells: [XLSXSheetScanner.Cell], _ bytes: ByteView, to amounts: inout FastRecordAmounts
  ) -> Bool {
    guard let cell = cell(column, in: cells), cell.kind == .number, cell.isPlain,
      let amount = ExactDecimal(spreadsheetNumber: bytes.slice(cell.value).buffer)
    else { return false }
    return amounts.append(amount)
  }

  /// Whether an amount cell holds text, or is missing (pass 1 then reads the row whole, for the decimal mark's
  /// evidence: every amount column's, with several amounts).
  func amountIsText(_ cells: [XLSXSheetScanner.Cell]) -> Bool {
    if mapping.amounts.isEmpty { return Self.isText(mapping.amount, cells) }
    return mapping.amounts.contains { Self.isText($0, cells) }
  }

  private static func isText(_ column: Int, _ cells: [XLSXSheetScanner.Cell]) -> Bool {
    guard let cell = cell(column, in: cells) else { return true }
    switch cell.kind {
    case .inline, .string, .shared, .empty: return true
    case .number, .other: return false
    }
  }

  /// The code of a currency cell, the row's cell in `column`, by the general rules (text, not blank, a known
  /// code); `text` decodes text cells.
  @inline(__always)
  private func currency(
    _ column: Int?, in cells: [XLSXSheetScanner.Cell], _ bytes: ByteView, text: inout FieldKeyDecoder
  ) -> CurrencyCode? {
    guard let column, let cell = Self.cell(column, in: cells) else { return nil }
    switch cell.kind {
    case .inline, .string:
      guard cell.isPlain else { return nil }
      return text.currency(bytes.slice(cell.value))
    case .shared:
      let index = bytes.slice(cell.value)
      return sharedCells.currency(cacheKey: FieldKeyDecoder.cacheKey(index)) { sharedString(index) }
    case .number, .other, .empty: return nil
    }
  }

  /// A date cell's value by the general rules: a number in a date style is its day (under a unix date format,
  /// any number is the unix time it holds); text is read by the date format (through `text`); empty is no date.
  @inline(__always)
  private func date(
    _ cell: XLSXSheetScanner.Cell, _ bytes: ByteView, text: inout FieldKeyDecoder
  ) -> FieldKeyDecoder.DateValue? {
    switch cell.kind {
    case .empty: return .absent
    case .number:
      guard cell.isPlain else { return nil }
      // The number is its double's shortest decimal (``ExactDecimal/spreadsheetNumberText(_:)``), as the general
      // rules read it; remembered by its bytes.
      let number = bytes.slice(cell.value)
      if normalizer.dateFormat.isUnix {
        return numberCells.date(cacheKey: FieldKeyDecoder.cacheKey(number)) {
          ExactDecimal.spreadsheetNumberText(number.text)
        }
      }
      guard dateStyles.contains(cell.style) else { return nil }
      let dateSystem = self.dateSystem
      return numberCells.date(cacheKey: FieldKeyDecoder.cacheKey(number)) {
        dateSystem.day(ofSerial: ExactDecimal.spreadsheetNumberText(number.text))?.description
      }
    case .inline, .string:
      guard cell.isPlain else { return nil }
      return text.date(bytes.slice(cell.value))
    case .shared:
      let index = bytes.slice(cell.value)
      return sharedCells.date(cacheKey: FieldKeyDecoder.cacheKey(index)) { sharedString(index) }
    case .other: return nil
    }
  }

  /// What the row's date cell says about the order of slash dates (``DateLayoutInference/evidence(_:)``), as the
  /// general path reads the same cell: text through the key decoders' caches; a number (a serial date), an empty
  /// or a missing cell, or no date field say nothing; `nil` when the general rules must read the row.
  func dateEvidence(_ cells: [XLSXSheetScanner.Cell], in bytes: ByteView) -> DateLayoutInference.Evidence? {
    guard let column = mapping.date, let cell = Self.cell(column, in: cells) else { return .neutral }
    switch cell.kind {
    case .empty, .number: return .neutral
    case .inline, .string:
      guard cell.isPlain else { return nil }
      let text = bytes.slice(cell.value)
      // Three digits first (`2024-…`, `20240105`): no slash date that starts with its day or month.
      if text.count >= 3, text[0] &- UInt8(ascii: "0") < 10, text[1] &- UInt8(ascii: "0") < 10,
        text[2] &- UInt8(ascii: "0") < 10
      {
        return .neutral
      }
      return textCells.dateEvidence(text)
    case .shared:
      let index = bytes.slice(cell.value)
      return sharedCells.dateEvidence(cacheKey: FieldKeyDecoder.cacheKey(index)) { sharedString(index) }
    case .other: return nil
    }
  }

  /// The shared string a cell's index names; `nil` for an index that is not one.
  private func sharedString(_ index: ByteView) -> String? {
    guard let index = XLSXSheetScanner.decimal(index), index < sharedStrings.count else { return nil }
    return sharedStrings[index]
  }
}
