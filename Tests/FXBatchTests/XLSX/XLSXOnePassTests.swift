import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Under a local table an `.xlsx` sheet is read once (``XLSXFormat/convertInOnePass(_:context:quotes:)``): its
/// annotated copy is written as it is read, on what the sheet's `<dimension>` (or its header) says of its last
/// column and with the decimal mark given or `.`. Whether that holds or not, the outcome is the two passes': the
/// same sheet and styles bytes, counts, scan, or the same error; and the road holds on the sheets real software
/// writes.
@Suite("XLSX: the one-pass road = the two passes")
struct XLSXOnePassTests {
  /// What converting a workbook gave.
  struct Outcome: Equatable {
    var sheet: [UInt8]? = nil
    var styles: [UInt8]? = nil
    var counts: RunReport.Counts? = nil
    var withoutDate = 0
    var fields: [String: String] = [:]
    var decimalMark: DecimalMark? = nil
    var basis: DecimalMarkInference.Basis? = nil
    var lastColumn = 0
    var error: String? = nil
  }

  /// Converts `path` through the format's passes as the engine calls them under the embedded table: the
  /// one-pass road (`twoPasses: false`) or pass 1 then pass 2.
  ///
  /// - Returns: the outcome, and whether the road held.
  static func convert(_ path: String, twoPasses: Bool, configure: (inout BatchOptions) -> Void = { _ in }) throws -> (
    Outcome, readInOnePass: Bool
  ) {
    let output = path + (twoPasses ? ".two.xlsx" : ".one.xlsx")
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [path]
    options.destination = .file(output)
    configure(&options)
    let table = EmbeddedECBHistory.table
    var job = BatchJob(options: options, source: .table(table))
    job.allowsProvisionalScan = !twoPasses
    let context = job.formatContext
    let resolver = job.rateResolver
    let quotes = QuoteBook(
      keys: RateKeyIndex(), table: job.convertingTable, maxStaleness: options.maxStaleness,
      onDemand: { resolver.resolve($0, table: table) }, resolveGeneral: { _ in AnswerTable() })
    do {
      let (scan, _) = try XLSXFormat.scan(
        FileInput(displayPath: path, readPath: path, outputPath: output), context: context)
      #expect(scan.workbook.isProvisional == !twoPasses)
      let done = try XLSXFormat.convert(scan, context: context, quotes: quotes, standardOutput: -1)
      #expect(!done.scan.workbook.isProvisional)
      let package = try ZipPackage(path: output)
      let outcome = Outcome(
        sheet: try package.contents(ofEntryNamed: "xl/worksheets/sheet1.xml"),
        styles: try package.contents(ofEntryNamed: "xl/styles.xml"), counts: done.counts,
        withoutDate: done.withoutDate, fields: done.scan.fields, decimalMark: done.scan.decimalMark,
        basis: done.scan.decimalMarkBasis, lastColumn: done.scan.workbook.lastColumn)
      return (outcome, done.scan.workbook.readInOnePass)
    } catch {
      #expect(!FileManager.default.fileExists(atPath: output), "nothing is written for \(error)")
      return (Outcome(error: "\(error)"), false)
    }
  }

  /// Converts a workbook both ways and checks they agree.
  ///
  /// - Returns: whether the one-pass road held, and its outcome.
  @discardableResult
  static func check(_ path: String, _ name: String, configure: (inout BatchOptions) -> Void = { _ in }) throws -> (
    Bool, Outcome
  ) {
    let (one, held) = try convert(path, twoPasses: false, configure: configure)
    let (two, _) = try convert(path, twoPasses: true, configure: configure)
    #expect(one.error == two.error, "\(name)")
    #expect(one.counts == two.counts, "\(name)")
    #expect(one.styles == two.styles, "\(name): the styles differ")
    #expect((one.sheet == nil) == (two.sheet == nil), "\(name)")
    var (bare, twoBare) = (one, two)
    (bare.sheet, bare.styles, twoBare.sheet, twoBare.styles) = (nil, nil, nil, nil)
    #expect(bare == twoBare, "\(name): the one-pass road's scan differs from the two passes'")
    if let a = one.sheet, let b = two.sheet, a != b {
      let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
      Issue.record(
        "\(name): sheets differ at byte \(first): one pass …\(String(decoding: a[max(0, first - 80)..<min(a.count, first + 80)], as: UTF8.self))…"
      )
    }
    return (held, one)
  }

  static func text(_ reference: String, _ value: String) -> String {
    #"<c r="\#(reference)" t="inlineStr"><is><t>\#(value)</t></is></c>"#
  }

  static func number(_ reference: String, _ value: String, style: Int? = nil) -> String {
    #"<c r="\#(reference)"\#(style.map { #" s="\#($0)""# } ?? "")><v>\#(value)</v></c>"#
  }

  /// A header `amount, from, to, date` and `records` rows of number amounts and date serials (style 1, the
  /// fixture's date style), from row `first`.
  static func rows(records: Int, first: Int = 1) -> [String] {
    let currencies = ["USD", "GBP", "JPY", "CHF", "EUR", "SEK"]
    var rows = [
      #"<row r="\#(first)">"# + text("A\(first)", "amount") + text("B\(first)", "from") + text("C\(first)", "to")
        + text("D\(first)", "date") + "</row>"
    ]
    for index in 0..<records {
      let row = first + 1 + index
      rows.append(
        #"<row r="\#(row)">"# + number("A\(row)", "\(index * 37 % 1000).\(index % 100)")
          + text("B\(row)", currencies[index % 6]) + text("C\(row)", currencies[(index / 6) % 6])
          + number("D\(row)", String(45_000 + index % 700), style: 1) + "</row>")
    }
    return rows
  }

  static func sheet(_ rows: [String], dimension: String? = nil, before: String = "") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
      xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">\
      \(dimension.map { #"<dimension ref="\#($0)"/>"# } ?? "")\(before)<sheetData>\(rows.joined())</sheetData></worksheet>
      """.utf8)
  }

  static func workbook(_ sheet: [UInt8], in directory: TemporaryDirectory, _ name: String) throws -> String {
    try XLSXRowCollectorTests.workbook(sheet: sheet, in: directory, named: name + ".xlsx")
  }

  /// The road holds on a sheet with an exact `<dimension>` and on one without, whose header is its first row;
  /// a first blank row is fine under a `<dimension>`.
  @Test func theRoadHoldsOnPlainSheets() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = Self.rows(records: 300)
    let cases: [(String, [UInt8])] = [
      ("dimension", Self.sheet(rows, dimension: "A1:D301")),
      ("no-dimension", Self.sheet(rows)),
      ("blank-first-row", Self.sheet([#"<row r="1"/>"#] + Self.rows(records: 300, first: 2), dimension: "A1:D302")),
      // Decided at the header; the late `<dimension>` is widened as pass 2 widens it.
      (
        "a-dimension-after-the-rows",
        Array(
          String(decoding: Self.sheet(rows), as: UTF8.self).replacingOccurrences(
            of: "</sheetData>", with: #"</sheetData><dimension ref="A1:D301"/>"#
          ).utf8)
      ),
      (
        "cols-and-views",
        Self.sheet(
          rows, dimension: "A1:D301",
          before: #"<sheetViews><sheetView workbookViewId="0"/></sheetViews><cols><col min="1" max="4" width="12"/></cols>"#)
      ),
    ]
    for (name, sheet) in cases {
      let (held, outcome) = try Self.check(try Self.workbook(sheet, in: directory, name), name)
      #expect(held, "\(name): the road held")
      #expect(outcome.counts?.records == 300, "\(name)")
    }
  }

  /// Where the sheet is not as the road assumed, the copy is dropped and pass 2 writes it from pass 1's scan.
  @Test func theRoadFallsBackToTheTwoPasses() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var rows = Self.rows(records: 200)
    let plain = rows
    rows[150] = rows[150].replacingOccurrences(of: "</row>", with: Self.text("F151", "late note") + "</row>")
    var textAmounts = Self.rows(records: 200)
    textAmounts[120] =
      #"<row r="121">"# + Self.text("A121", "1.234,50") + Self.text("B121", "USD")
      + Self.text("C121", "EUR") + "</row>"
    let cases: [(String, [UInt8])] = [
      ("a-later-row-wider-than-the-header", Self.sheet(rows)),
      ("a-later-row-wider-than-the-dimension", Self.sheet(rows, dimension: "A1:D201")),
      ("a-dimension-wider-than-the-cells", Self.sheet(plain, dimension: "A1:H201")),
      ("a-dimension-narrower-than-the-cells", Self.sheet(plain, dimension: "A1:B201")),
      ("a-text-amount-for-the-decimal-mark", Self.sheet(textAmounts, dimension: "A1:D201")),
      ("a-blank-first-row-without-dimension", Self.sheet([#"<row r="1"/>"#] + Self.rows(records: 50, first: 2))),
      ("a-comment-the-scanner-declines", Self.sheet(plain, dimension: "A1:D201", before: "<!-- c -->")),
    ]
    for (name, sheet) in cases {
      let (held, outcome) = try Self.check(try Self.workbook(sheet, in: directory, name), name)
      #expect(held == false, "\(name): the road did not hold")
      #expect(outcome.error == nil && (outcome.counts?.records ?? 0) >= 50, "\(name): \(outcome.error ?? "")")
    }
    // The decimal mark given: the text amount is read by it, and the road holds.
    let path = try Self.workbook(Self.sheet(textAmounts, dimension: "A1:D201"), in: directory, "given-mark")
    let (held, _) = try Self.check(path, "given-mark") { $0.decimalMark = .comma }
    #expect(held)
  }

  /// A `<dimension>` whose `ref` names no column fxbatch reads is copied as the two passes copy it (found by a
  /// break-it session: the road dropped it, and of `<dimension …></dimension>` kept only the end tag).
  @Test func unreadableDimensionsAreCopied() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rows = Self.rows(records: 20)
    func sheet(_ dimension: String) -> [UInt8] {
      Array(
        String(decoding: Self.sheet(rows), as: UTF8.self).replacingOccurrences(of: "<sheetData>", with: dimension + "<sheetData>")
          .utf8)
    }
    let dimensions = [
      #"<dimension ref="a1:d21"/>"#, #"<dimension ref="$A$1:$D$21"/>"#, #"<dimension ref=""/>"#,
      #"<dimension ref="A:D"/>"#, #"<dimension ref="A1:&#68;21"/>"#, "<dimension/>",
      #"<dimension ref="a1:d21"></dimension>"#, #"<dimension ref="A1:XFE21"/>"#,
      #"<dimension ref="a1:d21"/><dimension ref="A1:D21"/>"#,
    ]
    for (index, dimension) in dimensions.enumerated() {
      let path = try Self.workbook(sheet(dimension), in: directory, "dimension-\(index)")
      let (_, outcome) = try Self.check(path, dimension)
      #expect(outcome.error == nil, "\(dimension): \(outcome.error ?? "")")
      let text = String(decoding: outcome.sheet ?? [], as: UTF8.self)
      #expect(text.contains(dimension.prefix(16)), "\(dimension) is in the annotated sheet")
    }
  }

  /// A sheet pass 1 refuses gets pass 1's error from the road, and nothing is written.
  @Test func refusedSheetsGetPassOnesErrors() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var annotated = Self.rows(records: 5)
    annotated[0] = annotated[0].replacingOccurrences(
      of: "</row>",
      with: AnnotationColumn.allCases.enumerated().map {
        Self.text(String(UnicodeScalar(UInt8(69 + $0.offset))) + "1", $0.element.rawValue)
      }.joined() + "</row>")
    var lastColumns = Self.rows(records: 5)
    lastColumns[3] = lastColumns[3].replacingOccurrences(of: "</row>", with: Self.text("XFA4", "far") + "</row>")
    let cases: [(String, [UInt8], String)] = [
      ("no-header", Self.sheet([#"<row r="1"/>"#, #"<row r="2"><c r="A2" s="1"/></row>"#], dimension: "A1:A2"), "no header row"),
      ("annotated", Self.sheet(annotated, dimension: "A1:K6"), "fx_"),
      ("no-amount", Self.sheet([#"<row r="1">"# + Self.text("A1", "price") + "</row>"], dimension: "A1"), "amount"),
      (
        "unread-dates",
        Self.sheet(
          [
            #"<row r="1">"# + Self.text("A1", "amount") + Self.text("B1", "from") + Self.text("C1", "to")
              + Self.text("D1", "when") + "</row>",
            #"<row r="2">"# + Self.number("A2", "5") + Self.text("B2", "USD") + Self.text("C2", "EUR")
              + Self.text("D2", "2024-03-01") + "</row>",
          ], dimension: "A1:D2"), "when"
      ),
      ("no-room", Self.sheet(lastColumns, dimension: "A1:D6"), "no room"),
      (
        "rows-out-of-order",
        Self.sheet([Self.rows(records: 3)[0], Self.rows(records: 3)[2], Self.rows(records: 3)[1]], dimension: "A1:D4"), ""
      ),
    ]
    for (name, sheet, says) in cases {
      let (_, outcome) = try Self.check(try Self.workbook(sheet, in: directory, name), name)
      if says.isEmpty { continue }  // whatever the two passes say, the road says too (checked above)
      #expect(outcome.error?.contains(says) == true, "\(name): \(outcome.error ?? "no error")")
    }
  }

  /// Messy rows (text amounts, errors, booleans, blank rows, typed and text dates) under several options.
  @Test(arguments: 0..<4)
  func messySheets(variant: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try XLSXFastPathTests.messyWorkbook(in: directory, seed: 40 + UInt64(variant))
    let (held, outcome) = try Self.check(input, "messy \(variant)") { options in
      switch variant {
      case 0: break
      case 1: options.decimalMark = .comma
      case 2: options.decimalMark = .point
      default:
        options.decimalMark = .point
        options.dateFormat = .dayMonthYear
      }
    }
    #expect((outcome.counts?.records ?? 0) > 1_000)
    // Text amounts with marks: without a given mark the road gives way to pass 1's decision.
    #expect(held == (variant != 0))
  }

  /// The workbooks LibreOffice and openpyxl wrote are read in one pass.
  @Test(arguments: ["libreoffice", "openpyxl", "equivalence"])
  func realWorkbooks(name: String) throws {
    let fixture = try #require(Bundle.module.url(forResource: "Fixtures/Workbooks/" + name, withExtension: "xlsx"))
    let (held, outcome) = try Self.check(fixture.path, name) { options in
      if name != "equivalence" { options.fixedTo = CurrencyCode("EUR") }
    }
    #expect(outcome.error == nil, "\(outcome.error ?? "")")
    #expect(held, "\(name): the road held")
  }

  /// `convert --plan` converts nothing: pass 1 reads the sheet whole and reports its errors.
  @Test func planReportsTheSheetsErrors() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try Self.workbook(Self.sheet([#"<row r="1"/>"#], dimension: "A1"), in: directory, "blank")
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [path]
    options.destination = .file(path + ".out.xlsx")
    let (report, _) = BatchJob(options: options, source: .table(EmbeddedECBHistory.table)).plan()
    #expect(report.files.first?.fileError?.contains("no header row") == true, "\(report.files.first?.fileError ?? "none")")
  }
}
