import FXBatchTestSupport
import Testing

@testable import FXBatch

private let usd = CurrencyCode(packed: 0x55_53_44)
private let cad = CurrencyCode(packed: 0x43_41_44)
private let cny = CurrencyCode(packed: 0x43_4E_59)

/// Every rule of the amount parser (fxbatch issue 6, "Amounts") as a table of cell → value or error code.
/// Expected values are the cells' digits read by hand.
@Suite("AmountParser")
struct AmountParserTests {
  private let point = AmountParser(decimalMark: .point)
  private let comma = AmountParser(decimalMark: .comma)

  /// The error code of a cell that must be refused, or `nil` (with an issue recorded) when it was accepted.
  private func refusal(
    _ parser: AmountParser, _ text: String, currency: CurrencyCode? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) -> RowError? {
    switch parser.parse(text, currency: currency) {
    case .success(let value):
      Issue.record("\(text) should be refused, not read as \(value)", sourceLocation: sourceLocation)
      return nil
    case .failure(let error): return error
    }
  }

  @Test(
    "plain amounts with a decimal point",
    arguments: [
      ("12", "12"), ("-12.50", "-12.50"), ("+0.5", "0.5"), (".5", "0.5"), (" 12.50 ", "12.50"), ("12.", "12"),
      ("\u{00A0}12.50\u{00A0}", "12.50"), ("\t-0.01\n", "-0.01"), ("1.234", "1.234"), ("0.001", "0.001"),
    ] as [(String, String)])
  func pointAmounts(text: String, expected: String) throws {
    #expect(try point.parse(text).get().description == expected)
  }

  @Test(
    "plain amounts with a decimal comma",
    arguments: [
      ("12,50", "12.50"), ("-0,01", "-0.01"), ("20,00", "20.00"), ("12", "12"), (",5", "0.5"), (" 1000,5 ", "1000.5"),
      ("0,500", "0.500"),
    ] as [(String, String)])
  func commaAmounts(text: String, expected: String) throws {
    #expect(try comma.parse(text).get().description == expected)
  }

  @Test("12,50 under a decimal comma is exactly 12.50")
  func commaIsExact() throws {
    #expect(try comma.parse("12,50").get() == ExactDecimal(significand: 1250, scale: 2))
  }

  // Digit grouping: the separator that is not the decimal mark, one kind per cell, groups of three or Indian
  // groups (3 last, 2 before).
  @Test(
    "digit grouping with a decimal point",
    arguments: [
      ("1,234", "1234"), ("1,234.56", "1234.56"), ("1,234,567.89", "1234567.89"), ("12,34,567.89", "1234567.89"),
      ("1,23,45,678", "12345678"), ("1'234.50", "1234.50"), ("1 234.50", "1234.50"), ("1\u{00A0}234\u{00A0}567", "1234567"),
      ("1\u{202F}234.5", "1234.5"), ("-1,000", "-1000"), ("999,999", "999999"),
    ] as [(String, String)])
  func pointGrouping(text: String, expected: String) throws {
    #expect(try point.parse(text).get().description == expected)
  }

  @Test(
    "digit grouping with a decimal comma",
    arguments: [
      ("1.000", "1000"), ("1.355,90", "1355.90"), ("1.234.567,89", "1234567.89"), ("1 234,56", "1234.56"),
      ("1\u{00A0}234,56", "1234.56"), ("1\u{202F}234\u{202F}567,8", "1234567.8"), ("1'234,5", "1234.5"), ("173,900", "173.900"),
      ("12.34.567,89", "1234567.89"),
    ] as [(String, String)])
  func commaGrouping(text: String, expected: String) throws {
    #expect(try comma.parse(text).get().description == expected)
  }

  // Signs: leading + - U+2212 U+2013, trailing minus, accounting parentheses; exactly one of them.
  @Test(
    "signs and accounting negatives",
    arguments: [
      ("(123.45)", "-123.45"), ("( 123.45 )", "-123.45"), ("12.50-", "-12.50"), ("12.50 -", "-12.50"), ("\u{2212}5", "-5"),
      ("5\u{2212}", "-5"), ("\u{2013}1123.04", "-1123.04"), ("1123.04\u{2013}", "-1123.04"), ("- 5", "-5"), ("+1,500", "1500"),
      ("(1,234.56)", "-1234.56"), ("-0", "0"),
    ] as [(String, String)])
  func signs(text: String, expected: String) throws {
    #expect(try point.parse(text).get().description == expected)
  }

  // A symbol or ISO code before or after the number, with or without a space; checked against the record's
  // from-currency (`nil`: the record has none, so any known mark passes).
  @Test(
    "currency symbols and codes",
    arguments: [
      ("$1,200.00", usd, "1200.00"), ("($30.00)", usd, "-30.00"), ("$(30.00)", usd, "-30.00"), ("-$5", usd, "-5"),
      ("$-5", usd, "-5"), ("$+1500", usd, "1500"), ("USD 5", usd, "5"), ("5 USD", usd, "5"), ("usd5", usd, "5"),
      ("US$ 12.50", usd, "12.50"), ("5 $", usd, "5"), ("$5", cad, "5"), ("5 EUR", .euro, "5"),
      ("€5", .euro, "5"), ("5€", .euro, "5"), ("12.50- EUR", .euro, "-12.50"), ("¥500", cny, "500"), ("€5", nil, "5"),
    ] as [(String, CurrencyCode?, String)])
  func currencyMarks(text: String, currency: CurrencyCode?, expected: String) throws {
    #expect(try point.parse(text, currency: currency).get().description == expected)
  }

  @Test(
    "currency marks with a decimal comma",
    arguments: [
      ("1.200,00 €", "1200.00"), ("10,00 €", "10.00"), ("€ 1.234,5", "1234.5"), ("-1.200,00 EUR", "-1200.00"),
      ("1\u{00A0}200,00\u{00A0}€", "1200.00"),
    ] as [(String, String)])
  func commaCurrencyMarks(text: String, expected: String) throws {
    #expect(try comma.parse(text, currency: .euro).get().description == expected)
  }

  @Test(
    "symbols of several currencies follow --symbol",
    arguments: [
      ("$5", usd, true), ("$5", cad, false), ("USD 5", usd, true), ("kr 5", usd, false),
    ] as [(String, CurrencyCode, Bool)])
  func symbolOption(text: String, currency: CurrencyCode, accepted: Bool) throws {
    let parser = AmountParser(decimalMark: .point, currencies: CurrencyResolver(symbols: ["$": usd]))
    switch parser.parse(text, currency: currency) {
    case .success(let value):
      #expect(accepted, "\(text) in a \(currency) record")
      #expect(value.description == "5")
    case .failure(let error):
      #expect(!accepted, "\(text) in a \(currency) record: \(error)")
      #expect(error.code == .invalidAmount)
    }
  }

  // Refusals, each with its code: never a silently shifted value.
  @Test(
    "cells that are refused",
    arguments: [
      // double signs
      ("(-5)", DecimalMark.point, usd, RowError.Code.invalidAmount), ("-(5)", .point, usd, .invalidAmount),
      ("+-5", .point, usd, .invalidAmount), ("-5-", .point, usd, .invalidAmount), ("(5-)", .point, usd, .invalidAmount),
      ("(+5)", .point, usd, .invalidAmount), ("5+", .point, usd, .invalidAmount),
      // parentheses
      ("(5", .point, usd, .invalidAmount), ("5)", .point, usd, .invalidAmount), ("((5))", .point, usd, .invalidAmount),
      (")5(", .point, usd, .invalidAmount),
      // letters and other text
      ("abc", .point, usd, .invalidAmount), ("1e5", .point, usd, .invalidAmount), ("12a34", .point, usd, .invalidAmount),
      ("N/A", .point, usd, .invalidAmount), ("=1+2", .point, usd, .invalidAmount), ("10-20", .point, usd, .invalidAmount),
      ("5 pcs", .point, usd, .invalidAmount), ("\u{2014}5", .point, usd, .invalidAmount), ("-", .point, usd, .invalidAmount),
      ("$", .point, usd, .invalidAmount), ("()", .point, usd, .invalidAmount),
      // two decimal marks, marks that contradict the file's mark
      ("12.3.4", .point, usd, .invalidAmount), ("1,2,3", .comma, usd, .invalidAmount), ("1.234,56", .point, usd, .invalidAmount),
      ("1,234.56", .comma, usd, .invalidAmount), ("12,50", .point, usd, .invalidAmount), ("12.50", .comma, usd, .invalidAmount),
      // groups that are not groups of three, mixed separators
      ("12,3,4", .point, usd, .invalidAmount), ("1,2345", .point, usd, .invalidAmount), ("1234,567", .point, usd, .invalidAmount),
      ("0,500", .point, usd, .invalidAmount), (",123", .point, usd, .invalidAmount), ("1,,234", .point, usd, .invalidAmount),
      ("1 234,567.8", .point, usd, .invalidAmount), ("1.234 567,8", .comma, usd, .invalidAmount),
      ("1,234.5,6", .point, usd, .invalidAmount), ("5 5", .point, usd, .invalidAmount), ("12,", .point, usd, .invalidAmount),
      // a currency mark that is not the record's from-currency, twice, or unknown
      ("$5", .point, .euro, .invalidAmount), ("5 USD", .point, .euro, .invalidAmount), ("€5", .point, usd, .invalidAmount),
      ("$5 USD", .point, usd, .invalidAmount), ("5 XYZ", .point, usd, .invalidAmount), ("kr 5", .point, usd, .invalidAmount),
      ("C$5", .point, cad, .invalidAmount), ("5 RMB", .point, cny, .unknownCurrency), ("5 CNH", .point, cny, .unknownCurrency),
      // German `5,-` (no cents) is not minus five
      ("5,-", .comma, .euro, .invalidAmount), ("EUR 5,\u{2013}", .comma, .euro, .invalidAmount),
      // empty
      ("", .point, usd, .missingField), ("   ", .point, usd, .missingField), ("\u{00A0}", .comma, usd, .missingField),
    ] as [(String, DecimalMark, CurrencyCode, RowError.Code)])
  func refusals(text: String, mark: DecimalMark, currency: CurrencyCode, code: RowError.Code) {
    #expect(refusal(AmountParser(decimalMark: mark), text, currency: currency)?.code == code, "\(text)")
  }

  @Test(
    "refusals say why",
    arguments: [
      ("(-5)", DecimalMark.point, "\"(-5)\" has two signs (a minus sign or parentheses, not both)"),
      ("12.3.4", .point, "\"12.3.4\" has more than one decimal point, the file's decimal mark"),
      (
        "12,50", .point,
        "\"12,50\" does not read with a decimal point, the file's decimal mark: \",\" must group digits in threes"
      ),
      ("1,234.56", .comma, "\"1,234.56\" does not read with a decimal comma, the file's decimal mark: \".\" follows it"),
      ("1 234,567.8", .point, "\"1 234,567.8\" mixes digit group separators"),
      ("abc", .point, "\"abc\" is not a number"),
      ("(5", .point, "\"(5\" has an unmatched parenthesis"),
      ("$5 USD", .point, "\"$5 USD\" has more than one currency symbol or code"),
      ("5 XYZ", .point, "\"5 XYZ\" is not a number (\"XYZ\" is not a currency code or symbol fxbatch knows)"),
      ("$5", .point, "\"$5\": $ is the symbol of USD, CAD, AUD, …, not of EUR, the record's from-currency"),
      ("5 USD", .point, "\"5 USD\" is an amount in USD, but the record's from-currency is EUR"),
      ("£5", .point, "\"£5\" is an amount in GBP (£), but the record's from-currency is EUR"),
    ] as [(String, DecimalMark, String)])
  func messages(text: String, mark: DecimalMark, message: String) {
    #expect(refusal(AmountParser(decimalMark: mark), text, currency: .euro)?.message == message)
  }

  // A mark the column's amounts decided (fxbatch issue 13): a cell that reads only with the other mark is
  // `ambiguous_amount`, naming both readings; the cells that agree with the mark, or read both ways, read by it.
  @Test(
    "a cell contradicting the mark the amounts decided",
    arguments: [
      (
        "12.50", DecimalMark.comma,
        "\"12.50\" is 12.50 with a decimal point, but most amounts in the file show a decimal comma, with which it is not a number (\".\" must group digits in threes)"
      ),
      (
        "1,234.56", .comma,
        "\"1,234.56\" is 1234.56 with a decimal point, but most amounts in the file show a decimal comma, with which it is not a number (\".\" follows the comma)"
      ),
      (
        "-0.5", .comma,
        "\"-0.5\" is -0.5 with a decimal point, but most amounts in the file show a decimal comma, with which it is not a number (\".\" must group digits in threes)"
      ),
      (
        "12,50 €", .point,
        "\"12,50 €\" is 12.50 with a decimal comma, but most amounts in the file show a decimal point, with which it is not a number (\",\" must group digits in threes)"
      ),
      (
        "1.234.567", .point,
        "\"1.234.567\" is 1234567 with a decimal comma, but most amounts in the file show a decimal point, with which it is not a number (more than one decimal point)"
      ),
      (
        "1 234.56", .comma,
        "\"1 234.56\" is 1234.56 with a decimal point, but most amounts in the file show a decimal comma, with which it is not a number (mixed digit group separators)"
      ),
    ] as [(String, DecimalMark, String)])
  func contradictions(text: String, mark: DecimalMark, message: String) {
    let parser = AmountParser(decimalMark: mark, decidedByAmounts: true)
    let error = refusal(parser, text, currency: .euro)
    #expect(error?.code == .ambiguousAmount)
    #expect(error?.message == message)
    // Given with --decimal-separator, the mark is not evidence against the cell: it is simply not a number.
    #expect(refusal(AmountParser(decimalMark: mark), text, currency: .euro)?.code == .invalidAmount)
  }

  @Test(
    "cells agreeing with the mark the amounts decided read by it",
    arguments: [
      ("12,50", DecimalMark.comma, "12.50"), ("1.000", .comma, "1000"), ("1,234", .comma, "1.234"),
      ("1.234,56", .comma, "1234.56"), ("7", .comma, "7"), ("12.50", .point, "12.50"), ("1,234", .point, "1234"),
      ("1.000", .point, "1.000"),
    ] as [(String, DecimalMark, String)])
  func agreements(text: String, mark: DecimalMark, expected: String) throws {
    let parser = AmountParser(decimalMark: mark, decidedByAmounts: true)
    #expect(try parser.parse(text, currency: .euro).get().description == expected)
  }

  @Test("a cell that reads with neither mark stays invalid_amount")
  func neitherMark() {
    let parser = AmountParser(decimalMark: .comma, decidedByAmounts: true)
    #expect(refusal(parser, "12.3.4,5,6", currency: .euro)?.code == .invalidAmount)
    #expect(refusal(parser, "abc", currency: .euro)?.code == .invalidAmount)
  }

  @Test(
    "more than 38 digits says so", arguments: [String(repeating: "1", count: 39), "1,234" + String(repeating: ",567", count: 12)])
  func tooManyDigits(text: String) {
    let error = refusal(point, text)
    #expect(error?.code == .invalidAmount)
    #expect(error?.message.hasSuffix("has more than 38 digits") == true)
  }

  @Test("an alias in an amount names its currency")
  func aliasInAmount() throws {
    let parser = AmountParser(decimalMark: .point, currencies: CurrencyResolver(aliases: ["RMB": cny]))
    #expect(try parser.parse("5 RMB", currency: cny).get().description == "5")
    #expect(refusal(parser, "5 RMB", currency: usd)?.code == .invalidAmount)
  }

  // Undecided mark (no cell of a tab file proves one): only cells that read the same either way pass.
  @Test(
    "with no decided decimal mark",
    arguments: [
      ("12", "12"), ("1 234", "1234"), ("-5", "-5"), ("1,234", nil), ("1.000", nil), ("12,50", nil), ("12.50", nil),
      ("1.234,56", nil), ("$1 000", "1000"),
    ] as [(String, String?)])
  func undecided(text: String, expected: String?) {
    let parser = AmountParser(decimalMark: nil)
    switch (parser.parse(text, currency: usd), expected) {
    case (.success(let value), let expected?): #expect(value.description == expected)
    case (.failure(let error), nil): #expect(error.code == .invalidAmount)
    case (let result, _): Issue.record("\(text): \(result)")
    }
  }

  // Every cell of up to three characters from the parser's alphabet: a value or a row error, never a trap.
  @Test("arbitrary short cells never crash", arguments: [DecimalMark.point, .comma, nil] as [DecimalMark?])
  func arbitraryCells(mark: DecimalMark?) {
    let alphabet: [String] = [
      "1", "0", ".", ",", "'", " ", "\u{00A0}", "-", "+", "\u{2212}", "\u{2013}", "(", ")", "$", "€", "a",
    ]
    let parser = AmountParser(decimalMark: mark)
    var accepted = 0
    for first in alphabet {
      for second in alphabet {
        for third in alphabet {
          let text = first + second + third
          if case .success = parser.parse(text, currency: usd) { accepted += 1 }
          _ = DecimalMarkInference.evidence(text)
        }
      }
    }
    #expect(accepted > 0)
  }

  @Test("the Firefly III export reads as decimal comma amounts")
  func fireflyExport() throws {
    let reader = try CSVReader(path: try Fixture.path("csv", "firefly-iii-1183-semicolon-decimal-comma.csv"))
    _ = try #require(try reader.next())  // header
    var amounts: [String] = []
    var inference = DecimalMarkInference()
    while let record = try reader.next() {
      amounts.append(record.field(1))
      inference.add(record.field(1))
    }
    #expect(amounts == ["20,00", "-0,01"])
    #expect(inference.decide(delimiter: reader.delimiter) == (.comma, .amounts))
    // 20,00 → 20.00 and -0,01 → −0.01, exactly.
    let values = try amounts.map { try comma.parse($0, currency: .euro).get() }
    #expect(values == [ExactDecimal(significand: 2000, scale: 2), ExactDecimal(significand: -1, scale: 2)])
  }

  // The conversions of fxbatch issue 6, at EUR/USD 1.1234 (2019-12-31), rounded half-up to 2 decimals:
  //   EUR→USD = amount × 1.1234:
  //     10,00 €   → 10.00 × 1.1234 = 11.234       → 11.23
  //     1.355,90  → 1355.90 × 1.1234 = 1523.21806 → 1523.22
  //     1.000     → 1000 × 1.1234 = 1123.4        → 1123.40   (grouping in a decimal-comma file)
  //     173,900   → 173.900 × 1.1234 = 195.35926  → 195.36
  //     20,00     → 20.00 × 1.1234 = 22.468       → 22.47
  //     -0,01     → −0.01 × 1.1234 = −0.011234    → −0.01
  //   USD→EUR = amount ÷ 1.1234:
  //     ($30.00)  → −30 ÷ 1.1234 = −26.70464…     → −26.70
  //     (123.45)  → −123.45 ÷ 1.1234 = −109.88962… → −109.89
  //     12.50-    → −12.50 ÷ 1.1234 = −11.12693…  → −11.13
  //     –1123.04  → −1123.04 ÷ 1.1234 = −999.67954… → −999.68 (en dash read as minus)
  //     −5        → −5 ÷ 1.1234 = −4.45077…       → −4.45
  //     $1,200.00 → 1200 ÷ 1.1234 = 1068.18586…   → 1068.19
  //     $+1500    → 1500 ÷ 1.1234 = 1335.23233…   → 1335.23
  @Test(
    "the issue's conversions",
    arguments: [
      ("10,00 €", DecimalMark.comma, CurrencyCode.euro, "11.23"), ("1.355,90", .comma, .euro, "1523.22"),
      ("1.000", .comma, .euro, "1123.40"), ("173,900", .comma, .euro, "195.36"), ("20,00", .comma, .euro, "22.47"),
      ("-0,01", .comma, .euro, "-0.01"), ("($30.00)", .point, usd, "-26.70"), ("(123.45)", .point, usd, "-109.89"),
      ("12.50-", .point, usd, "-11.13"), ("\u{2013}1123.04", .point, usd, "-999.68"), ("\u{2212}5", .point, usd, "-4.45"),
      ("$1,200.00", .point, usd, "1068.19"), ("$+1500", .point, usd, "1335.23"),
    ] as [(String, DecimalMark, CurrencyCode, String)])
  func issueConversions(text: String, mark: DecimalMark, from: CurrencyCode, expected: String) throws {
    let euroInDollars = ExchangeRate(numerator: try decimal("1.1234"))
    let rate = from == .euro ? euroInDollars : euroInDollars.inverted
    let amount = try AmountParser(decimalMark: mark).parse(text, currency: from).get()
    #expect(rate.convert(amount, minorUnits: 2, rounding: .halfUp)?.description == expected)
  }

  @Test("(-5) is refused in a USD→EUR record")
  func doubleSignInIssue() {
    #expect(refusal(point, "(-5)", currency: usd)?.code == .invalidAmount)
  }

  @Test("$1,200.00 reads the same with --symbol '$=USD' as in a USD record without it")
  func dollarWithAndWithoutOption() throws {
    let withOption = AmountParser(decimalMark: .point, currencies: CurrencyResolver(symbols: ["$": usd]))
    #expect(try withOption.parse("$1,200.00", currency: usd).get() == (try point.parse("$1,200.00", currency: usd).get()))
  }
}
