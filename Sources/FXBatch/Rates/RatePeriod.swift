/// The calendar periods a period rate is of (`--period`): the month, quarter or year containing a record's date.
public enum RatePeriod: String, CaseIterable, Sendable {
  case month
  case quarter
  case year

  /// A calendar period: its first and last calendar days and its name.
  public struct Span: Hashable, Sendable {
    /// The period's first calendar day (the 1st of its first month).
    public let first: CalendarDay
    /// The period's last calendar day (the last day of its last month, whatever weekday it is).
    public let last: CalendarDay
    /// How `fx_rate_date` and `fx_source` name the period: `2024-03`, `2024-Q1`, `2024`.
    public let label: String
  }

  /// The period of this length that contains a day.
  public func span(containing day: CalendarDay) -> Span {
    let (year, month, _) = day.components
    let yearText = String(year)
    let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
    let firstMonth: Int
    let lastMonth: Int
    let label: String
    switch self {
    case .month:
      (firstMonth, lastMonth) = (month, month)
      label = paddedYear + (month < 10 ? "-0" : "-") + String(month)
    case .quarter:
      let quarter = (month - 1) / 3 + 1
      (firstMonth, lastMonth) = (quarter * 3 - 2, quarter * 3)
      label = "\(paddedYear)-Q\(quarter)"
    case .year:
      (firstMonth, lastMonth) = (1, 12)
      label = paddedYear
    }
    // Both days exist: `day` is a valid day of this year, and every month has a 1st and a last day.
    let first = CalendarDay(year: year, month: firstMonth, day: 1) ?? day
    let last =
      CalendarDay(year: year, month: lastMonth, day: CalendarDay.daysInMonth(year: year, month: lastMonth)) ?? day
    return Span(first: first, last: last, label: label)
  }
}
