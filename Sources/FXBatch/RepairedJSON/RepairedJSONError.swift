/// Why a repaired-JSON body could not be parsed, with the place: byte offset (0-based), line and column
/// (1-based; the column counts bytes).
public struct RepairedJSONError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Equatable, Sendable {
    /// The body ends before the value is complete.
    case unexpectedEnd
    /// A byte that cannot start or continue anything here.
    case unexpectedCharacter(UInt8)
    /// A bare word in value position other than `true`, `false` or `null`.
    case unknownWord(String)
    /// A member name is neither quoted nor made of identifier characters.
    case expectedMemberName
    /// A member name is not followed by `:`.
    case expectedColon
    /// A value is followed by something other than `,` or the closing character (`nil`: the end of the body,
    /// for a brace-less top-level object).
    case expectedCommaOrClosing(Character?)
    /// A comma with no element before it (`{a:1,,}`, `[,1]`).
    case emptyElement
    /// A string has no closing quote on its line (the offset is its opening quote).
    case unterminatedString
    /// A backslash followed by a character that is not one of the escapes of the grammar.
    case unknownEscape(UInt8)
    /// `\u` or `\x` not followed by four or two hex digits (the offset is the backslash).
    case invalidHexEscape
    /// A `\u` escape of half a surrogate pair without its other half.
    case unpairedSurrogate
    /// A number that does not follow the JSON number grammar.
    case invalidNumber
    /// Objects and arrays nested deeper than ``RepairedJSON/maximumDepth``.
    case nestingTooDeep
    /// Text after the top-level value.
    case textAfterValue
  }

  public let reason: Reason
  /// Bytes before the problem (0-based).
  public let offset: Int
  /// 1-based line (lines end at line feeds).
  public let line: Int
  /// 1-based column, in bytes.
  public let column: Int

  public init(_ reason: Reason, offset: Int, line: Int, column: Int) {
    self.reason = reason
    self.offset = offset
    self.line = line
    self.column = column
  }

  /// The problem in one line, without the place.
  public var message: String {
    switch reason {
    case .unexpectedEnd: return "unexpected end of the body"
    case .unexpectedCharacter(let byte): return "unexpected \(Self.describe(byte))"
    case .unknownWord(let word): return "unknown word '\(word)' (expected a value: true, false, null, a string or a number)"
    case .expectedMemberName: return "expected a member name"
    case .expectedColon: return "expected ':' after a member name"
    case .expectedCommaOrClosing(let closing?): return "expected ',' or '\(closing)'"
    case .expectedCommaOrClosing(nil): return "expected ',' or the end of the body"
    case .emptyElement: return "empty element (a comma with nothing before it)"
    case .unterminatedString: return "string is not closed on its line"
    case .unknownEscape(let byte): return "unknown escape \\ followed by \(Self.describe(byte))"
    case .invalidHexEscape: return "\\u needs four hex digits, \\x two"
    case .unpairedSurrogate: return "\\u escape of half a surrogate pair"
    case .invalidNumber: return "invalid number"
    case .nestingTooDeep: return "nesting deeper than \(RepairedJSON.maximumDepth) levels"
    case .textAfterValue: return "unexpected text after the value"
    }
  }

  /// `line L, column C (byte O): message`.
  public var description: String { "line \(line), column \(column) (byte \(offset)): \(message)" }

  private static func describe(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "'\(Character(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }
}
