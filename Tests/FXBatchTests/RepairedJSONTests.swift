import Foundation
import Testing

@testable import FXBatch

@Suite("RepairedJSON: the calculator's lenient object notation")
struct RepairedJSONTests {
  func parse(_ text: String) throws(RepairedJSONError) -> JSONValue { try RepairedJSON.parse(Array(text.utf8)) }

  static let fixtureNames = [
    "google-calc-2m-feet-hex-escapes.txt", "google-calc-error-4.txt", "google-calc-gbp-usd-million-lhs-grouped.txt",
    "google-calc-usd-inr-100-separator.txt", "google-calc-usd-inr.txt", "google-calc-usd-ugx-billion.txt",
    "google-calc-usd-ugx-million.txt", "google-calc-usd-ugx-trillion.txt",
  ]

  @Test(arguments: fixtureNames)
  func parsesEveryFixtureBody(name: String) throws {
    let value = try RepairedJSON.parse(try Fixture.bytes("responses", name))
    guard case .object(let members) = value else {
      Issue.record("\(name) is not an object")
      return
    }
    #expect(members.map(\.key) == ["lhs", "rhs", "error", "icc"])
  }

  @Test func readsTheClassicAnswer() throws {
    let value = try RepairedJSON.parse(try Fixture.bytes("responses", "google-calc-usd-inr.txt"))
    #expect(
      value
        == .object([
          ("lhs", .string("1 U.S. dollar")), ("rhs", .string("54.836587 Indian rupees")), ("error", .string("")),
          ("icc", .bool(true)),
        ]))
  }

  @Test func decodesHexEscapesOfTheUnitConversionBody() throws {
    let value = try RepairedJSON.parse(try Fixture.bytes("responses", "google-calc-2m-feet-hex-escapes.txt"))
    #expect(value["rhs"] == .string("6.56167979 feet (6 feet 6<sup>47</sup>&#8260;<sub>64</sub> inches)"))
    #expect(value["icc"] == .bool(false))
  }

  @Test func keepsCommasAndColonsInsideQuotes() throws {
    let value = try parse(#"{lhs: "1,000: U.S. dollars",rhs: 'a:b,c}{',error: "",icc: true}"#)
    #expect(value["lhs"] == .string("1,000: U.S. dollars"))
    #expect(value["rhs"] == .string("a:b,c}{"))
  }

  @Test(arguments: [
    (#"{a:1,}"#, JSONValue.object([("a", .number("1"))])),
    (#"[1,]"#, .array([.number("1")])),
    (#"[]"#, .array([])),
    (#"{}"#, .object([])),
    (
      #"{ 'single' : 'it\'s' , "double":"say \"hi\"" }"#,
      .object([("single", .string("it's")), ("double", .string("say \"hi\""))])
    ),
    (#"lhs: "1 U.S. dollar", rhs: "2 euros""#, .object([("lhs", .string("1 U.S. dollar")), ("rhs", .string("2 euros"))])),
    ("lhs: 'x',\n", .object([("lhs", .string("x"))])),
    (#"{true: null, $x_1: false, 10: -1.5e3}"#, .object([("true", .null), ("$x_1", .bool(false)), ("10", .number("-1.5e3"))])),
    (#"{a: {b: [1, {c: []}]}}"#, .object([("a", .object([("b", .array([.number("1"), .object([("c", .array([]))])]))]))])),
    (#"{a: 1, a: 2}"#, .object([("a", .number("1")), ("a", .number("2"))])),
    (#""just a string""#, .string("just a string")),
    ("  true\n", .bool(true)),
    ("42", .number("42")),
    ("null", .null),
    (
      #"["\x3csup\x3e", "\x26#215;", "\xa0", "\u00e9\ud83d\ude00", "\/\b\f\n\r\t\\"]"#,
      .array([.string("<sup>"), .string("&#215;"), .string("\u{A0}"), .string("é😀"), .string("/\u{08}\u{0C}\n\r\t\\")])
    ),
  ])
  func acceptsTheLenientGrammar(text: String, expected: JSONValue) throws {
    #expect(try parse(text) == expected)
  }

  @Test func skipsAByteOrderMark() throws {
    #expect(try RepairedJSON.parse([0xEF, 0xBB, 0xBF] + Array("{a: 'b'}".utf8)) == .object([("a", .string("b"))]))
  }

  /// The encoding is decided per string: valid UTF-8 is UTF-8, anything else is Latin-1 byte for character.
  @Test func readsEachStringAsUTF8OrElseLatin1() throws {
    // `{a: "5<A0>483", b: "caf<C3 A9>", c: "x<E9>", d: "<C3 A9><A0>"}`
    let body: [UInt8] =
      Array(#"{a: "5"#.utf8) + [0xA0] + Array(#"483", b: "caf"#.utf8) + [0xC3, 0xA9] + Array(#"", c: "x"#.utf8) + [0xE9]
      + Array(#"", d: ""#.utf8) + [0xC3, 0xA9, 0xA0] + Array(#""}"#.utf8)
    let value = try RepairedJSON.parse(body)
    #expect(value["a"] == .string("5\u{A0}483"))  // a lone 0xA0: Latin-1 no-break space
    #expect(value["b"] == .string("café"))  // valid UTF-8
    #expect(value["c"] == .string("xé"))  // a lone 0xE9: Latin-1 é
    #expect(value["d"] == .string("Ã©\u{A0}"))  // not valid UTF-8 as a whole, so all of it is Latin-1
  }

  @Test(arguments: [
    // A truncated body: the string from offset 6 is never closed.
    ("{lhs: \"10 U.S", RepairedJSONError.Reason.unterminatedString, 6, 1, 7),
    ("{lhs: \"10\"", .unexpectedEnd, 10, 1, 11),
    ("{lhs: \"1\",", .unexpectedEnd, 10, 1, 11),
    ("[1, 2", .unexpectedEnd, 5, 1, 6),
    ("", .unexpectedEnd, 0, 1, 1),
    ("   \n  ", .unexpectedEnd, 6, 2, 3),
    // Escapes: the offset is the backslash.
    ("{lhs: \"a\\qb\"}", .unknownEscape(UInt8(ascii: "q")), 8, 1, 9),
    ("{lhs: \"1\",\n rhs: 'x\\u12'}", .invalidHexEscape, 19, 2, 9),
    ("{lhs: \"\\x4\"}", .invalidHexEscape, 7, 1, 8),
    ("[\"\\ud83d\"]", .unpairedSurrogate, 2, 1, 3),
    ("[\"\\ude00\"]", .unpairedSurrogate, 2, 1, 3),
    ("[\"a\\\nb\"]", .unknownEscape(0x0A), 3, 1, 4),
    // A string ends on its line.
    ("{lhs: \"line\nbreak\"}", .unterminatedString, 6, 1, 7),
    // Empty elements.
    ("{lhs: \"1\",,}", .emptyElement, 10, 1, 11),
    ("[1,,2]", .emptyElement, 3, 1, 4),
    ("{,}", .emptyElement, 1, 1, 2),
    ("lhs: \"1\",,", .emptyElement, 9, 1, 10),
    // Structure.
    ("{lhs: \"1\"} x", .textAfterValue, 11, 1, 12),
    ("{lhs: \"1\"}}", .textAfterValue, 10, 1, 11),
    ("{lhs \"1\"}", .expectedColon, 5, 1, 6),
    ("{lhs: \"1\" rhs: \"2\"}", .expectedCommaOrClosing("}"), 10, 1, 11),
    ("lhs: \"1\" rhs: \"2\"", .expectedCommaOrClosing(nil), 9, 1, 10),
    ("[1 2]", .expectedCommaOrClosing("]"), 3, 1, 4),
    ("{: \"1\"}", .expectedMemberName, 1, 1, 2),
    ("{icc: undefined}", .unknownWord("undefined"), 6, 1, 7),
    ("{icc: True}", .unknownWord("True"), 6, 1, 7),
    ("[01]", .invalidNumber, 1, 1, 2),
    ("{lhs: -}", .invalidNumber, 7, 1, 8),
    ("[1.]", .invalidNumber, 3, 1, 4),
    // Binary noise.
    ("\u{0}\u{7F}\u{10}", .unexpectedCharacter(0x00), 0, 1, 1),
    ("{a: \u{1B}}", .unexpectedCharacter(0x1B), 4, 1, 5),
  ])
  func refusesMalformedBodiesWithTheirPlace(
    text: String, reason: RepairedJSONError.Reason, offset: Int, line: Int, column: Int
  ) {
    #expect(throws: RepairedJSONError(reason, offset: offset, line: line, column: column)) { try parse(text) }
  }

  @Test func refusesANonASCIIByteOutsideStrings() {
    #expect(throws: RepairedJSONError(.unexpectedCharacter(0xA0), offset: 4, line: 1, column: 5)) {
      try RepairedJSON.parse(Array("{a: ".utf8) + [0xA0, 0x7D])
    }
  }

  @Test func describesTheErrorWithItsPlace() {
    let error = RepairedJSONError(.unknownEscape(UInt8(ascii: "q")), offset: 8, line: 1, column: 9)
    #expect(error.description == "line 1, column 9 (byte 8): unknown escape \\ followed by 'q'")
  }

  @Test func limitsNesting() throws {
    let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(throws: Never.self) { try parse(deepest) }
    let tooDeep = String(repeating: "{a:", count: 513) + "1" + String(repeating: "}", count: 513)
    // The 513th '{' is at offset 512 × 3.
    #expect(throws: RepairedJSONError(.nestingTooDeep, offset: 1536, line: 1, column: 1537)) { try parse(tooDeep) }
  }
}
