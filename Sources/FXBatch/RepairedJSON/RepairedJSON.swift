/// A parser for "repaired JSON": the lenient, JavaScript-flavoured object notation of Google's retired
/// calculator endpoint, `{lhs: "10 U.S. dollars",rhs: "536.912752 Indian rupees",error: "",icc: true}`, and of
/// the services and mocks that still mimic it.
///
/// It is a scanner over bytes, not a string-replacement repair, so a comma or a colon inside a quoted value is
/// just text. The grammar, a superset of JSON (RFC 8259) and a subset of JSON5:
/// - values: objects, arrays, strings, numbers, `true`, `false`, `null`;
/// - member names bare (ASCII letters, digits, `_`, `$`) or quoted;
/// - strings in double or single quotes, on one line; escapes `\" \' \\ \/ \b \f \n \r \t`, `\uXXXX` (a
///   surrogate pair makes one character) and `\xHH` (the character U+00HH, so `\xa0` is a no-break space and
///   `\x3c` is `<`); any other escape is an error;
/// - numbers as in JSON, kept as their exact text (read them with ``ExactDecimal/init(jsonNumber:)``);
/// - a trailing comma before `}` or `]` (`{a:1,}`, `[1,]`), but never an empty element (`{a:1,,}`, `[1,,2]`);
/// - a top-level object without braces (`lhs: "…", rhs: "…"`);
/// - whitespace: space, tab, line feed, carriage return; a UTF-8 byte order mark at the start is skipped.
///
/// Encoding is decided per string: a string whose raw bytes are valid UTF-8 is read as UTF-8, any other
/// string (such as one holding a lone 0xA0 byte, a Latin-1 no-break space) is read entirely as Latin-1, byte
/// for character. Everything outside strings is ASCII.
///
/// It is strict where leniency would guess: an unknown escape, an unterminated string, a truncated body, an
/// unknown bare word (`undefined`) or anything after the value throws a ``RepairedJSONError`` with the byte
/// offset, line and column, never a partial result. Nesting deeper than ``maximumDepth`` levels is refused.
public enum RepairedJSON {
  /// The deepest nesting of objects and arrays accepted.
  public static let maximumDepth = 512

  /// Parses a whole body.
  ///
  /// - Parameter bytes: the body, UTF-8 or Latin-1 (see the type's documentation).
  /// - Returns: the top-level value; a brace-less top-level object is returned as an ``JSONValue/object(_:)``.
  ///   Member order and duplicate names are kept, numbers are their exact text.
  /// - Throws: ``RepairedJSONError`` for the first place the body does not follow the grammar.
  public static func parse(_ bytes: [UInt8]) throws(RepairedJSONError) -> JSONValue {
    var scanner = RepairedJSONScanner(bytes: bytes)
    return try scanner.parseDocument()
  }
}
