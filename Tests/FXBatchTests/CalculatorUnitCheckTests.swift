import Foundation
import Testing

@testable import FXBatch

/// The calculator is asked for one unit of the base in the quote (`q=1USD=?EUR`); its answer becomes a rate only
/// when `lhs` is 1 of the base and `rhs` is in the quote, both units currencies fxbatch knows (``CurrencyNames``).
@Suite("Calculator answers checked against the request")
struct CalculatorUnitCheckTests {
  /// The answers of the provider to one request for `base`→`quote` on the run's day.
  static func answer(_ body: String, base: String, quote: String) throws -> Result<RateQuote, RowError> {
    let today = try day("2026-11-29")
    let provider = CalculatorProvider(endpoint: URL(string: "http://127.0.0.1:9/ig/calculator")!, today: today)
    let key = RateKey(base: try code(base), quote: try code(quote), day: today)
    let request = try #require(provider.requests(for: [key], today: today, maxStaleness: 5).first)
    let response = HTTPResponse(status: 200, headers: [:], body: Data(body.utf8))
    return try #require(provider.answers(to: request, response: response, maxStaleness: 5)[key])
  }

  static func body(_ lhs: String, _ rhs: String) -> String { #"{lhs: "\#(lhs)",rhs: "\#(rhs)",error: "",icc: true}"# }

  // Answers in the calculator's own English names, ISO 4217 names and codes, for the pair asked. The rate is the
  // rhs number, exactly (1 unit asked).
  @Test(arguments: [
    ("USD", "EUR", "1 U.S. dollar", "0.9216 Euros", "0.9216"),
    ("USD", "EUR", "1 USD", "0.9 EUR", "0.9"),
    ("USD", "EUR", "1 US Dollar", "0.9 euro", "0.9"),
    ("USD", "EUR", "1.000 U.S. dollar", "0.9 Euros", "0.9"),
    ("GBP", "CHF", "1 British pound", "1.12 Swiss francs", "1.12"),
    ("GBP", "USD", "1 Pound Sterling", "1.27 U.S. dollars", "1.27"),
    ("JPY", "CNY", "1 Japanese yen", "0.048 Chinese yuan", "0.048"),
    ("INR", "USD", "1 Indian rupee", "0.012 U.S. dollars", "0.012"),
    ("SEK", "NOK", "1 Swedish krona", "1.02 Norwegian kroner", "1.02"),
    ("USD", "UGX", "1 U.S. dollar", "2.57 thousand Ugandan shillings", "2570"),
  ])
  func theAnswerForThePairAskedIsTaken(base: String, quote: String, lhs: String, rhs: String, rate: String) throws {
    let quoted = try Self.answer(Self.body(lhs, rhs), base: base, quote: quote).get()
    #expect(quoted.rateText == rate)
    #expect(quoted.source == "calculator \(base)/\(quote)=\(rate)")
  }

  // Issue 30: "1 British pound" = "1.17 Euros" in reply to USD→EUR was taken as USD/EUR 1.17.
  @Test(arguments: [
    (
      "USD", "EUR", "1 British pound", "1.17 Euros",
      #"calculator: asked for 1 USD in EUR, answered 1 GBP in EUR ("1 British pound" = "1.17 Euros")"#
    ),
    (
      "USD", "EUR", "1 U.S. dollar", "0.79 British pounds",
      #"calculator: asked for 1 USD in EUR, answered 1 USD in GBP ("1 U.S. dollar" = "0.79 British pounds")"#
    ),
    (
      "USD", "EUR", "1 Euro", "1.08 U.S. dollars",
      #"calculator: asked for 1 USD in EUR, answered 1 EUR in USD ("1 Euro" = "1.08 U.S. dollars")"#
    ),
    // Another amount than the one asked: refused, though rhs ÷ lhs would be the rate.
    (
      "USD", "EUR", "10 U.S. dollars", "9.2 Euros",
      #"calculator: asked for 1 USD in EUR, answered 10 USD in EUR ("10 U.S. dollars" = "9.2 Euros")"#
    ),
    (
      "GBP", "USD", "1 000 000 British pounds", "1.6399 million U.S. dollars",
      #"calculator: asked for 1 GBP in USD, answered 1000000 GBP in USD ("1 000 000 British pounds" = "1.6399 million U.S. dollars")"#
    ),
    (
      "USD", "EUR", "1 GBP", "1.17 EUR",
      #"calculator: asked for 1 USD in EUR, answered 1 GBP in EUR ("1 GBP" = "1.17 EUR")"#
    ),
    // Units fxbatch does not know are not trusted.
    (
      "USD", "EUR", "1 Zorkmid", "0.92 Euros",
      #"calculator: asked for 1 USD in EUR, answered "1 Zorkmid" = "0.92 Euros": "Zorkmid" is not a currency fxbatch knows"#
    ),
    (
      "USD", "EUR", "1 U.S. dollar", "0.92 meters",
      #"calculator: asked for 1 USD in EUR, answered "1 U.S. dollar" = "0.92 meters": "meters" is not a currency fxbatch knows"#
    ),
    (
      "USD", "EUR", "1 usd", "0.92 eur",
      #"calculator: asked for 1 USD in EUR, answered "1 usd" = "0.92 eur": "usd" is not a currency fxbatch knows"#
    ),
    (
      "USD", "EUR", "1 XYZ", "0.92 EUR",
      #"calculator: asked for 1 USD in EUR, answered "1 XYZ" = "0.92 EUR": "XYZ" is not a currency fxbatch knows"#
    ),
    (
      "USD", "EUR", "1", "0.92 Euros",
      #"calculator: asked for 1 USD in EUR, answered "1" = "0.92 Euros": the lhs names no currency"#
    ),
    // A name of two currencies (ISO 4217 gives VES and VED the same one) names neither.
    (
      "USD", "VES", "1 U.S. dollar", "36.5 Bolívar Soberano",
      #"calculator: asked for 1 USD in VES, answered "1 U.S. dollar" = "36.5 Bolívar Soberano": "Bolívar Soberano" is not a currency fxbatch knows"#
    ),
  ])
  func anAnswerForAnotherQuestionIsABadResponseNamingBoth(
    base: String, quote: String, lhs: String, rhs: String, message: String
  ) throws {
    let result = try Self.answer(Self.body(lhs, rhs), base: base, quote: quote)
    #expect(result == .failure(RowError(.badResponse, message)))
  }

  // The names Google's calculator wrote, singular and plural, and the ISO 4217 names and codes: one table.
  @Test(arguments: [
    ("U.S. dollars", "USD"), ("U.S. dollar", "USD"), ("US Dollar", "USD"), ("Indian rupees", "INR"),
    ("British pounds", "GBP"), ("Pound Sterling", "GBP"), ("Euros", "EUR"), ("Japanese yen", "JPY"), ("Yen", "JPY"),
    ("Swiss francs", "CHF"), ("Chinese yuan", "CNY"), ("Yuan Renminbi", "CNY"), ("Ugandan shillings", "UGX"),
    ("Uganda Shilling", "UGX"), ("Danish kroner", "DKK"), ("Swedish kronor", "SEK"), ("Brazilian reais", "BRL"),
    ("Romanian lei", "RON"), ("Polish złoty", "PLN"), ("Polish zlotys", "PLN"), ("Mexican pesos", "MXN"),
    ("South Korean won", "KRW"), ("Turkish lira", "TRY"), ("  British   Pounds ", "GBP"), ("CHF", "CHF"),
  ])
  func namesMapToTheirCurrency(name: String, expected: String) throws {
    #expect(CurrencyNames.currency(named: name) == (try code(expected)))
  }

  @Test(arguments: ["dollars", "pounds", "Bolívar Soberano", "meters", "usd", "XYZ", "", "Turkish liras liras"])
  func namesOfNoOneCurrencyMapToNone(name: String) {
    #expect(CurrencyNames.currency(named: name) == nil)
  }

  // Every calculator name is of a current currency, and none is another currency's name.
  @Test func everyCalculatorNameNamesItsOwnCurrency() throws {
    for (text, names) in CurrencyNames.calculatorNames {
      for name in names { #expect(CurrencyNames.currency(named: name) == (try code(text)), "\(name)") }
    }
  }
}
