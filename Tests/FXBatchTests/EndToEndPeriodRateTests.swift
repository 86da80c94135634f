import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `convert --rate-kind average|closing --period …` and `rates show … --rate-kind …` on the built binary; the
/// expected figures are those of ``PeriodRateTests`` (computed with Python's `fractions` over the ECB's CSV).
@Suite("End to end: period rates")
struct EndToEndPeriodRateTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let input = """
    id,date,amount,from,to
    1,2024-02-10,1000,USD,EUR
    2,2008-12-15,1000,ISK,USD
    3,2026-10-15,1000,USD,EUR
    4,2024-02-29,5,EUR,EUR

    """

  @Test func monthlyAveragesNameTheirPeriod() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", Self.input)
    let result = try cli.run(["convert", "-q", "--rate-kind", "average", "in.csv", "-o", "-"], in: directory.url)
    #expect(result.status == 1, "one record's period is unfinished")
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.count == 6)
    guard lines.count == 6 else { return }
    #expect(
      lines[1]
        == "1,2024-02-10,1000,USD,EUR,0.9263793126,926.38,EUR,2024-02,ecb-embedded average 2024-02 of 21 days EUR/USD=1.079471429,ok,"
    )
    #expect(
      lines[2]
        == "2,2008-12-15,1000,ISK,USD,0.00463773399,4.64,USD,2008-12,ecb-embedded average 2008-12 of 21 days EUR/ISK=290 (7 of 21 days) EUR/USD=1.344942857,fallback,"
    )
    #expect(lines[3].hasPrefix("3,2026-10-15,1000,USD,EUR,,,EUR,,ecb-embedded,error,"))
    #expect(lines[3].contains("period_incomplete: the ECB rates end 2026-10-30, before 2026-10 ends (2026-10-31)"))
    #expect(lines[4] == "4,2024-02-29,5,EUR,EUR,1,5.00,EUR,2024-02,same currency,ok,")
  }

  /// An undated record under a period rule takes the period of the default day (the newest rate day), and the
  /// summary says so rather than "the rates of" that day.
  @Test func undatedRecordsTakeThePeriodOfTheDefaultDay() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", "amount,from,to\n1000,USD,EUR\n")
    let result = try cli.run(["convert", "--rate-kind", "average", "in.csv", "-o", "-"], in: directory.url)
    #expect(result.standardOutput.contains("period_incomplete: the ECB rates end 2026-10-30, before 2026-10 ends"))
    #expect(result.standardError.contains("records without a date: 1, converted at the period containing 2026-10-30"))
    let dated = try cli.run(
      ["convert", "--rate-kind", "average", "--date", "2024-02-10", "in.csv", "-o", "-"], in: directory.url)
    #expect(dated.standardOutput.contains(",0.9263793126,926.38,EUR,2024-02,"))
  }

  @Test func quarterEndClosingRates() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", "id,date,amount,from,to\n1,2024-02-10,1000,USD,EUR\n")
    let result = try cli.run(
      ["convert", "--rate-kind", "closing", "--period", "quarter", "in.csv", "-o", "-"], in: directory.url)
    #expect(result.status == 0)
    #expect(result.standardError.contains("rate kind: closing quarter (each record at the rate of the calendar quarter"))
    #expect(
      result.standardOutput.hasSuffix(
        "1,2024-02-10,1000,USD,EUR,0.9249838128,924.98,EUR,2024-03-28,ecb-embedded closing 2024-Q1 EUR/USD=1.0811,ok,\n"))
  }

  @Test(arguments: [
    (["--period", "month"], "--period is for --rate-kind average or closing"),
    (["--rate-kind", "weekly"], "--rate-kind weekly: expected one of spot, average, closing"),
    (["--rate-kind", "average", "--period", "week"], "--period week: expected one of month, quarter, year"),
    (
      ["--rate-kind", "average", "--source", "embedded,frankfurter-v1"],
      "--rate-kind average works with the embedded rates, --rates FILE, the ECB feed and Frankfurter v2"
    ),
  ])
  func periodOptionsAreCheckedBeforeAnythingRuns(options: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", "id,date,amount,from,to\n1,2024-02-10,1000,USD,EUR\n")
    let result = try cli.run(["convert"] + options + ["in.csv"], in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.contains(message))
    #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("in.converted.csv").path))
  }

  // `--lock` under a period rule keeps the rule and what was averaged; `--frozen` writes the same bytes, and a
  // lock is replayed only under the rule it was written with (a spot lock's rows are not whole periods).
  @Test func aPeriodLockReplaysOnlyItsRule() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", Self.input)
    let write = try cli.run(
      ["convert", "-q", "--rate-kind", "average", "--lock", "p.lock", "-o", "a.csv", "in.csv"], in: directory.url)
    #expect(write.status == 1, "one record's period is unfinished")
    let lock = try directory.read("p.lock")
    #expect(lock.contains("\nrule average month\nquotes\n"))
    #expect(
      lock.contains(
        "quote USD EUR 2024-02-10 21 22.6689 0.9263793126 2024-02-29 ok 2024-02 ecb-embedded average 2024-02 of 21 days EUR/USD=1.079471429\n"
      ))
    let replay = try cli.run(
      ["convert", "-q", "--rate-kind", "average", "--lock", "p.lock", "--frozen", "-o", "b.csv", "in.csv"],
      in: directory.url)
    #expect(replay.status == 1)
    #expect(try directory.read("a.csv") == directory.read("b.csv"))
    let other = try cli.run(
      ["convert", "-q", "--rate-kind", "closing", "--lock", "p.lock", "--frozen", "-o", "c.csv", "in.csv"],
      in: directory.url)
    #expect(other.status == 2)
    #expect(
      other.standardError.contains(
        "p.lock:1:1: error: the lock file was written under --rate-kind average --period month; it cannot replay --rate-kind closing --period month"
      ))
    _ = try cli.run(["convert", "-q", "--lock", "s.lock", "-o", "d.csv", "in.csv"], in: directory.url)
    let spot = try cli.run(
      ["convert", "-q", "--rate-kind", "average", "--lock", "s.lock", "--frozen", "-o", "e.csv", "in.csv"],
      in: directory.url)
    #expect(spot.status == 2)
    #expect(spot.standardError.contains("written under --rate-kind spot; it cannot replay --rate-kind average --period month"))
  }

  // The workbook of ``EndToEndXLSXTests`` (2024-01-15 1234.56 USD, 2024-02-29 99.5 GBP, 2024-03-01 1000 JPY,
  // 2024-03-31 2469.12 EUR) at monthly averages (Python fractions: mean EUR/USD 2024-01 = 1.090513636… over 22
  // days, EUR/GBP 2024-02 = 0.854662381… over 21, EUR/JPY 2024-03 = 162.7725 over 20) and at the Q1 closing
  // rates of 2024-03-28 (EUR/USD 1.0811, EUR/GBP 0.8551, EUR/JPY 163.45): a period is a text cell, a closing day
  // a date cell.
  @Test(arguments: [
    (
      ["--rate-kind", "average"],
      [
        ["0.9169990788", "1132.09", "EUR", "2024-01", "ecb-embedded average 2024-01 of 22 days EUR/USD=1.090513636"],
        ["1.170052669", "116.42", "EUR", "2024-02", "ecb-embedded average 2024-02 of 21 days EUR/GBP=0.854662381"],
        ["0.006143543903", "6.14", "EUR", "2024-03", "ecb-embedded average 2024-03 of 20 days EUR/JPY=162.7725"],
        ["1", "2469.12", "EUR", "2024-03", "same currency"],
      ]
    ),
    (
      ["--rate-kind", "closing", "--period", "quarter"],
      [
        ["0.9249838128", "1141.95", "EUR", "2024-03-28", "ecb-embedded closing 2024-Q1 EUR/USD=1.0811"],
        ["1.169453865", "116.36", "EUR", "2024-03-28", "ecb-embedded closing 2024-Q1 EUR/GBP=0.8551"],
        ["0.006118078923", "6.12", "EUR", "2024-03-28", "ecb-embedded closing 2024-Q1 EUR/JPY=163.45"],
        ["1", "2469.12", "EUR", "2024-Q1", "same currency"],
      ]
    ),
  ])
  func workbooksGetPeriodRates(options: [String], expected: [[String]]) throws {
    let directory = try EndToEndXLSXTests.directory(with: ["libreoffice.xlsx"])
    defer { directory.remove() }
    let result = try cli.run(["convert", "-q", "--to", "EUR"] + options + ["libreoffice.xlsx"], in: directory.url)
    #expect(result.status == 0)
    let output = directory.path + "/libreoffice.converted.xlsx"
    let rows = try EndToEndXLSXTests.rows(of: output)
    let dates = try EndToEndXLSXTests.dateStyles(of: output)
    #expect(rows.count == 5)
    for (row, values) in zip(rows.dropFirst(), expected) {
      #expect(Array(EndToEndXLSXTests.values(of: row, from: 4, count: 5, dateStyles: dates)) == values)
      let dateCell = row.cells.first { $0.reference.column == 7 }
      if values[3].count == 7 { #expect(dateCell?.value == .text(values[3])) }
      if values[3].count == 10 { #expect(dateCell.map { dates.contains($0.style) } == true) }
    }
  }

  @Test func ratesShowGivesTheSameFigures() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let average = try cli.run(
      ["rates", "show", "USD", "EUR", "--date", "2024-02-10", "--rate-kind", "average"], in: directory.url)
    #expect(average.status == 0)
    #expect(
      average.standardOutput
        == "1 USD = 0.9263793126 EUR  period 2024-02  source ecb-embedded average 2024-02 of 21 days EUR/USD=1.079471429\n")
    let closing = try cli.run(
      ["rates", "show", "USD", "JPY", "--date", "2024-03-01", "--rate-kind", "closing"], in: directory.url)
    #expect(
      closing.standardOutput
        == "1 USD = 151.1886042 JPY  rate date 2024-03-28  source ecb-embedded closing 2024-03 EUR/USD=1.0811 EUR/JPY=163.45\n")
    let unfinished = try cli.run(
      ["rates", "show", "USD", "EUR", "--date", "2026-10-01", "--rate-kind", "average", "--period", "year"],
      in: directory.url)
    #expect(unfinished.status == 1)
    #expect(unfinished.standardError.hasPrefix("fxbatch: period_incomplete: the ECB rates end 2026-10-30, before 2026 ends"))
  }
}
