import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// LibreOffice, when it is installed.
enum LibreOffice {
  /// Its `soffice` on the `PATH`, if any.
  static let soffice: String? = TestTools.onPath("soffice")
}

/// Packages written by ``ZipPackage/write(to:replacing:)`` opened by LibreOffice itself: it exports the changed
/// sheet as CSV. Skipped where LibreOffice is not installed (`.ci/run` installs `libreoffice-calc-nogui`).
@Suite("Zip packages: LibreOffice reads what is written", .enabled(if: LibreOffice.soffice != nil))
struct ZipLibreOfficeTests {
  /// The first sheet of a workbook as LibreOffice exports it to CSV (in a profile of its own, so that tests
  /// running at once and a desktop session do not share one), through LibreOffice's `filter` (`--convert-to`).
  static func csv(of workbook: String, in directory: TemporaryDirectory, filter: String = "csv") throws -> String {
    let soffice = try #require(LibreOffice.soffice)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: soffice)
    process.arguments = [
      "-env:UserInstallation=file://\(directory.path)/profile", "--headless", "--convert-to", filter, "--outdir",
      directory.path + "/csv", workbook,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let name = PathText.splitExtension(PathText.lastComponent(of: workbook)).stem + ".csv"
    return try String(contentsOfFile: directory.path + "/csv/" + name, encoding: .utf8)
  }

  @Test(arguments: [
    ("libreoffice.xlsx", "xl/worksheets/sheet1.xml", "<v>1234.56</v>", "<v>4321.5</v>"),
    ("libreoffice.ods", "content.xml", #"office:value="1234.56""#, #"office:value="4321.5""#),
  ])
  func aChangedSheetOpensInLibreOffice(name: String, entry: String, old: String, new: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let package = try ZipPackage(path: Fixture.path("Workbooks", name))
    let sheet = String(decoding: try package.contents(ofEntryNamed: entry), as: UTF8.self)
    #expect(sheet.contains(old))
    let output = directory.path + "/changed." + PathText.splitExtension(name).extension
    try package.write(to: output, replacing: [(entry, .bytes(Array(sheet.replacingOccurrences(of: old, with: new).utf8)))])

    let before = try Self.csv(of: package.path, in: directory)
    let after = try Self.csv(of: output, in: directory)
    // LibreOffice's CSV export writes numbers as stored and dates as formatted (yyyy-mm-dd); every other line
    // is as it was.
    #expect(before.contains("\n2024-01-15,1234.56,USD,Invoice 17\n"))
    #expect(after.contains("\n2024-01-15,4321.5,USD,Invoice 17\n"))
    #expect(after.contains("\n2024-03-31,2469.12,EUR,\"Formula, bold\"\n"))
    #expect(after.split(separator: "\n").count == 5)
    #expect(
      after.split(separator: "\n").enumerated().filter { $0.offset != 1 }.map(\.element)
        == before.split(separator: "\n").enumerated().filter { $0.offset != 1 }.map(\.element))
  }
}
