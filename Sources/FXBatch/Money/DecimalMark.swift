/// The character that separates whole units from the fraction in an amount's text.
public enum DecimalMark: String, Sendable, Codable {
  /// `12.50`
  case point = "."
  /// `12,50`, as European spreadsheet exports write it.
  case comma = ","

  var byte: UInt8 { self == .point ? UInt8(ascii: ".") : UInt8(ascii: ",") }

  /// The mark that is not this one.
  var other: DecimalMark { self == .point ? .comma : .point }

  /// `decimal point` or `decimal comma`, for messages.
  var name: String { self == .point ? "decimal point" : "decimal comma" }
}
