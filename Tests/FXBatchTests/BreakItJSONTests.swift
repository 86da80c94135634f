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
    try convertWithOutput(name, text, options).result
  }

  /// ``convert(_:_:_:)``, and the output's lines.
  func convertWithOutput(_ name: String, _ text: String, _ options: [String]) throws -> (
    result: CLIRunner.Result, lines: [String]
  ) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", "date,base,quote,rate\n2024-03-01,EUR,USD,1.08\n2024-03-01,EUR,GBP,0.85\n")
    try directory.write(name, text)
    let result = try cli.run(["convert", "--rates", "rates.csv"] + options + [name, "-o", "out"], in: directory.url)
    let output = (try? String(contentsOf: directory.url.appendingPathComponent("out"), encoding: .utf8)) ?? ""
    return (result, output.components(separatedBy: "\n"))
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

  /// A record with a from-currency member found by its name ("currency": "GBP") and a money-object amount in
  /// another currency ({"value": "10", "currency": "USD"}) converted from USD, passing over GBP in silence
  /// (while the same member gave the from-currency of the file's other records). Two currencies that disagree
  /// are the record's `invalid_record` error, as an XML money element's are; ones that agree convert.
  //  1: GBP vs USD → invalid_record
  //  2: "usd" vs USD agree → 10 / 1.08 = 9.259… → 9.26
  //  3: a plain amount in GBP → 10 / 0.85 = 11.764… → 11.76
  @Test func aMoneyObjectAndACurrencyMemberThatDisagreeAreAnError() throws {
    let text = """
      {"date":"2024-03-01","to":"EUR","currency":"GBP","amount":{"value":"10","currency":"USD"}}
      {"date":"2024-03-01","to":"EUR","currency":"usd","amount":{"value":"10","currency":"USD"}}
      {"date":"2024-03-01","to":"EUR","currency":"GBP","amount":"10"}

      """
    let (result, lines) = try convertWithOutput("mixed.jsonl", text, [])
    #expect(result.status == 1)
    #expect(lines.count == 4)
    guard lines.count == 4 else { return }
    #expect(
      lines[0].hasSuffix(
        "\"fx_status\":\"error\",\"fx_error\":\"invalid_record: the currency member of the amount says \\\"USD\\\" and"
          + " the record's from-currency field \\\"GBP\\\"; give --from-field to choose one\"}"), "\(lines[0])")
    #expect(lines[1].contains("\"fx_converted\":\"9.26\""), "\(lines[1])")
    #expect(lines[2].contains("\"fx_converted\":\"11.76\""), "\(lines[2])")
  }

  /// `--records-path` split on every `.`, so a records array under a member whose name holds a dot could not be
  /// named (`no member "a\"`) while `\.` worked in field paths. It reads `\.` as the field paths do; the
  /// unescaped path still goes into nested members.
  //  "a.b": 5 USD → 5 / 1.08 = 4.629… → 4.63; a → b: 7 USD → 6.481… → 6.48
  @Test(arguments: [("a\\.b", "4.63"), ("a.b", "6.48")])
  func aRecordsPathReadsEscapedDots(path: String, converted: String) throws {
    let text =
      "{\"a.b\":[{\"date\":\"2024-03-01\",\"amount\":\"5\",\"currency\":\"USD\"}],"
      + "\"a\":{\"b\":[{\"date\":\"2024-03-01\",\"amount\":\"7\",\"currency\":\"USD\"}]}}"
    let (result, lines) = try convertWithOutput("doc.json", text, ["--to", "EUR", "--records-path", path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(lines.joined().contains("\"fx_converted\":\"\(converted)\""), "\(lines)")
    #expect(lines.joined().components(separatedBy: "fx_converted").count == 2)
  }
}
