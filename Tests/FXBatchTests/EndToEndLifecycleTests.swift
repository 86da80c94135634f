import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Runs the built `fxbatch` on an old ledger (fxbatch issue 6): legacy currencies at their fixed conversions,
/// a withdrawn code refused, ties rounded in both modes, and the rounding reconciliation in the summary and in
/// `--report`.
///
/// Rates file: 2019-03-01 USD/VES 3300, 2021-06-01 EUR/HRK 7.5, 2023-03-01 EUR/USD 1.25. By hand, exact:
///   1  753.45 HRK 2023-03-01 → ÷ 7.53450 (fixed) = 100.00 EUR; rate 1 ÷ 7.5345 = 0.13272280841… → 0.1327228084
///   2  100 DEM → ÷ 1.95583 (fixed) = 51.129188… → 51.13 EUR; rate 0.51129188119… → 0.5112918812
///   3–5  100 HRK 2021-06-01, before the changeover: the file's market rate, 100 ÷ 7.5 = 13.333… → 13.33 EUR
///   6  VEF in 2022: `currency_withdrawn` (VES was redenominated again on 2021-10-01 under the same code)
///   7  495000000 VEF 2019-03-01 → ÷ 100000 = 4950 VES → ÷ 3300 = 1.50 USD; rate 1 ÷ 330000000 = 3.0303…e-9
///   8  2362.5 EUR × 1.25 = 2953.125 → 2953.13 half-up, 2953.12 half-even
///   9, 11  0.1 × 1.25 = 0.125 → 0.13 / 0.12;  10  −0.1 × 1.25 = −0.125 → −0.13 / −0.12
/// Reconciliation:
///   EUR  100.00 + 51.13 + 3 × 13.33 = 191.12; exact 100 + 51.129188… + 40 = 191.129188… → 191.13; −0.01
///   USD half-up   1.50 + 2953.13 + 0.13 − 0.13 + 0.13 = 2954.76; exact 1.5 + 2953.125 + 0.125 = 2954.75; +0.01
///   USD half-even 1.50 + 2953.12 + 0.12 − 0.12 + 0.12 = 2954.74; exact 2954.75; −0.01
@Suite("fxbatch end to end: currency lifecycle and reconciliation")
struct EndToEndLifecycleTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = "date,base,quote,rate\n2019-03-01,USD,VES,3300\n2021-06-01,EUR,HRK,7.5\n2023-03-01,EUR,USD,1.25\n"
  static let ledger = """
    id,date,amount,currency,target
    1,2023-03-01,753.45,HRK,EUR
    2,2023-03-01,100,DEM,EUR
    3,2021-06-01,100,HRK,EUR
    4,2021-06-01,100,HRK,EUR
    5,2021-06-01,100,HRK,EUR
    6,2022-03-01,100,VEF,USD
    7,2019-03-01,495000000,VEF,USD
    8,2023-03-01,2362.5,EUR,USD
    9,2023-03-01,0.1,EUR,USD
    10,2023-03-01,-0.1,EUR,USD
    11,2023-03-01,0.1,EUR,USD

    """

  static let hrkFixed = "fixed EUR/HRK=7.53450 (Council Regulation (EU) 2022/1211)"
  static let demFixed = "fixed EUR/DEM=1.95583 (Council Regulation (EC) No 2866/98)"
  static let vefToVes =
    "\"redenomination VES/VEF=100000 (Banco Central de Venezuela, reconversión monetaria 2018) + file:rates.csv USD/VES=3300\""

  static let vefWithdrawn =
    "currency_withdrawn: VEF on 2022-03-01: VEF became VES on 2018-08-20 (100000 VEF = 1 VES, Banco Central de "
    + "Venezuela, reconversión monetaria 2018); VES itself was redenominated 1000000:1 on 2021-10-01 and rate "
    + "sources quote the new bolívar as VES, so fxbatch has no conversion for it on that day"

  /// The output lines both rounding modes share, and those where they differ (records 8 to 11).
  static func expectedLines(halfEven: Bool) -> [String] {
    let tie = halfEven ? ["2953.12", "0.12", "-0.12", "0.12"] : ["2953.13", "0.13", "-0.13", "0.13"]
    let usd = "USD,2023-03-01,file:rates.csv EUR/USD=1.25,ok,"
    let hrk2021 = "100,HRK,EUR,0.1333333333,13.33,EUR,2021-06-01,file:rates.csv EUR/HRK=7.5,ok,"
    return [
      "id,date,amount,currency,target,fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error",
      "1,2023-03-01,753.45,HRK,EUR,0.1327228084,100.00,EUR,2023-03-01,\(hrkFixed),fallback,",
      "2,2023-03-01,100,DEM,EUR,0.5112918812,51.13,EUR,2023-03-01,\(demFixed),fallback,",
      "3,2021-06-01,\(hrk2021)",
      "4,2021-06-01,\(hrk2021)",
      "5,2021-06-01,\(hrk2021)",
      "6,2022-03-01,100,VEF,USD,,,USD,,file:rates.csv,error,\"\(vefWithdrawn)\"",
      "7,2019-03-01,495000000,VEF,USD,0.00000000303030303,1.50,USD,2019-03-01,\(vefToVes),fallback,",
      "8,2023-03-01,2362.5,EUR,USD,1.25,\(tie[0]),\(usd)",
      "9,2023-03-01,0.1,EUR,USD,1.25,\(tie[1]),\(usd)",
      "10,2023-03-01,-0.1,EUR,USD,1.25,\(tie[2]),\(usd)",
      "11,2023-03-01,0.1,EUR,USD,1.25,\(tie[3]),\(usd)",
    ]
  }

  @Test(arguments: [false, true])
  func legacyCurrenciesTiesAndReconciliation(halfEven: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("ledger.csv", Self.ledger)
    let rounding = halfEven ? ["--rounding", "half-even"] : []
    let result = try cli.run(
      ["convert", "--rates", "rates.csv", "--report", "report.json"] + rounding + ["ledger.csv"], in: directory.url)
    #expect(result.status == 1, "record 6 fails")
    let lines = try directory.read("ledger.converted.csv").split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines == Self.expectedLines(halfEven: halfEven) + [""])

    let usd = halfEven ? ("2954.74", "-0.01") : ("2954.76", "+0.01")
    let summary = [
      "rounding: \(halfEven ? "half-even" : "half-up") to ISO 4217 minor units; max staleness 5 days",
      "  reconciliation EUR, 5 records: sum of rounded amounts 191.12, exact sum rounded once 191.13, difference -0.01",
      "  reconciliation USD, 5 records: sum of rounded amounts \(usd.0), exact sum rounded once 2954.75, difference \(usd.1)",
      // The converted records' amounts: DEM 100 (2); EUR 2362.5 + 0.1 − 0.1 + 0.1 = 2362.6 (8 to 11);
      // HRK 753.45 + 3 × 100 = 1053.45 (1, 3 to 5); VEF 495000000 (7); with their currencies' two decimals.
      "  totals from: 100.00 DEM (1 record), 2362.60 EUR (4 records), 1053.45 HRK (4 records), 495000000.00 VEF (1 record)",
      "exit status 1 (record-errors): 1 record failed on its own data",
    ]
    #expect(result.standardError.hasSuffix(summary.joined(separator: "\n") + "\n"), "\(result.standardError)")

    let report = try JSONDecoder().decode(
      RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("report.json")))
    let expected = [
      Reconciliation(
        currency: "EUR", records: 5, roundedRecordsTotal: "191.12", exactTotalRounded: "191.13", difference: "-0.01"),
      Reconciliation(
        currency: "USD", records: 5, roundedRecordsTotal: usd.0, exactTotalRounded: "2954.75",
        difference: halfEven ? "-0.01" : "0.01"),
    ]
    #expect(report.reconciliation == expected)
    #expect(report.files.first?.reconciliation == expected)
    #expect(report.totals.errorsByCode == ["currency_withdrawn": 1])
  }

  /// Two files: the report has each file's reconciliation and their total.
  /// a.csv: 0.005 USD → USD ×2 (rate 1, 0.01 each, half-up); b.csv: 0.005 USD → USD ×1.
  /// Per file: a 0.02 vs 0.01 (+0.01); b 0.01 vs 0.01 (0.00). Total: 0.03 vs 0.015 → 0.02 (+0.01).
  @Test func reportHasPerFileAndTotalReconciliation() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("a.csv", "date,amount,from,to\n2020-01-02,0.005,USD,USD\n2020-01-02,0.005,USD,USD\n")
    try directory.write("b.csv", "date,amount,from,to\n2020-01-02,0.005,USD,USD\n")
    let result = try cli.run(["convert", "--report", "report.json", "a.csv", "b.csv"], in: directory.url)
    #expect(result.status == 0)
    let report = try JSONDecoder().decode(
      RunReport.self, from: Data(contentsOf: directory.url.appendingPathComponent("report.json")))
    #expect(
      report.files.map(\.reconciliation) == [
        [Reconciliation(currency: "USD", records: 2, roundedRecordsTotal: "0.02", exactTotalRounded: "0.01", difference: "0.01")],
        [Reconciliation(currency: "USD", records: 1, roundedRecordsTotal: "0.01", exactTotalRounded: "0.01", difference: "0.00")],
      ])
    #expect(
      report.reconciliation == [
        Reconciliation(currency: "USD", records: 3, roundedRecordsTotal: "0.03", exactTotalRounded: "0.02", difference: "0.01")
      ])
  }
}
