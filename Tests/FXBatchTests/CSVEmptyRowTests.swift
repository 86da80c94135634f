import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 13: a CSV line of only delimiters (`,,,,,`, a spreadsheet's empty row; `;;;;` with `;`; with spaces or
/// tabs between them) was counted as a record and written with a `missing_field` error. It is now a blank line,
/// as an empty line is: copied as is and not counted, on the general path and the fast path alike.
@Suite("CSV: rows of only delimiters are blank lines")
struct CSVEmptyRowTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  @Test func recordsKnowWhetherTheyHoldData() throws {
    func record(_ text: String, delimiter: UInt8 = UInt8(ascii: ",")) throws -> CSVRecord {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("row.csv", text + "\n")
      let reader = try CSVReader(path: directory.url.appendingPathComponent("row.csv").path, delimiter: delimiter)
      return try #require(try reader.next())
    }
    for blank in ["", ",,,,,", ",", " , ,\t,", "   ", "\t"] {
      #expect(try record(blank).isBlank, "\(blank.debugDescription)")
    }
    #expect(try record(";;;;", delimiter: UInt8(ascii: ";")).isBlank)
    for data in ["\"\",,,", ",,,0", "x,,,", ",,\" \",", ",,,,,.", "\u{A0},,"] {
      #expect(try !record(data).isBlank, "\(data.debugDescription)")
    }
    // With `;` as the delimiter, `,,,` is one field holding commas: data.
    #expect(try !record(",,,", delimiter: UInt8(ascii: ";")).isBlank)
  }

  // Before: each such row was a record, "missing_field: the amount is empty", and the run exited 1.
  @Test(arguments: [
    ("comma.csv", "date,amount,from,to\n2020-01-02,1,USD,EUR\n,,,\n2020-01-02,2,USD,EUR\n,,,\r\n , ,\t, \n"),
    ("semicolon.csv", "date;amount;from;to\r\n2020-01-02;1;USD;EUR\r\n;;;\r\n2020-01-02;2;USD;EUR\r\n;;;;;;\r\n"),
    ("leading.csv", ",,,\n\ndate,amount,from,to\n,,,\n2020-01-02,1,USD,EUR\n2020-01-02,2,USD,EUR\n,,,"),
  ])
  func anEmptyRowIsCopiedAndNotCounted(name: String, text: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(name, text)
    let result = try cli.run(["convert", name], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("2 records: 2 ok, 0 fallback, 0 error"), "\(result.standardError)")
    let output = try directory.read(name.replacingOccurrences(of: ".csv", with: ".converted.csv"))
    // Each line of only delimiters, spaces and tabs is written as it was read, terminator included.
    let delimiter: Character = name == "semicolon.csv" ? ";" : ","
    let blankIn = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
      $0.allSatisfy { $0 == delimiter || $0 == " " || $0 == "\t" || $0 == "\r" }
    }
    let blankOut = output.split(separator: "\n", omittingEmptySubsequences: false).filter {
      $0.allSatisfy { $0 == delimiter || $0 == " " || $0 == "\t" || $0 == "\r" }
    }
    #expect(blankOut == blankIn)
    #expect(!output.contains("missing_field"))
  }

  /// A quoted empty field is data: such a row is still a record, and says why it cannot be converted.
  @Test func aRowWithAQuotedEmptyFieldIsARecord() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("quoted.csv", "date,amount,from,to\n2020-01-02,1,USD,EUR\n,\"\",,\n")
    let result = try cli.run(["convert", "quoted.csv"], in: directory.url)
    #expect(result.status == 1)
    let summary = "2 records: 1 ok, 0 fallback, 1 error (missing_field 1)"
    #expect(result.standardError.contains(summary), "\(result.standardError)")
  }

  /// The fast path (in parts, across part boundaries) writes and counts empty rows as the general path does.
  @Test func fastPathAgreesWithTheGeneralPath() throws {
    for row in [",,,", ",,,,,,,,", " , , , ", "\t,\t,,", ",", ",,\"\","] {
      var text = "date,amount,from,to\n"
      for index in 0..<60 { text += "2024-01-05,\(index).50,USD,EUR\n" + (index % 3 == 0 ? row + "\n" : "") }
      try CSVFastPathAdversarialTests.check("rows \(row.debugDescription)", Array(text.utf8))
      try CSVFastPathAdversarialTests.check(
        "rows before the header \(row.debugDescription)", Array((row + "\n" + text).utf8))
    }
    var semicolons = "date;amount;from;to\r\n"
    for index in 0..<60 { semicolons += "2024-01-05;\(index),50;USD;EUR\r\n" + (index % 4 == 0 ? ";;;\r\n" : "") }
    try CSVFastPathAdversarialTests.check("semicolon rows", Array(semicolons.utf8))
  }
}
