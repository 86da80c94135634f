import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Under `--amount-unit minor` and `--date-format unix|unix-ms`, every format's fast path writes what the general
/// path writes, in parts too: the same messy records (whole and fractional minor units, 0-, 2- and 3-decimal
/// currencies, a currency without a minor unit, unix times around midnight UTC, before 1970, with fractions,
/// as text, blank) as CSV, JSON Lines, a JSON array, XML and an `.xlsx` sheet.
@Suite("fast path = general path: minor units and unix dates", .serialized, .tags(.sanitized))
struct AmountUnitFastPathTests {
  struct Record {
    let amount: String
    let currency: String
    let target: String
    /// The date's text; `nil`: blank.
    let date: String?
  }

  /// Seeded records; `milliseconds` writes unix times in milliseconds.
  static func records(count: Int, seed: UInt64, milliseconds: Bool) -> [Record] {
    var generator = SplitMix64(seed: seed)
    let currencies = ["USD", "JPY", "KWD", "GBP", "CHF", "XAU", "EUR", "BHD"]
    // Midnights UTC of days in the ECB history, and instants around them.
    let midnights: [Int64] = [1_706_745_600, 1_577_836_800, 1_262_304_000, 1_704_067_200, 1_262_217_600]
    return (0..<count).map { _ in
      let pick = Int(generator.next() % 100)
      let amount: String
      switch pick {
      case 0..<70: amount = String(Int64(generator.next() % 10_000_000) - 50_000)
      case 70..<80: amount = "\(generator.next() % 100_000).00"
      case 80..<90: amount = "\(generator.next() % 100_000).\(1 + generator.next() % 99)"  // a fraction of a minor unit
      default: amount = String(generator.next() % 1000)
      }
      let midnight = midnights[Int(generator.next() % UInt64(midnights.count))]
      let seconds: Int64
      switch generator.next() % 4 {
      case 0: seconds = midnight
      case 1: seconds = midnight - 1
      case 2: seconds = midnight + Int64(generator.next() % 86_400)
      default: seconds = midnight - Int64(generator.next() % 400_000)
      }
      var date: String? = milliseconds ? String(seconds * 1000 + Int64(generator.next() % 1000)) : String(seconds)
      switch generator.next() % 40 {
      case 0: date = nil
      case 1: date = (date ?? "") + ".5"
      case 2: date = "-1"
      case 3: date = (date ?? "") + ".000"
      default: break
      }
      return Record(
        amount: amount, currency: currencies[Int(generator.next() % UInt64(currencies.count))],
        target: currencies[Int(generator.next() % 3)], date: date)
    }
  }

  static func configure(_ format: DateFormat) -> (inout BatchOptions) -> Void {
    {
      $0.amountUnit = .minor
      $0.dateFormat = format
    }
  }

  static let cases: [(UInt64, DateFormat)] = [(1, .unixSeconds), (2, .unixMilliseconds), (3, .unixSeconds)]

  @Test(arguments: cases)
  func csv(seed: UInt64, format: DateFormat) throws {
    let records = Self.records(count: 2000, seed: seed, milliseconds: format == .unixMilliseconds)
    let text = "amount,from,to,date\n" + records.map { "\($0.amount),\($0.currency),\($0.target),\($0.date ?? "")\n" }.joined()
    try CSVFastPathAdversarialTests.check("csv \(seed)", Array(text.utf8), configure: Self.configure(format))
  }

  /// JSON objects: numbers as JSON numbers, every third date a string.
  static func jsonObjects(_ records: [Record]) -> [String] {
    records.enumerated().map { index, record in
      let date = record.date.map { index % 3 == 0 ? "\"\($0)\"" : $0 } ?? "null"
      return #"{"amount":\#(record.amount),"from":"\#(record.currency)","to":"\#(record.target)","date":\#(date)}"#
    }
  }

  @Test(arguments: cases)
  func jsonLines(seed: UInt64, format: DateFormat) throws {
    let records = Self.records(count: 2000, seed: seed, milliseconds: format == .unixMilliseconds)
    let text = Self.jsonObjects(records).joined(separator: "\n") + "\n"
    try JSONLinesFastPathTests.check("jsonl \(seed)", Array(text.utf8), configure: Self.configure(format))
  }

  @Test(arguments: cases)
  func jsonDocument(seed: UInt64, format: DateFormat) throws {
    let records = Self.records(count: 2000, seed: seed, milliseconds: format == .unixMilliseconds)
    let text = "[\n" + Self.jsonObjects(records).joined(separator: ",\n") + "\n]\n"
    try JSONDocumentFastPathTests.check("json \(seed)", Array(text.utf8), configure: Self.configure(format))
  }

  @Test(arguments: cases)
  func xml(seed: UInt64, format: DateFormat) throws {
    let records = Self.records(count: 2000, seed: seed, milliseconds: format == .unixMilliseconds)
    let body = records.map {
      #"<payment from="\#($0.currency)"><amount>\#($0.amount)</amount><to>\#($0.target)</to><date>\#($0.date ?? "")</date></payment>"#
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write("<payments>\n" + body.joined(separator: "\n") + "\n</payments>\n", named: "p.xml")
    #expect(try XMLFastPathTests.takesFastPath(path, configure: Self.configure(format)))
    let general = try XMLFastPathTests.run(path, fastPath: false, configure: Self.configure(format))
    for parts in [1, 3] {
      let fast = try XMLFastPathTests.run(path, fastPath: true, parts: parts, configure: Self.configure(format))
      XMLFastPathTests.compare(fast, general, "xml \(seed), \(parts) parts")
    }
  }

  /// An `.xlsx` sheet: amounts and dates as number cells (every fifth date in a date style, which a unix format
  /// reads as the number), every seventh date as text.
  @Test(arguments: cases)
  func xlsx(seed: UInt64, format: DateFormat) throws {
    let records = Self.records(count: 1500, seed: seed, milliseconds: format == .unixMilliseconds)
    var rows = [
      #"<row r="1">"# + XLSXOnePassTests.text("A1", "amount") + XLSXOnePassTests.text("B1", "from")
        + XLSXOnePassTests.text("C1", "to") + XLSXOnePassTests.text("D1", "date") + "</row>"
    ]
    for (index, record) in records.enumerated() {
      let row = index + 2
      let date =
        record.date.map {
          index % 7 == 0
            ? XLSXOnePassTests.text("D\(row)", $0) : XLSXOnePassTests.number("D\(row)", $0, style: index % 5 == 0 ? 1 : nil)
        } ?? ""
      rows.append(
        #"<row r="\#(row)">"# + XLSXOnePassTests.number("A\(row)", record.amount)
          + XLSXOnePassTests.text("B\(row)", record.currency) + XLSXOnePassTests.text("C\(row)", record.target) + date
          + "</row>")
    }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(rows), in: directory, "p")
    let source = RateSourceChoice.table(EmbeddedECBHistory.table)
    let fast = try XLSXFastPathTests.run(path, source: source, fastPath: true, configure: Self.configure(format))
    let general = try XLSXFastPathTests.run(path, source: source, fastPath: false, configure: Self.configure(format))
    XLSXFastPathTests.compare(fast, general)
    #expect(fast.totals.ok > 100)
  }
}
