import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The cell styles fxbatch adds to a workbook for its fx_* cells, and the date serials of `fx_rate_date`.
@Suite("XLSX annotation styles")
struct XLSXAnnotationStylesTests {
  /// The styles part of a fixture workbook.
  static func stylesPart(of fixture: String) throws -> [UInt8] {
    let package = try ZipPackage(path: try Fixture.path("Workbooks", fixture))
    let name = try #require(try XLSXWorkbook.read(from: package).stylesEntry)
    return try package.contents(ofEntryNamed: name)
  }

  /// Reads a styles part the way a conversion does (libxml2, in a copy of `openpyxl.xlsx`), so that a part
  /// that is not well-formed fails the test.
  static func read(_ part: [UInt8]) throws -> XLSXStyles {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/book.xlsx"
    try ZipPackage(path: try Fixture.path("Workbooks", "openpyxl.xlsx")).write(
      to: path, replacing: [("xl/styles.xml", .bytes(part))])
    let package = try ZipPackage(path: path)
    return try XLSXStyles.read(from: package, entry: try #require(package.entry(named: "xl/styles.xml")))
  }

  /// The number format code of each cell style of a part, in order (`General` for id 0, the built-in `0` and
  /// `0.00` for ids 1 and 2, custom codes from `<numFmts>`).
  static func formatCodes(of part: [UInt8]) throws -> [String] {
    let text = String(decoding: part, as: UTF8.self)
    var custom: [String: String] = ["0": "General", "1": "0", "2": "0.00", "4": "#,##0.00", "14": "mm-dd-yy"]
    for match in text.matches(of: /<(?:\w+:)?numFmt numFmtId="(\d+)" formatCode="([^"]*)"/) {
      custom[String(match.1)] = String(match.2)
    }
    let cellXfs = try #require(text.firstMatch(of: /<(?:\w+:)?cellXfs[^>]*>(.*?)<\/(?:\w+:)?cellXfs>/)?.1)
    return cellXfs.matches(of: /<(?:\w+:)?xf [^>]*?numFmtId="(\d+)"/).map { custom[String($0.1)] ?? "?\($0.1)" }
  }

  static let minimal = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font/></fonts>\
    <fills count="1"><fill/></fills><borders count="1"><border/></borders><cellXfs count="1"><xf numFmtId="0" \
    fontId="0" fillId="0" borderId="0"/></cellXfs></styleSheet>
    """

  /// Styles parts as LibreOffice and openpyxl write them, and hand-made ones: without `<numFmts>`, with an empty
  /// `<numFmts/>`, with a namespace prefix, without `count` attributes. Each gets a `0`, `0.00`, `0.000`,
  /// `0.0000` and a date style after its own, every existing style keeping its index and format.
  @Test(arguments: [
    ("libreoffice.xlsx", ""), ("openpyxl.xlsx", ""), ("", minimal),
    ("", minimal.replacing("<fonts", with: "<numFmts count=\"0\"/><fonts")),
    (
      "",
      minimal.replacing("<styleSheet xmlns=", with: "<x:styleSheet xmlns:x=").replacing("<", with: "<x:")
        .replacing("<x:/", with: "</x:").replacing("<x:?", with: "<?").replacing("<x:x:", with: "<x:")
    ),
    ("", minimal.replacing(" count=\"1\"", with: "")),
  ])
  func stylesAreAddedAfterTheWorkbooksOwn(fixture: String, part: String) throws {
    let before = fixture.isEmpty ? Array(part.utf8) : try Self.stylesPart(of: fixture)
    let (after, styles) = try #require(XLSXAnnotationStyles.adding(to: before))
    let old = try Self.formatCodes(of: before)
    let new = try Self.formatCodes(of: after)
    #expect(Array(new.prefix(old.count)) == old)
    #expect(new.count == old.count + 5)
    #expect(styles.amounts == [0: old.count, 2: old.count + 1, 3: old.count + 2, 4: old.count + 3])
    #expect(styles.date == old.count + 4)
    for (decimals, index) in styles.amounts {
      #expect(new[index] == (decimals == 0 ? "0" : "0." + String(repeating: "0", count: decimals)))
    }
    #expect(new[old.count + 4] == "yyyy-mm-dd")
    // libxml2 reads the new part, and finds the new date style (and the workbook's own) a date.
    let read = try Self.read(after)
    #expect(read.dateStyles == (try Self.read(before)).dateStyles.union([old.count + 4]))
    // The counts say how many there are now.
    let text = String(decoding: after, as: UTF8.self)
    if text.contains("cellXfs count=") { #expect(text.contains("cellXfs count=\"\(new.count)\"")) }
    let formats = text.matches(of: #/<(?:\w+:)?numFmt /#).count
    #expect(text.contains("numFmts count=\"\(formats)\""))
  }

  /// The new number formats take the lowest free ids from 164, however large the workbook's own are: a copy
  /// with ids past 4294967295 (the largest readers accept) does not open in openpyxl.
  @Test func newFormatsTakeTheLowestFreeIds() throws {
    let part = Self.minimal.replacing(
      "<fonts",
      with: #"<numFmts count="3"><numFmt numFmtId="4294967295" formatCode="0.0"/><numFmt numFmtId="164" "#
        + #"formatCode="0.0"/><numFmt numFmtId="166" formatCode="0.0"/></numFmts><fonts"#)
    let (after, _) = try #require(XLSXAnnotationStyles.adding(to: Array(part.utf8)))
    let text = String(decoding: after, as: UTF8.self)
    let ids = text.matches(of: #/numFmtId="(\d+)" formatCode/#).map { String($0.1) }
    #expect(ids == ["4294967295", "164", "166", "165", "167", "168"])
    #expect(text.contains(#"<numFmt numFmtId="168" formatCode="yyyy-mm-dd"/>"#))
  }

  /// A styles part without `<cellXfs>` (or with no style in it) has no default style to copy: no styles, and the
  /// conversion writes `fx_rate_date` as text.
  @Test func aPartWithoutCellStylesGetsNone() {
    #expect(XLSXAnnotationStyles.adding(to: Array(Self.minimal.replacing(#/<cellXfs.*<\/cellXfs>/#, with: "").utf8)) == nil)
    #expect(
      XLSXAnnotationStyles.adding(to: Array(Self.minimal.replacing(#/<cellXfs.*<\/cellXfs>/#, with: "<cellXfs/>").utf8))
        == nil)
  }

  /// Serials and days agree both ways in both date systems; the 1900 system has no serial for its days before
  /// 1900-03-01 (serial 60 is the 1900-02-29 that never was).
  @Test func serialsOfDays() throws {
    for system in [XLSXDateSystem.from1900, .from1904] {
      let first = try #require(
        system == .from1900 ? CalendarDay(year: 1900, month: 3, day: 1) : CalendarDay(year: 1904, month: 1, day: 1))
      for offset in stride(from: 0, through: 3_000_000, by: 997) {
        let day = first.adding(days: offset)
        guard day <= (try #require(CalendarDay(year: 9999, month: 12, day: 31))) else { break }
        let serial = try #require(system.serial(of: day))
        #expect(system.day(ofSerial: String(serial)) == day)
      }
      #expect(system.serial(of: first.adding(days: -1)) == nil)
    }
    #expect(XLSXDateSystem.from1900.serial(of: try #require(CalendarDay(year: 1900, month: 3, day: 1))) == 61)
    #expect(XLSXDateSystem.from1900.serial(of: try #require(CalendarDay(year: 2024, month: 1, day: 15))) == 45306)
    #expect(XLSXDateSystem.from1904.serial(of: try #require(CalendarDay(year: 2024, month: 1, day: 15))) == 43844)
  }
}

/// The fx_rate_date cell in workbooks of the 1904 date system and in workbooks without a styles part.
@Suite("fxbatch end to end: XLSX date cells")
struct EndToEndXLSXDateCellTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let sheet = """
    <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">\
    <c r="A1" t="inlineStr"><is><t>amount</t></is></c><c r="B1" t="inlineStr"><is><t>from</t></is></c>\
    <c r="C1" t="inlineStr"><is><t>to</t></is></c></row><row r="2"><c r="A2"><v>100</v></c><c r="B2" t="inlineStr">\
    <is><t>EUR</t></is></c><c r="C2" t="inlineStr"><is><t>USD</t></is></c></row></sheetData></worksheet>
    """

  /// Converts a copy of `openpyxl.xlsx` with this sheet and other parts replaced, `--date 2024-01-15`, and
  /// returns the converted sheet's XML.
  func convertedSheet(replacing parts: [(String, String)]) throws -> String {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try ZipPackage(path: try Fixture.path("Workbooks", "openpyxl.xlsx")).write(
      to: directory.path + "/book.xlsx",
      replacing: ([("xl/worksheets/sheet1.xml", Self.sheet)] + parts).map { ($0.0, .bytes(Array($0.1.utf8))) })
    let result = try cli.run(["convert", "--date", "2024-01-15", "book.xlsx"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    return String(
      decoding: try ZipPackage(path: directory.path + "/book.converted.xlsx").contents(
        ofEntryNamed: "xl/worksheets/sheet1.xml"), as: UTF8.self)
  }

  /// 2024-01-15 is serial 45306 in the 1900 system and 43844 in the 1904 system (`<workbookPr date1904="1"/>`).
  @Test func theRateDateIsASerialOfTheWorkbooksDateSystem() throws {
    let workbook = String(
      decoding: try ZipPackage(path: try Fixture.path("Workbooks", "openpyxl.xlsx")).contents(ofEntryNamed: "xl/workbook.xml"),
      as: UTF8.self)
    #expect(try convertedSheet(replacing: []).contains(#"<c r="G2" s="7"><v>45306</v></c>"#))
    let from1904 = workbook.replacing("<workbookPr />", with: "<workbookPr date1904=\"1\" />")
    #expect(from1904 != workbook)
    #expect(try convertedSheet(replacing: [("xl/workbook.xml", from1904)]).contains(#"<c r="G2" s="7"><v>43844</v></c>"#))
  }

  /// A workbook whose relationships name no styles part: the fx cells have no styles and the rate date is text.
  @Test func withoutAStylesPartTheRateDateIsText() throws {
    let relationships = String(
      decoding: try ZipPackage(path: try Fixture.path("Workbooks", "openpyxl.xlsx")).contents(
        ofEntryNamed: "xl/_rels/workbook.xml.rels"), as: UTF8.self)
    let withoutStyles = relationships.replacing(/<Relationship [^>]*styles[^>]*\/>/, with: "")
    #expect(withoutStyles != relationships)
    let sheet = try convertedSheet(replacing: [("xl/_rels/workbook.xml.rels", withoutStyles)])
    #expect(sheet.contains(#"<c r="E2"><v>109.45</v></c>"#))
    #expect(sheet.contains(#"<c r="G2" t="inlineStr"><is><t>2024-01-15</t></is></c>"#))
  }
}
