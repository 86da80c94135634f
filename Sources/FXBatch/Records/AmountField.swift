/// One amount of `--amount-field A,B,C`: the path of its field and the NAME of its converted column
/// (`fx_converted_NAME`).
public struct AmountField: Sendable, Equatable {
  /// The NAME of its converted column: given as `NAME=PATH`, else the path's last step (``localName(of:)``).
  public var name: String
  /// The field's path as each format reads `--amount-field` (a JSON `a.b`, an XML `A/B` or `@attr`, a CSV or sheet
  /// column name).
  public var path: String

  public init(name: String, path: String) {
    self.name = name
    self.path = path
  }

  /// An amount named by its path's last step.
  public init(path: String) { self.init(name: Self.localName(of: path), path: path) }

  /// The last step of a path, as its NAME: the text after the last `.` (not `\.`) or `/`, without a leading `@`
  /// and a namespace prefix (`total_price_set.shop_money.amount` → `amount`, `LegalMonetaryTotal/cbc:PayableAmount`
  /// → `PayableAmount`, `Amt/@Ccy` → `Ccy`, `Gross` → `Gross`); `\.` and `\\` read as a dot and a backslash.
  public static func localName(of path: String) -> String {
    var step = ""
    var characters = path.makeIterator()
    while let character = characters.next() {
      switch character {
      case "\\":
        guard let next = characters.next() else {
          step.append(character)
          continue
        }
        if next != "." && next != "\\" { step.append(character) }
        step.append(next)
      case ".", "/": step = ""
      default: step.append(character)
      }
    }
    if step.hasPrefix("@") { step.removeFirst() }
    if let colon = step.lastIndex(of: ":"), colon != step.startIndex, step.index(after: colon) != step.endIndex {
      step = String(step[step.index(after: colon)...])
    }
    return step
  }

  /// The amounts of an `--amount-field` value: elements separated by `,` (`\,` is a comma inside a name), each
  /// `PATH` or `NAME=PATH` (`\=` is an equals sign inside a name). Other backslashes are kept for the path (`\.`
  /// is a dot inside a JSON member name).
  ///
  /// White space around an element, its NAME and its PATH is not part of them: `Gross, Fee, Net`, as a list is
  /// often typed, is `Gross,Fee,Net` (a NAME ` Fee` would make the column `fx_converted_ Fee`).
  ///
  /// - Throws: ``AmountFieldError`` for an empty element, NAME or PATH, and for two amounts of one NAME.
  public static func parse(_ text: String) throws(AmountFieldError) -> [AmountField] {
    var fields: [AmountField] = []
    var name: String? = nil
    var current = ""
    func trimmed(_ text: String) -> String {
      var part = Substring(text)
      while part.first?.isWhitespace == true { part.removeFirst() }
      while part.last?.isWhitespace == true { part.removeLast() }
      return String(part)
    }
    func finish() throws(AmountFieldError) {
      let path = trimmed(current)
      let given = name.map(trimmed)
      if let given, given.isEmpty { throw .emptyName(element: "=" + path) }
      guard !path.isEmpty else {
        throw given.map { AmountFieldError.emptyPath(element: $0 + "=") } ?? .emptyElement(text)
      }
      fields.append(given.map { AmountField(name: $0, path: path) } ?? AmountField(path: path))
      name = nil
      current = ""
    }
    var characters = text.makeIterator()
    while let character = characters.next() {
      switch character {
      case "\\":
        guard let next = characters.next() else {
          current.append(character)
          continue
        }
        if next != "," && next != "=" { current.append(character) }
        current.append(next)
      case ",": try finish()
      case "=" where name == nil:
        name = current
        current = ""
      default: current.append(character)
      }
    }
    try finish()
    try checkNames(fields)
    return fields
  }

  /// Refuses two amounts of one NAME: their converted columns would have one name.
  public static func checkNames(_ fields: [AmountField]) throws(AmountFieldError) {
    guard fields.count > 1 else { return }
    // By a dictionary, not by comparing each with those before it: 10,000 amounts stay linear.
    var paths: [String: String] = [:]
    for field in fields {
      if let other = paths.updateValue(field.path, forKey: field.name) {
        if other == field.path { throw .samePath(field.path) }
        throw .sameName(field.name, paths: [other, field.path])
      }
    }
  }
}

/// Why an `--amount-field` value names no amounts fxbatch can convert.
public enum AmountFieldError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An element is empty (`A,,B`, a trailing comma).
  case emptyElement(String)
  /// `=PATH`: no NAME before `=`.
  case emptyName(element: String)
  /// `NAME=`: no path after `=`.
  case emptyPath(element: String)
  /// Two amounts have one NAME (`total_price_set.shop_money.amount` and `total_tax_set.shop_money.amount`).
  case sameName(String, paths: [String])
  /// One field twice (`Gross,Fee,Gross`): it would be converted twice under one NAME.
  case samePath(String)

  public var description: String {
    switch self {
    case .emptyElement(let text):
      return
        "--amount-field \(RowError.quoted(text)): an empty amount; separate amounts with single commas (\\, for a comma in a name)"
    case .emptyName(let element):
      return "--amount-field: \(RowError.quoted(element)) has no NAME before =; write NAME=PATH"
    case .emptyPath(let element):
      return "--amount-field: \(RowError.quoted(element)) has no path after =; write NAME=PATH"
    case .samePath(let path):
      return "--amount-field: \(RowError.quoted(path)) is given twice; name each amount once"
    case .sameName(let name, let paths):
      let suggestion = paths.enumerated().map { "NAME\($0.offset + 1)=\($0.element)" }.joined(separator: ",")
      return
        "--amount-field: two amounts are named \(RowError.quoted(name)) (\(paths.map(RowError.quoted).joined(separator: " and "))),"
        + " so their fx_converted_\(name) columns would clash; name each with NAME=PATH: --amount-field \(suggestion)"
    }
  }
}
