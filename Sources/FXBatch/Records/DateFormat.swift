import Foundation

/// How the dates of a file's date field are written, and how to read them into a ``CalendarDay``.
///
/// The calendar date is taken as written: a time of day or a UTC offset after it (`2020-01-02T23:30:00-05:00`,
/// `2024-04-03 23:30:00 -0500`) never moves the date.
public enum DateFormat: Hashable, Sendable, CustomStringConvertible {
  /// ISO 8601 and unambiguous layouts: `2020-01-02`, `2020/01/02`, `2020.01.02`, `20200102`, the date part of
  /// an ISO 8601 date-time (`2020-01-02T10:00:00Z`, `2020-01-02 10:00`), the day-first `02.01.2020` used
  /// in German-speaking exports (`02.01.2020 14:05` too), and dates with an English month name (`03 Apr 2024`,
  /// `3-APR-2024`, `Apr 3, 2024`). Slash dates like `03/04/2020` are refused as ambiguous, unless the column
  /// proves their order (``slashDates(_:)``, inferred by ``DateLayoutInference``).
  case iso
  /// Day first: `02/01/2020`, `2.1.2020`, `02-01-2020` (and every ``iso`` layout that starts with the year).
  case dayMonthYear
  /// Month first, as in US exports: `01/02/2020`, `1-2-2020` (and every ``iso`` layout that starts with the year).
  case monthDayYear
  /// Unix time in seconds: `1706812800` is 2024-02-01 (the UTC day of the instant). A whole number of seconds,
  /// negative before 1970 (`-1` is 1969-12-31); a fraction other than zeros (`1706812800.5`), an exponent or a
  /// date written as text is `invalid_date`. A JSON number and a workbook's number cell are read as the number.
  case unixSeconds
  /// Unix time in milliseconds (`1706812800000`), by the rules of ``unixSeconds``.
  case unixMilliseconds
  /// A strftime-like pattern (`--date-format '%d %b %Y'`): every date must match it.
  case pattern(DatePattern)
  /// ``iso``, with the slash and dash dates that start with the day or the month (`13/04/2024`, `04-13-2024`)
  /// read in the order the file's date column proves (never an option: pass 1 decides it, ``DateLayoutInference``).
  /// Dotted dates stay day-first.
  case slashDates(SlashDateOrder)

  /// The order of a slash date's day and month, as a file's date column proves it.
  public enum SlashDateOrder: String, Hashable, Sendable {
    case dayFirst = "day-first"
    case monthFirst = "month-first"
    /// The column has dates of each order (`13/04/2024` and `04/13/2024`): its slash dates are refused as under
    /// ``DateFormat/iso``, and their message says so.
    case mixed
  }

  /// The named formats `--date-format` takes besides a pattern.
  public static let allCases: [DateFormat] = [.iso, .dayMonthYear, .monthDayYear, .unixSeconds, .unixMilliseconds]

  /// A named format (`iso`, `dmy`, `mdy`, `unix`, `unix-ms`); `nil` for any other text.
  public init?(rawValue: String) {
    guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = format
  }

  /// The value of `--date-format`: a name (``allCases``) or a pattern with at least one `%` directive.
  ///
  /// - Throws: ``DatePattern/PatternError`` for a pattern it cannot use, or for text that is neither.
  public init(option text: String) throws(DatePattern.PatternError) {
    if let named = DateFormat(rawValue: text) {
      self = named
      return
    }
    guard text.contains("%") else {
      throw DatePattern.PatternError(
        description:
          "expected one of \(Self.allCases.map(\.rawValue).joined(separator: ", ")) or a pattern such as %d.%m.%Y")
    }
    self = .pattern(try DatePattern(text))
  }

  /// The option's text: the name, or the pattern; ``slashDates(_:)`` is ``iso``.
  public var rawValue: String {
    switch self {
    case .iso, .slashDates: return "iso"
    case .dayMonthYear: return "dmy"
    case .monthDayYear: return "mdy"
    case .unixSeconds: return "unix"
    case .unixMilliseconds: return "unix-ms"
    case .pattern(let pattern): return pattern.text
    }
  }

  public var description: String { rawValue }

  /// Whether dates are unix times (``unixSeconds``, ``unixMilliseconds``): numbers, not calendar text.
  public var isUnix: Bool { self == .unixSeconds || self == .unixMilliseconds }

  /// Whether the order of slash dates is left to the file's date column (``iso``: no `--date-format` says it).
  public var infersSlashDates: Bool { self == .iso }

  /// Reads one date.
  ///
  /// - Parameter text: the field's text; surrounding whitespace is ignored.
  /// - Returns: the day, or a `invalid_date` ``RowError`` naming the problem.
  public func parse(_ text: String) -> Result<CalendarDay, RowError> {
    let trimmed = text.trimmingWhitespace
    if isUnix { return parseUnixTime(trimmed) }
    if case .pattern(let pattern) = self { return pattern.parse(trimmed) }
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
    if let named = Self.monthNameDate(bytes) {
      return named.mapError { RowError(.invalidDate, "\(RowError.quoted(trimmed)) \($0)") }
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
    // After a date that starts with its day or month, only a clock time (`03.04.2024 14:05`).
    if datePart.count != bytes.count, pieces[0].count != 4, !Self.startsWithClockTime(bytes[(datePart.count + 1)...]) {
      return invalid("is not a date (only a time may follow a date: HH:MM)")
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
    case .unixSeconds, .unixMilliseconds, .pattern:
      return invalid("is not a unix time")  // read by ``parseUnixTime(_:)`` and ``DatePattern`` above
    case .slashDates(.dayFirst), .slashDates(.monthFirst):
      if separator == UInt8(ascii: ".") { return day(third, second, first) }
      return self == .slashDates(.dayFirst) ? day(third, second, first) : day(third, first, second)
    case .slashDates(.mixed):
      if separator == UInt8(ascii: ".") { return day(third, second, first) }
      // No --date-format reads such a column whole: each one fails the dates written the other way.
      let none = "no --date-format reads both; fix the dates at the source, or"
      if first <= 12, second > 12, second <= 31 {
        return invalid(
          "reads only as month/day/year, but the column also has dates that read only as day/month/year: \(none) "
            + "--date-format mdy reads this one and fails those")
      }
      if second <= 12, first > 12, first <= 31 {
        return invalid(
          "reads only as day/month/year, but the column also has dates that read only as month/day/year: \(none) "
            + "--date-format dmy reads this one and fails those")
      }
      return invalid(
        "is ambiguous (day/month or month/day?), and the column has day-first and month-first dates: \(none) "
          + "--date-format dmy or mdy reads this one in that order, which nothing in the column confirms")
    case .iso:
      if separator == UInt8(ascii: ".") { return day(third, second, first) }
      // One reading only (`1/13/2025`) in a column whose other dates do not prove the order (pass 1 found
      // dates of both orders, or the format does not infer it): say which, but never take it unasked.
      if first <= 12, second > 12, second <= 31 {
        return invalid("reads only as month/day/year, but slash dates need --date-format: pass --date-format mdy")
      }
      if second <= 12, first > 12, first <= 31 {
        return invalid("reads only as day/month/year, but slash dates need --date-format: pass --date-format dmy")
      }
      return invalid("is ambiguous (day/month or month/day?); pass --date-format dmy or --date-format mdy")
    }
  }

  /// The English month-name layouts read without a pattern: each names the month in words, so none is
  /// ambiguous.
  private static let monthNameLayouts: [DatePattern] = ["%d %b %Y", "%d-%b-%Y", "%b %d, %Y", "%b %d %Y"].compactMap {
    try? DatePattern($0)
  }

  /// A date with an English month name (``monthNameLayouts``), optionally followed by a clock time; `nil` when the
  /// text is no such date (the other layouts are tried), else the day or the reason it is refused.
  private static func monthNameDate(_ bytes: [UInt8]) -> Result<CalendarDay, DatePattern.ReasonText>? {
    guard bytes.contains(where: { ($0 | 0x20) &- UInt8(ascii: "a") < 26 && $0 != UInt8(ascii: "T") }) else { return nil }
    for layout in monthNameLayouts {
      guard let fields = layout.match(bytes[...]) else { continue }
      let rest = bytes[fields.end...]
      if !rest.isEmpty {
        guard rest.first == UInt8(ascii: " ") || rest.first == UInt8(ascii: "T"), startsWithClockTime(rest.dropFirst())
        else { continue }
        if let problem = timeProblem(rest.dropFirst()) { return .failure(DatePattern.ReasonText(problem)) }
      }
      return DatePattern.day(fields)
    }
    // A two-digit year is never widened unasked: say which pattern reads it.
    for (layout, text) in zip(twoDigitYearLayouts, twoDigitYearPatterns) {
      if let fields = layout.match(bytes[...]), fields.end == bytes.count {
        return .failure(DatePattern.ReasonText("has a two-digit year; give --date-format '\(text)' to read it"))
      }
    }
    return nil
  }

  /// ``monthNameLayouts`` with two-digit years, recognised only to name the pattern that reads them.
  private static let twoDigitYearPatterns = ["%d %b %y", "%d-%b-%y", "%b %d, %y", "%b %d %y"]
  private static let twoDigitYearLayouts: [DatePattern] = twoDigitYearPatterns.compactMap { try? DatePattern($0) }

  /// Whether text starts as a clock time, `H:MM` or `HH:MM`.
  static func startsWithClockTime(_ text: ArraySlice<UInt8>) -> Bool {
    let hour = text.prefix(3).prefix { $0 &- UInt8(ascii: "0") < 10 }
    let rest = text.dropFirst(hour.count)
    return (1...2).contains(hour.count) && rest.first == UInt8(ascii: ":") && rest.dropFirst().prefix(2).count == 2
      && rest.dropFirst().prefix(2).allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
  }

  /// What a slash or dash date that starts with its day or month (`13/04/2024`, `04-13-2024`) says about the
  /// order of its column's dates, read as ``dayMonthYear`` and as ``monthDayYear``: `nil` for any other text
  /// (it says nothing), else the day of each reading (`nil` where that reading is no date).
  static func slashDateReadings(_ text: String) -> (dayFirst: CalendarDay?, monthFirst: CalendarDay?)? {
    let trimmed = text.trimmingWhitespace
    let bytes = trimmed.utf8
    guard let firstSeparator = bytes.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") }),
      (1...2).contains(bytes.distance(from: bytes.startIndex, to: firstSeparator)),
      bytes[bytes.startIndex..<firstSeparator].allSatisfy({ $0 &- UInt8(ascii: "0") < 10 })
    else { return nil }
    let dayFirst = try? DateFormat.dayMonthYear.parse(trimmed).get()
    let monthFirst = try? DateFormat.monthDayYear.parse(trimmed).get()
    return (dayFirst, monthFirst)
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
    // An offset may follow the time after a space (`14:05:00 +0200`, as `date` and many logs write it).
    if rest.count > 2, rest.first == UInt8(ascii: " "),
      rest.dropFirst().first == UInt8(ascii: "+") || rest.dropFirst().first == UInt8(ascii: "-"),
      rest.dropFirst(2).first.map({ $0 &- UInt8(ascii: "0") < 10 }) == true
    {
      rest = rest.dropFirst()
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
