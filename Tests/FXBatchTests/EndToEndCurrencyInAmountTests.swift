import FXBatchTestSupport
import Foundation
import Testing

/// Runs the built `fxbatch` on files whose amounts carry their currency and that have no currency field (fxbatch
/// issue 32, "Currency in the amount"), and on headers in other languages (issue 32, "Header names"): CSV, JSON
/// Lines and XLSX.
///
/// Rates: a `--rates` file of 2024-03-15 with EUR/USD 1.09, EUR/JPY 162, EUR/GBP 0.85. Expected values by hand:
///   USD 1,234.56 → EUR: 1234.56 ÷ 1.09 = 1132.6238…          → 1132.62
///   -JPY 49,488,402 → EUR: −49488402 ÷ 162 = −305483.962962… → −305483.96 (JPY -49,488,402 the same)
///   €12.50 → USD: 12.50 × 1.09 = 13.625                       → 13.63 (half-up)
///   £7.00 → EUR: 7 ÷ 0.85 = 8.235294…                         → 8.24
///   1.234,56 EUR → USD: 1234.56 × 1.09 = 1345.6704            → 1345.67
///   $5.00 (--symbol '$=USD') → EUR: 5 ÷ 1.09 = 4.587155…      → 4.59
///   EUR 5 → USD: 5 × 1.09 = 5.45
@Suite("fxbatch end to end: currency in the amount, header names")
struct EndToEndCurrencyInAmountTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = "date,base,quote,rate\n2024-03-15,EUR,USD,1.09\n2024-03-15,EUR,JPY,162\n2024-03-15,EUR,GBP,0.85\n"

  /// The issue's amounts in a file with no currency column.
  static let pasted = """
    date,amount,to
    2024-03-15,"USD 1,234.56",EUR
    2024-03-15,"-JPY 49,488,402",EUR
    2024-03-15,"JPY -49,488,402",EUR
    2024-03-15,€12.50,USD
    2024-03-15,£7.00,EUR
    2024-03-15,$5.00,EUR
    2024-03-15,12.50,EUR

    """

  /// The data lines of a converted CSV file.
  private func records(_ directory: TemporaryDirectory, _ name: String) throws -> [String] {
    Array(try directory.read(name).split(separator: "\n").map(String.init).dropFirst())
  }

  @Test func csvWithoutCurrencyColumn() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("pasted.csv", Self.pasted)
    let result = try cli.run(["convert", "--rates", "rates.csv", "pasted.csv"], in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "pasted.csv -> pasted.converted.csv: 7 records: 5 ok, 0 fallback, 2 error (ambiguous_currency 1, missing_field 1)"
          + " [fields: amount=amount, from=(in the amount), to=to, date=date]"), "\(result.standardError)")
    let lines = try records(directory, "pasted.converted.csv")
    try #require(lines.count == 7)
    #expect(lines[0].contains(",1132.62,EUR,2024-03-15,"), "\(lines[0])")
    #expect(lines[1].contains(",-305483.96,EUR,2024-03-15,"), "\(lines[1])")
    #expect(lines[2].contains(",-305483.96,EUR,2024-03-15,"), "\(lines[2])")
    #expect(lines[3].contains(",13.63,USD,2024-03-15,"), "\(lines[3])")
    #expect(lines[4].contains(",8.24,EUR,2024-03-15,"), "\(lines[4])")
    #expect(
      lines[5].contains(
        #"ambiguous_currency: ""$5.00"": $ is the symbol of several currencies (USD, CAD, AUD, …) and the record has no from-currency; say which with --symbol '$=USD'"#
      ), "\(lines[5])")
    #expect(
      lines[6].contains(
        "missing_field: the record has no from-currency field and its amount names no currency (as USD 12.50 or €12.50 would); use --from-field NAME or --from CODE"
      ), "\(lines[6])")

    // --symbol says what `$` means.
    let symbol = try cli.run(["convert", "--rates", "rates.csv", "--symbol", "$=USD", "pasted.csv"], in: directory.url)
    #expect(symbol.standardError.contains("7 records: 6 ok, 0 fallback, 1 error (missing_field 1)"), "\(symbol.standardError)")
    #expect(try records(directory, "pasted.converted.csv")[5].contains(",4.59,EUR,2024-03-15,"))
  }

  /// A currency field and the amount's currency: the same is fine, another is the record's error, an empty field
  /// takes the amount's.
  @Test func currencyFieldAndAmountCurrency() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write(
      "mixed.csv",
      """
      date,amount,currency,to
      2024-03-15,EUR 5,EUR,USD
      2024-03-15,5 USD,EUR,USD
      2024-03-15,€12.50,,USD
      2024-03-15,12.50,,USD

      """)
    let result = try cli.run(["convert", "--rates", "rates.csv", "mixed.csv"], in: directory.url)
    #expect(result.standardError.contains("4 records: 2 ok, 0 fallback, 2 error (invalid_amount 1, missing_field 1)"))
    let lines = try records(directory, "mixed.converted.csv")
    try #require(lines.count == 4)
    #expect(lines[0].contains(",5.45,USD,2024-03-15,"), "\(lines[0])")
    #expect(
      lines[1].contains(#"invalid_amount: ""5 USD"" is an amount in USD, but the record's from-currency is EUR"#),
      "\(lines[1])")
    #expect(lines[2].contains(",13.63,USD,2024-03-15,"), "\(lines[2])")
    #expect(lines[3].contains("missing_field: the from-currency is empty and the amount names no currency"), "\(lines[3])")
  }

  /// A German export: `;`, decimal commas, the code after the number, and the names Datum, Betrag and Ziel
  /// found without options (and said in the summary).
  @Test func germanHeaderAndDecimalComma() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write(
      "konto.csv", "Datum;Verwendungszweck;Betrag;Ziel\n15.03.2024;Miete;1.234,56 EUR;USD\n15.03.2024;Kaffee;£7,00;EUR\n")
    let result = try cli.run(["convert", "--rates", "rates.csv", "konto.csv"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "konto.csv -> konto.converted.csv: 2 records: 2 ok, 0 fallback, 0 error [delimiter ;, decimal comma (inferred from the amounts)] [fields: amount=Betrag, from=(in the amount), to=Ziel, date=Datum]"
      ), "\(result.standardError)")
    let lines = try records(directory, "konto.converted.csv")
    try #require(lines.count == 2)
    #expect(lines[0].contains(";1345.67;USD;2024-03-15;"), "\(lines[0])")
    #expect(lines[1].contains(";8.24;EUR;2024-03-15;"), "\(lines[1])")

    // Every field given by an option: no `[fields: …]`.
    let named = try cli.run(
      [
        "convert", "--rates", "rates.csv", "--amount-field", "Betrag", "--to-field", "Ziel", "--date-field", "Datum", "konto.csv",
      ],
      in: directory.url)
    #expect(named.standardError.contains("(inferred from the amounts)]\n"), "\(named.standardError)")
    #expect(!named.standardError.contains("[fields:"))
  }

  /// A column of currency codes under a name fxbatch does not know is not passed over when no from-currency field
  /// is found.
  @Test func unknownCurrencyColumnIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("valuta.csv", "date,amount,Valuta,to\n2024-03-15,5,USD,EUR\n")
    let result = try cli.run(["convert", "--rates", "rates.csv", "valuta.csv"], in: directory.url)
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        #"valuta.csv:1:1: error: no from-currency field is recognised, but the field "Valuta" holds currency codes ("USD")"#),
      "\(result.standardError)")
    #expect(result.standardError.contains("hint: use --from-field Valuta to read each record's currency from it"))

    // Amounts that name their currencies need no currency field: another column of codes is not refused.
    try directory.write("fees.csv", "date,amount,fee_currency,to\n2024-03-15,USD 1234.56,GBP,EUR\n")
    let fees = try cli.run(["convert", "--rates", "rates.csv", "fees.csv"], in: directory.url)
    #expect(fees.status == 0, "\(fees.standardError)")
    #expect(try records(directory, "fees.converted.csv").first?.contains(",1132.62,EUR,2024-03-15,") == true)

    // The same in a sheet: refused with plain amounts, converted with amounts naming their currencies.
    for (amount, status) in [("5", Int32(2)), ("USD 1234.56", 0)] {
      let rows = [
        "<row r=\"1\">" + XLSXOnePassTests.text("A1", "date") + XLSXOnePassTests.text("B1", "amount")
          + XLSXOnePassTests.text("C1", "Valuta") + XLSXOnePassTests.text("D1", "to") + "</row>",
        "<row r=\"2\">" + XLSXOnePassTests.text("A2", "2024-03-15") + XLSXOnePassTests.text("B2", amount)
          + XLSXOnePassTests.text("C2", "USD") + XLSXOnePassTests.text("D2", "EUR") + "</row>",
      ]
      _ = try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(rows), in: directory, "valuta")
      let sheet = try cli.run(["convert", "--rates", "rates.csv", "valuta.xlsx"], in: directory.url)
      #expect(sheet.status == status, "\(amount): \(sheet.standardError)")
      if status == 2 { #expect(sheet.standardError.contains(#"the field "Valuta" holds currency codes"#)) }
    }
  }

  @Test func jsonLinesWithoutCurrencyMember() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write(
      "pasted.jsonl",
      """
      {"date":"2024-03-15","amount":"USD 1,234.56","to":"EUR"}
      {"date":"2024-03-15","amount":"-JPY 49,488,402","to":"EUR"}
      {"date":"2024-03-15","amount":"€12.50","to":"USD"}
      {"date":"2024-03-15","amount":"¥100","to":"USD"}
      {"date":"2024-03-15","amount":12.5,"to":"USD"}
      {"date":"2024-03-15","amount":"£7.00","currency":"EUR","to":"USD"}

      """)
    let result = try cli.run(["convert", "--rates", "rates.csv", "pasted.jsonl"], in: directory.url)
    #expect(
      result.standardError.contains(
        "6 records: 3 ok, 0 fallback, 3 error (ambiguous_currency 1, invalid_amount 1, missing_field 1)"),
      "\(result.standardError)")
    let lines = try directory.read("pasted.converted.jsonl").split(separator: "\n").map(String.init)
    try #require(lines.count == 6)
    #expect(lines[0].contains(#""fx_converted":"1132.62""#), "\(lines[0])")
    #expect(lines[1].contains(#""fx_converted":"-305483.96""#), "\(lines[1])")
    #expect(lines[2].contains(#""fx_converted":"13.63""#), "\(lines[2])")
    #expect(lines[3].contains("ambiguous_currency"), "\(lines[3])")
    #expect(lines[4].contains("missing_field: the record has no from-currency field"), "\(lines[4])")
    #expect(lines[5].contains("is an amount in GBP (£), but the record's from-currency is EUR"), "\(lines[5])")
  }

  /// A sheet with text amounts carrying their currency and a Spanish header.
  @Test func xlsxWithoutCurrencyColumn() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    let rows = [
      "<row r=\"1\">" + XLSXOnePassTests.text("A1", "Fecha") + XLSXOnePassTests.text("B1", "Importe")
        + XLSXOnePassTests.text("C1", "Moneda destino") + "</row>",
      "<row r=\"2\">" + XLSXOnePassTests.text("A2", "2024-03-15") + XLSXOnePassTests.text("B2", "USD 1,234.56")
        + XLSXOnePassTests.text("C2", "EUR") + "</row>",
      "<row r=\"3\">" + XLSXOnePassTests.text("A3", "2024-03-15") + XLSXOnePassTests.text("B3", "JPY -49,488,402")
        + XLSXOnePassTests.text("C3", "EUR") + "</row>",
      "<row r=\"4\">" + XLSXOnePassTests.text("A4", "2024-03-15") + XLSXOnePassTests.text("B4", "£7.00")
        + XLSXOnePassTests.text("C4", "EUR") + "</row>",
      "<row r=\"5\">" + XLSXOnePassTests.text("A5", "2024-03-15") + XLSXOnePassTests.number("B5", "12.5")
        + XLSXOnePassTests.text("C5", "EUR") + "</row>",
    ]
    _ = try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(rows), in: directory, "pasted")
    let result = try cli.run(["convert", "--rates", "rates.csv", "pasted.xlsx"], in: directory.url)
    #expect(
      result.standardError.contains(
        "pasted.xlsx -> pasted.converted.xlsx: 4 records: 3 ok, 0 fallback, 1 error (missing_field 1) [XLSX] [fields: amount=Importe, to=Moneda destino, date=Fecha]"
      ), "\(result.standardError)")
    // 1132.62 − 305483.96 + 8.24 = −304343.10
    #expect(
      result.standardError.contains("reconciliation EUR, 3 records: sum of rounded amounts -304343.10"), "\(result.standardError)"
    )
  }
}
