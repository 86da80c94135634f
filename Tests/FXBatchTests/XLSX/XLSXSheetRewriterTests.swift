import Testing

@testable import FXBatch

/// The markup of the appended fx_* cells, written on bytes (``XLSXSheetRewriter``'s static functions).
@Suite("XLSX: appended cell markup")
struct XLSXSheetRewriterTests {
  /// The bytes a markup function appends, as text.
  static func markup(_ append: (inout [UInt8]) -> Void) -> String {
    var bytes = Array("kept".utf8)
    append(&bytes)
    #expect(bytes.starts(with: "kept".utf8))
    return String(decoding: bytes.dropFirst(4), as: UTF8.self)
  }

  @Test(
    arguments: [
      ("H", 2, "1.0834", nil, "", #"<c r="H2"><v>1.0834</v></c>"#),
      ("XFD", 1_048_576, "-37587", nil, "x:", #"<x:c r="XFD1048576"><x:v>-37587</x:v></x:c>"#),
      ("AA", 10, "0", nil, "", #"<c r="AA10"><v>0</v></c>"#),
      ("I", 2, "45719", 7, "", #"<c r="I2" s="7"><v>45719</v></c>"#),
      ("G", 3, "6777.16", 0, "x:", #"<x:c r="G3" s="0"><x:v>6777.16</x:v></x:c>"#),
      ("G", 3, "6777.16", 123, "", #"<c r="G3" s="123"><v>6777.16</v></c>"#),
    ] as [(String, Int, String, Int?, String, String)])
  func numberCells(column: String, row: Int, text: String, style: Int?, prefix: String, expected: String) {
    let written = Self.markup {
      XLSXSheetRewriter.appendNumberCell(
        to: &$0, column: Array(column.utf8), row: row, text, style: style, prefix: Array(prefix.utf8))
    }
    #expect(written == expected)
  }

  @Test(arguments: [
    ("EUR", "", #"<c r="J2" t="inlineStr"><is><t>EUR</t></is></c>"#),
    ("ok", "x:", #"<x:c r="J2" t="inlineStr"><x:is><x:t>ok</x:t></x:is></x:c>"#),
    ("a<b & c>d", "", #"<c r="J2" t="inlineStr"><is><t>a&lt;b &amp; c&gt;d</t></is></c>"#),
    ("_x000D_ and __x", "", #"<c r="J2" t="inlineStr"><is><t>_x005F_x000D_ and __x005F_x</t></is></c>"#),
    ("_", "", #"<c r="J2" t="inlineStr"><is><t>_</t></is></c>"#),
    ("x_", "", #"<c r="J2" t="inlineStr"><is><t>x_</t></is></c>"#),
    (" lead", "", #"<c r="J2" t="inlineStr"><is><t xml:space="preserve"> lead</t></is></c>"#),
    ("trail\t", "", "<c r=\"J2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">trail\t</t></is></c>"),
    ("\u{A0}nbsp", "", "<c r=\"J2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">\u{A0}nbsp</t></is></c>"),
    ("e\u{301}", "", "<c r=\"J2\" t=\"inlineStr\"><is><t>e\u{301}</t></is></c>"),
    ("été €", "", "<c r=\"J2\" t=\"inlineStr\"><is><t>été €</t></is></c>"),
    ("a\u{2028}", "", "<c r=\"J2\" t=\"inlineStr\"><is><t xml:space=\"preserve\">a\u{2028}</t></is></c>"),
  ])
  func textCells(text: String, prefix: String, expected: String) {
    let written = Self.markup {
      XLSXSheetRewriter.appendTextCell(to: &$0, column: Array("J".utf8), row: 2, text, prefix: Array(prefix.utf8))
    }
    #expect(written == expected)
  }

  /// The byte-level shortcut of ``XLSXSheetRewriter/isSpacePreserved(_:)`` answers as `Character.isWhitespace`
  /// on the first and last characters does, for text made of every pair of a set of awkward scalars.
  @Test func spacePreservedAsCharactersSayIt() {
    let scalars: [Unicode.Scalar] = [
      "a", " ", "\t", "\n", "\r", "~", "!", "\u{7F}", "\u{85}", "\u{A0}", "\u{301}", "\u{600}", "\u{200D}",
      "\u{2028}", "\u{3000}", "\u{1F600}", "\u{FEFF}", "_",
    ]
    for first in scalars {
      for second in scalars {
        for third in [nil] + scalars.map(Optional.some) {
          var text = String(first) + String(second)
          if let third { text.unicodeScalars.append(third) }
          let expected = text.first?.isWhitespace == true || text.last?.isWhitespace == true
          #expect(XLSXSheetRewriter.isSpacePreserved(text) == expected, "\(Array(text.unicodeScalars))")
        }
      }
    }
    #expect(!XLSXSheetRewriter.isSpacePreserved(""))
  }

  @Test(arguments: [0, 1, 9, 10, 99, 100, 12_345, 1_048_576])
  func decimals(number: Int) {
    var buffer = ByteBuffer(capacity: 4)
    buffer.append(Array("kept".utf8))
    XLSXSheetRewriter.appendDecimal(number, to: &buffer)
    #expect(String(decoding: buffer.bytes, as: UTF8.self) == "kept" + String(number))
  }
}
