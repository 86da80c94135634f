/// A day of the proleptic Gregorian calendar, without time or time zone: a rate date or a record's value
/// date.
///
/// Stored as days since 1970-01-01 so that days compare and subtract as integers; conversion to and from
/// year-month-day uses Howard Hinnant's `days_from_civil` algorithm.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before it).
  public let daysSinceEpoch: Int

  public init(daysSinceEpoch: Int) { self.daysSinceEpoch = daysSinceEpoch }

  /// The day of a valid date.
  ///
  /// - Returns: `nil` when the month or day is out of range (2023-02-29, 2024-13-01) or the year is not
  ///   1...9999.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= CalendarDay.daysInMonth(year: year, month: month)
    else { return nil }
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = (month + 9) % 12
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    daysSinceEpoch = era * 146_097 + dayOfEra - 719_468
  }

  /// Parses an ISO 8601 calendar date, `YYYY-MM-DD`, exactly (no time, no other layout).
  public init?(iso8601 text: some StringProtocol) {
    let bytes = Array(text.utf8)
    guard let day = Self.parse(count: bytes.count, { bytes[$0] }) else { return nil }
    self = day
  }

  /// ``init(iso8601:)`` of UTF-8 bytes (no `String` made: the embedded history's 7,000 days are read at start).
  init?(iso8601Bytes bytes: ByteView) {
    guard let day = Self.parse(count: bytes.count, { bytes[$0] }) else { return nil }
    self = day
  }

  /// ``init(iso8601:)`` of UTF-8 bytes in an array (a workbook's cell text).
  init?(iso8601UTF8 bytes: ArraySlice<UInt8>) {
    let start = bytes.startIndex
    guard let day = Self.parse(count: bytes.count, { bytes[start + $0] }) else { return nil }
    self = day
  }

  /// The day of a `YYYY-MM-DD` text of `count` bytes, read by `byte`.
  @inline(__always)
  private static func parse(count: Int, _ byte: (Int) -> UInt8) -> CalendarDay? {
    guard count == 10, byte(4) == UInt8(ascii: "-"), byte(7) == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let digit = byte(index) &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
    return CalendarDay(year: year, month: month, day: day)
  }

  /// The value of a run of ASCII digits; `nil` when it is empty, holds anything else, or has more than
  /// ``maximumNumberDigits`` digits (a year of twenty digits is no date, and must not overflow `Int`).
  static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty, digits.count <= maximumNumberDigits else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

  /// The most digits ``number(_:)`` reads: any more could overflow `Int` (whose largest value has 19 digits).
  static let maximumNumberDigits = 18

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Year, month (1...12) and day (1...31).
  public var components: (year: Int, month: Int, day: Int) {
    let z = daysSinceEpoch + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The day `days` later (earlier when negative).
  public func adding(days: Int) -> CalendarDay { CalendarDay(daysSinceEpoch: daysSinceEpoch + days) }

  /// Whole days from `other` to `self` (positive when `self` is later).
  public func days(since other: CalendarDay) -> Int { daysSinceEpoch - other.daysSinceEpoch }

  /// ISO 8601, `YYYY-MM-DD`.
  public var description: String {
    let (year, month, day) = components
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
}
