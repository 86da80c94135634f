import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `rates export --append`: only the prices an existing file lacks are added, a price of the same day and pair
/// at another rate is an error, and the file is written once, atomically. Rates are the ECB's published
/// EUR/USD of 2024-02-26 .. 03-01 (1.0852, 1.0856, 1.0808, 1.0826, 1.0813) and EUR/JPY (163.38 … 162.82).
@Suite("Rates export --append")
struct RateExportAppendTests {
  static func export(_ from: String, _ to: String, quotes: String...) -> RateExport {
    RateExport(
      table: EmbeddedECBHistory.table, base: .euro, quotes: quotes.compactMap { CurrencyCode($0) },
      from: RateExportTests.day(from), to: RateExportTests.day(to), rule: .spot)
  }

  static func appendix(
    _ export: RateExport, to text: String?, format: RateExport.Format, in directory: TemporaryDirectory
  ) throws -> Result<RateExport.Appendix, RatesFileError> {
    let path = directory.path + "/prices.\(format.rawValue)"
    if let text { _ = try directory.write(text, named: "prices.\(format.rawValue)") }
    do { return .success(try export.appendix(toFileAt: path, format: format, heading: "h", commodities: true)) } catch {
      return .failure(error)
    }
  }

  @Test func ledgerGetsOnlyTheNewDaysAndTheUndeclaredCurrencies() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let old = Self.export("2024-02-26", "2024-02-27", quotes: "USD").text(.ledger, heading: "old")
    let appendix = try Self.appendix(
      Self.export("2024-02-26", "2024-02-28", quotes: "USD", "JPY"), to: old, format: .ledger, in: directory
    ).get()
    #expect(appendix.existing == Array(old.utf8))
    #expect(appendix.added == 4)  // JPY of the three days, USD of the 28th
    #expect(appendix.present == 2)
    #expect(
      appendix.text == """
        ; h
        commodity JPY
          format JPY 1000.
        ; ecb-embedded EUR/JPY=163.38
        P 2024-02-26 EUR 163.38 JPY
        ; ecb-embedded EUR/JPY=163.04
        P 2024-02-27 EUR 163.04 JPY
        ; ecb-embedded EUR/USD=1.0808
        P 2024-02-28 EUR 1.0808 USD
        ; ecb-embedded EUR/JPY=162.87
        P 2024-02-28 EUR 162.87 JPY

        """)
  }

  /// A rate is compared as a number, and a price written another way (a `/` date, a time, the amount's code
  /// first, a comment after it) is the same price; a file without a final line feed gets one first.
  @Test func theSamePriceWrittenAnotherWayIsThere() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = """
      commodity EUR
      commodity 1,000.00 USD
      P 2024/02/26 EUR 1.08520 USD
      P 2024-02-27 00:00:00 EUR USD 1.0856 ; by hand
      P 2024-02-27 EUR 180.5 AAPL
      2024-02-27 groceries
          expenses  10 EUR
          assets
      """
    let appendix = try Self.appendix(
      Self.export("2024-02-26", "2024-02-28", quotes: "USD"), to: file, format: .ledger, in: directory
    ).get()
    #expect(appendix.added == 1)
    #expect(appendix.present == 2)
    #expect(appendix.text == "\n; h\n; ecb-embedded EUR/USD=1.0808\nP 2024-02-28 EUR 1.0808 USD\n")
    let all = try Self.appendix(
      Self.export("2024-02-26", "2024-02-27", quotes: "USD"), to: file, format: .ledger, in: directory
    ).get()
    #expect(all.text.isEmpty && all.added == 0 && all.present == 2)
  }

  @Test(arguments: [
    (RateExport.Format.ledger, "; prices\nP 2024-02-26 EUR 1.0852 USD\nP 2024-02-27 EUR 1.0857 USD\n", 3),
    (.beancount, "2024-02-26 price EUR 1.0852 USD\n2024-02-27 price EUR 1.0857 USD ; typed\n", 2),
    (.csv, "date,base,quote,rate,period,source\n2024-02-26,EUR,USD,1.0852,,x\n2024-02-27,EUR,USD,1.0857,,x\n", 3),
    (.jsonl, "{\"date\":\"2024-02-27\",\"base\":\"EUR\",\"quote\":\"USD\",\"rate\":1.0857}\n", 1),
  ])
  func aDifferentRateOfTheSameDayIsAnError(format: RateExport.Format, file: String, line: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try Self.appendix(
      Self.export("2024-02-26", "2024-02-28", quotes: "USD"), to: file, format: format, in: directory)
    guard case .failure(let error) = result else {
      Issue.record("\(format): appended \(result)")
      return
    }
    #expect(error.line == line)
    #expect(
      error.message
        == "the file's 2024-02-27 EUR/USD price is 1.0857; the export's is 1.0856: --append adds prices, it never writes a second one of a day and pair"
    )
  }

  /// A file with CRLF line ends (written on Windows): `\r\n` is one Swift Character, so the file was read as
  /// one line, its prices unread — a second price of a day at another rate was appended without a word.
  @Test(arguments: [RateExport.Format.ledger, .beancount, .jsonl])
  func pricesOfACRLFFileAreRead(format: RateExport.Format) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines: [String]
    switch format {
    case .ledger: lines = ["; prices", "P 2024-02-26 EUR 1.0852 USD", "P 2024-02-27 EUR 1.0857 USD"]
    case .beancount: lines = ["; prices", "2024-02-26 price EUR 1.0852 USD", "2024-02-27 price EUR 1.0857 USD"]
    default:
      lines = [
        "{\"date\":\"2024-02-26\",\"base\":\"EUR\",\"quote\":\"USD\",\"rate\":1.0852}",
        "{\"date\":\"2024-02-27\",\"base\":\"EUR\",\"quote\":\"USD\",\"rate\":1.0857}",
      ]
    }
    let file = lines.map { $0 + "\r\n" }.joined()
    let result = try Self.appendix(
      Self.export("2024-02-26", "2024-02-28", quotes: "USD"), to: file, format: format, in: directory)
    guard case .failure(let error) = result else {
      Issue.record("\(format): appended \(result)")
      return
    }
    #expect(error.line == lines.count)
    // The same prices written another way (`1.08520`): there already, and no blank line is added first.
    let same = lines.dropLast().map { $0.replacingOccurrences(of: "1.0852", with: "1.08520") + "\r\n" }.joined()
    let appendix = try Self.appendix(
      Self.export("2024-02-26", "2024-02-27", quotes: "USD"), to: same, format: format, in: directory
    ).get()
    #expect(appendix.added == 1 && appendix.present == 1)
    #expect(!appendix.text.hasPrefix("\n"))
  }

  @Test func csvJSONLinesAndBeancountGetTheirNewRows() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let wide = Self.export("2024-02-26", "2024-02-27", quotes: "USD")
    for format in [RateExport.Format.csv, .jsonl, .beancount] {
      let old = Self.export("2024-02-26", "2024-02-26", quotes: "USD").text(format, heading: "old")
      let appendix = try Self.appendix(wide, to: old, format: format, in: directory).get()
      #expect(appendix.added == 1 && appendix.present == 1, "\(format)")
      // Appended to the old export, the file is the wide export's rows (one heading and header each).
      let newRow = RateExport.priceText(Array(wide.rows.suffix(1)), format: format)
      let expected = format == .beancount ? "; h\n" + newRow : newRow
      #expect(appendix.text == expected, "\(format)")
    }
  }

  /// A missing or empty file gets the whole export; a file of the other ledger format, or a CSV that is not a
  /// rates export, is refused at its line.
  @Test func newFilesAndWrongFiles() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let export = Self.export("2024-02-26", "2024-02-27", quotes: "USD")
    for text in [nil, "", "\n"] {
      let appendix = try Self.appendix(export, to: text, format: .ledger, in: directory).get()
      #expect(appendix.text == export.text(.ledger, heading: "h"))
      #expect(appendix.added == 2)
    }
    for path in [directory.path, "/dev/null"] {
      #expect(throws: RatesFileError.self) {
        try export.appendix(toFileAt: path, format: .ledger, heading: "h", commodities: true)
      }
    }
    for (format, text, message) in [
      (RateExport.Format.ledger, "; x\n2024-02-26 price EUR 1.0852 USD\n", "a Beancount price entry in a Ledger file"),
      (.beancount, "2024-02-26 commodity USD\nP 2024-02-26 EUR 1.0852 USD\n", "a Ledger P directive in a Beancount file"),
      (.csv, "Date,USD,JPY\n2024-02-26,1.0852,163.38\n", "not a rates export CSV"),
      (.ledger, "P 26.02.2024 EUR 1.0852 USD\n", "a P directive without a YYYY-MM-DD date"),
      (.beancount, "2024-02-26 price EUR 1.0852\n", "a price entry fxbatch cannot read"),
      (.jsonl, "{\"date\":\"2024-02-26\"}\n", "a line without a date, base, quote and rate"),
    ] {
      guard case .failure(let error) = try Self.appendix(export, to: text, format: format, in: directory) else {
        Issue.record("\(format) appended to \(text)")
        continue
      }
      #expect(error.message.hasPrefix(message), "\(error)")
    }
  }

  /// Through the CLI: a second run adds the new days and says how many, a third adds nothing and leaves the
  /// file as it was, and a changed price stops the run (exit 2) with the file untouched.
  @Test func cliAppendsOnceAndRefusesAConflict() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path + "/prices.journal"
    func run(_ from: String, _ to: String) throws -> CLIRunner.Result {
      try cli.run(
        [
          "rates", "export", "--from", from, "--to", to, "--quotes", "USD", "--format", "ledger", "-o",
          "prices.journal", "--append",
        ], in: directory.url)
    }
    let first = try run("2024-02-26", "2024-02-27")
    #expect(first.status == 0)
    #expect(first.standardError == "fxbatch: prices.journal: 2 prices added, 0 prices already there\n")
    let second = try run("2024-02-26", "2024-02-29")
    #expect(second.status == 0)
    #expect(second.standardError == "fxbatch: prices.journal: 2 prices added, 2 prices already there\n")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.components(separatedBy: "\nP ").count == 5)
    #expect(text.components(separatedBy: "commodity USD").count == 2)
    let third = try run("2024-02-27", "2024-02-29")
    #expect(third.standardError == "fxbatch: prices.journal: 0 prices added, 3 prices already there\n")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    let edited = text.replacingOccurrences(of: "EUR 1.0808 USD", with: "EUR 1.0809 USD")
    try edited.write(toFile: path, atomically: true, encoding: .utf8)
    let conflict = try run("2024-02-28", "2024-03-01")
    #expect(conflict.status == 2)
    #expect(conflict.standardError.hasPrefix("prices.journal:"))
    #expect(conflict.standardError.contains(": error: the file's 2024-02-28 EUR/USD price is 1.0809; the export's is 1.0808"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
  }

  @Test(arguments: [
    (["--append"], "--append needs -o FILE, the file to add the prices to"),
    (["--append", "-o", "-"], "--append needs -o FILE, the file to add the prices to"),
    (["--date-at", "start"], "--date-at is for period rates (--rate-kind average|closing)"),
    (["--rate-kind", "average", "--date-at", "middle"], "--date-at middle: expected end or start"),
    (["--no-commodities"], "--no-commodities is for --format beancount and ledger; csv declares none"),
    (["--max-staleness", "3"], "--max-staleness is for rates show"),
  ])
  func usageErrors(options: [String], message: String) throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(["rates", "export", "--from", "2024-01-02", "--to", "2024-01-02"] + options, in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("fxbatch: error: " + message), "\(result.standardError)")
  }

  @Test func exportOptionsAreRefusedElsewhere() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (arguments, message) in [
      (["rates", "show", "USD", "EUR", "--date-at", "start"], "--date-at is for rates export"),
      (["rates", "show", "USD", "EUR", "--append"], "--append is for rates export"),
      (["rates", "update", "--source", "ecb"], "--source is for rates show, export and currencies"),
      (["rates", "currencies", "--format", "csv"], "--format is for rates export"),
    ] {
      let result = try cli.run(arguments, in: directory.url)
      #expect(result.status == 64)
      #expect(result.standardError.hasPrefix("fxbatch: error: " + message), "\(result.standardError)")
    }
  }
}
