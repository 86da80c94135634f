import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 13's rule for workbooks: a sheet whose XML (an `.xlsx` sheet part, an `.ods` `content.xml`) is mutated (bits flipped, markup doubled or dropped, cut
/// short, huge numbers, deep nesting) is either refused with nothing written, or converted with every record
/// annotated once and every original cell read back as it was: the streaming rewrite of pass 2 never loses its
/// place against the reader.
@Suite("XLSX and ODS: mutated sheets")
struct XLSXMutatedSheetTests {
  static let cases = 48

  @Test(arguments: [("expenses.xlsx", "xl/worksheets/sheet1.xml"), ("expenses.ods", "content.xml")])
  func mutatedSheetsAreRefusedOrConvertedWhole(name: String, part: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")
    let original = try directory.write(
      [UInt8](try Data(contentsOf: samples.appendingPathComponent(name))), named: name)
    let sheet = try ZipPackage(path: original).contents(ofEntryNamed: part)
    let fileExtension = PathText.splitExtension(name).extension
    let rows: (String) throws -> [SheetRow] =
      fileExtension == "ods" ? { try EndToEndODSTests.rows(of: $0) } : { try EndToEndXLSXTests.rows(of: $0) }
    var generator = SplitMix64(seed: MutatedInputFuzzTests.seed)
    var refused = 0
    for number in 0..<Self.cases {
      let input = directory.path + "/case\(number)." + fileExtension
      let output = directory.path + "/out\(number)." + fileExtension
      let mutated = MutatedInputFuzzTests.mutate(sheet, using: &generator)
      try ZipPackage(path: original).write(
        to: input, replacing: [(part, .bytes(mutated))])
      var options = BatchOptions(today: try day("2026-11-29"))
      options.inputPaths = [input]
      options.destination = .file(output)
      let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
      let file = try #require(report.files.first)
      let written = FileManager.default.fileExists(atPath: output)
      if file.fileError != nil {
        refused += 1
        #expect(!written, "case \(number): refused but written")
        #expect(file.counts.records == 0, "case \(number)")
        continue
      }
      #expect(written, "case \(number): converted but not written")
      let before = try rows(input)
      let after = try rows(output)
      #expect(after.map(\.number) == before.map(\.number), "case \(number)")
      for (row, old) in zip(after, before) {
        #expect(Array(row.cells.prefix(old.cells.count)) == old.cells, "case \(number), row \(row.number)")
      }
      let statuses = after.flatMap(\.cells).filter {
        [.text("ok"), .text("fallback"), .text("error")].contains($0.value)
      }
      #expect(statuses.count == file.counts.records, "case \(number)")
      #expect(file.counts.records == file.counts.ok + file.counts.fallback + file.counts.error, "case \(number)")
    }
    // Both outcomes are exercised.
    #expect(refused > 0 && refused < Self.cases)
  }
}
