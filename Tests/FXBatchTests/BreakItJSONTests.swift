import FXBatchTestSupport
import Foundation
import Testing

/// Hostile tests of issue 31's JSON paths, money objects, minor units and unix dates, run through the built
/// `fxbatch` binary: each test is a defect found by trying to break the feature.
@Suite("break it: JSON paths, minor units, unix dates")
struct BreakItJSONTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// Runs `fxbatch convert --rates rates.csv OPTIONS NAME -o out` on `text` written as NAME.
  func convert(_ name: String, _ text: String, _ options: [String]) throws -> CLIRunner.Result {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", "date,base,quote,rate\n2024-03-01,EUR,USD,1.08\n")
    try directory.write(name, text)
    return try cli.run(["convert", "--rates", "rates.csv"] + options + [name, "-o", "out"], in: directory.url)
  }

  /// A one-step `--amount-field` no record has was refused with "no record has an amount field …; use
  /// --amount-field NAME" — telling the user to give the option they gave. It names the option, as a path does.
  @Test(arguments: [
    (
      "orders.jsonl", "{\"sum\":\"1\",\"from\":\"USD\",\"date\":\"2024-03-01\"}\n",
      "orders.jsonl:1:1: error: --amount-field \"total\": no record has such a field (the first record's members:"
        + " \"sum\", \"from\", \"date\")"
    ),
    (
      "orders.json", "[{\"sum\":\"1\",\"from\":\"USD\",\"date\":\"2024-03-01\"}]",
      "orders.json:1:2: error: --amount-field \"total\": no record has such a field (the first record's members:"
        + " \"sum\", \"from\", \"date\")"
    ),
    (
      "orders.xml", "<r><o><sum>1</sum><from>USD</from><date>2024-03-01</date></o></r>\n",
      "orders.xml:1:1: error: --amount-field \"total\": no record has such a field (the first record's fields:"
        + " \"sum\", \"from\", \"date\")"
    ),
  ])
  func aGivenNameNoRecordHasNamesTheOption(name: String, text: String, message: String) throws {
    let result = try convert(name, text, ["--to", "EUR", "--amount-field", "total"])
    #expect(result.status == 2)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(!result.standardError.contains("use --amount-field NAME"))
  }
}
