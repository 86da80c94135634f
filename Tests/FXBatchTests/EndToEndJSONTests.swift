import FXBatchTestSupport
import Foundation
import Testing

/// Runs the built `fxbatch` binary on JSON documents and JSON Lines files and compares the annotated copies
/// with golden files in `Fixtures/json/`, whose values were computed by hand (see the comments) from the ECB
/// history.
@Suite("fxbatch end to end: JSON and JSON Lines")
struct EndToEndJSONTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// A temporary directory holding copies of the named fixtures from `Fixtures/json/`.
  static func directory(with fixtures: [String]) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    for name in fixtures { try directory.write(try Fixture.bytes("json", name), named: name) }
    return directory
  }

  /// The bytes of a file in a directory.
  static func bytes(_ name: String, in directory: TemporaryDirectory) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: directory.url.appendingPathComponent(name)))
  }

  // records.converted.json, by hand from eurofxref-hist.csv (2017-03-08: EUR/USD 1.0556, EUR/GBP 0.86753):
  //  P-1: "12.50" EUR→USD = 12.50 × 1.0556 = 13.195 → 13.20 (half-up)
  //  P-2: 7 (a JSON number) EUR→GBP = 7 × 0.86753 = 6.07271 → 6.07
  //  P-3: null → missing_field, never 0
  // The pretty-printed layout, the nested "meta" object, `\u00e9`, `\"` and `1.50e2` are kept as written.
  @Test func convertsTheIssueExampleLikeTheGoldenFile() throws {
    let directory = try Self.directory(with: ["records.json"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "records.json"], in: directory.url)
    #expect(result.status == 1)
    #expect(try Self.bytes("records.converted.json", in: directory) == (try Fixture.bytes("json", "records.converted.json")))
    #expect(
      result.standardError.contains(
        "  records.json -> records.converted.json: 3 records: 2 ok, 0 fallback, 1 error (missing_field 1) [JSON]"))
    #expect(try directory.fileNames() == ["records.converted.json", "records.json"], "no temporary files left behind")
  }

  // big.converted.json: 12345678901234567.89 EUR→USD at 1.1234 (the rates file's EUR/USD on 2024-01-31)
  //   = 12345678901234567.89 + 12345678901234567.89 × 0.1234
  //   = 12345678901234567.89 + 1523456776412345.677626 = 13869135677646913.567626 → 13869135677646913.57.
  // Through Double the amount would already be 12345678901234568.
  @Test func numberBeyondDoublePrecisionIsKeptAndConvertedExactly() throws {
    let directory = try Self.directory(with: ["big.json", "rates-eur-usd-2024-01-31.csv"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--rates", "rates-eur-usd-2024-01-31.csv", "big.json"], in: directory.url)
    #expect(result.status == 0)
    #expect(try Self.bytes("big.converted.json", in: directory) == (try Fixture.bytes("json", "big.converted.json")))
  }

  // lines.converted.jsonl, by hand:
  //  line 1: 100 USD→EUR on 2020-01-01 (no publication) → 2019-12-31 EUR/USD 1.1234: 100 / 1.1234 = 89.0154… → 89.02,
  //          fallback; rate 1 / 1.1234 = 0.89015488695… → 0.890154887 (10 significant digits)
  //  line 2: 250.5 EUR→USD on Saturday 2020-01-04 → Friday 2020-01-03 EUR/USD 1.1147: 279.23235 → 279.23, fallback;
  //          its CRLF line end is kept
  //  line 3: blank, copied and not counted
  //  line 4: not JSON → invalid_record with its place; the rest of the file goes on
  //  line 5: "" → missing_field; line 6: "from" twice → invalid_record; line 7: no amount → missing_field, no line end
  @Test func jsonLinesWithABrokenLineConvertsTheRest() throws {
    let directory = try Self.directory(with: ["lines.jsonl"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "lines.jsonl"], in: directory.url)
    #expect(result.status == 1)
    #expect(try Self.bytes("lines.converted.jsonl", in: directory) == (try Fixture.bytes("json", "lines.converted.jsonl")))
    #expect(
      result.standardError.contains(
        "6 records: 0 ok, 2 fallback, 4 error (invalid_record 2, missing_field 2) [JSON Lines]"))
  }

  // nested.converted.json, by hand (2017-03-08: EUR/JPY 120.65, EUR/GBP 0.86753); the amounts prove a decimal comma:
  //  "1.234,50" EUR→JPY = 1234.50 × 120.65 = 148942.425 → 148942 (JPY has no minor units)
  //  "99,99" GBP→EUR = 99.99 / 0.86753 = 115.2582… → 115.26; rate 1 / 0.86753 = 1.15269788941… → 1.152697889
  @Test func recordsPathFindsTheArrayInsideTheDocument() throws {
    let directory = try Self.directory(with: ["nested.json"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--records-path", "data.items", "nested.json"], in: directory.url)
    #expect(result.status == 0)
    #expect(try Self.bytes("nested.converted.json", in: directory) == (try Fixture.bytes("json", "nested.converted.json")))
    #expect(result.standardError.contains("[JSON, records at data.items, decimal comma (inferred from the amounts)]"))
  }

  @Test(arguments: [
    (
      "bad.json", "[{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\"},\n {\"amount\":2 \"from\":\"EUR\"}]", [String](),
      "bad.json:2:15: error: expected ',' or '}' in an object"
    ),
    ("cut.json", "[{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\"},", [], "cut.json:1:39: error: unexpected end of the document"),
    ("object.json", "{\"data\":[]}", [], "object.json:1:1: error: the document is an object, not an array of records"),
    (
      "path.json", "{\"data\":{\"rows\":[]}}", ["--records-path", "data.items"],
      "path.json:1:19: error: no member \"data.items\" (--records-path)"
    ),
    (
      "twice.json", "{\"data\":[],\"data\":[]}", ["--records-path", "data"],
      "twice.json:1:12: error: the member \"data\" occurs twice; the records path is ambiguous"
    ),
    (
      "fields.json", "[{\"sum\":1,\"note\":\"x\"}]", [],
      "fields.json:1:2: error: no record has a to-currency field (the first record's members: \"sum\", \"note\")"
    ),
    // Issue 13: the message read "no record has a amount field".
    (
      "amount.json", "[{\"from\":\"EUR\",\"to\":\"USD\"}]", [],
      "amount.json:1:2: error: no record has an amount field (the first record's members: \"from\", \"to\");"
        + " use --amount-field NAME"
    ),
  ])
  func malformedDocumentIsAFileErrorWithNothingWritten(name: String, text: String, options: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(name, text)
    try directory.write("good.jsonl", "{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\"}\n")
    let result = try cli.run(["convert"] + options + [name, "good.jsonl"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    // The other file is still converted: 100 × 1.1193 (EUR/USD 2020-01-02) = 111.93.
    #expect(try directory.fileNames() == [name, "good.converted.jsonl", "good.jsonl"].sorted())
    #expect(try directory.read("good.converted.jsonl").contains(#""fx_converted":"111.93""#))
  }

  @Test func aRunMixesFormatsAndSkipsItsEarlierOutputs() throws {
    let directory = try Self.directory(with: ["records.json", "lines.jsonl"])
    defer { directory.remove() }
    try directory.write("plain.csv", "date,amount,from,to\n2020-01-02,100,EUR,USD\n")
    let first = try cli.run(["convert", "lines.jsonl", "plain.csv", "records.json"], in: directory.url)
    #expect(first.status == 1)
    #expect(first.standardError.hasPrefix("fxbatch: 3 files, 10 records: 3 ok, 2 fallback, 5 error"))
    let names = try directory.fileNames()
    let second = try cli.run(["convert"] + names, in: directory.url)
    #expect(second.standardError.contains("  records.converted.json: skipped, it is the output of records.json in this run"))
    #expect(second.standardError.contains("  lines.converted.jsonl: skipped, it is the output of lines.jsonl in this run"))
    #expect(try Self.bytes("records.converted.json", in: directory) == (try Fixture.bytes("json", "records.converted.json")))
  }

  @Test func formatOptionAndStandardInput() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("export.data", "{\"amount\":\"100\",\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\"}\n")
    let sniffed = try cli.run(["convert", "-o", "-", "export.data"], in: directory.url)
    #expect(
      sniffed.standardOutput.hasSuffix(
        #""fx_converted":"111.93","fx_currency":"USD","fx_rate_date":"2020-01-02","fx_source":"ecb-embedded EUR/USD=1.1193","fx_status":"ok","fx_error":""}"#
          + "\n"))
    let forced = try cli.run(["convert", "--format", "csv", "-o", "-", "export.data"], in: directory.url)
    #expect(forced.status == 2, "read as CSV, the object is a header without the fields")
    let piped = try cli.run(
      ["convert", "-q", "-"], in: directory.url,
      input: Data(#"[{"amount":"1","from":"EUR","to":"GBP","date":"2017-03-08"}]"#.utf8))
    // 1 × 0.86753 = 0.86753 → 0.87
    #expect(piped.standardOutput.contains(#""fx_converted":"0.87""#))
    let usage = try cli.run(["convert", "--format", "yaml", "x.xml"], in: directory.url)
    #expect(usage.status == 64)
  }

  /// The JSON samples convert as `Samples/README.md` says.
  @Test func samplesConvertAsTheirREADMESays() throws {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Samples")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for name in ["payments.json", "transfers.jsonl"] {
      try directory.write([UInt8](try Data(contentsOf: samples.appendingPathComponent(name))), named: name)
    }
    let result = try cli.run(["convert", "payments.json", "transfers.jsonl"], in: directory.url)
    #expect(result.status == 1)
    #expect(result.standardError.contains("payments.json -> payments.converted.json: 8 records: 5 ok, 2 fallback, 1 error"))
    #expect(result.standardError.contains("transfers.jsonl -> transfers.converted.jsonl: 7 records: 5 ok, 0 fallback, 2 error"))
    // 12345678901234567.89 × 1.0658 (EUR/USD 2023-09-15) = 13158024572935802.457162 → 13158024572935802.46
    #expect(try directory.read("payments.converted.json").contains(#""fx_converted": "13158024572935802.46""#))
  }
}
