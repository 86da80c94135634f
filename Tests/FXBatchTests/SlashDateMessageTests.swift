import Testing

@testable import FXBatch

/// A slash date under the default `--date-format iso` is refused, and the message says which format reads it when
/// only one does (`1/13/2025` has no 13th month).
@Suite("slash date messages")
struct SlashDateMessageTests {
  @Test(arguments: [
    ("1/13/2025", "reads only as month/day/year, but slash dates need --date-format: pass --date-format mdy"),
    ("13/1/2025", "reads only as day/month/year, but slash dates need --date-format: pass --date-format dmy"),
    ("1/6/2025", "is ambiguous (day/month or month/day?); pass --date-format dmy or --date-format mdy"),
  ])
  func saysWhichFormatReadsIt(text: String, reason: String) {
    guard case .failure(let error) = DateFormat.iso.parse(text) else {
      Issue.record("\(text) must not be read under iso")
      return
    }
    #expect(error.code == .invalidDate)
    #expect(error.message == "\"\(text)\" \(reason)")
  }
}
