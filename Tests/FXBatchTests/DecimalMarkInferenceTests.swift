import Testing

@testable import FXBatch

/// How a column's decimal mark is decided from its cells and the file's delimiter (fxbatch issue 6).
@Suite("DecimalMarkInference")
struct DecimalMarkInferenceTests {
  @Test(
    "what one cell proves",
    arguments: [
      ("12.50", DecimalMarkInference.Evidence.point), ("-0.01", .point), ("1,234.56", .point), ("1,234,567", .point),
      ("12,34,567.89", .point), ("$1,200.00", .point), ("(123.45)", .point), ("12.50-", .point), ("12,50", .comma),
      ("-0,01", .comma), (" 20,00 ", .comma), ("1.355,90", .comma), ("1.234.567", .comma), ("10,00 €", .comma),
      ("1,234", .ambiguous), ("1.000", .ambiguous), ("173,900", .ambiguous), ("-1.000 €", .ambiguous), ("12", .neutral),
      ("1 234", .neutral), ("abc", .neutral), ("", .neutral), ("12.3.4,5,6", .neutral), ("(-5.5)", .neutral),
      // A mark not followed by exactly three digits, a leading 0 or two group separators leave one reading.
      ("12,5", .comma), ("0,75", .comma), ("0,500", .comma), ("12.5", .point), ("0.500", .point),
      ("1.234.567,8", .comma), ("1 234.56", .point), ("1 234,56", .comma), ("1'234.50", .point),
      // A mark followed by exactly three digits reads both ways.
      ("12.345", .ambiguous), ("-1,234", .ambiguous), ("999,999", .ambiguous),
    ] as [(String, DecimalMarkInference.Evidence)])
  func evidence(text: String, expected: DecimalMarkInference.Evidence) {
    #expect(DecimalMarkInference.evidence(text) == expected)
  }

  // (cells, delimiter) → mark and basis; `nil` mark: undecided.
  @Test(
    "the column's mark",
    arguments: [
      (["12,50", "1.000", "173,900"], ";", DecimalMark.comma, DecimalMarkInference.Basis.amounts),
      (["12.50", "1,234"], ";", .point, .amounts),
      // Cells proving both marks: the mark more cells prove wins (the others are `ambiguous_amount` errors,
      // ``AmountParser``), whatever the delimiter; as many proving each leave the column undecided.
      (["12,50", "12,50", "12.50"], ",", .comma, .amounts),
      (["1.234,56", "12,50", "3,75", "12.50", "1.000"], ";", .comma, .amounts),
      (["12.50", "12.75", "1,234.56", "3,25", "1,234"], ";", .point, .amounts),
      (["12.50", "12.75", "0.5", "3,25", "1.234.567"], "\t", .point, .amounts),
      (["1.000", "173,900"], ";", .comma, .delimiter),
      (["1,000"], ",", nil, nil),
      (["12,50", "12.50"], ";", nil, nil),
      (["12,50", "12.50"], ",", nil, nil),
      (["12,50", "1.234,56", "12.50", "1,234.56", "1.000"], ";", nil, nil),
      (["12.50", "1,000"], ",", .point, .amounts),
      (["12", "7"], ";", .point, nil),
      (["12", "7"], "\t", .point, nil),
      (["1,000", "12"], "\t", nil, nil),
      (["12,50", "12.50"], "\t", nil, nil),
    ] as [([String], Character, DecimalMark?, DecimalMarkInference.Basis?)])
  func decide(cells: [String], delimiter: Character, mark: DecimalMark?, basis: DecimalMarkInference.Basis?) throws {
    var inference = DecimalMarkInference()
    for cell in cells { inference.add(cell) }
    let decided = inference.decide(delimiter: try #require(delimiter.asciiValue))
    #expect(decided.mark == mark)
    #expect(decided.basis == basis)
  }
}
