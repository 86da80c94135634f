import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `rates export` to Ledger and Beancount writes the rates' description (a rates file's name) into comment
/// lines: a name with a line break wrote the rest of it as a ledger line of its own — a forged price
/// (`P 2024-02-01 EUR 9 USD`) that ledger tools read as the day's rate.
@Suite("break it: rates export comments")
struct BreakItRateExportTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  @Test func aLineBreakInARatesFileNameStaysInItsComment() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let window = ["--base", "EUR", "--quotes", "USD", "--from", "2024-02-01", "--to", "2024-02-01"]
    let csv = try cli.run(["rates", "export", "--format", "csv", "-o", "rates.csv"] + window, in: directory.url)
    #expect(csv.status == 0, "\(csv.standardError)")
    let name = "evil\nP 2024-02-01 EUR 9 USD\r\n.csv"
    try FileManager.default.copyItem(atPath: directory.path + "/rates.csv", toPath: directory.path + "/" + name)
    for format in ["ledger", "beancount"] {
      let export = try cli.run(["rates", "export", "--rates", name, "--format", format] + window, in: directory.url)
      #expect(export.status == 0, "\(export.standardError)")
      let lines = export.standardOutput.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
      #expect(!lines.contains { $0.hasPrefix("P ") && $0.contains(" 9 ") }, "\(format): \(export.standardOutput)")
      #expect(export.standardOutput.contains("evil\\nP 2024-02-01 EUR 9 USD\\n.csv"), "\(export.standardOutput)")
    }
  }

  @Test func aCSVFieldWithACRLFIsQuoted() {
    #expect(RateExport.csvField("a\r\nb") == "\"a\r\nb\"")
    #expect(RateExport.comment("a\r\nb\nc") == "; a\\nb\\nc\n")
  }
}
