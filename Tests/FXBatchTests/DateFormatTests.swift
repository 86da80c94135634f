import Testing

@testable import FXBatch

@Suite("DateFormat")
struct DateFormatTests {
  @Test(
    "ISO layouts, the date part of a date-time, and day-first dotted dates",
    arguments: [
      "2020-01-02", "2020/01/02", "2020.01.02", "20200102", "2020-1-2", " 2020-01-02 ", "2020-01-02T10:00:00Z",
      "2020-01-02 10:00", "2020-01-02T10:00:00.123+01:00", "02.01.2020", "2.1.2020", "2020-01-02T10:00:00-0500",
      "2020-01-02T10:00:00+01", "2020-01-02 9:05", "2020-01-02 10:00 PM", "2020-01-02 10:00:00 UTC",
      "2020-01-02T23:59:60Z",
    ])
  func isoLayouts(text: String) throws {
    #expect(try DateFormat.iso.parse(text).get() == day("2020-01-02"))
  }

  @Test(
    "a date-time keeps its calendar date, whatever its offset",
    arguments: [
      ("2020-01-02T23:30:00-05:00", "2020-01-02"),  // 2020-01-03 04:30 UTC, still the 2nd as written
      ("2020-01-01T00:30:00+14:00", "2020-01-01"),  // 2019-12-31 10:30 UTC, still the 1st as written
      ("2019-12-31 23:59:59", "2019-12-31"),
    ] as [(String, String)])
  func dateTimeKeepsDate(text: String, expected: String) throws {
    #expect(try DateFormat.iso.parse(text).get() == day(expected))
  }

  @Test(
    "day-first and month-first slash dates",
    arguments: [
      (DateFormat.dayMonthYear, "03/04/2020", "2020-04-03"),
      (.monthDayYear, "03/04/2020", "2020-03-04"),
      (.dayMonthYear, "2.1.2020", "2020-01-02"),
      (.dayMonthYear, "02-01-2020", "2020-01-02"),
      (.monthDayYear, "1-2-2020", "2020-01-02"),
      (.monthDayYear, "12/31/2019", "2019-12-31"),
      (.dayMonthYear, "31/12/2019", "2019-12-31"),
      // Year-first layouts read the same under every format.
      (.dayMonthYear, "2020-01-02", "2020-01-02"),
      (.monthDayYear, "2020-01-02", "2020-01-02"),
      (.monthDayYear, "20200102", "2020-01-02"),
    ] as [(DateFormat, String, String)])
  func dayAndMonthFirst(format: DateFormat, text: String, expected: String) throws {
    #expect(try format.parse(text).get() == day(expected))
  }

  @Test("a slash date is ambiguous under iso")
  func ambiguousUnderISO() {
    guard case .failure(let error) = DateFormat.iso.parse("03/04/2020") else {
      Issue.record("03/04/2020 must not be guessed")
      return
    }
    #expect(error.code == .invalidDate)
    #expect(error.message.contains("ambiguous"))
  }

  @Test(
    "invalid dates are refused",
    arguments: [
      (DateFormat.iso, "2023-02-29"), (.iso, "1900-02-29"), (.iso, "2024-13-01"), (.iso, "2020-00-10"), (.iso, "2020-01-32"),
      (.iso, "2020-04-31"), (.iso, ""), (.iso, "abc"), (.iso, "20-01-02"), (.dayMonthYear, "03/04/20"), (.iso, "2020-01-02-03"),
      (.iso, "2020/01-02"), (.dayMonthYear, "03/04/2020 10"), (.iso, "0000-01-01"), (.dayMonthYear, "31/02/2020"),
      (.monthDayYear, "31/12/2019"), (.iso, "2020-001-02"),
    ] as [(DateFormat, String)])
  func invalid(format: DateFormat, text: String) {
    guard case .failure(let error) = format.parse(text) else {
      Issue.record("\(text) should be refused under \(format)")
      return
    }
    #expect(error.code == .invalidDate)
  }

  // fxbatch issue 13: a year (or day, or month) too long for `Int` trapped while it was read.
  @Test(
    "numbers too long for a date are refused, never overflow",
    arguments: [
      (DateFormat.iso, "9999999999999999999-01-01"), (.iso, "01.01.99999999999999999999"),
      (.iso, "99999999999999999999999999/01/01"), (.iso, "2020-01-99999999999999999999"),
      (.iso, "2020.99999999999999999999.01"), (.iso, "9999999999999999999-01-01T10:00:00Z"),
      (.dayMonthYear, "99999999999999999999/01/2020"), (.monthDayYear, "01/01/99999999999999999999"),
      (.dayMonthYear, "1-1-18446744073709551616"), (.monthDayYear, "9223372036854775808-1-1"),
      (.iso, "-9223372036854775809-01-01"), (.iso, "0009223372036854775807-01-01"),
    ] as [(DateFormat, String)])
  func hugeNumbers(format: DateFormat, text: String) {
    guard case .failure(let error) = format.parse(text) else {
      Issue.record("\(text) should be refused under \(format)")
      return
    }
    #expect(error.code == .invalidDate)
  }

  // A tester's times that cannot be were taken as dates (status ok): the date is not trusted when its time
  // is impossible.
  @Test(
    "an impossible time of day or offset is an invalid date",
    arguments: [
      ("2020-01-02T25:00:00", "has no such time of day"), ("2020-01-02T10:60", "has no such time of day"),
      ("2020-01-02T10:00:61", "has no such time of day"), ("2020-01-02T10:00:00.Z", "has no such time of day"),
      ("2020-01-02T10:00:00+99:99", "has no such time zone offset"),
      ("2020-01-02T10:00:00+15:00", "has no such time zone offset"),
      ("2020-01-02T10:00:00+01:7", "has no such time zone offset"),
      ("2020-01-02T10:00:00Zjunk", "has text after its time zone"),
    ] as [(String, String)])
  func impossibleTimes(text: String, reason: String) {
    #expect(DateFormat.iso.parse(text) == .failure(RowError(.invalidDate, "\(RowError.quoted(text)) \(reason)")))
  }

  @Test("leap days exist in leap years", arguments: ["2024-02-29", "2000-02-29", "2020-02-29"])
  func leapDays(text: String) throws {
    let parsed = try DateFormat.iso.parse(text).get()
    #expect(parsed.description == text)
  }
}

@Suite("CalendarDay")
struct CalendarDayTests {
  @Test(
    "days since 1970-01-01",
    arguments: [("1970-01-01", 0), ("1970-01-02", 1), ("1969-12-31", -1), ("2000-03-01", 11_017), ("1999-01-04", 10_595)]
      as [(String, Int)])
  func epochDays(text: String, days: Int) throws {
    // 2000-03-01: 30 years (1970..1999) = 30 × 365 + 7 leap days (72, 76, …, 96) = 10957, + 31 (Jan) + 29 (Feb) = 11017.
    // 1999-01-04: 29 × 365 + 7 = 10592, + 3 = 10595.
    let parsed = try day(text)
    #expect(parsed.daysSinceEpoch == days)
    #expect(parsed.description == text)
    #expect(CalendarDay(daysSinceEpoch: days) == parsed)
  }

  @Test("adding and counting days")
  func arithmetic() throws {
    let newYear = try day("2020-01-01")
    #expect(newYear.adding(days: -1) == (try day("2019-12-31")))
    #expect(newYear.adding(days: 60) == (try day("2020-03-01")))  // 31 + 29
    #expect((try day("2020-01-05")).days(since: try day("2019-12-31")) == 5)
  }

  @Test(
    "only exact YYYY-MM-DD is ISO 8601 here",
    arguments: ["2020-1-02", "2020/01/02", "20200102", "2020-01-02T00:00", " 2020-01-02"])
  func strictISO(text: String) {
    #expect(CalendarDay(iso8601: text) == nil)
  }
}
