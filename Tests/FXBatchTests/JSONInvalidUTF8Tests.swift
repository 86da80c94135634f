import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 13: bytes in a JSON or JSON Lines string that are not UTF-8 were accepted and copied, so the annotated
/// copy was no longer JSON. A JSON Lines line with them is now an `invalid_record` that says where; a JSON
/// document with them is a file error at their line and column; the general readers and the byte-level fast
/// paths agree.
@Suite("JSON and JSON Lines: strings that are not UTF-8")
struct JSONInvalidUTF8Tests {
  /// Byte sequences that are not UTF-8, and the bytes the message shows.
  static let invalidSequences: [(String, [UInt8], String)] = [
    ("a Latin-1 é", [0xE9], "bytes 0xe9 0x22"),
    ("a lone continuation byte", [0x80], "byte 0x80"),
    ("an overlong lead C0", [0xC0, 0xAF], "byte 0xc0"),
    ("a byte never in UTF-8", [0xFF], "byte 0xff"),
    ("a cut two-byte character", [0xC3, 0x41], "bytes 0xc3 0x41"),
    ("an overlong three-byte form", [0xE0, 0x80, 0xAF], "bytes 0xe0 0x80"),
    ("an encoded surrogate", [0xED, 0xA0, 0x80], "bytes 0xed 0xa0"),
    ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80], "bytes 0xf4 0x90"),
    ("a cut four-byte character", [0xF0, 0x9F, 0x98], "bytes 0xf0 0x9f 0x98 0x22"),
  ]

  @Test func validationFollowsTheUnicodeTable() {
    func read(_ bytes: [UInt8]) -> UTF8Validation.Character {
      UTF8Validation.character(lead: bytes[0]) { $0 < bytes.count ? bytes[$0] : nil }
    }
    // é, €, U+FFFF, 😀, U+10FFFF, U+D7FF (before the surrogates), U+E000 (after them).
    for valid: [UInt8] in [
      [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xEF, 0xBF, 0xBF], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
      [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
    ] {
      #expect(read(valid) == .valid(length: valid.count), "\(valid)")
    }
    #expect(read([0xC1, 0xBF]) == .invalid(length: 1))
    #expect(read([0xF5, 0x80, 0x80, 0x80]) == .invalid(length: 1))
    #expect(read([0xE0, 0x9F, 0xBF]) == .invalid(length: 2))
    #expect(read([0xF0, 0x8F, 0xBF, 0xBF]) == .invalid(length: 2))
    #expect(read([0xE2, 0x82, 0x41]) == .invalid(length: 3))
    #expect(read([0xE2, 0x82]) == .truncated)
    #expect(UTF8Validation.message([0x0F]) == "invalid UTF-8 in a string (byte 0x0f)")
  }

  static func run(
    _ bytes: [UInt8], name: String, fastPath: Bool, parts: Int = 1, configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> CSVFastPathAdversarialTests.Outcome {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = directory.url.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: input))
    return try CSVFastPathAdversarialTests.run(
      input: input, output: directory.url.appendingPathComponent("out-" + name).path, fastPath: fastPath, parts: parts,
      rates: EmbeddedECBHistory.table, configure: configure)
  }

  // Before: the line was converted (status ok) and its bytes copied, so the output line was not UTF-8.
  @Test(arguments: invalidSequences)
  func aJSONLinesLineIsAnInvalidRecordThatSaysWhere(name: String, sequence: [UInt8], shown: String) throws {
    let good = "{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\",\"note\":\"café\"}\n"
    // The bad bytes are at column 10 of line 2.
    let bytes =
      Array(good.utf8) + Array("{\"note\":\"".utf8) + sequence
      + Array("\",\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\"}\n".utf8) + Array(good.utf8)
    for (fastPath, parts) in [(false, 1), (true, 1), (true, 2), (true, 3)] {
      let outcome = try Self.run(bytes, name: "in.jsonl", fastPath: fastPath, parts: parts)
      let output = try #require(outcome.output)
      let text = try #require(String(validating: output, as: UTF8.self), "fast \(fastPath), parts \(parts): not UTF-8")
      let lines = text.split(separator: "\n")
      #expect(lines.count == 3)
      let counts = outcome.report.files.first?.counts
      #expect(counts?.errorsByCode == ["invalid_record": 1], "fast \(fastPath), parts \(parts)")
      #expect(
        lines.count == 3
          && lines[1].contains(
            "\"fx_status\":\"error\",\"fx_error\":\"invalid_record: not valid JSON: "
              + "invalid UTF-8 in a string (\(shown)) (line 2, column 10)\"}"),
        "fast \(fastPath), parts \(parts): \(lines.count > 1 ? String(lines[1]) : "")")
      // The other lines, é included, are converted.
      #expect(lines.first?.contains("\"note\":\"café\",\"fx_rate\":\"1.1193\"") == true)
      for line in lines { #expect((try? JSONParser.parse(Array(line.utf8))) != nil, "\(line)") }
    }
  }

  /// Read from standard input, the format comes from the content: a first line that is not UTF-8 is still a
  /// JSON Lines record (not a JSON document refused whole).
  @Test func standardInputWithABadFirstLineIsJSONLines() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let bytes =
      Array("{\"note\":\"".utf8) + [0xFF] + Array("\",\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\"}\n".utf8)
      + Array("{\"amount\":100,\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\"}\n".utf8)
    let result = try CLIRunner().run(["convert", "-"], in: directory.url, input: Data(bytes))
    #expect(result.status == 1, "\(result.standardError)")
    #expect(result.standardError.contains("2 records: 1 ok, 0 fallback, 1 error (invalid_record 1) [JSON Lines]"))
    #expect(result.standardOutput.contains("invalid UTF-8 in a string (byte 0xff) (line 1, column 10)"))
    #expect(result.standardOutput.contains("\"fx_converted\":\"111.93\""))
  }

  // Before: the document was converted and its bytes copied, so the output was not JSON.
  @Test(arguments: invalidSequences)
  func aJSONDocumentIsAFileErrorAtItsLineAndColumn(name: String, sequence: [UInt8], shown: String) throws {
    let record = "{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\",\"date\":\"2020-01-02\",\"note\":\"café\"}"
    // In a record: line 2, column 11; outside the records (--records-path): line 1, column 10.
    let inRecord =
      Array("[\(record),\n {\"note\":\"".utf8) + sequence
      + Array("\",\"amount\":2,\"from\":\"EUR\",\"to\":\"USD\"}]\n".utf8)
    let outside = Array("{\"meta\":\"".utf8) + sequence + Array("\",\n\"data\":[\(record)]}\n".utf8)
    for (bytes, position, path) in [(inRecord, "2:11", [String]()), (outside, "1:10", ["data"])] {
      for (fastPath, parts) in [(false, 1), (true, 1), (true, 2)] {
        let outcome = try Self.run(bytes, name: "in.json", fastPath: fastPath, parts: parts) { $0.recordsPath = path }
        let error = try #require(outcome.report.files.first?.fileError, "fast \(fastPath), parts \(parts)")
        #expect(error.hasSuffix("in.json:\(position): error: invalid UTF-8 in a string (\(shown))"), "\(error)")
        #expect(outcome.output == nil)
      }
    }
  }

  /// The fast paths give the general path's output and report, byte for byte, for records with characters of
  /// every length and with bytes that are not UTF-8 anywhere in a string (a member name, a value the record
  /// decodes, a value it copies, across the eight-byte steps of the scanners).
  @Test func fastPathsAgreeWithTheGeneralPath() throws {
    let pieces: [[UInt8]] =
      Self.invalidSequences.map(\.1) + [[0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xEF, 0xBB, 0xBF]]
    var lines: [UInt8] = []
    var elements: [[UInt8]] = []
    for (index, piece) in pieces.enumerated() {
      for padding in [0, 3, 7] {
        let pad = Array(String(repeating: "x", count: padding).utf8)
        let variants: [[UInt8]] = [
          Array("{\"note\":\"".utf8) + pad + piece
            + Array("\",\"amount\":\(index),\"from\":\"EUR\",\"to\":\"USD\"}".utf8),
          Array("{\"amount\":1,\"from\":\"EUR\",\"to\":\"US".utf8) + pad + piece + Array("D\"}".utf8),
          Array("{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\",\"n".utf8) + pad + piece + Array("\":2}".utf8),
        ]
        for variant in variants {
          lines += variant + [0x0A]
          elements.append(variant)
        }
      }
    }
    try JSONLinesFastPathTests.check("UTF-8 and not", lines)
    for element in elements {
      try JSONDocumentFastPathTests.check(
        "document", Array("[{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\"},\n".utf8) + element + Array("]\n".utf8))
    }
  }
}
