import Testing

@testable import FXBatch

@Suite("EmbeddedECBHistory")
struct EmbeddedECBHistoryTests {
  @Test("the embedded table spans 1999-01-04 .. 2026-10-30, 7126 publication days, 41 currencies")
  func shape() throws {
    let table = EmbeddedECBHistory.table
    #expect(table.firstDay == (try day("1999-01-04")))
    #expect(table.lastDay == (try day("2026-10-30")))
    #expect(table.days.count == 7126)
    #expect(table.pairs.count == 41)
    #expect(table.pivot == .euro)
    #expect(table.info.identifier == "ecb-embedded")
  }

  /// The table read lazily (days indexed at start, a day's rates parsed when first asked) has every cell of the
  /// history parsed in full with all the checks of a rates file.
  @Test func lazyTableEqualsTheFullParse() throws {
    let full = try EmbeddedECBHistory.parsedInFull()
    let lazy = EmbeddedECBHistory.table
    #expect(full.days == lazy.days)
    #expect(full.pairs == lazy.pairs)
    #expect(full.values.count == lazy.values.count)
    var differing = 0
    for index in 0..<full.values.count where full.values[index] != lazy.values[index] { differing += 1 }
    #expect(differing == 0)
  }

  @Test("spot checks against lines read from ../shared/data/ecb/eurofxref-hist.csv")
  func spotChecks() throws {
    let table = EmbeddedECBHistory.table
    // Line `2008-12-31,1.3917,126.14,…,0.9525,…`: EUR/GBP 0.9525, so 100 EUR → GBP = 95.25.
    let pound = try convert("100", "EUR", to: "GBP", on: "2008-12-31", with: table).get()
    #expect(pound.amount.description == "95.25")
    #expect(pound.quote.source == "ecb-embedded EUR/GBP=0.9525")
    // The same line has N/A for ISK (no ISK rates from 2008-12 to 2018-01).
    #expect(throws: RowError.self) { try convert("100", "EUR", to: "ISK", on: "2008-12-31", with: table).get() }
    // Line `2026-10-30,1.1172,…,0.8338,…`: 100 GBP → USD = 100 × 1.1172 / 0.8338 = 133.98896… → 133.99.
    #expect(try convert("100", "GBP", to: "USD", on: "2026-10-30", with: table).get().amount.description == "133.99")
    // Line `1999-01-04,1.1789,…`: 100 EUR → USD = 117.89.
    #expect(try convert("100", "EUR", to: "USD", on: "1999-01-04", with: table).get().amount.description == "117.89")
    // Saturday 2020-01-04 falls back to line `2020-01-03,1.1147,…`: 100 × 1.1147 = 111.47.
    let saturday = try convert("100", "EUR", to: "USD", on: "2020-01-04", with: table).get()
    #expect(saturday.amount.description == "111.47")
    #expect(saturday.quote.rateDay == (try day("2020-01-03")))
  }

  @Test("after the end of the data, the message names the last day")
  func afterTheEnd() throws {
    guard case .failure(let error) = try convert("100", "EUR", to: "USD", on: "2027-01-15", with: EmbeddedECBHistory.table) else {
      Issue.record("2027-01-15 is beyond the embedded data")
      return
    }
    #expect(error.code == .dateOutOfRange)
    #expect(error.message.contains("2026-10-30"))
  }
}
