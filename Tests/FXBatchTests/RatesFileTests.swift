import FXBatchTestSupport
import Testing

@testable import FXBatch

@Suite("RatesFile and SimpleRatesCSV")
struct RatesFileTests {
  @Test("the ECB XML fixture loads as a table named after the file")
  func xmlFixture() throws {
    let table = try RatesFile.load(path: try Fixture.path("ecb", "ecb-eurofxref-daily-2017-03-08.xml"))
    #expect(table.pairs.count == 31)
    #expect(table.info.identifier == "file:ecb-eurofxref-daily-2017-03-08.xml")
    #expect(table.info.publisher == "ecb-eurofxref-daily-2017-03-08.xml")
    // 100 × 0.86753 / 1.0556 = 82.1835922… → 82.18
    #expect(try convert("100", "USD", to: "GBP", on: "2017-03-08", with: table).get().amount.description == "82.18")
  }

  @Test("the ECB history fixture loads")
  func historyFixture() throws {
    let table = try RatesFile.load(path: try Fixture.path("ecb", "ecb-eurofxref-hist-slice.csv"))
    #expect(table.days.count == 7)
    #expect(table.pairs.count == 41)
  }

  /// Writes a rates file and loads it.
  private func load(_ text: String, named name: String = "rates.csv") throws -> Result<RateTable, RatesFileError> {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(text, named: name)
    do { return .success(try RatesFile.load(path: path)) } catch { return .failure(error) }
  }

  @Test("a simple dated CSV, with a BOM, semicolons and quoted names")
  func simpleDated() throws {
    let table = try load(
      "\u{FEFF}\"Date\";\"Base\";\"Quote\";\"Rate\"\r\n2020-01-02;EUR;USD;1.1193\r\n2020-01-03;EUR;USD;1.1147\r\n2020-01-03;eur; gbp ;0.85115\r\n"
    ).get()
    #expect(table.days.map(\.description) == ["2020-01-02", "2020-01-03"])
    #expect(
      table.pairs == [CurrencyPair(base: .euro, quote: try code("USD")), CurrencyPair(base: .euro, quote: try code("GBP"))])
    // 100 × 1.1193 = 111.93
    #expect(try convert("100", "EUR", to: "USD", on: "2020-01-02", with: table).get().amount.description == "111.93")
    // GBP is not in the 2020-01-02 row: no rate that day.
    #expect(throws: RowError.self) { try convert("100", "EUR", to: "GBP", on: "2020-01-02", with: table).get() }
  }

  @Test("a simple undated CSV (a fixed table, from/to names) serves every day")
  func simpleUndated() throws {
    let table = try load("from,to,rate\nEUR,USD,1.10\nEUR,GBP,0.85\nEUR,USD,1.10\n").get()
    #expect(table.isUndated)
    // 100 × 0.85 / 1.10 = 77.2727… → 77.27
    let result = try convert("100", "USD", to: "GBP", on: "2031-05-05", with: table).get()
    #expect(result.amount.description == "77.27")
  }

  @Test(
    "a bad line in a simple CSV names its line and column",
    arguments: [
      // (file, line, column, message)
      (
        "date,base,quote,rate\n2020-01-02,EUR,USD,1.1193\n2020-01-03,EUR,XYZ,1.1147\n", 3, 16,
        "\"XYZ\" is not an ISO 4217 currency code"
      ),
      ("date,base,quote,rate\n2020-01-02,EUR,USD,abc\n", 2, 20, "\"abc\" is not a positive decimal rate"),
      ("date,base,quote,rate\n2020-01-02,EUR,USD,0\n", 2, 20, "\"0\" is not a positive decimal rate"),
      ("date,base,quote,rate\n2020-01-02,EUR,USD,-1.1\n", 2, 20, "\"-1.1\" is not a positive decimal rate"),
      ("date,base,quote,rate\n2020-02-30,EUR,USD,1.1\n", 2, 1, "\"2020-02-30\" is not a YYYY-MM-DD date"),
      ("date,base,quote,rate\n,EUR,USD,1.1\n", 2, 1, "the date is empty"),
      ("date,base,quote,rate\n2020-01-02,EUR,EUR,1\n", 2, 16, "a rate of EUR against itself"),
      ("date,base,quote,rate\n2020-01-02,EUR\n", 2, 15, "the quote currency is empty"),
      ("date,base,quote,rate\n\n\n2020-01-02,XYZ,USD,1\n", 4, 12, "\"XYZ\" is not an ISO 4217 currency code"),
      (
        "date,base,quote,rate\n2020-01-02,EUR,USD,1.1193\n2020-01-02,EUR,USD,1.2\n", 3, 20,
        "EUR/USD on 2020-01-02 is given twice (1.1193 and 1.2)"
      ),
      (
        "date,base,quote,rate,note\n2020-01-02,EUR,USD,1.1,\"two\nlines\"\n2020-01-03,EUR,XYZ,1.1,x\n", 4, 16,
        "\"XYZ\" is not an ISO 4217 currency code"
      ),
      (
        "date,base,quote,rate\n2020-01-02,EUR,USD,\"1.1\n", 2, 20,
        "quoted field is never closed (RFC 4180: a quote inside a quoted field is written as two quotes)"
      ),
      ("date,base,quote,rate\n", 2, 1, "the file has a header but no rates"),
    ] as [(String, Int, Int, String)])
  func badSimpleCSV(text: String, line: Int, column: Int, message: String) throws {
    guard case .failure(let error) = try load(text) else {
      Issue.record("the file should be refused")
      return
    }
    #expect(error.line == line)
    #expect(error.column == column)
    #expect(error.message == message)
    #expect(error.description.hasSuffix("rates.csv:\(line):\(column): error: \(message)"))
  }

  @Test("the same rate twice is not a conflict")
  func repeatedRate() throws {
    let table = try load("date,base,quote,rate\n2020-01-02,EUR,USD,1.1193\n2020-01-02,EUR,USD,1.11930\n").get()
    #expect(table.days.count == 1)
    // The later spelling is kept.
    let key = RateKey(base: .euro, quote: CurrencyCode("USD")!, day: table.days[0])
    #expect(try table.quote(for: key, maxStaleness: 0).get().source.hasSuffix(" EUR/USD=1.11930"))
  }

  @Test(
    "files of no known layout are refused at line 1",
    arguments: [
      ("foo,bar\n1,2\n", "unknown rates layout"),
      ("", "the rates file is empty"),
      ("\n \r\n\t", "the rates file is empty"),
    ] as [(String, String)])
  func unknownLayout(text: String, messagePrefix: String) throws {
    guard case .failure(let error) = try load(text) else {
      Issue.record("the file should be refused")
      return
    }
    #expect(error.line == 1)
    #expect(error.message.hasPrefix(messagePrefix))
  }

  @Test("a missing file is a RatesFileError")
  func missingFile() {
    let error = #expect(throws: RatesFileError.self) { _ = try RatesFile.load(path: "/nonexistent-fxbatch-test-dir/rates.csv") }
    #expect(error?.message == "no such rates file")
  }

  @Test("an XML file with leading whitespace is still XML")
  func xmlAfterWhitespace() throws {
    let table = try load(
      "\n  <Cube><Cube time='2020-01-02'><Cube currency='USD' rate='1.1193'/></Cube></Cube>", named: "rates.xml"
    ).get()
    #expect(table.days.map(\.description) == ["2020-01-02"])
  }
}
