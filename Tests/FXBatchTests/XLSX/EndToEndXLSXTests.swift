import FXBatchTestSupport
import Foundation
import Synchronization
import Testing

@testable import FXBatch

/// Runs the built `fxbatch` binary on real workbooks (`Fixtures/Workbooks/`, made by LibreOffice and openpyxl)
/// and reads the annotated copies back with the project's own XLSX reader.
///
/// The sheet "Payments" holds 2024-01-15 1234.56 USD, 2024-02-29 99.5 GBP, 2024-03-01 1000 JPY and 2024-03-31
/// =B2*2 EUR (LibreOffice caches 2469.12; openpyxl writes no value). Converted `--to EUR` with the embedded ECB
/// history, whose reference rates those days are EUR/USD 1.0945, EUR/GBP 0.85655, EUR/JPY 162.82, by hand:
///  row 2: 1234.56 / 1.0945 = 1127.9671… → 1127.97; rate 1 / 1.0945 = 0.913659205116… → 0.9136592051 (10 digits)
///  row 3: 99.5 / 0.85655 = 116.1636… → 116.16; rate 1 / 0.85655 = 1.16747417010… → 1.16747417
///  row 4: 1000 / 162.82 = 6.1417…  → 6.14 (EUR has 2 minor units); rate 1 / 162.82 = 0.00614175162756… →
///         0.006141751628
///  row 5: EUR → EUR is 2469.12 at rate 1 (LibreOffice); openpyxl's formula has no value: an error naming B5.
@Suite("fxbatch end to end: XLSX")
struct EndToEndXLSXTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The fx_* values of the first three record rows, the same for both workbooks.
  static let convertedRows: [Int: [String]] = [
    2: ["0.9136592051", "1127.97", "EUR", "2024-01-15", "ecb-embedded EUR/USD=1.0945", "ok"],
    3: ["1.16747417", "116.16", "EUR", "2024-02-29", "ecb-embedded EUR/GBP=0.85655", "ok"],
    4: ["0.006141751628", "6.14", "EUR", "2024-03-01", "ecb-embedded EUR/JPY=162.82", "ok"],
  ]

  static func directory(with fixtures: [String]) throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    for name in fixtures { try directory.write(try Fixture.bytes("Workbooks", name), named: name) }
    return directory
  }

  /// The rows of a workbook's sheet as the project's reader reads them.
  static func rows(of path: String, sheet: Int = 0) throws -> [SheetRow] {
    let package = try ZipPackage(path: path)
    let workbook = try XLSXWorkbook.read(from: package)
    let strings = try workbook.sharedStringsEntry.map {
      try XLSXSharedStrings.read(from: package, entry: try #require(package.entry(named: $0)))
    }
    let entry = try #require(workbook.sheets[sheet].entry.flatMap(package.entry(named:)))
    let reader = try XLSXSheetReader(package: package, entry: entry, sharedStrings: strings ?? XLSXSharedStrings(strings: []))
    var rows: [SheetRow] = []
    while let row = try reader.nextRow() { rows.append(row) }
    return rows
  }

  /// A row's cells from column `first` on, as text (numbers as their decimal text, a number in one of
  /// `dateStyles` as its day in the 1900 date system), "" where there is none.
  static func values(of row: SheetRow, from first: Int, count: Int, dateStyles: Set<Int> = []) -> [String] {
    (first..<first + count).map { column in
      let cell = row.cells.first { $0.reference.column == column }
      switch cell?.value {
      case .number(let text):
        guard let cell, dateStyles.contains(cell.style) else { return text }
        return XLSXDateSystem.from1900.day(ofSerial: text)?.description ?? "not a day: \(text)"
      case .text(let text): return text
      default: return ""
      }
    }
  }

  /// The cell styles of a workbook that show dates.
  static func dateStyles(of path: String) throws -> Set<Int> {
    let package = try ZipPackage(path: path)
    let name = try #require(try XLSXWorkbook.read(from: package).stylesEntry)
    return try XLSXStyles.read(from: package, entry: try #require(package.entry(named: name))).dateStyles
  }

  @Test(arguments: ["libreoffice.xlsx", "openpyxl.xlsx"])
  func realWorkbooksComeBackWithTheFXColumns(name: String) throws {
    let directory = try Self.directory(with: [name])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
    let output = PathText.splitExtension(name).stem + ".converted.xlsx"
    let isLibreOffice = name == "libreoffice.xlsx"
    #expect(result.status == (isLibreOffice ? 0 : 1))
    let rows = try Self.rows(of: directory.path + "/" + output)
    let dates = try Self.dateStyles(of: directory.path + "/" + output)
    let original = try Self.rows(of: directory.path + "/" + name)
    #expect(rows.map(\.number) == [1, 2, 3, 4, 5])
    // The original cells are read back as they were; the fx_* cells follow column D.
    for (row, before) in zip(rows, original) { #expect(Array(row.cells.prefix(before.cells.count)) == before.cells) }
    #expect(Self.values(of: rows[0], from: 4, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
    for row in rows[1...3] {
      #expect(Self.values(of: row, from: 4, count: 7, dateStyles: dates) == (Self.convertedRows[row.number] ?? []) + [""])
      // fx_rate and fx_converted are numeric cells, fx_rate_date a date cell, the rest inline text.
      #expect(row.cells[4].value == .number(Self.convertedRows[row.number]?[0] ?? ""))
      #expect(row.cells[5].value == .number(Self.convertedRows[row.number]?[1] ?? ""))
      #expect(dates.contains(row.cells[7].style))
      #expect(!dates.contains(row.cells[5].style))
    }
    let last = Self.values(of: rows[4], from: 4, count: 7, dateStyles: dates)
    if isLibreOffice {
      #expect(last == ["1", "2469.12", "EUR", "2024-03-31", "same currency", "ok", ""])
    } else {
      #expect(last.prefix(6) == ["", "", "EUR", "", "", "error"])
      #expect(last[6].hasPrefix("invalid_amount: the amount is the formula \"=B2*2\" of cell B5 without a computed value"))
    }
    #expect(
      result.standardError.contains(
        "\(name) -> \(output): 4 records: \(isLibreOffice ? "4 ok, 0 fallback, 0 error" : "3 ok, 0 fallback, 1 error (invalid_amount 1)") [XLSX]"
      ))
  }

  /// Only the converted sheet's entry changes: every other entry (the second sheet, styles, shared strings, the
  /// workbook, relationships) is stored as it was, in its place.
  @Test(arguments: ["libreoffice.xlsx", "openpyxl.xlsx"])
  func everyOtherEntryIsCopiedAsItIs(name: String) throws {
    let directory = try Self.directory(with: [name])
    defer { directory.remove() }
    _ = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
    let before = try ZipPackage(path: directory.path + "/" + name)
    let after = try ZipPackage(path: directory.path + "/" + PathText.splitExtension(name).stem + ".converted.xlsx")
    #expect(after.entries.map(\.name) == before.entries.map(\.name))
    let changed = ["xl/worksheets/sheet1.xml", "xl/styles.xml"]
    for (old, new) in zip(before.entries, after.entries) where !changed.contains(old.name) {
      #expect(new.crc == old.crc, "\(old.name)")
      #expect(new.compressedSize == old.compressedSize, "\(old.name)")
      #expect(new.method == old.method, "\(old.name)")
      #expect(try after.contents(of: new) == (try before.contents(of: old)), "\(old.name)")
    }
    let sheet = try #require(after.entry(named: "xl/worksheets/sheet1.xml"))
    #expect(sheet.crc != (try #require(before.entry(named: "xl/worksheets/sheet1.xml"))).crc)
  }

  /// A sheet written by hand: a namespace prefix, a comment with markup in it, a header on row 2, a blank
  /// self-closing row, a row without `r`, an error cell, `spans` and `<dimension>`. With --date 2024-01-15:
  /// 100 EUR → USD = 100 × 1.0945 = 109.45 at rate 1.0945; `#N/A` is an error naming A5. openpyxl's styles part
  /// has 3 cell styles: fxbatch's `0.00` is the 5th (s="4") and its date style the 8th (s="7"); 2024-01-15 is
  /// serial 45306.
  @Test func aHandWrittenSheetGetsItsCellsInPlace() throws {
    let directory = try Self.directory(with: ["openpyxl.xlsx"])
    defer { directory.remove() }
    let sheet = """
      <?xml version="1.0" encoding="UTF-8"?>
      <x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:dimension ref="A2:C5"/>\
      <x:sheetData><!-- not a <x:row r="9"> --><x:row r="2" spans="1:3"><x:c r="A2" t="inlineStr"><x:is><x:t>amount\
      </x:t></x:is></x:c><x:c r="B2" t="inlineStr"><x:is><x:t>from</x:t></x:is></x:c><x:c r="C2" t="inlineStr"><x:is>\
      <x:t>to</x:t></x:is></x:c></x:row><x:row r="3" spans="1:3"/><x:row r="4" spans="1:3" x:note="a > b"><x:c r="A4">\
      <x:v>100</x:v></x:c><x:c r="B4" t="inlineStr"><x:is><x:t>EUR</x:t></x:is></x:c><x:c r="C4" t="inlineStr"><x:is>\
      <x:t>USD</x:t></x:is></x:c></x:row><x:row><x:c r="A5" t="e"><x:v>#N/A</x:v></x:c><x:c r="B5" t="inlineStr">\
      <x:is><x:t>EUR</x:t></x:is></x:c><x:c r="C5" t="inlineStr"><x:is><x:t>USD</x:t></x:is></x:c></x:row>\
      </x:sheetData></x:worksheet>
      """
    try ZipPackage(path: directory.path + "/openpyxl.xlsx").write(
      to: directory.path + "/book.xlsx", replacing: [("xl/worksheets/sheet1.xml", .bytes(Array(sheet.utf8)))])
    let result = try cli.run(["convert", "--date", "2024-01-15", "book.xlsx"], in: directory.url)
    #expect(result.status == 1)
    let written = String(
      decoding: try ZipPackage(path: directory.path + "/book.converted.xlsx").contents(
        ofEntryNamed: "xl/worksheets/sheet1.xml"), as: UTF8.self)
    #expect(written.contains(#"<x:dimension ref="A2:J5"/>"#))
    #expect(written.contains(#"<!-- not a <x:row r="9"> -->"#))
    #expect(written.contains(#"<x:row r="3" spans="1:10"/>"#))
    #expect(
      written.contains(
        #"<x:c r="D4"><x:v>1.0945</x:v></x:c><x:c r="E4" s="4"><x:v>109.45</x:v></x:c><x:c r="F4" t="inlineStr"><x:is><x:t>USD</x:t></x:is></x:c><x:c r="G4" s="7"><x:v>45306</x:v></x:c>"#
      ))
    #expect(written.contains(#"<x:row r="4" spans="1:10" x:note="a > b">"#))
    let rows = try Self.rows(of: directory.path + "/book.converted.xlsx")
    let dates = try Self.dateStyles(of: directory.path + "/book.converted.xlsx")
    #expect(rows.map(\.number) == [2, 3, 4, 5])
    #expect(Self.values(of: rows[0], from: 3, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
    #expect(rows[1].cells.isEmpty)
    #expect(
      Self.values(of: rows[2], from: 3, count: 7, dateStyles: dates) == [
        "1.0945", "109.45", "USD", "2024-01-15", "ecb-embedded EUR/USD=1.0945", "ok", "",
      ])
    let error = Self.values(of: rows[3], from: 3, count: 7)
    #expect(error[5] == "error")
    #expect(error[6] == "invalid_amount: the amount is the error \"#N/A\" of cell A5, not a number or a string")
  }

  // Before (newcomer run): a title above the header was taken for the header, and no option chose another row
  // ("the header has no amount field ("Travel expenses"); use --amount-field NAME", which could not help).
  // `--header-row N`: the first non-empty row from row N is the header; the rows above are copied and get no
  // cells; on the scanner's road, and on libxml2's (a comment makes the scanner decline).
  @Test(arguments: ["", "<!-- c -->"])
  func aTitleAboveTheHeader(comment: String) throws {
    let directory = try Self.directory(with: ["openpyxl.xlsx"])
    defer { directory.remove() }
    func text(_ reference: String, _ value: String) -> String {
      #"<c r="\#(reference)" t="inlineStr"><is><t>\#(value)</t></is></c>"#
    }
    let sheet =
      #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:C4"/>"#
      + "<sheetData>\(comment)<row r=\"1\">\(text("A1", "Travel expenses"))</row><row r=\"2\"/>"
      + #"<row r="3">\#(text("A3", "amount"))\#(text("B3", "from"))\#(text("C3", "to"))</row>"#
      + #"<row r="4"><c r="A4"><v>100</v></c>\#(text("B4", "EUR"))\#(text("C4", "USD"))</row></sheetData></worksheet>"#
    try ZipPackage(path: directory.path + "/openpyxl.xlsx").write(
      to: directory.path + "/book.xlsx", replacing: [("xl/worksheets/sheet1.xml", .bytes(Array(sheet.utf8)))])
    let refused = try cli.run(["convert", "--date", "2024-01-15", "book.xlsx"], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("if row 1 is a title above the header, give the header's row with --header-row N"))
    for row in ["3", "2"] {
      let result = try cli.run(
        ["convert", "--date", "2024-01-15", "--header-row", row, "book.xlsx", "-o", "out\(row).xlsx"], in: directory.url)
      #expect(result.status == 0, "\(result.standardError)")
      let rows = try Self.rows(of: directory.path + "/out\(row).xlsx")
      #expect(rows.map(\.number) == [1, 2, 3, 4])
      #expect(rows[0].cells.count == 1)
      #expect(Self.values(of: rows[2], from: 3, count: 7) == AnnotationColumn.allCases.map(\.rawValue))
      #expect(Self.values(of: rows[3], from: 3, count: 2) == ["1.0945", "109.45"])
    }
    let usage = try cli.run(["convert", "--header-row", "0", "book.xlsx"], in: directory.url)
    #expect(usage.status == 64)
  }

  /// `--sheet` by name and by number; a sheet that is not there, or has no amount, is refused.
  @Test func sheetChoice() throws {
    let directory = try Self.directory(with: ["libreoffice.xlsx"])
    defer { directory.remove() }
    let byNumber = try cli.run(["convert", "--to", "EUR", "--sheet", "1", "libreoffice.xlsx"], in: directory.url)
    #expect(byNumber.status == 0)
    let missing = try cli.run(["convert", "--to", "EUR", "--sheet", "3", "libreoffice.xlsx"], in: directory.url)
    #expect(missing.status == 2)
    #expect(
      missing.standardError.contains(
        #"libreoffice.xlsx:1:1: error: --sheet "3": the workbook has no such sheet (its sheets: "Payments", "Notes")"#))
    let notes = try cli.run(
      ["convert", "--to", "EUR", "--sheet", "Notes", "-o", "notes.xlsx", "libreoffice.xlsx"], in: directory.url)
    #expect(notes.status == 2)
    #expect(notes.standardError.contains(#"sheet "Notes", row 1: the header has no amount field"#))
    #expect(!notes.standardError.contains("--sheet NAME"))  // chosen: no other sheet suggested
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/notes.xlsx"))
    // The first sheet, chosen by default, without a field the run needs: the other sheets are suggested.
    let firstSheet = try cli.run(["convert", "libreoffice.xlsx"], in: directory.url)
    #expect(firstSheet.status == 2)
    #expect(
      firstSheet.standardError.contains(
        #"use --to-field NAME or --to CODE; if the records are on another sheet, choose it with --sheet NAME (the workbook's other sheets: "Notes")"#
      ))
  }

  /// A FIFO as the output is opened once the package is complete: a workbook that fails late opens nothing (no
  /// reader: the run does not wait for one), and one whose one-pass road falls back late still gives its reader
  /// the whole package.
  @Test func aFIFOIsOpenedOnceThePackageIsComplete() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func record(_ row: Int) -> String {
      #"<row r="\#(row)"><c r="A\#(row)"><v>\#(row)</v></c><c r="B\#(row)" t="inlineStr"><is><t>USD</t></is></c>"#
        + #"<c r="C\#(row)" t="inlineStr"><is><t>EUR</t></is></c></row>"#
    }
    func sheet(_ rows: String, last: Int) -> [UInt8] {
      Array(
        (#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
          + #"<dimension ref="A1:C\#(last)"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>amount</t></is></c>"#
          + #"<c r="B1" t="inlineStr"><is><t>from</t></is></c><c r="C1" t="inlineStr"><is><t>to</t></is></c></row>"#
          + rows + "</sheetData></worksheet>").utf8)
    }
    let records = (2...3000).map(record).joined()
    // A cell of a type no sheet has, near the end: refused (exit 2) after the conversion began.
    let failing = try XLSXRowCollectorTests.workbook(
      sheet: sheet(records + #"<row r="3001"><c r="A3001" t="x"><v>1</v></c></row>"#, last: 3001), in: directory,
      named: "failing.xlsx")
    // A row wider than the dimension near the end: the one-pass road falls back to two passes.
    let wide = try XLSXRowCollectorTests.workbook(
      sheet: sheet(records + #"<row r="3001"><c r="A3001"><v>5</v></c><c r="H3001"><v>1</v></c></row>"#, last: 3001),
      in: directory, named: "wide.xlsx")
    let fifo = directory.path + "/fifo"
    try #require(mkfifo(fifo, 0o600) == 0)
    let refused = try cli.run(["convert", "-q", failing, "-o", fifo], in: directory.url)
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("C3001") || refused.standardError.contains("A3001"), "\(refused.standardError)")
    // A reader on the FIFO gets the whole package.
    let read = Mutex<Data?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      // Opened for reading as `cat` does: the open waits for the writer.
      let bytes = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile()
      read.withLock { $0 = bytes }
      done.signal()
    }
    let converted = try cli.run(["convert", "-q", wide, "-o", fifo], in: directory.url)
    #expect(converted.status == 1, "\(converted.standardError)")  // converted; the wide row is an error record
    done.wait()
    let bytes = try #require(read.withLock { $0 })
    let copy = try directory.write(Array(bytes), named: "copy.xlsx")
    let rows = try Self.rows(of: copy)
    #expect(rows.count == 3001)
  }

  /// A write that fails while the sheet is converted (here past the process's file size limit) is reported with
  /// the system's reason, not as the deflater's "the package's writing has stopped", and leaves nothing.
  @Test func aWriteFailureMidwaySaysWhy() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var rows =
      #"<row r="1"><c r="A1" t="inlineStr"><is><t>amount</t></is></c><c r="B1" t="inlineStr"><is><t>from</t></is></c>"#
      + #"<c r="C1" t="inlineStr"><is><t>to</t></is></c></row>"#
    for row in 2...60_000 {
      rows +=
        #"<row r="\#(row)"><c r="A\#(row)"><v>\#(row * 7919 % 100_003).\#(row % 100)</v></c>"#
        + #"<c r="B\#(row)" t="inlineStr"><is><t>\#(["USD", "GBP", "JPY"][row % 3])</t></is></c>"#
        + #"<c r="C\#(row)" t="inlineStr"><is><t>EUR</t></is></c></row>"#
    }
    let sheet =
      #"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#
      + "<sheetData>\(rows)</sheetData></worksheet>"
    _ = try XLSXRowCollectorTests.workbook(sheet: Array(sheet.utf8), in: directory, named: "book.xlsx")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // 400 KiB: the converted sheet deflates to a few megabytes.
    process.arguments = ["-c", "ulimit -f 400; exec \"$0\" convert -q book.xlsx -o out.xlsx", cli.executable.path]
    process.currentDirectoryURL = directory.url
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(message.contains("File too large"), "\(message)")
    #expect(!message.contains("has stopped"), "\(message)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["book.xlsx"])
  }

  /// A workbook's annotated copy is a zip package: standard output is refused before anything is written.
  @Test func standardOutputIsRefused() throws {
    let directory = try Self.directory(with: ["libreoffice.xlsx"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--to", "EUR", "-o", "-", "libreoffice.xlsx"], in: directory.url)
    #expect(result.status == 2)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError.contains(
        "libreoffice.xlsx:1:1: error: the annotated copy of a workbook is a zip package, not text for standard output"))
    #expect(try directory.fileNames() == ["libreoffice.xlsx"])
  }

  /// A workbook without its extension is found by its content; its annotated copy is refused as input.
  @Test func contentDetectionAndAnnotatedCopies() throws {
    let directory = try Self.directory(with: ["libreoffice.xlsx"])
    defer { directory.remove() }
    try FileManager.default.moveItem(atPath: directory.path + "/libreoffice.xlsx", toPath: directory.path + "/book")
    let result = try cli.run(["convert", "--to", "EUR", "book"], in: directory.url)
    #expect(result.status == 0)
    #expect(result.standardError.contains("book -> book.converted: 4 records: 4 ok, 0 fallback, 0 error [XLSX]"))
    let again = try cli.run(["convert", "--to", "EUR", "-o", "again.xlsx", "book.converted"], in: directory.url)
    #expect(again.status == 2)
    #expect(again.standardError.contains("the file is already annotated by fxbatch (its header row has the fx_* cells)"))
  }

  /// The sample workbook converts as `Samples/README.md` says, by hand from the embedded ECB history:
  ///  row 2: 1250 USD → EUR on 2025-03-03, EUR/USD 1.0465: 1250 / 1.0465 = 1194.457… → 1194.46
  ///  row 5: 18.20 CHF on Saturday 2025-03-08 → Friday 2025-03-07, EUR/CHF 0.9557: 18.20 / 0.9557 = 19.0436… →
  ///         19.04, fallback
  ///  row 7: 420 SEK → USD on 2025-03-11 through the euro, EUR/SEK 10.9815 and EUR/USD 1.0912:
  ///         420 × 1.0912 / 10.9815 = 41.7342… → 41.73
  @Test func sampleConvertsAsItsREADMESays() throws {
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      [UInt8](try Data(contentsOf: samples.appendingPathComponent("expenses.xlsx"))), named: "expenses.xlsx")
    let result = try cli.run(["convert", "expenses.xlsx"], in: directory.url)
    #expect(result.status == 0)
    #expect(
      result.standardError.contains(
        "expenses.xlsx -> expenses.converted.xlsx: 6 records: 5 ok, 1 fallback, 0 error [XLSX]"))
    let rows = try Self.rows(of: directory.path + "/expenses.converted.xlsx")
    #expect(rows.count == 7)
    let dates = try Self.dateStyles(of: directory.path + "/expenses.converted.xlsx")
    #expect(Self.values(of: rows[1], from: 6, count: 3, dateStyles: dates) == ["1194.46", "EUR", "2025-03-03"])
    #expect(
      Self.values(of: rows[4], from: 6, count: 6, dateStyles: dates) == [
        "19.04", "EUR", "2025-03-07", "ecb-embedded EUR/CHF=0.9557", "fallback", "",
      ])
    #expect(Self.values(of: rows[6], from: 6, count: 2) == ["41.73", "USD"])
  }

  /// Hostile and malformed packages: one line saying why, exit 2, nothing written.
  @Test(arguments: [
    ("legacy.xls", "a legacy .xls workbook (Excel 97-2003): save it as .xlsx"),
    ("password-protected.xlsx", "a password-protected workbook: save a copy without the password"),
    ("encrypted-entry.xlsx", "a password-protected workbook: save a copy without the password"),
    ("binary.xlsb", "an .xlsb binary workbook: save it as .xlsx"),
    ("zip-bomb.xlsx", "xl/worksheets/sheet1.xml inflates 16344 bytes to 16777239, more than 100 times: a zip bomb"),
    ("lying-bomb.xlsx", "xl/worksheets/sheet1.xml lies about its size: it declares 1000 bytes and inflates to more"),
    ("lying-size-smaller.xlsx", "lies about its size: it declares 104 bytes and inflates to more"),
    ("lying-size-larger.xlsx", "lies about its size: it declares 144 bytes and inflates to 124"),
    ("bad-crc.xlsx", "its checksum (CRC-32) does not match its data: the file is damaged"),
    ("doctype.xlsx", "xl/workbook.xml has a DTD or an entity declaration, which workbooks never need: refused"),
    ("doctype-utf16.xlsx", "xl/workbook.xml has a DTD or an entity declaration, which workbooks never need: refused"),
    ("duplicate-entry.xlsx", "the package has two entries named xl/workbook.xml"),
    ("odf-encrypted.ods", "a password-protected workbook: save a copy without the password"),
  ])
  func hostilePackagesAreRefused(name: String, reason: String) throws {
    let directory = try Self.directory(with: [name])
    defer { directory.remove() }
    let result = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
    #expect(result.status == 2)
    let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix(name + ":") }
    #expect(lines.count == 1)
    #expect(lines.first?.hasSuffix(reason) == true, "\(lines)")
    #expect(try directory.fileNames() == [name])
  }

  // Before: libxml2 printed three lines of its own before fxbatch's ("…: parser error : xmlSAX2Characters: huge
  // text node", a line of the text, a caret). A text past libxml2's limit is one line of fxbatch's, exit 2.
  @Test func aTextPastLibxml2sLimitIsOneLine() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Random letters (a text that compresses 100 times would be a zip bomb first): 64 KiB of them repeated, which
    // deflate's 32 KiB window does not see.
    var generator = SplitMix64(seed: 3)
    let piece = String(decoding: (0..<65_536).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 26) }, as: UTF8.self)
    let text = String(repeating: piece, count: 161)
    let sheet =
      #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
      + #"<row r="1"><c r="A1" t="inlineStr"><is><t>amount</t></is></c><c r="B1" t="inlineStr"><is><t>from</t></is></c>"#
      + #"</row><row r="2"><c r="A2"><v>5</v></c><c r="B2" t="inlineStr"><is><t>\#(text)</t></is></c></row>"#
      + "</sheetData></worksheet>"
    let path = try XLSXRowCollectorTests.workbook(sheet: Array(sheet.utf8), in: directory, named: "long.xlsx")
    let result = try cli.run(["convert", "--to", "EUR", path], in: directory.url)
    #expect(result.status == 2)
    let lines = result.standardError.split(separator: "\n")
    #expect(!result.standardError.contains("parser error"), "\(lines.prefix(3))")
    #expect(lines.filter { $0.contains("huge text node") }.count == 1)
    #expect(try directory.fileNames() == ["long.xlsx"])
  }

  // Before: an .xlsx named .csv, or read with --format csv, was "not UTF-8" with an encoding hint; `-o out.csv`
  // wrote a workbook named .csv, and a CSV file's `-o out.xlsx` text named .xlsx. A workbook under a text
  // format's name is read as the workbook it is; the rest is refused, nothing written.
  @Test func workbooksAndTextAreNotTakenForEachOther() throws {
    let directory = try Self.directory(with: ["openpyxl.xlsx"])
    defer { directory.remove() }
    try FileManager.default.copyItem(atPath: directory.path + "/openpyxl.xlsx", toPath: directory.path + "/export.csv")
    let renamed = try cli.run(["convert", "-q", "--to", "EUR", "export.csv", "-o", "export.xlsx"], in: directory.url)
    // Exit 1: the fixture has records with per-record errors.
    #expect(renamed.status == 0 || renamed.status == 1, "\(renamed.standardError)")
    #expect(try Self.rows(of: directory.path + "/export.xlsx").count > 1)
    try "amount,from\n10,USD\n".write(toFile: directory.path + "/text.csv", atomically: true, encoding: .utf8)
    for (arguments, message) in [
      (["--format", "csv", "openpyxl.xlsx", "-o", "a.csv"], "a zip package or a Compound File (a workbook?), not CSV text"),
      (["openpyxl.xlsx", "-o", "b.csv"], "its annotated copy is an XLSX workbook, but its output is named as CSV text"),
      (["text.csv", "-o", "c.xlsx"], "its annotated copy is CSV text, but its output is named as a workbook"),
      (["text.csv", "-o", "d.xlsm"], "its annotated copy is CSV text, but its output is named as a workbook"),
      (["text.csv", "--header-row", "2"], "--header-row is for workbooks, and this file is read as csv"),
    ] {
      let result = try cli.run(["convert", "--to", "EUR"] + arguments, in: directory.url)
      #expect(result.status == 2)
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
    // Standard input read in one pass (CSV, its decimal mark given): its copy is text too.
    let piped = try cli.run(
      ["convert", "--to", "EUR", "--format", "csv", "--decimal-separator", ".", "-", "-o", "e.xlsx"], in: directory.url,
      input: Data("amount,from\n10,USD\n".utf8))
    #expect(piped.status == 2)
    #expect(piped.standardError.contains("its annotated copy is CSV text, but its output is named as a workbook"))
    #expect(try directory.fileNames().sorted() == ["export.csv", "export.xlsx", "openpyxl.xlsx", "text.csv"])
  }

  // Before: exit 0, column A's 100 converted and column D's `Amount` passed over. A sheet whose header names the
  // amount field twice is refused; `--amount-field Amount` reads column D (5 EUR → USD at 1.0945 = 5.47).
  @Test func aHeaderNamingOneFieldTwiceIsRefused() throws {
    let directory = try Self.directory(with: ["openpyxl.xlsx"])
    defer { directory.remove() }
    func cell(_ reference: String, _ text: String) -> String {
      #"<c r="\#(reference)" t="inlineStr"><is><t>\#(text)</t></is></c>"#
    }
    let sheet = """
      <?xml version="1.0" encoding="UTF-8"?>
      <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">\
      \(cell("A1", "amount"))\(cell("B1", "from"))\(cell("C1", "to"))\(cell("D1", "Amount"))</row><row r="2">\
      <c r="A2"><v>100</v></c>\(cell("B2", "EUR"))\(cell("C2", "USD"))<c r="D2"><v>5</v></c></row></sheetData></worksheet>
      """
    try ZipPackage(path: directory.path + "/openpyxl.xlsx").write(
      to: directory.path + "/book.xlsx", replacing: [("xl/worksheets/sheet1.xml", .bytes(Array(sheet.utf8)))])
    let refused = try cli.run(["convert", "-q", "--date", "2024-01-15", "book.xlsx"], in: directory.url)
    #expect(refused.status == 2)
    #expect(
      refused.standardError.contains(
        #"row 1: the header's columns "amount" (column 1) and "Amount" (column 4) both name the amount field"#),
      "\(refused.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/book.converted.xlsx"))
    let chosen = try cli.run(
      ["convert", "-q", "--date", "2024-01-15", "--amount-field", "Amount", "book.xlsx"], in: directory.url)
    #expect(chosen.status == 0, "\(chosen.standardError)")
    let rows = try Self.rows(of: directory.path + "/book.converted.xlsx")
    #expect(Self.values(of: rows[1], from: 4, count: 2) == ["1.0945", "5.47"])
  }
}

/// The annotated copies opened by LibreOffice itself, exported as CSV. Skipped where LibreOffice is not
/// installed (`.ci/run` installs `libreoffice-calc-nogui`).
@Suite("fxbatch end to end: XLSX in LibreOffice", .enabled(if: LibreOffice.soffice != nil))
struct EndToEndXLSXLibreOfficeTests {
  @Test(arguments: ["libreoffice.xlsx", "openpyxl.xlsx"])
  func libreOfficeShowsTheFXColumns(name: String) throws {
    let cli = try CLIRunner()
    let directory = try EndToEndXLSXTests.directory(with: [name])
    defer { directory.remove() }
    _ = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
    let csv = try ZipLibreOfficeTests.csv(
      of: directory.path + "/" + PathText.splitExtension(name).stem + ".converted.xlsx", in: directory)
    let lines = csv.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(
      lines.first == "date,amount,currency,note,fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error")
    #expect(
      lines.dropFirst().first
        == "2024-01-15,1234.56,USD,Invoice 17,0.9136592051,1127.97,EUR,2024-01-15,ecb-embedded EUR/USD=1.0945,ok,")
    #expect(
      lines.dropFirst(3).first
        == "2024-03-01,1000,JPY,Tokyo office,0.006141751628,6.14,EUR,2024-03-01,ecb-embedded EUR/JPY=162.82,ok,")
  }
}

/// The annotated copies read back by openpyxl: every original cell of every sheet as it was (value, type and
/// number format), and the fx cells typed as they should be. Skipped where openpyxl is not installed (`.ci/run`
/// installs it in `Tests/.venv`).
@Suite("fxbatch end to end: XLSX in openpyxl", .enabled(if: OpenPyXL.python != nil))
struct EndToEndXLSXOpenPyXLTests {
  @Test(arguments: ["libreoffice.xlsx", "openpyxl.xlsx"])
  func openpyxlReadsTheFXColumns(name: String) throws {
    let cli = try CLIRunner()
    let directory = try EndToEndXLSXTests.directory(with: [name])
    defer { directory.remove() }
    _ = try cli.run(["convert", "--to", "EUR", name], in: directory.url)
    let before = try OpenPyXL.cells(of: directory.path + "/" + name)
    let after = try OpenPyXL.cells(of: directory.path + "/" + PathText.splitExtension(name).stem + ".converted.xlsx")
    let fxColumns: Set<Character> = ["E", "F", "G", "H", "I", "J", "K"]
    let original = after.filter { $0["sheet"] != "Payments" || !fxColumns.contains($0["cell"]?.first ?? " ") }
    #expect(original == before)
    #expect(before.count > 10)
    func cell(_ reference: String) -> [String: String]? {
      after.first { $0["sheet"] == "Payments" && $0["cell"] == reference }
    }
    #expect(cell("E1")?["value"] == "fx_rate")
    #expect(cell("K1")?["value"] == "fx_error")
    #expect(cell("E2") == ["sheet": "Payments", "cell": "E2", "value": "0.9136592051", "type": "float", "format": "General"])
    #expect(cell("F2") == ["sheet": "Payments", "cell": "F2", "value": "1127.97", "type": "float", "format": "0.00"])
    #expect(cell("G2")?["value"] == "EUR")
    #expect(
      cell("H2") == [
        "sheet": "Payments", "cell": "H2", "value": "2024-01-15T00:00:00", "type": "datetime", "format": "yyyy-mm-dd",
      ])
    #expect(cell("I4")?["value"] == "ecb-embedded EUR/JPY=162.82")
    #expect(cell("F4")?["value"] == "6.14")
  }

  /// A target currency without minor units (JPY) gets the `0` format (the ECB publishes none with three).
  @Test func yenAmountsHaveNoDecimals() throws {
    let cli = try CLIRunner()
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.xlsx"])
    defer { directory.remove() }
    _ = try cli.run(["convert", "--to", "JPY", "libreoffice.xlsx"], in: directory.url)
    let after = try OpenPyXL.cells(of: directory.path + "/libreoffice.converted.xlsx")
    let converted = after.first { $0["sheet"] == "Payments" && $0["cell"] == "F2" }
    // 1234.56 USD on 2024-01-15: × 159.67 / 1.0945 (EUR/JPY, EUR/USD) = 180102.6… → 180103
    #expect(converted?["format"] == "0")
    #expect(converted?["value"] == "180103")
  }
}
