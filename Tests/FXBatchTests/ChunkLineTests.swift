import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// A chunk cut from a bigger file and piped through `convert` (a cluster job's partition): `--first-line N`
/// numbers its lines as in the whole file, a header `--header` gives is no line of the input (never line 0),
/// `--header` is one CSV line (a name may hold a comma, quoted), and a chunk without a final newline ends as a
/// file without one does.
@Suite("chunk lines")
struct ChunkLineTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let chunk = "2024-01-05,10.00,USD\n2024-01-08,12.50,GBP\n2024-01-09,\"7,USD\n"
  static let options = [
    "convert", "-", "-o", "-", "-q", "--header", "date,Total,currency", "--no-header-output", "--to", "EUR",
    "--amount-field", "Total", "--decimal-separator", ".",
  ]

  // The quote opened on the chunk's third line, column 12: line 3 by default, line 50,003 of the whole file
  // when the chunk starts at its line 50,001.
  @Test func firstLineNumbersAChunksLinesAsInTheWholeFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let plain = try cli.run(Self.options, in: directory.url, input: Data(Self.chunk.utf8))
    #expect(plain.status == 2)
    #expect(plain.standardError.hasPrefix("-:3:12: error: quoted field is never closed"), "\(plain.standardError)")
    let placed = try cli.run(Self.options + ["--first-line", "50001"], in: directory.url, input: Data(Self.chunk.utf8))
    #expect(placed.status == 2)
    #expect(placed.standardError.hasPrefix("-:50003:12: error: quoted field is never closed"), "\(placed.standardError)")
    // A byte that is not UTF-8: the message's own text names the line too, when streamed and when read from a file.
    let notUTF8 = Data("2024-01-05,10.00,USD\n".utf8) + Data([0xFF]) + Data(",1,USD\n".utf8)
    let streamed = try cli.run(Self.options + ["--first-line", "10"], in: directory.url, input: notUTF8)
    #expect(streamed.status == 2)
    #expect(
      streamed.standardError.hasPrefix("-:11:1: error: the byte 0xFF at line 11, column 1 is not UTF-8"),
      "\(streamed.standardError)")
    _ = try directory.write([UInt8](notUTF8), named: "chunk.csv")
    var fromFile = Self.options
    fromFile[1] = "chunk.csv"
    let read = try cli.run(fromFile + ["--first-line", "10"], in: directory.url)
    #expect(read.standardError.hasPrefix("chunk.csv:11:1: error: the byte 0xFF at line 11"), "\(read.standardError)")
    // The records before the error are the same with or without the option: it changes only where lines are.
    let good = "2024-01-05,10.00,USD\n2024-01-08,12.50,GBP\n"
    let one = try cli.run(Self.options, in: directory.url, input: Data(good.utf8))
    let other = try cli.run(Self.options + ["--first-line", "7"], in: directory.url, input: Data(good.utf8))
    #expect(one.status == 0 && other.status == 0)
    #expect(one.standardOutput == other.standardOutput && !one.standardOutput.isEmpty)
  }

  // JSON Lines: a record that is no JSON is that record's error, which names its line; on the byte-level path
  // (a local table) and the general one.
  @Test(arguments: [false, true])
  func firstLineNumbersJSONLinesRecordErrors(generalPath: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var cli = cli
    if generalPath { cli.environment["FXBATCH_GENERAL_PATH"] = "1" }
    let lines = "{\"date\":\"2024-01-05\",\"amount\":\"1\",\"from\":\"USD\",\"to\":\"EUR\"}\n{\"date\":\"2024-01-05\",\n"
    let result = try cli.run(
      ["convert", "-", "-o", "-", "-q", "--format", "jsonl", "--first-line", "41"], in: directory.url,
      input: Data(lines.utf8))
    #expect(result.status == 1, "\(result.standardError)")
    #expect(result.standardOutput.contains("(line 42, column 22)"), "\(result.standardOutput)")
  }

  @Test func firstLineIsRefusedWhereThereAreNoLinesToNumber() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let json = try cli.run(
      ["convert", "-", "-o", "-", "-q", "--format", "json", "--first-line", "7"], in: directory.url,
      input: Data("[]".utf8))
    #expect(json.status == 2)
    #expect(json.standardError.contains("--first-line numbers the lines of CSV or JSON Lines input"), "\(json.standardError)")
    for bad in ["0", "-3", "x", "1.5"] {
      let usage = try cli.run(["convert", "-", "-o", "-", "--first-line", bad], in: directory.url)
      #expect(usage.status == 64, "\(bad)")
      #expect(usage.standardError.contains("--first-line \(bad): expected a line number, 1 or more"))
    }
  }

  // Data without a to-currency field under `--header`: the error named line 0 (`-:0:1:`), a line no input has.
  @Test func aGivenHeadersErrorNamesTheOptionNotLineZero() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // A file, not standard input: fxbatch refuses the header before it reads a record, and a pipe this process
    // still wrote to would raise SIGPIPE here.
    _ = try directory.write("chunk.csv", "2024-01-05,10.00,USD\n")
    let result = try cli.run(
      ["convert", "chunk.csv", "-o", "-", "-q", "--header", "date,Total,currency", "--first-line", "5"],
      in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError.hasPrefix(
        "chunk.csv: error: --header: the header has no to-currency field (\"date\", \"Total\""),
      "\(result.standardError)")
    #expect(!result.standardError.contains(":0:"))
  }

  // `--header` is read as one CSV line with commas: a quoted name holds a comma (written quoted in the copy's
  // header); a quote never closed, or a second line, is a usage error.
  @Test func headerNamesFollowCSVRules() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(
      [
        "convert", "-", "-o", "-", "-q", "--header", "date,\"Total, EUR\",\"the \"\"currency\"\"\"", "--to", "EUR",
        "--amount-field", "Total\\, EUR", "--from-field", "the \"currency\"", "--decimal-separator", ".",
      ], in: directory.url, input: Data("2024-01-05,10.00,USD\n".utf8))
    #expect(result.status == 0, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.first?.hasPrefix("date,\"Total, EUR\",\"the \"\"currency\"\"\",fx_rate,") == true, "\(lines)")
    #expect(lines.last?.hasPrefix("2024-01-05,10.00,USD,0.9156670635,9.16,EUR,") == true, "\(lines)")
    let refusals = [
      ("date,\"Total, EUR", "quoted field is never closed"), ("date\nTotal", "one line of names expected"),
      ("date,,Total", "an empty name in the list"), ("date,\"date\"", "date is named twice"),
    ]
    for (header, message) in refusals {
      let refused = try cli.run(["convert", "-", "-o", "-", "--header", header], in: directory.url)
      #expect(refused.status == 64, "\(header)")
      #expect(refused.standardError.contains(message), "\(refused.standardError)")
    }
  }

  // A chunk without a final newline (the last chunk of a file without one) is its last record, converted, and
  // its copy ends without one, as a whole file without one does: the chunks' copies still concatenate to the
  // whole run's records.
  @Test func aChunkWithoutAFinalNewlineEndsAsTheWholeFileDoes() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let header = "date,Total,currency"
    let records = ["2024-01-05,10.00,USD", "2024-01-08,12.50,GBP", "2024-01-09,n/a,USD", "2024-01-10,3,CHF"]
    _ = try directory.write("whole.csv", header + "\n" + records.joined(separator: "\n"))
    let common = ["-o", "-", "-q", "--to", "EUR", "--amount-field", "Total", "--decimal-separator", "."]
    let whole = try cli.run(["convert", "whole.csv"] + common, in: directory.url)
    #expect(whole.status == 1)
    #expect(!whole.standardOutput.hasSuffix("\n"))
    var concatenated = ""
    for (index, chunk) in [records[0...1].map { $0 + "\n" }.joined(), records[2...3].joined(separator: "\n")]
      .enumerated()
    {
      let part = try cli.run(
        ["convert", "-"] + common + ["--header", header, "--no-header-output", "--first-line", "\(2 + 2 * index)"],
        in: directory.url, input: Data(chunk.utf8))
      #expect(part.status <= 1, "\(part.standardError)")
      concatenated += part.standardOutput
    }
    #expect(concatenated.hasSuffix("ecb-embedded EUR/CHF=0.9336,ok,"), "\(concatenated)")
    #expect(
      whole.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        == concatenated)
  }
}
