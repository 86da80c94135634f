/// Decodes a record row's rate key and amount from the cells ``XLSXSheetScanner`` read by its simple rules,
/// through caches of the distinct values of the currency and date cells, for both passes of a sheet the scanner
/// reads.
///
/// It decides nothing of its own: a value it has not seen is decoded by the rules the general path applies to
/// the same cell (``WorkbookRecords/fields(of:mapping:dateField:)``, ``XLSXBook/fields(of:mapping:)``, then
/// ``RecordNormalizer``) and remembered; a cell those rules refuse, a missing cell, text to decode or an amount
/// that is not a plain number gives `nil`, and the caller reads the row whole by the general rules
/// (`XLSXFastPathTests` compares both paths).
///
/// A class: the converter's closures call it for every row, and a struct of caches would be copied at each call.
final class XLSXRowDecoder {
  let normalizer: RecordNormalizer
  let mapping: FieldMapping
  /// What the book says of its cells (not the book itself: a struct of many references, copied at each use).
  private let dateStyles: Set<Int>
  private let dateSystem: XLSXDateSystem
  private let sharedStrings: [String]
  private var currencies = ShortFieldCache<CurrencyCode>()
  private var sharedCurrencies: [Int: CurrencyCode?] = [:]
  private var serialDates = ShortFieldCache<CSVFieldDecoder.DateValue>()
  private var textDates = ShortFieldCache<CSVFieldDecoder.DateValue>()
  private var sharedDates: [Int: CSVFieldDecoder.DateValue?] = [:]

  init(book: XLSXBook, mapping: FieldMapping, normalizer: RecordNormalizer) {
    dateStyles = book.dateStyles
    dateSystem = book.dateSystem
    sharedStrings = book.sharedStrings.strings
    self.mapping = mapping
    self.normalizer = normalizer
  }

  /// The row's cell in `column`, if it has one.
  @inline(__always)
  private static func cell(_ column: Int, in cells: [XLSXSheetScanner.Cell]) -> XLSXSheetScanner.Cell? {
    for cell in cells where cell.column >= column { return cell.column == column ? cell : nil }
    return nil
  }

  /// The row's rate key, and whether it used the default day; `nil` when the general rules must read the row.
  func key(_ cells: [XLSXSheetScanner.Cell], in bytes: ByteView) -> (key: RateKey, usedDefaultDay: Bool)? {
    let from: CurrencyCode
    if let fixed = normalizer.fixedFrom {
      from = fixed
    } else {
      guard let column = mapping.from, let cell = Self.cell(column, in: cells), let found = currency(cell, bytes) else {
        return nil
      }
      from = found
    }
    let to: CurrencyCode
    if let fixed = normalizer.fixedTo {
      to = fixed
    } else {
      guard let column = mapping.to, let cell = Self.cell(column, in: cells), let found = currency(cell, bytes) else {
        return nil
      }
      to = found
    }
    var value = CSVFieldDecoder.DateValue.absent
    if let column = mapping.date, let cell = Self.cell(column, in: cells) {
      guard let found = date(cell, bytes) else { return nil }
      value = found
    }
    switch value {
    case .day(let day): return (RateKey(base: from, quote: to, day: day), false)
    case .absent: return (RateKey(base: from, quote: to, day: normalizer.defaultDay), true)
    }
  }

  /// The row's amount when its cell is a plain number (`-1234.56`: digits, at most one point, no exponent),
  /// which the general rules read exactly as written (``ExactDecimal/init(plainUTF8:)``).
  @inline(__always)
  func amount(_ cells: [XLSXSheetScanner.Cell], in bytes: ByteView) -> ExactDecimal? {
    guard let cell = Self.cell(mapping.amount, in: cells), cell.kind == .number, cell.isPlain else { return nil }
    let text = bytes.slice(cell.value)
    for byte in text where byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return nil }
    return ExactDecimal(plainUTF8: text.buffer)
  }

  /// Whether the amount cell holds text (which pass 1 reads whole, for the decimal mark's evidence).
  func amountIsText(_ cells: [XLSXSheetScanner.Cell]) -> Bool {
    guard let cell = Self.cell(mapping.amount, in: cells) else { return true }
    switch cell.kind {
    case .inline, .string, .shared, .empty: return true
    case .number, .other: return false
    }
  }

  /// A currency cell's code by the general rules (text, not blank, a known code), remembered by its bytes.
  @inline(__always)
  private func currency(_ cell: XLSXSheetScanner.Cell, _ bytes: ByteView) -> CurrencyCode? {
    switch cell.kind {
    case .inline, .string:
      guard cell.isPlain else { return nil }
      let key = ShortFieldCache<CurrencyCode>.key(bytes.slice(cell.value))
      if let key, let known = currencies.value(for: key) { return known }
      guard let code = Self.currency(String(decoding: bytes.slice(cell.value).buffer, as: UTF8.self), normalizer) else {
        return nil
      }
      if let key { currencies.insert(code, for: key) }
      return code
    case .shared:
      guard let index = XLSXSheetScanner.decimal(bytes.slice(cell.value)) else { return nil }
      if let known = sharedCurrencies[index] { return known }
      let code = Self.currency(sharedStrings[index], normalizer)
      sharedCurrencies[index] = code
      return code
    case .number, .other, .empty: return nil
    }
  }

  private static func currency(_ text: String, _ normalizer: RecordNormalizer) -> CurrencyCode? {
    guard !text.trimmingWhitespace.isEmpty, case .success(let code) = normalizer.currencies.currency(text) else {
      return nil
    }
    return code
  }

  /// A date cell's day by the general rules (a number in a date style is its day; text is read by the date
  /// format; empty is no date), remembered by its bytes.
  @inline(__always)
  private func date(_ cell: XLSXSheetScanner.Cell, _ bytes: ByteView) -> CSVFieldDecoder.DateValue? {
    switch cell.kind {
    case .empty: return .absent
    case .number:
      guard cell.isPlain, dateStyles.contains(cell.style) else { return nil }
      let key = ShortFieldCache<CSVFieldDecoder.DateValue>.key(bytes.slice(cell.value))
      if let key, let known = serialDates.value(for: key) { return known }
      let serial = String(decoding: bytes.slice(cell.value).buffer, as: UTF8.self)
      guard let day = dateSystem.day(ofSerial: serial), let value = date(text: day.description) else { return nil }
      if let key { serialDates.insert(value, for: key) }
      return value
    case .inline, .string:
      guard cell.isPlain else { return nil }
      let key = ShortFieldCache<CSVFieldDecoder.DateValue>.key(bytes.slice(cell.value))
      if let key, let known = textDates.value(for: key) { return known }
      guard let value = date(text: String(decoding: bytes.slice(cell.value).buffer, as: UTF8.self)) else { return nil }
      if let key { textDates.insert(value, for: key) }
      return value
    case .shared:
      guard let index = XLSXSheetScanner.decimal(bytes.slice(cell.value)) else { return nil }
      if let known = sharedDates[index] { return known }
      let value = date(text: sharedStrings[index])
      sharedDates[index] = value
      return value
    case .other: return nil
    }
  }

  /// A date text's value as ``RecordNormalizer/rateKey(of:)`` reads it: blank is no date.
  private func date(text: String) -> CSVFieldDecoder.DateValue? {
    guard !text.trimmingWhitespace.isEmpty else { return .absent }
    guard case .success(let day) = normalizer.dateFormat.parse(text) else { return nil }
    return .day(day)
  }
}
