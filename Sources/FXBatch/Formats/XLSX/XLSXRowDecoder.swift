/// Decodes a record row's rate key and amount from the cells ``XLSXSheetScanner`` read by its simple rules, for
/// both passes of a sheet the scanner reads: it locates the cells and feeds them to the one cached key decoder
/// (``FieldKeyDecoder``), one per kind of cell bytes (inline text, a shared string's index, a number), so that
/// equal bytes of different kinds are never taken for each other.
///
/// It decides nothing of its own: a cell's value is what the general path reads from the same cell
/// (``WorkbookRecords/fields(of:mapping:dateField:)``, ``XLSXBook/fields(of:mapping:)``), decoded by the general
/// rules; a cell those rules refuse, a missing cell, text to decode or an amount that is not a plain number gives
/// `nil`, and the caller reads the row whole by the general rules (`XLSXFastPathTests` compares both paths).
///
/// A class: the converter's closures call it for every row, and a struct of caches would be copied at each call.
final class XLSXRowDecoder {
  let normalizer: RecordNormalizer
  let mapping: FieldMapping
  /// What the book says of its cells (not the book itself: a struct of many references, copied at each use).
  private let dateStyles: Set<Int>
  private let dateSystem: XLSXDateSystem
  private let sharedStrings: [String]
  /// The key decoder of text cells (by their bytes), of shared-string cells (by their index's bytes), and of
  /// number cells in the date field (a serial date in a date style; under a unix date format, the number).
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

  /// The row's rate key, and whether it used the default day; `nil` when the general rules must read the row.
  func key(_ cells: [XLSXSheetScanner.Cell], in bytes: ByteView) -> (key: RateKey, usedDefaultDay: Bool)? {
    let mapping = self.mapping
    // Text cells are decoded through the decoder `key` is given, shared strings and numbers through their own.
    guard
      let key = textCells.key(
        from: { self.currency(mapping.from, in: cells, bytes, text: &$0) },
        to: { self.currency(mapping.to, in: cells, bytes, text: &$0) },
        date: { text in
          guard let column = mapping.date, let cell = Self.cell(column, in: cells) else { return .absent }
          return self.date(cell, bytes, text: &text)
        })
    else { return nil }
    return (RateKey(base: key.base, quote: key.quote, day: key.day), key.usedDefaultDay)
  }

  /// The row's amount when its cell is a plain number (``FieldKeyDecoder/plainNumber(_:)``), in the
  /// from-currency's major units (``FieldKeyDecoder/majorAmount(_:currency:)``).
  @inline(__always)
  func amount(_ cells: [XLSXSheetScanner.Cell], in bytes: ByteView, currency: CurrencyCode) -> ExactDecimal? {
    guard let cell = Self.cell(mapping.amount, in: cells), cell.kind == .number, cell.isPlain,
      let amount = FieldKeyDecoder.plainNumber(bytes.slice(cell.value))
    else { return nil }
    return numberCells.majorAmount(amount, currency: currency)
  }

  /// Whether the amount cell holds text (which pass 1 reads whole, for the decimal mark's evidence).
  func amountIsText(_ cells: [XLSXSheetScanner.Cell]) -> Bool {
    guard let cell = Self.cell(mapping.amount, in: cells) else { return true }
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

  /// The shared string a cell's index names; `nil` for an index that is not one.
  private func sharedString(_ index: ByteView) -> String? {
    guard let index = XLSXSheetScanner.decimal(index), index < sharedStrings.count else { return nil }
    return sharedStrings[index]
  }
}
