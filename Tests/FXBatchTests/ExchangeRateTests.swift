import Testing

@testable import FXBatch

@Suite("ExchangeRate conversion and rounding")
struct ExchangeRateTests {
  /// `amount × rate` rounded to `minorUnits` decimals.
  private func converted(
    _ amount: String, at rate: ExchangeRate, minorUnits: Int = 2, rounding: RoundingMode = .halfUp
  ) throws -> String {
    try #require(rate.convert(try decimal(amount), minorUnits: minorUnits, rounding: rounding)).description
  }

  @Test(
    "each rounding mode on exact ties and near-ties",
    arguments: [
      // 1 × 1.005 = 1.005: a tie at the cent.
      ("1.005", "1", RoundingMode.halfUp, "1.01"),
      ("1.005", "1", .halfEven, "1.00"),
      ("1.005", "1", .down, "1.00"),
      ("1.005", "1", .up, "1.01"),
      // -1 × 1.005 = -1.005: ties go away from zero under half-up, to the even cent under half-even.
      ("1.005", "-1", .halfUp, "-1.01"),
      ("1.005", "-1", .halfEven, "-1.00"),
      ("1.005", "-1", .down, "-1.00"),
      ("1.005", "-1", .up, "-1.01"),
      // 1 × 1.015 = 1.015: half-even goes to the even neighbour 1.02.
      ("1.015", "1", .halfUp, "1.02"),
      ("1.015", "1", .halfEven, "1.02"),
      ("1.015", "1", .down, "1.01"),
      ("1.015", "1", .up, "1.02"),
      // 1.009: above the tie.
      ("1.009", "1", .halfUp, "1.01"),
      ("1.009", "1", .halfEven, "1.01"),
      ("1.009", "1", .down, "1.00"),
      ("1.009", "-1", .down, "-1.00"),
      ("1.009", "1", .up, "1.01"),
      // 1.001: below the tie.
      ("1.001", "1", .halfUp, "1.00"),
      ("1.001", "1", .halfEven, "1.00"),
      ("1.001", "1", .down, "1.00"),
      ("1.001", "1", .up, "1.01"),
      ("1.001", "-1", .up, "-1.01"),
    ] as [(String, String, RoundingMode, String)])
  func roundingModes(rate: String, amount: String, rounding: RoundingMode, expected: String) throws {
    #expect(try converted(amount, at: ExchangeRate(numerator: decimal(rate)), rounding: rounding) == expected)
  }

  /// A rate outside what 38 digits show is written in scientific notation, never trapped on (a rate between
  /// 2¹²⁷ and 2¹²⁸ did) nor written as `0` (one of 2¹²⁸ or more, or under 0.5·10⁻³⁸, was).
  @Test(
    "rates outside 38 digits have a scientific rate text",
    arguments: [
      ("99999999999999999999999999999999999999", "0.5", "2e+38"),
      ("99999999999999999999999999999999999999", "0.9", "1.111111111e+38"),
      ("99999999999999999999999999999999999999", "0.01", "1e+40"),
      ("0.00000000000000000000000000000000000001", "3", "3.333333333e-39"),
      ("0.00000000000000000000000000000000000001", "99999999999999999999999999999999999999", "1e-76"),
      ("1", "3", "0.3333333333"),
      ("0.00000000000000000000000000000000000003", "1", "0.00000000000000000000000000000000000003"),
      ("99999999999999999999999999999999999999", "1", "99999999999999999999999999999999999999"),
    ] as [(String, String, String)])
  func extremeRateTexts(numerator: String, denominator: String, text: String) throws {
    #expect(ExchangeRate(numerator: try decimal(numerator), denominator: try decimal(denominator)).decimalText() == text)
  }

  @Test(
    "a tie reached by division rounds like a tie reached by multiplication",
    arguments: [(RoundingMode.halfUp, "0.13"), (.halfEven, "0.12"), (.down, "0.12"), (.up, "0.13")] as [(RoundingMode, String)])
  func tieFromDivision(rounding: RoundingMode, expected: String) throws {
    // 1 ÷ 8 = 0.125 exactly.
    #expect(try converted("1", at: ExchangeRate(numerator: decimal("8")).inverted, rounding: rounding) == expected)
  }

  @Test("150 USD at EUR/USD 1.5 is exactly 100.00 EUR in every mode", arguments: RoundingMode.allCases)
  func inverseIsExact(rounding: RoundingMode) throws {
    // 150 ÷ 1.5 = 100 exactly: dividing by the published rate, never multiplying by a rounded 0.666…
    let euroPerDollar = ExchangeRate(numerator: try decimal("1.5")).inverted
    #expect(try converted("150", at: euroPerDollar, rounding: rounding) == "100.00")
  }

  @Test("EUR → DOP at 60 and back are exact")
  func roundTrip() throws {
    let pesoPerEuro = ExchangeRate(numerator: try decimal("60"))
    // 1000 × 60 = 60000
    #expect(try converted("1000", at: pesoPerEuro) == "60000.00")
    // 60000 ÷ 60 = 1000
    #expect(try converted("60000", at: pesoPerEuro.inverted) == "1000.00")
  }

  @Test("zero-decimal currencies print without decimals")
  func zeroMinorUnits() throws {
    let yen = try #require(ISO4217.currency(for: try code("JPY")))
    let won = try #require(ISO4217.currency(for: try code("KRW")))
    // 2022-07-08: EUR/JPY 138.05, 100 × 138.05 = 13805
    #expect(try converted("100", at: ExchangeRate(numerator: decimal("138.05")), minorUnits: yen.minorUnits) == "13805")
    // 2022-07-08: EUR/KRW 1321.61, 100 × 1321.61 = 132161
    #expect(try converted("100", at: ExchangeRate(numerator: decimal("1321.61")), minorUnits: won.minorUnits) == "132161")
    // 2017-03-08: USD → JPY = 120.65 / 1.0556; 1000 × 120.65 / 1.0556 = 120650 / 1.0556 = 114295.1875… → 114295
    let dollarToYen = ExchangeRate(numerator: try decimal("120.65"), denominator: try decimal("1.0556"))
    #expect(try converted("1000", at: dollarToYen, minorUnits: yen.minorUnits) == "114295")
  }

  @Test("three-decimal currencies keep three decimals")
  func threeMinorUnits() throws {
    let dinar = try #require(ISO4217.currency(for: try code("KWD")))
    // 10 × 0.31234 = 3.1234 → 3.123
    #expect(try converted("10", at: ExchangeRate(numerator: decimal("0.31234")), minorUnits: dinar.minorUnits) == "3.123")
  }

  @Test("zero converts to zero with the target's decimals")
  func zero() throws {
    #expect(try converted("0", at: ExchangeRate(numerator: decimal("1.0556"))) == "0.00")
    #expect(try converted("-0.00", at: ExchangeRate(numerator: decimal("1.0556"))) == "0.00")
  }

  @Test("a 19-digit amount through a cross rate is exact")
  func longAmountCrossRate() throws {
    // 2017-03-08 USD → JPY: 12345678901234567.89 × 120.65 / 1.0556
    //   = 1489506159433950615.9285 / 1.0556 = 1411051685708554960.1444676… → 1411051685708554960 JPY
    let dollarToYen = ExchangeRate(numerator: try decimal("120.65"), denominator: try decimal("1.0556"))
    #expect(try converted("12345678901234567.89", at: dollarToYen, minorUnits: 0) == "1411051685708554960")
  }

  @Test("products wider than 128 bits take the wide path and stay exact")
  func wideArithmetic() throws {
    // 12345678901234567.89 × 1.123456789012345678901234: the integer product
    // 1234567890123456789 × 1123456789012345678901234 = 1386983677655845156503428656651431397777626 (43 digits)
    // is above 2^128 = 340282366920938463463374607431768211456 (39 digits). Exact result
    // 13869836776558451.56503428656651431397777626 → 13869836776558451.57 half-up, .56 down.
    let precise = ExchangeRate(numerator: try decimal("1.123456789012345678901234"))
    #expect(try converted("12345678901234567.89", at: precise) == "13869836776558451.57")
    #expect(try converted("12345678901234567.89", at: precise, rounding: .down) == "13869836776558451.56")
    #expect(try converted("-12345678901234567.89", at: precise) == "-13869836776558451.57")

    // A 38-digit amount at the 2017-03-08 USD → GBP cross rate 0.86753 / 1.0556:
    // 12345678901234567890123456789012345678 × 86753 = 1071024681718802468171880246817188024603534 (> 2^128);
    // 123456789012345678901234567890123456.78 × 0.86753 / 1.0556 = 101461224111292389936707109399127323.2856701…
    let dollarToPound = ExchangeRate(numerator: try decimal("0.86753"), denominator: try decimal("1.0556"))
    #expect(
      try converted("123456789012345678901234567890123456.78", at: dollarToPound)
        == "101461224111292389936707109399127323.29")
    #expect(
      try converted("123456789012345678901234567890123456.78", at: dollarToPound, rounding: .down)
        == "101461224111292389936707109399127323.28")
  }

  @Test(
    "ties on the wide path follow the rounding mode",
    arguments: [
      ("1000000000000000000.005", RoundingMode.halfUp, "1000000000000000000.01"),
      ("1000000000000000000.005", .halfEven, "1000000000000000000.00"),
      ("1000000000000000000.015", .halfEven, "1000000000000000000.02"),
      ("1000000000000000000.005", .down, "1000000000000000000.00"),
      ("1000000000000000000.005", .up, "1000000000000000000.01"),
      ("-1000000000000000000.005", .halfUp, "-1000000000000000000.01"),
      ("-1000000000000000000.005", .halfEven, "-1000000000000000000.00"),
    ] as [(String, RoundingMode, String)])
  func wideTies(amount: String, rounding: RoundingMode, expected: String) throws {
    // A rate of 1 written with 20 decimals: 1000000000000000000005 × 10^20 ≈ 10^41 overflows 128 bits,
    // and the exact result is the amount itself, a tie at the cent.
    let one = ExchangeRate(numerator: ExactDecimal(significand: 100_000_000_000_000_000_000, scale: 20))
    #expect(try converted(amount, at: one, rounding: rounding) == expected)
  }

  @Test("a result of more than 38 digits is refused, not wrapped")
  func overflow() throws {
    let largest = try decimal(String(repeating: "9", count: 38))
    #expect(ExchangeRate(numerator: try decimal("10")).convert(largest, minorUnits: 2, rounding: .halfUp) == nil)
    // 36 nines × 1 with 2 decimals is 38 digits: still fits.
    let fitting = try decimal(String(repeating: "9", count: 36))
    #expect(
      ExchangeRate.one.convert(fitting, minorUnits: 2, rounding: .halfUp)?.description == String(repeating: "9", count: 36)
        + ".00")
  }

  @Test("inverting and chaining keep the exact ratio")
  func invertAndChain() throws {
    let usd = ExchangeRate(numerator: try decimal("1.0556"))
    let gbp = ExchangeRate(numerator: try decimal("0.86753"))
    #expect(usd.inverted.numerator == (try decimal("1")))
    #expect(usd.inverted.denominator == (try decimal("1.0556")))
    let cross = try #require(usd.inverted.chained(with: gbp))
    // (1 ÷ 1.0556) × 0.86753 = 0.86753 ÷ 1.0556
    #expect(cross.numerator.normalized == (try decimal("0.86753")))
    #expect(cross.denominator.normalized == (try decimal("1.0556")))
  }

  @Test(
    "rate text is exact when it terminates, else 10 significant digits",
    arguments: [
      ("1.5", "1", "1.5"),
      ("60", "1", "60"),
      ("1.10", "1", "1.1"),
      ("1", "3", "0.3333333333"),
      ("2", "3", "0.6666666667"),  // 0.66666666666… → half-even at 10 digits → …67
      ("1", "1.5", "0.6666666667"),
      ("0.86753", "1.0556", "0.8218359227"),  // 0.82183592269799… → 0.8218359227
      ("1", "8", "0.125"),
    ] as [(String, String, String)])
  func decimalText(numerator: String, denominator: String, expected: String) throws {
    let rate = ExchangeRate(numerator: try decimal(numerator), denominator: try decimal(denominator))
    #expect(rate.decimalText() == expected)
  }

  // 1234567890123456789012345678901234567.8 × 120 = 148148146814814814681481481468148148136 (39 digits):
  // beyond ExactDecimal's 38 digits, so no result rather than an unrepresentable one.
  @Test func resultsBeyond38DigitsAreRefused() throws {
    let amount = try #require(ExactDecimal("1234567890123456789012345678901234567.8"))
    let rate = ExchangeRate(numerator: try #require(ExactDecimal("120")))
    #expect(rate.convert(amount, minorUnits: 0, rounding: .halfUp) == nil)
    // 12345678901234567890123456789012345.678 × 1 to 2 decimals = …345.68: 37 digits, fine.
    let fits = try #require(ExactDecimal("12345678901234567890123456789012345.678"))
    #expect(
      ExchangeRate.one.convert(fits, minorUnits: 2, rounding: .halfUp)?.description == "12345678901234567890123456789012345.68")
  }
}
