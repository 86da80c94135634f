/// The fields fxbatch appends to every record, in this order.
public enum AnnotationColumn: String, CaseIterable, Sendable {
  /// Units of `fx_currency` per one unit of the record's currency (see ``RateQuote/rateText``).
  case rate = "fx_rate"
  /// The converted amount, rounded once to the target currency's ISO 4217 minor units, `.` decimal mark
  /// (`,` with `--output-decimal-separator ,`).
  case converted = "fx_converted"
  /// The target (quote) currency's ISO 4217 code.
  case currency = "fx_currency"
  /// The publication day of the rates used, `YYYY-MM-DD`.
  case rateDate = "fx_rate_date"
  /// The rate source and the published rates used (see ``RateQuote/source``).
  case source = "fx_source"
  /// `ok`, `fallback` (rates of an earlier day were used), `error`, or `skipped` (a summary row, copied as it is).
  case status = "fx_status"
  /// `code: message` for a record that could not be converted; empty otherwise.
  case error = "fx_error"

  /// Whether field names end with the annotation fields, in order: the header (or first record) of an fxbatch
  /// output, which is never converted again (it would repeat them). An output of several amounts has
  /// `fx_converted_NAME` fields in `fx_converted`'s place (``AnnotationLayout``).
  static func endAnnotated(_ names: [String]) -> Bool {
    if names.suffix(allCases.count).elementsEqual(allCases.lazy.map(\.rawValue)) { return true }
    let after = allCases.suffix(5).map(\.rawValue)
    guard names.count >= after.count + 3, names.suffix(after.count).elementsEqual(after) else { return false }
    let before = names.dropLast(after.count)
    let converted = before.reversed().prefix { $0.hasPrefix(AnnotationLayout.convertedPrefix) }
    return converted.count >= 2 && before.dropLast(converted.count).last == AnnotationColumn.rate.rawValue
  }
}

/// The annotation fields of a run, in order: ``AnnotationColumn``'s with one amount; with several amounts
/// (`--amount-field A,B,C`), `fx_converted_NAME` per amount in `fx_converted`'s place. Every format's writer
/// names and places its fields from it.
public struct AnnotationLayout: Sendable, Equatable {
  /// The amounts' NAMEs when there are several; empty for one amount.
  public let amountNames: [String]

  /// The layout of these amounts (``FieldNames/amountNames``: empty for one amount).
  public init(amountNames: [String]) { self.amountNames = amountNames.count > 1 ? amountNames : [] }

  /// One amount: ``AnnotationColumn``'s fields.
  public static let single = AnnotationLayout(amountNames: [])

  /// `fx_converted_`, before a NAME.
  static let convertedPrefix = AnnotationColumn.converted.rawValue + "_"

  /// How many converted amounts a record has.
  public var amountCount: Int { max(1, amountNames.count) }

  /// How many fields: six and one per amount.
  public var count: Int { AnnotationColumn.allCases.count - 1 + amountCount }

  /// Each field's column, in order: `converted` once per amount.
  public var columns: [AnnotationColumn] {
    [.rate] + Array(repeating: .converted, count: amountCount) + AnnotationColumn.allCases.suffix(5)
  }

  /// The fields' names (a CSV header, JSON members, a workbook's header cells): `fx_rate`, `fx_converted` or
  /// `fx_converted_NAME` per amount, `fx_currency`, …, `fx_error`.
  public var fieldNames: [String] {
    guard !amountNames.isEmpty else { return AnnotationColumn.allCases.map(\.rawValue) }
    return [AnnotationColumn.rate.rawValue] + amountNames.map { Self.convertedPrefix + $0 }
      + AnnotationColumn.allCases.suffix(5).map(\.rawValue)
  }

  /// The names a record must not have already to be annotated (a JSON record's members): ``fieldNames``, one
  /// amount's annotation fields and `fx_input`. A record that has one is fxbatch output, or would get that member
  /// twice (a member `fx_converted_Fee` beside the run's `fx_converted_Fee`).
  public var existingNames: Set<String> {
    Set(fieldNames + AnnotationColumn.allCases.map(\.rawValue) + ["fx_input"])
  }

  /// The XML `fx` element's attribute names: `rate`, `converted` or `converted-NAME` per amount, `currency`,
  /// `rate-date`, `source`, `status`, `error`.
  public var xmlAttributeNames: [String] {
    let after = ["currency", "rate-date", "source", "status", "error"]
    guard !amountNames.isEmpty else { return ["rate", "converted"] + after }
    return ["rate"] + amountNames.map { "converted-" + $0 } + after
  }
}

/// What happened to one record.
public enum RowOutcome: Sendable, Equatable {
  /// Converted: the amount in the target currency, and the quote that gave the rate; with several amounts, the
  /// second and later converted amounts in order (`more`).
  case converted(ExactDecimal, currency: CurrencyCode, quote: RateQuote, more: [ExactDecimal] = [])
  /// Not converted; `currency` is the target currency when it is known.
  case failed(RowError, currency: CurrencyCode?, source: String?)
  /// A summary row (``RowSkipRule``): copied as it is, never converted; its annotation is empty but `fx_status`.
  case skipped

  /// `ok`, `fallback`, `error` or `skipped`.
  public var status: String {
    switch self {
    case .converted(_, _, let quote, _): return quote.isFallback ? "fallback" : "ok"
    case .failed: return "error"
    case .skipped: return "skipped"
    }
  }

  /// The annotation values in ``AnnotationColumn`` order, numbers with a decimal point.
  public var cells: [String] { cells(decimalMark: .point) }

  /// The annotation values in ``AnnotationColumn`` order; with several amounts, in ``AnnotationLayout`` order
  /// (a converted value per amount, all empty for a record that failed).
  ///
  /// - Parameters:
  ///   - decimalMark: the decimal mark of `fx_rate` and `fx_converted` (`--output-decimal-separator`); the
  ///     writer quotes a cell that holds the delimiter.
  ///   - layout: the run's annotation fields.
  public func cells(decimalMark: DecimalMark, layout: AnnotationLayout = .single) -> [String] {
    func marked(_ text: String) -> String {
      decimalMark == .comma ? String(text.map { $0 == "." ? "," : $0 }) : text
    }
    switch self {
    case .converted(let amount, let currency, let quote, let more):
      let converted = ([amount] + more).map { marked($0.description) }
      return [marked(quote.rateText)] + converted + [
        currency.description, quote.rateDateText, quote.source, status, "",
      ]
    case .failed(let error, let currency, let source):
      return [""] + Array(repeating: "", count: layout.amountCount) + [
        currency?.description ?? "", "", source ?? "", status, Self.neutralized(error.description),
      ]
    case .skipped:
      return Array(repeating: "", count: layout.count - 2) + [status, ""]
    }
  }

  /// Makes sure a cell cannot start a spreadsheet formula (`=`, `+`, `-`, `@`, tab, CR): such a cell gets a
  /// leading apostrophe, as OWASP's CSV-injection guidance recommends.
  static func neutralized(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
    return "'" + text
  }
}
