import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// ``XLSXSheetScanner`` reads a sheet only in its well-formed subset and reads it as libxml2 does: for
/// hand-written markup, hundreds of mutated sheets and real workbooks, a conversion on the fast path (scanner)
/// ends as it does on the general path (libxml2 and the rewriter): refused with the same error and nothing
/// written, or converted to the same bytes, counts and reconciliation. Every sheet the scanner reads to its end
/// is one libxml2 reads whole, to the same rows, and the scanner's items put back together are the part's bytes.
@Suite("XLSX: the sheet scanner = libxml2")
struct XLSXSheetScannerTests {
  // MARK: Helpers

  /// How a conversion ended.
  enum Outcome: Equatable {
    case refused(String)
    case converted(XLSXFastPathTests.Run)
  }

  /// Converts `input` from the embedded ECB table, on the fast path or the general path.
  static func outcome(_ input: String, fastPath: Bool, configure: (inout BatchOptions) -> Void) throws -> Outcome {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.path + "/out.xlsx"
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(output)
    options.fastPath = fastPath
    configure(&options)
    let report = BatchJob(options: options, source: .table(EmbeddedECBHistory.table)).run()
    if let error = report.files.first?.fileError {
      #expect(!FileManager.default.fileExists(atPath: output), "refused but written: \(error)")
      return .refused(error)
    }
    let package = try ZipPackage(path: output)
    return .converted(
      XLSXFastPathTests.Run(
        sheet: try package.contents(ofEntryNamed: "xl/worksheets/sheet1.xml"),
        styles: try package.contents(ofEntryNamed: "xl/styles.xml"), totals: report.totals,
        reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate))
  }

  /// Converts `input` on both paths and records any difference.
  ///
  /// - Returns: the general path's outcome.
  @discardableResult
  static func differential(_ input: String, _ label: String, configure: (inout BatchOptions) -> Void = { _ in }) throws
    -> Outcome
  {
    let fast = try outcome(input, fastPath: true, configure: configure)
    let general = try outcome(input, fastPath: false, configure: configure)
    if case .converted(let fastRun) = fast, case .converted(let generalRun) = general {
      if fastRun != generalRun {
        Issue.record("\(label): the fast path's copy differs from the general path's")
        XLSXFastPathTests.compare(fastRun, generalRun)
      }
    } else {
      #expect(fast == general, "\(label)")
    }
    return general
  }

  /// Whether pass 1 of `path` read its sheet with the scanner (``WorkbookScanDetails/sheetScanned``).
  static func scanned(_ path: String, configure: (inout BatchOptions) -> Void = { _ in }) throws -> Bool {
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [path]
    options.destination = .file(path + ".out.xlsx")
    configure(&options)
    let job = BatchJob(options: options, source: .table(EmbeddedECBHistory.table))
    // Pass 1 proper (under a local table, `XLSXFormat.scan` leaves the sheet to the one-pass road).
    let book = try XLSXBook(readPath: path, displayPath: path, sheet: options.sheet, verify: true)
    let (scan, _) = try XLSXFormat.scan(
      FileInput(displayPath: path, readPath: path, outputPath: path + ".out.xlsx"), book: book,
      context: job.formatContext)
    return scan.workbook.sheetScanned
  }

  /// What the scanner made of a workbook's sheet, read directly.
  struct Scanned {
    /// Its rows, each read whole from the row's bytes by ``XLSXRowCollector`` (as the fast path does).
    var rows: [SheetRow] = []
    var simpleRows = 0
    /// Every item's bytes, in order.
    var copy: [UInt8] = []
    /// Why the scanner stopped before the part's end (or the collector refused a row); `nil`: it read it all.
    var stop: String? = nil
    /// Simple rows whose cells the scanner read otherwise than the collector.
    var mismatches: [String] = []
    /// How many reads of the entry the scanner made, and whether it wanted more than ``BudgetedReads`` allow.
    var reads = 0
    var overBudget = false
    /// The bytes the scanner read again from an item's start (``XLSXSheetScanner/rescanned``).
    var rescanned = 0
  }

  /// A sheet's entry read with a budget of reads: a few for each 64 KiB it inflates to (the scanner reads
  /// 256 KiB at a time). Past the budget it ends the entry early, so that a scanner reading in ever smaller pieces
  /// (each read scanning its item again from the start) fails a test instead of running for hours.
  final class BudgetedReads: ZipEntryReading {
    let base: any ZipEntryReading
    let budget: Int
    private(set) var reads = 0
    var overBudget: Bool { reads > budget }
    var package: ZipPackage { base.package }
    var entry: ZipEntry { base.entry }

    init(_ base: any ZipEntryReading) {
      self.base = base
      budget = Int(base.entry.size / (64 << 10)) + 32
    }

    func read(into buffer: inout [UInt8], at index: Int) throws(ZipError) -> Int {
      reads += 1
      guard reads <= budget else { return 0 }
      return try base.read(into: &buffer, at: index)
    }
  }

  /// Reads a workbook's sheet with ``XLSXSheetScanner``, checking each simple row's cells against the
  /// collector's reading of the same bytes.
  static func scanDirectly(_ path: String) throws -> Scanned {
    let book = try XLSXBook(readPath: path, displayPath: path, sheet: nil)
    let strings = book.sharedStrings.strings
    let stream = BudgetedReads(try book.package.stream(book.sheetEntry))
    var scanner = XLSXSheetScanner(stream: stream, sharedStringCount: strings.count)
    var result = Scanned()
    do {
      while let item = try scanner.next() {
        switch item {
        case .markup(let range), .dimension(let range):
          result.copy += scanner.bytes.slice(range).buffer
          continue
        case .row: break
        }
        let element = Array(scanner.bytes.slice(scanner.rowRange).buffer)
        result.copy += element
        let row = try XLSXRowCollector.row(
          element, after: scanner.rowPreviousRow, sharedStrings: book.sharedStrings, path: path,
          entry: book.sheetEntry.name)
        result.rows.append(row)
        defer { scanner.previousRow = row.number }
        guard scanner.rowIsSimple else { continue }
        result.simpleRows += 1
        let text = String(decoding: element, as: UTF8.self)
        guard row.number == scanner.rowNumber, row.cells.map(\.reference.column) == scanner.cells.map(\.column),
          row.cells.map(\.style) == scanner.cells.map(\.style)
        else {
          result.mismatches.append("row \(row.number) (scanner: \(scanner.rowNumber)): \(text)")
          continue
        }
        for (cell, read) in zip(scanner.cells, row.cells) {
          let value = String(decoding: scanner.bytes.slice(cell.value).buffer, as: UTF8.self)
          let expected: SheetCellValue?
          switch cell.kind {
          case .number: expected = cell.isPlain ? .number(value) : nil
          case .inline: expected = cell.isPlain ? .text(value) : nil
          // A formula's string result is unescaped (`_xHHHH_`) by the readers; the decoder reads a plain one
          // only as a currency code or a date, which holds no `_x`.
          case .string: expected = cell.isPlain && !value.contains("_x") ? .text(value) : nil
          case .shared: expected = Int(value).map { .text(strings[$0]) }
          case .empty: expected = .empty
          case .other: expected = nil
          }
          if let expected, read.value != expected {
            result.mismatches.append("row \(row.number), \(cell.kind) \(expected) read as \(read.value): \(text)")
          }
        }
        if scanner.rowHasValue, XLSXBook.isBlank(row) {
          result.mismatches.append("row \(row.number) has a value by the scanner, blank by the readers: \(text)")
        }
      }
    } catch let stop as XLSXSheetScanner.Stop {
      result.stop = "\(stop)"
    } catch {
      result.stop = "the collector: \(error)"
    }
    result.reads = stream.reads
    result.overBudget = stream.overBudget
    result.rescanned = scanner.rescanned
    return result
  }

  /// Scans `path` directly; when the scanner reads it all, libxml2 must read it whole to the same rows, and the
  /// items' bytes must be the part's.
  ///
  /// - Returns: what the scanner read (``Scanned/stop`` `nil`: all of it).
  @discardableResult
  static func checkScanner(_ path: String, sheet: [UInt8], _ label: String) throws -> Scanned {
    // The expectations test plain values: a failure shows the label, not megabytes of rows.
    let scanned = try scanDirectly(path)
    let (overBudget, reads, mismatches) = (scanned.overBudget, scanned.reads, scanned.mismatches)
    #expect(!overBudget, "\(label): the scanner reads the entry in more than \(reads - 1) pieces")
    #expect(mismatches.isEmpty, "\(label): \(mismatches.prefix(3))")
    guard scanned.stop == nil else { return scanned }
    let isWhole = scanned.copy == sheet
    #expect(isWhole, "\(label): the items are not the part's bytes")
    let libxml2 = try XLSXRowCollectorTests.readings(path).libxml2
    let libxml2Reads = libxml2 != nil
    #expect(libxml2Reads, "\(label): the scanner reads a sheet libxml2 refuses")
    let sameRows = libxml2.map { $0 == scanned.rows } ?? true
    #expect(sameRows, "\(label): the scanner's rows differ from libxml2's")
    return scanned
  }

  static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
  static let declaration = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n"

  /// The header row of the hand-written sheets: amount, from, to, date in A to D.
  static let header =
    #"<row r="1"><c r="A1" t="inlineStr"><is><t>amount</t></is></c><c r="B1" t="inlineStr"><is><t>from</t></is></c>"#
    + #"<c r="C1" t="inlineStr"><is><t>to</t></is></c><c r="D1" t="inlineStr"><is><t>date</t></is></c></row>"#

  /// A record row in openpyxl's markup: `amount` USD → EUR on a serial date in the date style.
  static func record(_ row: Int, amount: String = "100", from: String = "USD", to: String = "EUR", date: String = "45000")
    -> String
  {
    #"<row r="\#(row)"><c r="A\#(row)"><v>\#(amount)</v></c><c r="B\#(row)" t="inlineStr"><is><t>\#(from)</t></is></c>"#
      + #"<c r="C\#(row)" t="inlineStr"><is><t>\#(to)</t></is></c><c r="D\#(row)" s="1"><v>\#(date)</v></c></row>"#
  }

  /// A sheet of the header, `rows` and a last plain record, in the default namespace.
  static func sheet(_ rows: String, declaration: String = declaration, last: Int = 40) -> String {
    declaration + #"<worksheet xmlns="\#(main)"><dimension ref="A1:D\#(last)"/><sheetData>"# + header + rows
      + record(last) + "</sheetData></worksheet>"
  }

  /// Sheets in and around the subset: entities, CDATA, comments, phonetic runs, prefixes, line ends, quotes,
  /// rows and cells without `r`, typed cells, formulas, inline strings with runs, declarations, names,
  /// namespaces, references.
  static func handWrittenSheets() -> [(name: String, sheet: String)] {
    var sheets: [(String, String)] = []
    func add(_ name: String, _ rows: String) { sheets.append((name, sheet(rows))) }
    add("plain", record(2) + record(3, amount: "-12.5", from: "GBP", to: "USD"))
    add(
      "entities in text",
      #"<row r="2"><c r="A2"><v>1&#48;0</v></c><c r="B2" t="inlineStr"><is><t>&#85;SD</t></is></c>"#
        + #"<c r="C2" t="inlineStr"><is><t>E&#x55;R</t></is></c><c r="D2" t="inlineStr"><is><t>2024&#45;03-08</t></is></c>"#
        + #"</row><row r="3"><c r="A3"><v>5</v></c><c r="B3" t="inlineStr"><is><t>&lt;USD&gt; &amp; &quot;&apos;</t>"#
        + "</is></c></row>")
    add("entities in attributes", #"<row r="&#51;"><c r="A&#51;" s="&#49;"><v>7</v></c></row>"# + record(4))
    add("cdata", #"<row r="2"><c r="A2"><v><![CDATA[12.5]]></v></c></row>"#)
    add("comment in a row", #"<row r="2"><!-- c --><c r="A2"><v>12.5</v></c></row>"#)
    add("comment between rows", record(2) + "<!-- <row r=\"3\"> -->" + record(4))
    add("processing instruction", #"<row r="2"><c r="A2"><?pi x?><v>12.5</v></c></row>"#)
    add(
      "phonetic run",
      #"<row r="2"><c r="A2"><v>3</v></c><c r="B2" t="inlineStr"><is><r><t>US</t></r><r><rPr/><t>D</t></r>"#
        + #"<rPh sb="0" eb="1"><t>ユー</t></rPh></is></c><c r="C2" t="inlineStr"><is><r><t>EUR</t></r></is></c></row>"#)
    add(
      "line ends",
      "\r\n" + record(2) + "\r\n" + #"<row r="3"><c r="A3"><v>4</v></c><c r="B3" t="inlineStr"><is><t>US"#
        + "\r\nD</t></is></c>\r\n" + #"<c r="C3" t="inlineStr"><is><t>EUR"# + "\r\n</t></is></c></row>\r\n"
        + #"<row r="4"><c r="A4"><v>4</v></c><c r="B4" t="inlineStr"><is><t>USD"# + "\r</t></is></c></row>")
    add(
      "single quotes",
      #"<row r='2' spans='1:4'><c r='A2' t='n'><v>5</v></c><c r='B2' t='inlineStr'><is><t>USD</t></is></c>"#
        + #"<c r='C2' t='inlineStr'><is><t>EUR</t></is></c><c r='D2' s='1'><v>45001</v></c></row>"#)
    add(
      "spaces around =",
      #"<row r = "2" ><c r= "A2" ><v>5</v ></c ><c r ="B2" t = 'inlineStr'><is><t>USD</t></is></c>"#
        + "<c\nr=\"C2\"\tt=\"inlineStr\"><is><t>EUR</t></is></c></row\n>")
    add(
      "rows without r",
      #"<row><c r="A2"><v>5</v></c><c r="B2" t="inlineStr"><is><t>USD</t></is></c>"#
        + #"<c r="C2" t="inlineStr"><is><t>EUR</t></is></c></row><row><c><v>6</v></c></row>"# + record(4))
    add(
      "cells without r",
      #"<row r="2"><c><v>5</v></c><c t="inlineStr"><is><t>USD</t></is></c><c t="inlineStr"><is><t>EUR</t></is></c>"#
        + #"<c s="1"><v>45002</v></c></row>"#)
    add(
      "formula results",
      #"<row r="2"><c r="A2"><f>1+1</f><v>2</v></c><c r="B2" t="str"><f>"US"&amp;"D"</f><v>USD</v></c>"#
        + #"<c r="C2" t="str"><v>_x0045_UR</v></c></row><row r="3"><c r="A3"><f>1+1</f></c>"#
        + #"<c r="B3" t="str"><v>USD_x0020_</v></c><c r="C3" t="str"><v>EUR</v></c></row>"#
        + #"<row r="4"><c r="A4"><f>SUM(A1)</f><v/></c><c r="B4" t="str"><f/><v></v></c></row>"#
        + #"<row r="5"><c r="A5"><v>2</v><f>1+1</f></c><c r="B5" t="str"><v>US</v><v>D</v></c></row>"#
        + #"<row r="6"><c r="A6"><f t="shared" ref="A6:A7" si="0">1+1</f><v>2</v></c></row>"#
        + #"<row r="7"><c r="A7"><f t="shared" si="0"/><v>2</v></c><c r="B7" t="str"><v>_x005F_x0041_</v></c></row>"#)
    add(
      "inline strings",
      #"<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="inlineStr"><is><r><t>U</t></r><r><t>SD</t></r></is></c>"#
        + #"<c r="C2" t="inlineStr"><is/></c></row><row r="3"><c r="A3"><v>1</v></c>"#
        + #"<c r="B3" t="inlineStr"><is><t/></is></c><c r="C3" t="inlineStr"><is><t>E</t><t>UR</t></is></c></row>"#
        + #"<row r="4"><c r="A4" t="inlineStr"><is><t>1,234.56</t></is></c><c r="B4" t="inlineStr"><v>USD</v></c>"#
        + #"<c r="C4" t="inlineStr"><t>EUR</t></c></row><row r="5"><c r="A5"><v>1</v></c>"#
        + #"<c r="B5" t="inlineStr"><is><t xml:space="preserve"> USD </t></is></c>"#
        + #"<c r="C5" t="inlineStr"><is><t>_x0045_UR</t></is></c></row><row r="6"><c r="A6"><v>2</v></c>"#
        + #"<c r="B6" t="inlineStr"><is></is></c><c r="C6" t="inlineStr"><is><t>  </t></is></c></row>"#)
    add(
      "numbers",
      [" 12 ", "+5", "1E3", "0012.50", ".5", "5.", "-0", "", "1,5", "12.5.1", "١٢", "0x10", "1e400", "-", "12 34"]
        .enumerated().map { record($0.offset + 2, amount: $0.element) }.joined())
    add(
      "styles",
      ["01", "-1", "+1", "", "abc", " 1", "99999999999", "1.0", "2"].enumerated().map { offset, style in
        let row = offset + 2
        return #"<row r="\#(row)"><c r="A\#(row)" s="\#(style)"><v>5</v></c><c r="B\#(row)" t="inlineStr"><is><t>USD</t>"#
          + #"</is></c><c r="C\#(row)" t="inlineStr"><is><t>EUR</t></is></c><c r="D\#(row)" s="\#(style)"><v>45003</v></c>"#
          + "</row>"
      }.joined())
    add("row numbers with zeros and signs", record(2).replacingOccurrences(of: #"r="2""#, with: #"r="02""#) + record(3))
    add("row number with a sign", record(2) + record(3).replacingOccurrences(of: #"<row r="3""#, with: #"<row r="+3""#))
    add("row number with a space", record(2) + record(3).replacingOccurrences(of: #"<row r="3""#, with: #"<row r=" 3""#))
    add("rows out of order", record(5) + record(4))
    add("row twice", record(2) + record(2))
    add("row 0", record(2).replacingOccurrences(of: #"<row r="2""#, with: #"<row r="0""#))
    add("row -1", record(2).replacingOccurrences(of: #"<row r="2""#, with: #"<row r="-1""#))
    sheets.append(("last row", sheet(record(2), last: 1_048_576)))
    sheets.append(("past the last row", sheet(record(2), last: 1_048_577)))
    add("lower-case reference", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="b2""#))
    add("absolute reference", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="$B$2""#))
    add("reference in another row", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="B3""#))
    add("cells out of order", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="E2""#))
    add("reference with a zero", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="B02""#))
    add(
      "last columns",
      #"<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="inlineStr"><is><t>USD</t></is></c>"#
        + #"<c r="C2" t="inlineStr"><is><t>EUR</t></is></c><c r="XEX2"><v>1</v></c></row>"#)
    add(
      "past the last column",
      #"<row r="2"><c r="A2"><v>1</v></c><c r="XFE2"><v>1</v></c></row>"#)
    add(
      "types",
      #"<row r="2"><c r="A2" t="n"><v>5</v></c><c r="B2" t="inlineStr"><is><t>USD</t></is></c>"#
        + #"<c r="C2" t="inlineStr"><is><t>EUR</t></is></c><c r="D2" t="d"><v>2024-03-08</v></c></row>"#
        + #"<row r="3"><c r="A3" t="b"><v>1</v></c><c r="B3" t="e"><v>#N/A</v></c><c r="C3" t="n"><v>1</v></c>"#
        + #"<c r="D3" t="x"/></row><row r="4"><c r="A4" t="s"><v>0</v></c>"#
        + #"<c r="B4" t="str"><v>USD</v></c><c r="C4" t="inlineStr"><is><t>EUR</t></is></c>"#
        + #"<c r="D4" t="str"><v>2024-03-07</v></c></row><row r="5"><c r="A5" t="n"><v>5</v></c>"#
        + #"<c r="B5" t="b"><v>0</v></c><c r="C5" t="e"><v>#REF!</v></c><c r="D5" t="d"><v>nope</v></c></row>"#
        + #"<row r="6"><c r="A6" t="n"><v>5</v></c><c r="B6" t="inlineStr"><is><t>USD</t></is></c>"#
        + #"<c r="C6" t="inlineStr"><is><t>EUR</t></is></c><c r="D6" t="inlineStr"><is><t>2024-03-06</t></is></c>"#
        + "</row>")
    // A cell's children as the scanner reads them at once (`<v>…</v>`, `<is><t>…</t></is>`, `</c>`), and near
    // misses that it reads step by step.
    let plainRecord = record(3)
    for (name, from, to) in [
      ("empty inline text", "<is><t>EUR</t></is>", "<is><t></t></is>"),
      ("empty value", "<v>100</v>", "<v></v>"),
      ("value with a reference", "<v>100</v>", "<v>1&#48;0</v>"),
      ("value end tag with a space", "<v>100</v>", "<v>100</v >"),
      ("cell end tag with a space", "<v>100</v></c>", "<v>100</v></c >"),
      ("inline end tags with spaces", "<t>EUR</t></is>", "<t>EUR</t ></is >"),
      ("inline text preserved", "<is><t>EUR</t></is>", #"<is><t xml:space="preserve">EUR</t></is>"#),
      ("inline text and a run", "<is><t>EUR</t></is>", "<is><t>EUR</t><r><t>x</t></r></is>"),
      ("inline text twice", "<is><t>EUR</t></is>", "<is><t>EUR</t><t>USD</t></is>"),
      ("value after a formula", "<v>100</v>", "<f>50*2</f><v>100</v>"),
      ("value twice", "<v>100</v>", "<v>100</v><v>200</v>"),
      ("inline string in a number cell", "<v>100</v>", "<is><t>100</t></is>"),
      ("value in an inline cell", "<is><t>EUR</t></is>", "<v>EUR</v>"),
    ] {
      add("cell children: " + name, record(2) + plainRecord.replacingOccurrences(of: from, with: to))
    }
    // White space around numbers, dates and shared-string indexes (XML Schema values: it collapses).
    add("an amount in spaces", record(2) + record(3, amount: " 250.5 "))
    add("an amount in line ends and tabs", record(2) + record(3, amount: "\n\t250.5\r\n"))
    add("a date serial in spaces", record(2) + record(3, date: " 45001 "))
    add("only spaces", record(2) + record(3, amount: "  "))
    add(
      "a shared string's index in spaces",
      record(2)
        + record(3).replacingOccurrences(
          of: #"<c r="B3" t="inlineStr"><is><t>USD</t></is></c>"#, with: #"<c r="B3" t="s"><v> 0 </v></c>"#))
    // Types no sheet has, with a value: refused on both roads.
    for type in [" s", "S", "", "x", "s "] {
      add("type \"\(type)\"", record(2) + record(3).replacingOccurrences(of: #"<c r="A3">"#, with: #"<c r="A3" t="\#(type)">"#))
    }
    // A cell's start tag as the scanner reads it at once (`r`, then `s` and `t` at most once each, in either
    // order), and near misses that the general steps read.
    let cellD3 = #"<c r="D3" s="1">"#
    for (name, tag) in [
      ("type before style", #"<c r="D3" t="n" s="1">"#),
      ("style and type", #"<c r="D3" s="1" t="n">"#),
      ("style twice", #"<c r="D3" s="1" s="1">"#),
      ("type twice", #"<c r="D3" t="n" t="n">"#),
      ("style of nine digits", #"<c r="D3" s="000000001">"#),
      ("style of ten digits", #"<c r="D3" s="0000000001">"#),
      ("empty style", #"<c r="D3" s="">"#),
      ("another attribute after", #"<c r="D3" s="1" cm="1">"#),
      ("another attribute first", #"<c cm="1" r="D3" s="1">"#),
      ("two spaces", #"<c r="D3"  s="1">"#),
      ("a space before >", #"<c r="D3" s="1" >"#),
      ("four letters", #"<c r="AAAD3" s="1">"#),
      ("more digits", #"<c r="D33" s="1">"#),
      ("a type's prefix", #"<c r="D3" s="1" t="st">"#),
      ("a longer type", #"<c r="D3" s="1" t="inlineStrs">"#),
    ] {
      add("cell tag: " + name, record(2) + record(3).replacingOccurrences(of: cellD3, with: tag))
    }
    add(
      "cell tags: every type, empty cells",
      #"<row r="2"><c r="A2" s="0" t="n"><v>5</v></c><c r="B2" s="3" t="inlineStr"><is><t>USD</t></is></c>"#
        + #"<c r="C2" t="str" s="2"><v>EUR</v></c><c r="D2" t="d"><v>2024-03-08</v></c><c r="E2" t="b"><v>1</v></c>"#
        + #"<c r="F2" t="e"><v>#N/A</v></c><c r="G2" s="4"/><c r="H2" t="s"/><c r="XFD2" t="inlineStr"/></row>"#)
    add(
      "attributes",
      #"<row r="2" spans="1:4" ht="15" customHeight="1" xml:lang="en"><c r="A2" cm="1" vm="1" ph="1" foo="a>b">"#
        + #"<v>5</v></c><c r="B2" t="inlineStr" a-b.c_d="1" _x="2"><is><t xml:space="preserve">USD</t></is></c>"#
        + #"<c r="C2" t="inlineStr"><is><t>EUR</t></is></c></row>"#)
    add("attribute with a tab", record(2).replacingOccurrences(of: #"r="B2""#, with: "r=\"B2\t\""))
    add("attribute with a line end", record(2).replacingOccurrences(of: #"r="B2""#, with: "r=\"\nB2\""))
    add("attribute with a tab reference", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="B2&#9;""#))
    add("type with a space", record(2).replacingOccurrences(of: #"t="inlineStr""#, with: #"t="inlineStr ""#))
    add("attribute twice", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="B2" r="B2""#))
    add("undeclared attribute prefix", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="B2" q:a="1""#))
    add("undeclared element prefix", record(2).replacingOccurrences(of: "<v>100</v>", with: "<q:v>100</q:v>"))
    add("namespace declared on a row", record(2).replacingOccurrences(of: #"<row r="2""#, with: #"<row xmlns:p="urn:p" r="2""#))
    add("empty prefix declaration", record(2).replacingOccurrences(of: #"<row r="2""#, with: #"<row xmlns:p="" r="2""#))
    add(
      "default namespace undeclared on a row", record(2).replacingOccurrences(of: #"<row r="2""#, with: #"<row xmlns="" r="2""#))
    add(
      "elements the readers pass over",
      #"<row r="2"><foo/><c r="A2"><extLst/><v>5</v></c><c r="B2" t="inlineStr"><is><t>USD</t></is></c>"#
        + #"<c r="C2" t="inlineStr"><is><t>EUR</t></is></c>text</row><row r="3"><c r="A3">12</c></row>"#
        + #"<row r="4"><c r="A4"><v>5</v></c><c r="B4" t="inlineStr"><is><t>USD</t><extra/></is></c></row>"#)
    add(
      "white space",
      "<row r=\"2\">\n  <c r=\"A2\">\n    <v>5</v>\n  </c>\n  <c r=\"B2\" t=\"inlineStr\"><is><t>  USD  </t></is></c>"
        + "<c r=\"C2\" t=\"inlineStr\">\t<is>\n<t>EUR</t>\n</is>\n</c>\n</row>\n")
    add(
      "empty rows",
      #"<row r="2"/><row r="3"></row><row r="4" spans="1:4"/><row r="5" spans="2:3" ht="15"/>"# + record(6)
        + #"<row r="7" spans="1:4"></row><row r="8"><c r="A8" s="1"/></row>"#)
    add("a value in a row's child other than a cell", #"<row r="2"><foo><v>5</v></foo></row>"# + record(3))
    add("a row inside a row", record(2).replacingOccurrences(of: #"<c r="B2""#, with: #"<row r="3"/><c r="B2""#))
    add("a row inside a cell", record(2).replacingOccurrences(of: "<v>100</v>", with: #"<v>100</v><row r="3"/>"#))
    add("mismatched end tag", record(2).replacingOccurrences(of: "</v></c><c r=\"B2\"", with: "</c></v><c r=\"B2\""))
    add("end tag with a space", record(2).replacingOccurrences(of: "</v>", with: "</v >"))
    add("end tag with an attribute", record(2).replacingOccurrences(of: "</c>", with: #"</c a="1">"#))
    add("empty element with a space", record(2).replacingOccurrences(of: "<v>100</v>", with: "<v/ >"))
    add("name with a digit first", record(2).replacingOccurrences(of: "<v>100</v>", with: "<1a/><v>100</v>"))
    add("name with two colons", record(2).replacingOccurrences(of: "<v>100</v>", with: "<a:b:c/><v>100</v>"))
    add("name outside ASCII", record(2).replacingOccurrences(of: "<v>100</v>", with: "<é/><v>100</v>"))
    add("name with a dot and a dash", record(2).replacingOccurrences(of: "<v>100</v>", with: "<a.b-c/><v>100</v>"))
    for (name, reference) in [
      ("the last character", "&#1114111;"), ("the last character in hex", "&#x10FFFF;"), ("U+FFFE", "&#xFFFE;"),
      ("a surrogate", "&#xD800;"), ("a plus sign", "&#+65;"), ("a plus sign in hex", "&#x+41;"), ("minus zero", "&#-0;"),
      ("an upper-case X", "&#X41;"), ("no hex digits", "&#x;"), ("no digits", "&#;"), ("eight digits", "&#00000065;"),
      ("nine digits", "&#000000065;"), ("NUL", "&#0;"), ("past Unicode", "&#x110000;"), ("a tab", "&#9;"),
      ("a space in it", "&# 65;"), ("an unknown entity", "&bogus;"), ("a bare ampersand", "& "), ("an emoji", "&#x1F600;"),
    ] {
      add("reference: \(name)", record(2, from: "US" + reference + "D") + record(3, to: "EU" + reference))
      add("reference in a value: \(name)", record(2, amount: "1" + reference))
      add(
        "reference in an attribute: \(name)", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="B2" a="\#(reference)""#))
    }
    for (name, bytes) in [
      ("U+FFFE", "\u{FFFE}"), ("U+FFFF", "\u{FFFF}"), ("U+007F", "\u{7F}"), ("U+0001", "\u{01}"), ("]]>", "]]>"),
      ("]] >", "]] >"), ("a stray <", "<"), (">", ">"), ("U+0085", "\u{85}"), ("U+2028", "\u{2028}"),
    ] {
      add("text: \(name)", record(2, from: "USD" + bytes) + record(3))
      add("attribute: \(name)", record(2).replacingOccurrences(of: #"r="B2""#, with: #"r="B2" a="\#(bytes)""#))
    }
    // Declarations and the prolog.
    for (name, prolog) in [
      ("no declaration", ""), ("single quotes", "<?xml version='1.0' encoding='utf-8' standalone='no'?>"),
      ("version 1.1", #"<?xml version="1.1" encoding="UTF-8"?>"#), ("Latin-1", #"<?xml version="1.0" encoding="ISO-8859-1"?>"#),
      ("no encoding", #"<?xml version="1.0"?>"#), ("standalone maybe", #"<?xml version="1.0" standalone="maybe"?>"#),
      ("space before", " " + #"<?xml version="1.0"?>"#), ("a byte order mark", "\u{FEFF}" + #"<?xml version="1.0"?>"#),
      ("encoding after standalone", #"<?xml version="1.0" standalone="yes" encoding="UTF-8"?>"#),
      ("no space", #"<?xml version="1.0"encoding="UTF-8"?>"#), ("a DOCTYPE", declaration + "<!DOCTYPE worksheet>"),
      ("a comment", declaration + "<!-- c -->"), ("a processing instruction", declaration + "<?pi x?>"),
      ("upper-case XML", #"<?XML version="1.0"?>"#), ("spaces around =", #"<?xml version = "1.0" ?>"#),
      ("white space after", declaration + "\r\n\t "),
    ] {
      sheets.append(("prolog: \(name)", sheet(record(2), declaration: prolog)))
    }
    // The epilog and the root.
    let plain = sheet(record(2))
    sheets.append(("epilog: white space", plain + "\n\r\n\t "))
    sheets.append(("epilog: an element", plain + "<x/>"))
    sheets.append(("epilog: text", plain + "x"))
    sheets.append(("epilog: a comment", plain + "<!-- c -->"))
    sheets.append(("epilog: NUL", plain + "\u{0}"))
    sheets.append(("cut short", String(plain.dropLast(30))))
    sheets.append(("no sheetData", declaration + #"<worksheet xmlns="\#(main)"><dimension ref="A1"/></worksheet>"#))
    sheets.append(("empty sheetData", declaration + #"<worksheet xmlns="\#(main)"><sheetData/></worksheet>"#))
    sheets.append(("empty root", declaration + #"<worksheet xmlns="\#(main)"/>"#))
    sheets.append(
      ("two sheetData", plain.replacingOccurrences(of: "</sheetData>", with: "</sheetData><sheetData>\(record(41))</sheetData>")))
    sheets.append(
      (
        "a row outside sheetData",
        plain.replacingOccurrences(of: "<dimension", with: #"<sheetPr>\#(record(2))</sheetPr><dimension"#)
      ))
    sheets.append(
      ("a row below sheetData", plain.replacingOccurrences(of: "<sheetData>", with: "<sheetData><x>\(record(50))</x>")))
    sheets.append(("another default namespace", plain.replacingOccurrences(of: main, with: "urn:other")))
    sheets.append(("no namespace", plain.replacingOccurrences(of: #" xmlns="\#(main)""#, with: "")))
    sheets.append(
      (
        "two prefixes for one namespace",
        plain.replacingOccurrences(of: #"xmlns="\#(main)""#, with: #"xmlns="\#(main)" xmlns:a="urn:a" xmlns:b="urn:a""#)
      ))
    sheets.append(
      (
        "the xml prefix declared",
        plain.replacingOccurrences(
          of: #"xmlns="\#(main)""#, with: #"xmlns="\#(main)" xmlns:xml="http://www.w3.org/XML/1998/namespace""#)
      ))
    sheets.append(
      (
        "a prefix declared twice",
        plain.replacingOccurrences(of: #"xmlns="\#(main)""#, with: #"xmlns="\#(main)" xmlns:a="urn:a" xmlns:a="urn:b""#)
      ))
    sheets.append(
      (
        "a prefix starting with xml",
        plain.replacingOccurrences(of: #"xmlns="\#(main)""#, with: #"xmlns="\#(main)" xmlns:xmlfoo="urn:a""#)
      ))
    // Nesting around the readers' limit (libxml2 allows 256 levels without XML_PARSE_HUGE).
    for depth in [200, 254, 255, 256, 257] {
      let nested = String(repeating: "<a>", count: depth - 2) + String(repeating: "</a>", count: depth - 2)
      sheets.append(
        ("\(depth) levels", plain.replacingOccurrences(of: "</sheetData>", with: "</sheetData><extLst>\(nested)</extLst>")))
    }
    // Excel's root: prefixes declared and ignorable, rows with `x14ac:dyDescent`.
    sheets.append(("Excel's markup", excelSheet(records: 30)))
    sheets.append(("x: for every element", prefixedSheet(records: 30)))
    return sheets
  }

  /// A sheet in Excel's markup (prefixes declared on the root, `mc:Ignorable`, rows with `x14ac:dyDescent`).
  static func excelSheet(records: Int, seed: UInt64 = 7) -> String {
    XLSXFastPathTests.messySheet(records: records, seed: seed)
      .replacingOccurrences(
        of: #"<worksheet xmlns="\#(main)">"#,
        with: #"<worksheet xmlns="\#(main)" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" "#
          + #"xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="x14ac xr xr2 xr3" "#
          + #"xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" "#
          + #"xmlns:xr="http://schemas.microsoft.com/office/spreadsheetml/2014/revision" "#
          + #"xmlns:xr2="http://schemas.microsoft.com/office/spreadsheetml/2015/revision2" "#
          + #"xmlns:xr3="http://schemas.microsoft.com/office/spreadsheetml/2016/revision3" "#
          + #"xr:uid="{00000000-0001-0000-0000-000000000000}">"#
      )
      .replacingOccurrences(of: "<row r=", with: #"<row x14ac:dyDescent="0.25" r="#)
      .replacingOccurrences(
        of: "<sheetData>",
        with: #"<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews>"#
          + #"<sheetFormatPr defaultRowHeight="15" x14ac:dyDescent="0.25"/><sheetData>"#
      )
      .replacingOccurrences(
        of: "</sheetData>",
        with: #"</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>"#)
  }

  /// A messy sheet with `x:` on every element.
  static func prefixedSheet(records: Int, seed: UInt64 = 8) -> String {
    var text = XLSXFastPathTests.messySheet(records: records, seed: seed)
    for name in ["worksheet", "dimension", "sheetData", "row", "c", "is", "t", "v"] {
      text = text.replacingOccurrences(of: "<\(name) ", with: "<x:\(name) ").replacingOccurrences(
        of: "<\(name)>", with: "<x:\(name)>"
      )
      .replacingOccurrences(of: "<\(name)/>", with: "<x:\(name)/>").replacingOccurrences(of: "</\(name)>", with: "</x:\(name)>")
    }
    return text.replacingOccurrences(of: #"<x:worksheet xmlns="#, with: #"<x:worksheet xmlns:x="#)
  }

  // MARK: 1. The same outcome on both paths

  /// Records the case a child process (an exit test) trapped on: the last one it wrote to `progress` before
  /// checking it (``announce(_:_:to:)``), and returns the case to go on from, or `nil` when it trapped before one.
  static func trapped(_ progress: String, after start: Int) -> Int? {
    guard let line = try? String(contentsOfFile: progress, encoding: .utf8), let tab = line.firstIndex(of: "\t"),
      let number = Int(line[..<tab]), number >= start
    else {
      Issue.record("the child process ended before its first case")
      return nil
    }
    Issue.record("the child process trapped on case \(number): \(line[line.index(after: tab)...])")
    return number + 1
  }

  /// Writes a case's number and label to `progress` before it is checked (for ``trapped(_:after:)``).
  static func announce(_ number: Int, _ label: String, to progress: String) {
    _ = FileManager.default.createFile(atPath: progress, contents: Data("\(number)\t\(label)".utf8))
  }

  /// The hand-written sheets are checked in child processes (exit tests): a trap in the scanner or the
  /// conversion fails the test with the case it trapped on, and the cases after it are checked in another.
  @Test func handWrittenMarkup() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let progress = directory.path + "/progress"
    var start: Int? = 0
    while let first = start {
      let result = await #expect(processExitsWith: .success) { [first = first as Int, progress = progress as String] in
        try Self.checkHandWrittenMarkup(from: first, progress: progress)
      }
      start = result == nil ? Self.trapped(progress, after: first) : nil
    }
  }

  static func checkHandWrittenMarkup(from start: Int, progress: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var read = 0
    for (number, (name, text)) in Self.handWrittenSheets().enumerated() where number >= start {
      announce(number, name, to: progress)
      let sheet = Array(text.utf8)
      let path = try XLSXRowCollectorTests.workbook(sheet: sheet, in: directory, named: "hand\(number).xlsx")
      if try Self.checkScanner(path, sheet: sheet, name).stop == nil { read += 1 }
      try Self.differential(path, name)
      try Self.differential(path, name + " (decimal point given)") { $0.decimalMark = .point }
    }
    if start == 0 { #expect(read >= 20, "the scanner reads \(read) of the hand-written sheets") }
  }

  /// Shared strings (the `libreoffice.xlsx` fixture's table: 0 date, 1 amount, 2 currency, 4 USD, 6 GBP, 10 EUR,
  /// 11 rich text), converted to EUR.
  /// The markup the scanner reads at once inside a cell, written as constants, is that markup.
  @Test func literalsAreTheirMarkup() {
    let pairs = [
      (XLSXSheetScanner.valueStart, XLSXSheetScanner.literal("<v>")),
      (XLSXSheetScanner.valueEnd, XLSXSheetScanner.literal("</v>")),
      (XLSXSheetScanner.inlineStart, XLSXSheetScanner.literal("<is><t>")),
      (XLSXSheetScanner.inlineEnd, XLSXSheetScanner.literal("</t></is>")),
      (XLSXSheetScanner.cellEnd, XLSXSheetScanner.literal("</c>")),
    ]
    for (constant, made) in pairs {
      #expect(constant.first == made.first && constant.second == made.second && constant.count == made.count)
    }
    // A cell's start tag (cellTag(at:)): `<c r="`, then words of up to 8 bytes.
    let start = XLSXSheetScanner.cellReferenceStart
    let madeStart = XLSXSheetScanner.literal(#"<c r=""#)
    #expect(start.first == madeStart.first && start.second == madeStart.second && start.count == madeStart.count)
    let words: [(UInt64, StaticString)] = [
      (XLSXSheetScanner.styleStart, #" s=""#), (XLSXSheetScanner.typeStart, #" t=""#),
      (XLSXSheetScanner.sharedType, #"s""#), (XLSXSheetScanner.numberType, #"n""#),
      (XLSXSheetScanner.booleanType, #"b""#), (XLSXSheetScanner.errorType, #"e""#),
      (XLSXSheetScanner.dateType, #"d""#), (XLSXSheetScanner.stringType, #"str""#),
      (XLSXSheetScanner.inlineType.first, "inlineSt"), (XLSXSheetScanner.inlineType.second, #"r""#),
    ]
    for (constant, text) in words {
      #expect(constant == XLSXSheetScanner.literal(text).first, "\(text)")
    }
  }

  @Test func sharedStrings() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let fixture = try #require(Bundle.module.url(forResource: "Fixtures/Workbooks/libreoffice", withExtension: "xlsx"))
    func row(
      _ number: Int, date: String = #"s="1"><v>45306</v></c>"#, amount: String = #"s="2"><v>12</v></c>"#,
      currency: String = "4"
    ) -> String {
      #"<row r="\#(number)"><c r="A\#(number)" \#(date)<c r="B\#(number)" \#(amount)"#
        + #"<c r="C\#(number)" t="s"><v>\#(currency)</v></c></row>"#
    }
    let header =
      #"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>"#
    let variants = [
      ("plain", row(2) + row(3, currency: "6") + row(4, currency: "10")),
      ("out of range", row(2, currency: "99")), ("negative", row(2, currency: "-1")), ("a fraction", row(2, currency: "1.0")),
      ("a space", row(2, currency: " 4")), ("a zero first", row(2, currency: "04")), ("rich text", row(2, currency: "11")),
      ("a reference", row(2, currency: "&#52;")), ("empty", row(2, currency: "")), ("a header name", row(2, currency: "2")),
      ("a shared amount", row(2, amount: #"t="s"><v>4</v></c>"#)), ("a shared date", row(2, date: #"t="s"><v>0</v></c>"#)),
      ("a date text", row(2, date: #"t="inlineStr"><is><t>2024-01-15</t></is></c>"#)), ("no date", row(2, date: "/>")),
    ]
    for (name, rows) in variants {
      let sheet = Array(
        (Self.declaration + #"<worksheet xmlns="\#(Self.main)"><sheetData>\#(header)\#(rows)</sheetData></worksheet>"#).utf8)
      let path = directory.path + "/shared-\(name).xlsx"
      try ZipPackage(path: fixture.path).write(to: path, replacing: [("xl/worksheets/sheet1.xml", .bytes(sheet))])
      try Self.checkScanner(path, sheet: sheet, "shared strings: \(name)")
      try Self.differential(path, "shared strings: \(name)") { $0.fixedTo = CurrencyCode("EUR") }
    }
  }

  /// One or two mutations of a sheet, aimed at the subset's edges: a `>` dropped, a reference, comment,
  /// CDATA end, stray `<`, control character or invalid UTF-8 inserted, an attribute doubled, an end tag
  /// renamed, an undeclared or emptied prefix, a nested row, a DOCTYPE; or any of the common mutations.
  static func mutate(_ sheet: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
    var bytes = sheet
    let tokens: [[UInt8]] =
      [
        "&", "&bogus;", "&#0;", "&#x110000;", "<!-- -->", "]]>", "<", "\u{01}", "\u{FFFE}", "&#+65;", "&#x+41;",
        "&#65;", "&#xD800;", "\r\n", "\r", " ", "&#x1F600;", "\"", "'", "=", "/", ">", "&amp;", "<![CDATA[x]]>",
        "<?pi x?>", "\u{7F}", "_x0041_", "é",
      ].map { Array($0.utf8) } + [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x00]]
    func occurrences(_ pattern: String) -> [Int] {
      let pattern = Array(pattern.utf8)
      guard bytes.count >= pattern.count else { return [] }
      return (0...(bytes.count - pattern.count)).filter { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }
    func any(_ pattern: String) -> Int? {
      let found = occurrences(pattern)
      return found.isEmpty ? nil : found[Int.random(in: 0..<found.count, using: &generator)]
    }
    for _ in 0..<Int.random(in: 1...2, using: &generator) {
      let position = Int.random(in: 0...bytes.count, using: &generator)
      switch Int.random(in: 0..<15, using: &generator) {
      case 0:  // a `>` dropped
        if let at = any(">") { bytes.remove(at: at) }
      case 1:  // a token anywhere
        bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &generator)], at: position)
      case 2, 3:  // a token after a tag (in text, or between elements)
        if let at = any(">") {
          bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &generator)], at: at + 1)
        }
      case 4:  // an attribute doubled
        if let at = any(" r=\""), let close = bytes[(at + 4)...].firstIndex(of: UInt8(ascii: "\"")) {
          bytes.insert(contentsOf: bytes[at...close], at: close + 1)
        }
      case 5:  // an end tag renamed
        if let at = any("</"), let close = bytes[at...].firstIndex(of: UInt8(ascii: ">")) {
          let names = ["v", "c", "t", "is", "row", "x", "sheetData", "q:v"]
          bytes.replaceSubrange((at + 2)..<close, with: Array(names[Int.random(in: 0..<names.count, using: &generator)].utf8))
        }
      case 6:  // an element with an undeclared prefix
        if let at = any("<v>"), let end = bytes[at...].firstIndex(of: UInt8(ascii: "/")) {
          bytes.replaceSubrange((end + 1)..<(end + 2), with: Array("q:v".utf8))
          bytes.replaceSubrange((at + 1)..<(at + 2), with: Array("q:v".utf8))
        }
      case 7:  // a prefix emptied or declared below the root
        let declarations = [#" xmlns:p="""#, #" xmlns:p="urn:p""#, #" xmlns="""#, #" q:a="1""#, #" xml:space="preserve""#]
        let declaration = Array(declarations[Int.random(in: 0..<declarations.count, using: &generator)].utf8)
        if let at = Bool.random(using: &generator) ? any("<worksheet") : any("<row") {
          bytes.insert(contentsOf: declaration, at: at + (bytes[at + 1] == UInt8(ascii: "w") ? 10 : 4))
        }
      case 8:  // a nested row
        if let at = any("<c ") ?? any("<v>") {
          let rows = [#"<row r="99999"/>"#, "<row>", "</row>", #"<row r="3">"#]
          bytes.insert(contentsOf: Array(rows[Int.random(in: 0..<rows.count, using: &generator)].utf8), at: at)
        }
      case 9:  // a DOCTYPE
        if let at = any("?>") {
          bytes.insert(contentsOf: Array(#"<!DOCTYPE worksheet [<!ENTITY e "USD">]>"#.utf8), at: at + 2)
        }
      case 10:  // a byte dropped
        if position < bytes.count { bytes.remove(at: position) }
      case 11:  // a stretch doubled
        let end = min(bytes.count, position + Int.random(in: 1...12, using: &generator))
        bytes.insert(contentsOf: bytes[position..<end], at: position)
      case 12:  // a quote changed
        if let at = any("\"") { bytes[at] = UInt8(ascii: "'") }
      case 13:  // an end tag dropped
        if let at = any("</"), let close = bytes[at...].firstIndex(of: UInt8(ascii: ">")) {
          bytes.removeSubrange(at...close)
        }
      default:
        bytes = MutatedInputFuzzTests.mutate(bytes, using: &generator)
      }
    }
    return bytes
  }

  /// ≥ 200 mutated sheets, in openpyxl's markup and in Excel's: the scanner reads only sheets libxml2 reads
  /// whole, to the same rows, and both paths end alike.
  @Test(arguments: [0, 1, 2, 3])
  func mutatedSheets(part: Int) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let progress = directory.path + "/progress"
    var start: Int? = 0
    while let first = start {
      let result = await #expect(processExitsWith: .success) { [part, first = first as Int, progress = progress as String] in
        try Self.checkMutatedSheets(part: part, from: first, progress: progress)
      }
      start = result == nil ? Self.trapped(progress, after: first) : nil
    }
  }

  /// Checks part `part`'s mutated sheets from `start` on (the ones before are generated, not checked); with
  /// `FXBATCH_SCANNER_CASES=DIR` in the environment, each sheet is written to DIR too.
  static func checkMutatedSheets(part: Int, from start: Int, progress: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let bases = [
      Array(XLSXFastPathTests.messySheet(records: 30, seed: 41).utf8), Array(Self.excelSheet(records: 30, seed: 42).utf8),
      Array(Self.prefixedSheet(records: 30, seed: 43).utf8),
    ]
    var generator = SplitMix64(seed: 0x5343_414E_0000_0000 &+ UInt64(part))
    var read = 0
    var refused = 0
    let cases = 64
    for number in 0..<cases {
      let label = "part \(part), case \(number)"
      let mutated = Self.mutate(bases[number % bases.count], using: &generator)
      guard number >= start else { continue }
      announce(number, label, to: progress)
      if let dump = ProcessInfo.processInfo.environment["FXBATCH_SCANNER_CASES"] {
        _ = FileManager.default.createFile(atPath: dump + "/part\(part)-case\(number).xml", contents: Data(mutated))
      }
      let path = try XLSXRowCollectorTests.workbook(sheet: mutated, in: directory, named: "m\(number).xlsx")
      if try Self.checkScanner(path, sheet: mutated, label).stop == nil { read += 1 }
      if case .refused = try Self.differential(path, label) { refused += 1 }
    }
    // Both kinds of mutation are exercised: sheets the scanner reads, and sheets refused.
    guard start == 0 else { return }
    #expect(read >= 4, "the scanner reads \(read) of \(cases)")
    #expect(refused >= 8, "\(refused) of \(cases) refused")
  }

  /// A `<v>` in a row's child other than a cell, before any cell (well-formed; libxml2's readers pass over it):
  /// checked in a child process, as the scanner once trapped on it (an index out of range in `cells`).
  @Test(arguments: [
    #"<row r="2"><foo><v>5</v></foo><c r="A2"><v>5</v></c></row>"#,
    #"<row r="2"><extLst><ext><v>5</v></ext></extLst></row>"#, #"<row r="2"><foo><is><t>x</t></is></foo></row>"#,
    #"<row r="2"><foo><f>1</f></foo></row>"#,
  ])
  func valueOutsideACell(row: String) async {
    await #expect(processExitsWith: .success) { [row] in
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let sheet = Array(Self.sheet(row).utf8)
      let path = try XLSXRowCollectorTests.workbook(sheet: sheet, in: directory, named: "outside.xlsx")
      try Self.checkScanner(path, sheet: sheet, row)
      try Self.differential(path, row)
    }
  }

  // MARK: 2. The scanner reads real sheets

  @Test(arguments: ["openpyxl.xlsx", "libreoffice.xlsx", "equivalence.xlsx"])
  func realWorkbooksAreScanned(name: String) throws {
    let fixture = try #require(
      Bundle.module.url(forResource: "Fixtures/Workbooks/" + name.dropLast(5), withExtension: "xlsx"))
    let configure: (inout BatchOptions) -> Void = {
      // Their sheets have one currency column.
      if name != "equivalence.xlsx" { $0.fixedTo = CurrencyCode("EUR") }
    }
    let sheet = try {
      let book = try XLSXBook(readPath: fixture.path, displayPath: fixture.path, sheet: nil)
      return try book.package.contents(of: book.sheetEntry)
    }()
    let scanned = try Self.scanDirectly(fixture.path)
    #expect(scanned.stop == nil, "the scanner declines \(name): \(scanned.stop ?? "")")
    #expect(try Self.scanned(fixture.path, configure: configure), "\(name) is read by the general path")
    try Self.checkScanner(fixture.path, sheet: sheet, name)
    if case .refused(let error) = try Self.differential(fixture.path, name, configure: configure) {
      Issue.record("\(name) is refused: \(error)")
    }
  }

  @Test func messyWorkbooksAreScannedAndACommentIsNot() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let messy = try XLSXFastPathTests.messyWorkbook(in: directory, seed: 3)
    #expect(try Self.scanned(messy))
    let excel = try XLSXRowCollectorTests.workbook(
      sheet: Array(Self.excelSheet(records: 200).utf8), in: directory, named: "excel.xlsx")
    #expect(try Self.scanned(excel))
    let prefixed = try XLSXRowCollectorTests.workbook(
      sheet: Array(Self.prefixedSheet(records: 200).utf8), in: directory, named: "prefixed.xlsx")
    #expect(try Self.scanned(prefixed))
    let commented = try XLSXRowCollectorTests.workbook(
      sheet: Array(
        XLSXFastPathTests.messySheet(records: 200, seed: 3).replacingOccurrences(of: "<sheetData>", with: "<sheetData><!-- c -->")
          .utf8), in: directory, named: "comment.xlsx")
    #expect(try !Self.scanned(commented))
    for path in [excel, prefixed, commented] { try Self.differential(path, path) }
  }

  // MARK: 3. The scanner on its own

  /// A sheet of several megabytes: rows cross the 256 KiB reads and the 1 MiB buffer; the items are the part's
  /// bytes and the rows libxml2's.
  @Test func rowsAcrossReads() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let sheet = Array(XLSXFastPathTests.messySheet(records: 12_000, seed: 9).utf8)
    #expect(sheet.count > 1 << 21)
    let path = try XLSXRowCollectorTests.workbook(sheet: sheet, in: directory, named: "big.xlsx")
    let scanned = try Self.scanDirectly(path)
    #expect(scanned.stop == nil)
    #expect(scanned.rows.count > 12_000)
    #expect(scanned.simpleRows > 6_000)
    #expect(try Self.checkScanner(path, sheet: sheet, "big").stop == nil)
  }

  /// A run of text longer than a read and than the scanner's first buffer (1.5 MiB), and one past libxml2's
  /// limit of a text node (10,000,000 bytes without XML_PARSE_HUGE): each is read as libxml2 reads it, or
  /// declined.
  @Test(arguments: [1_572_864, 10_500_000])
  func longText(length: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var generator = SplitMix64(seed: UInt64(length))
    let note = String(
      decoding: (0..<length).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0..<26, using: &generator) }, as: UTF8.self)
    let text = Self.sheet(
      Self.record(2)
        + #"<row r="3"><c r="A3"><v>5</v></c><c r="B3" t="inlineStr"><is><t>USD</t></is></c><c r="C3" t="inlineStr">"#
        + #"<is><t>EUR</t></is></c><c r="E3" t="inlineStr"><is><t>\#(note)</t></is></c></row>"# + Self.record(4))
    let sheet = Array(text.utf8)
    let path = try XLSXRowCollectorTests.workbook(sheet: sheet, in: directory, named: "long.xlsx")
    // A scanner that reads in ever smaller pieces would take hours to convert the sheet: checkScanner failed.
    let scanned = try Self.checkScanner(path, sheet: sheet, "\(length) bytes of text")
    guard !scanned.overBudget else { return }
    // Each refill at least doubles the unfinished item: it is read again about once in all (a refill of one
    // stream read each read a 10 MB row about 70 times).
    #expect(scanned.rescanned <= 2 * sheet.count, "\(scanned.rescanned) bytes read again")
    try Self.differential(path, "\(length) bytes of text")
  }

  /// `<row/>`, rows with and without numbers, and what the scanner reads of each row's cells.
  @Test func rowsAndCells() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = Self.sheet(
      #"<row r="2"/><row r="3" spans="1:4"/><row r="5"><c r="B5" s="3"><v>1.5</v></c><c r="D5" t="inlineStr">"#
        + #"<is><t>USD</t></is></c><c r="E5" t="str"><v>x</v></c><c r="F5" t="b"><v>1</v></c><c r="G5" s="1"/></row>"#
        + #"<row><c r="A6"><v>2</v></c></row><row r="7"><c><v>3</v></c></row><row r="9"></row>"#
        + #"<row r="10"><c r="A10" t="inlineStr"><is><t>a&amp;b</t></is></c></row>"#, last: 11)
    let sheet = Array(text.utf8)
    let path = try XLSXRowCollectorTests.workbook(sheet: sheet, in: directory, named: "rows.xlsx")
    let book = try XLSXBook(readPath: path, displayPath: path, sheet: nil)
    var scanner = XLSXSheetScanner(stream: try book.package.stream(book.sheetEntry), sharedStringCount: 0)
    struct Read: Equatable {
      var number: Int
      var isSimple: Bool
      var isEmptyElement: Bool
      var spans: String?
      var cells: [String]
    }
    var rows: [Read] = []
    while let item = try scanner.next() {
      guard case .row = item else { continue }
      let bytes = scanner.bytes
      rows.append(
        Read(
          number: scanner.rowNumber, isSimple: scanner.rowIsSimple, isEmptyElement: scanner.rowIsEmptyElement,
          spans: scanner.rowSpans.map { String(decoding: bytes.slice($0).buffer, as: UTF8.self) },
          cells: scanner.rowIsSimple
            ? scanner.cells.map { cell in
              "\(cell.column) \(cell.style) \(cell.kind) \(cell.isPlain) "
                + String(decoding: bytes.slice(cell.value).buffer, as: UTF8.self)
            } : []))
      if !scanner.rowIsSimple {
        scanner.previousRow =
          try XLSXRowCollector.row(
            Array(bytes.slice(scanner.rowRange).buffer), after: scanner.rowPreviousRow, sharedStrings: book.sharedStrings,
            path: path, entry: book.sheetEntry.name
          ).number
      }
    }
    #expect(rows.count == 9)
    guard rows.count == 9 else { return }
    #expect(rows[0].number == 1 && rows[0].cells.count == 4)
    #expect(rows[1] == Read(number: 2, isSimple: true, isEmptyElement: true, spans: nil, cells: []))
    #expect(rows[2] == Read(number: 3, isSimple: true, isEmptyElement: true, spans: "1:4", cells: []))
    #expect(
      rows[3]
        == Read(
          number: 5, isSimple: true, isEmptyElement: false, spans: nil,
          cells: ["1 3 number true 1.5", "3 0 inline true USD", "4 0 string true x", "5 0 other true 1", "6 1 empty true "]))
    #expect(!rows[4].isSimple && !rows[5].isSimple, "rows and cells without r are read whole")
    #expect(rows[6] == Read(number: 9, isSimple: true, isEmptyElement: false, spans: nil, cells: []))
    #expect(rows[7] == Read(number: 10, isSimple: true, isEmptyElement: false, spans: nil, cells: ["0 0 inline false a&amp;b"]))
    #expect(rows[8].number == 11)
    try Self.checkScanner(path, sheet: sheet, "rows")
  }
}
