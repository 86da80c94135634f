import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Pass 1's record loop (``RecordScan``): in parts = in one pass (findings, part starts and their lines), and the
/// one rule for parts: a part that fails, meets what a split cannot handle, or whose findings are refused gives
/// the parts up, and the file is read again in one pass (its errors at their own lines).
@Suite("Record scan: pass 1 in parts = one pass")
struct RecordScanTests {
  /// A file's lines, one record each; a line with a `"` is what a split cannot handle, one with `bad` fails.
  final class LineSource: ScanSource {
    let bytes: [UInt8]
    var position: Int
    var end: Int
    var line: Int
    private(set) var cannotSplit = false

    init(_ bytes: [UInt8], range: Range<Int>, line: Int) {
      self.bytes = bytes
      (position, end, self.line) = (range.lowerBound, min(range.upperBound, bytes.count), line)
    }

    var offset: Int { position }
    func stop(at offset: Int) { end = offset }

    func next(_ body: (String) throws -> Void) throws -> Bool {
      guard position < end else { return false }
      let feed = bytes[position..<end].firstIndex(of: 10) ?? end
      let text = String(decoding: bytes[position..<feed], as: UTF8.self)
      if text.contains("\"") { cannotSplit = true }
      if text.contains("bad") { throw BadLine(line: line) }
      try body(text)
      (position, line) = (min(feed + 1, end), line + 1)
      return true
    }
  }

  struct BadLine: Error, Equatable { let line: Int }

  /// What the test's pass 1 finds: the records in order, and whether the part's first record is `first`.
  struct Found: RecordFindings, Equatable {
    var records: [String] = []
    mutating func read(_ record: String) { records.append(record) }
    mutating func add(_ later: Found) { records += later.records }
  }

  private static func scan(_ text: String, parts: Int, accept: @escaping (Found) -> Bool = { _ in true }) throws -> (
    RecordScan.Scanned<Found>, reopened: Int
  ) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = (directory.path as NSString).appendingPathComponent("records.txt")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let bytes = Array(text.utf8)
    let targets = PartsRunner.partTargets(fileSize: bytes.count, parts: parts, minimumSize: 1)
    var reopened = 0
    let scanned = try RecordScan.scanLines(
      LineSource(bytes, range: 0..<bytes.count, line: 1), readPath: path, targets: targets, inParts: parts > 1,
      meter: nil, findings: { _ in Found() }, open: { LineSource(bytes, range: $0, line: 1) },
      reopen: {
        reopened += 1
        return LineSource(bytes, range: 0..<bytes.count, line: 1)
      }, accept: accept)
    return (scanned, reopened)
  }

  private static let lines = (1...400).map { "record \($0)" }.joined(separator: "\n") + "\n"

  @Test(arguments: [2, 3, 7])
  func partsFindWhatOnePassFinds(parts: Int) throws {
    let (inParts, reopened) = try Self.scan(Self.lines, parts: parts)
    // One pass notes the same part starts (the first record at or after each target) for pass 2.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = (directory.path as NSString).appendingPathComponent("records.txt")
    try Self.lines.write(toFile: path, atomically: true, encoding: .utf8)
    let bytes = Array(Self.lines.utf8)
    let onePass = try RecordScan.scanOnePass(
      LineSource(bytes, range: 0..<bytes.count, line: 1),
      targets: PartsRunner.partTargets(fileSize: bytes.count, parts: parts, minimumSize: 1), meter: nil,
      findings: Found())
    #expect(reopened == 0)
    #expect(inParts.findings == onePass.findings)
    #expect(inParts.findings.records.count == 400)
    #expect(inParts.partStarts.count == parts - 1)
    #expect(inParts.partStarts.map(\.offset) == onePass.partStarts.map(\.offset))
    #expect(inParts.partStarts.map(\.line) == onePass.partStarts.map(\.line))
    #expect(inParts.size == bytes.count)
    // A part's line is the file's: the record at its offset is that line's.
    for start in inParts.partStarts {
      let record = String(decoding: bytes[start.offset...].prefix { $0 != 10 }, as: UTF8.self)
      #expect(record == "record \(start.line)")
    }
  }

  @Test func aPartThatCannotSplitIsReadAgainInOnePassCountingEachRecordOnce() throws {
    let text = Self.lines.replacingOccurrences(of: "record 350\n", with: "record \"350\"\n")
    let (scanned, reopened) = try Self.scan(text, parts: 4)
    #expect(reopened == 1)
    #expect(scanned.findings.records.count == 400)
    #expect(scanned.findings.records[349] == "record \"350\"")
  }

  @Test func aFailingLaterPartIsReadAgainAndTheErrorHasItsOwnLine() throws {
    let text = Self.lines.replacingOccurrences(of: "record 350\n", with: "record bad\n")
    #expect(throws: BadLine(line: 350)) { try Self.scan(text, parts: 4) }
  }

  @Test func refusedFindingsOfPartZeroAreReadAgainInOnePass() throws {
    let (scanned, reopened) = try Self.scan(Self.lines, parts: 4) { $0.records.first == "nothing" }
    #expect(reopened == 1)
    #expect(scanned.findings.records.count == 400)
    #expect(scanned.partStarts.count == 3)
  }

  @Test func addUpGivesUpOnAFailedOrRefusedPart() {
    let parts: [Result<Found, Error>] = [
      .success(Found(records: ["a"])), .success(Found(records: ["b"])), .failure(BadLine(line: 1)),
    ]
    #expect(RecordScan.addUp(Array(parts.prefix(2)))?.records == ["a", "b"])
    #expect(RecordScan.addUp(parts) == nil)
    #expect(RecordScan.addUp(Array(parts.prefix(2))) { part, _ in part == 0 } == nil)
  }
}
