/// Decides the order of day and month in a file's slash dates (`13/04/2024`, `04-13-2024`) from all of its date
/// column, as ``DecimalMarkInference`` decides the decimal mark from the amounts: the order is a property of the
/// file, never a guess from one date.
///
/// Each date that starts with its day or month and is separated by `/` or `-` is read day-first and month-first
/// (``DateFormat/slashDateReadings(_:)``). One that reads only one way proves that order (`13/04/2024` can only be
/// day-first: there is no 13th month); one that reads both ways as different days (`03/04/2024`) proves nothing.
/// A column that proves one order and not the other is read in that order (``DateFormat/slashDates(_:)``). A
/// column that proves both (``DateFormat/SlashDateOrder/mixed``), or neither (every slash date ambiguous), is
/// left to `--date-format`: its slash dates are refused with the hint, as without inference. Dotted dates
/// (`02.01.2020`) are day-first anyway and prove nothing.
public struct DateLayoutInference: Sendable, Equatable {
  /// How many dates read only day-first.
  public private(set) var dayFirst = 0
  /// How many dates read only month-first.
  public private(set) var monthFirst = 0
  /// How many dates read both ways as different days.
  public private(set) var ambiguous = 0

  /// What a date says about the order.
  enum Evidence: Equatable, Sendable {
    case dayFirst, monthFirst, ambiguous
    /// Not a slash date that starts with its day or month, reads the same both ways (`05/05/2024`), or neither.
    case neutral
  }

  public init() {}

  /// What one date's text says about the order.
  static func evidence(_ text: String) -> Evidence {
    guard let readings = DateFormat.slashDateReadings(text) else { return .neutral }
    switch (readings.dayFirst, readings.monthFirst) {
    case (.some(let dayFirst), .some(let monthFirst)): return dayFirst == monthFirst ? .neutral : .ambiguous
    case (.some, .none): return .dayFirst
    case (.none, .some): return .monthFirst
    case (.none, .none): return .neutral
    }
  }

  /// Counts one date of the column.
  public mutating func add(_ text: String) { add(Self.evidence(text)) }

  /// Counts what one date says, for `count` dates that say it.
  mutating func add(_ evidence: Evidence, count: Int = 1) {
    switch evidence {
    case .dayFirst: dayFirst += count
    case .monthFirst: monthFirst += count
    case .ambiguous: ambiguous += count
    case .neutral: break
    }
  }

  /// Adds the counts of another part of the column.
  mutating func add(_ other: DateLayoutInference) {
    dayFirst += other.dayFirst
    monthFirst += other.monthFirst
    ambiguous += other.ambiguous
  }

  /// The column's order: the one its dates prove when they prove only one; ``DateFormat/SlashDateOrder/mixed``
  /// when they prove both; `nil` when they prove neither.
  public var decision: DateFormat.SlashDateOrder? {
    switch (dayFirst > 0, monthFirst > 0) {
    case (true, false): return .dayFirst
    case (false, true): return .monthFirst
    case (true, true): return .mixed
    case (false, false): return nil
    }
  }

  /// The date format the file's records are read with: `given` itself unless it leaves slash dates to the
  /// column (``DateFormat/infersSlashDates``) and the column proves one order.
  public func format(given: DateFormat) -> DateFormat {
    guard given.infersSlashDates, let decision else { return given }
    return .slashDates(decision)
  }
}
