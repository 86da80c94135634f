import Testing

@testable import FXBatch

@Suite("ExactDecimal")
struct ExactDecimalTests {
  @Test(
    "plain decimal text parses exactly",
    arguments: [
      ("12", 12, 0),
      ("-0.5", -5, 1),
      (".5", 5, 1),
      ("+1.10", 110, 2),
      ("0", 0, 0),
      ("-0", 0, 0),
      ("0.000", 0, 3),
      ("007.50", 750, 2),
      ("1.0556", 10556, 4),
      ("372274", 372_274, 0),
    ] as [(String, Int, Int)])
  func parsesPlainText(text: String, significand: Int, scale: Int) throws {
    let value = try #require(ExactDecimal(text))
    #expect(value.significand == Int128(significand))
    #expect(value.scale == scale)
  }

  @Test(
    "anything but plain decimal text is refused",
    arguments: [
      "1,234.56", "1.2.3", "", "abc", "1e5", "12.50-", " 12", "12 ", "--1", "+-1", "+", "-", ".", "1 000", "0x10", "١٢",
    ])
  func refusesOtherText(text: String) {
    #expect(ExactDecimal(text) == nil)
  }

  @Test("38 digits are accepted, 39 are refused")
  func digitLimit() throws {
    let thirtyEightNines = String(repeating: "9", count: 38)
    let largest = try #require(ExactDecimal(thirtyEightNines))
    #expect(largest.description == thirtyEightNines)
    #expect(ExactDecimal(thirtyEightNines + "9") == nil)
    #expect(ExactDecimal("-" + thirtyEightNines + "9") == nil)
    // 38 digits spread around the point: 1 + 37 fraction digits.
    #expect(ExactDecimal("1." + String(repeating: "1", count: 37)) != nil)
    #expect(ExactDecimal("1." + String(repeating: "1", count: 38)) == nil)
    // A fraction of 39 decimals does not fit the scale even when its digits are zeros.
    #expect(ExactDecimal("0." + String(repeating: "0", count: 39)) == nil)
    // Leading zeros are not significant digits.
    #expect(ExactDecimal(String(repeating: "0", count: 10) + thirtyEightNines) != nil)
  }

  @Test(
    "description writes exactly scale decimals",
    arguments: [
      (-1250, 2, "-12.50"),
      (13805, 0, "13805"),
      (5, 3, "0.005"),
      (-5, 3, "-0.005"),
      (0, 2, "0.00"),
      (6_000_000, 2, "60000.00"),
    ] as [(Int, Int, String)])
  func description(significand: Int, scale: Int, text: String) {
    #expect(ExactDecimal(significand: Int128(significand), scale: scale).description == text)
  }

  @Test("normalized drops trailing fractional zeros only")
  func normalized() throws {
    #expect(try decimal("1.500").normalized.description == "1.5")
    #expect(try decimal("2.0").normalized.description == "2")
    #expect(try decimal("100").normalized.description == "100")
    #expect(try decimal("-0.010").normalized.description == "-0.01")
  }

  @Test("== compares representations; normalized values compare as numbers")
  func scaleIsPartOfTheValue() throws {
    // 1.10 and 1.1 are the same number but keep their written scale (so 12.50 prints as 12.50); code that
    // compares amounts or rates as numbers must compare normalized values.
    #expect(try decimal("1.10") != decimal("1.1"))
    #expect(try decimal("1.10").normalized == decimal("1.1"))
  }

  @Test("multiplication is exact")
  func multiplication() throws {
    // 1.0556 × 0.86753 = 0.915764668 (10556 × 86753 = 915764668, scale 4 + 5 = 9)
    #expect(try decimal("1.0556").multiplied(by: decimal("0.86753"))?.description == "0.915764668")
    // -1.5 × 2 = -3
    #expect(try decimal("-1.5").multiplied(by: decimal("2"))?.description == "-3")
    // 20 digits × 20 digits = 40 digits: more than 38.
    let twenty = try decimal(String(repeating: "9", count: 20))
    #expect(twenty.multiplied(by: twenty) == nil)
  }
}
