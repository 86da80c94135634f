import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Slash dates whose order the file's date column proves (``DateLayoutInference``): the fast path, in one part
/// and in several, must infer what the general path infers and write its bytes, on the embedded table and on the
/// sources whose keys pass 1 collects (the keys of a record only the proven order reads are added once it is
/// known).
extension FastGeneralDifferentialTests {
  /// The seeded records with their `YYYY-MM-DD` dates written day-first (`15/03/2024`), month-first
  /// (`03/15/2024`), or each way in turn (a column of both orders).
  static func slashDateRecords(count: Int, seed: UInt64, order: DateFormat.SlashDateOrder) -> [Record] {
    var records = Self.records(count: count, seed: seed)
    for index in records.indices {
      guard let date = records[index].date, date.count == 10, date.dropFirst(4).first == "-" else { continue }
      let (year, month, day) = (date.prefix(4), date.dropFirst(5).prefix(2), date.suffix(2))
      let dayFirst = order == .dayFirst || (order == .mixed && index % 2 == 0)
      records[index].date = dayFirst ? "\(day)/\(month)/\(year)" : "\(month)/\(day)/\(year)"
    }
    return records
  }

  @Test(
    .tags(.notSanitized),
    arguments: [RecordFormat.csv, .jsonl, .json, .xml, .xlsx, .ods], [Source.embedded, .frankfurterV2])
  func slashDateOrderIsInferredAlike(format: RecordFormat, source: Source) throws {
    let writer = try #require(Self.writers[format])
    for order in [DateFormat.SlashDateOrder.dayFirst, .monthFirst, .mixed] {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let records = Self.slashDateRecords(count: 80, seed: 300 + UInt64(source.rawValue.count), order: order)
      let input = try writer(records, Layout(nested: false), directory)
      let (choice, configure) = try Self.source(source, input: input, server: server, directory: directory)
      let general = try Self.check(input, format: format, source: choice, "\(order) slash dates, \(source)", configure: configure)
      #expect(general.fileError == nil)
      #expect(general.file?.slashDates == order.rawValue, "\(format), \(source), \(order)")
      if order == .mixed {
        #expect(general.totals.ok + general.totals.fallback < 25, "\(format), \(source): slash dates refused")
      } else {
        #expect(general.totals.ok + general.totals.fallback > 25, "\(format), \(source), \(order): records convert")
        #expect(general.fastRecords > 10, "\(format), \(source), \(order): the fast path converts records")
      }
    }
  }

  /// The ECB feed, a provider whose answer is a table: pass 1 reads the span of days to ask it, with the days of
  /// records only the proven order reads.
  @Test(.tags(.notSanitized)) func slashDatesOnATableProvider() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // The first record proves day-first; the earliest day (2019-07-01) is written ambiguously, last.
    var text = "date,amount,from,to\n25/12/2023,3,GBP,EUR\n"
    for index in 0..<40 { text += "0\(index % 9 + 1)/0\(index % 7 + 1)/2024,1\(index).25,USD,EUR\n" }
    text += "01/07/2019,5,USD,EUR\n"
    let input = try directory.write(text, named: "in.csv")
    let (choice, configure) = try Self.source(.ecbFeed, input: input, server: server, directory: directory)
    let general = try Self.check(input, format: .csv, source: choice, "slash dates, ECB feed", configure: configure)
    #expect(general.file?.slashDates == "day-first")
    #expect(general.totals.error == 0)
    // 2019-07-01 (not 2019-01-07): EUR/USD 1.1349 that day; 5 / 1.1349 = 4.4057 → 4.41.
    #expect(
      String(decoding: general.output.joined(), as: UTF8.self).contains("01/07/2019,5,USD,EUR,0.8811349018,4.41,EUR,2019-07-01,"))
  }

  /// CSV in parts: the evidence of every part adds up (one part proving an order, another only ambiguous dates),
  /// and a big file's provisional scan (whose sample has no proof) is read again when a later record proves one.
  @Test func csvSlashDatesInParts() throws {
    var text = "date,amount,from,to\n"
    for index in 0..<400 { text += "0\(index % 9 + 1)/0\(index % 7 + 1)/2024,1\(index).25,USD,EUR\n" }
    try Self.checkCSVBytes("ambiguous slash dates", text)
    try Self.checkCSVBytes("proof at the end", text + "25/12/2023,3,GBP,EUR\n")
    try Self.checkCSVBytes("proof at the start", "date,amount,from,to\n12/25/2023,3,GBP,EUR\n" + text.dropFirst(20))
    try Self.checkCSVBytes("proofs of both orders", text + "25/12/2023,3,GBP,EUR\n" + "12/25/2023,3,GBP,EUR\n")
    try Self.checkCSVBytes("quoted proof", text + "\"25/12/2023\",3,GBP,EUR\n")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let provisional = try Self.run(
      try directory.write(text + "25/12/2023,3,GBP,EUR\n", named: "big.csv"), format: .csv,
      source: .table(EmbeddedECBHistory.table), fastPath: true, parts: 3
    ) { $0.parallelMinimumSize = 0 }
    #expect(provisional.file?.slashDates == "day-first")
    #expect(provisional.totals.error == 0)
  }
}
