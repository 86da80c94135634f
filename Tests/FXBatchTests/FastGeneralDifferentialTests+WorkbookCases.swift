import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The workbooks' own inputs: a workbook's records convert on the fast path (``TableConverter``, from a table
/// or from answered quotes) where they can and by the general rules elsewhere, and every entry of the converted
/// package is what the general path alone writes, for messy rows (``XLSXFastPathTests/messySheet(records:seed:)``)
/// under other options and on answered quotes, and for the `.ods` fixtures LibreOffice wrote.
extension FastGeneralDifferentialTests {
  /// Under other options (a fixed source currency over the sheet's column, day-first dates, a given decimal mark,
  /// another rounding) both roads write the same sheet: the sheet scanner's decoder (``XLSXRowDecoder``) asks the
  /// rules each option changes.
  @Test(arguments: 0..<4)
  func xlsxMessySheetUnderOptions(variant: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try XLSXFastPathTests.messyWorkbook(in: directory, seed: 20 + UInt64(variant))
    let general = try Self.check(input, format: .xlsx, "messy sheet, variant \(variant)", parts: [1]) { options in
      switch variant {
      case 0:
        options.fixedFrom = CurrencyCode("USD")
        options.overrideCurrencyFields = true
      case 1: options.dateFormat = .dayMonthYear
      case 2: options.decimalMark = .comma
      default: options.rounding = .halfEven
      }
    }
    #expect(general.fileError == nil)
    #expect(general.totals.records > 1_000)
  }

  /// Under answered quotes (a Frankfurter v1 service on a loopback server).
  @Test func xlsxMessySheetOnAnsweredQuotes() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try XLSXFastPathTests.messyWorkbook(in: directory, seed: 11)
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let source = AnsweredQuotesDifferentialTests.frankfurter(for: input, server: server)
    let general = try Self.check(input, format: .xlsx, source: source, "messy sheet, answered quotes", parts: [1])
    #expect(general.fileError == nil)
    #expect(general.totals.records > 1_000)
  }

  /// `.ods` converts through the same row converter: the fixtures LibreOffice wrote give the same package on
  /// both paths.
  @Test(arguments: ["equivalence.ods", "libreoffice.ods", "features.ods"])
  func odsFixtures(name: String) throws {
    let fixture = try #require(
      Bundle.module.url(forResource: "Fixtures/Workbooks/" + name.dropLast(4), withExtension: "ods"))
    let general = try Self.check(fixture.path, format: .ods, name, parts: [1]) {
      if name == "libreoffice.ods" { $0.fixedTo = CurrencyCode("EUR") }  // its sheet has no target column
    }
    #expect(general.fileError == nil)
    #expect(general.totals.records > 0)
  }
}

extension FastGeneralDifferentialTests {
  /// The `.ods` fixture LibreOffice wrote, mutated (seeded): a construct the content scanner reads or declines
  /// put between or inside its rows, a byte cut out of its table, a row doubled; whatever the scanner makes of
  /// it, the fast path writes the general path's package (or refuses it with the general path's message).
  @Test(arguments: 0..<8)
  func odsMutatedFixture(seed: Int) throws {
    let fixture = try Fixture.path("Workbooks", "equivalence.ods")
    let package = try ZipPackage(path: fixture)
    let entry = try #require(package.entry(named: "content.xml"))
    var content = try package.contents(of: entry)
    var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let pieces = [
      "<!-- c -->", "<text:s/>", #"<text:s text:c="2"/>"#, "<text:span>x</text:span>", "&amp;", "&#65;", "\n ",
      #"<table:table-cell office:value-type="string"><text:p>EUR</text:p></table:table-cell>"#,
      #"<table:table-cell table:number-columns-repeated="3"/>"#, "<table:covered-table-cell/>", "<![CDATA[x]]>",
      #"<table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="float" office:value="5"><text:p>5</text:p></table:table-cell></table:table-row>"#,
    ]
    let body = Array("<table:table-row".utf8)
    let rowStarts = content.indices.filter { content[$0...].starts(with: body) }
    for _ in 0..<3 {
      guard let first = rowStarts.first, let last = rowStarts.last else { break }
      let at = first + next(max(1, min(content.count, last + 200) - first))
      switch next(3) {
      case 0:
        // A piece where a tag or text may start: after a `>`.
        if let place = content[at...].firstIndex(of: UInt8(ascii: ">")) {
          content.insert(contentsOf: Array(pieces[next(pieces.count)].utf8), at: place + 1)
        }
      case 1:
        if at < content.count { content.remove(at: at) }
      default:
        // A row doubled.
        if let start = rowStarts.last(where: { $0 <= at }),
          let end = content[start...].firstRange(of: Array("</table:table-row>".utf8))?.upperBound
        {
          content.insert(contentsOf: Array(content[start..<end]), at: end)
        }
      }
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/mutated.ods"
    try package.write(to: path, replacing: [("content.xml", .bytes(content))])
    _ = try Self.check(path, format: .ods, "equivalence.ods mutated, seed \(seed)", parts: [1])
  }
}
