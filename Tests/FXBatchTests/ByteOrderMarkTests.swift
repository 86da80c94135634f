import FXBatchTestSupport
import Foundation
import Testing

/// Issue 30: U+FEFF is a byte order mark only as a file's first bytes (which every reader drops and the annotated
/// copy keeps). Anywhere else it is a character: data in a CSV field or XML text, copied as written; a record's
/// error where a field needs a number or a code; a file error where JSON or XML syntax allows no character. It
/// never silently changes a record (JSON Lines: ``JSONRecordInputTests``).
@Suite("byte order marks: only at a file's start")
struct ByteOrderMarkTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  static let mark = "\u{FEFF}"

  func convert(_ text: String, named name: String) throws -> CLIRunner.Result {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(text, named: name)
    return try cli.run(["convert", "-q", "-o", "-", name], in: directory.url)
  }

  /// A second mark is the first header name's first character: that name is no amount field, and says why.
  @Test func aCSVFileWithTwoMarksHasNoAmountField() throws {
    let result = try convert("\(Self.mark)\(Self.mark)amount,from,to,date\n100,EUR,USD,2020-01-02\n", named: "in.csv")
    #expect(result.status == 2)
    #expect(
      result.standardError.contains(
        #"in.csv:1:1: error: the header has no amount field ("\u{feff}amount", "from", "to", "date")"#),
      "\(result.standardError)")
  }

  /// In a record, U+FEFF is data: a note keeps it, an amount or a currency with it is that record's error.
  @Test func aMarkInsideACSVFileIsData() throws {
    let text =
      "\(Self.mark)amount,from,to,date,note\n"
      + "\(Self.mark)100,EUR,USD,2020-01-02,a\n100,EUR,\(Self.mark)USD,2020-01-02,b\n100,EUR,USD,2020-01-02,c\(Self.mark)d\n"
    let result = try convert(text, named: "in.csv")
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines.first?.hasPrefix("\(Self.mark)amount,from,to,date,note,fx_rate") == true)
    #expect(lines[1].hasPrefix("\(Self.mark)100,EUR,USD,2020-01-02,a,,,USD,,,error,"), "\(lines[1])")
    #expect(lines[1].contains(#"invalid_amount: ""\u{feff}100"" is not a number"#), "\(lines[1])")
    #expect(lines[2].contains(#"unknown_currency: ""\u{feff}USD"" is not an ISO 4217 currency code"#), "\(lines[2])")
    // 100 EUR at 1.1193 USD on 2020-01-02.
    #expect(lines[3] == "100,EUR,USD,2020-01-02,c\(Self.mark)d,1.1193,111.93,USD,2020-01-02,ecb-embedded EUR/USD=1.1193,ok,")
  }

  /// JSON allows U+FEFF only inside strings: a second mark, or one before an element, is a file error there.
  @Test(arguments: [
    ("\u{FEFF}\u{FEFF}[{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\"}]", "in.json:1:4: error: expected an array of records"),
    ("\u{FEFF}[\u{FEFF}{\"amount\":1,\"from\":\"EUR\",\"to\":\"USD\"}]", "in.json:1:5: error: unexpected character byte 0xef"),
  ])
  func aMarkOutsideAJSONStringIsAFileError(text: String, message: String) throws {
    let result = try convert(text, named: "in.json")
    #expect(result.status == 2)
    #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
  }

  @Test func aMarkInsideAJSONStringIsData() throws {
    let result = try convert(
      "[{\"amount\":1,\"from\":\"\(Self.mark)EUR\",\"to\":\"USD\",\"note\":\"\(Self.mark)\"}]", named: "in.json")
    #expect(result.status == 1)
    #expect(
      result.standardOutput.hasPrefix("[{\"amount\":1,\"from\":\"\(Self.mark)EUR\",\"to\":\"USD\",\"note\":\"\(Self.mark)\","))
    #expect(result.standardOutput.contains(#"unknown_currency: \"\\u{feff}EUR\" is not an ISO 4217 currency code"#))
  }

  /// XML: a second mark is text before the root element (a file error); between records it is character data,
  /// copied where it is, and the records convert.
  @Test func xmlTakesAMarkAsACharacter() throws {
    let record = #"<row amount="100" from="EUR" to="USD" date="2020-01-02"/>"#
    let twice = try convert("\(Self.mark)\(Self.mark)<rows>\(record)</rows>\n", named: "in.xml")
    #expect(twice.status == 2)
    #expect(twice.standardError.hasPrefix("in.xml:1:1: error:"), "\(twice.standardError)")
    let inside = try convert("<rows>\(Self.mark)\(record)\(record)</rows>\n", named: "in.xml")
    #expect(inside.status == 0, "\(inside.standardError)")
    let annotated = #"<row amount="100" from="EUR" to="USD" date="2020-01-02"><fx rate="1.1193" converted="111.93""#
    #expect(inside.standardOutput.hasPrefix("<rows>\(Self.mark)\(annotated)"), "\(inside.standardOutput)")
  }
}
