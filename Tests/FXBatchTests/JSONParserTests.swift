import Foundation
import Testing

@testable import FXBatch

@Suite("JSONParser: strict RFC 8259, exact numbers")
struct JSONParserTests {
  func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  @Test func keepsNumberTextExactly() throws {
    let value = try parse(#"{"amount":12345678901234567.89,"rate":1.0556,"tiny":1e-5,"list":[0,-0.5,2E+3]}"#)
    #expect(value["amount"]?.numberText == "12345678901234567.89")
    #expect(value["rate"]?.numberText == "1.0556")
    #expect(value["tiny"]?.numberText == "1e-5")
    #expect(value["list"] == .array([.number("0"), .number("-0.5"), .number("2E+3")]))
  }

  @Test func keepsDuplicateMembersInOrder() throws {
    guard case .object(let members) = try parse(#"{"a":1,"b":true,"a":null}"#) else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["a", "b", "a"])
    #expect(members[2].value == .null)
  }

  @Test func decodesEscapesAndSurrogatePairs() throws {
    let value = try parse(#"["a\"b\\c\/d\n\t", "\u00e9\ud83d\ude00", "plain ünïcode"]"#)
    #expect(value == .array([.string("a\"b\\c/d\n\t"), .string("é😀"), .string("plain ünïcode")]))
  }

  @Test(arguments: [
    ("", "unexpected end of the document", 1, 1),
    ("{\"a\":1,}", "expected a quoted member name", 1, 8),
    ("[1,2", "unexpected end of the document inside an array", 1, 5),
    ("{\"a\":\"unterminated}", "string is never closed", 1, 6),
    ("{\"a\":1} x", "unexpected text after the JSON value", 1, 9),
    ("[01]", "leading zero in a number", 1, 2),
    ("[1.]", "expected a digit after '.'", 1, 4),
    ("[\"\\x41\"]", "unknown escape \\x", 1, 3),
    ("{a:1}", "expected a quoted member name", 1, 2),
    ("{\"a\":1,\n \"b\":tru}", "expected true", 2, 6),
    ("[NaN]", "unexpected character 'N'", 1, 2),
    ("[\"\\ud83d\"]", "unpaired surrogate \\ud83d", 1, 9),
  ])
  func refusesMalformedDocumentsWithTheirPlace(text: String, message: String, line: Int, column: Int) {
    #expect(throws: JSONParseError.self) { try parse(text) }
    do {
      _ = try parse(text)
    } catch {
      #expect(error.message == message)
      #expect(error.line == line)
      #expect(error.column == column)
    }
  }

  @Test func refusesDeepNesting() {
    #expect(throws: JSONParseError.self) { try parse(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)) }
  }

  @Test(arguments: [
    ("1.0556", "1.0556"), ("1e-5", "0.00001"), ("2.5E+3", "2500"), ("-3e2", "-300"), ("120.65", "120.65"),
    ("12345678901234567.89", "12345678901234567.89"), ("1.5e0", "1.5"),
  ])
  func exactDecimalFromJSONNumber(text: String, expected: String) throws {
    let value = try #require(ExactDecimal(jsonNumber: text))
    #expect(value.description == expected)
  }

  @Test(arguments: ["1e999", "abc", "1e", "--1", "1e-80"])
  func jsonNumbersThatDoNotFit(text: String) {
    #expect(ExactDecimal(jsonNumber: text) == nil)
  }
}
