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
    /// Reads either way (`12`) or neither way.
    case neutral
  }

  static func evidence(_ text: String) -> Evidence {
    let trimmed = text.trimmingWhitespace
    let bytes = Array(trimmed.utf8)
    let hasPoint = bytes.contains(UInt8(ascii: "."))
    let hasComma = bytes.contains(UInt8(ascii: ","))
    if hasPoint, !hasComma, ExactDecimal(plainUTF8: bytes) != nil { return .point }
    if hasComma, !hasPoint, ExactDecimal(plainUTF8: bytes.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }) != nil {
      return .comma
    }
    return .neutral
  }
}
