import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Defects found by trying to break several amounts per record with very many amounts, each with the test that
/// failed before its fix. The time these records took is not asserted (tests carry no timing): it is recorded in
/// the comments, and the runs check that every amount converts.
///
/// Rates (one day): 2024-03-01 EUR/USD 1.25, so USD→EUR 0.8.
@Suite("break it: many amounts")
struct BreakItManyAmountsTests {
  static let rates = """
    date,base,quote,rate
    2024-03-01,EUR,USD,1.25

    """

  /// An XML record of 3,000 amounts took time quadratic in their number on both paths: each amount's locator
  /// normalized every one of the record's names to find its own (3,000 × 3,000 normalizations, about 50 s in a
  /// debug build; 10,000 amounts took most of an hour), and on the general path compared every name again per
  /// record. The names are now normalized once per record shape, for every amount, and the shape checked once.
  /// Fast and general path write the same bytes.
  @Test(arguments: [false, true]) func xmlRecordOfThreeThousandAmounts(generalPath: Bool) throws {
    let count = 3000
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    var record = "<row><date>2024-03-01</date><currency>USD</currency>"
    for index in 0..<count { record += "<a\(index)>1.\(index % 10)0</a\(index)>" }
    record += "</row>"
    try directory.write("in.xml", "<rows>\n\(record)\n\(record)\n</rows>\n")
    var cli = try CLIRunner()
    if generalPath { cli.environment["FXBATCH_GENERAL_PATH"] = "1" }
    let amounts = (0..<count).map { "a\($0)" }.joined(separator: ",")
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", amounts, "in.xml", "-o", "out.xml"],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let output = try directory.read("out.xml")
    // 1.00 → 0.80, 1.90 → 1.52: the first and the last amount of each record.
    #expect(output.components(separatedBy: #"converted-a0="0.80""#).count == 3)
    #expect(output.components(separatedBy: #"converted-a2999="1.52""#).count == 3)
  }

  /// A JSON Lines record of 2,000 amounts took time quadratic in their number on both paths, per record: each
  /// amount's locator normalized all of the record's member names (2,000 × 2,000 per record, about 30 s for
  /// three records in a debug build). The names are now normalized once per record for every amount.
  @Test(arguments: [false, true]) func jsonLinesRecordOfTwoThousandAmounts(generalPath: Bool) throws {
    let count = 2000
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    let members = (0..<count).map { #""a\#($0)":"1.\#($0 % 10)0""# }.joined(separator: ",")
    let line = #"{"date":"2024-03-01","currency":"USD","# + members + "}\n"
    try directory.write("in.jsonl", line + line + line)
    var cli = try CLIRunner()
    if generalPath { cli.environment["FXBATCH_GENERAL_PATH"] = "1" }
    let amounts = (0..<count).map { "a\($0)" }.joined(separator: ",")
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", amounts, "in.jsonl", "-o", "out.jsonl"],
      in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    let output = try directory.read("out.jsonl")
    // 1.00 → 0.80, 1.90 → 1.52: the first and the last amount of each record.
    #expect(output.components(separatedBy: #""fx_converted_a0":"0.80""#).count == 4)
    #expect(output.components(separatedBy: #""fx_converted_a1999":"1.52""#).count == 4)
  }

  /// A record of 64 names or more finds its fields through a lookup instead of scanning the names: it finds the
  /// same ones as the scan, and finds the same problems (a name twice, a local name twice, an `fx` child), on both
  /// paths. The expected `fx` elements are those the scan wrote before the lookup existed.
  @Test(arguments: [false, true]) func xmlRecordOfManyNamesFindsWhatTheScanFound(generalPath: Bool) throws {
    let fill = (0..<70).map { "<f\($0)>x</f\($0)>" }.joined()
    let head = "<date>2024-03-01</date><currency>USD</currency>\(fill)"
    let records = [
      "<row>\(head)<Gross>1.00</Gross><Gross>2.00</Gross><Fee>3.00</Fee></row>",
      #"<row xmlns:p="urn:p" xmlns:q="urn:q">"# + head + "<p:Gross>1.00</p:Gross><q:Gross>2.00</q:Gross><Fee>3.00</Fee></row>",
      #"<row Gross="5.00">"# + head + "<Gross>7.00</Gross><Fee>3.00</Fee></row>",
      #"<row Fee="5.00">"# + head + #"<p:Gross xmlns:p="urn:p">1.00</p:Gross><fee>4.00</fee></row>"#,
      "<row>\(head)<Gross>1.00</Gross><Fee>3.00</Fee><fx rate=\"1\"/></row>",
      #"<row Fee="5.00" Fee2="1">"# + head + "<Gross>1.00</Gross></row>",
    ]
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", Self.rates)
    try directory.write("in.xml", "<rows>\n\(records.joined(separator: "\n"))\n</rows>\n")
    var cli = try CLIRunner()
    if generalPath { cli.environment["FXBATCH_GENERAL_PATH"] = "1" }
    let result = try cli.run(
      ["convert", "--to", "EUR", "--rates", "rates.csv", "--amount-field", "Gross,Fee", "in.xml", "-o", "out.xml"],
      in: directory.url)
    #expect(result.status == 1, "\(result.standardError)")
    let output = try directory.read("out.xml")
    func error(_ message: String) -> String {
      #"<fx rate="" converted-Gross="" converted-Fee="" currency="" rate-date="" source="" status="error" error=""#
        + message + #""/>"#
    }
    func ok(_ gross: String, _ fee: String) -> String {
      #"<fx rate="0.8" converted-Gross="\#(gross)" converted-Fee="\#(fee)" currency="EUR" rate-date="2024-03-01" "#
        + #"source="file:rates.csv EUR/USD=1.25" status="ok" error=""/>"#
    }
    let expected = [
      error("invalid_record: Gross: the element &quot;Gross&quot; occurs twice"),
      error("invalid_record: Gross: two elements have the local name &quot;Gross&quot;"),
      ok("5.60", "2.40"),
      ok("0.80", "3.20"),
      error("invalid_record: the record already has an &lt;fx&gt; element; is it fxbatch output?"),
      ok("0.80", "4.00"),
    ]
    let lines = output.split(separator: "\n").filter { $0.hasPrefix("<row>") || $0.hasPrefix("<row ") }
    #expect(lines.count == expected.count)
    for (line, fx) in zip(lines, expected) {
      #expect(line.hasSuffix(fx + "</row>"), "\(line.suffix(300))")
    }
  }
}

/// A workbook's number cell whose text is no number at all was said to have too many digits.
@Suite("break it: workbook number cells")
struct BreakItWorkbookNumberTests {
  /// `<v>NaN</v>`, `<v>INF</v>`, `<v>0x10</v>` in an `.xlsx` number cell, or `office:value=""` in an `.ods` float
  /// cell, were `invalid_amount: "NaN" has more than 38 digits or too large an exponent`: they are not numbers.
  /// Numbers too long or too large keep their message.
  @Test func numberCellThatIsNoNumber() throws {
    let normalizer = RecordNormalizer(fixedFrom: nil, fixedTo: nil, dateFormat: .iso, defaultDay: try day("2024-03-01"))
    func message(_ text: String) -> String? {
      let fields = RecordFields(amount: .number(text), from: .absent, to: .absent, date: .absent)
      guard case .failure(let error) = normalizer.amount(of: fields, parser: AmountParser(decimalMark: .point), currency: nil)
      else {
        return nil
      }
      return error.message
    }
    for text in ["NaN", "INF", "-INF", "0x10", "", " 2.5 ", "2.5e", "--1", "1_000"] {
      #expect(message(text) == "\"\(text)\" is not a number", "\(text)")
    }
    for text in ["1e400", "1E+308", "123456789012345678901234567890123456789"] {
      #expect(message(text) == "\"\(text)\" has more than 38 digits or too large an exponent", "\(text)")
    }
  }
}
