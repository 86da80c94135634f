/// A date layout written as a strftime-like pattern (`--date-format '%d %b %Y'`), and the reading of a date by it.
///
/// The directives (``directives``): `%Y` a four-digit year, `%y` a two-digit year (00–68 are 2000–2068, 69–99 are
/// 1969–1999, as POSIX `strptime` reads them), `%m` the month (1 or 2 digits), `%d` the day (1 or 2 digits),
/// `%b` and `%B` an English month name, full or abbreviated (`Apr`, `April`, `Sept`; any case), `%H` the hour
/// 0–23 and `%I` 1–12 (1 or 2 digits), `%M` the minute and `%S` the second (2 digits), `%f` a fraction of a second
/// (1 to 9 digits), `%p` `AM` or `PM`, `%z` a UTC offset (`Z`, `+02`, `+0200`, `+02:00`), and `%%` a `%`. A space
/// matches one or more spaces or tabs; any other character matches itself. Where two number directives meet
/// with nothing between them (`%Y%m%d`), each takes its full width (`%m` and `%d` two digits).
///
/// A date must match the whole pattern. The day is the calendar date as written: the time and the offset are
/// checked (`25:00` or `+99:00` make the date invalid) but never move the date.
public struct DatePattern: Hashable, Sendable, CustomStringConvertible {
  /// The pattern as given.
  public let text: String
  let elements: [Element]

  enum Element: Hashable {
    case literal(UInt8)
    case space
    case year4, year2, month, monthName, day, hour24, hour12, minute, second, fraction, meridiem, offset

    /// A run of digits, and how many it may have (`exact`: when another number directive follows directly).
    func digits(exact: Bool) -> ClosedRange<Int>? {
      switch self {
      case .year4: return 4...4
      case .year2, .minute, .second: return 2...2
      case .month, .day, .hour24, .hour12: return exact ? 2...2 : 1...2
      case .fraction: return 1...9
      default: return nil
      }
    }
  }

  /// The directives, for the help and the docs: each with what it reads.
  public static let directives: [(directive: String, reads: String)] = [
    ("%Y", "year, 4 digits"), ("%y", "year, 2 digits (69-99: 19xx, 00-68: 20xx)"), ("%m", "month, 1-2 digits"),
    ("%d", "day, 1-2 digits"), ("%b", "English month name or abbreviation (%B the same)"), ("%H", "hour 0-23"),
    ("%I", "hour 1-12"), ("%M", "minute"), ("%S", "second"), ("%f", "fraction of a second"), ("%p", "AM or PM"),
    ("%z", "UTC offset: Z, +02, +0200, +02:00"), ("%%", "a %"),
  ]

  /// A pattern that cannot be used, and why.
  public struct PatternError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
  }

  /// Reads a pattern.
  ///
  /// - Throws: ``PatternError`` for an unknown directive, a `%` at the end, a field given twice, or a pattern
  ///   without a day, a month or a year.
  public init(_ text: String) throws(PatternError) {
    var elements: [Element] = []
    var bytes = Array(text.utf8)[...]
    while let byte = bytes.popFirst() {
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
        if elements.last != .space { elements.append(.space) }
        continue
      }
      guard byte == UInt8(ascii: "%") else {
        elements.append(.literal(byte))
        continue
      }
      guard let directive = bytes.popFirst() else { throw PatternError(description: "a % at the end of the pattern") }
      let element: Element
      switch directive {
      case UInt8(ascii: "Y"): element = .year4
      case UInt8(ascii: "y"): element = .year2
      case UInt8(ascii: "m"): element = .month
      case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "h"): element = .monthName
      case UInt8(ascii: "d"): element = .day
      case UInt8(ascii: "H"): element = .hour24
      case UInt8(ascii: "I"): element = .hour12
      case UInt8(ascii: "M"): element = .minute
      case UInt8(ascii: "S"): element = .second
      case UInt8(ascii: "f"): element = .fraction
      case UInt8(ascii: "p"): element = .meridiem
      case UInt8(ascii: "z"): element = .offset
      case UInt8(ascii: "%"): element = .literal(UInt8(ascii: "%"))
      default:
        let shown = String(decoding: [UInt8(ascii: "%"), directive], as: UTF8.self)
        throw PatternError(
          description: "\(shown) is not a directive fxbatch reads (\(Self.directives.map(\.directive).joined(separator: " ")))")
      }
      if case .literal = element {
      } else if elements.contains(element) || (element.isYear && elements.contains(where: \.isYear))
        || (element.isMonth && elements.contains(where: \.isMonth)) || (element.isHour && elements.contains(where: \.isHour))
      {
        throw PatternError(description: "the pattern gives the \(element.field) twice")
      }
      elements.append(element)
    }
    for (field, present) in [
      ("day (%d)", elements.contains(.day)), ("month (%m or %b)", elements.contains(where: \.isMonth)),
      ("year (%Y or %y)", elements.contains(where: \.isYear)),
    ] where !present {
      throw PatternError(description: "the pattern has no \(field)")
    }
    self.text = text
    self.elements = elements
  }

  public var description: String { text }

  public static func == (lhs: DatePattern, rhs: DatePattern) -> Bool { lhs.text == rhs.text }
  public func hash(into hasher: inout Hasher) { hasher.combine(text) }

  /// What a match read.
  struct Fields {
    var year: Int?
    var month: Int?
    var day: Int?
    var hour: Int?
    var hour12: Int?
    var minute: Int?
    var second: Int?
    var offset: (hours: Int, minutes: Int)?
    /// Where the match ended.
    var end: Int
  }

  /// Matches the pattern against the start of `bytes`.
  ///
  /// - Returns: the fields read, or `nil` when the bytes do not follow the pattern up to its end.
  func match(_ bytes: ArraySlice<UInt8>) -> Fields? {
    var index = bytes.startIndex
    var fields = Fields(end: index)
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    for (position, element) in elements.enumerated() {
      switch element {
      case .literal(let byte):
        guard index < bytes.endIndex, bytes[index] == byte else { return nil }
        index += 1
      case .space:
        let start = index
        while index < bytes.endIndex, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        guard index > start else { return nil }
      case .monthName:
        let start = index
        while index < bytes.endIndex, (bytes[index] | 0x20) &- UInt8(ascii: "a") < 26 { index += 1 }
        guard let month = Self.month(named: bytes[start..<index]) else { return nil }
        fields.month = month
      case .meridiem:
        guard index + 2 <= bytes.endIndex, bytes[index + 1] | 0x20 == UInt8(ascii: "m"),
          bytes[index] | 0x20 == UInt8(ascii: "a") || bytes[index] | 0x20 == UInt8(ascii: "p")
        else { return nil }
        index += 2
      case .offset:
        guard index < bytes.endIndex else { return nil }
        if bytes[index] == UInt8(ascii: "Z") {
          fields.offset = (0, 0)
          index += 1
          continue
        }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
        index += 1
        func two() -> Int? {
          guard index + 2 <= bytes.endIndex, isDigit(bytes[index]), isDigit(bytes[index + 1]) else { return nil }
          defer { index += 2 }
          return Int(bytes[index] - UInt8(ascii: "0")) * 10 + Int(bytes[index + 1] - UInt8(ascii: "0"))
        }
        guard let hours = two() else { return nil }
        var minutes = 0
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") {
          index += 1
          guard let value = two() else { return nil }
          minutes = value
        } else if index < bytes.endIndex, isDigit(bytes[index]) {
          guard let value = two() else { return nil }
          minutes = value
        }
        fields.offset = (hours, minutes)
      default:
        // Next to another number directive (`%Y%m%d`), a number takes its full width: `2024043` is no date.
        let besideNumber =
          (position + 1 < elements.count && elements[position + 1].digits(exact: false) != nil)
          || (position > 0 && elements[position - 1].digits(exact: false) != nil)
        guard let width = element.digits(exact: besideNumber) else { return nil }
        let start = index
        while index < bytes.endIndex, index - start < width.upperBound, isDigit(bytes[index]) { index += 1 }
        guard width.contains(index - start) else { return nil }
        let value = bytes[start..<index].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        switch element {
        case .year4: fields.year = value
        case .year2: fields.year = value < 69 ? 2000 + value : 1900 + value
        case .month: fields.month = value
        case .day: fields.day = value
        case .hour24: fields.hour = value
        case .hour12: fields.hour12 = value
        case .minute: fields.minute = value
        case .second: fields.second = value
        default: break
        }
      }
    }
    fields.end = index
    return fields
  }

  /// Reads one date (the caller trims it): the whole text must match.
  func parse(_ trimmed: String) -> Result<CalendarDay, RowError> {
    func invalid(_ reason: String) -> Result<CalendarDay, RowError> {
      .failure(RowError(.invalidDate, "\(RowError.quoted(trimmed)) \(reason)"))
    }
    let bytes = Array(trimmed.utf8)
    guard let fields = match(bytes[...]), fields.end == bytes.count else {
      return invalid("does not match --date-format \(RowError.quoted(text))")
    }
    return Self.day(fields).mapError { RowError(.invalidDate, "\(RowError.quoted(trimmed)) \($0)") }
  }

  /// The day of matched fields, after checking their time and offset; the error is the reason.
  static func day(_ fields: Fields) -> Result<CalendarDay, ReasonText> {
    if let hour = fields.hour, hour > 23 { return .failure(ReasonText("has no such time of day")) }
    if let hour = fields.hour12, !(1...12).contains(hour) {
      return .failure(ReasonText("has no such time of day"))
    }
    if let minute = fields.minute, minute > 59 { return .failure(ReasonText("has no such time of day")) }
    if let second = fields.second, second > 60 { return .failure(ReasonText("has no such time of day")) }
    if let offset = fields.offset, offset.hours > 14 || offset.minutes > 59 {
      return .failure(ReasonText("has no such time zone offset"))
    }
    guard let year = fields.year, let month = fields.month, let day = fields.day,
      let value = CalendarDay(year: year, month: month, day: day)
    else { return .failure(ReasonText("is not a calendar date")) }
    return .success(value)
  }

  /// A reason a date is refused (the text after the quoted date).
  struct ReasonText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// The month an English month name or abbreviation names, in any case (`Apr`, `APRIL`, `Sept`); `nil` for
  /// any other word.
  static func month(named letters: ArraySlice<UInt8>) -> Int? {
    guard (3...9).contains(letters.count) else { return nil }
    let lower = letters.map { $0 | 0x20 }
    for (index, name) in monthNames.enumerated() {
      let full = Array(name.utf8)
      if lower == full || lower == Array(full.prefix(3)) || (index == 8 && lower == Array("sept".utf8)) {
        return index + 1
      }
    }
    return nil
  }

  private static let monthNames = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]
}

extension DatePattern.Element {
  var isYear: Bool { self == .year4 || self == .year2 }
  var isMonth: Bool { self == .month || self == .monthName }
  var isHour: Bool { self == .hour24 || self == .hour12 }

  /// The field it reads, for a message.
  var field: String {
    switch self {
    case .year4, .year2: return "year"
    case .month, .monthName: return "month"
    case .day: return "day"
    case .hour24, .hour12: return "hour"
    case .minute: return "minute"
    case .second: return "second"
    case .fraction: return "fraction of a second"
    case .meridiem: return "AM/PM"
    case .offset: return "UTC offset"
    case .literal, .space: return "text"
    }
  }
}
