import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The cells of `.xlsx` sheets: real workbooks (`Fixtures/Workbooks/`), and sheets written into a copy of one.
@Suite("XLSX: shared strings and sheet cells", .tags(.sanitized))
struct XLSXSheetReaderTests {
  static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

  /// Every row of a workbook's sheet.
  static func rows(_ path: String, sheet: String = "xl/worksheets/sheet1.xml") throws -> [SheetRow] {
    let package = try ZipPackage(path: path)
    let strings =
      try package.entry(named: "xl/sharedStrings.xml").map { try XLSXSharedStrings.read(from: package, entry: $0) }
      ?? XLSXSharedStrings(strings: [])
    let reader = try XLSXSheetReader(
      package: package, entry: try #require(package.entry(named: sheet)), sharedStrings: strings)
    var rows: [SheetRow] = []
    while let row = try reader.nextRow() { rows.append(row) }
    return rows
  }

  /// The rows of a sheet whose `<sheetData>` is `data`, in a copy of `libreoffice.xlsx` (whose shared strings
  /// are date, amount, currency, note, USD, …).
  static func rows(sheetData data: String, in directory: TemporaryDirectory) throws -> [SheetRow] {
    let sheet =
      #"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="\#(main)"><sheetData>"# + data
      + "</sheetData></worksheet>"
    return try rows(replacingSheetWith: Array(sheet.utf8), in: directory)
  }

  static func rows(replacingSheetWith sheet: [UInt8], in directory: TemporaryDirectory) throws -> [SheetRow] {
    let path = directory.path + "/book-\(UUID().uuidString).xlsx"
    try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx"))
      .write(to: path, replacing: [("xl/worksheets/sheet1.xml", .bytes(sheet))])
    return try rows(path)
  }

  static func cell(_ reference: String, _ value: SheetCellValue, style: Int = 0) throws -> SheetCell {
    SheetCell(reference: try #require(CellReference(reference)), style: style, value: value)
  }

  @Test func theSharedStringsOfALibreOfficeWorkbook() throws {
    let package = try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx"))
    let strings = try XLSXSharedStrings.read(
      from: package, entry: try #require(package.entry(named: "xl/sharedStrings.xml")))
    // In the order LibreOffice meets them: the header, then each row's currency and note (make_workbooks.py); the
    // note of the last row is two runs, "Formula, " and a bold "bold".
    #expect(
      strings.strings == [
        "date", "amount", "currency", "note", "USD", "Invoice 17", "GBP", "Leap day", "JPY", "Tokyo office", "EUR",
        "Formula, bold", "Prepared for the fxbatch tests",
      ])
  }

  @Test func theCellsOfALibreOfficeWorkbook() throws {
    let rows = try Self.rows(Fixture.path("Workbooks", "libreoffice.xlsx"))
    #expect(rows.map(\.number) == [1, 2, 3, 4, 5])
    #expect(
      rows[0].cells == [
        try Self.cell("A1", .text("date")), try Self.cell("B1", .text("amount")), try Self.cell("C1", .text("currency")),
        try Self.cell("D1", .text("note")),
      ])
    // Dates are serial numbers in the 1900 system: 2024-01-01 is 45292 (the days since 1899-12-30), so
    // 2024-01-15 is 45306 and 2024-03-31 is 45292 + 31 + 29 + 30 = 45382; style 1 formats them as dates and
    // style 2 as #,##0.00.
    #expect(
      rows[1].cells == [
        try Self.cell("A2", .number("45306"), style: 1), try Self.cell("B2", .number("1234.56"), style: 2),
        try Self.cell("C2", .text("USD")), try Self.cell("D2", .text("Invoice 17")),
      ])
    #expect(rows[2].cells[1] == (try Self.cell("B3", .number("99.5"), style: 2)))
    // The formula =B2*2 with LibreOffice's cached value.
    #expect(
      rows[4].cells == [
        try Self.cell("A5", .number("45382"), style: 1), try Self.cell("B5", .number("2469.12"), style: 2),
        try Self.cell("C5", .text("EUR")), try Self.cell("D5", .text("Formula, bold")),
      ])
    let notes = try Self.rows(Fixture.path("Workbooks", "libreoffice.xlsx"), sheet: "xl/worksheets/sheet2.xml")
    #expect(notes.map(\.cells) == [[try Self.cell("A1", .text("Prepared for the fxbatch tests"))]])
  }

  @Test func theCellsOfAnOpenpyxlWorkbook() throws {
    let rows = try Self.rows(Fixture.path("Workbooks", "openpyxl.xlsx"))
    #expect(rows.count == 5)
    #expect(rows[1].cells.map(\.value) == [.number("45306"), .number("1234.56"), .text("USD"), .text("Invoice 17")])
    // openpyxl computes nothing: the formula has no cached value. Its note is an inline string of two runs.
    #expect(
      rows[4].cells.map(\.value) == [
        .number("45382"), .formulaWithoutValue(formula: "B2*2"), .text("EUR"), .text("Formula, bold"),
      ])
  }

  @Test func sparseRowsAndCellsArePlacedByTheirReferences() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = try Self.rows(
      sheetData: #"""
        <row r="3"><c r="B3"><v>1</v></c><c r="E3" t="b"><v>1</v></c><c r="AA3" t="b"><v>0</v></c></row>
        <row r="7" spans="1:1"><c r="A7" t="e"><v>#N/A</v></c></row><row r="8"/>
        <row><c><v>2</v></c><c t="str"><v>x_x000D_y</v></c><c r="E9" s="4"/></row>
        """#, in: directory)
    #expect(rows.map(\.number) == [3, 7, 8, 9])
    #expect(
      rows.map(\.cells) == [
        [try Self.cell("B3", .number("1")), try Self.cell("E3", .boolean(true)), try Self.cell("AA3", .boolean(false))],
        [try Self.cell("A7", .error("#N/A"))],
        [],
        [try Self.cell("A9", .number("2")), try Self.cell("B9", .text("x\ry")), try Self.cell("E9", .empty, style: 4)],
      ])
  }

  @Test func numbersKeepTheirDecimalTextAndStringsTheirRuns() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = try Self.rows(
      sheetData: #"""
        <row r="1"><c r="A1"><v>0.1</v></c><c r="B1" t="n"><v>1.0000000000000002</v></c><c r="C1"><v>1E-3</v></c>
        <c r="D1"><v>-1234567890.123456789</v></c><c r="E1" t="s"><v>5</v></c>
        <c r="F1" t="inlineStr"><is><r><t>Tok</t></r><r><rPr><b/></rPr><t xml:space="preserve">yo </t></r><rPh sb="0" eb="1"><t>トウキョウ</t></rPh></is></c>
        <c r="G1"><f>SUM(A1:D1)</f><v></v></c><c r="H1" t="str"><f>"a"&amp;"b"</f><v>ab</v></c><c r="I1" t="d"><v>2024-01-15T00:00:00</v></c></row>
        """#, in: directory)
    #expect(
      rows.first?.cells.map(\.value) == [
        .number("0.1"), .number("1.0000000000000002"), .number("1E-3"), .number("-1234567890.123456789"),
        .text("Invoice 17"), .text("Tokyo "), .formulaWithoutValue(formula: "SUM(A1:D1)"), .text("ab"),
        .date("2024-01-15T00:00:00"),
      ])
  }

  @Test func prefixedElementsAreRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let sheet =
      #"<x:worksheet xmlns:x="\#(Self.main)"><x:sheetData><x:row r="1"><x:c r="A1" t="s"><x:v>4</x:v></x:c></x:row>"#
      + "</x:sheetData></x:worksheet>"
    let rows = try Self.rows(replacingSheetWith: Array(sheet.utf8), in: directory)
    #expect(rows.map(\.cells) == [[try Self.cell("A1", .text("USD"))]])
  }

  @Test func aLargeSheetStreamsThroughManyChunks() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let count = 20_000
    var data = ""
    for row in 1...count {
      data += #"<row r="\#(row)"><c r="A\#(row)"><v>\#(row).25</v></c><c r="C\#(row)" t="s"><v>4</v></c></row>"#
    }
    let rows = try Self.rows(sheetData: data, in: directory)
    #expect(rows.count == count)
    #expect(rows.last?.cells == [try Self.cell("A20000", .number("20000.25")), try Self.cell("C20000", .text("USD"))])
    #expect(rows.allSatisfy { $0.cells.map(\.value) == [.number("\($0.number).25"), .text("USD")] })
  }

  @Test(arguments: [
    (#"<row r="2"/><row r="2"/>"#, "row number 2 is not a row after the one before it (1 to 1048576)"),
    (#"<row r="1048577"/>"#, "row number 1048577 is not a row after the one before it (1 to 1048576)"),
    (#"<row r="x"/>"#, "row number x is not a row after the one before it (1 to 1048576)"),
    (#"<row r="1"><c r="A2"><v>1</v></c></row>"#, "cell reference A2: not in row 1"),
    (#"<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>1</v></c></row>"#, "cell reference A1: not after the cell before it"),
    (#"<row r="1"><c r="A1"><v>1</v></c><c r="A1"><v>2</v></c></row>"#, "cell reference A1: not after the cell before it"),
    (#"<row r="1"><c r="a1"><v>1</v></c></row>"#, "cell reference a1: not a cell (A1 to XFD1048576)"),
    (#"<row r="1"><c r="A1" t="s"><v>13</v></c></row>"#, "cell A1 refers to shared string 13, which the workbook does not have"),
    (#"<row r="1"><c r="A1" t="s"><v>-1</v></c></row>"#, "cell A1 refers to shared string -1, which the workbook does not have"),
    // A type no sheet has: its value is not read as a number (" s" would have been a shared string's index).
    (
      #"<row r="1"><c r="A1" t=" s"><v>3</v></c></row>"#,
      #"cell A1 has the type " s", which is none of a sheet's (b, d, e, inlineStr, n, s, str)"#
    ),
    (
      #"<row r="1"><c r="A1" t="S"><v>3</v></c></row>"#,
      #"cell A1 has the type "S", which is none of a sheet's (b, d, e, inlineStr, n, s, str)"#
    ),
    (
      #"<row r="1"><c r="A1" t=""><v>3</v></c></row>"#,
      #"cell A1 has the type "", which is none of a sheet's (b, d, e, inlineStr, n, s, str)"#
    ),
    (
      #"<row r="1"><c r="A1" t="x"><f>1+2</f><v>3</v></c></row>"#,
      #"cell A1 has the type "x", which is none of a sheet's (b, d, e, inlineStr, n, s, str)"#
    ),
  ])
  func misplacedRowsAndCells(data: String, message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    do {
      _ = try Self.rows(sheetData: data, in: directory)
      Issue.record("no error for \(data)")
    } catch let error as WorkbookError {
      #expect(error.description.hasSuffix("xl/worksheets/sheet1.xml:1: " + message), "\(error)")
    }
  }

  /// The values of numbers, shared-string indexes, booleans and typed dates are XML Schema values, whose white
  /// space collapses; text keeps its white space.
  @Test func whiteSpaceAroundValuesThatAreNotText() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = try Self.rows(
      sheetData: #"<row r="1"><c r="A1"><v> 389.9 </v></c><c r="B1" t="s"><v>\#n4\#t</v></c><c r="C1" t="b"><v> 1 </v></c>"#
        + #"<c r="D1" t="d"><v> 2024-03-08 </v></c><c r="E1" t="str"><v> x </v></c><c r="F1" t="n"><v>  </v></c></row>"#,
      in: directory)
    #expect(
      rows == [
        SheetRow(
          number: 1,
          cells: [
            try Self.cell("A1", .number("389.9")), try Self.cell("B1", .text("USD")), try Self.cell("C1", .boolean(true)),
            try Self.cell("D1", .date("2024-03-08")), try Self.cell("E1", .text(" x ")), try Self.cell("F1", .empty),
          ])
      ])
  }

  /// A cell of an unknown type with no value has nothing to misread: it is empty, as any cell without a value.
  @Test func anUnknownTypeWithoutAValueIsEmpty() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = try Self.rows(
      sheetData: #"<row r="1"><c r="A1" t="x"/><c r="B1" t="x"><v></v></c><c r="C1" t="n"><v>7</v></c></row>"#, in: directory)
    #expect(
      rows == [
        SheetRow(number: 1, cells: [try Self.cell("A1", .empty), try Self.cell("B1", .empty), try Self.cell("C1", .number("7"))])
      ])
  }

  @Test func malformedAndHostileSheets() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    #expect {
      try Self.rows(replacingSheetWith: Array("<worksheet><sheetData>\n<row r=\"1\"></sheetData>".utf8), in: directory)
    } throws: { error in
      guard case .malformedXML(_, "xl/worksheets/sheet1.xml", 2, _, let message) = error as? WorkbookError else { return false }
      return message.contains("Opening and ending tag mismatch")
    }
    let laughs = #"<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaa">]><worksheet>&a;</worksheet>"#
    #expect {
      try Self.rows(replacingSheetWith: Array(laughs.utf8), in: directory)
    } throws: { error in
      guard case .package(.documentTypeDeclaration(_, "xl/worksheets/sheet1.xml")) = error as? WorkbookError else {
        return false
      }
      return true
    }
  }

  @Test(arguments: [
    ("A1", 0, 1), ("Z9", 25, 9), ("AA10", 26, 10), ("AZ1", 51, 1), ("BA1", 52, 1), ("ZZ1", 701, 1), ("AAA1", 702, 1),
    ("XFD1048576", 16383, 1_048_576),
  ])
  func cellReferences(text: String, column: Int, row: Int) throws {
    let reference = try #require(CellReference(text))
    #expect(reference.column == column && reference.row == row)
    #expect(reference.description == text)
  }

  @Test(arguments: ["", "A", "1", "a1", "A0", "A01", "XFE1", "A1048577", "$A$1", "AAAA1", "A1B", "A 1", "A12345678"])
  func notCellReferences(text: String) {
    #expect(CellReference(text) == nil)
  }

  @Test func everyColumnsLettersReadBack() {
    for column in 0..<CellReference.columnCount {
      #expect(CellReference("\(CellReference.letters(ofColumn: column))1")?.column == column)
    }
  }

  @Test(arguments: [
    ("a_x000D_b", "a\rb"), ("_x005F_x000D_", "_x000D_"), ("_xD83D__xDE00_", "😀"), ("_xD83D_", "_xD83D_"),
    ("_x00G1_", "_x00G1_"), ("_x00e9_t_x00E9_", "été"), ("no escapes_x", "no escapes_x"),
  ])
  func escapedCharacters(text: String, unescaped: String) {
    #expect(XLSXText.unescaped(text) == unescaped)
  }
}
