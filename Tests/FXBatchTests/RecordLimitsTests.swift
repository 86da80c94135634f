import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 13 (unbounded memory or time): a record past ``RecordLimits`` makes its file a file error that names the
/// record's line and `--max-record-size`, nothing is written for it, and memory stays a small multiple of the
/// limit however the input is made (no line end at all, a line of delimiters).
@Suite("record limits")
struct RecordLimitsTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// A header and one good record in each format, then `record` (a record of the format) as line 3.
  static let header = "date,amount,from,to\n2020-01-02,1,EUR,USD\n"

  /// Runs `convert` on one file and checks the refusal: exit status 2, the message at `line`, no output.
  private func expectRefused(
    _ name: String, _ contents: String, arguments: [String] = [], line: Int, message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(name, contents)
    let result = try cli.run(["convert", "-q", name, "-o", "out"] + arguments, in: directory.url)
    #expect(result.status == 2, "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(
      result.standardError.contains("\(name):\(line):"), "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(result.standardError.contains(message), "\(result.standardError)", sourceLocation: sourceLocation)
    #expect(try directory.fileNames() == [name], sourceLocation: sourceLocation)
  }

  /// Converts one file and returns the exit status (0 or 1 when converted).
  private func convertStatus(_ name: String, _ contents: String, arguments: [String]) throws -> Int32 {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(name, contents)
    return try cli.run(["convert", "-q", name, "-o", "out"] + arguments, in: directory.url).status
  }

  // 100,000 bytes in one amount cell: over a 64 KiB record limit, and read again under a 1 MiB one (a 64 KiB
  // field limit, so the 100,000-byte cell is still refused as a field) and a 2 MiB one (converted: the amount is
  // an invalid_amount error, the file is read).
  @Test func csvRecordLongerThanTheLimit() throws {
    let file = Self.header + "2020-01-02," + String(repeating: "9", count: 100_000) + ",EUR,USD\n"
    try expectRefused(
      "in.csv", file, arguments: ["--max-record-size", "64K"], line: 3,
      message: "error: the record is longer than 64 KiB (--max-record-size)")
    try expectRefused(
      "in.csv", file, arguments: ["--max-record-size", "1M"], line: 3,
      message: "error: a field of the record is longer than 64 KiB (a sixteenth of --max-record-size)")
    #expect(try convertStatus("in.csv", file, arguments: ["--max-record-size", "2M"]) == 1)
  }

  // The default limits: a 2 MiB field (over 1 MiB) and a line of 70,000 delimiters (over 65,536 fields).
  @Test func csvFieldAndFieldCountUnderTheDefaults() throws {
    try expectRefused(
      "wide.csv", Self.header + "2020-01-02,1,EUR,USD" + String(repeating: "x", count: 2 << 20) + "\n", line: 3,
      message: "error: a field of the record is longer than 1 MiB")
    try expectRefused(
      "commas.csv", Self.header + String(repeating: ",", count: 70_000) + "\n", line: 3,
      message: "error: the record has more than 65536 fields")
  }

  // A quoted field that runs on over many lines is one record: it is refused at the line it starts on.
  @Test func csvQuotedFieldOverManyLines() throws {
    let lines = String(repeating: "0123456789\n", count: 10_000)
    try expectRefused(
      "quoted.csv", Self.header + "2020-01-02,1,EUR,\"" + lines + "\"\n", arguments: ["--max-record-size", "64K"],
      line: 3, message: "error: the record is longer than 64 KiB")
  }

  @Test func jsonLinesAndJSONRecordsLongerThanTheLimit() throws {
    let big = String(repeating: "y", count: 100_000)
    let record = #"{"date":"2020-01-02","amount":"1","from":"EUR","to":"USD"}"#
    let lines = record + "\n" + #"{"note":""# + big + #""}"# + "\n"
    try expectRefused(
      "in.jsonl", lines, arguments: ["--max-record-size", "64K"], line: 2,
      message: "error: the record is longer than 64 KiB (--max-record-size)")
    #expect(try convertStatus("in.jsonl", lines, arguments: ["--max-record-size", "1M"]) == 1)
    let document = "[\n" + record + ",\n" + #"{"note":""# + big + #""}"# + "\n]\n"
    try expectRefused(
      "in.json", document, arguments: ["--max-record-size", "64K"], line: 3,
      message: "error: the record is longer than 64 KiB (--max-record-size)")
    #expect(try convertStatus("in.json", document, arguments: ["--max-record-size", "1M"]) == 1)
  }

  @Test(arguments: ["12X", "0", "-5", "100", "65G", "M"])
  func maxRecordSizeMustBeAByteCount(_ text: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", Self.header)
    let result = try cli.run(["convert", "-q", "in.csv", "--max-record-size", text], in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.contains("--max-record-size \(text): expected a number of bytes"))
  }

  // `fxbatch convert /dev/zero --format csv` grew to 3 GB in 5 s; a line of 100 M delimiters took 3.5 GB. Both
  // now end in a file error with memory a small multiple of the 16 MiB limit (the runtime and the embedded rates
  // take about 35 MB): bounded at 160 MB, in a few seconds.
  @Test(.timeLimit(.minutes(1)))
  func endlessOrDelimiterOnlyInputStaysBounded() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(Self.header + String(repeating: ",", count: 24 << 20) + "\n", named: "commas.csv")
    let commas = directory.url.appendingPathComponent("commas.csv").path
    let output = directory.url.appendingPathComponent("out").path
    for arguments in [["/dev/zero", "--format", "csv"], [commas], ["/dev/zero", "--format", "jsonl"]] {
      let run = try MeasuredRun.run(
        cli.executable, ["convert", "-q", "-o", output] + arguments, in: directory.url, environment: cli.environment,
        timeLimit: 30)
      #expect(!run.timedOut, "\(arguments) took more than 30 s")
      #expect(run.status == 2, "\(arguments): \(run.standardError)")
      #expect(run.standardError.contains("(--max-record-size)") || run.standardError.contains("fields"))
      #expect(run.peakResidentKiB > 0, "\(arguments): no memory reading")
      #expect(run.peakResidentKiB < 160 * 1024, "\(arguments) peaked at \(run.peakResidentKiB) KiB")
    }
  }
}

/// Issue 13's XML examples: an element with 100,000 attributes took 31 s in libxml2 (quadratic), a record of a
/// million child elements 28 s. Both are refused quickly, on the byte-level path and on libxml2's.
@Suite("record limits: XML")
struct XMLRecordLimitsTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let good = #"<r date="2020-01-02" amount="1" from="EUR" to="USD"/>"#

  static func attributes(_ count: Int) -> String {
    (0..<count).map { #"a\#($0)="1""# }.joined(separator: " ")
  }

  /// Documents with one element of 100,000 attributes: a record, a child of a record, the root; and a record of
  /// 100,000 child elements. Each with the line of the refused element (or record) and the message.
  static let cases: [(name: String, document: String, line: Int, message: String)] = [
    (
      "record-attributes.xml",
      "<?xml version=\"1.0\"?>\n<rs>\n\(good)\n<r \(attributes(100_000))/>\n</rs>\n", 4,
      "error: an element has more than 1000 attributes"
    ),
    (
      "child-attributes.xml", "<rs>\n\(good)\n<r>\n<c \(attributes(100_000))/></r>\n</rs>\n", 4,
      "error: an element has more than 1000 attributes"
    ),
    (
      "root-attributes.xml", "<rs \(attributes(100_000))>\n\(good)\n</rs>\n", 1,
      "error: an element has more than 1000 attributes"
    ),
    (
      "children.xml", "<rs>\n\(good)\n<r>\n" + String(repeating: "<c>1</c>", count: 100_000) + "</r>\n</rs>\n", 3,
      "error: the record has more than 65536 elements"
    ),
    (
      "comment.xml", "<rs>\n<!-- <x a=\"1\" b=\"2\"> -->\n<r \(attributes(2_000))/>\n\(good)\n</rs>\n", 3,
      "error: an element has more than 1000 attributes"
    ),
  ]

  @Test(.timeLimit(.minutes(1)), arguments: cases.map(\.name))
  func refusedQuickly(_ name: String) throws {
    let example = try #require(Self.cases.first { $0.name == name })
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(example.name, example.document)
    let started = Date()
    let result = try cli.run(["convert", "-q", example.name, "-o", "out"], in: directory.url)
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(result.status == 2, "\(result.standardError)")
    #expect(result.standardError.contains("\(example.name):\(example.line):1: \(example.message)"), "\(result.standardError)")
    #expect(try directory.fileNames() == [example.name])
  }

  // At the limits, not past them: 1,000 attributes (none of them a field) and 10,000 child elements convert.
  @Test func atTheLimitsConverts() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "in.xml",
      "<rs>\n<r date=\"2020-01-02\" amount=\"1\" from=\"EUR\" to=\"USD\" \(Self.attributes(996))/>\n"
        + "<r date=\"2020-01-02\" amount=\"1\" from=\"EUR\" to=\"USD\">"
        + String(repeating: "<c>1</c>", count: 10_000) + "</r>\n</rs>\n")
    let result = try cli.run(["convert", "-q", "in.xml", "-o", "-"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.components(separatedBy: #"status="ok""#).count == 3)
  }

  // A record of one long attribute: in the byte-level scanner's subset, which leaves it to libxml2's path past
  // --max-record-size; there the tag is refused before libxml2 reads it.
  @Test func recordTagLongerThanTheLimit() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let long =
      #"<r date="2020-01-02" amount="1" from="EUR" to="USD" note=""#
      + String(repeating: "x", count: 100_000) + #""/>"#
    try directory.write("in.xml", "<rs>\n\(XMLRecordLimitsTests.good)\n\(long)\n</rs>\n")
    let refused = try cli.run(["convert", "-q", "in.xml", "-o", "out", "--max-record-size", "64K"], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("in.xml:3:1: error: the record is longer than 64 KiB (--max-record-size)"))
    let read = try cli.run(["convert", "-q", "in.xml", "-o", "-", "--max-record-size", "1M"], in: directory.url)
    #expect(read.status == 0, "\(read.standardError)")
    #expect(read.standardOutput.components(separatedBy: #"status="ok""#).count == 3)
  }

  // A record whose text runs past --max-record-size on libxml2's path (CDATA keeps it off the byte-level path).
  @Test func recordTextLongerThanTheLimit() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = String(repeating: "<n><![CDATA[" + String(repeating: "x", count: 1000) + "]]></n>", count: 100)
    try directory.write("in.xml", "<rs>\n\(XMLRecordLimitsTests.good)\n<r>\(text)</r>\n</rs>\n")
    let refused = try cli.run(["convert", "-q", "in.xml", "-o", "out", "--max-record-size", "64K"], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("in.xml:3:1: error: the record is longer than 64 KiB (--max-record-size)"))
    let read = try cli.run(["convert", "-q", "in.xml", "-o", "out", "--max-record-size", "1M"], in: directory.url)
    #expect(read.status == 1, "\(read.standardError)")
  }
}

/// A JSON record of many small values (`[1,1,1,…]`) is short as text but large parsed: past
/// ``RecordLimits/maxFields`` values it is that record's `invalid_record` error, and the rest of the file converts.
@Suite("record limits: JSON values")
struct JSONValueLimitTests {
  @Test func manyValuesAreARecordError() throws {
    let record = #"{"date":"2020-01-02","amount":"1","from":"EUR","to":"USD","x":["#
    let many = JSONRecordText(
      bytes: Array((record + Array(repeating: "1", count: 70_000).joined(separator: ",") + "]}").utf8), line: 3,
      column: 1)
    guard case .failure(let error) = many.members() else {
      Issue.record("a record of 70,004 values was parsed")
      return
    }
    #expect(error.code == .invalidRecord)
    #expect(error.message.hasPrefix("not valid JSON: more than 65536 values (members and array elements) (line 3, column "))
    let fewer = JSONRecordText(
      bytes: Array((record + Array(repeating: "1", count: 60_000).joined(separator: ",") + "]}").utf8), line: 3,
      column: 1)
    guard case .success(let members) = fewer.members() else {
      Issue.record("a record of 60,004 values was refused")
      return
    }
    #expect(members.count == 5)
  }
}
