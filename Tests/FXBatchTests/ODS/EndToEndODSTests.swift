import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Runs the built `fxbatch` binary on `.ods` spreadsheets made by LibreOffice (`Fixtures/Workbooks/`) and on
/// hand-written `content.xml` parts, and reads the annotated copies back with the project's ODS reader.
///
/// `libreoffice.ods` holds the records of ``EndToEndXLSXTests`` (its fx values by hand there).
/// `features.ods` (converted to EUR with the embedded ECB history), by hand:
///  rows 3–5: 10 USD on 2024-01-15, EUR/USD 1.0945: 10 / 1.0945 = 9.1366… → 9.14, rate 0.9136592051
///  rows 6, 7: the error cells `#DIV/0!` (A6) and `#N/A` (A7)
///  row 8: 99.99 GBP (a currency cell) on 2024-02-29, EUR/GBP 0.85655: 99.99 / 0.85655 = 116.7357… → 116.74
///  row 9: 1 USD (LibreOffice saved the boolean as the number 1): 1 / 1.0945 = 0.91366… → 0.91
///  row 10: 1000 JPY on 2024-03-01, EUR/JPY 162.82: 6.14
@Suite("fxbatch end to end: ODS")
struct EndToEndODSTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The rows of a spreadsheet's table as the project's reader reads them.
  static func rows(of path: String, sheet: String? = nil) throws -> [SheetRow] {
    let table = try ODSBook(readPath: path, displayPath: path).table(sheet)
    var rows: [SheetRow] = []
    while let row = try table.nextRow() { rows.append(row) }
    return rows
  }

  /// A row's cells from column `first` on, as text (numbers as their decimal text, dates as written), "" where
  /// there is none.
  static func values(of row: SheetRow, from first: Int, count: Int) -> [String] {
    (first..<first + count).map { column in
      switch row.cells.first(where: { $0.reference.column == column })?.value {
      case .number(let text), .text(let text), .date(let text): return text
      default: return ""
      }
    }
  }

  /// `libreoffice.ods` with its `content.xml` replaced, in `directory` as `name`.
  static func spreadsheet(content: String, named name: String, in directory: TemporaryDirectory) throws {
    try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.ods")).write(
      to: directory.path + "/" + name, replacing: [("content.xml", .bytes(Array(content.utf8)))])
  }

  /// A `content.xml` with one table of these rows, its root binding ODF's prefixes as LibreOffice does.
  static func content(rows: String, columns: String = "<table:table-column/>") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" \
    xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" \
    xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" \
    xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" \
    xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" \
    xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3">\
    <office:automatic-styles/><office:body><office:spreadsheet><table:table table:name="Hand">\(columns)\(rows)\
    </table:table></office:spreadsheet></office:body></office:document-content>
    """
  }

  static func text(_ value: String) -> String {
    #"<table:table-cell office:value-type="string"><text:p>\#(value)</text:p></table:table-cell>"#
  }

  @Test func libreOfficeSpreadsheetComesBackWithTheFXColumns() throws {
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.ods"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--to", "EUR", "libreoffice.ods"], in: directory.url)
    #expect(result.status == 0)
    #expect(
      result.standardError.contains(
        "libreoffice.ods -> libreoffice.converted.ods: 4 records: 4 ok, 0 fallback, 0 error [ODS]"))
    let rows = try Self.rows(of: directory.path + "/libreoffice.converted.ods")
    let original = try Self.rows(of: directory.path + "/libreoffice.ods")
    #expect(rows.map(\.number) == [1, 2, 3, 4, 5])
    for (row, before) in zip(rows, original) { #expect(Array(row.cells.prefix(before.cells.count)) == before.cells) }
    #expect(Self.values(of: rows[0], from: 4, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
    for row in rows[1...3] {
      #expect(Self.values(of: row, from: 4, count: 7) == (EndToEndXLSXTests.convertedRows[row.number] ?? []) + [""])
      // fx_rate and fx_converted are float cells, fx_rate_date a date cell.
      #expect(row.cells[4].value == .number(EndToEndXLSXTests.convertedRows[row.number]?[0] ?? ""))
      #expect(row.cells[5].value == .number(EndToEndXLSXTests.convertedRows[row.number]?[1] ?? ""))
      #expect(row.cells[7].value == .date(EndToEndXLSXTests.convertedRows[row.number]?[3] ?? ""))
    }
    #expect(
      Self.values(of: rows[4], from: 4, count: 7) == ["1", "2469.12", "EUR", "2024-03-31", "same currency", "ok", ""])
    // The second table is untouched.
    let notes = try Self.rows(of: directory.path + "/libreoffice.converted.ods", sheet: "Notes")
    #expect(notes == (try Self.rows(of: directory.path + "/libreoffice.ods", sheet: "Notes")))
  }

  /// Only `content.xml` changes: every other entry is stored as it was, in its place, and `mimetype` stays the
  /// first entry, stored, so that its media type stands at offset 38 (ODF 1.3 part 2, 3.3).
  @Test func everyOtherEntryIsCopiedAsItIsAndTheMimetypeStaysFirst() throws {
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.ods"])
    defer { directory.remove() }
    _ = try cli.run(["convert", "--to", "EUR", "libreoffice.ods"], in: directory.url)
    let before = try ZipPackage(path: directory.path + "/libreoffice.ods")
    let after = try ZipPackage(path: directory.path + "/libreoffice.converted.ods")
    #expect(after.entries.map(\.name) == before.entries.map(\.name))
    for (old, new) in zip(before.entries, after.entries) where old.name != "content.xml" {
      #expect(new.crc == old.crc, "\(old.name)")
      #expect(new.compressedSize == old.compressedSize, "\(old.name)")
      #expect(new.method == old.method, "\(old.name)")
    }
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/libreoffice.converted.ods")))
    let first = try #require(try RawZip(bytes).entries.first)
    #expect(first.name == "mimetype")
    #expect(first.method == 0)
    #expect(String(decoding: bytes[38..<84], as: UTF8.self) == "application/vnd.oasis.opendocument.spreadsheet")
    // content.xml is deflated as it is written (ZipDeflater: ISA-L), as an .xlsx sheet is.
    let content = try #require(after.entries.first { $0.name == "content.xml" })
    #expect(content.method == .deflated)
    #expect(content.compressedSize < content.size / 2)
  }

  @Test func libreOfficeFeatures() throws {
    let directory = try EndToEndXLSXTests.directory(with: ["features.ods"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "features.ods"], in: directory.url)
    #expect(result.status == 1)
    #expect(
      result.standardError.contains(
        "features.ods -> features.converted.ods: 8 records: 6 ok, 0 fallback, 2 error (invalid_amount 2) [ODS]"))
    let rows = try Self.rows(of: directory.path + "/features.converted.ods")
    #expect(rows.map(\.number) == Array(1...10))
    // The fx_* cells follow column F, the merged cell's covered column.
    #expect(Self.values(of: rows[1], from: 6, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
    let usd = ["0.9136592051", "9.14", "EUR", "2024-01-15", "ecb-embedded EUR/USD=1.0945", "ok", ""]
    for row in rows[2...4] { #expect(Self.values(of: row, from: 6, count: 7) == usd) }
    for (row, code, cell) in [(rows[5], "#DIV/0!", "A6"), (rows[6], "#N/A", "A7")] {
      let values = Self.values(of: row, from: 6, count: 7)
      #expect(values[5] == "error")
      #expect(values[6] == "invalid_amount: the amount is the error \"\(code)\" of cell \(cell), not a number or a string")
    }
    #expect(
      Self.values(of: rows[7], from: 6, count: 7) == [
        "1.16747417", "116.74", "EUR", "2024-02-29", "ecb-embedded EUR/GBP=0.85655", "ok", "",
      ])
    #expect(Self.values(of: rows[7], from: 4, count: 1) == ["merged  over   twocells\nsecond line"])
    #expect(Self.values(of: rows[8], from: 6, count: 2) == ["0.9136592051", "0.91"])
    #expect(Self.values(of: rows[9], from: 4, count: 4) == ["grouped", "", "0.006141751628", "6.14"])
    let second = try Self.rows(of: directory.path + "/features.converted.ods", sheet: "Second")
    #expect(second == (try Self.rows(of: directory.path + "/features.ods", sheet: "Second")))
  }

  /// A table written by hand: a repeated record row (each record gets its cells: the row is written back
  /// repeated, its records converted the same way), trailing repeated empty cells
  /// and rows as LibreOffice writes them (cut to make room, never pushing the fx_* cells out, costing nothing),
  /// a boolean, text with `text:s`, a formula without a value, a row shorter than the others. With
  /// --date 2024-01-15 and --to USD: 100 EUR → USD = 100 × 1.0945 = 109.45; 200 EUR = 218.90.
  @Test func aHandWrittenTableGetsItsCellsInPlace() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let trailing = #"<table:table-cell table:number-columns-repeated="16380"/>"#
    let rows = """
      <table:table-row>\(Self.text("amount"))\(Self.text("currency"))\(Self.text("note"))\(trailing)</table:table-row>\
      <table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="float" office:value="100">\
      <text:p>100</text:p></table:table-cell>\(Self.text("EUR"))\(trailing)</table:table-row>\
      <table:table-row><table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p>\
      </table:table-cell>\(Self.text("EUR"))<table:table-cell office:value-type="string"><text:p>a<text:s text:c="3"/>b\
      </text:p></table:table-cell>\(trailing)</table:table-row>\
      <table:table-row><table:table-cell table:formula="of:=[.A2]*2"/>\(Self.text("EUR"))</table:table-row>\
      <table:table-row><table:table-cell office:value-type="float" office:value="200"><text:p>200</text:p>\
      </table:table-cell><table:table-cell table:number-columns-repeated="2" office:value-type="string">\
      <text:p>EUR</text:p></table:table-cell>\(trailing)</table:table-row>\
      <table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/>\
      </table:table-row>
      """
    try Self.spreadsheet(
      content: Self.content(rows: rows, columns: #"<table:table-column table:number-columns-repeated="16384"/>"#),
      named: "hand.ods", in: directory)
    let result = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "hand.ods"], in: directory.url)
    #expect(result.status == 1)
    #expect(result.standardError.contains("5 records: 3 ok, 0 fallback, 2 error (invalid_amount 2) [ODS]"))
    let written = String(
      decoding: try ZipPackage(path: directory.path + "/hand.converted.ods").contents(ofEntryNamed: "content.xml"),
      as: UTF8.self)
    // The repeated record row is written once, repeated, with the cells of its two records; the trailing
    // empty cells are cut to make room for the seven fx_* cells and keep the rest of the row's width.
    #expect(written.components(separatedBy: #"table:number-rows-repeated="2""#).count == 2)
    #expect(written.contains(#"<table:table-cell table:number-columns-repeated="16373"/></table:table-row>"#))
    #expect(written.contains(#"<table:table-row table:number-rows-repeated="1048570">"#))
    let converted = try Self.rows(of: directory.path + "/hand.converted.ods")
    #expect(converted.map(\.number) == [1, 2, 3, 4, 5, 6, 7])
    #expect(Self.values(of: converted[0], from: 3, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
    let hundred = ["1.0945", "109.45", "USD", "2024-01-15", "ecb-embedded EUR/USD=1.0945", "ok", ""]
    #expect(Self.values(of: converted[1], from: 3, count: 7) == hundred)
    #expect(Self.values(of: converted[2], from: 3, count: 7) == hundred)
    #expect(Self.values(of: converted[3], from: 2, count: 1) == ["a   b"])
    #expect(
      Self.values(of: converted[3], from: 3, count: 7).last
        == "invalid_amount: the amount is the boolean TRUE of cell A4, not a number or a string")
    #expect(
      Self.values(of: converted[4], from: 3, count: 7).last?.hasPrefix(
        "invalid_amount: the amount is the formula \"=[.A2]*2\" of cell A5 without a computed value") == true)
    // fx_converted is shown with the target currency's minor units through a cell style of its own.
    #expect(
      written.contains(
        #"<table:table-cell table:style-name="fxbatch-minor-units-2" office:value-type="float" office:value="218.90"><text:p>218.90</text:p></table:table-cell>"#
      ))
    #expect(Self.values(of: converted[5], from: 3, count: 2) == ["1.0945", "218.90"])
    #expect(converted[6].cells.isEmpty)
  }

  /// `Samples/expenses.ods`, the sample workbook saved as `.ods`, converts as `expenses.xlsx` does (by hand in
  /// ``EndToEndXLSXTests/sampleConvertsAsItsREADMESays()``).
  @Test func sampleConvertsAsTheXLSXSampleDoes() throws {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      [UInt8](try Data(contentsOf: samples.appendingPathComponent("expenses.ods"))), named: "expenses.ods")
    let result = try cli.run(["convert", "expenses.ods"], in: directory.url)
    #expect(result.status == 0)
    #expect(
      result.standardError.contains("expenses.ods -> expenses.converted.ods: 6 records: 5 ok, 1 fallback, 0 error [ODS]"))
    let rows = try Self.rows(of: directory.path + "/expenses.converted.ods")
    #expect(rows.count == 7)
    #expect(Self.values(of: rows[1], from: 6, count: 3) == ["1194.46", "EUR", "2025-03-03"])
    #expect(
      Self.values(of: rows[4], from: 6, count: 6) == [
        "19.04", "EUR", "2025-03-07", "ecb-embedded EUR/CHF=0.9557", "fallback", "",
      ])
    #expect(Self.values(of: rows[6], from: 6, count: 2) == ["41.73", "USD"])
  }

  /// A second table converted in an annotated copy: the fx_* styles the first run added serve again, declared
  /// once. 100 EUR → USD on 2024-01-15 = 109.45.
  @Test func aSecondTableOfAnAnnotatedCopyReusesItsStyles() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let table = """
      <table:table-row>\(Self.text("amount"))\(Self.text("currency"))</table:table-row><table:table-row>\
      <table:table-cell office:value-type="float" office:value="100"><text:p>100</text:p></table:table-cell>\
      \(Self.text("EUR"))</table:table-row>
      """
    let content = Self.content(rows: table).replacingOccurrences(
      of: "</table:table></office:spreadsheet>",
      with: "</table:table><table:table table:name=\"Two\"><table:table-column/>\(table)</table:table></office:spreadsheet>")
    try Self.spreadsheet(content: content, named: "two.ods", in: directory)
    let first = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "two.ods"], in: directory.url)
    #expect(first.status == 0)
    let second = try cli.run(
      ["convert", "--date", "2024-01-15", "--to", "USD", "--sheet", "Two", "-o", "both.ods", "two.converted.ods"],
      in: directory.url)
    #expect(second.status == 0)
    let written = String(
      decoding: try ZipPackage(path: directory.path + "/both.ods").contents(ofEntryNamed: "content.xml"), as: UTF8.self)
    #expect(written.components(separatedBy: #"style:name="fxbatch-rate-date""#).count == 2)
    for sheet in ["Hand", "Two"] {
      let rows = try Self.rows(of: directory.path + "/both.ods", sheet: sheet)
      #expect(Self.values(of: rows[1], from: 2, count: 2) == ["1.0945", "109.45"])
    }
  }

  /// `--sheet` by name and by number; a sheet that is not there, or has no amount, is refused.
  @Test func sheetChoice() throws {
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.ods"])
    defer { directory.remove() }
    let byNumber = try cli.run(["convert", "--to", "EUR", "--sheet", "1", "libreoffice.ods"], in: directory.url)
    #expect(byNumber.status == 0)
    let missing = try cli.run(["convert", "--to", "EUR", "--sheet", "3", "libreoffice.ods"], in: directory.url)
    #expect(missing.status == 2)
    #expect(
      missing.standardError.contains(
        #"libreoffice.ods:1:1: error: --sheet "3": the spreadsheet has no such sheet (its sheets: "Payments", "Notes")"#))
    let notes = try cli.run(
      ["convert", "--to", "EUR", "--sheet", "Notes", "-o", "notes.ods", "libreoffice.ods"], in: directory.url)
    #expect(notes.status == 2)
    #expect(notes.standardError.contains(#"sheet "Notes", row 1: the header has no amount field"#))
    #expect(!notes.standardError.contains("--sheet NAME"))  // chosen: no other sheet suggested
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/notes.ods"))
    // The first sheet, chosen by default, without a field the run needs: the other sheets are suggested.
    let firstSheet = try cli.run(["convert", "libreoffice.ods"], in: directory.url)
    #expect(firstSheet.status == 2)
    #expect(
      firstSheet.standardError.contains(
        #"use --to-field NAME or --to CODE; if the records are on another sheet, choose it with --sheet NAME (the workbook's other sheets: "Notes")"#
      ))
  }

  @Test func standardOutputIsRefused() throws {
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.ods"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--to", "EUR", "-o", "-", "libreoffice.ods"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError.contains(
        "libreoffice.ods:1:1: error: the annotated copy of a workbook is a zip package, not text for standard output"))
    #expect(try directory.fileNames() == ["libreoffice.ods"])
  }

  /// A spreadsheet is found by its content, under no extension or the other workbook's; `--format` names what it
  /// must be; its annotated copy is refused as input.
  @Test func contentDetectionAndAnnotatedCopies() throws {
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.ods", "libreoffice.xlsx"])
    defer { directory.remove() }
    try FileManager.default.copyItem(atPath: directory.path + "/libreoffice.ods", toPath: directory.path + "/book")
    try FileManager.default.copyItem(atPath: directory.path + "/libreoffice.ods", toPath: directory.path + "/named.xlsx")
    try FileManager.default.copyItem(atPath: directory.path + "/libreoffice.xlsx", toPath: directory.path + "/named.ods")
    // An OpenDocument package's mimetype ends past the first 64 bytes, which are all a text format's name read.
    try FileManager.default.copyItem(atPath: directory.path + "/libreoffice.ods", toPath: directory.path + "/export.csv")
    let asText = try cli.run(["convert", "--to", "EUR", "export.csv", "-o", "export.ods"], in: directory.url)
    #expect(asText.status == 0, "\(asText.standardError)")
    #expect(asText.standardError.contains("[ODS]"))
    let bare = try cli.run(["convert", "--to", "EUR", "book"], in: directory.url)
    #expect(bare.status == 0)
    #expect(bare.standardError.contains("book -> book.converted: 4 records: 4 ok, 0 fallback, 0 error [ODS]"))
    let misnamed = try cli.run(["convert", "--to", "EUR", "named.xlsx", "named.ods"], in: directory.url)
    #expect(misnamed.status == 0)
    #expect(misnamed.standardError.contains("named.xlsx -> named.converted.xlsx: 4 records: 4 ok, 0 fallback, 0 error [ODS]"))
    #expect(misnamed.standardError.contains("named.ods -> named.converted.ods: 4 records: 4 ok, 0 fallback, 0 error [XLSX]"))
    let asXLSX = try cli.run(
      ["convert", "--to", "EUR", "--format", "xlsx", "-o", "x.xlsx", "libreoffice.ods"], in: directory.url)
    #expect(asXLSX.status == 2)
    #expect(asXLSX.standardError.contains("libreoffice.ods:1:1: error: an OpenDocument spreadsheet, not an .xlsx workbook"))
    let asODS = try cli.run(["convert", "--to", "EUR", "--format", "ods", "-o", "x.ods", "libreoffice.xlsx"], in: directory.url)
    #expect(asODS.status == 2)
    #expect(asODS.standardError.contains("libreoffice.xlsx:1:1: error: an .xlsx workbook, not an .ods spreadsheet"))
    let again = try cli.run(["convert", "--to", "EUR", "-o", "again.ods", "book.converted"], in: directory.url)
    #expect(again.status == 2)
    #expect(again.standardError.contains("the file is already annotated by fxbatch (its header row has the fx_* cells)"))
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/again.ods"))
  }

  /// Hostile and malformed spreadsheets: one line saying why, exit 2, nothing written.
  @Test(arguments: [
    ("encrypted", "a password-protected workbook: save a copy without the password"),
    ("doctype", "content.xml has a DTD or an entity declaration, which workbooks never need: refused"),
    ("bomb", "content.xml inflates"),
    ("text document", "an OpenDocument text document, not an .ods spreadsheet"),
    ("zero rows", #"table:number-rows-repeated="0" is not a count from 1"#),
    ("float without value", #"a cell of office:value-type "float" without its office:value"#),
    ("used cell past the last column", "past the last row or column of a sheet (1048576 rows, 16384 columns)"),
    ("not XML", "content.xml:1:"),
    ("malformed after the table", "malformed XML"),
    ("other prefixes", "content.xml does not bind the prefix table:"),
  ])
  func hostileSpreadsheetsAreRefused(kind: String, reason: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let name = "book.ods"
    let record = "<table:table-row>\(Self.text("amount"))\(Self.text("currency"))</table:table-row>"
    switch kind {
    case "encrypted":
      try directory.write(try Fixture.bytes("Workbooks", "odf-encrypted.ods"), named: name)
    case "doctype":
      try Self.spreadsheet(
        content: Self.content(rows: record).replacingOccurrences(
          of: "<office:document-content", with: "<!DOCTYPE x [<!ENTITY a \"b\">]><office:document-content"),
        named: name, in: directory)
    case "bomb":
      try Self.spreadsheet(content: String(repeating: " ", count: 1 << 24), named: name, in: directory)
    case "text document":
      try ZipPackage(path: Fixture.path("Workbooks", "libreoffice.ods")).write(
        to: directory.path + "/" + name,
        replacing: [("mimetype", .bytes(Array("application/vnd.oasis.opendocument.text".utf8)))])
    case "zero rows":
      try Self.spreadsheet(
        content: Self.content(
          rows: record.replacingOccurrences(of: "<table:table-row>", with: #"<table:table-row table:number-rows-repeated="0">"#)),
        named: name, in: directory)
    case "float without value":
      try Self.spreadsheet(
        content: Self.content(
          rows: record + #"<table:table-row><table:table-cell office:value-type="float"/></table:table-row>"#),
        named: name, in: directory)
    case "used cell past the last column":
      try Self.spreadsheet(
        content: Self.content(
          rows: record + #"<table:table-row><table:table-cell table:number-columns-repeated="16383"/>"# + Self.text("x")
            + Self.text("y") + "</table:table-row>"),
        named: name, in: directory)
    case "malformed after the table":
      try Self.spreadsheet(
        content: Self.content(rows: record).replacingOccurrences(
          of: "</table:table></office:spreadsheet>", with: #"</table:table><table:table table:name="B"><x></office:spreadsheet>"#),
        named: name, in: directory)
    case "not XML":
      try Self.spreadsheet(content: "<office:document-content", named: name, in: directory)
    default:
      try Self.spreadsheet(
        content: Self.content(rows: record).replacingOccurrences(of: "xmlns:table=", with: "xmlns:t=").replacingOccurrences(
          of: "table:", with: "t:"),
        named: name, in: directory)
    }
    let result = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
    #expect(result.status == 2)
    let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix(name + ":") }
    #expect(lines.count == 1)
    #expect(lines.first?.contains(reason) == true, "\(lines)")
    #expect(try directory.fileNames() == [name])
  }
}

/// The annotated spreadsheets opened by LibreOffice itself, exported as CSV (the cells as they are shown, so
/// that the number and date styles count). Skipped where LibreOffice is not installed (`.ci/run` installs
/// `libreoffice-calc-nogui`).
@Suite("fxbatch end to end: ODS in LibreOffice", .enabled(if: LibreOffice.soffice != nil))
struct EndToEndODSLibreOfficeTests {
  /// The first sheet of a spreadsheet as LibreOffice shows it, as CSV lines: comma, double quote, UTF-8, from
  /// line 1, the cells as shown (the 9th token), so that the number and date styles count.
  static func shownCSV(of workbook: String, in directory: TemporaryDirectory) throws -> [String] {
    try ZipLibreOfficeTests.csv(
      of: workbook, in: directory, filter: "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true"
    ).split(separator: "\n").map(String.init)
  }

  /// Every original cell is shown as before, and the fx_* cells after them: amounts to the minor unit, the rate
  /// day as `YYYY-MM-DD`.
  @Test func libreOfficeShowsTheFXColumns() throws {
    let cli = try CLIRunner()
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.ods"])
    defer { directory.remove() }
    _ = try cli.run(["convert", "--to", "EUR", "libreoffice.ods"], in: directory.url)
    let before = try Self.shownCSV(of: directory.path + "/libreoffice.ods", in: directory)
    let after = try Self.shownCSV(of: directory.path + "/libreoffice.converted.ods", in: directory)
    #expect(after.count == before.count)
    for (old, new) in zip(before, after) { #expect(new.hasPrefix(old + ","), "\(new)") }
    #expect(
      after.first == "date,amount,currency,note,fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error")
    #expect(
      after.dropFirst().first
        == #"2024-01-15,"1,234.56",USD,Invoice 17,0.9136592051,1127.97,EUR,2024-01-15,ecb-embedded EUR/USD=1.0945,ok,"#)
    #expect(
      after.dropFirst(3).first
        == #"2024-03-01,"1,000.00",JPY,Tokyo office,0.006141751628,6.14,EUR,2024-03-01,ecb-embedded EUR/JPY=162.82,ok,"#)
  }

  /// The hand-written table of ``EndToEndODSTests/aHandWrittenTableGetsItsCellsInPlace()``: the repeated record
  /// row is two rows, and 200 EUR → USD = 218.9 is shown 218.90.
  @Test func libreOfficeReadsRepeatedRowsAndMinorUnits() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = """
      <table:table-row>\(EndToEndODSTests.text("amount"))\(EndToEndODSTests.text("currency"))\
      <table:table-cell table:number-columns-repeated="1020"/></table:table-row>\
      <table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="float" office:value="200">\
      <text:p>200</text:p></table:table-cell>\(EndToEndODSTests.text("EUR"))\
      <table:table-cell table:number-columns-repeated="1020"/></table:table-row>\
      <table:table-row table:number-rows-repeated="1000"><table:table-cell table:number-columns-repeated="1022"/>\
      </table:table-row>
      """
    try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: rows), named: "hand.ods", in: directory)
    let result = try cli.run(["convert", "--date", "2024-01-15", "--to", "USD", "hand.ods"], in: directory.url)
    #expect(result.status == 0)
    let lines = try Self.shownCSV(of: directory.path + "/hand.converted.ods", in: directory)
    #expect(lines.count == 3)
    #expect(lines.first == "amount,currency,fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error")
    for line in lines.dropFirst() {
      #expect(line == "200,EUR,1.0945,218.90,USD,2024-01-15,ecb-embedded EUR/USD=1.0945,ok,")
    }
  }
}
