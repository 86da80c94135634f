import Foundation

/// Reads an amount's text into an exact decimal under one decimal mark.
///
/// Accepted: surrounding whitespace (including U+00A0 no-break space), an optional leading `+` or `-`, digits,
/// and at most one decimal mark followed by digits (`12`, `-12.50`, `+0.5`, `.5`; with ``DecimalMark/comma``,
/// `12,50`). Everything else is refused with the reason, never read as a numeric prefix the way Foundation's
/// `Decimal(string:)` does (`"1,234.56"` → 1).
public struct AmountParser: Sendable {
  /// The decimal mark of the column being read.
  public let decimalMark: DecimalMark

  public init(decimalMark: DecimalMark) { self.decimalMark = decimalMark }

  /// Parses one amount.
  ///
  /// - Parameter text: the field's text.
  /// - Returns: the exact amount, or a ``RowError`` with code `missing_field` (empty) or `invalid_amount`.
  public func parse(_ text: String) -> Result<ExactDecimal, RowError> {
    let trimmed = text.trimmingWhitespace
    guard !trimmed.isEmpty else { return .failure(RowError(.missingField, "the amount is empty")) }
    var bytes = Array(trimmed.utf8)
    if decimalMark == .comma {
      if bytes.contains(UInt8(ascii: ".")) {
        return .failure(RowError(.invalidAmount, "\(RowError.quoted(trimmed)) is not a number with a decimal comma"))
      }
      bytes = bytes.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }
    }
    guard let value = ExactDecimal(plainUTF8: bytes) else {
      let unsigned = bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
      let isPlainNumber =
        unsigned.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ".") }
        && unsigned.filter({ $0 == UInt8(ascii: ".") }).count <= 1
        && unsigned.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      let reason = isPlainNumber ? "has more than \(ExactDecimal.maximumDigits) digits" : "is not a number"
      return .failure(RowError(.invalidAmount, "\(RowError.quoted(trimmed)) \(reason)"))
    }
    return .success(value)
  }

  /// Which decimal mark a cell's text could be read with, for inferring a column's mark.
  enum Evidence {
    /// Reads only with a decimal point (`12.50`).
    case point
    /// Reads only with a decimal comma (`12,50`).
    case comma
    /// One mark followed by exactly three digits (`1,234`, `1.234`): a decimal mark, or digit grouping in
    /// the other convention. Proves nothing.
    case ambiguous
    /// Reads either way (`12`) or neither way.
    case neutral
  }

  static func evidence(_ text: String) -> Evidence {
    let bytes = Array(text.trimmingWhitespace.utf8)
    let hasPoint = bytes.contains(UInt8(ascii: "."))
    let hasComma = bytes.contains(UInt8(ascii: ","))
    guard hasPoint != hasComma else { return .neutral }
    let mark = hasPoint ? UInt8(ascii: ".") : UInt8(ascii: ",")
    let plain = bytes.map { $0 == mark ? UInt8(ascii: ".") : $0 }
    guard ExactDecimal(plainUTF8: plain) != nil, let markIndex = bytes.firstIndex(of: mark) else { return .neutral }
    if bytes.count - markIndex - 1 == 3 { return .ambiguous }
    return hasPoint ? .point : .comma
  }

  /// The decimal mark of a column from the evidence of its cells: the mark more cells prove; when no cell
  /// proves either, a comma for a `;`-delimited file whose amounts hold a mark (European exports), else a
  /// point. Cells that contradict the result are refused per record, never shifted.
  static func inferMark(point: Int, comma: Int, ambiguous: Int, delimiter: UInt8) -> DecimalMark {
    if point != comma { return comma > point ? .comma : .point }
    if point == 0, ambiguous > 0, delimiter == UInt8(ascii: ";") { return .comma }
    return .point
  }
}
