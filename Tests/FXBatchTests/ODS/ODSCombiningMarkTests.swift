import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Text fxbatch writes into an fx_* cell whose `&`, `<` or `>` is followed by a combining mark (one Swift
/// `Character`, as in an `fx_error` quoting a currency cell `&lt;&#x301;X`): the markup escapes it, so the
/// written `content.xml` stays well-formed and the text reads back as it was.
@Suite("ODS: markup characters with combining marks")
struct ODSCombiningMarkTests {
  static let texts = ["<\u{301}X", "US&\u{301}", ">\u{301}", "a <\u{301}&\u{301}> b"]

  @Test func escapedInTheParagraph() {
    #expect(ODSCells.paragraph("<\u{301}X") == "<text:p>&lt;\u{301}X</text:p>")
    #expect(ODSCells.paragraph("US&\u{301}") == "<text:p>US&amp;\u{301}</text:p>")
    #expect(ODSCells.paragraph(">\u{301}") == "<text:p>&gt;\u{301}</text:p>")
  }

  @Test func writtenTextReadsBack() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = Self.texts.map { text in
      "<table:table-row><table:table-cell office:value-type=\"string\">\(ODSCells.paragraph(text))</table:table-cell></table:table-row>"
    }.joined()
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: rows), named: "marks.ods", in: directory)
    let read = try EndToEndODSTests.rows(of: directory.path + "/marks.ods")
    #expect(read.count == Self.texts.count)
    for (row, text) in zip(read, Self.texts) { #expect(EndToEndODSTests.values(of: row, from: 0, count: 1) == [text]) }
  }

  /// The cells made from bytes (the scanner's road) are the cells made from text.
  @Test func markupFromBytesIsTheSame() {
    let row = ["", "", "EUR", "", "ecb-embedded", "error", "unknown_currency: \"<\u{301}X\" is not an ISO 4217 currency code"]
    let packed = ByteBuffer.packing(row.map { Array($0.utf8) })
    var markup = ByteBuffer(capacity: 64)
    ODSCells.appendMarkup({ packed.views[$0] }, isHeader: false, columns: AnnotationLayout.single.columns, to: &markup)
    withExtendedLifetime(packed.buffer) {
      let text = String(decoding: markup.bytes, as: UTF8.self)
      #expect(Array(markup.bytes) == ODSCells.markup(row, isHeader: false))
      #expect(text.contains("&lt;\u{301}X") && !text.contains("\"<\u{301}"))
    }
  }
}
