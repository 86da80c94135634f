import Testing

@testable import FXBatch

@Suite("ECBXMLFeed")
struct ECBXMLFeedTests {
  private func daily(_ date: String) throws -> RateTable {
    try parseTable(try Fixture.bytes("ecb", "ecb-eurofxref-daily-\(date).xml"), with: ECBXMLFeed.parse)
  }

  private func parse(_ text: String) throws(RatesFileError) -> RateTable {
    try parseTable(Array(text.utf8), path: "feed.xml", with: ECBXMLFeed.parse)
  }

  @Test("2017-03-08: 31 currencies, RUB present, ISK absent")
  func currencies2017() throws {
    let table = try daily("2017-03-08")
    #expect(table.days.map(\.description) == ["2017-03-08"])
    let codes =
      "USD JPY BGN CZK DKK GBP HUF PLN RON SEK CHF NOK HRK RUB TRY AUD BRL CAD CNY HKD IDR ILS INR KRW MXN MYR NZD PHP SGD THB ZAR"
    #expect(table.pairs.count == 31)
    #expect(table.pairs.map(\.quote.description) == codes.split(separator: " ").map(String.init))
    #expect(table.pairs.allSatisfy { $0.base == .euro })
    guard case .failure(let error) = try convert("100", "EUR", to: "ISK", on: "2017-03-08", with: table) else {
      Issue.record("the 2017-03-08 file has no ISK")
      return
    }
    #expect(error.code == .noRate)
  }

  @Test(
    "2017-03-08 conversions",
    arguments: [
      // 100 USD → GBP: 100 × 0.86753 / 1.0556 = 86.753 / 1.0556 = 82.1835922… → 82.18
      ("100", "USD", "GBP", "82.18"),
      // 1000 JPY → EUR: 1000 ÷ 120.65 = 8.2884376… → 8.29
      ("1000", "JPY", "EUR", "8.29"),
      // 1000 USD → JPY: 1000 × 120.65 / 1.0556 = 120650 / 1.0556 = 114295.1875… → 114295 (no decimals)
      ("1000", "USD", "JPY", "114295"),
      // 100 EUR → RUB: 100 × 61.7573 = 6175.73
      ("100", "EUR", "RUB", "6175.73"),
      // 100 GBP → USD: 100 × 1.0556 / 0.86753 = 121.6787892… → 121.68
      ("100", "GBP", "USD", "121.68"),
    ] as [(String, String, String, String)])
  func conversions2017(amount: String, base: String, quote: String, expected: String) throws {
    let result = try convert(amount, base, to: quote, on: "2017-03-08", with: daily("2017-03-08")).get()
    #expect(result.amount.description == expected)
    #expect(result.quote.rateDay == (try day("2017-03-08")))
    #expect(!result.quote.isFallback)
  }

  @Test("the cross rate is shown to 10 significant digits with its legs")
  func crossRateText() throws {
    let quote = try convert("100", "USD", to: "GBP", on: "2017-03-08", with: daily("2017-03-08")).get().quote
    // 0.86753 / 1.0556 = 0.82183592269799… → 0.8218359227
    #expect(quote.rateText == "0.8218359227")
    #expect(quote.source == "test EUR/USD=1.0556 EUR/GBP=0.86753")
  }

  @Test("2022-07-08: RUB absent, HRK and ISK present")
  func currencies2022() throws {
    let table = try daily("2022-07-08")
    #expect(table.pairs.count == 31)
    let quotes = Set(table.pairs.map(\.quote.description))
    #expect(!quotes.contains("RUB"))
    #expect(quotes.isSuperset(of: ["HRK", "ISK"]))
    // 100 EUR → JPY: 100 × 138.05 = 13805, written without decimals
    #expect(try convert("100", "EUR", to: "JPY", on: "2022-07-08", with: table).get().amount.description == "13805")
    // 100 EUR → ISK: 100 × 139.50 = 13950
    #expect(try convert("100", "EUR", to: "ISK", on: "2022-07-08", with: table).get().amount.description == "13950")
    // 100 EUR → KRW: 100 × 1321.61 = 132161
    #expect(try convert("100", "EUR", to: "KRW", on: "2022-07-08", with: table).get().amount.description == "132161")
    // 100 GBP → USD: 100 × 1.0163 / 0.84585 = 120.1513270… → 120.15
    #expect(try convert("100", "GBP", to: "USD", on: "2022-07-08", with: table).get().amount.description == "120.15")
    // Sunday 2022-07-10 uses Friday's rates.
    let sunday = try convert("100", "EUR", to: "HRK", on: "2022-07-10", with: table).get()
    #expect(sunday.amount.description == "751.90")  // 100 × 7.5190
    #expect(sunday.quote.isFallback)
    guard case .failure(let error) = try convert("100", "EUR", to: "RUB", on: "2022-07-08", with: table) else {
      Issue.record("the 2022-07-08 file has no RUB")
      return
    }
    #expect(error.code == .noRate)
  }

  @Test("double quotes, several days out of order, a missing currency on one day")
  func multiDayDocument() throws {
    let table = try parse(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
        <gesmes:subject>Reference rates</gesmes:subject>
        <Cube>
          <Cube time="2020-01-02"><Cube currency="USD" rate="1.1193"/><Cube currency="GBP" rate="0.84828"/></Cube>
          <Cube time="2020-01-03"><Cube currency="USD" rate="1.1147"/></Cube>
          <Cube time="2019-12-31"><Cube currency="USD" rate="1.1234"/><Cube currency="GBP" rate="0.8508"/></Cube>
        </Cube>
      </gesmes:Envelope>
      """)
    #expect(table.days.map(\.description) == ["2019-12-31", "2020-01-02", "2020-01-03"])
    #expect(table.pairs.map(\.quote.description) == ["USD", "GBP"])
    // 2020-01-01 falls back to 2019-12-31: 100 × 1.1234 = 112.34
    #expect(try convert("100", "EUR", to: "USD", on: "2020-01-01", with: table).get().amount.description == "112.34")
    // GBP is absent on 2020-01-03: no rate that day, not 2020-01-02's.
    guard case .failure(let error) = try convert("100", "EUR", to: "GBP", on: "2020-01-03", with: table) else {
      Issue.record("GBP was not published on 2020-01-03")
      return
    }
    #expect(error.code == .noRate)
  }

  @Test(
    "bad documents are RatesFileErrors",
    arguments: [
      ("<Cube><Cube currency='USD' rate='1.1'/></Cube>", "Cube currency=\"USD\" is not inside a Cube time=…"),
      ("<Cube><Cube time='2020-02-30'/></Cube>", "Cube time=\"2020-02-30\" is not a YYYY-MM-DD date"),
      (
        "<Cube><Cube time='2020-01-02'><Cube currency='XYZ' rate='1.1'/></Cube></Cube>",
        "\"XYZ\" is not an ISO 4217 currency code"
      ),
      (
        "<Cube><Cube time='2020-01-02'><Cube currency='USD' rate='abc'/></Cube></Cube>",
        "the USD rate \"abc\" is not a positive decimal"
      ),
      (
        "<Cube><Cube time='2020-01-02'><Cube currency='USD' rate='-1'/></Cube></Cube>",
        "the USD rate \"-1\" is not a positive decimal"
      ),
      ("<Cube><Cube time='2020-01-02'><Cube currency='USD'/></Cube></Cube>", "the USD rate \"\" is not a positive decimal"),
      (
        "<Cube><Cube time='2020-01-02'><Cube currency='USD' rate='1.1'/><Cube currency='USD' rate='1.2'/></Cube></Cube>",
        "currency USD appears twice on 2020-01-02"
      ),
      (
        "<Cube><Cube time='2020-01-02'><Cube currency='USD' rate='1.1'/></Cube><Cube time='2020-01-02'/></Cube>",
        "day 2020-01-02 appears twice"
      ),
      ("<Cube><Cube time='2020-01-02'/></Cube>", "no rates found (expected ECB `Cube time=… / Cube currency=… rate=…` elements)"),
    ] as [(String, String)])
  func badDocuments(text: String, message: String) {
    let error = #expect(throws: RatesFileError.self) { _ = try parse(text) }
    #expect(error?.message == message)
    #expect(error?.path == "feed.xml")
  }

  @Test("malformed XML reports libxml2's message and line")
  func malformed() {
    let error = #expect(throws: RatesFileError.self) {
      _ = try parse("<Cube>\n  <Cube time='2020-01-02'>\n    <Cube currency='USD' rate='1.1'>\n  </Cube>\n</Envelope>\n")
    }
    #expect(error?.message.hasPrefix("malformed XML") == true)
    #expect(error?.line == 5)
  }

  @Test("a semantic error names the line of the offending element")
  func errorLine() {
    let error = #expect(throws: RatesFileError.self) {
      _ = try parse(
        """
        <Cube>
          <Cube time='2020-01-02'>
            <Cube currency='USD' rate='1.1'/>
            <Cube currency='XYZ' rate='1.2'/>
            <Cube currency='GBP' rate='0.8'/>
          </Cube>
        </Cube>
        """)
    }
    #expect(error?.line == 4)
    #expect(error?.column == 1)
  }

  @Test("an empty document is an error")
  func empty() {
    #expect(throws: RatesFileError.self) { _ = try parse("") }
  }
}
