import Foundation

/// Beancount (PyPI), hledger and Ledger (Debian), to check that the price files `rates export` writes load
/// unchanged. `.ci/run` installs them (Beancount in `Tests/.venv`); the tests that need one are skipped where it
/// is absent.
enum LedgerTools {
  /// A Python that imports beancount, if any (``TestTools/python(importing:)``).
  static let beancountPython: String? = TestTools.python(importing: "beancount.loader")

  /// `hledger` on the `PATH`, if any.
  static let hledger: String? = TestTools.onPath("hledger")

  /// `ledger` (Ledger 3) on the `PATH`, if any.
  static let ledger: String? = TestTools.onPath("ledger")

  /// The price lines hledger (`prices`) or Ledger (`pricedb`) print, as `P DATE BASE NUMBER QUOTE`: each tool
  /// writes the price's amount in its commodity's declared style (`EUR JPY 162.53` under `format JPY 1000.`),
  /// Ledger with `/` in the date, a time, and zeros up to the commodity's decimals (`382.10 HUF` for a price
  /// written `382.1`), so numbers are compared without trailing zeros (``number(_:)``).
  static func priceLines(_ output: String) -> [String] {
    output.split(separator: "\n").compactMap { line in
      var words = line.split(separator: " ").map(String.init)
      guard words.first == "P", words.count >= 5 else { return nil }
      if words[2].contains(":") { words.remove(at: 2) }
      guard words.count == 5 else { return nil }
      let date = words[1].replacingOccurrences(of: "/", with: "-")
      let numberFirst = words[3].first?.isNumber == true
      return "P \(date) \(words[2]) \(number(numberFirst ? words[3] : words[4])) \(numberFirst ? words[4] : words[3])"
    }
  }

  /// A decimal number's text without trailing zeros after its point (`382.10` → `382.1`, `150.` → `150`).
  static func number(_ text: String) -> String {
    guard text.contains(".") else { return text }
    var trimmed = Substring(text)
    while trimmed.hasSuffix("0") { trimmed = trimmed.dropLast() }
    if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }

  /// The price entries Beancount loads from a file, one line each, `DATE BASE NUMBER QUOTE PERIOD` (`-` for none),
  /// after the loader's own checks (what `bean-check` runs); a failure with the errors when it reports any.
  static func beancountPrices(_ path: String) throws -> Result<[String], BeancountErrors> {
    guard let python = beancountPython else { return .failure(BeancountErrors(text: "no beancount")) }
    let script = """
      import sys
      from beancount import loader
      from beancount.core import data
      entries, errors, _ = loader.load_file(sys.argv[1])
      for error in errors:
          print("ERROR", error.message)
      for entry in entries:
          if isinstance(entry, data.Price):
              print(entry.date, entry.currency, entry.amount.number, entry.amount.currency, entry.meta.get("period", "-"))
      sys.exit(1 if errors else 0)
      """
    let result = try TestTools.run(python, ["-c", script, path])
    if result.status != 0 { return .failure(BeancountErrors(text: result.output)) }
    return .success(result.output.split(separator: "\n").map(String.init))
  }

  struct BeancountErrors: Error {
    let text: String
  }
}
