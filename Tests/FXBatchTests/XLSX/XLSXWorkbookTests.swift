import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The workbook structure (sheets, parts, date system) and the styles that make numbers dates.
@Suite("XLSX: workbook, styles, dates", .tags(.sanitized))
struct XLSXWorkbookTests {
  @Test(
    "the sheets and parts of real workbooks, found through their relationships",
    arguments: [("libreoffice.xlsx", "xl/sharedStrings.xml"), ("openpyxl.xlsx", nil)])
  func workbookStructure(name: String, sharedStrings: String?) throws {
    let workbook = try XLSXWorkbook.read(from: ZipPackage(path: Fixture.path("Workbooks", name)))
    #expect(workbook.entry == "xl/workbook.xml")
    // openpyxl's targets are absolute (/xl/worksheets/sheet1.xml), LibreOffice's relative (worksheets/sheet1.xml).
    #expect(
      workbook.sheets == [
        XLSXWorkbook.Sheet(name: "Payments", entry: "xl/worksheets/sheet1.xml"),
        XLSXWorkbook.Sheet(name: "Notes", entry: "xl/worksheets/sheet2.xml"),
      ])
    #expect(workbook.sharedStringsEntry == sharedStrings)
    #expect(workbook.stylesEntry == "xl/styles.xml")
    #expect(!workbook.usesDate1904)
  }

  /// The date styles of a real workbook: its cellXfs are General, a date (yyyy-mm-dd: LibreOffice writes
  /// `yyyy\-mm\-dd`, custom format 165; openpyxl `yyyy-mm-dd`, 164) and #,##0.00 (LibreOffice's custom 166,
  /// openpyxl's built-in 4).
  @Test(arguments: ["libreoffice.xlsx", "openpyxl.xlsx"])
  func dateStylesOfRealWorkbooks(name: String) throws {
    let package = try ZipPackage(path: Fixture.path("Workbooks", name))
    let styles = try XLSXStyles.read(from: package, entry: try #require(package.entry(named: "xl/styles.xml")))
    #expect(styles.dateStyles == [1])
  }

  @Test func aWorkbookWithOtherPartsAndThe1904System() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.path + "/book.xlsx"
    let workbook = #"""
      <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:rel="http://schemas.openxmlformats.org/officeDocument/2006/relationships">
      <workbookPr date1904="1"/><sheets><sheet name="Chart" sheetId="3" rel:id="c1"/><sheet name="Data" sheetId="1" rel:id="s1"/></sheets></workbook>
      """#
    let relationships = #"""
      <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
      <Relationship Id="c1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/>
      <Relationship Id="s1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="./worksheets/../worksheets/sheet2.xml"/>
      <Relationship Id="x" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/" TargetMode="External"/>
      </Relationships>
      """#
    try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx")).write(
      to: output,
      replacing: [
        ("xl/workbook.xml", .bytes(Array(workbook.utf8))), ("xl/_rels/workbook.xml.rels", .bytes(Array(relationships.utf8))),
      ])
    let read = try XLSXWorkbook.read(from: ZipPackage(path: output))
    #expect(
      read.sheets == [
        XLSXWorkbook.Sheet(name: "Chart", entry: nil), XLSXWorkbook.Sheet(name: "Data", entry: "xl/worksheets/sheet2.xml"),
      ])
    #expect(read.sharedStringsEntry == nil && read.stylesEntry == nil)
    #expect(read.usesDate1904)
  }

  @Test func partsThatAreMissing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try Fixture.path("Workbooks", "libreoffice.xlsx")
    let noRoot = directory.path + "/no-root.xlsx"
    let relationships = #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>"#
    try ZipPackage(path: input).write(to: noRoot, replacing: [("_rels/.rels", .bytes(Array(relationships.utf8)))])
    #expect(
      throws: WorkbookError.missingPart(path: noRoot, part: "workbook (no officeDocument relationship in _rels/.rels)")
    ) { try XLSXWorkbook.read(from: ZipPackage(path: noRoot)) }
    // An .ods package has no _rels/.rels at all.
    let ods = try Fixture.path("Workbooks", "libreoffice.ods")
    #expect(throws: WorkbookError.missingPart(path: ods, part: "workbook (no officeDocument relationship in _rels/.rels)")) {
      try XLSXWorkbook.read(from: ZipPackage(path: ods))
    }
    let noSheet = directory.path + "/no-sheet.xlsx"
    let sheetRelationship = #"""
      <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/missing.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>
      """#
    try ZipPackage(path: input).write(
      to: noSheet, replacing: [("xl/_rels/workbook.xml.rels", .bytes(Array(sheetRelationship.utf8)))])
    #expect(throws: WorkbookError.missingPart(path: noSheet, part: "xl/worksheets/missing.xml, the part of sheet Payments")) {
      try XLSXWorkbook.read(from: ZipPackage(path: noSheet))
    }
  }

  @Test(arguments: [
    ("worksheets/sheet1.xml", "xl/", "xl/worksheets/sheet1.xml"), ("/xl/styles.xml", "xl", "xl/styles.xml"),
    ("../customXml/item1.xml", "xl", "customXml/item1.xml"), ("xl/workbook.xml", "", "xl/workbook.xml"),
    ("./a/./b/../c.xml", "xl", "xl/a/c.xml"), ("a//b.xml", "xl", "xl/a/b.xml"), ("a/.../b.xml", "xl", "xl/a/.../b.xml"),
    ("a/..", "xl", "xl"), ("a/", "xl", "xl/a"), ("a/.b/c..xml", "xl", "xl/a/.b/c..xml"),
  ])
  func relationshipTargets(target: String, folder: String, entry: String) {
    #expect(XLSXWorkbook.resolve(target, from: folder) == entry)
  }

  @Test(arguments: [
    ("yyyy-mm-dd", true), (#"yyyy\-mm\-dd"#, true), ("d-mmm-yy", true), ("mmm yyyy", true), ("dd/mm/yyyy hh:mm", true),
    ("[$-409]mmmm d, yyyy;@", true), ("[Red]dd.mm.yy", true), ("mmmm", true), ("General", false), ("#,##0.00", false),
    ("h:mm", false), ("hh:mm:ss", false), ("[h]:mm", false), ("mm:ss", false), (#""day" 0"#, false),
    (#"0.00\d"#, false), (#"_(* #,##0.00_);_(* \(#,##0.00\)"#, false), ("0;[Red]-0;\"d\"", false), ("@", false),
  ])
  func customDateFormats(code: String, isDate: Bool) {
    #expect(XLSXStyles.isDateFormat(code: code) == isDate)
  }

  @Test(arguments: [
    // 1900 system. Serial 1 is 1900-01-01; 59 is 1900-02-28; 61 is 1900-03-01 (60 is Excel's 1900-02-29).
    // 2024-01-01 is 45292 (the days since 1899-12-30: 124 years of 365 days, and 31 leap days from 1904 to 2020),
    // so 2024-01-15 is 45306 and 2024-02-29 is 45292 + 31 + 28 = 45351.
    (XLSXDateSystem.from1900, "1", "1900-01-01"), (.from1900, "59", "1900-02-28"), (.from1900, "61", "1900-03-01"),
    (.from1900, "45306", "2024-01-15"), (.from1900, "45306.75", "2024-01-15"), (.from1900, "45351", "2024-02-29"),
    (.from1900, "2958465", "9999-12-31"),
    // 1904 system: serial 0 is 1904-01-01; it is 1462 days behind the 1900 system's serials.
    (.from1904, "0", "1904-01-01"), (.from1904, "43844", "2024-01-15"), (.from1904, "0000012", "1904-01-13"),
  ])
  func serialDays(system: XLSXDateSystem, serial: String, day: String) {
    #expect(system.day(ofSerial: serial)?.description == day)
  }

  @Test(arguments: [
    (XLSXDateSystem.from1900, "0"), (.from1900, "60"), (.from1900, "2958466"), (.from1900, "-1"), (.from1900, "4.5306E4"),
    (.from1900, ""), (.from1900, ".5"), (.from1900, "45306."), (.from1900, "45306.x"), (.from1904, "-1"),
    (.from1904, "12345678"), (.from1900, "45306.5.5"), (.from1900, "4530\u{301}6"), (.from1900, "45306.\u{301}5"),
    (.from1900, "\u{661}\u{662}"), (.from1900, "+45306"), (.from1900, " 45306"), (.from1904, "00000012"),
  ])
  func notSerialDays(system: XLSXDateSystem, serial: String) {
    #expect(system.day(ofSerial: serial) == nil)
  }
}
