/// One cell of a sheet (an `.xlsx` worksheet, an `.ods` table), as its XML stores it.
public struct SheetCell: Equatable, Sendable {
  /// Where it is.
  public let reference: CellReference
  /// Its style's index in the workbook's cell formats (`s`; 0 when it has none): what says a number is a date.
  public let style: Int
  /// Its value.
  public let value: SheetCellValue
}

/// A cell's value by its type (`t`, ECMA-376 part 1, 18.18.11), its text exactly as stored.
public enum SheetCellValue: Equatable, Sendable {
  /// A number (`t="n"` or no `t`), as its decimal text (`1234.56`, `4.5E-3`): never through `Double`.
  case number(String)
  /// A string: shared (`t="s"`, looked up), inline (`t="inlineStr"`), or a formula's string result (`t="str"`).
  case text(String)
  /// A boolean (`t="b"`).
  case boolean(Bool)
  /// An error (`t="e"`): `#N/A`, `#DIV/0!`, …
  case error(String)
  /// A date written as ISO 8601 text (`t="d"`), which Excel writes only in strict mode.
  case date(String)
  /// A formula without a cached value (the file was written by a program that does not compute, as openpyxl).
  case formulaWithoutValue(formula: String)
  /// A cell with no value (only a style).
  case empty
}

/// A row of a sheet: its number and its cells, left to right (sparse: empty cells are not there).
public struct SheetRow: Equatable, Sendable {
  /// The row's number, from 1.
  public let number: Int
  public let cells: [SheetCell]
}
