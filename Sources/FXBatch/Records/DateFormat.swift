import Foundation

/// How the dates of a file's date field are written, and how to read them into a ``CalendarDay``.
///
/// The calendar date is taken as written: a time of day or a UTC offset after it (`2020-01-02T23:30:00-05:00`)
/// never moves the date.
public enum DateFormat: String, CaseIterable, Sendable {
  /// ISO 8601 and unambiguous layouts: `2020-01-02`, `2020/01/02`, `2020.01.02`, `20200102`, the date part of
  /// an ISO 8601 date-time (`2020-01-02T10:00:00Z`, `2020-01-02 10:00`), and the day-first `02.01.2020` used
  /// in German-speaking exports. Slash dates like `03/04/2020` are refused as ambiguous.
  case iso
  /// Day first: `02/01/2020`, `2.1.2020`, `02-01-2020` (and every ``iso`` layout that starts with the year).
  case dayMonthYear = "dmy"
  /// Month first, as in US exports: `01/02/2020`, `1-2-2020` (and every ``iso`` layout that starts with the year).
  case monthDayYear = "mdy"
  /// Unix time in seconds: `1706812800` is 2024-02-01 (the UTC day of the instant). A whole number of seconds,
  /// negative before 1970 (`-1` is 1969-12-31); a fraction other than zeros (`1706812800.5`), an exponent or a
  /// date written as text is `invalid_date`. A JSON number and a workbook's number cell are read as the number.
  case unixSeconds = "unix"
  /// Unix time in milliseconds (`1706812800000`), by the rules of ``unixSeconds``.
  case unixMilliseconds = "unix-ms"

  /// Whether dates are unix times (``unixSeconds``, ``unixMilliseconds``): numbers, not calendar text.
  public var isUnix: Bool { self == .unixSeconds || self == .unixMilliseconds }

  /// Reads one date.
  ///
  /// - Parameter text: the field's text; surrounding whitespace is ignored.
  /// - Returns: the day, or a `invalid_date` ``RowError`` naming the problem.
  public func parse(_ text: String) -> Result<CalendarDay, RowError> {
    let trimmed = text.trimmingWhitespace
    if isUnix { return parseUnixTime(trimmed) }
    let bytes = Array(trimmed.utf8)
    func invalid(_ reason: String) -> Result<CalendarDay, RowError> {
      .failure(RowError(.invalidDate, "\(RowError.quoted(trimmed)) \(reason)"))
    }
    func day(_ year: Int, _ month: Int, _ day: Int) -> Result<CalendarDay, RowError> {
      guard let value = CalendarDay(year: year, month: month, day: day) else {
        return invalid("is not a calendar date")
      }
      return .success(value)
    }
    if bytes.count == 10, let day = CalendarDay(iso8601: trimmed) { return .success(day) }  // the common case
    // YYYYMMDD
    if bytes.count == 8, let year = CalendarDay.number(bytes[0..<4]), let month = CalendarDay.number(bytes[4..<6]),
      let dayOfMonth = CalendarDay.number(bytes[6..<8])
    {
      return day(year, month, dayOfMonth)
    }
    // Split the date part (before a `T` or a space) at its separators.
    let datePart = bytes.prefix { $0 != UInt8(ascii: "T") && $0 != UInt8(ascii: " ") }
    let separators: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: ".")]
    let pieces = datePart.split(omittingEmptySubsequences: false) { separators.contains($0) }
    let separator = datePart.first { separators.contains($0) }
    guard pieces.count == 3, let separator, datePart.allSatisfy({ separators.contains($0) ? $0 == separator : true }),
      let first = CalendarDay.number(ArraySlice(pieces[0])), let second = CalendarDay.number(ArraySlice(pieces[1])),
      let third = CalendarDay.number(ArraySlice(pieces[2])), pieces[1].count <= 2
    else {
      return invalid("is not a date (expected YYYY-MM-DD)")
    }
    if datePart.count != bytes.count, pieces[0].count != 4 {
      return invalid("is not a date (a time may only follow a YYYY-MM-DD date)")
    }
    if let problem = Self.timeProblem(bytes[datePart.count...].dropFirst()) { return invalid(problem) }
    if pieces[0].count == 4 {
      guard pieces[2].count <= 2 else { return invalid("is not a date (expected YYYY-MM-DD)") }
      return day(first, second, third)
    }
    guard pieces[2].count == 4, pieces[0].count <= 2 else {
      return invalid("is not a date (two-digit years are refused; expected YYYY-MM-DD)")
    }
    switch self {
    case .dayMonthYear: return day(third, second, first)
    case .monthDayYear: return day(third, first, second)
    case .unixSeconds, .unixMilliseconds:
      return invalid("is not a unix time")  // read by ``parseUnixTime(_:)`` above
    case .iso:
      if separator == UInt8(ascii: ".") { return day(third, second, first) }
      // One reading only (`1/13/2025`): say which, but never take it unasked, as the file's other dates
      // (`1/6/2025`) are not read by one date alone.
      if first <= 12, second > 12, second <= 31 {
        return invalid("reads only as month/day/year, but slash dates need --date-format: pass --date-format mdy")
      }
      if second <= 12, first > 12, first <= 31 {
        return invalid("reads only as day/month/year, but slash dates need --date-format: pass --date-format dmy")
      }
      return invalid("is ambiguous (day/month or month/day?); pass --date-format dmy or --date-format mdy")
    }
  }

  /// The UTC day of a unix time (``unixSeconds``, ``unixMilliseconds``): an optional `-`, at most 18 digits, and
  /// optionally a `.` with zeros only after it; the day is the instant's floor (−1 s is 1969-12-31), within
  /// the years 1 to 9999.
  private func parseUnixTime(_ trimmed: String) -> Result<CalendarDay, RowError> {
    let unit = self == .unixSeconds ? "seconds" : "milliseconds"
    let option = "--date-format \(rawValue)"
    func invalid(_ reason: String) -> Result<CalendarDay, RowError> {
      .failure(RowError(.invalidDate, "\(RowError.quoted(trimmed)) \(reason)"))
    }
    let bytes = Array(trimmed.utf8)
    let negative = bytes.first == UInt8(ascii: "-")
    let digits = bytes.dropFirst(negative ? 1 : 0).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    let rest = bytes[digits.endIndex...]
    guard !digits.isEmpty else {
      return invalid("is not a unix time (\(option): whole \(unit) since 1970-01-01 UTC)")
    }
    if let first = rest.first {
      let fraction = rest.dropFirst()
      let fractionIsDigits =
        first == UInt8(ascii: ".") && !fraction.isEmpty
        && fraction.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      guard fractionIsDigits else {
        return invalid("is not a unix time (\(option): whole \(unit) since 1970-01-01 UTC, in digits)")
      }
      guard fraction.allSatisfy({ $0 == UInt8(ascii: "0") }) else {
        return invalid("is not a whole number of \(unit) (\(option))")
      }
    }
    guard digits.count <= CalendarDay.maximumNumberDigits, let magnitude = CalendarDay.number(ArraySlice(digits)) else {
      return invalid("is out of range for \(option) (the years 1 to 9999)")
    }
    let value = negative ? -magnitude : magnitude
    let perDay = self == .unixSeconds ? 86_400 : 86_400_000
    // Floor division: an instant before 1970 belongs to the day it falls in, not the one after.
    let days = value >= 0 ? value / perDay : -((-value + perDay - 1) / perDay)
    guard days >= Self.firstUnixDay, days <= Self.lastUnixDay else {
      return invalid("is out of range for \(option) (the years 1 to 9999)")
    }
    return .success(CalendarDay(daysSinceEpoch: days))
  }

  /// 0001-01-01 and 9999-12-31, days since 1970-01-01: the days ``CalendarDay/init(year:month:day:)`` accepts.
  private static let firstUnixDay = -719_162
  private static let lastUnixDay = 2_932_896

  /// What is wrong with the clock time after a date, or `nil` when it is a valid time or not a clock time at all.
  ///
  /// The day is the date as written, whatever the time; but a time that cannot be (`T25:00:00`, `+99:99`)
  /// says the value is not what it seems, so it is refused rather than its date trusted. A time is `H:MM` or
  /// `HH:MM`, then `:SS` and a fraction, then `Z` or an offset `±HH`, `±HHMM` or `±HH:MM`; text that does not
  /// start as `H:MM` (`12 PM`, ` UTC`) is left alone, as before.
  static func timeProblem(_ time: ArraySlice<UInt8>) -> String? {
    var rest = time
    func digits(_ count: ClosedRange<Int>) -> Int? {
      let run = rest.prefix(count.upperBound).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      guard count.contains(run.count) else { return nil }
      rest = rest.dropFirst(run.count)
      return run.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    func skip(_ byte: Character) -> Bool {
      guard rest.first == byte.asciiValue else { return false }
      rest = rest.dropFirst()
      return true
    }
    guard let hour = digits(1...2), skip(":"), let minute = digits(2...2) else { return nil }
    guard hour < 24, minute < 60 else { return "has no such time of day" }
    if skip(":") {
      guard let second = digits(2...2), second <= 60 else { return "has no such time of day" }
      if skip(".") || skip(",") {
        guard digits(1...12) != nil else { return "has no such time of day" }
      }
    }
    if skip("Z") || rest.isEmpty { return rest.isEmpty ? nil : "has text after its time zone" }
    guard skip("+") || skip("-") else { return nil }  // ` PM`, ` UTC`: words after the time are not checked
    guard let offsetHours = digits(2...2), offsetHours <= 14 else { return "has no such time zone offset" }
    if rest.isEmpty { return nil }
    _ = skip(":")
    guard let offsetMinutes = digits(2...2), offsetMinutes < 60, rest.isEmpty else { return "has no such time zone offset" }
    return nil
  }
}
