import Testing

@testable import FXBatch

/// The rounding reconciliation (fxbatch issue 6, "Rounding policy per target currency"): the exact total of
/// unrounded converted amounts, rounded once, against the sum of the rounded records.
@Suite("Exact totals and rounding reconciliation")
struct ExactTotalTests {
  /// Amounts converted at rates (`numerator/denominator`), the rounding mode, and the exact total rounded once
  /// to 2 decimals.
  struct Case: CustomTestStringConvertible, Sendable {
    let terms: [(amount: String, numerator: String, denominator: String)]
    let rounding: RoundingMode
    let expected: String
    let why: String

    var testDescription: String { "\(why) (\(rounding.rawValue))" }
  }

  static let cases: [Case] = [
    // Exactly half a cent, both ways (the examples).
    Case(terms: [("2953.125", "1", "1")], rounding: .halfUp, expected: "2953.13", why: "2953.125"),
    Case(terms: [("2953.125", "1", "1")], rounding: .halfEven, expected: "2953.12", why: "2953.125"),
    Case(terms: [("-0.125", "1", "1")], rounding: .halfUp, expected: "-0.13", why: "−0.125"),
    Case(terms: [("-0.125", "1", "1")], rounding: .halfEven, expected: "-0.12", why: "−0.125"),
    Case(terms: [("-0.125", "1", "1")], rounding: .down, expected: "-0.12", why: "−0.125"),
    Case(terms: [("-0.125", "1", "1")], rounding: .up, expected: "-0.13", why: "−0.125"),
    // 2362.5 × 1.25 = 2953.125 through a rate, not an amount.
    Case(terms: [("2362.5", "1.25", "1")], rounding: .halfUp, expected: "2953.13", why: "2362.5 × 1.25"),
    Case(terms: [("2362.5", "1.25", "1")], rounding: .halfEven, expected: "2953.12", why: "2362.5 × 1.25"),
    // A tie made of non-terminating parts: 0.01 ÷ 3 + 0.01 ÷ 6 = 0.005 exactly.
    Case(terms: [("0.01", "1", "3"), ("0.01", "1", "6")], rounding: .halfUp, expected: "0.01", why: "0.01/3 + 0.01/6"),
    Case(terms: [("0.01", "1", "3"), ("0.01", "1", "6")], rounding: .halfEven, expected: "0.00", why: "0.01/3 + 0.01/6"),
    Case(terms: [("0.01", "1", "3"), ("0.01", "1", "6")], rounding: .down, expected: "0.00", why: "0.01/3 + 0.01/6"),
    Case(terms: [("-0.01", "1", "3"), ("-0.01", "1", "6")], rounding: .halfUp, expected: "-0.01", why: "−0.01/3 − 0.01/6"),
    Case(terms: [("-0.01", "1", "3"), ("-0.01", "1", "6")], rounding: .halfEven, expected: "0.00", why: "−0.01/3 − 0.01/6"),
    // Just either side of the tie: 0.01/3 + 0.01/7 = 0.0047619… → 0.00; 0.01/3 + 0.01/5 = 0.005333… → 0.01.
    Case(terms: [("0.01", "1", "3"), ("0.01", "1", "7")], rounding: .halfUp, expected: "0.00", why: "0.01/3 + 0.01/7"),
    Case(terms: [("0.01", "1", "3"), ("0.01", "1", "5")], rounding: .halfEven, expected: "0.01", why: "0.01/3 + 0.01/5"),
    // Whole units from thirds: 1/3 three times, as three rates (1, 1.0, 1.00 over 3) = 1.00 exactly; `up`
    // adds nothing to an exact total.
    Case(terms: [("1", "1", "3"), ("1", "1.0", "3"), ("1", "1.00", "3")], rounding: .up, expected: "1.00", why: "3 × 1/3"),
    // 100 ÷ 1.95583 + 100 × 1.0684 ÷ 7.5345 = 51.129188… + 14.180104… = 65.309292… → 65.31.
    Case(terms: [("100", "1", "1.95583"), ("100", "1.0684", "7.5345")], rounding: .halfUp, expected: "65.31", why: "DEM + HRK"),
  ]

  @Test(arguments: cases)
  func exactTotalIsRoundedOnce(_ testCase: Case) throws {
    var total = ExactTotal()
    for term in testCase.terms {
      total.add(
        try decimal(term.amount),
        at: ExchangeRate(numerator: try decimal(term.numerator), denominator: try decimal(term.denominator)))
    }
    #expect(total.rounded(minorUnits: 2, rounding: testCase.rounding)?.description == testCase.expected)
  }

  /// Three records of 0.005 EUR → USD at 1: each rounds half-up to 0.01 (0.03 in all), their exact total 0.015
  /// rounds to 0.02, so the records are 0.01 over.
  @Test func ledgerReportsTheDifference() throws {
    var ledger = ReconciliationLedger()
    for _ in 0..<3 {
      ledger.add(amount: try decimal("0.005"), rate: .one, rounded: try decimal("0.01"), currency: try code("USD"))
    }
    ledger.add(amount: try decimal("1000"), rate: .one, rounded: try decimal("1000"), currency: try code("JPY"))
    #expect(
      ledger.reconciliations(rounding: .halfUp) == [
        Reconciliation(currency: "JPY", records: 1, roundedRecordsTotal: "1000", exactTotalRounded: "1000", difference: "0"),
        Reconciliation(currency: "USD", records: 3, roundedRecordsTotal: "0.03", exactTotalRounded: "0.02", difference: "0.01"),
      ])
  }

  @Test func summaryLineSignsTheDifference() {
    let entry = Reconciliation(
      currency: "USD", records: 3, roundedRecordsTotal: "0.03", exactTotalRounded: "0.02", difference: "0.01")
    #expect(
      RunSummary.reconciliationLine(entry)
        == "reconciliation USD, 3 records: sum of rounded amounts 0.03, exact sum rounded once 0.02, difference +0.01")
  }

  @Test func manyDistinctRatesStayExact() throws {
    // Σ_{k=1}^{60} 0.01 ÷ k = 0.01 × H(60) = 0.01 × 4.67987… = 0.0467987… → 0.05 (half-up, 2 decimals).
    var total = ExactTotal()
    for denominator in 1...60 {
      total.add(
        try decimal("0.01"),
        at: ExchangeRate(numerator: .one, denominator: ExactDecimal(significand: Int128(denominator), scale: 0)))
    }
    #expect(total.rounded(minorUnits: 2, rounding: .halfUp)?.description == "0.05")
    #expect(total.rounded(minorUnits: 3, rounding: .down)?.description == "0.046")
  }
}
