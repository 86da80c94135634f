import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The text fxbatch writes into a cell (``ODSCells/paragraph(_:)``) is read back as it was, white space
/// included, by the project's reader (``ODSTableReader``): ODF collapses runs of spaces in a paragraph unless
/// they are written as `text:s`.
@Suite("ODS: written text reads back")
struct ODSCellsTests {
  static let texts = [
    "ecb-embedded EUR/USD=1.0945", " leading", "trailing ", "two  spaces", "   three and more    ", "a\tb", "one\ntwo",
    "<&> \"quoted\" 'single'", "Ünïcødé €", " ", "",
  ]

  @Test func writtenTextReadsBack() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let cells = Self.texts.map { text in
      "<table:table-cell office:value-type=\"string\">\(ODSCells.paragraph(text))</table:table-cell>"
    }
    let rows = cells.map { "<table:table-row>\($0)</table:table-row>" }.joined()
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: rows), named: "text.ods", in: directory)
    let read = try EndToEndODSTests.rows(of: directory.path + "/text.ods")
    #expect(read.count == Self.texts.count)
    for (row, text) in zip(read, Self.texts) { #expect(EndToEndODSTests.values(of: row, from: 0, count: 1) == [text]) }
  }

  /// A record's cells made from its values' bytes (``ODSCells/appendMarkup(_:isHeader:columns:to:)``) are the
  /// cells made from its values as text.
  @Test func markupFromBytes() {
    let values = [
      ["0.9025270758", "1624.55", "EUR", "2019-12-24", "ecb-embedded EUR/USD=1.108", "fallback", ""],
      ["", "", "EUR", "", "ecb-embedded", "error", "invalid_amount: \"a  <b>&c\" is not a number"],
      ["1", "12", "JPY", "2024-01-02", " two  spaces ", "ok", "Ünïcødé\r\n€\tx\ny"],
      ["1.5", "3", "a&b", "<c>", "   ", "x\ty", "d\u{7F}e"],
    ]
    for row in values {
      let bytes = row.map { Array($0.utf8) }
      var markup = ByteBuffer(capacity: 64)
      let packed = ByteBuffer.packing(bytes)
      ODSCells.appendMarkup({ packed.views[$0] }, isHeader: false, columns: AnnotationLayout.single.columns, to: &markup)
      withExtendedLifetime(packed.buffer) {
        #expect(Array(markup.bytes) == ODSCells.markup(row, isHeader: false), "\(row)")
      }
    }
  }

  @Test func paragraphMarkup() {
    #expect(ODSCells.paragraph("a  b") == "<text:p>a <text:s/>b</text:p>")
    #expect(ODSCells.paragraph(" a") == "<text:p><text:s/>a</text:p>")
    #expect(ODSCells.paragraph("a   ") == #"<text:p>a<text:s text:c="3"/></text:p>"#)
    #expect(ODSCells.paragraph("x<y&z") == "<text:p>x&lt;y&amp;z</text:p>")
  }
}
