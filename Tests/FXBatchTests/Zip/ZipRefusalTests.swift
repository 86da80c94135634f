import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Hostile and unsupported packages refused with a one-line reason (`Fixtures/Workbooks/make-workbooks.sh` made
/// the files; README.md there says what each one is).
@Suite("Zip packages: refusals", .tags(.sanitized))
struct ZipRefusalTests {
  static func workbook(_ name: String) throws -> String { try Fixture.path("Workbooks", name) }

  /// The sheet of the lying-size fixtures, as make_workbooks.py writes it.
  static let sheet =
    #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    + #"<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>"#

  enum Refusal: Sendable {
    case legacy, passwordProtected, binary, duplicate(String)
  }

  @Test(
    "packages refused when they are opened",
    arguments: [
      ("legacy.xls", Refusal.legacy),
      ("password-protected.xlsx", .passwordProtected),
      ("encrypted-entry.xlsx", .passwordProtected),
      ("odf-encrypted.ods", .passwordProtected),
      ("binary.xlsb", .binary),
      ("duplicate-entry.xlsx", .duplicate("xl/workbook.xml")),
    ])
  func refusedOnOpening(name: String, refusal: Refusal) throws {
    let path = try Self.workbook(name)
    let expected: ZipError =
      switch refusal {
      case .legacy: .legacyWorkbook(path: path)
      case .passwordProtected: .passwordProtected(path: path)
      case .binary: .binaryWorkbook(path: path)
      case .duplicate(let entry): .duplicateEntry(path: path, name: entry)
      }
    #expect(throws: expected) { try ZipPackage(path: path) }
  }

  /// An `.xlsx` whose entries' names differ only in case (`XL/worksheets/sheet1.xml` beside the sheet): OPC part
  /// names are case-insensitive, so it is one part twice; it was converted, the other entry copied along.
  @Test func anXLSXWithTwoEntriesDifferingOnlyInCaseIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/book.xlsx"
    try ZipPackage(path: Self.workbook("libreoffice.xlsx")).write(
      to: path, replacing: [("XL/Worksheets/Sheet1.xml", .bytes(Array(Self.sheet.utf8)))])
    let expected = WorkbookError.package(
      .duplicateEntry(
        path: path,
        name: "xl/worksheets/sheet1.xml (and XL/Worksheets/Sheet1.xml: an .xlsx part name's case does not count)"))
    #expect(throws: expected) { try XLSXWorkbook.read(from: ZipPackage(path: path)) }
    let cli = try CLIRunner()
    let run = try cli.run(["convert", "--to", "EUR", "book.xlsx"], in: directory.url)
    #expect(run.status == 2)
    #expect(run.standardError.contains("an .xlsx part name's case does not count"), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/book.converted.xlsx"))
  }

  @Test func theCompoundFilesAreToldApart() throws {
    for (name, encrypted) in [("legacy.xls", false), ("password-protected.xlsx", true)] {
      let descriptor = open(try Self.workbook(name), O_RDONLY)
      defer { close(descriptor) }
      #expect(CompoundFile.isEncryptedPackage(descriptor: descriptor) == encrypted, "\(name)")
    }
  }

  @Test func filesThatAreNotWholeZipPackages() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let csv = try directory.write(Array("date,amount,currency\n2024-01-15,1234.56,USD\n".utf8), named: "book.xlsx")
    #expect(throws: ZipError.notAZip(path: csv)) { try ZipPackage(path: csv) }
    let empty = try directory.write([], named: "empty.xlsx")
    #expect(throws: ZipError.notAZip(path: empty)) { try ZipPackage(path: empty) }
    // The first half of a real workbook: local headers, no central directory.
    let whole = try Fixture.bytes("Workbooks", "libreoffice.xlsx")
    let truncated = try directory.write(Array(whole.prefix(whole.count / 2)), named: "truncated.xlsx")
    #expect(throws: ZipError.truncated(path: truncated)) { try ZipPackage(path: truncated) }
    let missing = directory.path + "/missing.xlsx"
    #expect(throws: ZipError.cannotOpen(path: missing, reason: "No such file or directory")) {
      try ZipPackage(path: missing)
    }
    #expect(throws: ZipError.cannotOpen(path: directory.path, reason: "it is a directory")) {
      try ZipPackage(path: directory.path)
    }
  }

  @Test func aZipBombIsRefusedByItsHeaderBeforeInflating() throws {
    let path = try Self.workbook("zip-bomb.xlsx")
    let package = try ZipPackage(path: path)
    let bomb = try #require(package.entry(named: "xl/worksheets/sheet1.xml"))
    // "<worksheet>", 16 MiB of spaces, "</worksheet>".
    let size: UInt64 = 11 + (16 << 20) + 12
    #expect(bomb.size == size)
    #expect(bomb.compressedSize < size / 100)
    #expect(
      throws: ZipError.compressionRatioTooHigh(
        path: path, entry: bomb.name, size: size, compressedSize: bomb.compressedSize, limit: 100)
    ) { try package.stream(bomb) }
  }

  @Test func aBombThatDeclaresASmallSizeStopsAtItsFirstByteTooMany() throws {
    let path = try Self.workbook("lying-bomb.xlsx")
    let package = try ZipPackage(path: path)
    let bomb = try #require(package.entry(named: "xl/worksheets/sheet1.xml"))
    #expect(bomb.size == 1000)
    let stream = try package.stream(bomb)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    #expect(throws: ZipError.inflatesPastDeclaredSize(path: path, entry: bomb.name, declared: 1000)) {
      while try stream.read(into: &buffer) > 0 {}
    }
    #expect(stream.inflated == 1001)
    #expect(try stream.read(into: &buffer) == 0)
  }

  @Test func entriesThatLieAboutTheirSize() throws {
    let size = UInt64(Self.sheet.utf8.count)
    let smaller = try Self.workbook("lying-size-smaller.xlsx")
    #expect(throws: ZipError.inflatesPastDeclaredSize(path: smaller, entry: "xl/worksheets/sheet1.xml", declared: size - 20)) {
      try ZipPackage(path: smaller).contents(ofEntryNamed: "xl/worksheets/sheet1.xml")
    }
    let larger = try Self.workbook("lying-size-larger.xlsx")
    #expect(
      throws: ZipError.inflatesShortOfDeclaredSize(
        path: larger, entry: "xl/worksheets/sheet1.xml", declared: size + 20, inflated: size)
    ) { try ZipPackage(path: larger).contents(ofEntryNamed: "xl/worksheets/sheet1.xml") }
  }

  @Test func aWrongChecksum() throws {
    let path = try Self.workbook("bad-crc.xlsx")
    #expect(
      throws: ZipError.readFailed(
        path: path, entry: "xl/worksheets/sheet1.xml",
        reason: "its checksum (CRC-32) does not match its data: the file is damaged")
    ) { try ZipPackage(path: path).contents(ofEntryNamed: "xl/worksheets/sheet1.xml") }
  }

  /// An entry whose local header declares another CRC-32 or other sizes than its central directory record: the
  /// data matched the central directory's, which was all that was checked, so the package was accepted, though a
  /// reader that goes by the local headers reads another one. libzip's consistency check (ZIP_CHECKCONS) compares
  /// the two when the package is opened.
  @Test func localHeadersThatDisagreeWithTheCentralDirectory() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let content = ZipInflateTests.content(rows: 20)
    let data = try ZipInflateTests.deflated(content)
    let (crc, compressed, size) = (crc32(content), UInt32(data.count), UInt32(content.count))
    let entry = ZipInflateTests.Entry(method: 8, data: data, crc: crc, size: size)
    let agreeing = try directory.write(ZipInflateTests.package([entry]), named: "agreeing.xlsx")
    #expect(try ZipPackage(path: agreeing).contents(ofEntryNamed: ZipInflateTests.name) == content)
    let lies: [(String, (crc: UInt32, compressedSize: UInt32, size: UInt32))] = [
      ("crc", (crc ^ 1, compressed, size)), ("size", (crc, compressed, size + 20)),
      ("compressed", (crc, compressed - 1, size)),
    ]
    for (name, local) in lies {
      var lying = entry
      lying.local = local
      let path = try directory.write(ZipInflateTests.package([lying]), named: name + ".xlsx")
      #expect(throws: ZipError.inconsistent(path: path), "\(name)") { try ZipPackage(path: path) }
    }
    #expect(
      ZipError.inconsistent(path: "book.xlsx").description
        == "book.xlsx: error: a damaged zip package: its central directory and its entries' local headers disagree (checksums, sizes, names or places)"
    )
  }

  /// A workbook whose sheet's local header declares another CRC-32 than its central directory: refused by the
  /// command with one line, nothing written.
  @Test func aWorkbookWhoseLocalHeaderDisagreesIsRefused() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var bytes = try Fixture.bytes("Workbooks", "libreoffice.xlsx")
    // The sheet's local header: PK\3\4, its name at 30, its CRC-32 at 14.
    let name = Array("xl/worksheets/sheet1.xml".utf8)
    let header = try #require(
      bytes.indices.first { at in
        at + 30 + name.count <= bytes.count && bytes[at..<at + 4].elementsEqual([0x50, 0x4B, 3, 4])
          && bytes[at + 30..<at + 30 + name.count].elementsEqual(name)
      })
    bytes[header + 14] ^= 1
    try directory.write(bytes, named: "book.xlsx")
    let result = try cli.run(["convert", "--to", "EUR", "book.xlsx"], in: directory.url)
    #expect(result.status == 2)
    let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("book.xlsx:") }
    #expect(
      lines == [
        "book.xlsx:1:1: error: a damaged zip package: its central directory and its entries' local headers disagree (checksums, sizes, names or places)"
      ])
    #expect(try directory.fileNames() == ["book.xlsx"])
  }

  @Test(arguments: ["doctype.xlsx", "doctype-utf16.xlsx"])
  func documentTypeDeclarations(name: String) throws {
    let path = try Self.workbook(name)
    let package = try ZipPackage(path: path)
    #expect(throws: ZipError.documentTypeDeclaration(path: path, entry: "xl/workbook.xml")) {
      try package.contents(ofEntryNamed: "xl/workbook.xml")
    }
    // The package's other entries still read.
    #expect(try package.contents(ofEntryNamed: "[Content_Types].xml").count > 0)
  }

  @Test func everyMessageIsOneLineNamingTheFile() throws {
    let path = "book.xlsx"
    let errors: [ZipError] = [
      .cannotOpen(path: path, reason: "No such file or directory"), .notAZip(path: path), .truncated(path: path),
      .legacyWorkbook(path: path), .binaryWorkbook(path: path), .passwordProtected(path: path),
      .damaged(path: path, reason: "Zip archive inconsistent"), .inconsistent(path: path),
      .duplicateEntry(path: path, name: "a.xml"),
      .noSuchEntry(path: path, name: "a.xml"), .entryTooLarge(path: path, entry: "a.xml", size: 2, limit: 1),
      .compressionRatioTooHigh(path: path, entry: "a.xml", size: 2_000_000, compressedSize: 2_000, limit: 100),
      .inflatesPastDeclaredSize(path: path, entry: "a.xml", declared: 1),
      .inflatesShortOfDeclaredSize(path: path, entry: "a.xml", declared: 2, inflated: 1),
      .documentTypeDeclaration(path: path, entry: "a.xml"), .readFailed(path: path, entry: "a.xml", reason: "x"),
      .writeFailed(path: path, reason: "No space left on device"),
    ]
    for error in errors {
      #expect(error.description.hasPrefix("book.xlsx: error: "))
      #expect(!error.description.contains("\n"))
    }
    #expect(
      ZipError.legacyWorkbook(path: path).description
        == "book.xlsx: error: a legacy .xls workbook (Excel 97-2003): save it as .xlsx")
    #expect(ZipError.binaryWorkbook(path: path).description == "book.xlsx: error: an .xlsb binary workbook: save it as .xlsx")
    #expect(
      ZipError.passwordProtected(path: path).description
        == "book.xlsx: error: a password-protected workbook: save a copy without the password")
    #expect(
      ZipError.compressionRatioTooHigh(path: path, entry: "a.xml", size: 2_000_000, compressedSize: 2_000, limit: 100)
        .description == "book.xlsx: error: a.xml inflates 2000 bytes to 2000000, more than 100 times: a zip bomb")
  }
}

/// The DTD scan on its own: chunk boundaries anywhere, three encodings, markup that is not a declaration.
@Suite("Zip packages: XML declaration scan", .tags(.sanitized))
struct XMLDeclarationScanTests {
  /// Whether the scan finds a declaration in `bytes` fed in chunks of `size`.
  static func found(_ bytes: [UInt8], chunks size: Int) -> Bool {
    var scan = XMLDeclarationScan()
    var start = 0
    while start < bytes.count {
      if scan.found(in: bytes[start..<min(start + size, bytes.count)]) { return true }
      start += size
    }
    return false
  }

  static func utf16LittleEndian(_ ascii: [UInt8]) -> [UInt8] { ascii.flatMap { [$0, 0] } }
  static func utf16BigEndian(_ ascii: [UInt8]) -> [UInt8] { ascii.flatMap { [0, $0] } }

  @Test(arguments: [
    #"<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>"#,
    #"<?xml version="1.0"?><!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>"#,
    #"<a><!ENTITY e "x"></a>"#,
  ])
  func declarationsAreFoundAcrossAnyChunkBoundary(document: String) {
    let utf8 = Array(document.utf8)
    for bytes in [utf8, Self.utf16LittleEndian(utf8), Self.utf16BigEndian(utf8)] {
      for size in 1...bytes.count {
        #expect(Self.found(bytes, chunks: size), "chunks of \(size) of \(bytes.count)")
      }
    }
  }

  @Test(arguments: [
    #"<?xml version="1.0"?><!-- a comment! --><a><![CDATA[x]]>Hello!<b c="!DOCTYPE"/></a>"#,
    #"<a>&lt;!DOCTYPE a&gt; <!doctype a> <! DOCTYPE> <!ENTITIES></a>"#,
  ])
  func otherMarkupIsNot(document: String) {
    let utf8 = Array(document.utf8)
    for bytes in [utf8, Self.utf16LittleEndian(utf8), Self.utf16BigEndian(utf8)] {
      for size in [1, 2, 3, 5, 8, 9, 10, bytes.count] {
        #expect(!Self.found(bytes, chunks: size), "chunks of \(size)")
      }
    }
  }
}
