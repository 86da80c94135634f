/// Decides the decimal mark of an amount column from all of its cells and the file's delimiter, so that the
/// mark is a property of the file, never of one cell (fxbatch issue 6).
///
/// Each cell is read with a decimal point and with a decimal comma (``AmountParser``). A cell that reads only
/// one way proves that mark (`12,50`, `1.355,90`, `1,234.56`, `1.234.567`); one that reads both ways with
/// different values (`1,234`, `1.000`, `173,900`: one mark and three digits after it) proves nothing. The
/// column's mark is the one more cells prove (fxbatch issue 13: one stray `12.50` among `12,50`s does not undo
/// the column); the cells proving the other mark are then `ambiguous_amount` errors, never read by either mark
/// (``AmountParser/decidedByAmounts``). When as many cells prove each mark, the column is undecided. When none
/// prove either, a `;` file is decimal-comma, as spreadsheet exports are (European locales separate fields with
/// `;` because `,` is their decimal mark); in any other file the mark is then undecided. In an undecided column
/// the cells that depend on the mark are refused rather than guessed (`"1,234"` in a `,` file is 1234 in a US
/// export but 1.234 in a German one).
public struct DecimalMarkInference: Sendable {
  /// How many cells read only with a decimal point.
  public private(set) var point = 0
  /// How many cells read only with a decimal comma.
  public private(set) var comma = 0
  /// How many cells read both ways with different values.
  public private(set) var ambiguous = 0

  /// What decided the mark.
  public enum Basis: String, Sendable, Codable {
    /// The cells that prove a mark.
    case amounts
    /// The file's delimiter.
    case delimiter
  }

  /// What a cell says about the mark.
  enum Evidence: Equatable {
    /// Reads only with a decimal point (`12.50`, `1,234.56`).
    case point
    /// Reads only with a decimal comma (`12,50`, `1.234,56`).
    case comma
    /// Reads both ways with different values (`1,234`, `1.000`).
    case ambiguous
    /// Reads both ways with the same value (`12`, `1 234`), or neither way.
    case neutral
  }

  public init() {}

  /// What one cell's text says about the mark.
  static func evidence(_ text: String) -> Evidence {
    let trimmed = text.trimmingWhitespace
    guard trimmed.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") }),
      case .success(let cell) = AmountCell.split(trimmed)
    else { return .neutral }
    switch (AmountParser.value(of: cell, decimalMark: .point), AmountParser.value(of: cell, decimalMark: .comma)) {
    case (.success(let point), .success(let comma)): return point == comma ? .neutral : .ambiguous
    case (.success, .failure): return .point
    case (.failure, .success): return .comma
    case (.failure, .failure): return .neutral
    }
  }

  /// Counts one cell of the column.
  public mutating func add(_ text: String) { add(Self.evidence(text)) }

  /// Counts `count` cells of the same text (an `.ods` repeated row's records), at the cost of one.
  mutating func add(_ text: String, count: Int) { add(Self.evidence(text), count: count) }

  /// Adds the counts of another part of the column.
  mutating func add(_ other: DecimalMarkInference) {
    point += other.point
    comma += other.comma
    ambiguous += other.ambiguous
  }

  /// Counts what one cell says, for `count` cells that say it.
  mutating func add(_ evidence: Evidence, count: Int = 1) {
    switch evidence {
    case .point: point += count
    case .comma: comma += count
    case .ambiguous: ambiguous += count
    case .neutral: break
    }
  }

  /// The column's mark.
  ///
  /// - Parameter delimiter: the file's field delimiter byte.
  /// - Returns: the mark and what decided it: the mark more cells prove, by `.amounts`; `.point` with no basis
  ///   when no cell depends on the mark; a `nil` mark when as many cells prove each mark, or when none prove
  ///   either and cells depend on it and the delimiter does not settle it.
  public func decide(delimiter: UInt8) -> (mark: DecimalMark?, basis: Basis?) {
    if point != comma { return (comma > point ? .comma : .point, .amounts) }
    // As many cells prove a point as a comma: no majority to read the ambiguous cells by.
    if point > 0 { return (nil, nil) }
    if ambiguous == 0 { return (.point, nil) }
    return delimiter == UInt8(ascii: ";") ? (.comma, .delimiter) : (nil, nil)
  }
}
