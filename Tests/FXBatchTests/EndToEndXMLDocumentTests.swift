import FXBatchTestSupport
import Foundation
import Testing

/// Runs the built `fxbatch` binary on XML documents written the way the standards' own examples are: an ISO 20022
/// camt.053 statement (`Fixtures/xml/documents/camt053-statement.xml`) and a folder of UBL 2.1 invoices
/// (`Fixtures/xml/documents/ubl-invoices/`), read through field paths, at the embedded ECB rates (offline).
///
/// The ECB rates used (eurofxref-hist.csv): 2024-03-14 EUR/USD 1.0925; 2024-03-15 EUR/USD 1.0892, EUR/GBP 0.8541;
/// 2024-03-18 EUR/GBP 0.85525.
@Suite("fxbatch end to end: XML documents and field paths")
struct EndToEndXMLDocumentTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let statement = "camt053-statement.xml"
  static let invoices = ["INV-1001.xml", "INV-1002.xml", "INV-1003.xml"]
  static let notification = "camt054-notification.xml"
  static let creditNote = "ubl-creditnote-CN-2001.xml"
  static let taxCurrencyInvoice = "ubl-invoice-tax-currency.xml"

  /// A temporary directory with the statement and the invoices.
  static func directory() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory()
    for name in [statement, notification, creditNote, taxCurrencyInvoice] {
      try directory.write(try Fixture.bytes("xml/documents", name), named: name)
    }
    for name in invoices { try directory.write(try Fixture.bytes("xml/documents/ubl-invoices", name), named: name) }
    return directory
  }

  /// The `fx` elements of an output, in order.
  static func annotations(_ text: String) -> [String] {
    text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("<fx ") }
  }

  // camt.053 entries, --date-field BookgDt/Dt, to EUR; the amount is each entry's own <Amt> (found by the synonym
  // "amt"), read whole: its Ccy attribute is the from-currency. Not the Bal amounts (50000.00, 48525.89), not
  // the NtryDtls amounts (1137.00 EUR instructed, 1500.00 and 1208.67 per transaction):
  //  1: 1234.56 USD on 2024-03-14: 1234.56 / 1.0925 = 1130.03203… → 1130.03; rate 1 / 1.0925 = 0.9153318078
  //  2: 2708.67 USD on 2024-03-15: 2708.67 / 1.0892 = 2486.84355… → 2486.84; rate 1 / 1.0892 = 0.9181050312
  //  3: no BookgDt (a pending entry) → missing_field naming the path
  @Test func camtEntriesConvertTheirOwnAmount() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--record-element", "Ntry", "--date-field", "BookgDt/Dt", "--to", "EUR", "-o", "-", Self.statement],
      in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    #expect(
      Self.annotations(result.standardOutput) == [
        #"<fx rate="0.9153318078" converted="1130.03" currency="EUR" rate-date="2024-03-14" source="ecb-embedded EUR/USD=1.0925" status="ok" error=""/>"#,
        #"<fx rate="0.9181050312" converted="2486.84" currency="EUR" rate-date="2024-03-15" source="ecb-embedded EUR/USD=1.0892" status="ok" error=""/>"#,
        #"<fx rate="" converted="" currency="" rate-date="" source="" status="error" error="missing_field: the record has no &quot;BookgDt/Dt&quot;"/>"#,
      ])
    // --date-field overrides the statement's known date paths; the amount is still the shape's.
    #expect(
      result.standardError.contains(
        "3 records: 2 ok, 0 fallback, 1 error (missing_field 1) [XML, records <Ntry>, recognized ISO 20022 "
          + "camt.053.001.08: amount Amt and its @Ccy]"))
    // Every original byte is kept: the output less the fx lines is the input.
    let input = String(decoding: try Fixture.bytes("xml/documents", Self.statement), as: UTF8.self)
    let kept = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("<fx ") }.joined(separator: "\n")
    #expect(kept == input)
  }

  // Paths that match twice, into an element holding elements, or nothing:
  //  NtryDtls/TxDtls/Amt: entry 1 has one (1234.56 USD → 1130.03 EUR as above), entry 2 two TxDtls → invalid_record,
  //  entry 3 none → missing_field. The amount element read whole gives USD here too.
  //  NtryDtls/TxDtls: an element holding elements → invalid_record (entry 1), two of them (entry 2).
  @Test func pathsThatMatchTwiceOrNothingAreRecordErrors() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let details = try cli.run(
      [
        "convert", "--record-element", "Ntry", "--amount-field", "NtryDtls/TxDtls/Amt", "--date-field", "BookgDt/Dt",
        "--to", "EUR", "-o", "-", Self.statement,
      ], in: directory.url)
    let found = Self.annotations(details.standardOutput)
    #expect(found.count == 3)
    #expect(found.first?.contains(#"converted="1130.03""#) == true)
    #expect(
      found.dropFirst().first?.contains(
        "invalid_record: &quot;NtryDtls/TxDtls/Amt&quot; matches 2 elements in the record; fxbatch does not pick one")
        == true)
    #expect(found.last?.contains("missing_field: the record has no &quot;NtryDtls/TxDtls/Amt&quot;") == true)

    let holding = try cli.run(
      [
        "convert", "--record-element", "Ntry", "--amount-field", "NtryDtls/TxDtls", "--from", "USD", "--date-field",
        "BookgDt/Dt", "--to", "EUR", "-o", "-", Self.statement,
      ], in: directory.url)
    let errors = Self.annotations(holding.standardOutput)
    #expect(
      errors.first?.contains(
        "invalid_record: &quot;NtryDtls/TxDtls&quot; is an element holding elements, not text; name the one that holds "
          + "the amount (NtryDtls/TxDtls/…)") == true)
    #expect(errors.dropFirst().first?.contains("matches 2 elements") == true)
  }

  // A prefix the document does not bind, and a path that is not one, are file errors; nothing is written.
  @Test(arguments: [
    (
      "x:Amt",
      #"--amount-field "x:Amt": no record has it; the prefix "x" is not bound to a namespace in the records"#
    ),
    ("Amt//Ccy", #"--amount-field "Amt//Ccy" is not a field path: it has an empty step"#),
    ("@Ccy/Amt", #"--amount-field "@Ccy/Amt" is not a field path: only the last step may name an attribute (@name)"#),
    ("Amt/text()", #"--amount-field "Amt/text()" is not a field path: "text()" is not an element name"#),
  ])
  func unboundPrefixesAndMalformedPathsAreFileErrors(path: String, message: String) throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--record-element", "Ntry", "--amount-field", path, "--to", "EUR", "--date", "2024-03-15", Self.statement],
      in: directory.url)
    #expect(result.status != 0)
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("camt053-statement.converted.xml").path))
  }

  // A folder of UBL 2.1 invoices, each file's root <Invoice> the one record; the amount is
  // cac:LegalMonetaryTotal/cbc:PayableAmount read whole (currencyID), not cbc:TaxAmount, not the line amounts;
  // the day is cbc:IssueDate (named by its local name); to USD:
  //  INV-1001: 1190.00 EUR on 2024-03-14: × 1.0925 = 1300.075 → 1300.08 (half-up)
  //  INV-1002: 600.00 GBP on 2024-03-15: × 1.0892 / 0.8541 = 765.15630… → 765.16; rate 1.27526050… → 1.275260508
  //  INV-1003: 238.00 EUR on 2024-03-16, a Saturday: the rates of Friday 2024-03-15, × 1.0892 = 259.2296 → 259.23
  @Test func folderOfUBLInvoicesConvertsOneRecordPerFile() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: false)
    let result = try cli.run(
      [
        "convert", "--record-element", "Invoice", "--amount-field", "cac:LegalMonetaryTotal/cbc:PayableAmount",
        "--date-field", "IssueDate", "--to", "USD", "--output-dir", "out",
      ] + Self.invoices, in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let expected = [
      #"<fx rate="1.0925" converted="1300.08" currency="USD" rate-date="2024-03-14" source="ecb-embedded EUR/USD=1.0925" status="ok" error=""/>"#,
      #"<fx rate="1.275260508" converted="765.16" currency="USD" rate-date="2024-03-15" source="ecb-embedded EUR/GBP=0.8541 EUR/USD=1.0892" status="ok" error=""/>"#,
      #"<fx rate="1.0892" converted="259.23" currency="USD" rate-date="2024-03-15" source="ecb-embedded EUR/USD=1.0892" status="fallback" error=""/>"#,
    ]
    for (name, annotation) in zip(Self.invoices, expected) {
      let converted = name.replacingOccurrences(of: ".xml", with: ".converted.xml")
      let text = try String(contentsOf: output.appendingPathComponent(converted), encoding: .utf8)
      #expect(Self.annotations(text) == [annotation], "\(name)")
      // The fx element is the root's last child, after the invoice lines.
      #expect(text.hasSuffix("</cac:InvoiceLine>\n\t\(annotation)\n</Invoice>\n"), "\(name)")
    }
    #expect(result.standardError.contains("3 files, 3 records: 2 ok, 1 fallback, 0 error"))
    #expect(
      result.standardError.contains(
        "1 record: 1 ok, 0 fallback, 0 error [XML, records <Invoice>, recognized UBL Invoice]"))
  }

  // --from-field overrides the money element: DocumentCurrencyCode gives the same currencies, so the same values;
  // the unprefixed path LegalMonetaryTotal/PayableAmount matches by local names.
  @Test func fromFieldOverridesTheMoneyElement() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let result = try cli.run(
      [
        "convert", "--record-element", "Invoice", "--amount-field", "LegalMonetaryTotal/PayableAmount", "--from-field",
        "cbc:DocumentCurrencyCode", "--date-field", "cbc:IssueDate", "--to", "USD", "-o", "-", "INV-1002.xml",
      ], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(Self.annotations(result.standardOutput).first?.contains(#"converted="765.16" currency="USD""#) == true)
  }

  // --from over a money element's currency attribute is refused, as --from over a from-currency field is (nothing
  // overridden silently); with --override-currency-fields every record is converted from the given currency.
  @Test func fromOverAMoneyElementIsRefusedUnlessOverridden() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let arguments = [
      "convert", "--record-element", "Invoice", "--amount-field", "LegalMonetaryTotal/PayableAmount", "--date-field",
      "cbc:IssueDate", "--from", "GBP", "--to", "USD", "-o", "-", "INV-1002.xml",
    ]
    let refused = try cli.run(arguments, in: directory.url)
    #expect(refused.status == 2, "\(refused.standardError)")
    #expect(refused.standardOutput.isEmpty)
    #expect(
      refused.standardError.contains(
        "the file has a from-currency field \"LegalMonetaryTotal/PayableAmount/@currencyID\" (the amount element's"
          + " currency attribute); --from GBP would override it"), "\(refused.standardError)")
    let overridden = try cli.run(arguments + ["--override-currency-fields"], in: directory.url)
    #expect(overridden.status == 0, "\(overridden.standardError)")
    #expect(Self.annotations(overridden.standardOutput).first?.contains("EUR/GBP") == true, "\(overridden.standardOutput)")
  }

  // Known documents without options (docs/formats.md, "Known documents"): the statement's namespace names it
  // camt.053, so its Ntry records convert with Amt (and its Ccy) at BookgDt/Dt, else ValDt/Dt:
  //  1, 2: as above (1130.03 and 2486.84 EUR)
  //  3: no BookgDt, ValDt 2024-03-18: 310.00 GBP / 0.85525 = 362.46711… → 362.47; rate 1 / 0.85525 = 1.169248758
  // camt.054: 500.00 EUR on 2024-03-14 to USD: × 1.0925 = 546.25 (not the TxDtls amount beside it, also 500.00).
  @Test func knownStatementsConvertWithoutOptions() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let statement = try cli.run(["convert", "--to", "EUR", "-o", "-", Self.statement], in: directory.url)
    #expect(statement.status == 0, "\(statement.standardError)")
    #expect(
      Self.annotations(statement.standardOutput).last
        == #"<fx rate="1.169248758" converted="362.47" currency="EUR" rate-date="2024-03-18" source="ecb-embedded EUR/GBP=0.85525" status="ok" error=""/>"#
    )
    #expect(Self.annotations(statement.standardOutput).first?.contains(#"converted="1130.03""#) == true)
    #expect(
      statement.standardError.contains(
        "3 records: 3 ok, 0 fallback, 0 error [XML, records <Ntry>, recognized ISO 20022 camt.053.001.08: amount Amt "
          + "and its @Ccy, date BookgDt/Dt else BookgDt/DtTm else ValDt/Dt else ValDt/DtTm]"), "\(statement.standardError)")

    let notification = try cli.run(["convert", "--to", "USD", "-o", "-", Self.notification], in: directory.url)
    #expect(notification.status == 0, "\(notification.standardError)")
    #expect(
      Self.annotations(notification.standardOutput) == [
        #"<fx rate="1.0925" converted="546.25" currency="USD" rate-date="2024-03-14" source="ecb-embedded EUR/USD=1.0925" status="ok" error=""/>"#
      ])
    #expect(notification.standardError.contains("recognized ISO 20022 camt.054.001.08"))
  }

  // A booking day written with a time (BookgDt/DtTm, as many banks write it) is the entry's day as written, not a
  // reason to take the value date: 1234.56 USD booked 2024-03-14T23:30:00-05:00 (value 2024-03-15) / 1.0925 =
  // 1130.03203… → 1130.03 at 2024-03-14; a pending entry with only ValDt/DtTm 2024-03-15T08:00:00+01:00:
  // 2708.67 / 1.0892 = 2486.84355… → 2486.84 at 2024-03-15.
  @Test func aBookingDayWithATimeIsTheEntrysDay() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let entry = { (amount: String, dates: String) in
      "<Ntry><Amt Ccy=\"USD\">\(amount)</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>\(dates)\n</Ntry>"
    }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>S1</MsgId>\
      <CreDtTm>2024-03-16T06:30:00+01:00</CreDtTm></GrpHdr><Stmt><Id>S1</Id>
      \(entry("1234.56", "<BookgDt><DtTm>2024-03-14T23:30:00-05:00</DtTm></BookgDt><ValDt><Dt>2024-03-15</Dt></ValDt>"))
      \(entry("2708.67", "<ValDt><DtTm>2024-03-15T08:00:00+01:00</DtTm></ValDt>"))
      </Stmt></BkToCstmrStmt></Document>

      """
    try directory.write("timed.xml", text)
    let result = try cli.run(["convert", "--to", "EUR", "-o", "-", "timed.xml"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let annotations = Self.annotations(result.standardOutput)
    #expect(annotations.count == 2, "\(result.standardOutput)")
    #expect(annotations.first?.contains(#"converted="1130.03" currency="EUR" rate-date="2024-03-14""#) == true)
    #expect(annotations.last?.contains(#"converted="2486.84" currency="EUR" rate-date="2024-03-15""#) == true)
  }

  // An option overrides the shape's choice: --date-field ValDt/Dt reads entry 1 at 2024-03-15:
  // 1234.56 / 1.0892 = 1133.45574… → 1133.46.
  @Test func anOptionOverridesTheKnownDocumentsChoice() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--date-field", "ValDt/Dt", "-o", "-", Self.statement], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(Self.annotations(result.standardOutput).first?.contains(#"converted="1133.46""#) == true)
    #expect(result.standardError.contains("recognized ISO 20022 camt.053.001.08: amount Amt and its @Ccy]"))
  }

  // UBL invoices and a credit note, one record per file, without options: each converts its PayableAmount and
  // its TaxAmount at its one rate, each rounded once (half-up) to cents:
  //  INV-1001: 1190.00 and 190.00 EUR × 1.0925 = 1300.075 → 1300.08 and 207.575 → 207.58
  //  INV-1002: 600.00 and 100.00 GBP × 1.0892 / 0.8541 = 765.156… → 765.16 and 127.526… → 127.53
  //  INV-1003: 238.00 and 38.00 EUR × 1.0892 (Friday's) = 259.2296 → 259.23 and 41.3896 → 41.39
  //  CN-2001: 119.00 and 19.00 EUR on 2024-03-15 × 1.0892 = 129.6148 → 129.61 and 20.6948 → 20.69
  // An output renamed and converted again is refused: its root ends with an fx element.
  @Test func ublInvoicesAndCreditNotesConvertWithoutOptions() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let files = Self.invoices + [Self.creditNote]
    let result = try cli.run(["convert", "--to", "USD"] + files, in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("4 files, 4 records: 3 ok, 1 fallback, 0 error"), "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "[XML, records <Invoice>, recognized UBL Invoice: amounts LegalMonetaryTotal/PayableAmount and "
          + "TaxTotal/TaxAmount, from-currency LegalMonetaryTotal/PayableAmount/@currencyID (of several, the one in "
          + "that currency), date IssueDate]"), "\(result.standardError)")
    #expect(result.standardError.contains("[XML, records <CreditNote>, recognized UBL CreditNote: amounts "))
    let expected = [
      #"<fx rate="1.0925" converted-PayableAmount="1300.08" converted-TaxAmount="207.58" currency="USD" rate-date="2024-03-14" source="ecb-embedded EUR/USD=1.0925" status="ok" error=""/>"#,
      #"<fx rate="1.275260508" converted-PayableAmount="765.16" converted-TaxAmount="127.53" currency="USD" rate-date="2024-03-15" source="ecb-embedded EUR/GBP=0.8541 EUR/USD=1.0892" status="ok" error=""/>"#,
      #"<fx rate="1.0892" converted-PayableAmount="259.23" converted-TaxAmount="41.39" currency="USD" rate-date="2024-03-15" source="ecb-embedded EUR/USD=1.0892" status="fallback" error=""/>"#,
    ]
    for (name, annotation) in zip(Self.invoices, expected) {
      let converted = name.replacingOccurrences(of: ".xml", with: ".converted.xml")
      let text = try String(contentsOf: directory.url.appendingPathComponent(converted), encoding: .utf8)
      #expect(Self.annotations(text) == [annotation], "\(name)")
    }
    // Each amount reconciled on its own over the four files.
    #expect(
      result.standardError.contains(
        "reconciliation USD fx_converted_PayableAmount, 4 records: sum of rounded amounts 2454.08"),
      "\(result.standardError)")
    #expect(
      result.standardError.contains("reconciliation USD fx_converted_TaxAmount, 4 records: sum of rounded amounts 397.19"))
    let credit = try String(
      contentsOf: directory.url.appendingPathComponent("ubl-creditnote-CN-2001.converted.xml"), encoding: .utf8)
    #expect(
      Self.annotations(credit) == [
        #"<fx rate="1.0892" converted-PayableAmount="129.61" converted-TaxAmount="20.69" currency="USD" rate-date="2024-03-15" source="ecb-embedded EUR/USD=1.0892" status="ok" error=""/>"#
      ])
    try FileManager.default.moveItem(
      at: directory.url.appendingPathComponent("ubl-creditnote-CN-2001.converted.xml"),
      to: directory.url.appendingPathComponent("again.xml"))
    let again = try cli.run(["convert", "--to", "USD", "again.xml"], in: directory.url)
    #expect(again.status == 2)
    #expect(again.standardError.contains("again.xml:4:1: error: the file is already annotated by fxbatch"))
  }

  // An EN 16931 invoice with a tax currency (TaxCurrencyCode SEK) has two TaxTotals: one in SEK (written first
  // here) and one in EUR, the document's currency. The shape reads the one in PayableAmount's currency:
  //  INV-1004: 1250.00 and 250.00 EUR on 2024-03-14 × 1.0925 = 1365.625 → 1365.63 and 273.125 → 273.13 (half-up).
  // TaxCurrencyCode is not a to-currency that --to would pass over. Both TaxTotals in EUR: which is the tax is
  // not said, so the record is invalid_record. The same paths given with --amount-field are the user's own: a
  // path matching twice is invalid_record, no currency rule.
  @Test func ublTaxTotalInThePayableCurrency() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let result = try cli.run(["convert", "--to", "USD", "-o", "-", Self.taxCurrencyInvoice], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      Self.annotations(result.standardOutput) == [
        #"<fx rate="1.0925" converted-PayableAmount="1365.63" converted-TaxAmount="273.13" currency="USD" rate-date="2024-03-14" source="ecb-embedded EUR/USD=1.0925" status="ok" error=""/>"#
      ])

    let text = try String(contentsOf: directory.url.appendingPathComponent(Self.taxCurrencyInvoice), encoding: .utf8)
    try directory.write(text.replacingOccurrences(of: #""SEK">2850.00"#, with: #""EUR">2850.00"#), named: "both-eur.xml")
    let ambiguous = try cli.run(["convert", "--to", "USD", "-o", "-", "both-eur.xml"], in: directory.url)
    #expect(ambiguous.status == 1, "\(ambiguous.standardError)")
    #expect(
      Self.annotations(ambiguous.standardOutput) == [
        #"<fx rate="" converted-PayableAmount="" converted-TaxAmount="" currency="" rate-date="" source="" status="error" error="invalid_record: TaxAmount: &quot;TaxTotal/TaxAmount&quot; matches 2 elements in the record and 2 are in the currency of &quot;LegalMonetaryTotal/PayableAmount&quot; (EUR); fxbatch does not pick one"/>"#
      ])
    let subtotal = #"250.00</cbc:TaxAmount>\#n\#t\#t<cac:TaxSubtotal>"#
    let inGBP = text.replacingOccurrences(of: #""EUR">"# + subtotal, with: #""GBP">"# + subtotal)
    #expect(inGBP != text)
    try directory.write(inGBP, named: "none-eur.xml")
    let none = try cli.run(["convert", "--to", "USD", "-o", "-", "none-eur.xml"], in: directory.url)
    #expect(
      none.standardOutput.contains("matches 2 elements in the record and none is in the currency of"),
      "\(none.standardOutput)")

    let given = try cli.run(
      [
        "convert", "--to", "USD", "-o", "-", "--amount-field", "LegalMonetaryTotal/PayableAmount,TaxTotal/TaxAmount",
        Self.taxCurrencyInvoice,
      ], in: directory.url)
    #expect(given.status == 1, "\(given.standardError)")
    #expect(
      Self.annotations(given.standardOutput).first?.contains(
        "invalid_record: TaxAmount: &quot;TaxTotal/TaxAmount&quot; matches 2 elements in the record; fxbatch does not pick one")
        == true, "\(given.standardOutput)")
  }

  // --amount-field replaces the shape's whole list: the payable amount alone is fx_converted; three amounts
  // including TaxExclusiveAmount (1000.00 EUR × 1.0925 = 1092.50) are converted-NAME each.
  @Test func amountFieldReplacesTheUBLShapesAmounts() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let one = try cli.run(
      ["convert", "--to", "USD", "-o", "-", "--amount-field", "LegalMonetaryTotal/PayableAmount", "INV-1001.xml"],
      in: directory.url)
    #expect(one.status == 0, "\(one.standardError)")
    #expect(
      Self.annotations(one.standardOutput).first?.hasPrefix(#"<fx rate="1.0925" converted="1300.08" currency="USD""#)
        == true)
    #expect(one.standardError.contains("[XML, records <Invoice>, recognized UBL Invoice: date IssueDate]"))
    let three = try cli.run(
      [
        "convert", "--to", "USD", "-o", "-", "--amount-field",
        "LegalMonetaryTotal/PayableAmount,TaxTotal/TaxAmount,net=LegalMonetaryTotal/TaxExclusiveAmount", "INV-1001.xml",
      ], in: directory.url)
    #expect(three.status == 0, "\(three.standardError)")
    let threeAmounts =
      #"<fx rate="1.0925" converted-PayableAmount="1300.08" converted-TaxAmount="207.58" converted-net="1092.50" "#
    #expect(
      Self.annotations(three.standardOutput).first?.hasPrefix(threeAmounts + #"currency="USD""#) == true,
      "\(three.standardOutput)")
  }

  // An invoice without TaxTotal (UBL 2.1 allows it, EN 16931 does not): the shape's TaxTotal/TaxAmount is in no
  // record, a file error whose hint gives the --amount-field that converts what the document has.
  @Test func ublInvoiceWithoutTaxTotalIsAFileErrorWithTheFix() throws {
    let directory = try Self.directory()
    defer { directory.remove() }
    let text = try String(contentsOf: directory.url.appendingPathComponent("INV-1001.xml"), encoding: .utf8)
    let start = try #require(text.range(of: "\t<cac:TaxTotal>"))
    let end = try #require(text.range(of: "</cac:TaxTotal>\n"))
    var untaxed = text
    untaxed.removeSubrange(start.lowerBound..<end.upperBound)
    try directory.write(untaxed, named: "untaxed.xml")
    let result = try cli.run(["convert", "--to", "USD", "-o", "-", "untaxed.xml"], in: directory.url)
    #expect(result.status == 2, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        #"untaxed.xml:4:1: error: --amount-field "TaxTotal/TaxAmount": no record has such a field"#))
    #expect(
      result.standardError.contains(
        "hint: the recognized UBL Invoice converts these amounts; give --amount-field with the ones the document has, "
          + "e.g. --amount-field LegalMonetaryTotal/PayableAmount"), "\(result.standardError)")
    let fixed = try cli.run(
      ["convert", "--to", "USD", "-o", "-", "--amount-field", "LegalMonetaryTotal/PayableAmount", "untaxed.xml"],
      in: directory.url)
    #expect(fixed.status == 0, "\(fixed.standardError)")
  }
}
