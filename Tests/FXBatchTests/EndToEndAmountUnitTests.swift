import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Runs the built `fxbatch` with `--amount-unit minor` and `--date-format unix|unix-ms` on the same records in
/// every format, on the fast paths and on the general path (`FXBATCH_GENERAL_PATH=1`), to euros.
///
/// Rates (`rates.csv`), and their inverses, the rate of X→EUR:
///   2024-01-31: EUR/USD 1.25 (0.8), EUR/JPY 160 (0.00625), EUR/KWD 0.5 (2)
///   2024-02-01: EUR/USD 2 (0.5),    EUR/JPY 125 (0.008),   EUR/KWD 0.4 (2.5)
/// Days: 2024-02-01 is day 19754 since 1970-01-01, so 1706745600 (= 19754 × 86400) is its first second, and
/// 1706745599 the last second of 2024-01-31; 1706832000 is 2024-02-02 (no rates: 2024-02-01's, a fallback).
/// Expected values by hand (minor units of USD 2, JPY 0, KWD 3; rounded half-up to EUR's 2):
///   1. 1250 USD at 1706745600  → 12.50 × 0.5  = 6.25                    2024-02-01 ok
///   2. 1250 USD at 1706745599  → 12.50 × 0.8  = 10.00                   2024-01-31 ok
///   3. 1250 JPY at 1706745600  → 1250 × 0.008 = 10.00                   2024-02-01 ok
///   4. 1250 KWD at 1706745600  → 1.250 × 2.5  = 3.125 → 3.13           2024-02-01 ok
///   5. 12.5 USD                → invalid_amount (half a cent)
///   6. 1250 USD at 1706745600.5 → invalid_date (a fraction of a second)
///   7. 1250 USD at -1          → 1969-12-31, date_out_of_range (the rates start 2024-01-31)
///   8. 1250.00 USD at 1706745600 → 1250 cents → 6.25                  2024-02-01 ok
///   9. 999 JPY at 1706832000   → 999 × 0.008 = 7.992 → 7.99            2024-02-01 fallback
///  10. -1250 USD at 1706745600 → −12.50 × 0.5 = −6.25                  2024-02-01 ok
@Suite("fxbatch end to end: minor units and unix dates")
struct EndToEndAmountUnitTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = """
    date,base,quote,rate
    2024-01-31,EUR,USD,1.25
    2024-01-31,EUR,JPY,160
    2024-01-31,EUR,KWD,0.5
    2024-02-01,EUR,USD,2
    2024-02-01,EUR,JPY,125
    2024-02-01,EUR,KWD,0.4

    """

  /// One record: its amount and date as written, and what its annotation must say.
  struct Record {
    let amount: String
    let currency: String
    let created: String
    /// `fx_converted`, `fx_rate_date`, `fx_status`, and the start of `fx_error`.
    let converted: String
    let rateDate: String
    let status: String
    let error: String
  }

  static let records: [Record] = [
    Record(
      amount: "1250", currency: "USD", created: "1706745600", converted: "6.25", rateDate: "2024-02-01", status: "ok", error: ""),
    Record(
      amount: "1250", currency: "USD", created: "1706745599", converted: "10.00", rateDate: "2024-01-31", status: "ok", error: ""),
    Record(
      amount: "1250", currency: "JPY", created: "1706745600", converted: "10.00", rateDate: "2024-02-01", status: "ok", error: ""),
    Record(
      amount: "1250", currency: "KWD", created: "1706745600", converted: "3.13", rateDate: "2024-02-01", status: "ok", error: ""),
    Record(
      amount: "12.5", currency: "USD", created: "1706745600", converted: "", rateDate: "", status: "error",
      error: #"invalid_amount: "12.5" is not a whole number of USD's minor units (--amount-unit minor)"#),
    Record(
      amount: "1250", currency: "USD", created: "1706745600.5", converted: "", rateDate: "", status: "error",
      error: #"invalid_date: "1706745600.5" is not a whole number of seconds (--date-format unix)"#),
    Record(
      amount: "1250", currency: "USD", created: "-1", converted: "", rateDate: "", status: "error",
      error: "date_out_of_range: 1969-12-31"),
    Record(
      amount: "1250.00", currency: "USD", created: "1706745600", converted: "6.25", rateDate: "2024-02-01", status: "ok",
      error: ""),
    Record(
      amount: "999", currency: "JPY", created: "1706832000", converted: "7.99", rateDate: "2024-02-01", status: "fallback",
      error: ""),
    Record(
      amount: "-1250", currency: "USD", created: "1706745600", converted: "-6.25", rateDate: "2024-02-01", status: "ok", error: ""
    ),
  ]

  /// The annotation of one record as read back: `fx_converted`, `fx_rate_date`, `fx_status`, `fx_error`.
  typealias Annotation = (converted: String, rateDate: String, status: String, error: String)

  static let options = [
    "--to", "EUR", "--rates", "rates.csv", "--amount-unit", "minor", "--date-format", "unix", "--date-field", "created",
  ]

  /// Converts `name` on the fast paths and on the general path, and checks both against ``records``.
  func check(
    _ name: String, output: String, write: (TemporaryDirectory) throws -> Void,
    read: (TemporaryDirectory) throws -> [Annotation], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for general in [false, true] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("rates.csv", Self.rates)
      try write(directory)
      var runner = cli
      if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
      let result = try runner.run(["convert"] + Self.options + [name, "--report", "report.json"], in: directory.url)
      let path = general ? "general" : "fast"
      #expect(result.status == 1, "\(name), \(path): \(result.standardError)", sourceLocation: sourceLocation)
      #expect(
        result.standardError.contains(
          "\(name) -> \(output): 10 records: 6 ok, 1 fallback, 3 error (date_out_of_range 1, invalid_amount 1, invalid_date 1)"),
        "\(name), \(path): \(result.standardError)", sourceLocation: sourceLocation)
      #expect(
        result.standardError.contains("; amounts read in minor units (--amount-unit minor)"), sourceLocation: sourceLocation)
      // The reconciliation is of the major amounts: 6.25 + 10.00 + 10.00 + 3.13 + 6.25 + 7.99 − 6.25 = 37.37.
      #expect(
        result.standardError.contains("reconciliation EUR, 7 records: sum of rounded amounts 37.37"), "\(name), \(path)",
        sourceLocation: sourceLocation)
      #expect(try Self.report(directory, "report.json")["amountUnit"] as? String == "minor", sourceLocation: sourceLocation)
      let annotations = try read(directory)
      #expect(annotations.count == Self.records.count, "\(name), \(path)", sourceLocation: sourceLocation)
      for (index, (record, annotation)) in zip(Self.records, annotations).enumerated() {
        let context = "\(name), \(path), record \(index + 1)"
        #expect(annotation.converted == record.converted, "\(context)", sourceLocation: sourceLocation)
        #expect(annotation.rateDate == record.rateDate, "\(context)", sourceLocation: sourceLocation)
        #expect(annotation.status == record.status, "\(context)", sourceLocation: sourceLocation)
        #expect(
          record.error.isEmpty ? annotation.error.isEmpty : annotation.error.hasPrefix(record.error),
          "\(context): \(annotation.error)", sourceLocation: sourceLocation)
      }
    }
  }

  /// A `--report` file's top-level members.
  static func report(_ directory: TemporaryDirectory, _ name: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(try directory.read(name).utf8)) as? [String: Any] ?? [:]
  }

  /// The fx_* members of each record of JSON Lines or a JSON array.
  static func jsonAnnotations(_ objects: [Any]) -> [Annotation] {
    objects.compactMap { $0 as? [String: Any] }.map {
      (
        $0["fx_converted"] as? String ?? "?", $0["fx_rate_date"] as? String ?? "?", $0["fx_status"] as? String ?? "?",
        $0["fx_error"] as? String ?? "?"
      )
    }
  }

  @Test func csv() throws {
    try check(
      "charges.csv", output: "charges.converted.csv",
      write: { directory in
        let lines = Self.records.map { "\($0.amount),\($0.currency),\($0.created)" }
        try directory.write("charges.csv", (["amount,currency,created"] + lines).joined(separator: "\n") + "\n")
      },
      read: { directory in
        // amount,currency,created,fx_rate,fx_converted,fx_currency,fx_rate_date,fx_source,fx_status,fx_error
        try directory.read("charges.converted.csv").split(separator: "\n").dropFirst().map { line in
          let fields = line.split(separator: ",", maxSplits: 9, omittingEmptySubsequences: false).map(String.init)
          guard fields.count == 10 else { return ("?", "?", "?", String(line)) }
          var error = fields[9]
          if error.hasPrefix("\"") { error = String(error.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") }
          return (fields[4], fields[6], fields[8], error)
        }
      })
  }

  /// A JSON record: numbers as JSON numbers, except the 8th record's date, a string of digits.
  static func jsonRecord(_ record: Record, index: Int) -> String {
    let created = index == 7 ? "\"\(record.created)\"" : record.created
    return
      #"{"id":"ch_\#(index)","amount":\#(record.amount),"currency":"\#(record.currency.lowercased())","created":\#(created)}"#
  }

  @Test func jsonLines() throws {
    try check(
      "charges.jsonl", output: "charges.converted.jsonl",
      write: { directory in
        let lines = Self.records.enumerated().map { Self.jsonRecord($1, index: $0) }
        try directory.write("charges.jsonl", lines.joined(separator: "\n") + "\n")
      },
      read: { directory in
        Self.jsonAnnotations(
          try directory.read("charges.converted.jsonl").split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8))
          })
      })
  }

  @Test func json() throws {
    try check(
      "charges.json", output: "charges.converted.json",
      write: { directory in
        let records = Self.records.enumerated().map { Self.jsonRecord($1, index: $0) }
        try directory.write("charges.json", "[\n" + records.joined(separator: ",\n") + "\n]\n")
      },
      read: { directory in
        let document = try JSONSerialization.jsonObject(with: Data(try directory.read("charges.converted.json").utf8))
        return Self.jsonAnnotations(document as? [Any] ?? [])
      })
  }

  @Test func xml() throws {
    try check(
      "charges.xml", output: "charges.converted.xml",
      write: { directory in
        let records = Self.records.map {
          #"<charge currency="\#($0.currency)"><amount>\#($0.amount)</amount><created>\#($0.created)</created></charge>"#
        }
        try directory.write("charges.xml", "<charges>\n" + records.joined(separator: "\n") + "\n</charges>\n")
      },
      read: { directory in
        let text = try directory.read("charges.converted.xml")
        func attribute(_ name: String, in element: Substring) -> String {
          guard let start = element.range(of: " \(name)=\"") else { return "" }
          let value = element[start.upperBound...].prefix { $0 != "\"" }
          return String(value).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
        }
        return text.components(separatedBy: "<fx ").dropFirst().map { piece in
          let element = piece.prefix { $0 != ">" }
          return (
            attribute("converted", in: element), attribute("rate-date", in: element), attribute("status", in: element),
            attribute("error", in: element)
          )
        }
      })
  }

  /// An `.xlsx` sheet: amounts and dates as number cells; the second record's date cell in a date style (style 1),
  /// which a unix date format reads as the number it holds, not as a serial date.
  @Test func xlsx() throws {
    try check(
      "charges.xlsx", output: "charges.converted.xlsx",
      write: { directory in
        var rows = [
          #"<row r="1">"# + XLSXOnePassTests.text("A1", "amount") + XLSXOnePassTests.text("B1", "currency")
            + XLSXOnePassTests.text("C1", "created") + "</row>"
        ]
        for (index, record) in Self.records.enumerated() {
          let row = index + 2
          rows.append(
            #"<row r="\#(row)">"# + XLSXOnePassTests.number("A\(row)", record.amount)
              + XLSXOnePassTests.text("B\(row)", record.currency)
              + XLSXOnePassTests.number("C\(row)", record.created, style: index == 1 ? 1 : nil) + "</row>")
        }
        _ = try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(rows), in: directory, "charges")
      },
      read: { directory in
        let path = directory.path + "/charges.converted.xlsx"
        let styles = try EndToEndXLSXTests.dateStyles(of: path)
        // amount, currency, created, then fx_rate (D), fx_converted (E), fx_currency, fx_rate_date (G), fx_source,
        // fx_status (I), fx_error (J).
        return try EndToEndXLSXTests.rows(of: path).dropFirst().map { row in
          let values = EndToEndXLSXTests.values(of: row, from: 3, count: 7, dateStyles: styles)
          return (values[1], values[3], values[5], values[6])
        }
      })
  }

  /// An `.ods` table: amounts and dates as float cells.
  @Test func ods() throws {
    func float(_ value: String) -> String {
      #"<table:table-cell office:value-type="float" office:value="\#(value)"><text:p>\#(value)</text:p></table:table-cell>"#
    }
    try check(
      "charges.ods", output: "charges.converted.ods",
      write: { directory in
        var rows =
          "<table:table-row>" + EndToEndODSTests.text("amount") + EndToEndODSTests.text("currency")
          + EndToEndODSTests.text("created") + "</table:table-row>"
        for record in Self.records {
          rows +=
            "<table:table-row>" + float(record.amount) + EndToEndODSTests.text(record.currency) + float(record.created)
            + "</table:table-row>"
        }
        try EndToEndODSTests.spreadsheet(content: EndToEndODSTests.content(rows: rows), named: "charges.ods", in: directory)
      },
      read: { directory in
        try EndToEndODSTests.rows(of: directory.path + "/charges.converted.ods").dropFirst().map { row in
          let values = EndToEndODSTests.values(of: row, from: 3, count: 7)
          return (values[1], values[3], values[5], values[6])
        }
      })
  }

  /// `unix-ms`: the same instants in milliseconds, a millisecond before midnight UTC and at it, as text and as
  /// JSON numbers.
  ///   1706745600000 → 2024-02-01: 1250 USD → 6.25;   1706745599999 → 2024-01-31: 1250 USD → 10.00
  @Test func milliseconds() throws {
    for general in [false, true] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      try directory.write("rates.csv", Self.rates)
      try directory.write(
        "ms.jsonl",
        """
        {"amount":1250,"currency":"USD","created":1706745600000}
        {"amount":1250,"currency":"USD","created":"1706745599999"}
        {"amount":1250,"currency":"USD","created":1706745600000.5}

        """)
      try directory.write("ms.csv", "amount,currency,created\n1250,USD,1706745600000\n1250,USD,1706745599999\n")
      var runner = cli
      if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
      let result = try runner.run(
        [
          "convert", "--to", "EUR", "--rates", "rates.csv", "--amount-unit", "minor", "--date-format", "unix-ms",
          "--date-field", "created", "ms.jsonl", "ms.csv",
        ], in: directory.url)
      #expect(result.status == 1)
      let lines = try directory.read("ms.converted.jsonl").split(separator: "\n")
      #expect(lines.count == 3)
      #expect(lines[0].contains(#""fx_converted":"6.25","fx_currency":"EUR","fx_rate_date":"2024-02-01""#))
      #expect(lines[1].contains(#""fx_converted":"10.00","fx_currency":"EUR","fx_rate_date":"2024-01-31""#))
      #expect(
        lines[2].contains(
          #""fx_error":"invalid_date: \"1706745600000.5\" is not a whole number of milliseconds (--date-format unix-ms)""#))
      let csv = try directory.read("ms.converted.csv").split(separator: "\n")
      #expect(csv.count == 3)
      #expect(csv[1].hasPrefix("1250,USD,1706745600000,0.5,6.25,EUR,2024-02-01,"))
      #expect(csv[2].hasPrefix("1250,USD,1706745599999,0.8,10.00,EUR,2024-01-31,"))
    }
  }

  /// Without `--date-format unix`, a JSON number date is still refused, and says which option reads it.
  @Test func numberDatesNeedTheUnixFormat() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("n.jsonl", #"{"amount":"12.50","currency":"USD","date":1706745600}"# + "\n")
    let result = try cli.run(["convert", "--to", "EUR", "--rates", "rates.csv", "n.jsonl"], in: directory.url)
    #expect(result.status == 1)
    #expect(
      try directory.read("n.converted.jsonl").contains(
        #"invalid_date: the date is the number \"1706745600\"; write dates as strings (or pass --date-format unix or unix-ms for unix times)"#
      ))
  }

  /// `--minor-units ISK=2` reads an API's ISK amounts in hundredths; without `--amount-unit minor` it is a usage
  /// error. A rates file with EUR/ISK 150 on 2024-02-01: 50000 hundredths = 500 ISK → 500 ÷ 150 = 3.333… → 3.33.
  @Test func minorUnitsOverride() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", "date,base,quote,rate\n2024-02-01,EUR,ISK,150\n")
    try directory.write("isk.csv", "amount,currency,created\n50000,ISK,1706745600\n")
    let arguments = ["convert", "--to", "EUR", "--rates", "rates.csv", "--date-format", "unix", "--date-field", "created"]
    let result = try cli.run(
      arguments + ["--amount-unit", "minor", "--minor-units", "ISK=2", "isk.csv", "--report", "r.json"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try directory.read("isk.converted.csv").contains(",3.33,EUR,2024-02-01,"))
    #expect(try Self.report(directory, "r.json")["minorUnits"] as? [String: Int] == ["ISK": 2])
    // ISO 4217 gives ISK no decimals: 50000 ISK ÷ 150 = 333.33.
    #expect(try cli.run(arguments + ["--amount-unit", "minor", "isk.csv"], in: directory.url).status == 0)
    #expect(try directory.read("isk.converted.csv").contains(",333.33,EUR,2024-02-01,"))
    let usage = try cli.run(arguments + ["--minor-units", "ISK=2", "isk.csv"], in: directory.url)
    #expect(usage.status == 64)
    #expect(usage.standardError.contains("--minor-units is for amounts in minor units: add --amount-unit minor"))
    let bad = try cli.run(arguments + ["--amount-unit", "minor", "--minor-units", "ISK=9", "isk.csv"], in: directory.url)
    #expect(bad.status == 64)
    #expect(bad.standardError.contains("--minor-units ISK=9: expected a number of decimals from 0 to 6 after ="))
  }

  /// Reports of runs that read amounts in different units are not added up; two in minor units are, and keep
  /// the unit.
  @Test func reportsOfDifferentUnitsAreNotMerged() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("a.csv", "amount,currency,created\n1250,USD,1706745600\n")
    try directory.write("b.csv", "amount,currency,created\n1250,USD,1706745600\n")
    let arguments = ["convert", "-q", "--to", "EUR", "--rates", "rates.csv", "--date-format", "unix", "--date-field", "created"]
    #expect(try cli.run(arguments + ["--amount-unit", "minor", "a.csv", "--report", "a.json"], in: directory.url).status == 0)
    #expect(try cli.run(arguments + ["b.csv", "--report", "b.json"], in: directory.url).status == 0)
    #expect(try cli.run(arguments + ["--amount-unit", "minor", "b.csv", "--report", "c.json"], in: directory.url).status == 0)
    let refused = try cli.run(["report", "merge", "a.json", "b.json", "-o", "bad.json"], in: directory.url)
    #expect(refused.status == 2)
    #expect(
      refused.standardError.contains("b.json: its amount unit (major) differs from a.json's (minor)"), "\(refused.standardError)")
    let merged = try cli.run(["report", "merge", "a.json", "c.json", "-o", "total.json"], in: directory.url)
    #expect(merged.status == 0, "\(merged.standardError)")
    #expect(try Self.report(directory, "total.json")["amountUnit"] as? String == "minor")
  }

  /// Under a unix date format a file without a recognised date field is refused (its numbers never look like
  /// dates, so it would convert at the newest rates without a word), unless `--undated` says so.
  @Test func unixDatesNeedADateField() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("c.jsonl", #"{"amount":1250,"currency":"usd","created":1706745600}"# + "\n")
    let arguments = ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-unit", "minor", "--date-format", "unix"]
    let refused = try cli.run(arguments + ["c.jsonl"], in: directory.url)
    #expect(refused.status == 2)
    #expect(
      refused.standardError.contains(
        #"--date-format unix: no date field is recognised (the first record's members: "amount", "currency", "created")"#),
      "\(refused.standardError)")
    #expect(refused.standardError.contains("--date-field NAME"))
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/c.converted.jsonl"))
    let undated = try cli.run(arguments + ["--undated", "c.jsonl"], in: directory.url)
    #expect(undated.status == 0, "\(undated.standardError)")
  }
}
