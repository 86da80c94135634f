import Foundation
import Testing

@testable import FXBatch

@Suite("CalculatorAnswer: reading the legacy calculator's answers")
struct CalculatorAnswerTests {
  /// Whether `rate` is exactly `expected`: numerator × 1 = denominator × expected (both normalized).
  func expectRate(_ rate: ExchangeRate, equals expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let value = try decimal(expected, sourceLocation: sourceLocation)
    #expect(
      rate.numerator.multiplied(by: .one) == rate.denominator.multiplied(by: value),
      "\(rate.numerator) ÷ \(rate.denominator) is not \(expected)", sourceLocation: sourceLocation)
  }

  func answer(_ body: [UInt8]) throws -> CalculatorAnswer {
    try CalculatorAnswer.parse(body).get()
  }

  @Test(arguments: [
    // 54.836587 Indian rupees ÷ 1 U.S. dollar = 54.836587.
    ("google-calc-usd-inr.txt", "54.836587"),
    // 1.28534704 million = 1 285 347.04 UGX for 500 USD: 1 285 347.04 ÷ 500 = 2 570.69408
    // (check: 2 570.69408 × 500 = 1 285 347.04).
    ("google-calc-usd-ugx-million.txt", "2570.69408"),
    // 1.28534704 billion = 1 285 347 040 UGX for 500 000 USD: ÷ 500 000 = 2 570.69408
    // (check: 2 570.69408 × 500 000 = 1 285 347 040).
    ("google-calc-usd-ugx-billion.txt", "2570.69408"),
    // 1.28534704 trillion = 1 285 347 040 000 UGX for 500 000 000 USD: ÷ 500 000 000 = 2 570.69408
    // (check: 2 570.69408 × 500 000 000 = 1 285 347 040 000).
    ("google-calc-usd-ugx-trillion.txt", "2570.69408"),
    // 1.6399 million = 1 639 900 USD for 1 000 000 GBP: ÷ 1 000 000 = 1.6399.
    ("google-calc-gbp-usd-million-lhs-grouped.txt", "1.6399"),
  ])
  func readsTheRateOfEachFixture(name: String, expected: String) throws {
    let rate = try answer(try Fixture.bytes("responses", name)).rate().get()
    try expectRate(rate, equals: expected)
  }

  @Test func anUnknownUnitIsNoRateQuotingTheServiceError() throws {
    let answer = try answer(try Fixture.bytes("responses", "google-calc-error-4.txt"))
    #expect(answer == CalculatorAnswer(lhs: "", rhs: "", error: "4", icc: false))
    #expect(answer.rate() == .failure(RowError(.noRate, #"calculator error "4" (unknown unit)"#)))
  }

  // A body larger than any answer is refused before it is parsed (its JSON tree would cost many times its size).
  @Test func anOversizedAnswerIsRefusedUnread() throws {
    let body =
      Array(#"{lhs: "1 Euro",rhs: "1.08 U.S. dollars",error: "",icc: true, pad: ""#.utf8)
      + [UInt8](repeating: 0x61, count: 64 << 10) + Array(#""}"#.utf8)
    #expect(
      CalculatorAnswer.parse(body)
        == .failure(
          RowError(
            .badResponse, "calculator: the answer is \(body.count) bytes, more than any calculator answer (65536)")))
  }

  @Test func aUnitConversionIsRefused() throws {
    let answer = try answer(try Fixture.bytes("responses", "google-calc-2m-feet-hex-escapes.txt"))
    #expect(answer.lhs == "2 meters")
    #expect(answer.rate() == .failure(RowError(.badResponse, "calculator: not a currency conversion (icc false)")))
  }

  /// The no-break space between digit groups, in every spelling a body may use, as raw bytes.
  static let noBreakSpaceSpellings: [(String, [UInt8])] = [
    ("raw byte 0xA0 (Latin-1)", [0xA0]),
    ("UTF-8 C2 A0", [0xC2, 0xA0]),
    (#"escape \xa0"#, Array(#"\xa0"#.utf8)),
    (#"escape \u00a0"#, Array(#"\u00a0"#.utf8)),
    ("&#160;", Array("&#160;".utf8)),
    (#"escaped \x26#160;"#, Array(#"\x26#160;"#.utf8)),
    ("&nbsp;", Array("&nbsp;".utf8)),
    (#"escaped \x26nbsp;"#, Array(#"\x26nbsp;"#.utf8)),
    ("U+202F in UTF-8", [0xE2, 0x80, 0xAF]),
    (#"escape \u202f"#, Array(#"\u202f"#.utf8)),
    ("plain space", [0x20]),
    // Issue 13: U+0080 where the live service sent a no-break space, as the real fixture has it.
    (#"escape \u0080"#, Array(#"\u0080"#.utf8)),
    (#"escape \x80"#, Array(#"\x80"#.utf8)),
    ("U+0080 in UTF-8", [0xC2, 0x80]),
  ]

  @Test(arguments: noBreakSpaceSpellings)
  func readsGroupsSeparatedByANoBreakSpace(spelling: String, separator: [UInt8]) throws {
    let body =
      Array(#"{lhs: "100 U.S. dollars",rhs: "5"#.utf8) + separator + Array(#"483.6587 Indian rupees",error: "",icc: true}"#.utf8)
    let rate = try answer(body).rate().get()
    // 5 483.6587 ÷ 100 = 54.836587.
    try expectRate(rate, equals: "54.836587")
    // 100 × 54.836587 = 5 483.6587 → 5 483.66 (half up at 2 decimals: the dropped 87 is over half).
    #expect(rate.convert(try decimal("100"), minorUnits: 2, rounding: .halfUp) == (try decimal("5483.66")))
  }

  /// Issue 13: the fixture has the six characters `\u0080` where the live service sent a no-break space. Between
  /// digit groups the grouping rules show it is a separator (one to three digits, then groups of three), so it
  /// reads as 5 483.6587 rupees like the other spellings of the no-break space (it was refused as "cannot read").
  @Test func readsTheCorruptedSeparatorOfTheFixture() throws {
    let answer = try answer(try Fixture.bytes("responses", "google-calc-usd-inr-100-separator.txt"))
    #expect(answer.rhs == "5\u{80}483.6587 Indian rupees")
    let quantity = try #require(CalculatorQuantity(reading: answer.rhs))
    #expect(quantity.value == (try decimal("5483.6587")))
    #expect(quantity.unit == "Indian rupees")
    // 5 483.6587 ÷ 100 = 54.836587.
    try expectRate(try answer.rate().get(), equals: "54.836587")
  }

  @Test func keepsCommasAndColonsInsideValues() throws {
    let body = #"{lhs: "1,000 U.S. dollars (at 10:00, say)",rhs: "54,836.587 Indian rupees, approx: yes",error: "",icc: true}"#
    let answer = try answer(Array(body.utf8))
    #expect(answer.lhs == "1,000 U.S. dollars (at 10:00, say)")
    #expect(answer.rhs == "54,836.587 Indian rupees, approx: yes")
    // 54 836.587 ÷ 1 000 = 54.836587.
    try expectRate(try answer.rate().get(), equals: "54.836587")
  }

  @Test(arguments: [
    ("536.912752 Indian rupees", "536.912752", "Indian rupees"),
    ("1 000 000 British pounds", "1000000", "British pounds"),
    ("1,000,000 U.S. dollars", "1000000", "U.S. dollars"),
    ("12 345.5 Japanese yen", "12345.5", "Japanese yen"),
    ("1.6399 million U.S. dollars", "1639900", "U.S. dollars"),
    ("2.5 thousand euros", "2500", "euros"),
    ("1.28534704 billion Ugandan shillings", "1285347040", "Ugandan shillings"),
    ("1.28534704 trillion Ugandan shillings", "1285347040000", "Ugandan shillings"),
    // 1.5 × 10^13 = 15 000 000 000 000.
    ("1.5 &#215; 10<sup>13</sup> Zimbabwe dollars", "15000000000000", "Zimbabwe dollars"),
    ("1.5 \u{D7} 10<sup>13</sup> Zimbabwe dollars", "15000000000000", "Zimbabwe dollars"),
    ("1.5&times;10<sup>13</sup>", "15000000000000", ""),
    // 4.3 × 10^−5 = 0.000043.
    ("4.3 &#215; 10<sup>-5</sup> euros", "0.000043", "euros"),
    ("7", "7", ""),
    ("2 meters", "2", "meters"),
    (
      "6.56167979 feet (6 feet 6<sup>47</sup>&#8260;<sub>64</sub> inches)", "6.56167979",
      "feet (6 feet 6<sup>47</sup>&#8260;<sub>64</sub> inches)"
    ),
  ])
  func readsQuantities(text: String, value: String, unit: String) throws {
    let quantity = try #require(CalculatorQuantity(reading: text))
    #expect(quantity.value.normalized == (try decimal(value)))
    #expect(quantity.unit == unit)
  }

  @Test(arguments: [
    "", "dollars", "-5 dollars", ".5 dollars",
    // Uneven or mixed grouping.
    "1 00 000 rupees", "5 4 dollars", "1234 567 dollars", "0 500 dollars", "1,000 000 dollars", "1 000,5 dollars",
    "1,5 euros",
    // Unknown scale words, or a scale word that would be applied twice.
    "1.5 zillion dollars", "2 lakh rupees", "3 crore rupees", "1.5 millions dollars", "4 quadrillion dollars",
    "1.5 &#215; 10<sup>13</sup> million dollars", "99 trillion trillion dollars", "2 thousand million dollars",
    // A power of ten not in the calculator's form: never read as 1.5.
    "1.5 &#215; 10^13 dollars", "1.5 &#215; 10<sup></sup> dollars", "1.5 \u{D7} 2 dollars", "1.5 &#215; 10<sup>99</sup> x",
    // Text glued to the number.
    "1e5 dollars", "10USD", "5. dollars", "5.5.5 dollars", "1.5million dollars", "5.123 456 dollars", "5, dollars",
    // Not a space.
    "5\u{2009}483 rupees", "5&#xa0;483 rupees",
    // U+0080 only between digit groups: not as the gap before the unit, nor in uneven or mixed grouping.
    "5483\u{80}rupees", "5\u{80}rupees", "54\u{80}83.6587 rupees", "5\u{80}483 000 rupees", "5\u{80}\u{80}483 rupees",
    // More than 38 digits.
    String(repeating: "9", count: 39) + " dollars", String(repeating: "9", count: 30) + " trillion dollars",
  ])
  func refusesWhatItCannotProve(text: String) {
    #expect(CalculatorQuantity(reading: text) == nil)
  }

  @Test(arguments: [
    ("[1]", "calculator: the answer is not an object"),
    (#"{rhs: "1 euro"}"#, "calculator: the answer has no 'lhs'"),
    (#"{lhs: "1 euro"}"#, "calculator: the answer has no 'rhs'"),
    (#"{lhs: 1, rhs: "1 euro"}"#, "calculator: 'lhs' is not a string"),
    (#"{lhs: "1", lhs: "2", rhs: "1 euro"}"#, "calculator: 'lhs' appears twice"),
    (#"{lhs: "1", rhs: "1 euro", icc: "true"}"#, "calculator: 'icc' is not true or false"),
    (#"{lhs: "1",,}"#, "calculator: line 1, column 11 (byte 10): empty element (a comma with nothing before it)"),
    ("{lhs: \"1 U.S. dol", "calculator: line 1, column 7 (byte 6): string is not closed on its line"),
  ])
  func refusesMalformedAnswers(body: String, message: String) {
    #expect(CalculatorAnswer.parse(Array(body.utf8)) == .failure(RowError(.badResponse, message)))
  }

  @Test(arguments: [
    (CalculatorAnswer(lhs: "1 U.S. dollar", rhs: "", error: "", icc: true), RowError(.badResponse, "calculator: empty rhs")),
    (CalculatorAnswer(lhs: "", rhs: "1 euro", error: "", icc: nil), RowError(.badResponse, "calculator: empty lhs")),
    (CalculatorAnswer(lhs: "1 U.S. dollar", rhs: "0 euros"), RowError(.badResponse, #"calculator: rhs "0 euros" is zero"#)),
    (
      CalculatorAnswer(lhs: "1 U.S. dollar", rhs: "1.5 zillion euros"),
      RowError(.badResponse, #"calculator: cannot read "1.5 zillion euros" as a number"#)
    ),
    (CalculatorAnswer(lhs: "1 U.S. dollar", rhs: "1 euro", error: "7", icc: true), RowError(.noRate, #"calculator error "7""#)),
  ])
  func refusesAnswersWithoutARate(answer: CalculatorAnswer, error: RowError) {
    #expect(answer.rate() == .failure(error))
  }

  @Test func anAnswerWithoutIccIsRead() throws {
    let answer = try answer(Array(#"lhs: "2 euros", rhs: "3 U.S. dollars""#.utf8))
    #expect(answer.icc == nil)
    // 3 ÷ 2 = 1.5.
    try expectRate(try answer.rate().get(), equals: "1.5")
  }
}

/// A tiny deterministic generator (SplitMix64, Steele, Lea and Flood 2014), so fuzz runs repeat exactly.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("RepairedJSON and CalculatorAnswer: random and mutated bodies")
struct RepairedJSONFuzzTests {
  /// Bytes that steer random bodies into the grammar's corners more often than uniform bytes would.
  static let grammarBytes = Array(#"{}[]:,"'\ uxa0-.e1tnl$_"#.utf8) + [0x0A, 0xA0, 0xC2, 0x80, 0x00]

  static func randomByte(using generator: inout SplitMix64) -> UInt8 {
    Bool.random(using: &generator)
      ? grammarBytes[Int.random(in: 0..<grammarBytes.count, using: &generator)] : UInt8.random(in: 0...255, using: &generator)
  }

  static func mutate(_ body: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
    var bytes = body
    for _ in 0..<Int.random(in: 1...4, using: &generator) {
      let position = Int.random(in: 0...bytes.count, using: &generator)
      switch Int.random(in: 0..<5, using: &generator) {
      case 0 where position < bytes.count: bytes[position] = randomByte(using: &generator)
      case 1 where position < bytes.count: bytes.remove(at: position)
      case 2: bytes.removeSubrange(position...)
      case 3:
        let end = min(bytes.count, position + Int.random(in: 1...12, using: &generator))
        bytes.insert(contentsOf: bytes[position..<end], at: position)
      default: bytes.insert(randomByte(using: &generator), at: position)
      }
    }
    return bytes
  }

  @Test func neverCrashesAndAlwaysAnswers() throws {
    let bodies = try RepairedJSONTests.fixtureNames.map { try Fixture.bytes("responses", $0) }
    var generator = SplitMix64(seed: 0x4658_4261_7463_6834)
    var parsed = 0
    var refused = 0
    var misplacedErrors: [String] = []
    var slowest = Duration.zero
    let clock = ContinuousClock()
    for round in 0..<6000 {
      let input: [UInt8]
      if round.isMultiple(of: 3) {
        input = (0..<Int.random(in: 0...120, using: &generator)).map { _ in Self.randomByte(using: &generator) }
      } else {
        input = Self.mutate(bodies[Int.random(in: 0..<bodies.count, using: &generator)], using: &generator)
      }
      let start = clock.now
      do {
        _ = try RepairedJSON.parse(input)
        parsed += 1
      } catch {
        refused += 1
        if error.offset > input.count || error.line < 1 || error.column < 1 || error.column > error.offset + 1 {
          misplacedErrors.append("\(input): \(error)")
        }
      }
      // The whole path a provider takes must not trap either (zero, overflow, odd quantities).
      _ = CalculatorAnswer.parse(input).flatMap { $0.rate() }
      slowest = max(slowest, clock.now - start)
    }
    #expect(misplacedErrors.isEmpty, "\(misplacedErrors.prefix(3))")
    #expect(parsed > 100, "the mutations should leave many bodies valid")
    #expect(refused > 1000, "random bytes should mostly be refused")
    #expect(slowest < .milliseconds(250), "one body took \(slowest)")
  }
}
