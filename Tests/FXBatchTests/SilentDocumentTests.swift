import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Defects of documents read with field names and money elements that converted a record some way its data
/// does not say (issue 31's review): each is now the record's error on the XML fast path (the byte scanner) and
/// the general path (libxml2) alike, or, for an option, a usage error.
///
/// Rates: the embedded ECB history, 2024-03-15 EUR/USD 1.0892 (1 USD = 0.918… EUR).
@Suite("Silent substitutions in documents")
struct SilentDocumentTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// A document of 30 payments, the 18th replaced by `record`; root binds `p` and `r`.
  static func document(_ record: String, plain: String? = nil) -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<payments xmlns:p=\"urn:p\" xmlns:r=\"urn:r\">\n"
    for index in 0..<30 {
      text +=
        index == 17
        ? record + "\n"
        : (plain ?? "<payment><amount>\(index).25</amount><from>USD</from><to>EUR</to><date>2024-03-15</date></payment>")
          + "\n"
    }
    return text + "</payments>\n"
  }

  /// The `fx` element of the 18th record.
  static func annotation(_ run: XMLFastPathTests.Run) -> String {
    let lines = String(decoding: run.output ?? Data(), as: UTF8.self).split(separator: "\n")
    let records = lines.filter { $0.hasPrefix("<payment>") }
    guard records.count == 30, let start = records[17].range(of: "<fx ") else { return "" }
    return String(records[17][start.lowerBound...])
  }

  // MARK: 1. A field found by a plain name that is an element holding elements

  /// `<amount>5<x>1</x></amount>` is not the amount 51, whichever role and however the field was named (a
  /// synonym, or a plain name): `invalid_record`, as for a path; the same on both paths.
  @Test(arguments: [
    (
      "<payment><amount>5<x>1</x></amount><from>USD</from><to>EUR</to><date>2024-03-15</date></payment>",
      "&quot;amount&quot; is an element holding elements, not text; name the one that holds the amount (amount/…)"
    ),
    (
      "<payment><amount>1</amount><from>U<x>SD</x></from><to>EUR</to><date>2024-03-15</date></payment>",
      "&quot;from&quot; is an element holding elements, not text; name the one that holds the from-currency (from/…)"
    ),
    (
      "<payment><amount>1</amount><from>USD</from><to><c>EUR</c></to><date>2024-03-15</date></payment>",
      "&quot;to&quot; is an element holding elements, not text; name the one that holds the to-currency (to/…)"
    ),
    (
      "<payment><amount>1</amount><from>USD</from><to>EUR</to><date>2024-03-<d>15</d></date></payment>",
      "&quot;date&quot; is an element holding elements, not text; name the one that holds the date (date/…)"
    ),
    (
      "<payment><amount>5<x/></amount><from>USD</from><to>EUR</to><date><d/></date></payment>",
      "&quot;amount&quot; is an element holding elements"
    ),
  ])
  func aFlatFieldHoldingElementsIsAnInvalidRecord(record: String, error: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(Self.document(record), named: "doc.xml")
    for names in [FieldNames(), FieldNames(amount: "amount", from: "from", to: "to", date: "date")] {
      let configure: (inout BatchOptions) -> Void = { $0.fieldNames = names }
      #expect(try XMLFastPathTests.takesFastPath(path, configure: configure))
      let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 2, configure: configure)
      let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
      XMLFastPathTests.compare(fast, general, "\(record)")
      #expect(general.totals.error == 1 && general.totals.ok == 29, "\(record)")
      #expect(Self.annotation(general).contains("status=\"error\" error=\"invalid_record: \(error)"), "\(record)")
    }
  }

  /// Comments and processing instructions are not text (XML 1.0 §2.5, §2.6: an element's text is its character
  /// data and CDATA sections): `5<!-- c -->1` is the text 51, as any XML reader gives it; a CDATA section is
  /// text. These records are read by libxml2 (the byte scanner leaves such documents to it): 51 USD → 46.82,
  /// 12.50 USD → 11.48 EUR.
  @Test(arguments: [
    ("<amount>5<!-- five -->1</amount>", "converted=\"46.82\""),
    ("<amount><![CDATA[12.50]]></amount>", "converted=\"11.48\""),
    ("<amount>1<![CDATA[2.5]]>0</amount>", "converted=\"11.48\""),
    ("<amount>12<?note x?>.50</amount>", "converted=\"11.48\""),
  ])
  func commentsAndCDATAFollowXMLTextRules(amount: String, converted: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let record = "<payment>\(amount)<from>USD</from><to>EUR</to><date>2024-03-15</date></payment>"
    let path = try directory.write(Self.document(record), named: "doc.xml")
    let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 2)
    let general = try XMLFastPathTests.run(path, fastPath: false)
    XMLFastPathTests.compare(fast, general, "\(amount)")
    #expect(general.totals.ok == 30, "\(amount)")
    #expect(Self.annotation(general).contains(converted), "\(amount): \(Self.annotation(general))")
  }

  // MARK: 2. An empty date

  /// A date field that is present but empty — `<date></date>`, `<date/>`, white space, a path's `<Dt/>`, JSON
  /// `""` or `null`, a date path ending at `null` — is no date, as a blank CSV cell is
  /// (docs/dates-and-staleness.md): the record is converted at `--date` (else the newest rate day) and counted in
  /// the summary's `records without a date`, never dated silently; the same on both paths. A path that leads
  /// nowhere stays `missing_field`.
  @Test func anEmptyDateIsNoDateAndIsCounted() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var xml = "<?xml version=\"1.0\"?>\n<payments>\n"
    var json = "[\n"
    for index in 0..<40 {
      let date = ["<date>2024-03-14</date>", "<date></date>", "<date/>", "<date> \n </date>"][index % 4]
      xml += "<payment><amount>\(index).5</amount><from>USD</from><to>EUR</to>\(date)</payment>\n"
      let member = ["\"2024-03-14\"", "\"\"", "null", "\" \""][index % 4]
      json += "  {\"amount\": \(index).5, \"from\": \"USD\", \"to\": \"EUR\", \"date\": \(member)}" + (index == 39 ? "\n" : ",\n")
    }
    let xmlPath = try directory.write(xml + "</payments>\n", named: "dates.xml")
    let jsonPath = try directory.write(json + "]\n", named: "dates.json")
    for path in [xmlPath, jsonPath] {
      let configure: (inout BatchOptions) -> Void = { $0.defaultDate = try? day("2024-03-15") }
      let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 2, configure: configure)
      let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
      XMLFastPathTests.compare(fast, general, "\(path)")
      #expect(general.totals.ok == 40 && general.withoutDate == 30, "\(path)")
      let output = String(decoding: general.output ?? Data(), as: UTF8.self)
      let at15 = output.components(separatedBy: "2024-03-15")  // only in the rate dates
      #expect(at15.count - 1 == 30, "\(path)")
    }
    // Paths: <BookgDt><Dt/></BookgDt> and {"booking": {"date": null}} are no date; no BookgDt is missing_field.
    let entries = [
      "<Ntry><Amt Ccy=\"USD\">1</Amt><BookgDt><Dt>2024-03-14</Dt></BookgDt></Ntry>",
      "<Ntry><Amt Ccy=\"USD\">2</Amt><BookgDt><Dt/></BookgDt></Ntry>",
      "<Ntry><Amt Ccy=\"USD\">3</Amt></Ntry>",
    ]
    let pathXML = try directory.write(
      "<Stmt>\n" + (0..<30).map { entries[$0 % 3] }.joined(separator: "\n") + "\n</Stmt>\n", named: "path.xml")
    let objects = [
      "{\"amount\": 1, \"from\": \"USD\", \"booking\": {\"date\": \"2024-03-14\"}}",
      "{\"amount\": 2, \"from\": \"USD\", \"booking\": {\"date\": null}}",
      "{\"amount\": 3, \"from\": \"USD\", \"booking\": {}}",
    ]
    let pathJSON = try directory.write((0..<30).map { objects[$0 % 3] }.joined(separator: "\n") + "\n", named: "path.jsonl")
    for (path, date) in [(pathXML, "BookgDt/Dt"), (pathJSON, "booking.date")] {
      let configure: (inout BatchOptions) -> Void = {
        $0.defaultDate = try? day("2024-03-15")
        $0.fixedTo = CurrencyCode("EUR")
        $0.fieldNames = FieldNames(date: date)
      }
      let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 2, configure: configure)
      let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
      XMLFastPathTests.compare(fast, general, "\(path)")
      #expect(general.totals.ok == 20 && general.withoutDate == 10 && general.totals.error == 10, "\(path)")
    }
  }

  // MARK: 4. A money element's currency attribute is unprefixed

  /// `p:Ccy` is an attribute of another namespace, not the amount's currency: without it the record has no
  /// from-currency (`missing_field`); beside an unprefixed `Ccy` it is passed over. Both readers.
  @Test(arguments: [
    (
      "<payment><amount p:Ccy=\"USD\">1</amount><to>EUR</to><date>2024-03-15</date></payment>",
      "status=\"error\" error=\"missing_field: "
    ),
    (
      "<payment><amount r:currencyID=\"USD\">1</amount><to>EUR</to><date>2024-03-15</date></payment>",
      "status=\"error\" error=\"missing_field: "
    ),
    ("<payment><amount p:Ccy=\"GBP\" Ccy=\"USD\">1</amount><to>EUR</to><date>2024-03-15</date></payment>", "converted=\"0.92\""),
  ])
  func aPrefixedCurrencyAttributeIsNotTheAmountsCurrency(record: String, expected: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let plain = "<payment><amount Ccy=\"USD\">2</amount><to>EUR</to><date>2024-03-15</date></payment>"
    let path = try directory.write(Self.document(record, plain: plain), named: "doc.xml")
    let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 2)
    let general = try XMLFastPathTests.run(path, fastPath: false)
    XMLFastPathTests.compare(fast, general, "\(record)")
    #expect(Self.annotation(general).contains(expected), "\(record): \(Self.annotation(general))")
    #expect(general.totals.ok >= 29, "\(record)")
  }

  /// The same in a known document read by libxml2 alone: a camt.053 entry whose `Amt` has only a prefixed
  /// `Ccy` has no from-currency.
  @Test func aPrefixedCcyInAStatementIsNotTheCurrency() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let entry = { (ccy: String) in
      "<Ntry><Amt \(ccy)>10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2024-03-15</Dt></BookgDt></Ntry>"
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08" xmlns:x="urn:example:x">
      <BkToCstmrStmt><Stmt><Id>S1</Id>
      \(entry("Ccy=\"USD\""))
      \(entry("x:Ccy=\"USD\""))
      </Stmt></BkToCstmrStmt></Document>

      """
    try directory.write(text, named: "camt.xml")
    let result = try cli.run(["convert", "--to", "EUR", "-o", "-", "camt.xml"], in: directory.url)
    let annotations = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("<Ntry>") }
      .compactMap { line in line.range(of: "<fx ").map { String(line[$0.lowerBound...]) } }
    #expect(annotations.count == 2)
    #expect(annotations.first?.contains("converted=\"9.18\"") == true)
    #expect(annotations.last?.contains("status=\"error\" error=\"missing_field: ") == true, "\(annotations)")
  }

  // MARK: 6. A from-currency member beside a money object

  /// Shopify orders: a top-level `currency` that is the money object's currency is the record's from-currency,
  /// not a to-currency `--to` would pass over; one that says another currency is that record's `invalid_record`
  /// (the from-currency found by its name must agree with the money object's), never a "to-currency field" whose
  /// hint, `--to-field currency`, would convert into the from-currency; a `presentment_currency` of another
  /// currency still refuses the file (`--override-currency-fields` converts anyway). At 2024-03-15,
  /// 12.50 USD → 11.48 EUR, 10.00 USD → 9.18 EUR.
  @Test func aCurrencyMemberThatIsTheMoneyObjectsIsNotAToCurrency() throws {
    func order(_ id: Int, _ amount: String, currency: String = "USD", presentment: String = "USD") -> String {
      #"{"id": \#(id), "currency": "\#(currency)", "presentment_currency": "\#(presentment)", "created_at": "2024-03-15T10:00:00-04:00", "#
        + #""total_price_set": {"shop_money": {"amount": "\#(amount)", "currency_code": "USD"}, "#
        + #""presentment_money": {"amount": "\#(amount)", "currency_code": "\#(presentment)"}}}"#
    }
    let arguments = ["convert", "--to", "EUR", "--amount-field", "total_price_set.shop_money", "-o", "-", "orders.jsonl"]
    for general in [false, true] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      var runner = cli
      if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
      try directory.write("orders.jsonl", order(1, "12.50") + "\n" + order(2, "10.00") + "\n")
      let same = try runner.run(arguments, in: directory.url)
      #expect(same.status == 0, "\(same.standardError)")
      #expect(
        same.standardOutput.contains(#""fx_converted": "11.48""#) && same.standardOutput.contains(#""fx_converted": "9.18""#))
      try directory.write("orders.jsonl", order(1, "12.50") + "\n" + order(2, "10.00", currency: "GBP") + "\n")
      let other = try runner.run(arguments, in: directory.url)
      #expect(other.status == 1, "\(other.standardError)")
      #expect(!other.standardError.contains("to-currency field"))
      #expect(other.standardOutput.contains(#""fx_converted": "11.48""#))
      #expect(
        other.standardOutput.contains(
          #"invalid_record: the currency member of the amount says \"USD\" and the record's from-currency field \"GBP\""#))
      try directory.write("orders.jsonl", order(1, "12.50") + "\n" + order(2, "10.00", presentment: "CAD") + "\n")
      let presentment = try runner.run(arguments, in: directory.url)
      #expect(presentment.status == 2)
      #expect(presentment.standardError.contains(#"the file has a to-currency field "presentment_currency""#))
      #expect(try runner.run(arguments + ["--override-currency-fields"], in: directory.url).status == 0)
    }
  }

  /// XML alike: a `currency` child beside a money element (`<amount Ccy="CHF">`) that says another currency is
  /// the record's `invalid_record`, not a to-currency field `--to` would pass over; on both paths, with one
  /// amount and with several. At 2024-03-15, 12.50 USD → 11.48 EUR.
  @Test func aCurrencyFieldBesideAMoneyElementIsNotAToCurrency() throws {
    func payout(_ amount: String, _ money: String, currency: String) -> String {
      "<payout><date>2024-03-15</date><amount Ccy=\"\(money)\">\(amount)</amount><fee Ccy=\"\(money)\">0</fee>"
        + "<currency>\(currency)</currency></payout>\n"
    }
    let document =
      "<payouts>\n" + payout("12.50", "USD", currency: "USD") + payout("10.00", "CHF", currency: "SEK") + "</payouts>\n"
    for general in [false, true] {
      for amounts in [[], ["--amount-field", "amount,fee"]] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var runner = cli
        if general { runner.environment["FXBATCH_GENERAL_PATH"] = "1" }
        try directory.write("payouts.xml", document)
        let run = try runner.run(["convert", "--to", "EUR", "-o", "-"] + amounts + ["payouts.xml"], in: directory.url)
        #expect(run.status == 1, "\(run.standardError)")
        #expect(!run.standardError.contains("to-currency field"))
        #expect(run.standardOutput.contains(amounts.isEmpty ? #"converted="11.48""# : #"converted-amount="11.48""#))
        #expect(
          run.standardOutput.contains(
            "invalid_record: the currency attribute of the amount says &quot;CHF&quot; and the record's from-currency "
              + "field &quot;SEK&quot;"),
          "\(run.standardOutput)")
      }
    }
  }

  // MARK: 3. --minor-units CODE=N

  /// N is one digit from 0 to 6, written plainly; CODE is read as a currency field's code is (trimmed, any case).
  @Test func minorUnitsTakeOneDigit() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", "date,base,quote,rate\n2024-02-01,EUR,ISK,150\n")
    try directory.write("isk.csv", "amount,currency,created\n50000,ISK,1706745600\n")
    let arguments = [
      "convert", "--to", "EUR", "--rates", "rates.csv", "--date-format", "unix", "--date-field", "created",
      "--amount-unit", "minor", "-o", "-", "isk.csv", "--minor-units",
    ]
    for bad in ["ISK=+3", "ISK=-1", "ISK= 3", "ISK=03", "ISK=99", "ISK=7", "ISK=3 ", "ISK=", "ISK=٣", "XYZ=2", "ISK2"] {
      let result = try cli.run(arguments + [bad], in: directory.url)
      #expect(result.status == 64, "\(bad)")
      #expect(result.standardError.contains("--minor-units \(bad)"), "\(bad): \(result.standardError)")
    }
    for (good, converted) in [("isk=2", "3.33"), ("ISK=0", "333.33"), (" ISK =2", "3.33")] {
      let result = try cli.run(arguments + [good], in: directory.url)
      #expect(result.status == 0, "\(good): \(result.standardError)")
      #expect(result.standardOutput.contains(",\(converted),EUR,2024-02-01,"), "\(good): \(result.standardOutput)")
    }
  }
}
