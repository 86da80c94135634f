import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Every table source converts on the one table path: the ECB feed fetched from a loopback server, a run that
/// writes a lock file, and a `--frozen` run on that lock must write byte for byte what the embedded table writes
/// for the same data (messy records: errors, fallbacks, legacy currencies, undated records), in one part and in
/// parts, in CSV, JSON Lines and XML.
@Suite("Table sources: ECB feed, --lock and --frozen = embedded table", .tags(.sanitized))
struct TableSourceDifferentialTests {
  /// The run's day: the embedded history's last publication day, so that records without a date use the same
  /// day under every source (a provider's run uses today, a table's its last day).
  static let today = CalendarDay(year: 2026, month: 10, day: 30) ?? CalendarDay(daysSinceEpoch: 0)

  /// The embedded history in the ECB's XML feed layout (`eurofxref-hist.xml`), cells as published.
  static let feed = feed(from: nil)

  /// The embedded history's days from `first` on (all of them for `nil`) in the ECB's XML feed layout.
  static func feed(from first: CalendarDay?) -> String {
    let table = EmbeddedECBHistory.table
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>

      """
    for row in table.days.indices.reversed() where first.map({ table.days[row] >= $0 }) ?? true {
      text += "<Cube time=\"\(table.days[row])\">"
      for (column, value) in table.values.row(row, width: table.pairs.count).enumerated() {
        guard let value else { continue }
        text += "<Cube currency=\"\(table.pairs[column].quote)\" rate=\"\(value)\"/>"
      }
      text += "</Cube>\n"
    }
    return text + "</Cube></gesmes:Envelope>\n"
  }

  enum Format: String, CaseIterable, Sendable {
    case csv, json, jsonl, xml

    func messyFile(seed: UInt64) -> [UInt8] {
      switch self {
      case .csv: return Array(FastGeneralDifferentialTests.messyCSVFile(records: 1_500, seed: seed).utf8)
      case .json:
        let layouts = JSONDocumentFastPathTests.Layout.allCases
        return Array(
          JSONDocumentFastPathTests.document(records: 1_500, seed: seed, layout: layouts[Int(seed % UInt64(layouts.count))])
            .utf8)
      case .jsonl: return JSONLinesFastPathTests.messyFile(lines: 1_500, seed: seed)
      case .xml: return Array(FastGeneralDifferentialTests.messyXMLDocument(records: 1_500, seed: seed).utf8)
      }
    }
  }

  struct Run {
    let output: [UInt8]
    let report: RunReport
  }

  /// Converts a file on a source, in `parts` parts, optionally writing a lock file.
  static func run(
    _ input: String, format: Format, source: RateSourceChoice, parts: Int, lock: String? = nil,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Run {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out.\(format.rawValue)").path
    var options = BatchOptions(today: today)
    options.inputPaths = [input]
    options.destination = .file(output)
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    options.lockPath = lock
    configure(&options)
    let report = BatchJob(options: options, source: source).run()
    #expect(report.files.first?.fileError == nil)
    #expect(report.lockFileError == nil)
    return Run(output: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output))), report: report)
  }

  /// The source a `--frozen` run on a lock file has (as the CLI makes it) and its day for undated records.
  static func frozen(_ path: String) throws -> (RateSourceChoice, CalendarDay) {
    let lock = try LockFile.load(path: path)
    switch lock.rates {
    case .table(let table): return (.table(table), lock.defaultDay)
    case .quotes(let quotes): return (.lockFile(path: path, quotes: quotes), lock.defaultDay)
    }
  }

  /// The ECB feed on a loopback server whose routes the test sets, as `--source ecb --endpoint … --no-cache`
  /// makes it.
  static func ecbSourceWithoutRoutes(_ server: LoopbackHTTPServer) -> RateSourceChoice {
    var settings = FetchSettings()
    settings.retryPolicy.baseDelay = 0.01
    return .provider(ECBFeedProvider(endpoint: server.url("/")), settings)
  }

  /// The ECB feed on a loopback server (every file name), as `--source ecb --endpoint … --no-cache` makes it.
  static func ecbSource(_ server: LoopbackHTTPServer, cache: RateCache? = nil, offline: Bool = false) -> RateSourceChoice {
    for name in ["eurofxref-hist.xml", "eurofxref-hist-90d.xml", "eurofxref-daily.xml"] {
      server.route("/\(name)", [.xml(feed)])
    }
    var settings = FetchSettings()
    settings.retryPolicy.baseDelay = 0.01
    settings.cache = cache
    settings.offline = offline
    return .provider(ECBFeedProvider(endpoint: server.url("/")), settings)
  }

  /// The embedded history named as the ECB feed names itself (`ecb`), with the feed's rule that no rates
  /// exist after the run's day: what the feed run must write.
  static var embeddedAsFeed: RateTable {
    let embedded = EmbeddedECBHistory.table
    var table = RateTable(
      info: ECBFeedProvider(endpoint: URL(fileURLWithPath: "/")).info, pairs: embedded.pairs, days: embedded.days,
      grid: embedded.values)
    table.coverage.validThrough = today
    return table
  }

  static func compare(_ run: Run, _ reference: Run, _ comment: Comment) {
    #expect(run.output == reference.output, comment)
    #expect(run.report.totals == reference.report.totals, comment)
    #expect(run.report.reconciliation == reference.report.reconciliation, comment)
    #expect(run.report.rates.recordsWithoutDate == reference.report.rates.recordsWithoutDate, comment)
  }

  @Test(arguments: Format.allCases, [1, 3])
  func embeddedLockAndFrozenRunsWriteTheSame(format: Format, parts: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(format.messyFile(seed: 7 + UInt64(parts)), named: "in.\(format.rawValue)")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    let embedded = RateSourceChoice.table(EmbeddedECBHistory.table)
    let plain = try Self.run(input, format: format, source: embedded, parts: parts)
    let locking = try Self.run(input, format: format, source: embedded, parts: parts, lock: lock)
    Self.compare(locking, plain, "--lock")
    let (frozen, defaultDay) = try Self.frozen(lock)
    let frozenRun = try Self.run(input, format: format, source: frozen, parts: parts) { $0.defaultDate = defaultDay }
    Self.compare(frozenRun, plain, "--frozen")
    // The general path (no fast path) under the frozen table also agrees.
    let general = try Self.run(input, format: format, source: frozen, parts: 1) {
      $0.defaultDate = defaultDay
      $0.fastPath = false
    }
    Self.compare(general, plain, "--frozen, general path")
  }

  @Test(arguments: Format.allCases, [1, 3])
  func ecbFeedLockAndFrozenRunsWriteTheSame(format: Format, parts: Int) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(format.messyFile(seed: 21 + UInt64(parts)), named: "in.\(format.rawValue)")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    let reference = try Self.run(input, format: format, source: .table(Self.embeddedAsFeed), parts: parts)
    let feed = try Self.run(input, format: format, source: Self.ecbSource(server), parts: parts)
    Self.compare(feed, reference, "--source ecb")
    #expect(feed.report.fetch == RunReport.Fetch(requests: 1, retries: 0, failedRequests: 0, cacheHits: 0))
    let locking = try Self.run(input, format: format, source: Self.ecbSource(server), parts: parts, lock: lock)
    Self.compare(locking, reference, "--source ecb --lock")
    #expect(server.requestCount == 2, "one request per run")
    let (frozen, defaultDay) = try Self.frozen(lock)
    let frozenRun = try Self.run(input, format: format, source: frozen, parts: parts) {
      $0.defaultDate = defaultDay
      $0.today = Self.today.adding(days: 400)  // a frozen run reproduces the locked run on any later day
    }
    Self.compare(frozenRun, reference, "--frozen on the feed's lock")
    #expect(server.requestCount == 2, "a frozen run asks nothing")
    // The general path (no fast path) on the feed writes the same too.
    let general = try Self.run(input, format: format, source: Self.ecbSource(server), parts: 1) { $0.fastPath = false }
    Self.compare(general, reference, "--source ecb, general path")
  }

  @Test(arguments: Format.allCases)
  func ratesFileLockAndFrozenRunsWriteTheSame(format: Format) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // USD-based and EUR-based pairs (the pivot is USD: three pairs), a gap (no 2024-01-04), a missing JPY cell.
    let rates = try directory.write(
      """
      date,base,quote,rate
      2024-01-02,USD,EUR,0.9100
      2024-01-02,USD,JPY,141.50
      2024-01-02,USD,GBP,0.7870
      2024-01-03,USD,EUR,0.9150
      2024-01-03,USD,GBP,0.7900
      2024-01-05,USD,EUR,0.9160
      2024-01-05,USD,JPY,144.60
      2024-01-05,USD,GBP,0.7880
      2024-01-05,EUR,CHF,0.9320

      """, named: "rates.csv")
    let table = try RatesFile.load(path: rates)
    let input = try directory.write(format.messyFile(seed: 5), named: "in.\(format.rawValue)")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    let plain = try Self.run(input, format: format, source: .table(table), parts: 2)
    Self.compare(try Self.run(input, format: format, source: .table(table), parts: 2, lock: lock), plain, "--lock")
    let (frozen, defaultDay) = try Self.frozen(lock)
    let frozenRun = try Self.run(input, format: format, source: frozen, parts: 2) { $0.defaultDate = defaultDay }
    Self.compare(frozenRun, plain, "--frozen")
  }

  // A lock's content for a small input, by hand: the rows that decided a record (2024-01-05 for the 5th and the
  // fallback of the 6th; 2024-01-08 for a stale answer under --max-staleness 0 is not read: 2024-01-07 is
  // decided by 2024-01-05, whose age 2 > 0 is an error that still names it), only the pairs read (EUR/USD,
  // EUR/JPY), and the cells as the history publishes them.
  @Test func lockOfASmallInputIsWhatTheRunRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(
      """
      date,amount,from,to
      2024-01-05,100,USD,JPY
      2024-01-07,100,EUR,USD
      2024-01-05,100,EUR,EUR
      1998-12-31,100,EUR,USD
      2024-01-05,100,XXX,EUR

      """, named: "in.csv")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    let run = try Self.run(input, format: .csv, source: .table(EmbeddedECBHistory.table), parts: 1, lock: lock) {
      $0.maxStaleness = 0
      $0.defaultDate = CalendarDay(year: 2024, month: 1, day: 5)
    }
    let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
    // 100 USD → JPY on 2024-01-05: 158.57 / 1.0921 = 145.19732625… → 14520 (JPY has no minor units).
    #expect(lines[1] == "2024-01-05,100,USD,JPY,145.1973263,14520,JPY,2024-01-05,ecb-embedded EUR/USD=1.0921 EUR/JPY=158.57,ok,")
    #expect(
      lines[2]
        == "2024-01-07,100,EUR,USD,,,USD,,ecb-embedded,error,stale_rate: ECB published no rates in the 0 days up to 2024-01-07 (latest: 2024-01-05); use --max-staleness 2 to accept it"
    )
    let body = """
      fxbatch-lock/2
      source ecb-embedded
      publisher ECB
      description ECB euro foreign exchange reference rates (embedded history)
      default-day 2024-01-05
      table dated
      first-day 1999-01-04
      last-day 2026-10-30
      pairs EUR/USD EUR/JPY
      other-pairs EUR/BGN EUR/CYP EUR/CZK EUR/DKK EUR/EEK EUR/GBP EUR/HUF EUR/LTL EUR/LVL EUR/MTL EUR/PLN EUR/ROL EUR/RON EUR/SEK EUR/SIT EUR/SKK EUR/CHF EUR/ISK EUR/NOK EUR/HRK EUR/RUB EUR/TRL EUR/TRY EUR/AUD EUR/BRL EUR/CAD EUR/CNY EUR/HKD EUR/IDR EUR/ILS EUR/INR EUR/KRW EUR/MXN EUR/MYR EUR/NZD EUR/PHP EUR/SGD EUR/THB EUR/ZAR
      rate 2024-01-05 2024-01-08 1.0921 158.57

      """
    let written = try String(contentsOfFile: lock, encoding: .utf8)
    #expect(written.hasPrefix(body))
    #expect(written == body + "sha256 " + SHA256Digest.hex(of: Array(body.utf8)) + "\n")
  }

  // FIPS 180-2 examples and an empty message.
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func sha256KnownAnswers(message: String, digest: String) {
    #expect(SHA256Digest.hex(of: Array(message.utf8)) == digest)
  }

  @Test func sha256OfAMillionAs() {
    #expect(
      SHA256Digest.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test func tamperedLockIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write("date,amount,from,to\n2024-01-05,100,EUR,USD\n", named: "in.csv")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    _ = try Self.run(input, format: .csv, source: .table(EmbeddedECBHistory.table), parts: 1, lock: lock)
    let original = try String(contentsOfFile: lock, encoding: .utf8)
    #expect(original.contains("rate 2024-01-05 2024-01-08 1.0921\n"))
    try original.replacingOccurrences(of: " 1.0921\n", with: " 1.1921\n").write(
      toFile: lock, atomically: true, encoding: .utf8)
    #expect(throws: RatesFileError.self) { try LockFile.load(path: lock) }
    do {
      _ = try LockFile.load(path: lock)
    } catch {
      #expect(error.path == lock)
      #expect(error.message.contains("sha256 digest does not match its content"))
    }
    // Cut short: no digest line.
    try String(original.prefix(original.count - 30)).write(toFile: lock, atomically: true, encoding: .utf8)
    #expect(throws: RatesFileError.self) { try LockFile.load(path: lock) }
  }

  // A frozen run answers only what the lock holds: another day, or another pair, is `no_rate` naming the lock.
  @Test func frozenRunRefusesWhatTheLockDoesNotHold() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write("date,amount,from,to\n2024-01-05,100,EUR,USD\n", named: "in.csv")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    _ = try Self.run(input, format: .csv, source: .table(EmbeddedECBHistory.table), parts: 1, lock: lock)
    let other = try directory.write(
      "date,amount,from,to\n2024-01-08,100,EUR,USD\n2024-01-05,100,EUR,GBP\n2024-01-06,100,EUR,USD\n", named: "other.csv")
    let (frozen, defaultDay) = try Self.frozen(lock)
    let run = try Self.run(other, format: .csv, source: frozen, parts: 1) { $0.defaultDate = defaultDay }
    let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(
      lines[1]
        == "2024-01-08,100,EUR,USD,,,USD,,ecb-embedded,error,no_rate: the lock file \(lock) (--frozen) holds no ECB publication deciding 2024-01-08"
    )
    #expect(
      lines[2]
        == "2024-01-05,100,EUR,GBP,,,GBP,,ecb-embedded,error,no_rate: the lock file \(lock) (--frozen) holds no EUR/GBP rates"
    )
    // Saturday 2024-01-06 is decided by Friday's row, which the lock holds (its next publication is Monday).
    #expect(lines[3] == "2024-01-06,100,EUR,USD,1.0921,109.21,USD,2024-01-05,ecb-embedded EUR/USD=1.0921,fallback,")
  }

  // A lock that did not keep a directly published pair cannot answer it, even when it keeps both legs of the
  // cross rate through the pivot: the source would have used the direct rate.
  @Test func frozenRunDoesNotCrossAPairTheLockDidNotKeep() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rates = try directory.write(
      """
      date,base,quote,rate
      2024-01-05,EUR,USD,1.0921
      2024-01-05,EUR,JPY,158.57
      2024-01-05,USD,JPY,145.00

      """, named: "rates.csv")
    let table = try RatesFile.load(path: rates)
    let input = try directory.write("date,amount,from,to\n2024-01-05,100,EUR,USD\n2024-01-05,100,EUR,JPY\n", named: "in.csv")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    _ = try Self.run(input, format: .csv, source: .table(table), parts: 1, lock: lock)
    let other = try directory.write("date,amount,from,to\n2024-01-05,100,USD,JPY\n", named: "other.csv")
    // Unfrozen: the direct rate, 100 × 145.00.
    let direct = try Self.run(other, format: .csv, source: .table(table), parts: 1)
    #expect(String(decoding: direct.output, as: UTF8.self).contains(",100,USD,JPY,145,14500,JPY,2024-01-05,"))
    let (frozen, defaultDay) = try Self.frozen(lock)
    for fastPath in [true, false] {
      let run = try Self.run(other, format: .csv, source: frozen, parts: 1) {
        $0.defaultDate = defaultDay
        $0.fastPath = fastPath
      }
      let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
      #expect(lines[1].hasSuffix(",error,no_rate: the lock file \(lock) (--frozen) holds no USD/JPY rates"))
    }
  }

  // A version 1 lock (JSON, every cross pair) is still read, by the general path.
  @Test func versionOneLockIsStillRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lock = try directory.write(
      """
      {
        "defaultDay" : "2024-01-05",
        "format" : "fxbatch-lock/1",
        "rates" : [
          {
            "base" : "USD", "date" : "2024-01-05", "denominator" : "1.0921", "fallback" : false, "numerator" : "158.57",
            "quote" : "JPY", "rate" : "145.1973263", "rateDate" : "2024-01-05",
            "source" : "ecb-embedded EUR/USD=1.0921 EUR/JPY=158.57"
          }
        ]
      }

      """, named: "v1.lock")
    let input = try directory.write(
      "date,amount,from,to\n2024-01-05,100,USD,JPY\n,100,USD,JPY\n2024-01-05,100,USD,GBP\n", named: "in.csv")
    let (frozen, defaultDay) = try Self.frozen(lock)
    #expect(defaultDay == CalendarDay(year: 2024, month: 1, day: 5))
    let run = try Self.run(input, format: .csv, source: frozen, parts: 1) { $0.defaultDate = defaultDay }
    let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
    let converted = "145.1973263,14520,JPY,2024-01-05,ecb-embedded EUR/USD=1.0921 EUR/JPY=158.57,ok,"
    #expect(lines[1] == "2024-01-05,100,USD,JPY," + converted)
    #expect(lines[2] == ",100,USD,JPY," + converted)
    #expect(
      lines[3]
        == "2024-01-05,100,USD,GBP,,,GBP,,lock,error,no_rate: USD/GBP on 2024-01-05 is not in the lock file \(lock) (--frozen)"
    )
  }

  // Pass 1 reads only the span of days the feed will be asked (in parts too): a record the ECB cannot answer
  // (an unknown currency, a day before 1999, a day after today) does not widen it, so recent records ask for the
  // 90-day file, as the planner does for their keys.
  @Test(arguments: Format.allCases, [1, 3])
  func spanOfAskedDaysPicksTheFile(format: Format, parts: Int) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var records = [("2020-01-02", "1", "XXX", "EUR"), ("1998-06-01", "1", "USD", "EUR"), ("2027-01-04", "1", "USD", "EUR")]
    for index in 0..<300 { records.append(("2026-\(index % 2 == 0 ? "09-01" : "10-29")", "\(index)", "USD", "JPY")) }
    records.append(("2020-01-02", "1", "EUR", "EUR"))
    let text: String
    switch format {
    case .csv: text = "date,amount,from,to\n" + records.map { "\($0.0),\($0.1),\($0.2),\($0.3)\n" }.joined()
    case .jsonl:
      text = records.map { #"{"date":"\#($0.0)","amount":\#($0.1),"from":"\#($0.2)","to":"\#($0.3)"}"# + "\n" }.joined()
    case .json:
      text =
        "[\n"
        + records.map { #"{"date":"\#($0.0)","amount":\#($0.1),"from":"\#($0.2)","to":"\#($0.3)"}"# }.joined(separator: ",\n")
        + "\n]\n"
    case .xml:
      text =
        "<payments>\n"
        + records.map { "<payment date=\"\($0.0)\" amount=\"\($0.1)\" from=\"\($0.2)\" to=\"\($0.3)\"/>\n" }.joined()
        + "</payments>\n"
    }
    let input = try directory.write(text, named: "in.\(format.rawValue)")
    let run = try Self.run(input, format: format, source: Self.ecbSource(server), parts: parts)
    #expect(server.requestCount == 1)
    #expect(server.requestCount(path: "/eurofxref-hist-90d.xml") == 1)
    #expect(run.report.totals.ok == 301)
    #expect(run.report.totals.error == 3)
  }

  // The feed's own rules stay: a day after today has no rate yet (whatever --max-staleness allows).
  @Test func ecbFeedRefusesDaysAfterToday() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write("date,amount,from,to\n2026-10-31,100,EUR,USD\n2026-10-30,100,EUR,USD\n", named: "in.csv")
    let run = try Self.run(input, format: .csv, source: Self.ecbSource(server), parts: 1) { $0.maxStaleness = 30 }
    let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(
      lines[1]
        == "2026-10-31,100,EUR,USD,,,USD,,ecb,error,date_out_of_range: 2026-10-31 is in the future; no rates exist for it yet"
    )
    // 100 × 1.1172
    #expect(lines[2] == "2026-10-30,100,EUR,USD,1.1172,111.72,USD,2026-10-30,ecb EUR/USD=1.1172,ok,")
  }

  // A failed fetch fails every record that needed it, with the code it has today; nothing else.
  @Test(arguments: [
    (ScriptedResponse.status(500), "source_unavailable: HTTP 500 after 2 attempts"),
    (
      ScriptedResponse.xml("<html>busy</html>"),
      #""bad_response: eurofxref-hist.xml: the root element is <html>, not the ECB's gesmes:Envelope (or a bare Cube) (line 1)""#
    ),
  ])
  func failedFeedFailsItsRecords(response: ScriptedResponse, error: String) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/eurofxref-hist.xml", [response])
    var settings = FetchSettings()
    settings.retryPolicy.retries = 1
    settings.retryPolicy.baseDelay = 0.01
    let source = RateSourceChoice.provider(ECBFeedProvider(endpoint: server.url("/")), settings)
    let input = try directory.write(
      "date,amount,from,to\n2024-01-05,100,EUR,USD\n2024-01-05,100,USD,USD\n2024-01-05,100,XXX,USD\n", named: "in.csv")
    let run = try Self.run(input, format: .csv, source: source, parts: 1)
    let lines = String(decoding: run.output, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(lines[1] == "2024-01-05,100,EUR,USD,,,USD,,ecb,error," + error)
    #expect(lines[2] == "2024-01-05,100,USD,USD,1,100.00,USD,2024-01-05,same currency,ok,")
    #expect(lines[3].hasSuffix(",error,no_rate: the ECB rates have no XXX rates at all"))
    #expect(run.report.fetch?.failedRequests == 1)
  }

  // The rate cache keeps the fetched table (one row in `histories`, not a row per key): a second run asks
  // nothing, and `--offline` converts from it, writing the same bytes.
  @Test func cacheKeepsTheFeedsTable() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let cache = try RateCache(directory: directory.url.appendingPathComponent("cache").path)
    let input = try directory.write(Format.csv.messyFile(seed: 3), named: "in.csv")
    let first = try Self.run(input, format: .csv, source: Self.ecbSource(server, cache: cache), parts: 1)
    #expect(server.requestCount == 1)
    let second = try Self.run(input, format: .csv, source: Self.ecbSource(server, cache: cache), parts: 1)
    #expect(server.requestCount == 1, "answered from the kept table")
    Self.compare(second, first, "from the cache")
    let offline = try Self.run(input, format: .csv, source: Self.ecbSource(server, cache: cache, offline: true), parts: 1)
    Self.compare(offline, first, "--offline")
    #expect(server.requestCount == 1)
    let key = RateKey(base: .euro, quote: try code("USD"), day: try day("2024-01-05"))
    let description = ECBFeedProvider(endpoint: server.url("/")).info.description
    #expect(cache.quotes(for: [key], source: description).isEmpty, "no row per key")
    #expect(cache.history(source: "table:" + description) != nil)
  }

  // Found by trying to break it: a table the cache kept holds the feed as fetched, no later publication. Offline
  // on a later day, a record after the fetch day is `no_rate` naming the cache, never the kept last day's rate
  // taken as a fallback; a record the kept 90-day file does not reach is not "before the ECB rates start".
  @Test func keptTableHoldsNoPublicationAfterItsFetch() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let cache = try RateCache(directory: directory.url.appendingPathComponent("cache").path)
    // The feed as fetched on 2026-10-27: its last publication is 2026-10-27.
    let fetchDay = try day("2026-10-27")
    let ninetyDays = Self.feed(from: try day("2026-08-04")).replacingOccurrences(
      of: #"<Cube time="2026-10-30">.*?</Cube>\n|<Cube time="2026-10-29">.*?</Cube>\n|<Cube time="2026-10-28">.*?</Cube>\n"#,
      with: "", options: .regularExpression)
    server.route("/eurofxref-hist-90d.xml", [.xml(ninetyDays)])
    var settings = FetchSettings()
    settings.cache = cache
    let fetching = RateSourceChoice.provider(ECBFeedProvider(endpoint: server.url("/")), settings)
    let first = try directory.write("date,amount,from,to\n2026-10-20,100,USD,EUR\n", named: "first.csv")
    let fetched = try Self.run(first, format: .csv, source: fetching, parts: 1) { $0.today = fetchDay }
    #expect(server.requestCount == 1)
    #expect(fetched.report.totals.ok == 1)
    settings.offline = true
    let offline = RateSourceChoice.provider(ECBFeedProvider(endpoint: server.url("/")), settings)
    let later = try directory.write(
      "date,amount,from,to\n2026-10-26,100,USD,EUR\n2026-10-29,100,USD,EUR\n2025-05-05,100,USD,EUR\n", named: "later.csv")
    let run = try Self.run(later, format: .csv, source: offline, parts: 1) { $0.today = Self.today }
    let text = String(decoding: run.output, as: UTF8.self)
    #expect(server.requestCount == 1)
    #expect(text.contains(",2026-10-26,ecb EUR/USD="), "a kept day converts")
    #expect(text.contains(",error,no_rate: the rate cache "))
    #expect(text.contains("holds no ECB publication deciding 2026-10-29"))
    #expect(text.contains("holds no ECB publication deciding 2025-05-05"))
    #expect(!text.contains("fallback"))
    #expect(!text.contains("2026-08-04; no earlier rate"))
    #expect(run.report.totals.ok == 1 && run.report.totals.error == 2)
  }

  @Test func lockOfTheNinetyDayFileDoesNotMoveTheECBsStart() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/eurofxref-hist-90d.xml", [.xml(Self.feed(from: try day("2026-08-04")))])
    let input = try directory.write("date,amount,from,to\n2026-10-01,100,USD,EUR\n", named: "in.csv")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    _ = try Self.run(input, format: .csv, source: Self.ecbSourceWithoutRoutes(server), parts: 1, lock: lock)
    #expect(server.requestCount(path: "/eurofxref-hist-90d.xml") == 1)
    let (frozen, defaultDay) = try Self.frozen(lock)
    let other = try directory.write("date,amount,from,to\n2025-05-05,100,USD,EUR\n1998-05-05,1,USD,EUR\n", named: "other.csv")
    let run = try Self.run(other, format: .csv, source: frozen, parts: 1) { $0.defaultDate = defaultDay }
    let text = String(decoding: run.output, as: UTF8.self)
    #expect(text.contains("no_rate: the lock file \(lock) (--frozen) holds no ECB publication deciding 2025-05-05"))
    #expect(text.contains("date_out_of_range: 1998-05-05 is before the ECB rates start (1999-01-04)"))
  }

  // Found by trying to break it: a quote whose rate text is not its numerator ÷ denominator would print one rate
  // and convert at another; such a lock is refused, in both versions, even with a matching digest.
  @Test func lockWhoseRateTextContradictsItsRateIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let body = """
      fxbatch-lock/2
      source frankfurter
      publisher Frankfurter
      description x
      default-day 2024-01-02
      quotes
      quote USD EUR 2024-01-03 1 2 7.5 2024-01-03 ok frankfurter USD/EUR=0.5

      """
    let v2 = try directory.write(body + "sha256 " + SHA256Digest.hex(of: Array(body.utf8)[...]) + "\n", named: "v2.lock")
    #expect(throws: RatesFileError.self) { try LockFile.load(path: v2) }
    let honest = body.replacingOccurrences(of: " 7.5 ", with: " 0.5 ")
    let good = try directory.write(honest + "sha256 " + SHA256Digest.hex(of: Array(honest.utf8)[...]) + "\n", named: "good.lock")
    #expect(throws: Never.self) { try LockFile.load(path: good) }
    let v1 = try directory.write(
      """
      {"defaultDay": "2024-01-05", "format": "fxbatch-lock/1", "rates": [{"base": "USD", "date": "2024-01-05",
      "denominator": "2", "fallback": false, "numerator": "1", "quote": "EUR", "rate": "7.5", "rateDate": "2024-01-05",
      "source": "x"}]}
      """, named: "v1.lock")
    #expect(throws: RatesFileError.self) { try LockFile.load(path: v1) }
  }

  // Found by trying to break it: a record the ECB cannot answer got one message when the run fetched the feed
  // and another when it did not, and a run that asked nothing wrote a quotes lock whose --frozen run differed.
  @Test func recordsTheFeedCannotAnswerReadTheSameFetchedOrNotAndFrozen() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let refused = "2030-01-02,100,USD,EUR\n1998-01-02,5,USD,EUR\n2024-01-02,5,EUR,EUR\n2024-01-02,5,XAU,EUR\n"
    let alone = try directory.write("date,amount,from,to\n" + refused, named: "alone.csv")
    let lock = directory.url.appendingPathComponent("alone.lock").path
    let live = try Self.run(alone, format: .csv, source: Self.ecbSource(server), parts: 1, lock: lock)
    #expect(server.requestCount == 0, "nothing to ask")
    let lines = String(decoding: live.output, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(lines[1].hasSuffix(",ecb,error,date_out_of_range: 2030-01-02 is in the future; no rates exist for it yet"))
    #expect(
      lines[2].hasSuffix(
        ",ecb,error,date_out_of_range: 1998-01-02 is before the ECB rates start (1999-01-04); no earlier rate exists"))
    #expect(lines[3].hasSuffix(",same currency,ok,"))
    #expect(lines[4].hasSuffix(",ecb,error,no_rate: the ECB rates have no XAU rates at all"))
    let (frozen, defaultDay) = try Self.frozen(lock)
    let frozenRun = try Self.run(alone, format: .csv, source: frozen, parts: 1) { $0.defaultDate = defaultDay }
    Self.compare(frozenRun, live, "--frozen of a run that asked nothing")
    // With a record that makes the run fetch the feed, the same records read the same.
    let mixed = try directory.write("date,amount,from,to\n" + refused + "2024-01-05,100,USD,EUR\n", named: "mixed.csv")
    let fetched = try Self.run(mixed, format: .csv, source: Self.ecbSource(server), parts: 1)
    #expect(server.requestCount == 1)
    let fetchedLines = String(decoding: fetched.output, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(Array(fetchedLines[1...4]) == Array(lines[1...4]))
  }
}
