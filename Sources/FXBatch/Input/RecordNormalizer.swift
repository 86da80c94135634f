import Foundation

/// Turns a record's fields into what conversion needs: the exact amount, the ISO 4217 codes of the base
/// (from) and quote (to) currencies, and the value date; or the row's error.
public struct RecordNormalizer: Sendable {
  public let mapping: FieldMapping
  public let headerFieldCount: Int
  /// `--from CODE`: the from-currency of every record.
  public let fixedFrom: CurrencyCode?
  /// `--to CODE`: the to-currency of every record.
  public let fixedTo: CurrencyCode?
  public let dateFormat: DateFormat
  /// The day of records without a date (`--date`, else the newest rate day).
  public let defaultDay: CalendarDay
  /// What currency fields name: codes, `--alias` names, symbols.
  public let currencies: CurrencyResolver

  public init(
    mapping: FieldMapping, headerFieldCount: Int, fixedFrom: CurrencyCode?, fixedTo: CurrencyCode?, dateFormat: DateFormat,
    defaultDay: CalendarDay, currencies: CurrencyResolver = CurrencyResolver()
  ) {
    self.currencies = currencies
    self.mapping = mapping
    self.headerFieldCount = headerFieldCount
    self.fixedFrom = fixedFrom
    self.fixedTo = fixedTo
    self.dateFormat = dateFormat
    self.defaultDay = defaultDay
  }

  /// A field's value, or `nil` when the record is too short to have it.
  private func value(_ record: CSVRecord, _ index: Int?) -> String? {
    guard let index, index < record.fieldCount else { return nil }
    return record.field(index)
  }

  /// The amount field's text (for inferring the column's decimal mark).
  public func amountText(of record: CSVRecord) -> String? { value(record, mapping.amount) }

  /// The to-currency, when the record names a valid one (to annotate error rows with it).
  public func targetCurrency(of record: CSVRecord) -> CurrencyCode? {
    fixedTo ?? value(record, mapping.to).flatMap { try? currencies.currency($0).get() }
  }

  /// The rate question of a record: its currencies and its day; `usedDefaultDay` tells whether the record had
  /// no date.
  ///
  /// - Returns: the key, or the first of these errors: `extra_fields`, `missing_field` / `unknown_currency`
  ///   / `ambiguous_currency` for the from- then the to-currency, `invalid_date`.
  public func rateKey(of record: CSVRecord) -> Result<(key: RateKey, usedDefaultDay: Bool), RowError> {
    if record.fieldCount > headerFieldCount {
      return .failure(
        RowError(
          .extraFields,
          "the record has \(record.fieldCount) fields, the header \(headerFieldCount); fix its quoting or delimiters"))
    }
    let from: CurrencyCode
    switch currency(record, mapping.from, fixed: fixedFrom, role: "from") {
    case .success(let code): from = code
    case .failure(let error): return .failure(error)
    }
    let to: CurrencyCode
    switch currency(record, mapping.to, fixed: fixedTo, role: "to") {
    case .success(let code): to = code
    case .failure(let error): return .failure(error)
    }
    guard let dateText = value(record, mapping.date), !dateText.trimmingWhitespace.isEmpty else {
      return .success((RateKey(base: from, quote: to, day: defaultDay), true))
    }
    switch dateFormat.parse(dateText) {
    case .success(let day): return .success((RateKey(base: from, quote: to, day: day), false))
    case .failure(let error): return .failure(error)
    }
  }

  private func currency(_ record: CSVRecord, _ index: Int?, fixed: CurrencyCode?, role: String) -> Result<CurrencyCode, RowError>
  {
    if let fixed { return .success(fixed) }
    guard let text = value(record, index), !text.trimmingWhitespace.isEmpty else {
      return .failure(RowError(.missingField, "the \(role)-currency is empty"))
    }
    return currencies.currency(text)
  }
}
