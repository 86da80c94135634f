import FXBatchTestSupport
import Foundation
import Testing

/// Runs the built `fxbatch` on spreadsheet and ledger amounts (fxbatch issue 6): locale-formatted numbers,
/// accounting negatives, currency symbols and codes, `--alias`, `--symbol`, `--output-decimal-separator`.
///
/// Rates: a `--rates` file with 2019-12-31 EUR/USD 1.1234 and EUR/CNY 7.8205. Expected values by hand:
///   EUR→USD = amount × 1.1234; USD→EUR = amount ÷ 1.1234, whose rate 1 ÷ 1.1234 = 0.890154886950… is shown to
///   10 significant digits, 0.8901548870, written without its trailing zero.
@Suite("fxbatch end to end: amounts")
struct EndToEndAmountTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let rates = "date,base,quote,rate\n2019-12-31,EUR,USD,1.1234\n2019-12-31,EUR,CNY,7.8205\n"
  static let euroSource = "2019-12-31;file:rates.csv EUR/USD=1.1234"

  // A `;` file whose amounts prove a decimal comma (10,00 €, 1.355,90, 20,00, -0,01):
  //   "10,00 €" → 10.00 × 1.1234 = 11.234      → 11.23
  //   1.355,90  → 1355.90 × 1.1234 = 1523.21806 → 1523.22
  //   1.000     → 1000 × 1.1234 = 1123.4        → 1123.40 (one thousand in a decimal-comma file)
  //   173,900   → 173.900 × 1.1234 = 195.35926  → 195.36
  //   20,00     → 20.00 × 1.1234 = 22.468       → 22.47 (the Firefly III fixture's cells)
  //   -0,01     → −0.01 × 1.1234 = −0.011234    → −0.01
  @Test func decimalCommaFileWithSymbolsAndCodes() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write(
      "bank.csv",
      """
      date;amount;from;to
      2019-12-31;"10,00 €";EUR;USD
      2019-12-31;1.355,90;EUR;USD
      2019-12-31;1.000;EUR;USD
      2019-12-31;173,900;EUR;USD
      2019-12-31;20,00;eur;USD
      2019-12-31;-0,01;€;USD
      2019-12-31;$5;EUR;USD
      2019-12-31;5;RMB;USD
      2019-12-31;5;$;USD
      2019-12-31;;EUR;USD
      2019-12-31;1,2,3;EUR;USD

      """)
    let result = try cli.run(["convert", "--rates", "rates.csv", "bank.csv"], in: directory.url)
    #expect(result.status == 1)
    let lines = try directory.read("bank.converted.csv").split(separator: "\n").map(String.init)
    let ok = ";1.1234;"
    let tail = ";USD;\(Self.euroSource);ok;"
    #expect(lines[1] == "2019-12-31;\"10,00 €\";EUR;USD\(ok)11.23\(tail)")
    #expect(lines[2] == "2019-12-31;1.355,90;EUR;USD\(ok)1523.22\(tail)")
    #expect(lines[3] == "2019-12-31;1.000;EUR;USD\(ok)1123.40\(tail)")
    #expect(lines[4] == "2019-12-31;173,900;EUR;USD\(ok)195.36\(tail)")
    #expect(lines[5] == "2019-12-31;20,00;eur;USD\(ok)22.47\(tail)")
    #expect(lines[6] == "2019-12-31;-0,01;€;USD\(ok)-0.01\(tail)")
    #expect(
      lines[7]
        == #"2019-12-31;$5;EUR;USD;;;USD;;;error;"invalid_amount: ""$5"": $ is the symbol of USD, CAD, AUD, …, not of EUR, the record's from-currency""#
    )
    #expect(
      lines[8].hasPrefix(#"2019-12-31;5;RMB;USD;;;USD;;;error;"unknown_currency: ""RMB"" is not an ISO 4217 currency code"#))
    #expect(lines[8].contains("--alias RMB=CNY"))
    #expect(
      lines[9]
        == #"2019-12-31;5;$;USD;;;USD;;;error;"ambiguous_currency: ""$"" is the symbol of several currencies (USD, CAD, AUD, …); say which with --symbol '$=USD'""#
    )
    #expect(lines[10] == "2019-12-31;;EUR;USD;;;USD;;;error;missing_field: the amount is empty")
    #expect(
      lines[11]
        == #"2019-12-31;1,2,3;EUR;USD;;;USD;;;error;"invalid_amount: ""1,2,3"" has more than one decimal comma, the file's decimal mark""#
    )
    #expect(
      result.standardError.contains(
        "bank.csv -> bank.converted.csv: 11 records: 6 ok, 0 fallback, 5 error (ambiguous_currency 1, invalid_amount 2, missing_field 1, unknown_currency 1) [delimiter ;, decimal comma (inferred from the amounts)]"
      ))

    // With --alias RMB=CNY and --symbol '$=USD':
    //   5 CNY→USD = 5 × 1.1234 ÷ 7.8205 = 0.71824052… → 0.72; rate 1.1234 ÷ 7.8205 = 0.143648104341… → 0.1436481043
    //   5 $ = 5 USD→USD at rate 1 → 5.00; $5 in a EUR record still disagrees ($ is USD here).
    let named = try cli.run(
      ["convert", "--rates", "rates.csv", "--alias", "RMB=CNY", "--symbol", "$=USD", "-q", "-o", "-", "bank.csv"],
      in: directory.url)
    let namedLines = named.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      namedLines[7].contains(
        #""invalid_amount: ""$5"" is an amount in USD (--symbol $=USD), but the record's from-currency is EUR""#))
    #expect(
      namedLines[8] == "2019-12-31;5;RMB;USD;0.1436481043;0.72;USD;2019-12-31;file:rates.csv EUR/CNY=7.8205 EUR/USD=1.1234;ok;")
    #expect(namedLines[9] == "2019-12-31;5;$;USD;1;5.00;USD;2019-12-31;same currency;ok;")
  }

  // A `;` file whose amounts prove a decimal point ($1,200.00, (123.45), 12.50-), USD→EUR at ÷ 1.1234:
  //   ($30.00)  → −30 ÷ 1.1234 = −26.704646…       → −26.70
  //   (123.45)  → −123.45 ÷ 1.1234 = −109.889620…  → −109.89
  //   12.50-    → −12.50 ÷ 1.1234 = −11.126936…    → −11.13
  //   –1123.04  → −1123.04 ÷ 1.1234 = −999.679544… → −999.68 (U+2013 en dash read as a minus sign)
  //   −5        → −5 ÷ 1.1234 = −4.450774…         → −4.45 (U+2212 minus sign)
  //   (-5)      → two signs: invalid_amount
  //   $1,200.00 → 1200 ÷ 1.1234 = 1068.185864…     → 1068.19 ($ in a USD record, no --symbol needed)
  //   $+1500    → 1500 ÷ 1.1234 = 1335.232330…     → 1335.23
  @Test func accountingNegativesAndDollarSigns() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write(
      "ledger.csv",
      """
      date;amount;currency;target
      2019-12-31;($30.00);USD;EUR
      2019-12-31;(123.45);USD;EUR
      2019-12-31;12.50-;USD;EUR
      2019-12-31;\u{2013}1123.04;USD;EUR
      2019-12-31;\u{2212}5;USD;EUR
      2019-12-31;(-5);USD;EUR
      2019-12-31;$1,200.00;USD;EUR
      2019-12-31;$+1500;USD;EUR

      """)
    let result = try cli.run(["convert", "--rates", "rates.csv", "-q", "-o", "-", "ledger.csv"], in: directory.url)
    #expect(result.status == 1)
    let rate = ";0.890154887;"
    let tail = ";EUR;2019-12-31;file:rates.csv EUR/USD=1.1234;ok;"
    #expect(
      result.standardOutput.split(separator: "\n").map(String.init) == [
        "date;amount;currency;target;fx_rate;fx_converted;fx_currency;fx_rate_date;fx_source;fx_status;fx_error",
        "2019-12-31;($30.00);USD;EUR\(rate)-26.70\(tail)",
        "2019-12-31;(123.45);USD;EUR\(rate)-109.89\(tail)",
        "2019-12-31;12.50-;USD;EUR\(rate)-11.13\(tail)",
        "2019-12-31;\u{2013}1123.04;USD;EUR\(rate)-999.68\(tail)",
        "2019-12-31;\u{2212}5;USD;EUR\(rate)-4.45\(tail)",
        #"2019-12-31;(-5);USD;EUR;;;EUR;;;error;"invalid_amount: ""(-5)"" has two signs (a minus sign or parentheses, not both)""#,
        "2019-12-31;$1,200.00;USD;EUR\(rate)1068.19\(tail)",
        "2019-12-31;$+1500;USD;EUR\(rate)1335.23\(tail)",
      ])

    // The same with --symbol '$=USD' and the numbers written back with a decimal comma: in a `,` file the
    // writer quotes them.
    try directory.write(
      "ledger-comma.csv", "date,amount,currency,target\n2019-12-31,\"$1,200.00\",USD,EUR\n2019-12-31,(123.45),USD,EUR\n")
    let comma = try cli.run(
      [
        "convert", "--rates", "rates.csv", "--symbol", "$=USD", "--output-decimal-separator", ",", "-q", "-o", "-",
        "ledger-comma.csv",
      ],
      in: directory.url)
    #expect(comma.status == 0)
    #expect(
      comma.standardOutput.split(separator: "\n").dropFirst().map(String.init) == [
        #"2019-12-31,"$1,200.00",USD,EUR,"0,890154887","1068,19",EUR,2019-12-31,file:rates.csv EUR/USD=1.1234,ok,"#,
        #"2019-12-31,(123.45),USD,EUR,"0,890154887","-109,89",EUR,2019-12-31,file:rates.csv EUR/USD=1.1234,ok,"#,
      ])
  }

  // A tab file whose amounts do not show their decimal mark: the cells that depend on it are refused until
  // --decimal-separator says which (1,000 → 1000 USD→EUR = 1000 ÷ 1.1234 = 890.154886… → 890.15).
  @Test func undecidedDecimalMarkIsRefusedUntilGiven() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("tab.tsv", "date\tamount\tfrom\tto\n2019-12-31\t1,000\tUSD\tEUR\n2019-12-31\t12\tUSD\tEUR\n")
    let refused = try cli.run(["convert", "--rates", "rates.csv", "-o", "-", "tab.tsv"], in: directory.url)
    #expect(refused.status == 1)
    #expect(refused.standardOutput.contains("give --decimal-separator"))
    #expect(
      refused.standardError.contains(
        "[delimiter tab, decimal mark undecided: amounts like 1,234 are refused; give --decimal-separator]"))
    let given = try cli.run(
      ["convert", "--rates", "rates.csv", "--decimal-separator", ".", "-q", "-o", "-", "tab.tsv"], in: directory.url)
    #expect(given.status == 0)
    #expect(given.standardOutput.contains("2019-12-31\t1,000\tUSD\tEUR\t0.890154887\t890.15\t"))
  }

  // fxbatch issue 13: one stray `12.50` in a decimal-comma column. Three cells prove a comma (1.234,56, 12,50,
  // 3,75) and one a point (12.50), so the column is decimal-comma and only the 12.50 row is an error, naming both
  // readings. Embedded ECB rates, 2024-03-15 EUR/USD 1.0892, rounded half-up to 2 decimals:
  //   1.234,56 → 1234.56 × 1.0892 = 1344.682752 → 1344.68
  //   12,50    → 12.50 × 1.0892 = 13.615        → 13.62
  //   3,75     → 3.75 × 1.0892 = 4.0845         → 4.08
  //   1.000    → 1000 × 1.0892 = 1089.2         → 1089.20 (one thousand: the dot groups digits in this column)
  //   7        → 7 × 1.0892 = 7.6244            → 7.62
  @Test func strayDecimalPointInADecimalCommaColumn() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let cells = ["1.234,56", "12,50", "3,75", "12.50", "1.000", "7"]
    let converted = ["1344.68", "13.62", "4.08", nil, "1089.20", "7.62"]
    let stray =
      "ambiguous_amount: \"\"12.50\"\" is 12.50 with a decimal point, but most amounts in the file show a decimal comma, with which it is not a number (\"\".\"\" must group digits in threes)"
    let source = "ecb-embedded EUR/USD=1.0892"
    for delimiter in [";", ","] {
      let quote = delimiter == "," ? "\"" : ""
      try directory.write(
        "bank.csv",
        (["date\(delimiter)amount\(delimiter)from\(delimiter)to"]
          + cells.map { "2024-03-15\(delimiter)\(quote)\($0)\(quote)\(delimiter)EUR\(delimiter)USD" })
          .joined(separator: "\n") + "\n")
      let result = try cli.run(["convert", "bank.csv"], in: directory.url)
      #expect(result.status == 1)
      let lines = try directory.read("bank.converted.csv").split(separator: "\n").dropFirst().map(String.init)
      try #require(lines.count == cells.count)
      for (index, cell) in cells.enumerated() {
        let input = ["2024-03-15", "\(quote)\(cell)\(quote)", "EUR", "USD"]
        let annotation =
          converted[index].map { ["1.0892", $0, "USD", "2024-03-15", source, "ok", ""] }
          ?? ["", "", "USD", "", "", "error", "\"\(stray)\""]
        #expect(lines[index] == (input + annotation).joined(separator: delimiter), "\(delimiter) \(cell)")
      }
      #expect(result.standardError.contains("6 records: 5 ok, 0 fallback, 1 error (ambiguous_amount 1)"))
      #expect(result.standardError.contains("decimal comma (inferred from the amounts)"))
    }
    // Given with --decimal-separator, the mark is no evidence against the cell: 12.50 is simply not a number.
    let given = try cli.run(["convert", "--decimal-separator", ",", "-o", "-", "bank.csv"], in: directory.url)
    #expect(given.status == 1)
    #expect(given.standardOutput.contains(#"invalid_amount: ""12.50"" does not read with a decimal comma"#))
    #expect(given.standardError.contains("6 records: 5 ok, 0 fallback, 1 error (invalid_amount 1)"))
  }

  // The same column as JSON Lines string amounts (numbers always have a decimal point and prove nothing).
  @Test func strayDecimalPointInJSONStringAmounts() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let amounts = [#""1.234,56""#, #""12,50""#, #""3,75""#, #""12.50""#, "12.5"]
    try directory.write(
      "in.jsonl",
      amounts.map { #"{"date":"2024-03-15","amount":\#($0),"from":"EUR","to":"USD"}"# }.joined(separator: "\n") + "\n")
    let result = try cli.run(["convert", "in.jsonl", "-o", "-"], in: directory.url)
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    try #require(lines.count == amounts.count)
    // 1234.56 × 1.0892 → 1344.68; 12.50 × 1.0892 → 13.62; 3.75 × 1.0892 → 4.08; the number 12.5 × 1.0892 = 13.615
    // → 13.62.
    for (index, expected) in [(0, "1344.68"), (1, "13.62"), (2, "4.08"), (4, "13.62")] {
      #expect(lines[index].contains(#""fx_converted":"\#(expected)""#), "\(lines[index])")
    }
    #expect(lines[3].contains(#""fx_status":"error""#))
    #expect(lines[3].contains(#"ambiguous_amount: \"12.50\" is 12.50 with a decimal point"#), "\(lines[3])")
  }

  @Test(arguments: [
    (["--alias", "USD=EUR"], "fxbatch: error: --alias USD=EUR: USD is an ISO 4217 code already"),
    (["--alias", "RMB=XYZ"], "fxbatch: error: --alias RMB=XYZ: XYZ is not an ISO 4217 currency code"),
    (["--alias", "RMB"], "fxbatch: error: --alias RMB: expected RMB=CNY"),
    (["--alias", "RMB=CNY", "--alias", "rmb=USD"], "fxbatch: error: --alias rmb is given as both CNY and USD"),
    (["--symbol", "$"], "fxbatch: error: --symbol $: expected '$=USD'"),
    (["--output-decimal-separator", ";"], "fxbatch: error: --output-decimal-separator ;: expected . or ,"),
    (["--decimal-separator", ",", "--decimal-separator", ","], "fxbatch: error: --decimal-separator is given twice"),
  ])
  func badCurrencyOptionsAreUsageErrors(options: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let result = try cli.run(["convert"] + options + ["in.csv"], in: directory.url)
    #expect(result.status == 64)
    #expect(result.standardError.hasPrefix(message))
  }

  @Test func repeatedAliasesAndSymbolsAreAllUsed() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("in.csv", "amount,from,to\n5,RMB,CNY\n5,NTD,EUR\n5,kr,EUR\n5,¥,CNY\n")
    // Same-currency rows (RMB→CNY, ¥→CNY) convert at rate 1; NTD and kr are named but have no rate here.
    let result = try cli.run(
      [
        "convert", "--rates", "rates.csv", "--alias", "RMB=CNY", "--alias", "NTD=TWD", "--symbol", "kr=SEK", "--symbol", "¥=CNY",
        "-q", "-o", "-", "in.csv",
      ], in: directory.url)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines[1] == "5,RMB,CNY,1,5.00,CNY,2019-12-31,same currency,ok,")
    #expect(lines[2].contains(",error,no_rate:"))
    #expect(lines[3].contains(",error,no_rate:"))
    #expect(lines[4] == "5,¥,CNY,1,5.00,CNY,2019-12-31,same currency,ok,")
  }
}
