import Foundation

/// Beancount (PyPI) and hledger (Debian), to check that the price files `rates export` writes load unchanged.
/// `.ci/run` installs both (Beancount in `Tests/.venv`); the tests that need them are skipped where they are absent.
enum LedgerTools {
  /// A Python that imports beancount, if any (``TestTools/python(importing:)``).
  static let beancountPython: String? = TestTools.python(importing: "beancount.loader")

  /// `hledger` on the `PATH`, if any.
  static let hledger: String? = TestTools.onPath("hledger")

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
