import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Pass 2 reads a sheet's rows from the bytes its rewriter copies (``XLSXRowCollector``), pass 1 with libxml2
/// (``XLSXSheetReader``): both give the same rows and cells for sheets written by LibreOffice and openpyxl,
/// generated messy sheets, hand-written markup (entities, CDATA, comments, phonetic runs, prefixes, line ends),
/// and every mutated sheet libxml2 reads whole.
@Suite("XLSX: the rewriter's rows = libxml2's rows")
struct XLSXRowCollectorTests {
  /// A sheet's rows read by libxml2 and by the rewriter's collector (`nil`: that reading failed).
  static func readings(_ path: String) throws -> (libxml2: [SheetRow]?, collected: [SheetRow]?) {
    let book = try XLSXBook(readPath: path, displayPath: path, sheet: nil)
    var expected: [SheetRow]? = []
    do {
      let reader = try book.rows()
      while let row = try reader.nextRow() { expected?.append(row) }
      try reader.finish()
    } catch {
      expected = nil
    }
    var collected: [SheetRow]? = []
    do {
      let collector = XLSXRowCollector(sharedStrings: book.sharedStrings, path: path, entry: book.sheetEntry.name)
      try XLSXSheetRewriter(lastColumn: 30).rewrite(
        try book.package.stream(book.sheetEntry), rows: collector,
        rowError: { FileError(path: path, message: "\($0)") }, write: { _ in },
        cells: { row, _, _ in collected?.append(row) })
    } catch {
      collected = nil
    }
    return (expected, collected)
  }

  /// A workbook of the `openpyxl.xlsx` fixture (with its shared strings' absence) with its first sheet replaced.
  static func workbook(sheet: [UInt8], in directory: TemporaryDirectory, named name: String) throws -> String {
    let fixture = try #require(Bundle.module.url(forResource: "Fixtures/Workbooks/openpyxl", withExtension: "xlsx"))
    let path = directory.path + "/" + name
    try ZipPackage(path: fixture.path).write(to: path, replacing: [("xl/worksheets/sheet1.xml", .bytes(sheet))])
    return path
  }

  @Test(arguments: ["libreoffice.xlsx", "openpyxl.xlsx", "equivalence.xlsx"])
  func realWorkbooks(name: String) throws {
    let fixture = try #require(
      Bundle.module.url(forResource: "Fixtures/Workbooks/" + name.dropLast(5), withExtension: "xlsx"))
    let (expected, collected) = try Self.readings(fixture.path)
    #expect(expected != nil && (expected?.count ?? 0) > 1)
    #expect(collected == expected)
  }

  @Test func messySheets() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for seed in [5, 6] as [UInt64] {
      let path = try Self.workbook(
        sheet: Array(XLSXFastPathTests.messySheet(records: 400, seed: seed).utf8), in: directory, named: "m\(seed).xlsx")
      let (expected, collected) = try Self.readings(path)
      #expect((expected?.count ?? 0) > 400)
      #expect(collected == expected)
    }
  }

  @Test func handWrittenMarkup() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let sheet = """
      <?xml version="1.0" encoding="UTF-8"?>\r
      <x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:o="urn:other">\r
      <x:sheetData><!-- <x:row r="7"> -->\r
      <x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:r><x:rPr/><x:t>a &amp; b &lt;c&gt; &#233;&#x20AC;</x:t></x:r>\
      <x:rPh><x:t>PHONETIC</x:t></x:rPh><x:t xml:space="preserve"> two\r
      lines </x:t></x:is></x:c><x:c r="B2"><x:v><![CDATA[12.5]]></x:v></x:c><x:c><x:v>7</x:v><!-- a comment --></x:c>\
      <x:c r="E2" t="str"><x:f>A1&amp;"x"</x:f><x:v>_x0041_ &quot;q&quot; &apos;s&apos;</x:v></x:c>\
      <x:c r="F2" t="inlineStr"><x:is/></x:c><x:c r="G2"><x:f>SUM(A1)</x:f><x:v/></x:c><x:c r="H2" s="1"/>\
      <x:c r="I2"><x:v>1</x:v><x:v>2</x:v></x:c><x:c r="J2" t="b"><?pi x?><x:v>0</x:v></x:c>\
      <x:c r="K2" t="inlineStr"><x:is><x:t>x<x:t>nested</x:t>y</x:t></x:is></x:c>\
      <x:c r="L2"><o:v>9</o:v></x:c><x:c r="M2" t="e"><x:v>#N/A</x:v></x:c></x:row>\r
      <x:row><x:c r="A3" t="inlineStr"><x:is><x:t>after</x:t></x:is></x:c></x:row>\
      <x:row r="5" spans="1:2"/><x:row r="6"></x:row></x:sheetData></x:worksheet>
      """
    let path = try Self.workbook(sheet: Array(sheet.utf8), in: directory, named: "hand.xlsx")
    let (expected, collected) = try Self.readings(path)
    let rows = try #require(expected)
    #expect(rows.map(\.number) == [2, 3, 5, 6])
    #expect(rows[0].cells.first?.value == .text("a & b <c> é€ two\nlines "))
    #expect(collected == expected)
  }

  /// Every mutated sheet libxml2 reads whole is read the same by the collector.
  @Test func mutatedSheets() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/expenses.xlsx")
    let sheet = try ZipPackage(path: samples.path).contents(ofEntryNamed: "xl/worksheets/sheet1.xml")
    var generator = SplitMix64(seed: MutatedInputFuzzTests.seed &+ 14)
    var compared = 0
    for number in 0..<96 {
      let mutated = MutatedInputFuzzTests.mutate(sheet, using: &generator)
      let path = directory.path + "/case\(number).xlsx"
      try ZipPackage(path: samples.path).write(to: path, replacing: [("xl/worksheets/sheet1.xml", .bytes(mutated))])
      let (expected, collected) = try Self.readings(path)
      guard let expected else { continue }
      compared += 1
      #expect(collected == expected, "case \(number)")
    }
    #expect(compared >= 5, "enough mutated sheets are read whole")
  }
}
