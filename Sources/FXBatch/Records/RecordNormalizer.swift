import Foundation

/// Turns a record's fields into what conversion needs: the exact amount, the ISO 4217 codes of the base
/// (from) and quote (to) currencies, and the value date; or the row's error.
///
/// The rules work on ``RecordFields``, so every format shares them; CSV records are read through the header's
/// ``FieldMapping``.
public struct RecordNormalizer: Sendable {
  /// Where a CSV record's fields are; `nil` for formats without a header (JSON finds fields by member name).
  public let mapping: FieldMapping?
  /// How many fields a CSV header has (0 for other formats).
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
  /// `--amount-unit`: whether amounts are in the from-currency's major units or whole minor units.
  public let amountUnit: AmountUnit
  /// `--minor-units CODE=N`: the minor units of these currencies' amounts under `--amount-unit minor`, where an
  /// API counts otherwise than ISO 4217 (Stripe's ISK: hundredths).
  public let minorUnitOverrides: [CurrencyCode: Int]

  /// A normalizer for the records of a CSV file with this header.
  public init(
    mapping: FieldMapping, headerFieldCount: Int, fixedFrom: CurrencyCode?, fixedTo: CurrencyCode?, dateFormat: DateFormat,
    defaultDay: CalendarDay, currencies: CurrencyResolver = CurrencyResolver(), amountUnit: AmountUnit = .major,
    minorUnitOverrides: [CurrencyCode: Int] = [:]
  ) {
    self.init(
      mapping: Optional(mapping), headerFieldCount: headerFieldCount, fixedFrom: fixedFrom, fixedTo: fixedTo,
      dateFormat: dateFormat, defaultDay: defaultDay, currencies: currencies, amountUnit: amountUnit,
      minorUnitOverrides: minorUnitOverrides)
  }

  /// A normalizer for records whose fields are found by name (JSON, JSON Lines).
  public init(
    fixedFrom: CurrencyCode?, fixedTo: CurrencyCode?, dateFormat: DateFormat, defaultDay: CalendarDay,
    currencies: CurrencyResolver = CurrencyResolver(), amountUnit: AmountUnit = .major,
    minorUnitOverrides: [CurrencyCode: Int] = [:]
  ) {
    self.init(
      mapping: nil, headerFieldCount: 0, fixedFrom: fixedFrom, fixedTo: fixedTo, dateFormat: dateFormat,
      defaultDay: defaultDay, currencies: currencies, amountUnit: amountUnit,
      minorUnitOverrides: minorUnitOverrides)
  }

  private init(
    mapping: FieldMapping?, headerFieldCount: Int, fixedFrom: CurrencyCode?, fixedTo: CurrencyCode?, dateFormat: DateFormat,
    defaultDay: CalendarDay, currencies: CurrencyResolver, amountUnit: AmountUnit,
    minorUnitOverrides: [CurrencyCode: Int]
  ) {
    self.minorUnitOverrides = minorUnitOverrides
    self.currencies = currencies
    self.amountUnit = amountUnit
    self.mapping = mapping
    self.headerFieldCount = headerFieldCount
    self.fixedFrom = fixedFrom
    self.fixedTo = fixedTo
    self.dateFormat = dateFormat
    self.defaultDay = defaultDay
  }

  // MARK: Any record

  /// The to-currency, when the record names a valid one (to annotate error rows with it).
  public func targetCurrency(of fields: RecordFields) -> CurrencyCode? {
    if let fixedTo { return fixedTo }
    guard case .text(let text) = fields.to else { return nil }
    return try? currencies.currency(text).get()
  }

  /// The rate question of a record: its currencies and its day; `usedDefaultDay` tells whether the record had
  /// no date.
  ///
  /// - Returns: the key, or the first of these errors: the record's ``RecordFields/problem`` (`extra_fields`,
  ///   `invalid_record`), `missing_field` / `unknown_currency` / `ambiguous_currency` for the from- then the
  ///   to-currency, `invalid_date`.
  public func rateKey(of fields: RecordFields) -> Result<(key: RateKey, usedDefaultDay: Bool), RowError> {
    if let problem = fields.problem { return .failure(problem) }
    let from: CurrencyCode
    // Several amounts: without a from-currency field, the first amount's own currency (a money object's), so that
    // pass 1 asks for the key pass 2 converts at (``RecordConverter``).
    var fromValue = fields.from
    if fromValue == .absent, let own = fields.amounts.first(where: { $0.from != .absent }) { fromValue = own.from }
    let fromResult =
      fixedFrom == nil && Self.isBlank(fromValue)
      ? currencyOfAmount(fields, from: fromValue) : currency(fromValue, fixed: fixedFrom, role: "from")
    switch fromResult {
    case .success(let code): from = code
    case .failure(let error): return .failure(error)
    }
    let to: CurrencyCode
    switch currency(fields.to, fixed: fixedTo, role: "to") {
    case .success(let code): to = code
    case .failure(let error): return .failure(error)
    }
    let dateText: String
    switch fields.date {
    case .text(let text) where !text.trimmingWhitespace.isEmpty: dateText = text
    case .text, .null, .absent: return .success((RateKey(base: from, quote: to, day: defaultDay), true))
    case .number(let text) where dateFormat.isUnix: dateText = text
    case .number(let text):
      return .failure(
        RowError(
          .invalidDate,
          "the date is the number \(RowError.quoted(text)); write dates as strings (or pass --date-format unix or unix-ms for unix times)"
        ))
    case .other(let kind): return .failure(RowError(.invalidDate, "the date is \(kind), not a string"))
    }
    switch dateFormat.parse(dateText) {
    case .success(let day): return .success((RateKey(base: from, quote: to, day: day), false))
    case .failure(let error): return .failure(error)
    }
  }

  /// The record's amount, exactly: a JSON number from its text, anything else through the amount parser.
  ///
  /// - Parameters:
  ///   - fields: the record's fields.
  ///   - parser: the amount parser of the file (its decimal mark).
  ///   - currency: the record's from-currency, which a currency mark in a text amount must name.
  /// - Returns: the amount, or `missing_field` (empty, `null` or absent) or `invalid_amount`.
  public func amount(of fields: RecordFields, parser: AmountParser, currency: CurrencyCode?) -> Result<ExactDecimal, RowError> {
    switch fields.amount {
    case .text(let text): return parser.parse(text, currency: currency)
    case .number(let text):
      guard let value = ExactDecimal(jsonNumber: text) else {
        // A spreadsheet's number cell may hold any text (`NaN`, `INF`, `0x10`, ``): not a number at all.
        var utf8 = text
        guard utf8.withUTF8({ ExactDecimal.numberShape($0) }) != nil else {
          return .failure(RowError(.invalidAmount, "\(RowError.quoted(text)) is not a number"))
        }
        return .failure(
          RowError(
            .invalidAmount, "\(RowError.quoted(text)) has more than \(ExactDecimal.maximumDigits) digits or too large an exponent"
          ))
      }
      return .success(value)
    case .null: return .failure(RowError(.missingField, "the amount is null"))
    case .absent: return .failure(RowError(.missingField, "the record has no amount field"))
    case .other(let kind): return .failure(RowError(.invalidAmount, "the amount is \(kind), not a number or a string"))
    }
  }

  /// An amount in the from-currency's major units: the amount as read under `--amount-unit major`; under
  /// `minor`, a whole number of the currency's ISO 4217 minor units (1250 USD → 12.50, 1250 JPY → 1250,
  /// 1250 KWD → 1.250). Every path calls it once the from-currency is known, the fast paths included.
  ///
  /// - Returns: the amount, or `invalid_amount` for a fraction of a minor unit (`12.5` under `minor`) or a
  ///   currency without an ISO 4217 minor unit.
  @inline(__always)
  public func majorAmount(_ amount: ExactDecimal, currency: CurrencyCode) -> Result<ExactDecimal, RowError> {
    guard amountUnit == .minor else { return .success(amount) }
    return Self.majorAmount(minor: amount, minorUnits: minorUnits(of: currency), currency: currency)
  }

  /// How many decimals an amount of `currency` counts under `--amount-unit minor`: `--minor-units`, else
  /// ISO 4217's; `nil` when neither gives any.
  func minorUnits(of currency: CurrencyCode) -> Int? {
    minorUnitOverrides[currency] ?? ISO4217.minorUnits(of: currency)
  }

  /// ``majorAmount(_:currency:)`` under `--amount-unit minor`, with the currency's minor units looked up
  /// (`nil`: it has none).
  static func majorAmount(minor amount: ExactDecimal, minorUnits: Int?, currency: CurrencyCode) -> Result<
    ExactDecimal, RowError
  > {
    let whole = amount.scale == 0 ? amount : amount.normalized
    guard whole.scale == 0 else {
      return .failure(
        RowError(
          .invalidAmount,
          "\(RowError.quoted(amount.description)) is not a whole number of \(currency)'s minor units (--amount-unit minor)"))
    }
    guard let minorUnits else {
      let reason =
        ISO4217.currency(for: currency) == nil
        ? "\(currency) is not in ISO 4217, whose minor units --amount-unit minor counts (say how many with --minor-units \(currency)=N)"
        : "ISO 4217 gives \(currency) no minor unit, which --amount-unit minor counts (say how many with --minor-units \(currency)=N)"
      return .failure(RowError(.invalidAmount, reason))
    }
    guard minorUnits > 0 else { return .success(whole) }
    // significand × 10^−minorUnits: 38 digits at most either way.
    return .success(ExactDecimal(significand: whole.significand, scale: minorUnits))
  }

  /// Whether a currency field says nothing: absent, `null` or blank text.
  static func isBlank(_ value: RecordFields.Value) -> Bool {
    switch value {
    case .absent, .null: return true
    case .text(let text): return text.trimmingWhitespace.isEmpty
    case .number, .other: return false
    }
  }

  /// The from-currency of a record whose from-currency field is absent, `null` or blank: the currency its amount's
  /// text names (`USD 1,234.56`, `1.234,56 EUR`, `-JPY 49,488,402`, `€12.50`; with several amounts, the first
  /// one that names a currency, as with money objects: the others must name the same or none), else
  /// `missing_field` saying that neither names one (fxbatch issue 32).
  func currencyOfAmount(_ fields: RecordFields, from value: RecordFields.Value) -> Result<CurrencyCode, RowError> {
    for amount in fields.amounts.isEmpty ? [fields.amount] : fields.amounts.map(\.amount) {
      if case .text(let text) = amount, let named = currencies.currency(ofAmount: text) { return named }
    }
    switch value {
    case .absent:
      return .failure(
        RowError(
          .missingField,
          "the record has no from-currency field and its amount names no currency (as USD 12.50 or €12.50 would); use --from-field NAME or --from CODE"
        ))
    case .null: return .failure(RowError(.missingField, "the from-currency is null and the amount names no currency"))
    default: return .failure(RowError(.missingField, "the from-currency is empty and the amount names no currency"))
    }
  }

  func currency(_ value: RecordFields.Value, fixed: CurrencyCode?, role: String) -> Result<CurrencyCode, RowError> {
    if let fixed { return .success(fixed) }
    switch value {
    case .text(let text) where !text.trimmingWhitespace.isEmpty: return currencies.currency(text)
    case .text: return .failure(RowError(.missingField, "the \(role)-currency is empty"))
    case .null: return .failure(RowError(.missingField, "the \(role)-currency is null"))
    case .absent: return .failure(RowError(.missingField, "the record has no \(role)-currency field"))
    case .number(let text):
      return .failure(
        RowError(.unknownCurrency, "the \(role)-currency is the number \(RowError.quoted(text)); write ISO 4217 codes as strings")
      )
    case .other(let kind): return .failure(RowError(.unknownCurrency, "the \(role)-currency is \(kind), not a string"))
    }
  }
}
