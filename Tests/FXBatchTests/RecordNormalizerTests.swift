import FXBatchTestSupport
import Testing

@testable import FXBatch

@Suite("RecordNormalizer")
struct RecordNormalizerTests {
  /// Reads a CSV text and returns its header and the normalizer the batch job would build for it.
  private func records(
    _ text: String, fixedFrom: CurrencyCode? = nil, fixedTo: CurrencyCode? = nil, defaultDay: String = "2020-01-02",
    currencies: CurrencyResolver = CurrencyResolver()
  ) throws -> (normalizer: RecordNormalizer, records: [CSVRecord]) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let reader = try CSVReader(path: try directory.write(text, named: "input.csv"))
    let header = try #require(try reader.next())
    let mapping = try FieldMapping.resolve(
      header: (0..<header.fieldCount).map(header.field), names: FieldNames(), fixedFrom: fixedFrom != nil,
      fixedTo: fixedTo != nil)
    let normalizer = RecordNormalizer(
      mapping: mapping, headerFieldCount: header.fieldCount, fixedFrom: fixedFrom, fixedTo: fixedTo, dateFormat: .iso,
      defaultDay: try day(defaultDay), currencies: currencies)
    var records: [CSVRecord] = []
    while let record = try reader.next() { records.append(record) }
    return (normalizer, records)
  }

  @Test("` usd ` and `Usd` name the same pair")
  func codesShareOnePair() throws {
    let (normalizer, records) = try records("amount,from,to\n10, usd ,EUR\n10,Usd,eur\n")
    let keys = try records.map { try normalizer.rateKey(of: $0).get().key }
    #expect(Set(keys).count == 1)
    #expect(keys.first?.pair == CurrencyPair(base: try code("USD"), quote: .euro))
  }

  @Test("10 EUR → EUR is 10.00 at rate 1")
  func sameCurrency() throws {
    let (normalizer, records) = try records("amount,from,to\n10,EUR,EUR\n")
    let record = try #require(records.first)
    let key = try normalizer.rateKey(of: record).get().key
    let table = RateTable(info: testSourceInfo, pairs: [], days: [], values: [])
    let quote = try table.quote(for: key, maxStaleness: 5).get()
    #expect(quote.rate == .one)
    #expect(quote.rateText == "1")
    #expect(!quote.isFallback)
    let amount = try AmountParser(decimalMark: .point).parse(try #require(normalizer.amountText(of: record))).get()
    #expect(quote.rate.convert(amount, minorUnits: 2, rounding: .halfUp)?.description == "10.00")
  }

  @Test(
    "row problems are values with stable codes",
    arguments: [
      ("10,XYZ,EUR,2020-01-02", RowError.Code.unknownCurrency),
      ("10,,EUR,2020-01-02", .missingField),
      ("10,USD", .missingField),
      ("10,USD,EUR,2023-02-29", .invalidDate),
      ("10,USD,EUR,2020-01-02,extra", .extraFields),
      ("10,$,EUR,2020-01-02", .ambiguousCurrency),
      ("10,USD,kr,2020-01-02", .ambiguousCurrency),
      ("10,RMB,EUR,2020-01-02", .unknownCurrency),
      ("10,CNH,EUR,2020-01-02", .unknownCurrency),
    ] as [(String, RowError.Code)])
  func rowErrors(line: String, code: RowError.Code) throws {
    let (normalizer, records) = try records("amount,from,to,date\n" + line + "\n")
    guard case .failure(let error) = normalizer.rateKey(of: try #require(records.first)) else {
      Issue.record("\(line) should be refused")
      return
    }
    #expect(error.code == code)
  }

  @Test("symbols of one currency, --alias and --symbol name currencies")
  func symbolsAndAliases() throws {
    let (normalizer, records) = try records(
      "amount,from,to\n10,€,£\n10,RMB,$\n10, zł ,₹\n",
      currencies: CurrencyResolver(aliases: ["RMB": try code("CNY")], symbols: ["$": try code("USD")]))
    let pairs = try records.map { try normalizer.rateKey(of: $0).get().key.pair.description }
    #expect(pairs == ["EUR/GBP", "CNY/USD", "PLN/INR"])
    #expect(normalizer.targetCurrency(of: records[1]) == (try code("USD")))
  }

  @Test("a record without a date uses the default day")
  func defaultDay() throws {
    let (normalizer, records) = try records("amount,from,to,date\n10,USD,EUR,\n10,USD,EUR,2019-12-31\n", defaultDay: "2020-01-03")
    let first = try normalizer.rateKey(of: records[0]).get()
    #expect(first.usedDefaultDay)
    #expect(first.key.day == (try day("2020-01-03")))
    let second = try normalizer.rateKey(of: records[1]).get()
    #expect(!second.usedDefaultDay)
    #expect(second.key.day == (try day("2019-12-31")))
  }

  @Test("--from and --to fix the currencies of every record")
  func fixedCurrencies() throws {
    let (normalizer, records) = try records(
      "\"Date\";\"Amount\"\n\"2016-09-02\";\"20,00\"\n", fixedFrom: .euro, fixedTo: try code("USD"))
    let key = try normalizer.rateKey(of: try #require(records.first)).get().key
    #expect(key == RateKey(base: .euro, quote: try code("USD"), day: try day("2016-09-02")))
    #expect(normalizer.amountText(of: try #require(records.first)) == "20,00")
  }
}
