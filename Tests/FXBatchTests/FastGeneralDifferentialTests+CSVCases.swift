import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// CSV's own inputs: the per-record fast path (``CSVFastRecordReader`` in ``FastRecordLoop``: in-place records,
/// cached fields, ``TableConverter``) must give what the general path gives for a messy file in parts (pass 1 in
/// parts, or in one pass when a quoted field may hold line ends), a quoted field late in the file, any staleness,
/// the fixtures, and a tie in the streamed total.
extension FastGeneralDifferentialTests {
  /// A seeded file mixing what the fast path converts with what it must leave alone: errors of every kind,
  /// changeover currencies, quoted and padded fields, short and long records, blank lines, CRLF, grouped and
  /// signed amounts, weekend and holiday dates, dates outside the history, records without a date.
  static func messyCSVFile(records: Int, seed: UInt64, quotes: Bool = true) -> String {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let allCurrencies = [
      "USD", "JPY", "GBP", "CHF", "EUR", "KRW", "IDR", "HUF", "BGN", "HRK", "DEM", "TRL", "usd", " GBP", "\"CHF\"", "XXX", "",
      "RUB", "ISK", "€",
    ]
    let allDates = [
      "2024-01-05", "2024-01-06", "2024-12-25", "2025-12-31", "2026-01-02", "1998-12-31", "1999-01-04", "2001-06-01",
      "2030-01-01", "", "2024-02-30", "05/01/2024", "\"2024-03-01\"", "2026-10-30", "2026-11-20",
    ]
    let allAmounts = [
      "12.50", "7", "-3.25", "0.005", "0.015", "1,234.50", "(5.00)", "12.50-", "abc", "", "100000000000000000000.5", "+4.2",
      "0", "-0.00", "123456789012345678.9", "1.234", " 9.99", "\"1,000.00\"", "0.1234567", "999999999999999999",
    ]
    let unquoted: (String) -> Bool = { quotes || !$0.contains("\"") }
    let (currencies, dates, amounts) = (allCurrencies.filter(unquoted), allDates.filter(unquoted), allAmounts.filter(unquoted))
    var text = "id,date,amount,from,to\r\n"
    for index in 0..<records {
      switch next(40) {
      case 0: text += "\r\n"
      case 1: text += "\(index),2024-01-05,1.00,USD\r\n"
      case 2: text += "\(index),2024-01-05,1.00,USD,EUR,extra\r\n"
      default:
        let from = currencies[next(currencies.count)]
        let to = next(3) == 0 ? currencies[next(currencies.count)] : ["EUR", "USD", "JPY", "GBP"][next(4)]
        text += "\(index),\(dates[next(dates.count)]),\(amounts[next(amounts.count)]),\(from),\(to)\r\n"
      }
    }
    return text
  }

  /// Writes a CSV file, checks it (``check(_:format:source:_:parts:configure:)``) and returns the general run.
  @discardableResult
  static func checkCSV(
    _ text: String, _ comment: String, source: RateSourceChoice = .table(EmbeddedECBHistory.table), parts: [Int],
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Run {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(text, named: "in.csv")
    let general = try check(path, format: .csv, source: source, comment, parts: parts, configure: configure)
    #expect(general.fileError == nil, "\(comment)")
    return general
  }

  /// A file converted in parts on several threads gives the output of one pass; without quoted fields, pass 1
  /// runs in parts too (with them, it reads the file in one pass, as a quoted field may hold line ends).
  @Test(arguments: [(2, true), (3, true), (7, true), (2, false), (3, false), (7, false)])
  func csvMessyFileInParts(parts: Int, quotes: Bool) throws {
    try Self.checkCSV(
      Self.messyCSVFile(records: 2000, seed: 7, quotes: quotes), "messy, quotes \(quotes)", parts: [parts])
  }

  /// Amounts naming their currency in a `;` file without a from-currency field and with German names (fxbatch
  /// issue 32): the fast path leaves such records to the general path, which reads each amount's currency, the
  /// same in parts as in one. 9 amounts in turn over 600 records: `$5,00` (ambiguous) and `12,50` (no currency)
  /// are 66 errors each (600 = 66 × 9 + 6, residues 6 and 7 not in the last 6), the other 468 convert.
  @Test func csvCurrencyInTheAmountInParts() throws {
    let amounts = [
      "1.234,56 EUR", "USD 12,50", "-JPY 49.488.402", "JPY -49.488.402", "€12,50", "£7,00", "$5,00", "12,50", "CHF1.000,00",
    ]
    var text = "Datum;Betrag;Ziel\n"
    for index in 0..<600 {
      text += "0\(index % 9 + 1).03.2024;\(amounts[index % amounts.count]);\(["EUR", "USD", "GBP"][index % 3])\n"
    }
    let general = try Self.checkCSV(text, "currency in the amount", parts: [1, 3])
    #expect(general.totals.error == 132)
    #expect(general.totals.ok + general.totals.fallback == 468)
    #expect(general.totals.errorsByCode == ["ambiguous_currency": 66, "missing_field": 66])
    #expect(general.file?.fields == ["amount": "Betrag", "to": "Ziel", "date": "Datum"])
  }

  /// Pass 1 in parts gives up on meeting a quoted field and reads the whole file again: the decimal mark is
  /// decided from all of it (here: points first, quoted commas later, so a mixed column with no mark).
  @Test func csvQuotedFieldLateInTheFileStillCounts() throws {
    var text = "date,amount,from,to\n"
    for _ in 0..<300 { text += "2024-01-05,12.50,USD,EUR\n" }
    for _ in 0..<300 { text += "2024-01-05,\"12,50\",USD,EUR\n" }
    let general = try Self.checkCSV(text, "late quoted field", parts: [2])
    #expect(general.totals.error == 600)
  }

  /// A huge --max-staleness (any age) costs no memory in the fast path, and converts as the general path does.
  @Test func csvHugeMaxStaleness() throws {
    let text = "date,amount,from,to\n2024-01-05,1.00,USD,EUR\n2040-06-01,2.00,USD,EUR\n9999-12-31,3.00,GBP,JPY\n"
    let general = try Self.checkCSV(text, "huge staleness", parts: [1]) { $0.maxStaleness = Int.max / 4 }
    #expect(general.totals.records == 3)
  }

  @Test(arguments: [("history", "random-400.csv"), ("e2e", "mixed.csv"), ("e2e", "bom-crlf-semicolon.csv")])
  func csvFixtures(folder: String, name: String) throws {
    let path = try Fixture.path(folder, name)
    for rounding in RoundingMode.allCases {
      let general = try Self.check(path, format: .csv, "\(name), \(rounding)", parts: [1]) { $0.rounding = rounding }
      #expect(general.fileError == nil, "\(name)")
    }
  }

  /// Thirds: each record's exact value has an endless fraction, and their exact total is a whole number of
  /// cents, so the streamed total's truncated fractions cannot settle the rounding and the records are read again.
  @Test func csvTieInTheStreamedTotalIsSettledExactly() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rates = try directory.write("date,base,quote,rate\n2024-01-05,EUR,CHF,3\n2024-01-05,EUR,USD,1\n", named: "rates.csv")
    let table = try RatesFile.load(path: rates)
    // 0.01 CHF at 1/3 = 0.00333… USD, three times: rounded 0.00 each, exact total 0.01.
    let text = "date,amount,from,to\n2024-01-05,0.01,CHF,USD\n2024-01-05,0.01,CHF,USD\n2024-01-05,0.01,CHF,USD\n"
    for rounding in RoundingMode.allCases {
      let general = try Self.checkCSV(text, "thirds, \(rounding)", source: .table(table), parts: [1]) {
        $0.rounding = rounding
      }
      #expect(general.reconciliation.first?.exactTotalRounded == "0.01", "\(rounding)")
    }
  }
}
