import Foundation
import Testing

@testable import FXBatch

/// A spreadsheet's number cell is read as the shortest decimal of its double
/// (``ExactDecimal/spreadsheetNumberText(_:)``, ``ExactDecimal/init(spreadsheetNumber:)``).
@Suite("Spreadsheet numbers: the shortest decimal of the double")
struct SpreadsheetNumberTests {
  /// The value read from a cell's text, by the fast path's reading of its bytes.
  static func fast(_ text: String) -> ExactDecimal? {
    var text = text
    return text.withUTF8 { ExactDecimal(spreadsheetNumber: $0) }
  }

  /// The value read from a cell's text, by the general path's: its shortest text, read as a number's text.
  static func general(_ text: String) -> ExactDecimal? {
    ExactDecimal(jsonNumber: ExactDecimal.spreadsheetNumberText(text))
  }

  // The expected texts are what Python's `repr` (the shortest round trip) writes for the double, by hand.
  @Test(arguments: [
    ("878361.5699999999", "878361.57"),  // openpyxl's %.16g of 878361.57
    ("878361.56999999995", "878361.57"),  // %.17g
    ("0.30000000000000004", "0.30000000000000004"),  // 0.1 + 0.2 is not 0.3
    ("0.30000000000000001", "0.3"),
    ("0.07000000000000001", "0.07"),
    ("19.989999999999998", "19.99"),
    ("1234567.8899999999", "1234567.89"),
    ("-1234567.8899999999", "-1234567.89"),
    ("1.2345678901234567E+20", "123456789012345670000"),
    ("1.234567890123457e+20", "123456789012345700000"),
    ("12345678901234567.89", "12345678901234568"),  // past 15 digits: what the double holds
    ("9007199254740993", "9007199254740992"),  // 2^53 + 1 is no double
    ("1.0000000000000000555E-3", "0.001"),
    ("4.4999999999999999E-3", "0.0045"),
    ("40400.00000000001", "40400.00000000001"),
    ("40400.999999999999", "40401"),  // a serial day: the double is the next day
  ])
  func longTextsAreTheirDoublesShortestDecimal(text: String, expected: String) throws {
    let value = try #require(ExactDecimal(expected))
    #expect(Self.general(text)?.normalized == value.normalized)
    #expect(Self.fast(text) == Self.general(text))
  }

  /// Up to 15 significant digits the text is its own shortest decimal, whatever its form, and comes back unchanged.
  @Test(arguments: [
    "878361.57", "0.3", "-0", "-0.000", "0", "+12.5", ".5", "5.", "1E-3", "1e3", "4.5E-3", "-2.5e+10", "00012.5000",
    "123456789012345", "0.000000000000000000000000000001", "999999999999999000000", "1.00000000000000000000",
  ])
  func shortTextsAreUnchanged(text: String) {
    #expect(ExactDecimal.spreadsheetNumberText(text) == text)
    #expect(Self.fast(text) == ExactDecimal(jsonNumber: text))
    #expect(Self.fast(text) != nil)
  }

  /// Texts that are no decimal number, or whose double is not finite, are left to the amount rules, which refuse
  /// them as before.
  @Test(arguments: [
    "INF", "-INF", "NaN", "inf", "nan", "infinity", "0x1p3", "1.0000000000000001E400", "-1.0000000000000001E+400",
    "1E", "1E+", "e5", ".", "", "-", "1.2.3", " 1.5", "1,5", "12345678901234567890E", "1.5 ",
  ])
  func notNumbersAreRefused(text: String) {
    #expect(ExactDecimal.spreadsheetNumberText(text) == text)
    #expect(Self.general(text) == nil)
    #expect(Self.fast(text) == nil)
  }

  /// A negative zero past 15 digits (a tiny negative number below the doubles) is zero, without a sign.
  @Test func negativeZeroAndUnderflow() {
    #expect(ExactDecimal.spreadsheetNumberText("-1.2345678901234567E-400") == "-0.0")
    #expect(Self.general("-1.2345678901234567E-400")?.isZero == true)
    #expect(Self.fast("-1.2345678901234567E-400") == Self.general("-1.2345678901234567E-400"))
    // The smallest subnormal: its shortest text's exponent is past what the amount rules read.
    #expect(Self.general("4.9406564584124654E-324") == nil)
  }

  /// The shortcut's proof, checked: a decimal of at most 15 significant digits (any position of the point, any
  /// exponent the amount rules read) has the same value as the shortest decimal of its double.
  @Test func upTo15DigitsTheShortcutIsTheFullRoute() throws {
    var generator = SplitMix64(seed: 32)
    func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
    for _ in 0..<200_000 {
      let digits = 1 + next(15)
      var significand = String(1 + next(9))
      for _ in 1..<digits { significand.append(Character(String(next(10)))) }
      let point = next(digits + 1)
      var text = String(significand.prefix(point)) + "." + String(significand.dropFirst(point))
      if next(3) == 0 { text += "E" + String(next(41) - 20) }
      if next(2) == 0 { text = "-" + text }
      let literal = try #require(ExactDecimal(jsonNumber: text), "\(text)")
      let double = try #require(Double(text))
      let shortest = try #require(ExactDecimal(jsonNumber: double.description), "\(text) → \(double)")
      #expect(literal.normalized == shortest.normalized, "\(text) → \(double.description)")
      #expect(ExactDecimal.spreadsheetNumberText(text) == text)
    }
  }

  /// What openpyxl writes (`%.16g`) and a 17-digit writer writes (`%.17g`) for amounts typed with two or three
  /// decimals read back as the amount typed, by both paths.
  @Test func writersDigitsReadAsTyped() throws {
    var generator = SplitMix64(seed: 17)
    var changed = 0
    for _ in 0..<50_000 {
      let scale = 2 + Int(generator.next() % 2)
      let typed = ExactDecimal(significand: Int128(generator.next() % 100_000_000_000_000) - 50_000_000_000_000, scale: scale)
      let double = try #require(Double(typed.description))
      for format in ["%.16g", "%.17g"] {
        let written = String(format: format, double)
        if written != typed.description { changed += 1 }
        #expect(Self.general(written)?.normalized == typed.normalized, "\(typed) written \(written)")
        #expect(Self.fast(written) == Self.general(written), "\(written)")
      }
    }
    // The check is not empty: many such texts differ from the typed amount.
    #expect(changed > 20_000)
  }
}
