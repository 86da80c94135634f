/// A field name given for JSON records (`--amount-field` and so on), read as a path: member names joined by
/// `.` (`total_price_set.shop_money.amount`), from the record object down.
///
/// Inside a name, `\.` is a dot that does not separate steps and `\\` a backslash (`--amount-field 'a\.b'` names
/// the member `a.b`); a backslash before any other character is itself. A name of one step is matched as today:
/// ignoring case, spaces, `_`, `-` and `.` (``FieldMapping/locate(in:names:roles:normalize:exact:reserved:)``).
/// The steps of a longer path are compared exactly, as written in the document (escapes decoded). A record that
/// has a member named exactly like the whole path (`"a.b"`, as flattened exports write) and no member named
/// like its first step reads that member; a record that has both is `invalid_record` (``JSONFieldLocator``).
struct JSONFieldPath: Sendable, Equatable {
  /// The name as the user wrote it (for messages and the summary).
  let written: String
  /// The member names, escapes decoded; one step for a plain name.
  let steps: [String]
  /// The steps' UTF-8 bytes (the fast path compares member names with them).
  let stepBytes: [[UInt8]]

  init(_ written: String) {
    self.written = written
    var steps: [String] = []
    var step = ""
    var characters = written.makeIterator()
    while let character = characters.next() {
      switch character {
      case "\\":
        guard let next = characters.next() else {
          step.append(character)
          continue
        }
        if next == "." || next == "\\" {
          step.append(next)
        } else {
          step.append(character)
          step.append(next)
        }
      case ".":
        steps.append(step)
        step = ""
      default: step.append(character)
      }
    }
    steps.append(step)
    self.steps = steps
    stepBytes = steps.map { Array($0.utf8) }
  }

  /// Whether the name is a path of more than one step.
  var isPath: Bool { steps.count > 1 }

  /// The whole name as one member name (`a.b` for `a.b` and for `a\.b`).
  var wholeName: String { steps.joined(separator: ".") }

  /// The steps up to `count`, joined for a message (`total_price_set.shop_money`).
  func prefix(_ count: Int) -> String { steps.prefix(count).map(Self.escaped).joined(separator: ".") }

  /// A member name written as one step: `\` and `.` escaped (`a\.b` for `a.b`).
  static func escaped(_ name: String) -> String {
    name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ".", with: "\\.")
  }
}

/// The member names that make an object a money object (`{"value": "12.50", "currency": "EUR"}`): an amount
/// path (or an amount member) that ends at an object with exactly one of ``amountNames`` and exactly one of
/// ``currencyNames`` gives both the amount and, unless `--from` or `--from-field` is given, the from-currency.
/// Names are compared exactly.
enum JSONMoneyObject {
  /// The members that hold the amount (PayPal and Adyen `value`, Shopify `amount`).
  static let amountNames = ["value", "amount"]
  /// The members that hold its ISO 4217 code (PayPal `currency_code`, Adyen `currency`, Shopify `currency_code`,
  /// Google `currencyCode`).
  static let currencyNames = ["currency", "currency_code", "currencyCode"]
  static let amountNameBytes = amountNames.map { Array($0.utf8) }
  static let currencyNameBytes = currencyNames.map { Array($0.utf8) }

  /// The message of an object that is not a money object.
  static func notMoney(at path: String, amountNamesFound: [String], currencyNamesFound: [String]) -> String {
    let table =
      "a money object has one member \"value\" or \"amount\" and one member \"currency\", \"currency_code\" or"
      + " \"currencyCode\""
    let what: String
    if amountNamesFound.count > 1 {
      what = "has both \(amountNamesFound.map(RowError.quoted).joined(separator: " and "))"
    } else if currencyNamesFound.count > 1 {
      what = "has both \(currencyNamesFound.map(RowError.quoted).joined(separator: " and "))"
    } else if amountNamesFound.isEmpty && currencyNamesFound.isEmpty {
      what = "has neither an amount nor a currency member"
    } else if amountNamesFound.isEmpty {
      what = "has no amount member"
    } else {
      what = "has no currency member"
    }
    return "the amount \(RowError.quoted(path)) is an object that \(what); \(table)"
  }
}

/// The member names of a `--records-path` (`data.items`), split and unescaped as a field path's steps are
/// (``JSONFieldPath``): `\.` is a dot inside a name (`--records-path 'report\.rows'` is the member
/// `"report.rows"`), so both options read a name the same way.
public enum JSONRecordsPath {
  public static func memberNames(_ written: String) -> [String] { JSONFieldPath(written).steps }
}
