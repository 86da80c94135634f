/// A cell reference as a sheet's `r` attributes write it (`A1`, `XFD1048576`): column letters, then the row.
public struct CellReference: Equatable, Sendable, CustomStringConvertible {
  /// The column, from 0 (`A`) to 16383 (`XFD`).
  public let column: Int
  /// The row, from 1 to 1048576.
  public let row: Int

  /// The most columns and rows a sheet has (ECMA-376 part 1, 18.3.1.73 and Excel's limits).
  public static let columnCount = 16384
  public static let rowCount = 1_048_576

  public init?(column: Int, row: Int) {
    guard (0..<Self.columnCount).contains(column), (1...Self.rowCount).contains(row) else { return nil }
    self.column = column
    self.row = row
  }

  /// Reads `A1` style text: one to three capital letters, then a row number without leading zeros; `nil` for
  /// anything else (lower case, `$`, a column past `XFD`, a row past 1048576).
  public init?(_ text: String) { self.init(utf8: text.utf8) }

  /// ``init(_:)`` of UTF-8 bytes (a sheet scanner's attribute value as it is stored).
  init?(utf8 text: some Sequence<UInt8>) {
    var column = 0
    var letters = 0
    var row = 0
    var digits = 0
    for byte in text {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z") where digits == 0:
        letters += 1
        guard letters <= 3 else { return nil }
        column = column * 26 + Int(byte - UInt8(ascii: "A")) + 1
      case UInt8(ascii: "0")...UInt8(ascii: "9") where letters > 0:
        guard digits > 0 || byte != UInt8(ascii: "0") else { return nil }
        digits += 1
        guard digits <= 7 else { return nil }
        row = row * 10 + Int(byte - UInt8(ascii: "0"))
      default:
        return nil
      }
    }
    guard digits > 0 else { return nil }
    self.init(column: column - 1, row: row)
  }

  /// The column's letters: 0 → `A`, 25 → `Z`, 26 → `AA`, 16383 → `XFD`.
  public static func letters(ofColumn column: Int) -> String {
    var number = column + 1
    var letters: [Character] = []
    while number > 0 {
      let remainder = (number - 1) % 26
      letters.insert(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(remainder))), at: 0)
      number = (number - 1) / 26
    }
    return String(letters)
  }

  public var description: String { Self.letters(ofColumn: column) + String(row) }
}
