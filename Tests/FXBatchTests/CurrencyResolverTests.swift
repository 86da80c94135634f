import Testing

@testable import FXBatch

/// What currency fields name: ISO codes, `--alias` names, symbols; never a guess (fxbatch issue 6).
@Suite("CurrencyResolver")
struct CurrencyResolverTests {
  private let plain = CurrencyResolver()

  @Test(
    "codes and symbols of one currency",
    arguments: [
      (" usd ", "USD"), ("Eur", "EUR"), ("€", "EUR"), ("£", "GBP"), ("₹", "INR"), ("₩", "KRW"), ("₺", "TRY"), ("zł", "PLN"),
      ("ZŁ", "PLN"), ("₽", "RUB"), ("₪", "ILS"), ("฿", "THB"), (" € ", "EUR"), ("US$", "USD"), ("R$", "BRL"), ("Kč", "CZK"),
      ("円", "JPY"), ("CNY", "CNY"), ("DEM", "DEM"),
    ] as [(String, String)])
  func oneCurrency(text: String, expected: String) throws {
    #expect(try plain.currency(text).get().description == expected)
  }

  @Test(
    "refused: shared symbols, non-ISO names, unknown text",
    arguments: [
      ("$", RowError.Code.ambiguousCurrency), ("¥", .ambiguousCurrency), ("kr", .ambiguousCurrency), ("KR", .ambiguousCurrency),
      ("Rs", .ambiguousCurrency), ("RMB", .unknownCurrency), ("rmb", .unknownCurrency), ("CNH", .unknownCurrency),
      ("GBX", .unknownCurrency), ("XYZ", .unknownCurrency), ("dollars", .unknownCurrency), ("", .missingField),
      ("  ", .missingField),
    ] as [(String, RowError.Code)])
  func refused(text: String, code: RowError.Code) {
    guard case .failure(let error) = plain.currency(text) else {
      Issue.record("\(text) should be refused")
      return
    }
    #expect(error.code == code)
  }

  @Test("RMB suggests CNY and CNH is not CNY")
  func messages() {
    guard case .failure(let rmb) = plain.currency("RMB"), case .failure(let cnh) = plain.currency("CNH"),
      case .failure(let dollar) = plain.currency("$")
    else {
      Issue.record("RMB, CNH and $ should be refused")
      return
    }
    #expect(rmb.description.hasPrefix("unknown_currency: \"RMB\" is not an ISO 4217 currency code"))
    #expect(rmb.message.contains("--alias RMB=CNY"))
    #expect(cnh.message.contains("offshore renminbi, quoted apart from CNY"))
    #expect(
      dollar.description
        == "ambiguous_currency: \"$\" is the symbol of several currencies (USD, CAD, AUD, …); say which with --symbol '$=USD'")
  }

  @Test(
    "--alias and --symbol say what a name means",
    arguments: [("RMB", "CNY"), ("rmb", "CNY"), ("$", "USD"), ("kr", "SEK"), ("CNH", nil), ("¥", nil)] as [(String, String?)])
  func options(text: String, expected: String?) throws {
    let resolver = CurrencyResolver(
      aliases: ["RMB": try code("CNY")], symbols: ["$": try code("USD"), "KR": try code("SEK")])
    switch (resolver.currency(text), expected) {
    case (.success(let found), let expected?): #expect(found.description == expected)
    case (.failure, nil): break
    case (let result, _): Issue.record("\(text): \(result)")
    }
  }

  @Test("every symbol names ISO 4217 currencies")
  func symbolTable() {
    for (symbol, codes) in CurrencySymbols.table {
      #expect(!codes.isEmpty, "\(symbol)")
      #expect(symbol == symbol.lowercased())
      for code in codes { #expect(ISO4217.currency(for: code) != nil, "\(symbol) → \(code)") }
    }
    #expect(CurrencySymbols.currencies(for: "$")?.first?.description == "USD")
  }
}
