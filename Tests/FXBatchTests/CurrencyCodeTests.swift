import Testing

@testable import FXBatch

@Suite("CurrencyCode and ISO 4217")
struct CurrencyCodeTests {
  @Test("codes are trimmed and upper-cased", arguments: [" usd ", "Usd", "usd", "USD", "\tUSD\n", "\u{00A0}usd"])
  func normalizesCase(text: String) throws {
    let parsed = try #require(CurrencyCode(text))
    #expect(parsed == (try code("USD")))
    #expect(parsed.description == "USD")
  }

  @Test(
    "text that is not an ISO 4217 code is refused", arguments: ["XYZ", "", "US", "USDX", "U$D", "ÜSD", "U SD", "123", "EU R"])
  func refusesUnknown(text: String) {
    #expect(CurrencyCode(text) == nil)
  }

  @Test(
    "historic codes of the ECB history are known",
    arguments: ["CYP", "EEK", "LTL", "LVL", "MTL", "ROL", "SIT", "SKK", "TRL", "HRK", "BGN"])
  func historicCodes(text: String) throws {
    let currency = try #require(ISO4217.currency(for: try code(text)))
    #expect(currency.isHistoric)
  }

  @Test("current codes are not historic", arguments: ["USD", "EUR", "JPY", "RUB", "TRY", "RON"])
  func currentCodes(text: String) throws {
    let currency = try #require(ISO4217.currency(for: try code(text)))
    #expect(!currency.isHistoric)
  }

  @Test(
    "minor units follow ISO 4217",
    arguments: [("JPY", 0), ("KRW", 0), ("KWD", 3), ("BHD", 3), ("USD", 2), ("EUR", 2), ("GBP", 2), ("TRL", 0), ("ISK", 0)]
      as [(String, Int)])
  func minorUnits(text: String, minorUnits: Int) throws {
    #expect(try #require(ISO4217.currency(for: try code(text))).minorUnits == minorUnits)
  }

  @Test("the euro constant is EUR")
  func euro() throws {
    #expect(CurrencyCode.euro == (try code("eur")))
    #expect(CurrencyCode.euro.description == "EUR")
  }

  @Test("the table is sorted and every code reads back")
  func tableIsConsistent() {
    let all = ISO4217.allCurrencies
    #expect(!all.isEmpty)
    #expect(all.map(\.code) == all.map(\.code).sorted())
    for currency in all {
      #expect(CurrencyCode(currency.code.description) == currency.code)
      #expect((0...4).contains(currency.minorUnits))
    }
  }
}
