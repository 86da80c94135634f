import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 30's `.xlsx` amplification: a 1 MB workbook declaring 100,000 sheets and relationships took over 30 s
/// (each sheet's `r:id` was looked up in a list of the relationships); 2 MB over 120 s. And what `.ods` repeated
/// rows did, looked for in `.xlsx`: a sheet's cells are each written out, so far references (a row 1048576 after
/// row 2, a `<dimension>` of the whole grid) cost nothing, and the cells to write are bounded as an `.ods`'s are
/// (``WorkbookRecords/cellLimit``).
@Suite("XLSX: sheet lookups and far references")
struct XLSXAmplificationTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// `libreoffice.xlsx` with some parts replaced, in `directory` as `name`.
  static func workbook(replacing parts: [(String, String)], named name: String, in directory: TemporaryDirectory)
    throws
  {
    try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.xlsx")).write(
      to: directory.path + "/" + name, replacing: parts.map { ($0.0, .bytes(Array($0.1.utf8))) })
  }

  static let relationshipsNamespace = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

  /// The fixture's first sheet, and the relationships to its part, its styles and its shared strings.
  static let firstSheet = #"<sheet name="Payments" sheetId="1" r:id="rId2"/>"#
  static let firstRelationships =
    #"<Relationship Id="rId1" Type="\#(relationshipsNamespace)/styles" Target="styles.xml"/>"#
    + #"<Relationship Id="rId2" Type="\#(relationshipsNamespace)/worksheet" Target="worksheets/sheet1.xml"/>"#
    + #"<Relationship Id="rId4" Type="\#(relationshipsNamespace)/sharedStrings" Target="sharedStrings.xml"/>"#

  /// A worksheet relationship to the fixture's second sheet's part.
  static func worksheetRelationship(_ id: String) -> String {
    #"<Relationship Id="\#(id)" Type="\#(relationshipsNamespace)/worksheet" Target="worksheets/sheet2.xml"/>"#
  }

  /// `book.xlsx` in `directory`: the fixture with a workbook part of `sheets` and its relationships part of
  /// `relationships`.
  static func book(sheets: String, relationships: String, in directory: TemporaryDirectory) throws {
    try workbook(
      replacing: [
        ("xl/workbook.xml", workbookPart(sheets: sheets)), ("xl/_rels/workbook.xml.rels", relationshipsPart(relationships)),
      ], named: "book.xlsx", in: directory)
  }

  /// A workbook relationships part of `relationships`.
  static func relationshipsPart(_ relationships: String) -> String {
    #"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\#(relationships)</Relationships>"#
  }

  /// 100,000 sheets after the first, each with its relationship (to the second sheet's part): found by
  /// dictionary, the workbook converts in seconds (a debug build on a loaded machine).
  @Test func aHundredThousandSheetsAreLookedUpByDictionary() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let count = 100_000
    var (sheets, relationships) = (Self.firstSheet, Self.firstRelationships)
    for index in 0..<count {
      sheets += #"<sheet name="S\#(index)" sheetId="\#(index + 10)" r:id="rId\#(index + 10)"/>"#
      relationships += Self.worksheetRelationship("rId\(index + 10)")
    }
    try Self.book(sheets: sheets, relationships: relationships, in: directory)
    #expect(try FileManager.default.attributesOfItem(atPath: directory.path + "/book.xlsx")[.size] as? Int ?? 0 > 500_000)
    let workbook = try XLSXWorkbook.read(from: ZipPackage(path: directory.path + "/book.xlsx"))
    #expect(workbook.sheets.count == count + 1)
    #expect(workbook.sheets.first == XLSXWorkbook.Sheet(name: "Payments", entry: "xl/worksheets/sheet1.xml"))
    #expect(workbook.sheets.last == XLSXWorkbook.Sheet(name: "S\(count - 1)", entry: "xl/worksheets/sheet2.xml"))
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--to", "EUR", directory.path + "/book.xlsx"], in: directory.url,
      environment: cli.environment, timeLimit: 60)
    #expect(!run.timedOut)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("4 records"))
    // Over 30 s before; about 2.6 s now (it reads the workbook part twice).
    #expect(run.seconds < 20, "took \(run.seconds) s")
    // A sheet that is not there lists the first 12 of the 100,001, not all of them.
    let missing = try cli.run(["convert", "--to", "EUR", "--sheet", "Nowhere", "book.xlsx"], in: directory.url)
    #expect(missing.status == 2)
    #expect(
      missing.standardError.contains(
        #"the workbook has no such sheet (its sheets: "Payments", "S0", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", … (100001 sheets))"#
      ), "\(missing.standardError)")
  }

  /// A million worksheet relationships in a 2.9 MB package took 440 MB to read (a few hundred bytes each), and
  /// more sheets the same: past ``XLSXWorkbook/maximumDeclarations`` the file is refused as it is read.
  @Test(arguments: ["relationships", "sheets"])
  func tooManyDeclarationsAreRefusedAsTheyAreRead(_ what: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let count = 1_000_000
    var (sheets, relationships) = (Self.firstSheet, Self.firstRelationships)
    if what == "sheets" {
      relationships += Self.worksheetRelationship("rId9")
      for index in 0..<count { sheets += #"<sheet name="S\#(index)" sheetId="\#(index + 10)" r:id="rId9"/>"# }
    } else {
      for index in 0..<count {
        relationships += Self.worksheetRelationship("rId\(index + 10)")
      }
    }
    try Self.book(sheets: sheets, relationships: relationships, in: directory)
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--to", "EUR", directory.path + "/book.xlsx"], in: directory.url,
      environment: cli.environment, timeLimit: 60)
    #expect(!run.timedOut)
    #expect(run.status == 2)
    let part = what == "sheets" ? "xl/workbook.xml" : "xl/_rels/workbook.xml.rels"
    #expect(
      run.standardError.contains(
        "error: \(part): more than 200,000 \(what); the file is refused so that memory stays bounded"),
      "\(run.standardError)")
    // 440 MB for the relationships before; the 200,000 read before the refusal cost under 100 MB.
    #expect(run.peakResidentKiB < 150 << 10, "peak \(run.peakResidentKiB) KiB")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/book.converted.xlsx"))
  }

  /// A relationship id given twice: the first worksheet relationship of the id is the sheet's, as before.
  @Test func theFirstWorksheetRelationshipOfAnIdIsTheSheets() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Self.workbook(
      replacing: [
        (
          "xl/_rels/workbook.xml.rels",
          #"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
            + #"<Relationship Id="rId2" Type="\#(Self.relationshipsNamespace)/styles" Target="styles.xml"/>"#
            + #"<Relationship Id="rId2" Type="\#(Self.relationshipsNamespace)/worksheet" Target="worksheets/sheet2.xml"/>"#
            + #"<Relationship Id="rId2" Type="\#(Self.relationshipsNamespace)/worksheet" Target="worksheets/sheet1.xml"/>"#
            + #"<Relationship Id="rId3" Type="\#(Self.relationshipsNamespace)/worksheet" Target="worksheets/sheet1.xml"/>"#
            + "</Relationships>"
        )
      ], named: "book.xlsx", in: directory)
    let workbook = try XLSXWorkbook.read(from: ZipPackage(path: directory.path + "/book.xlsx"))
    #expect(
      workbook.sheets == [
        XLSXWorkbook.Sheet(name: "Payments", entry: "xl/worksheets/sheet2.xml"),
        XLSXWorkbook.Sheet(name: "Notes", entry: "xl/worksheets/sheet1.xml"),
      ])
  }

  /// `libreoffice.xlsx`'s workbook part with `sheets` as its sheets.
  static func workbookPart(sheets: String) -> String {
    #"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="\#(relationshipsNamespace)"><sheets>\#(sheets)</sheets></workbook>"#
  }

  /// A sheet whose `r:id` names no relationship (or that has none) is a damaged workbook, not a chart sheet
  /// (whose `r:id` names a chartsheet relationship): it was refused as "a chart sheet, not a worksheet".
  @Test(arguments: [#"r:id="rId9""#, ""])
  func aSheetWhoseIdNamesNoRelationshipIsADamagedWorkbook(idAttribute: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let sheets = #"<sheet name="Payments" sheetId="1" \#(idAttribute)/><sheet name="Notes" sheetId="2" r:id="rId3"/>"#
    try Self.workbook(replacing: [("xl/workbook.xml", Self.workbookPart(sheets: sheets))], named: "book.xlsx", in: directory)
    let path = directory.path + "/book.xlsx"
    let id = idAttribute.isEmpty ? "" : "rId9"
    #expect(
      throws: WorkbookError.missingPart(path: path, part: "relationship \"\(id)\" of sheet \"Payments\" in workbook.xml.rels")
    ) { try XLSXWorkbook.read(from: ZipPackage(path: path)) }
    let run = try cli.run(["convert", "--to", "EUR", "book.xlsx"], in: directory.url)
    #expect(run.status == 2)
    #expect(run.standardError.contains("the package has no relationship"), "\(run.standardError)")
    #expect(!run.standardError.contains("chart sheet"), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/book.converted.xlsx"))
  }

  /// Two sheets whose relationships lead to one part: converting one rewrote the part, so the other sheet got the
  /// fx columns too. The sheet is refused; a sheet with a part of its own still converts.
  @Test func aSheetSharingItsPartWithAnotherIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let sheets =
      #"<sheet name="Payments" sheetId="1" r:id="rId2"/><sheet name="Copy" sheetId="3" r:id="rId2"/>"#
      + #"<sheet name="Notes" sheetId="2" r:id="rId3"/>"#
    try Self.workbook(replacing: [("xl/workbook.xml", Self.workbookPart(sheets: sheets))], named: "book.xlsx", in: directory)
    for sheet in ["Payments", "Copy"] {
      let run = try cli.run(["convert", "--to", "EUR", "--sheet", sheet, "book.xlsx"], in: directory.url)
      #expect(run.status == 2)
      let other = sheet == "Payments" ? "Copy" : "Payments"
      #expect(
        run.standardError.contains(
          "sheet \"\(sheet)\" shares its part xl/worksheets/sheet1.xml with sheet \"\(other)\", which the annotated copy would change too"
        ), "\(run.standardError)")
      #expect(!FileManager.default.fileExists(atPath: directory.path + "/book.converted.xlsx"))
    }
    let notes = try cli.run(["convert", "--to", "EUR", "--sheet", "Notes", "book.xlsx"], in: directory.url)
    #expect(!notes.standardError.contains("shares its part"), "\(notes.standardError)")
  }

  static func sheet(dimension: String = "", rows: String) -> String {
    #"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\#(dimension)<sheetData>\#(rows)</sheetData></worksheet>"#
  }

  static func row(_ number: Int, amount: String, currency: String, farColumn: Int? = nil) -> String {
    let far = farColumn.flatMap { CellReference(column: $0, row: number) }.map { #"<c r="\#($0)"><v>1</v></c>"# } ?? ""
    return #"<row r="\#(number)"><c r="A\#(number)"\#(amount.first?.isNumber == true ? "" : #" t="inlineStr""#)>"#
      + (amount.first?.isNumber == true ? "<v>\(amount)</v>" : "<is><t>\(amount)</t></is>")
      + #"</c><c r="B\#(number)" t="inlineStr"><is><t>\#(currency)</t></is></c>\#(far)</row>"#
  }

  /// The last row of the grid after row 2, and a `<dimension>` of the whole grid: nothing fills the gap.
  @Test func farReferencesCostNothing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = Self.row(1, amount: "amount", currency: "currency") + Self.row(2, amount: "100", currency: "EUR")
      + Self.row(1_048_576, amount: "5", currency: "EUR")
    try Self.workbook(
      replacing: [("xl/worksheets/sheet1.xml", Self.sheet(dimension: #"<dimension ref="A1:XFD1048576"/>"#, rows: rows))],
      named: "book.xlsx", in: directory)
    let run = try MeasuredRun.run(
      cli.executable, ["convert", "--date", "2024-01-15", "--to", "USD", directory.path + "/book.xlsx"],
      in: directory.url, environment: cli.environment, timeLimit: 60)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("2 records: 2 ok"))
    #expect(run.seconds < 10, "took \(run.seconds) s")
    #expect(run.peakResidentKiB < 150 * 1024, "peaked at \(run.peakResidentKiB) KiB")
    let converted = try EndToEndXLSXTests.rows(of: directory.path + "/book.converted.xlsx")
    #expect(converted.map(\.number) == [1, 2, 1_048_576])
    // 5 EUR × 1.0945 = 5.4725 → 5.47
    #expect(EndToEndXLSXTests.values(of: converted[2], from: 3, count: 1) == ["5.47"])
  }

  /// Rows whose last cell is far to the right count their columns up to it: 6,300 rows of a cell in column
  /// 16,001 (a sheet of about 400 KB) pass the limit of cells to write, under the embedded rates and under a
  /// rates file (the one-pass road).
  @Test(arguments: ["embedded", "rates file"])
  func farColumnsCountTowardsTheCellLimit(road: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var rows = Self.row(1, amount: "amount", currency: "currency")
    for number in 2...6_301 { rows += Self.row(number, amount: "100", currency: "EUR", farColumn: 16_000) }
    try Self.workbook(replacing: [("xl/worksheets/sheet1.xml", Self.sheet(rows: rows))], named: "book.xlsx", in: directory)
    var arguments = ["convert", "--date", "2024-01-15", "--to", "USD", "book.xlsx"]
    if road == "rates file" {
      try directory.write("date,base,quote,rate\n2024-01-15,EUR,USD,1.0945\n", named: "rates.csv")
      arguments += ["--rates", "rates.csv"]
    }
    let result = try cli.run(arguments, in: directory.url)
    #expect(result.status == 2, "\(road)")
    #expect(
      result.standardError.contains(
        #"book.xlsx:6248:1: error: sheet "Payments", row 6248: the annotated copy would hold more than 100000000 cells"#),
      "\(road): \(result.standardError)")
    #expect(try directory.fileNames().filter { $0.hasPrefix("book") } == ["book.xlsx"])
  }
}
