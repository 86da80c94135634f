import FXBatchTestSupport
import Testing

@testable import FXBatch

@Suite("AmountParser")
struct AmountParserTests {
  private let point = AmountParser(decimalMark: .point)
  private let comma = AmountParser(decimalMark: .comma)

  @Test(
    "decimal point amounts",
    arguments: [
      ("12", "12"), ("-12.50", "-12.50"), ("+0.5", "0.5"), (".5", "0.5"), (" 12.50 ", "12.50"),
      ("\u{00A0}12.50\u{00A0}", "12.50"), ("\t-0.01\n", "-0.01"),
    ] as [(String, String)])
  func pointAmounts(text: String, expected: String) throws {
    #expect(try point.parse(text).get().description == expected)
  }

  @Test(
    "decimal comma amounts",
    arguments: [("12,50", "12.50"), ("-0,01", "-0.01"), ("20,00", "20.00"), ("12", "12"), (",5", "0.5"), (" 1000,5 ", "1000.5")]
      as [(String, String)])
  func commaAmounts(text: String, expected: String) throws {
    #expect(try comma.parse(text).get().description == expected)
  }

  @Test("12,50 under a decimal comma is exactly 12.50")
  func commaIsExact() throws {
    let value = try comma.parse("12,50").get()
    #expect(value == ExactDecimal(significand: 1250, scale: 2))
  }

  @Test(
    "grouped or foreign-mark amounts are refused (grouping is a later issue)",
    arguments: ["1.000,50", "12.50", "1.000", "1,000,50", "1 000,50"])
  func commaRefusals(text: String) {
    guard case .failure(let error) = comma.parse(text) else {
      Issue.record("\(text) should be refused under a decimal comma")
      return
    }
    #expect(error.code == .invalidAmount)
  }

  @Test(
    "amounts that are not numbers are refused with the text quoted",
    arguments: ["12,50", "1,234.56", "abc", "12.3.4", "1e5", "12-"])
  func pointRefusals(text: String) {
    guard case .failure(let error) = point.parse(text) else {
      Issue.record("\(text) should be refused under a decimal point")
      return
    }
    #expect(error.code == .invalidAmount)
    #expect(error.message == "\"\(text)\" is not a number")
  }

  @Test("an empty amount is a missing field", arguments: ["", "   ", "\t"])
  func emptyAmount(text: String) {
    guard case .failure(let error) = point.parse(text) else {
      Issue.record("an empty amount should be refused")
      return
    }
    #expect(error.code == .missingField)
  }

  @Test("more than 38 digits says so")
  func tooManyDigits() {
    let text = String(repeating: "1", count: 39)
    guard case .failure(let error) = point.parse(text) else {
      Issue.record("39 digits should be refused")
      return
    }
    #expect(error.code == .invalidAmount)
    #expect(error.message.hasSuffix("has more than 38 digits"))
  }

  @Test(
    "evidence for inferring a column's decimal mark",
    arguments: [
      ("12.50", AmountParser.Evidence.point), ("-0.01", .point), ("12,50", .comma), ("-0,01", .comma), ("12", .neutral),
      ("1.000,50", .neutral), ("1,234.56", .neutral), ("abc", .neutral), ("", .neutral), (" 20,00 ", .comma),
    ] as [(String, AmountParser.Evidence)])
  func evidence(text: String, expected: AmountParser.Evidence) {
    #expect(AmountParser.evidence(text) == expected)
  }

  @Test("the Firefly III export reads as decimal comma amounts")
  func fireflyExport() throws {
    let reader = try CSVReader(path: try Fixture.path("csv", "firefly-iii-1183-semicolon-decimal-comma.csv"))
    _ = try #require(try reader.next())  // header
    var amounts: [String] = []
    while let record = try reader.next() { amounts.append(record.field(1)) }
    #expect(amounts == ["20,00", "-0,01"])
    #expect(amounts.map(AmountParser.evidence) == [.comma, .comma])
    #expect(try amounts.map { try comma.parse($0).get().description } == ["20.00", "-0.01"])
  }
}
