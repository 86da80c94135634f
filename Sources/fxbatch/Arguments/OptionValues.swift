import FXBatch

/// Reading typed values out of option text, each failure a ``UsageError`` naming the option.
enum OptionValues {
  static func currency(_ text: String, option: String) throws(UsageError) -> CurrencyCode {
    guard let code = CurrencyCode(text) else { throw UsageError("\(option) \(text): not an ISO 4217 currency code") }
    return code
  }

  static func day(_ text: String, option: String) throws(UsageError) -> CalendarDay {
    guard let day = CalendarDay(iso8601: text) else {
      let layout = text.utf8.count == 10 && text.split(separator: "-").count == 3
      throw UsageError("\(option) \(text): \(layout ? "not a calendar date" : "expected a YYYY-MM-DD date")")
    }
    return day
  }

  static func nonNegativeInteger(_ text: String, option: String) throws(UsageError) -> Int {
    guard let value = Int(text), value >= 0, value <= 100_000 else {
      throw UsageError("\(option) \(text): expected a whole number of days (0 or more)")
    }
    return value
  }

  static func rounding(_ text: String) throws(UsageError) -> RoundingMode {
    guard let mode = RoundingMode(rawValue: text) else {
      throw UsageError("--rounding \(text): expected one of \(RoundingMode.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return mode
  }

  static func delimiter(_ text: String) throws(UsageError) -> UInt8 {
    switch text {
    case ",": return UInt8(ascii: ",")
    case ";": return UInt8(ascii: ";")
    case "tab", "\\t", "\t": return UInt8(ascii: "\t")
    default: throw UsageError("--delimiter \(text): expected , or ; or tab")
    }
  }

  static func decimalMark(_ text: String) throws(UsageError) -> DecimalMark {
    guard let mark = DecimalMark(rawValue: text) else { throw UsageError("--decimal-separator \(text): expected . or ,") }
    return mark
  }

  static func dateFormat(_ text: String) throws(UsageError) -> DateFormat {
    guard let format = DateFormat(rawValue: text) else {
      throw UsageError("--date-format \(text): expected one of \(DateFormat.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return format
  }
}
