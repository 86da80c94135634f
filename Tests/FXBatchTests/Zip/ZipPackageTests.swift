import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Reading the workbooks made by real spreadsheet software (`Fixtures/Workbooks/make-workbooks.sh`).
@Suite("Zip packages: reading", .tags(.sanitized))
struct ZipPackageTests {
  /// The fixture's path.
  static func workbook(_ name: String) throws -> String { try Fixture.path("Workbooks", name) }

  /// Every entry of a stream read in chunks of `chunk` bytes.
  static func streamed(_ package: ZipPackage, _ entry: ZipEntry, chunk: Int) throws -> [UInt8] {
    let stream = try package.stream(entry)
    var buffer = [UInt8](repeating: 0, count: chunk)
    var bytes: [UInt8] = []
    while true {
      let got = try stream.read(into: &buffer)
      if got == 0 { break }
      bytes += buffer[..<got]
    }
    return bytes
  }

  @Test(
    "the entries of real workbooks, as their central directories list them",
    arguments: [
      (
        "openpyxl.xlsx",
        [
          "docProps/app.xml", "docProps/core.xml", "xl/theme/theme1.xml", "xl/worksheets/sheet1.xml",
          "xl/worksheets/sheet2.xml", "xl/styles.xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels",
          "[Content_Types].xml",
        ]
      ),
      (
        "libreoffice.xlsx",
        [
          "_rels/.rels", "xl/workbook.xml", "xl/styles.xml", "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml",
          "xl/_rels/workbook.xml.rels", "xl/sharedStrings.xml", "docProps/core.xml", "docProps/app.xml",
          "[Content_Types].xml",
        ]
      ),
    ])
  func entriesOfWorkbooks(name: String, entries: [String]) throws {
    let package = try ZipPackage(path: Self.workbook(name))
    #expect(package.entries.map(\.name) == entries)
    #expect(package.entries.map(\.index) == Array(0..<entries.count))
  }

  @Test func theEntriesOfALibreOfficeSpreadsheet() throws {
    let package = try ZipPackage(path: Self.workbook("libreoffice.ods"))
    // ODF: the mimetype entry first and stored, so that its text is at a fixed offset of the file.
    let mimetype = try #require(package.entries.first)
    #expect(mimetype.name == "mimetype")
    #expect(mimetype.method == .stored)
    #expect(try package.contents(of: mimetype) == Array("application/vnd.oasis.opendocument.spreadsheet".utf8))
    for name in ["content.xml", "styles.xml", "meta.xml", "settings.xml", "META-INF/manifest.xml"] {
      #expect(package.entry(named: name)?.method == .deflated, "\(name)")
    }
    let content = String(decoding: try package.contents(ofEntryNamed: "content.xml"), as: UTF8.self)
    #expect(content.contains(#"office:value-type="float" office:value="1234.56""#))
    #expect(content.contains(#"table:formula="of:=[.B2]*2" office:value-type="float" office:value="2469.12""#))
    #expect(content.contains(#"table:name="Notes""#))
  }

  @Test(
    "every entry inflates to its declared size and CRC-32, whole and in chunks of any size",
    arguments: ["openpyxl.xlsx", "libreoffice.xlsx", "libreoffice.ods"])
  func entriesInflateToTheirDeclaredSizeAndChecksum(name: String) throws {
    let package = try ZipPackage(path: Self.workbook(name))
    for entry in package.entries {
      let bytes = try package.contents(of: entry)
      #expect(UInt64(bytes.count) == entry.size, "\(entry.name)")
      #expect(crc32(bytes) == entry.crc, "\(entry.name)")
      for chunk in [1, 7, 4096] {
        #expect(try Self.streamed(package, entry, chunk: chunk) == bytes, "\(entry.name) in chunks of \(chunk)")
      }
    }
  }

  @Test func theSheetsHoldWhatTheScriptWrote() throws {
    let openpyxl = try ZipPackage(path: Self.workbook("openpyxl.xlsx"))
    let sheet = String(decoding: try openpyxl.contents(ofEntryNamed: "xl/worksheets/sheet1.xml"), as: UTF8.self)
    // 2024-01-15 is serial 45306 in the 1900 date system: 45306 days after 1899-12-30.
    #expect(sheet.contains(#"<c r="A2" s="1" t="n"><v>45306</v></c><c r="B2" s="2" t="n"><v>1234.56</v></c>"#))
    #expect(sheet.contains(#"<f>B2*2</f>"#))
    #expect(sheet.contains(#"<r><rPr><b val="1" /></rPr><t>bold</t></r>"#))
    let libreOffice = try ZipPackage(path: Self.workbook("libreoffice.xlsx"))
    let strings = String(decoding: try libreOffice.contents(ofEntryNamed: "xl/sharedStrings.xml"), as: UTF8.self)
    #expect(strings.contains(#"<si><t xml:space="preserve">Invoice 17</t></si>"#))
    let lines = String(decoding: try libreOffice.contents(ofEntryNamed: "xl/worksheets/sheet1.xml"), as: UTF8.self)
    #expect(lines.contains(#"<f aca="false">B2*2</f><v>2469.12</v>"#))
  }

  @Test func aMissingEntryIsNamed() throws {
    let path = try Self.workbook("openpyxl.xlsx")
    let package = try ZipPackage(path: path)
    #expect(package.entry(named: "xl/sharedStrings.xml") == nil)
    // An entry of another package is not read as this package's entry of the same index.
    let other = try #require(try ZipPackage(path: Self.workbook("libreoffice.xlsx")).entry(named: "xl/sharedStrings.xml"))
    #expect(throws: ZipError.noSuchEntry(path: path, name: "xl/sharedStrings.xml")) { try package.stream(other) }
    #expect(throws: ZipError.noSuchEntry(path: path, name: "xl/sharedStrings.xml")) {
      try package.contents(ofEntryNamed: "xl/sharedStrings.xml")
    }
  }

  @Test func aStreamReadsNothingAfterItsEnd() throws {
    let package = try ZipPackage(path: Self.workbook("openpyxl.xlsx"))
    let entry = try #require(package.entry(named: "xl/workbook.xml"))
    let stream = try package.stream(entry)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    #expect(try stream.read(into: &buffer, at: 10) == Int(entry.size))
    #expect(stream.inflated == entry.size)
    #expect(try stream.read(into: &buffer) == 0)
    #expect(try stream.read(into: &buffer) == 0)
  }

  @Test func theLimitsApplyToRealEntries() throws {
    let path = try Self.workbook("libreoffice.xlsx")
    let styles = try #require(try ZipPackage(path: path).entry(named: "xl/styles.xml"))
    let size = styles.size
    #expect(size > 4000)
    let small = try ZipPackage(path: path, limits: ZipLimits(entrySize: size - 1, compressionRatio: 100, ratioGraceSize: 1 << 20))
    #expect(throws: ZipError.entryTooLarge(path: path, entry: "xl/styles.xml", size: size, limit: size - 1)) {
      try small.stream(styles)
    }
    let exact = try ZipPackage(path: path, limits: ZipLimits(entrySize: size, compressionRatio: 100, ratioGraceSize: 1 << 20))
    #expect(try exact.contents(of: styles).count == Int(size))
    // styles.xml deflates more than 2 times; without a grace size the ratio limit of 2 refuses it.
    #expect(styles.compressedSize * 2 < size)
    let strict = try ZipPackage(path: path, limits: ZipLimits(entrySize: 1 << 32, compressionRatio: 2, ratioGraceSize: 0))
    #expect(
      throws: ZipError.compressionRatioTooHigh(
        path: path, entry: "xl/styles.xml", size: size, compressedSize: styles.compressedSize, limit: 2)
    ) { try strict.stream(styles) }
    // With a grace size of its size, the ratio is not checked.
    let graced = try ZipPackage(path: path, limits: ZipLimits(entrySize: 1 << 32, compressionRatio: 2, ratioGraceSize: size))
    #expect(try graced.contents(of: styles).count == Int(size))
  }
}
