import Testing

@testable import FXBatch

/// The from-currency an amount's text names when the record has none of its own (fxbatch issue 32): the rule of
/// ``RecordNormalizer/rateKey(of:)-(RecordFields)`` through ``CurrencyResolver/currency(ofAmount:)``.
@Suite("Currency in the amount")
struct CurrencyInAmountTests {
  private let normalizer = RecordNormalizer(
    fixedFrom: nil, fixedTo: CurrencyCode("EUR"), dateFormat: .iso,
    defaultDay: CalendarDay(year: 2024, month: 3, day: 15) ?? CalendarDay(daysSinceEpoch: 0))

  private func fields(_ amount: String, from: RecordFields.Value = .absent) -> RecordFields {
    RecordFields(amount: .text(amount), from: from, to: .absent, date: .absent)
  }

  @Test(
    "an ISO code before or after the number, on either side of the sign, or a sign of one currency",
    arguments: [
      ("USD 1,234.56", "USD"), ("1.234,56 EUR", "EUR"), ("-JPY 49,488,402", "JPY"), ("JPY -49,488,402", "JPY"),
      ("€12.50", "EUR"), ("£7.00", "GBP"), ("12.50 €", "EUR"), ("(CHF 5.00)", "CHF"), ("5 eur", "EUR"), ("zł12", "PLN"),
      ("US$ 3", "USD"), ("R$ 10,00", "BRL"), ("1,234.56CHF", "CHF"), ("₹1,00,000", "INR"),
    ] as [(String, String)])
  func namesTheCurrency(amount: String, code: String) throws {
    let key = try normalizer.rateKey(of: fields(amount)).get().key
    #expect(key.pair.base == CurrencyCode(code))
    // An empty or null field is no currency either.
    #expect(try normalizer.rateKey(of: fields(amount, from: .text("  "))).get().key.pair.base == CurrencyCode(code))
    #expect(try normalizer.rateKey(of: fields(amount, from: .null)).get().key.pair.base == CurrencyCode(code))
  }

  @Test("a sign of several currencies is ambiguous_currency unless --symbol says which", arguments: ["$5.00", "¥100", "kr 50"])
  func sharedSign(amount: String) throws {
    #expect(throws: RowError.self) { try normalizer.rateKey(of: fields(amount)).get() }
    if case .failure(let error) = normalizer.rateKey(of: fields(amount)) {
      #expect(error.code == .ambiguousCurrency)
      #expect(error.message.contains("say which with --symbol"), "\(error.message)")
    }
    let symbols = try #require(
      [("$", "USD"), ("¥", "JPY"), ("kr", "SEK")].first { amount.contains($0.0) }.flatMap { symbol, code in
        CurrencyCode(code).map { [symbol: $0] }
      })
    let told = RecordNormalizer(
      fixedFrom: nil, fixedTo: CurrencyCode("EUR"), dateFormat: .iso, defaultDay: normalizer.defaultDay,
      currencies: CurrencyResolver(symbols: symbols))
    #expect(try told.rateKey(of: fields(amount)).get().key.pair.base == symbols.values.first)
  }

  @Test("no currency anywhere is missing_field saying so")
  func noCurrency() {
    for (from, message) in [
      (RecordFields.Value.absent, "the record has no from-currency field and its amount names no currency"),
      (.text(""), "the from-currency is empty and the amount names no currency"),
      (.null, "the from-currency is null and the amount names no currency"),
    ] {
      guard case .failure(let error) = normalizer.rateKey(of: fields("12.50", from: from)) else {
        Issue.record("12.50 without a currency converted")
        continue
      }
      #expect(error.code == .missingField)
      #expect(error.message.hasPrefix(message), "\(error.message)")
    }
    // A JSON number names no currency.
    let number = RecordFields(amount: .number("12.5"), from: .absent, to: .absent, date: .absent)
    #expect((try? normalizer.rateKey(of: number).get()) == nil)
  }

  @Test("a mark that names nothing is the amount's own error")
  func unknownMark() {
    guard case .failure(let error) = normalizer.rateKey(of: fields("RMB 5")) else {
      Issue.record("RMB 5 converted")
      return
    }
    #expect(error.code == .unknownCurrency)
    guard case .failure(let other) = normalizer.rateKey(of: fields("ABC 5")) else {
      Issue.record("ABC 5 converted")
      return
    }
    #expect(other.code == .invalidAmount)
  }

  @Test("a currency field wins over nothing, and the amount must agree with it")
  func fieldAndAmount() throws {
    #expect(try normalizer.rateKey(of: fields("USD 5", from: .text("GBP"))).get().key.pair.base == CurrencyCode("GBP"))
    let parser = AmountParser(decimalMark: .point)
    #expect(throws: RowError.self) { try parser.parse("USD 5", currency: CurrencyCode("GBP")).get() }
    #expect(try parser.parse("GBP 5", currency: CurrencyCode("GBP")).get() == ExactDecimal(significand: 5, scale: 0))
  }

  @Test("the decimal mark is inferred from amounts that carry their currency")
  func decimalMark() {
    #expect(DecimalMarkInference.evidence("1.234,56 EUR") == .comma)
    #expect(DecimalMarkInference.evidence("USD 1,234.56") == .point)
    #expect(DecimalMarkInference.evidence("-JPY 49,488,402") == .point)
    #expect(DecimalMarkInference.evidence("€12,50") == .comma)
  }
}

extension CurrencyInAmountTests {
  /// Several amounts: the first that names a currency names the record's; the others are checked against it by
  /// the amount parser (``AmountParser/parse(_:currency:)``), as every amount is.
  @Test func severalAmounts() throws {
    var record = RecordFields(amount: .text("45.00"), from: .absent, to: .absent, date: .absent)
    record.amounts = ["45.00", "USD -1.65", "GBP 2"].map {
      RecordFields(amount: .text($0), from: .absent, to: .absent, date: .absent)
    }
    #expect(try normalizer.rateKey(of: record).get().key.pair.base == CurrencyCode("USD"))
    record.amounts = ["45.00", "-1.65"].map { RecordFields(amount: .text($0), from: .absent, to: .absent, date: .absent) }
    #expect((try? normalizer.rateKey(of: record).get()) == nil)
  }
}
