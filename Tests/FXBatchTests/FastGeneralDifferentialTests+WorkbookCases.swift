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
