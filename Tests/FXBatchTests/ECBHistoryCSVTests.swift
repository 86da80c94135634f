import Testing

@testable import FXBatch

@Suite("ECBHistoryCSV")
struct ECBHistoryCSVTests {
  private func slice() throws -> RateTable {
    try parseTable(try Fixture.bytes("ecb", "ecb-eurofxref-hist-slice.csv"), with: ECBHistoryCSV.parse)
  }

  private func parse(_ text: String) throws(RatesFileError) -> RateTable {
    try parseTable(Array(text.utf8), path: "hist.csv", with: ECBHistoryCSV.parse)
  }

  @Test("the slice's days, ascending, and its 41 currency columns")
  func shape() throws {
    let table = try slice()
    #expect(
      table.days.map(\.description) == [
        "1999-01-04", "1999-01-05", "1999-01-06", "1999-01-07", "2014-08-21", "2014-08-22", "2014-08-25",
      ])
    let header =
      "USD,JPY,BGN,CYP,CZK,DKK,EEK,GBP,HUF,LTL,LVL,MTL,PLN,ROL,RON,SEK,SIT,SKK,CHF,ISK,NOK,HRK,RUB,TRL,TRY,AUD,BRL,CAD,CNY,HKD,IDR,INR,KRW,MXN,MYR,NZD,PHP,SGD,THB,ZAR,ILS"
    #expect(table.pairs.map(\.quote.description) == header.split(separator: ",").map(String.init))
    #expect(table.pairs.allSatisfy { $0.base == .euro })
    #expect(table.pivot == .euro)
  }

  @Test("the empty trailing column is not a currency")
  func trailingColumn() throws {
    let table = try slice()
    // The header has 43 fields: Date, 41 codes and the empty one after the trailing comma.
    #expect(table.pairs.count == 41)
    #expect(table.currencies.count == 42)  // the 41 quoted currencies and EUR
    #expect(!table.pairs.contains { $0.quote.description.isEmpty })
  }

  @Test(
    "pre-euro and historic currencies on 1999-01-04",
    arguments: [
      // 1000000 TRL → EUR: 1000000 ÷ 372274 = 2.6861935… → 2.69
      ("1000000", "TRL", "EUR", "2.69"),
      // 1000000 ROL → EUR: 1000000 ÷ 13111 = 76.2718328… → 76.27
      ("1000000", "ROL", "EUR", "76.27"),
      // 100 EUR → ISK: 100 × 81.48 = 8148 (ISK has no minor units)
      ("100", "EUR", "ISK", "8148"),
      // 100 CYP → EUR: 100 ÷ 0.58231 = 171.7298346… → 171.73
      ("100", "CYP", "EUR", "171.73"),
      // 100 EUR → TRL: 100 × 372274 = 37227400 (TRL has no minor units)
      ("100", "EUR", "TRL", "37227400"),
    ] as [(String, String, String, String)])
  func historic(amount: String, base: String, quote: String, expected: String) throws {
    let result = try convert(amount, base, to: quote, on: "1999-01-04", with: slice()).get()
    #expect(result.amount.description == expected)
    #expect(!result.quote.isFallback)
  }

  @Test("2014-08-25: USD is published, ISK and TRL are N/A")
  func notApplicable() throws {
    let table = try slice()
    // 100 × 1.32 = 132.00
    #expect(try convert("100", "EUR", to: "USD", on: "2014-08-25", with: table).get().amount.description == "132.00")
    for currency in ["ISK", "TRL", "CYP"] {
      guard case .failure(let error) = try convert("100", "EUR", to: currency, on: "2014-08-25", with: table) else {
        Issue.record("EUR → \(currency) on 2014-08-25 must be an error (N/A)")
        continue
      }
      #expect(error.code == .noRate)
      #expect(error.message == "TEST published no \(currency) rate on 2014-08-25")
    }
  }

  @Test("Saturday 2014-08-23 uses Friday's rates; a 15-year gap is stale")
  func datesInTheSlice() throws {
    let table = try slice()
    // 100 × 1.3267 = 132.67
    let saturday = try convert("100", "EUR", to: "USD", on: "2014-08-23", with: table).get()
    #expect(saturday.amount.description == "132.67")
    #expect(saturday.quote.rateDay == (try day("2014-08-22")))
    #expect(saturday.quote.isFallback)
    guard case .failure(let error) = try convert("100", "EUR", to: "USD", on: "2005-06-01", with: table) else {
      Issue.record("2005-06-01 is far from any publication in the slice")
      return
    }
    #expect(error.code == .staleRate)
  }

  @Test("lines without the trailing comma, CRLF line ends, a BOM and blank lines are accepted")
  func layoutVariants() throws {
    let table = try parseTable(
      [0xEF, 0xBB, 0xBF] + Array("Date,USD,JPY,\r\n2020-01-03,1.1147,120.54\r\n\r\n2020-01-02,1.1193,121.75,\r\n".utf8),
      with: ECBHistoryCSV.parse)
    #expect(table.days.map(\.description) == ["2020-01-02", "2020-01-03"])
    // 100 × 120.54 = 12054 JPY
    #expect(try convert("100", "EUR", to: "JPY", on: "2020-01-03", with: table).get().amount.description == "12054")
  }

  @Test(
    "a bad file names the line and column of the problem",
    arguments: [
      ("Date,USD,XYZ,\n2020-01-02,1.1,2.2,\n", 1, 10, "\"XYZ\" in the header is not an ISO 4217 currency code"),
      ("Date,USD,USD,\n", 1, 10, "currency USD appears twice in the header"),
      ("Time,USD,\n2020-01-02,1.1,\n", 1, 1, "expected the ECB history header `Date,USD,JPY,…`"),
      ("Date,USD,\n2020-01-02,abc,\n", 2, 12, "\"abc\" is not a positive decimal rate"),
      ("Date,USD,\n2020-01-02,-1.1,\n", 2, 12, "\"-1.1\" is not a positive decimal rate"),
      ("Date,USD,\n2020-01-02,0,\n", 2, 12, "\"0\" is not a positive decimal rate"),
      ("Date,USD,\n2020-02-30,1.1,\n", 2, 1, "\"2020-02-30\" is not a YYYY-MM-DD date"),
      ("Date,USD,\n2020-01-02,1.1,\n\n2020-01-02,1.2,\n", 4, 1, "day 2020-01-02 appears twice"),
      ("Date,USD,JPY,\n2020-01-02,1.1,\n", 2, 16, "line has 3 fields, the header has 4"),
      ("Date,USD,\n2020-01-02,1.1,2,3\n", 2, 16, "line has 4 fields, the header has 3"),
      ("Date,USD,\n", 2, 1, "the file has a header but no rates"),
      ("", 1, 1, "the file is empty"),
    ] as [(String, Int, Int, String)])
  func errors(text: String, line: Int, column: Int, message: String) {
    #expect(throws: RatesFileError(path: "hist.csv", line: line, column: column, message: message)) {
      _ = try parse(text)
    }
  }
}
