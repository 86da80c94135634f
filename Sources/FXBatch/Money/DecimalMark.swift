/// The character that separates whole units from the fraction in an amount's text.
public enum DecimalMark: String, Sendable, Codable {
  /// `12.50`
  case point = "."
  /// `12,50`, as European spreadsheet exports write it.
  case comma = ","

  var byte: UInt8 { self == .point ? UInt8(ascii: ".") : UInt8(ascii: ",") }
}
