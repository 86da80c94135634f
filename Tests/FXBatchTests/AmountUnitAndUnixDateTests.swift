import Testing

@testable import FXBatch

/// `--date-format unix|unix-ms` (``DateFormat/parse(_:)``) and `--amount-unit minor`
/// (``RecordNormalizer/majorAmount(_:currency:)``), the rules every format's paths call.
///
/// Expected days by hand: 2024-02-01 is day 19754 since 1970-01-01 (54 years with 13 leap days = 19723 days to
/// 2024-01-01, + 31), so its first second is 19754 × 86400 = 1706745600.
@Suite("unix dates and minor units")
struct AmountUnitAndUnixDateTests {
  @Test(
    "unix seconds: the UTC day of the instant",
    arguments: [
      ("0", "1970-01-01"), ("86399", "1970-01-01"), ("86400", "1970-01-02"),
      ("1706745600", "2024-02-01"), ("1706745599", "2024-01-31"), (" 1706745600 ", "2024-02-01"),
      ("1706745600.0", "2024-02-01"), ("1706745600.000", "2024-02-01"),
      ("-1", "1969-12-31"), ("-86400", "1969-12-31"), ("-86401", "1969-12-30"),
      ("253402300799", "9999-12-31"),  // 9999-12-31T23:59:59Z: day 2932896
      ("-62135596800", "0001-01-01"),  // day −719162
    ] as [(String, String)])
  func unixSeconds(text: String, expected: String) throws {
    #expect(try DateFormat.unixSeconds.parse(text).get() == day(expected))
  }

  @Test(
    "unix milliseconds",
    arguments: [
      ("1706745600000", "2024-02-01"), ("1706745599999", "2024-01-31"), ("-1", "1969-12-31"), ("0", "1970-01-01"),
      ("86399999", "1970-01-01"),
    ] as [(String, String)])
  func unixMilliseconds(text: String, expected: String) throws {
    #expect(try DateFormat.unixMilliseconds.parse(text).get() == day(expected))
  }

  @Test(
    "what a unix date refuses, and why",
    arguments: [
      ("1706745600.5", "is not a whole number of seconds (--date-format unix)"),
      ("1706745600.05", "is not a whole number of seconds"),
      ("1.7067456e9", "is not a unix time"),
      ("1706745600e0", "is not a unix time"),
      ("2024-02-01", "is not a unix time"),
      ("+1706745600", "is not a unix time"),
      ("1706745600.", "is not a unix time"),
      ("-", "is not a unix time"),
      ("253402300800", "is out of range"),  // 10000-01-01
      ("-62135596801", "is out of range"),
      ("9999999999999999999", "is out of range"),
    ] as [(String, String)])
  func unixRefusals(text: String, reason: String) {
    guard case .failure(let error) = DateFormat.unixSeconds.parse(text) else {
      Issue.record("\(text) was read as a unix time")
      return
    }
    #expect(error.code == .invalidDate)
    #expect(error.message.contains(reason), "\(error.message)")
  }

  @Test func millisecondsSayTheirUnit() {
    guard case .failure(let error) = DateFormat.unixMilliseconds.parse("1706745600000.5") else {
      Issue.record("a fraction of a millisecond was read")
      return
    }
    #expect(error.message == #""1706745600000.5" is not a whole number of milliseconds (--date-format unix-ms)"#)
  }

  /// A JSON number in the date field is a unix time under the unix formats, and refused under the others.
  @Test func jsonNumberDates() throws {
    let fields = RecordFields(amount: .number("1"), from: .text("USD"), to: .text("EUR"), date: .number("1706745600"))
    func normalizer(_ format: DateFormat) throws -> RecordNormalizer {
      RecordNormalizer(fixedFrom: nil, fixedTo: nil, dateFormat: format, defaultDay: try day("2020-01-02"))
    }
    #expect(try normalizer(.unixSeconds).rateKey(of: fields).get().key.day == day("2024-02-01"))
    #expect(try normalizer(.unixMilliseconds).rateKey(of: fields).get().key.day == day("1970-01-20"))  // 19.75 days
    guard case .failure(let error) = try normalizer(.iso).rateKey(of: fields) else {
      Issue.record("a number date was read under iso")
      return
    }
    #expect(error.code == .invalidDate)
    #expect(error.message.contains("--date-format unix"))
  }

  static func minor(_ overrides: [CurrencyCode: Int] = [:]) throws -> RecordNormalizer {
    RecordNormalizer(
      fixedFrom: nil, fixedTo: nil, dateFormat: .iso, defaultDay: try day("2020-01-02"), amountUnit: .minor,
      minorUnitOverrides: overrides)
  }

  @Test(
    "minor units by ISO 4217: 2 for USD, 0 for JPY, 3 for KWD, 4 for CLF",
    arguments: [
      ("1250", "USD", "12.50"), ("1250", "JPY", "1250"), ("1250", "KWD", "1.250"), ("1250", "CLF", "0.1250"),
      ("-1250", "USD", "-12.50"), ("1250.00", "USD", "12.50"), ("0", "USD", "0.00"), ("5", "BHD", "0.005"),
      ("12345678901234567890123456789012345678", "USD", "123456789012345678901234567890123456.78"),
    ] as [(String, String, String)])
  func minorUnits(amount: String, currency: String, expected: String) throws {
    let amount = try #require(ExactDecimal(amount))
    let major = try Self.minor().majorAmount(amount, currency: code(currency)).get()
    #expect(major.description == expected)
  }

  @Test func majorUnitsAreTheAmountAsRead() throws {
    let normalizer = RecordNormalizer(fixedFrom: nil, fixedTo: nil, dateFormat: .iso, defaultDay: try day("2020-01-02"))
    let amount = try #require(ExactDecimal("12.5"))
    #expect(try normalizer.majorAmount(amount, currency: code("JPY")).get() == amount)
  }

  @Test(
    "a fraction of a minor unit, and a currency without one, are invalid_amount",
    arguments: [
      ("12.5", "USD", #""12.5" is not a whole number of USD's minor units (--amount-unit minor)"#),
      ("0.1", "JPY", #""0.1" is not a whole number of JPY's minor units (--amount-unit minor)"#),
      ("5", "XAU", "ISO 4217 gives XAU no minor unit, which --amount-unit minor counts (say how many with --minor-units XAU=N)"),
    ] as [(String, String, String)])
  func refusals(amount: String, currency: String, message: String) throws {
    let amount = try #require(ExactDecimal(amount))
    guard case .failure(let error) = try Self.minor().majorAmount(amount, currency: code(currency)) else {
      Issue.record("\(amount) \(currency) was read")
      return
    }
    #expect(error.code == .invalidAmount)
    #expect(error.message == message)
  }

  /// `--minor-units ISK=2`: Stripe writes ISK in hundredths, though ISO 4217 gives it no decimals.
  @Test func overrides() throws {
    let normalizer = try Self.minor([try code("ISK"): 2, try code("XAU"): 3])
    #expect(try normalizer.majorAmount(#require(ExactDecimal("500")), currency: code("ISK")).get().description == "5.00")
    #expect(try normalizer.majorAmount(#require(ExactDecimal("1500")), currency: code("XAU")).get().description == "1.500")
    #expect(try Self.minor().majorAmount(#require(ExactDecimal("500")), currency: code("ISK")).get().description == "500")
  }

  /// The fast paths' entry (``FieldKeyDecoder/majorAmount(_:currency:)``) gives what the rule gives, its cache of
  /// the last currency included.
  @Test func decoderFollowsTheRule() throws {
    var decoder = FieldKeyDecoder(normalizer: try Self.minor())
    let amount = try #require(ExactDecimal("1250"))
    for currency in ["USD", "USD", "JPY", "KWD", "KWD", "XAU", "USD"] {
      let expected = try? Self.minor().majorAmount(amount, currency: code(currency)).get()
      #expect(decoder.majorAmount(amount, currency: try code(currency)) == expected, "\(currency)")
    }
    #expect(decoder.majorAmount(try #require(ExactDecimal("12.5")), currency: try code("USD")) == nil)
  }
}
