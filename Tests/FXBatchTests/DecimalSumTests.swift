import Testing

@testable import FXBatch

/// ``DecimalSum`` keeps the first scale it meets inline and the others in a list: whatever the order of the
/// scales, the sum, its scale and equality are those of one exact sum per scale.
@Suite("DecimalSum: exact sums of any scales")
struct DecimalSumTests {
  private func decimal(_ text: String) -> ExactDecimal { ExactDecimal(text)! }

  private func sum(_ texts: [String]) -> DecimalSum {
    var sum = DecimalSum()
    for text in texts { sum.add(decimal(text)) }
    return sum
  }

  @Test func emptySumIsZeroAtTheMinimumScale() {
    #expect(DecimalSum().total()?.description == "0")
    #expect(DecimalSum().total(minimumScale: 2)?.description == "0.00")
  }

  @Test(arguments: [
    (["12.50", "3", "0.125"], "15.625"),
    (["0.125", "12.50", "3"], "15.625"),
    (["3", "0.125", "12.50", "-0.125"], "15.500"),
    (["1.10", "2.20", "3.30"], "6.60"),
    (["0.00"], "0.00"),
    (["5", "0.000"], "5.000"),
    (["-7.5", "7.5"], "0.0"),
  ])
  func totalIsExactAtTheLargestScale(texts: [String], expected: String) {
    #expect(sum(texts).total()?.description == expected)
    #expect(sum(texts.reversed()).total()?.description == expected)
  }

  @Test func mergingGivesTheSameSumWhateverTheFirstScales() {
    let parts = [["1.5", "2"], ["0.25"], [], ["3", "0.000"], ["-1.5"]]
    var merged = DecimalSum()
    for part in parts { merged.add(sum(part)) }
    let whole = sum(parts.flatMap { $0 })
    #expect(merged == whole)
    #expect(merged.total()?.description == whole.total()?.description)
    #expect(merged.total()?.description == "5.250")
    var reversed = DecimalSum()
    for part in parts.reversed() { reversed.add(sum(part)) }
    #expect(reversed == whole)
    #expect(sum(["1"]) != sum(["1.0"]))
  }

  @Test func largeSumsStayExactBeyond64Bits() {
    let big = "92233720368547758.07"  // (2^63 − 1) hundredths
    var sum = DecimalSum()
    for _ in 0..<1000 { sum.add(decimal(big)) }
    #expect(sum.total()?.description == "92233720368547758070.00")
  }
}
