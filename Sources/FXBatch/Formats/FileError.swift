/// A whole input file that could not be converted (no output is written for it), located like a compiler
/// diagnostic.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
  public let path: String
  public let line: Int
  public let column: Int
  public let message: String
  /// A suggestion of what to do, when one is known.
  public let hint: String?

  public init(path: String, line: Int = 1, column: Int = 1, message: String, hint: String? = nil) {
    self.path = path
    self.line = line
    self.column = column
    self.message = message
    self.hint = hint
  }

  /// A file that is already an fxbatch output: converting it again would repeat its annotation.
  ///
  /// - Parameters:
  ///   - evidence: what shows it, e.g. "its header has the fx_* fields".
  ///   - annotation: what would be repeated ("them", "it").
  static func alreadyAnnotated(path: String, line: Int, column: Int, evidence: String, annotation: String = "them")
    -> FileError
  {
    FileError(
      path: path, line: line, column: column,
      message: "the file is already annotated by fxbatch (\(evidence)); converting it again would repeat \(annotation)",
      hint: "convert the original file instead")
  }

  /// A file none of whose records has a field the conversion needs, located at its first record.
  ///
  /// - Parameters:
  ///   - role: the missing role (never the date, which may be absent).
  ///   - names: the first record's field names, as the format writes them.
  ///   - nameKind: what the format calls them ("members", "fields").
  ///   - given: the name the role's option gave (`--amount-field NAME`), which the message names instead of
  ///     telling the user to give one.
  static func missingField(
    _ role: FieldMapping.Role, path: String, line: Int, column: Int, names: [String], nameKind: String,
    given: String? = nil
  ) -> FileError {
    let shown = names.prefix(12).map(RowError.quoted).joined(separator: ", ") + (names.count > 12 ? ", …" : "")
    if let given {
      return FileError(
        path: path, line: line, column: column,
        message:
          "\(role.optionName) \(RowError.quoted(given)): no record has such a field (the first record's \(nameKind):"
          + " \(shown))",
        hint: separatorHint(given, nameKind: nameKind))
    }
    let fix = role == .amount ? "use --amount-field NAME" : "use \(role.optionName) NAME or --\(role.rawValue) CODE"
    return FileError(
      path: path, line: line, column: column,
      message: "no record has \(role.aField) (the first record's \(nameKind): \(shown)); \(fix)")
  }

  /// The hint for a field name no record has that is a path written with the other format's separator: JSON
  /// paths join member names with `.` (`total_price_set/shop_money`), XML paths element names with `/`
  /// (`BookgDt.Dt`); `nil` for any other name.
  static func separatorHint(_ given: String, nameKind: String) -> String? {
    switch nameKind {
    case "members" where given.contains("/") && !given.contains("."):
      let path = given.split(separator: "/", omittingEmptySubsequences: false).joined(separator: ".")
      return "a JSON field path joins member names with \".\", not \"/\": write \(path)"
    case "fields" where given.contains(".") && !given.contains("/") && !given.hasPrefix("@"):
      let path = given.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "/")
      return "an XML field path joins element names with \"/\", not \".\": write \(path)"
    default:
      return nil
    }
  }

  /// A file whose first record's amount carries its own currency (a JSON money object, an XML amount element's
  /// currency attribute) under `--from` without `--override-currency-fields`: that currency is a from-currency
  /// field the option would pass over, refused as ``unreadField(names:located:options:path:line:column:nameKind:samples:)``
  /// refuses a currency field.
  ///
  /// - Parameters:
  ///   - name: the currency's field name (`amount.currency`, `Amt/@Ccy`).
  ///   - carrier: what carries it, e.g. "the amount is a money object".
  ///   - code: the `--from` code.
  static func overriddenAmountCurrency(
    name: String, carrier: String, code: CurrencyCode, path: String, line: Int, column: Int
  ) -> FileError {
    FileError(
      path: path, line: line, column: column,
      message: "the file has a from-currency field \(RowError.quoted(name)) (\(carrier)); --from \(code) would override it",
      hint:
        "remove --from to read each record's currency from \(RowError.quoted(name)), or add"
        + " --override-currency-fields to convert every record from \(code) anyway")
  }

  /// `path:line:column: error: message`, then the hint on its own line; `path: error: message` at line 0, which
  /// is no line of the file (the header `--header` gives).
  public var description: String {
    (line < 1 ? "\(path): error: \(message)" : "\(path):\(line):\(column): error: \(message)")
      + (hint.map { "\n  hint: \($0)" } ?? "")
  }
}
