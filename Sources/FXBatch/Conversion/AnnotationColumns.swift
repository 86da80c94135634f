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
  /// `ok`, `fallback` (rates of an earlier day were used) or `error`.
  case status = "fx_status"
  /// `code: message` for a record that could not be converted; empty otherwise.
  case error = "fx_error"

  /// Whether field names end with the annotation fields, in order: the header (or first record) of an fxbatch
  /// output, which is never converted again (it would repeat them).
  static func endAnnotated(_ names: [String]) -> Bool {
    names.suffix(allCases.count).elementsEqual(allCases.lazy.map(\.rawValue))
  }
}

/// What happened to one record.
public enum RowOutcome: Sendable, Equatable {
  /// Converted: the amount in the target currency, and the quote that gave the rate.
  case converted(ExactDecimal, currency: CurrencyCode, quote: RateQuote)
  /// Not converted; `currency` is the target currency when it is known.
  case failed(RowError, currency: CurrencyCode?, source: String?)

  /// `ok`, `fallback` or `error`.
  public var status: String {
    switch self {
    case .converted(_, _, let quote): return quote.isFallback ? "fallback" : "ok"
    case .failed: return "error"
    }
  }

  /// The annotation values in ``AnnotationColumn`` order, numbers with a decimal point.
  public var cells: [String] { cells(decimalMark: .point) }

  /// The annotation values in ``AnnotationColumn`` order.
  ///
  /// - Parameter decimalMark: the decimal mark of `fx_rate` and `fx_converted` (`--output-decimal-separator`);
  ///   the writer quotes a cell that holds the delimiter.
  public func cells(decimalMark: DecimalMark) -> [String] {
    switch self {
    case .converted(let amount, let currency, let quote):
      var rate = quote.rateText
      var converted = amount.description
      if decimalMark == .comma {
        rate = String(rate.map { $0 == "." ? "," : $0 })
        converted = String(converted.map { $0 == "." ? "," : $0 })
      }
      return [rate, converted, currency.description, quote.rateDateText, quote.source, status, ""]
    case .failed(let error, let currency, let source):
      return ["", "", currency?.description ?? "", "", source ?? "", status, Self.neutralized(error.description)]
    }
  }

  /// Makes sure a cell cannot start a spreadsheet formula (`=`, `+`, `-`, `@`, tab, CR): such a cell gets a
  /// leading apostrophe, as OWASP's CSV-injection guidance recommends.
  static func neutralized(_ text: String) -> String {
    guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
    return "'" + text
  }
}
