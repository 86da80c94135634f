import Foundation

/// Beancount (PyPI) and hledger (Debian), to check that the price files `rates export` writes load unchanged.
/// `.ci/run` installs both (Beancount in `Tests/.venv`); the tests that need them are skipped where they are absent.
enum LedgerTools {
  /// A Python that imports beancount, if any (`FXBATCH_TEST_PYTHON`, else `Tests/.venv/bin/python3`).
  static let beancountPython: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [ProcessInfo.processInfo.environment["FXBATCH_TEST_PYTHON"], root.path + "/.venv/bin/python3"]
    return candidates.compactMap { $0 }.first { path in
      guard FileManager.default.isExecutableFile(atPath: path) else { return false }
      return (try? run(path, ["-c", "import beancount.loader"]))?.status == 0
    }
  }()

  /// `hledger` on the `PATH`, if any.
  static let hledger: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/hledger" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// Runs a program; its status and standard output (``OpenPyXL/run(python:_:)`` runs any executable).
  static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    try OpenPyXL.run(python: executable, arguments)
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
    let result = try run(python, ["-c", script, path])
    if result.status != 0 { return .failure(BeancountErrors(text: result.output)) }
    return .success(result.output.split(separator: "\n").map(String.init))
  }

  struct BeancountErrors: Error {
    let text: String
  }
}
