import Foundation
import Testing

@testable import FXBatch

/// The test target's fixture files (`Fixtures/`, copied into the test bundle).
enum Fixture {
  /// The URL of `Fixtures/<folder>/<name>` in the test bundle.
  static func url(_ folder: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(
      Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/\(folder)"),
      "fixture Fixtures/\(folder)/\(name) is not in the test bundle", sourceLocation: sourceLocation)
  }

  /// The file's path, for APIs that open files themselves.
  static func path(_ folder: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try url(folder, name, sourceLocation: sourceLocation).path
  }

  /// The file's bytes.
  static func bytes(_ folder: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url(folder, name, sourceLocation: sourceLocation)))
  }
}

/// A rate source description for tables built in tests.
let testSourceInfo = RateSourceInfo(identifier: "test", publisher: "TEST", description: "rates built by a test")

/// A currency code that must be valid.
func code(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> CurrencyCode {
  try #require(CurrencyCode(text), "\(text) is not a known ISO 4217 code", sourceLocation: sourceLocation)
}

/// A `YYYY-MM-DD` day that must be valid.
func day(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> CalendarDay {
  try #require(CalendarDay(iso8601: text), "\(text) is not a YYYY-MM-DD date", sourceLocation: sourceLocation)
}

/// A plain decimal that must parse.
func decimal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ExactDecimal {
  try #require(ExactDecimal(text), "\(text) is not a plain decimal", sourceLocation: sourceLocation)
}

/// A converted amount and the quote it used.
struct Conversion {
  let amount: ExactDecimal
  let quote: RateQuote
}

/// Converts an amount the way the batch job converts one record: the table's quote for the pair and day, then
/// one rounding to the target currency's ISO 4217 minor units.
func convert(
  _ amountText: String, _ base: String, to quoteCurrency: String, on dayText: String, with table: RateTable,
  maxStaleness: Int = 5, rounding: RoundingMode = .halfUp, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Result<Conversion, RowError> {
  let key = RateKey(
    base: try code(base, sourceLocation: sourceLocation), quote: try code(quoteCurrency, sourceLocation: sourceLocation),
    day: try day(dayText, sourceLocation: sourceLocation))
  switch table.quote(for: key, maxStaleness: maxStaleness) {
  case .failure(let error): return .failure(error)
  case .success(let quote):
    let minorUnits = try #require(ISO4217.currency(for: key.pair.quote), sourceLocation: sourceLocation).minorUnits
    let amount = try #require(
      quote.rate.convert(try decimal(amountText, sourceLocation: sourceLocation), minorUnits: minorUnits, rounding: rounding),
      "the conversion overflowed", sourceLocation: sourceLocation)
    return .success(Conversion(amount: amount, quote: quote))
  }
}

/// The bytes of a rates document parsed with one of the parsers that take a buffer.
func parseTable(
  _ bytes: [UInt8], path: String = "test",
  with parser: (UnsafeBufferPointer<UInt8>, String, RateSourceInfo) throws(RatesFileError) -> RateTable
) throws(RatesFileError) -> RateTable {
  try bytes.withUnsafeBufferPointer { buffer throws(RatesFileError) in try parser(buffer, path, testSourceInfo) }
}

/// The outside programs some tests check fxbatch's files with (LibreOffice, hledger, Python libraries), found
/// where `.ci/run` installs them; the tests that need one are skipped where it is absent.
enum TestTools {
  /// An executable named `name` on the `PATH`, if any.
  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// A Python that imports `module`, if any: `FXBATCH_TEST_PYTHON`, else the tests' virtual environment that
  /// `.ci/run` makes (`Tests/.venv`, gitignored).
  static func python(importing module: String) -> String? {
    let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [ProcessInfo.processInfo.environment["FXBATCH_TEST_PYTHON"], tests.path + "/.venv/bin/python3"]
    return candidates.compactMap { $0 }.first { path in
      guard FileManager.default.isExecutableFile(atPath: path) else { return false }
      return (try? run(path, ["-c", "import \(module)"]))?.status == 0
    }
  }

  /// Runs a program with these arguments; its status and standard output (standard error is dropped).
  static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
