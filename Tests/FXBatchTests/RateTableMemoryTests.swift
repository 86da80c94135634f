import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Issue 30: rate tables were a dense grid of days × pairs, 48 bytes a cell, whatever the rates present. A 10 MB
/// rates file from the year 1000 on took 4.3 GB; an ECB feed of 1.25 million empty `<Cube time>` days (3 MB
/// gzip'd) 1.7 GB for `convert`, 4–6.5 GB for `rates update`, 2.7 GB for `rates currencies`; a 2.2 MB lock of
/// 100,000 rows and 500 other pairs 2.1 GB. Tables now hold the rates present (``RateGrid/Builder``) and a source
/// may have at most ``RateTable/maximumDays`` days and ``RateTable/maximumPairs`` pairs. Each run is measured
/// from outside (`VmHWM` of the child process, debug build).
@Suite("hostile rate tables: bounded memory", .serialized)
struct RateTableMemoryTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// The issue's bound for a 10 MB rates file, feed or lock.
  static let peakLimitKiB = 300 * 1024
  /// The issue asks 20 s (a release build converts with the 10 MB rates file in 2 s); a debug build took 7–27 s
  /// for it on a 2-core machine running other suites at once.
  static let secondsLimit = 60.0

  /// 15 currencies, every ordered pair of them: 210 pairs.
  static let pairs: [(String, String)] = {
    let codes = ["USD", "JPY", "GBP", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "CAD", "AUD", "NZD", "SGD", "HKD"]
    return codes.flatMap { base in codes.filter { $0 != base }.map { (base, $0) } }
  }()

  /// The names the tests give files in their directory.
  static let files: Set<String> = ["rates.csv", "in.csv", "out.csv", "cache", "rates.lock"]

  static let yearThousand = CalendarDay(iso8601: "1000-01-01")!

  /// Runs the command measured; the names in `files` are taken in `directory` (the child runs in this process's
  /// working directory).
  /// The converted copy the runs write, `out.csv`.
  private static func output(in directory: TemporaryDirectory) throws -> String {
    try String(contentsOf: directory.url.appendingPathComponent("out.csv"), encoding: .utf8)
  }

  private func measure(_ arguments: [String], in directory: TemporaryDirectory, files: Set<String> = files) throws
    -> MeasuredRun
  {
    let absolute = arguments.map { files.contains($0) ? directory.url.appendingPathComponent($0).path : $0 }
    let run = try MeasuredRun.run(cli.executable, absolute, in: directory.url, environment: cli.environment, timeLimit: 120)
    #expect(!run.timedOut)
    #expect(run.peakResidentKiB > 0, "no memory reading")
    #expect(run.peakResidentKiB < Self.peakLimitKiB, "peaked at \(run.peakResidentKiB) KiB")
    #expect(run.seconds < Self.secondsLimit, "took \(run.seconds) s")
    return run
  }

  /// A 10 MB `date,base,quote,rate` file from 1000-01-01 on: line `i` is pair `i mod 210` on the day
  /// `3 × (i / 3)` days after it (134,000 days over 1,100 years, 403,000 rates: a grid of 28 million cells), rate
  /// `1.` and `i mod 10000` in four digits. Line 210,211 (i = 210,211) is USD/GBP 1.0211 on day 210,210.
  @Test(.timeLimit(.minutes(3)))
  func tenMegabyteRatesFileFromTheYear1000() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var text = Array("date,base,quote,rate\n".utf8)
    var index = 0
    while text.count < 10 << 20 {
      let (base, quote) = Self.pairs[index % Self.pairs.count]
      let day = Self.yearThousand.adding(days: 3 * (index / 3))
      let digits = String(index % 10_000)
      text += Array("\(day),\(base),\(quote),1.\(String(repeating: "0", count: 4 - digits.count))\(digits)\n".utf8)
      index += 1
    }
    _ = try directory.write(text, named: "rates.csv")
    let day = Self.yearThousand.adding(days: 210_210)
    try directory.write("in.csv", "date,amount,from,to\n\(day),100,USD,GBP\n")
    let run = try measure(["convert", "-q", "--rates", "rates.csv", "in.csv", "-o", "out.csv"], in: directory)
    #expect(run.status == 0, "\(run.standardError)")
    let output = try Self.output(in: directory)
    #expect(output.contains("\(day),100,USD,GBP,1.0211,102.11,GBP,\(day),file:rates.csv USD/GBP=1.0211,ok,"), "\(output)")
  }

  /// One day past ``RateTable/maximumDays``: refused at the line of the 200,001st day, exit status 2 as for any
  /// bad rates file.
  @Test(.timeLimit(.minutes(3)))
  func ratesFileOfTooManyDaysIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var text = Array("date,base,quote,rate\n".utf8)
    for offset in 0...RateTable.maximumDays {
      text += Array("\(Self.yearThousand.adding(days: offset)),EUR,USD,1.1\n".utf8)
    }
    _ = try directory.write(text, named: "rates.csv")
    try directory.write("in.csv", "date,amount,from,to\n1500-01-01,100,EUR,USD\n")
    let run = try measure(["convert", "-q", "--rates", "rates.csv", "in.csv", "-o", "out.csv"], in: directory)
    #expect(run.status == 2)
    let last = Self.yearThousand.adding(days: RateTable.maximumDays)
    #expect(
      run.standardError.contains(
        "rates.csv:200002:1: error: \(last): more than 200,000 days of rates; a rate source may have at most 200,000 (over 500 years of daily rates)"
      ), "\(run.standardError)")
  }

  /// An ECB feed, gzip'd by `gzip(1)`: one full day (2026-11-27: `currencies` currencies, USD 1.13) and
  /// `emptyDays` empty `<Cube time>` days from 1000-01-01 on.
  static func hostileFeed(emptyDays: Int, currencies: Int = 30) throws -> Data {
    var text = Array(
      (#"<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>"#
        + #"<Cube time="2026-11-27"><Cube currency="USD" rate="1.13"/>"#).utf8)
    for currency in EmbeddedECBHistory.table.pairs.map(\.quote).filter({ $0.description != "USD" }).prefix(currencies - 1) {
      text += Array(#"<Cube currency="\#(currency)" rate="1.5"/>"#.utf8)
    }
    text += Array("</Cube>\n".utf8)
    for offset in 0..<emptyDays { text += Array("<Cube time=\"\(yearThousand.adding(days: offset))\"/>\n".utf8) }
    text += Array("</Cube></gesmes:Envelope>\n".utf8)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(text, named: "feed.xml")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", "-9", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return data
  }

  static func gzipXML(_ body: Data) -> ScriptedResponse {
    ScriptedResponse(headers: ["Content-Type": "application/xml", "Content-Encoding": "gzip"], body: body)
  }

  /// The issue's feed: 1.25 million empty days (31 MB decoded, 3 MB sent). `convert` gives its keys
  /// `bad_response` (exit 1), `rates update` and `rates currencies` refuse it (exit 2), each naming the limit,
  /// within the documented `--jobs` × 32 MB and the runtime.
  @Test(.timeLimit(.minutes(5)))
  func feedOfMillionsOfEmptyDaysIsRefused() throws {
    let feed = try Self.hostileFeed(emptyDays: 1_250_000)
    #expect(feed.count < 4 << 20, "the feed is \(feed.count) bytes gzip'd")
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/eurofxref-hist.xml", [Self.gzipXML(feed)])
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let endpoint = server.baseURL.absoluteString + "/"
    let limit = "more than 200,000 days of rates; a rate source may have at most 200,000 (over 500 years of daily rates)"
    try directory.write("in.csv", "date,amount,from,to\n2024-03-01,100,EUR,USD\n")
    let convert = try measure(
      ["convert", "-q", "--source", "ecb", "--endpoint", endpoint, "--cache-dir", "cache", "in.csv", "-o", "out.csv"],
      in: directory)
    #expect(convert.status == 3, "\(convert.standardError)")
    let output = try Self.output(in: directory)
    #expect(output.contains(",error,\"bad_response: eurofxref-hist.xml: 1547-08-01: "), "\(output)")
    #expect(output.contains(limit), "\(output)")
    let update = try measure(["rates", "update", "--endpoint", endpoint, "--cache-dir", "cache"], in: directory)
    #expect(update.status == 3)
    #expect(update.standardError.contains(limit), "\(update.standardError)")
    let currencies = try measure(["rates", "currencies", "--source", "ecb", "--endpoint", endpoint], in: directory)
    #expect(currencies.status == 3)
    #expect(currencies.standardError.contains("not a currency list: "), "\(currencies.standardError)")
    #expect(currencies.standardError.contains(limit), "\(currencies.standardError)")
  }

  /// Just under the limit: 199,999 empty days (1000-01-01 .. 1547-07-31) and the full one. Each command works,
  /// in bounded memory: the table holds 30 rates and 200,000 days; `convert` and `rates update` keep the history
  /// in the cache (26 MB as an ECB history CSV, under its 32 MB).
  @Test(.timeLimit(.minutes(5)))
  func feedOfManyEmptyDaysUnderTheLimitConverts() throws {
    let feed = try Self.hostileFeed(emptyDays: RateTable.maximumDays - 1)
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/eurofxref-hist.xml", [Self.gzipXML(feed)])
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let endpoint = server.baseURL.absoluteString + "/"
    try directory.write("in.csv", "date,amount,from,to\n2026-11-27,100,EUR,USD\n2024-03-01,100,EUR,USD\n")
    let convert = try measure(
      ["convert", "-q", "--source", "ecb", "--endpoint", endpoint, "--cache-dir", "cache", "in.csv", "-o", "out.csv"],
      in: directory)
    #expect(convert.status == 1, "\(convert.standardError)")
    let lines = try Self.output(in: directory)
      .split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].hasPrefix("2026-11-27,100,EUR,USD,1.13,113.00,USD,2026-11-27,ecb EUR/USD=1.13,ok,"), "\(lines)")
    // The latest day before it is an empty one of 1547.
    #expect(lines[2].contains(",error,stale_rate: ECB published no rates in the 5 days up to 2024-03-01"), "\(lines)")
    let update = try measure(["rates", "update", "--endpoint", endpoint, "--cache-dir", "cache"], in: directory)
    #expect(update.status == 0, "\(update.standardError)")
    let show = try cli.run(["rates", "show", "EUR", "USD", "--cache-dir", "cache"], in: directory.url)
    #expect(show.standardOutput == "1 EUR = 1.13 USD  rate date 2026-11-27  source ecb-cache EUR/USD=1.13\n")
    let currencies = try measure(["rates", "currencies", "--source", "ecb", "--endpoint", endpoint], in: directory)
    #expect(currencies.status == 0, "\(currencies.standardError)")
  }

  /// The same feed with 41 currencies: 35 MB as an ECB history CSV, more than the rate cache keeps. `convert`
  /// used it and kept nothing without a word, so that each run fetched it again; it now says why it was not
  /// kept, and `rates update` refuses it. The cache keeps no history either way.
  @Test(.timeLimit(.minutes(5)))
  func feedLargerThanTheCacheKeepsIsUsedAndSaysSo() throws {
    let feed = try Self.hostileFeed(emptyDays: RateTable.maximumDays - 1, currencies: 41)
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    server.route("/eurofxref-hist.xml", [Self.gzipXML(feed), Self.gzipXML(feed)])
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let endpoint = server.baseURL.absoluteString + "/"
    try directory.write("in.csv", "date,amount,from,to\n2026-11-27,100,EUR,USD\n2024-03-01,100,EUR,USD\n")
    let convert = try measure(
      ["convert", "--source", "ecb", "--endpoint", endpoint, "--cache-dir", "cache", "in.csv", "-o", "out.csv"],
      in: directory)
    #expect(convert.status == 1, "\(convert.standardError)")
    let output = try Self.output(in: directory)
    #expect(output.contains("\n2026-11-27,100,EUR,USD,1.13,113.00,USD,2026-11-27,ecb EUR/USD=1.13,ok,\n"), "\(output)")
    let reason =
      "its 200000 days × 41 currencies are larger than the rate cache keeps (32 MB as an ECB history CSV)"
    #expect(
      convert.standardError.contains("cache: the fetched rates were used, not kept: \(reason)\n"),
      "\(convert.standardError)")
    let update = try measure(["rates", "update", "--endpoint", endpoint, "--cache-dir", "cache"], in: directory)
    #expect(update.status == 2)
    #expect(update.standardError.contains("\(reason); nothing was kept"), "\(update.standardError)")
    let cache = try RateCache(directory: directory.url.appendingPathComponent("cache").path)
    #expect(cache.history(source: "table:" + ECBFeedProvider(endpoint: server.url("/")).info.description) == nil)
    #expect(cache.history(source: EmbeddedECBHistory.cacheSource) == nil)
  }

  /// A version 2 lock of a table with a valid digest: `rows` rate lines of one kept pair (EUR/USD) from
  /// 1800-01-01 on, and 500 other pairs.
  static func hostileLock(rows: Int) -> String {
    let codes = ISO4217.allCurrencies.map(\.code).filter { $0 != .euro && $0.description != "USD" }
    let others = codes.prefix(25).flatMap { base in codes.suffix(20).map { "\(base)/\($0)" } }
    let first = CalendarDay(iso8601: "1800-01-01")!
    var lines = [
      "fxbatch-lock/2", "source file:big.csv", "publisher big.csv", "description rates file big.csv",
      "default-day 2000-01-01", "table dated", "first-day \(first)", "last-day \(first.adding(days: rows - 1))",
      "pairs EUR/USD", "other-pairs " + others.prefix(500).joined(separator: " "),
    ]
    for offset in 0..<rows {
      let next = offset + 1 < rows ? first.adding(days: offset + 1).description : "-"
      lines.append("rate \(first.adding(days: offset)) \(next) 1.1")
    }
    let body = lines.joined(separator: "\n") + "\n"
    return body + "sha256 \(SHA256Digest.hex(of: Array(body.utf8)))\n"
  }

  /// The issue's lock: 100,000 rows, 500 other pairs, a valid digest (2.1 GB before: a grid of 50 million
  /// cells). A frozen run converts from it.
  @Test(.timeLimit(.minutes(3)))
  func lockOfManyRowsAndOtherPairsConverts() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lock = Self.hostileLock(rows: 100_000)
    #expect(lock.utf8.count > 2 << 20)
    try directory.write("rates.lock", lock)
    try directory.write("in.csv", "date,amount,from,to\n1900-01-01,100,EUR,USD\n")
    let run = try measure(
      ["convert", "-q", "--lock", "rates.lock", "--frozen", "in.csv", "-o", "out.csv"], in: directory)
    #expect(run.status == 0, "\(run.standardError)")
    let output = try Self.output(in: directory)
    #expect(output.contains("1900-01-01,100,EUR,USD,1.1,110.00,USD,1900-01-01,file:big.csv EUR/USD=1.1,ok,"), "\(output)")
  }

  /// A 10 MB lock whose rate lines are all `1` cells: 1,000 kept pairs × 5,000 days, 5 million rates. The table
  /// builder held each rate as an `ExactDecimal` (32 bytes, 40 with its row and column, twice while its array
  /// grew): 402 MB; it now holds significand and scale (17 bytes): 211 MB.
  @Test(.timeLimit(.minutes(3)))
  func lockOfMillionsOfCellsConverts() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let codes = ISO4217.allCurrencies.map(\.code.description).prefix(50)
    let pairs = codes.flatMap { base in codes.filter { $0 != base }.map { "\(base)/\($0)" } }.prefix(1_000)
    let first = CalendarDay(iso8601: "2000-01-01")!
    let rows = 5_000
    var body = [
      "fxbatch-lock/2", "source file:big.csv", "publisher big.csv", "description rates file big.csv",
      "default-day 2000-01-01", "table dated", "first-day \(first)", "last-day \(first.adding(days: rows - 1))",
      "pairs " + pairs.joined(separator: " "),
    ].joined(separator: "\n") + "\n"
    let cells = Array(repeating: "1", count: pairs.count).joined(separator: " ")
    for offset in 0..<rows {
      let next = offset + 1 < rows ? first.adding(days: offset + 1).description : "-"
      body += "rate \(first.adding(days: offset)) \(next) \(cells)\n"
    }
    #expect(body.utf8.count > 10_000_000)
    try directory.write("rates.lock", body + "sha256 \(SHA256Digest.hex(of: Array(body.utf8)))\n")
    let (base, quote) = (pairs[999].prefix(3), pairs[999].suffix(3))
    try directory.write("in.csv", "date,amount,from,to\n2010-01-01,100,\(base),\(quote)\n")
    let run = try measure(["convert", "-q", "--lock", "rates.lock", "--frozen", "in.csv", "-o", "out.csv"], in: directory)
    #expect(run.status == 0, "\(run.standardError)")
    let output = try Self.output(in: directory)
    #expect(
      output.contains("2010-01-01,100,\(base),\(quote),1,100"), "\(output)")
  }

  /// A lock of more rows than ``RateTable/maximumDays`` is refused before its rows are read.
  @Test func lockOfTooManyRowsIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.lock", Self.hostileLock(rows: RateTable.maximumDays + 1))
    try directory.write("in.csv", "date,amount,from,to\n1900-01-01,100,EUR,USD\n")
    let run = try cli.run(["convert", "-q", "--lock", "rates.lock", "--frozen", "in.csv", "-o", "out.csv"], in: directory.url)
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("rates.lock:11:1: error: more than 200,000 days of rates"), "\(run.standardError)")
  }

  /// The USD/GBP rate of day `offset` in ``wideTableOverManyDaysConverts()``: `0.5`, the offset in four digits,
  /// `1` (no trailing zero, so the rate is written as given).
  static func wideRate(_ offset: Int) -> String {
    let digits = String(offset)
    return "0.5\(String(repeating: "0", count: 4 - digits.count))\(digits)1"
  }

  /// A table of 4,830 pairs (every pair of 70 currencies, one day) and 5,000 days of USD/GBP: the converter
  /// loaded each day a file touches as a row of all its pairs (17 bytes a cell, 480 MB for 5,000 days); it now
  /// lets its rows go past a million cells. Every record converts on its own day's rate.
  @Test(.timeLimit(.minutes(3)))
  func wideTableOverManyDaysConverts() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let codes = ISO4217.allCurrencies.map(\.code).filter { !["USD", "GBP"].contains($0.description) }.prefix(70)
    let first = CalendarDay(iso8601: "2000-01-03")!
    var text = "date,base,quote,rate\n"
    for base in codes {
      for quote in codes where quote != base { text += "\(first),\(base),\(quote),\(base < quote ? "2" : "0.5")\n" }
    }
    var records = "date,amount,from,to\n"
    for offset in 0..<5_000 {
      text += "\(first.adding(days: offset)),USD,GBP,\(Self.wideRate(offset))\n"
      records += "\(first.adding(days: offset)),100,USD,GBP\n"
    }
    try directory.write("rates.csv", text)
    try directory.write("in.csv", records)
    let run = try measure(["convert", "-q", "--rates", "rates.csv", "in.csv", "-o", "out.csv"], in: directory)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.peakResidentKiB < 150 * 1024, "peaked at \(run.peakResidentKiB) KiB")
    let lines = try Self.output(in: directory)
      .split(separator: "\n")
    #expect(lines.count == 5_001)
    for (offset, line) in lines.dropFirst().enumerated() where offset % 499 == 0 || offset == 4_999 {
      let day = first.adding(days: offset)
      let rate = Self.wideRate(offset)
      #expect(line.hasPrefix("\(day),100,USD,GBP,\(rate),"), "\(line)")
      #expect(line.hasSuffix(",GBP,\(day),file:rates.csv USD/GBP=\(rate),ok,"), "\(line)")
    }
  }

  /// A table whose two days are 9,000 years apart: the converter's day index covers the last century (4 bytes a
  /// day of the span, per thread, before); the first day's records take the general path, with the same result.
  @Test func tableSpanningTheCalendarConvertsAtBothEnds() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("rates.csv", "date,base,quote,rate\n0001-01-01,EUR,USD,1.5\n9999-12-01,EUR,USD,2.5\n")
    try directory.write("in.csv", "date,amount,from,to\n0001-01-01,10,EUR,USD\n9999-12-01,10,EUR,USD\n0001-01-03,10,EUR,USD\n")
    let run = try cli.run(["convert", "-q", "--rates", "rates.csv", "in.csv", "-o", "-"], in: directory.url)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.split(separator: "\n").dropFirst() == [
        "0001-01-01,10,EUR,USD,1.5,15.00,USD,0001-01-01,file:rates.csv EUR/USD=1.5,ok,",
        "9999-12-01,10,EUR,USD,2.5,25.00,USD,9999-12-01,file:rates.csv EUR/USD=2.5,ok,",
        "0001-01-03,10,EUR,USD,1.5,15.00,USD,0001-01-01,file:rates.csv EUR/USD=1.5,fallback,",
      ])
  }

  /// 10,001 pairs of ISO 4217 codes, each with rate 1 (so both directions of a pair agree).
  static let tooManyPairs: [String] = {
    let codes = ISO4217.allCurrencies.map(\.code.description)
    return Array(codes.flatMap { base in codes.filter { $0 != base }.map { "\(base)/\($0)" } }.prefix(10_001))
  }()

  /// A rates file of more pairs than ``RateTable/maximumPairs`` is refused at the line of the first pair past it.
  @Test func ratesFileOfTooManyPairsIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = Self.tooManyPairs.map { "2024-01-02,\($0.replacingOccurrences(of: "/", with: ",")),1\n" }
    try directory.write("rates.csv", "date,base,quote,rate\n" + lines.joined())
    try directory.write("in.csv", "date,amount,from,to\n2024-01-02,100,EUR,USD\n")
    let run = try cli.run(["convert", "-q", "--rates", "rates.csv", "in.csv", "-o", "out.csv"], in: directory.url)
    #expect(run.status == 2)
    #expect(
      run.standardError.contains(
        "rates.csv:10002:12: error: \(Self.tooManyPairs[10_000]): more than 10,000 currency pairs; a rate source may have at most 10,000"
      ), "\(run.standardError)")
  }

  /// A lock whose pairs and other pairs are more than ``RateTable/maximumPairs`` is refused.
  @Test func lockOfTooManyPairsIsRefused() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let body =
      [
        "fxbatch-lock/2", "source file:big.csv", "publisher big.csv", "description rates file big.csv",
        "default-day 2000-01-01", "table dated", "first-day 2000-01-03", "last-day 2000-01-03", "pairs EUR/USD",
        "other-pairs " + Self.tooManyPairs.dropFirst().joined(separator: " "), "rate 2000-01-03 - 1.1",
      ].joined(separator: "\n") + "\n"
    try directory.write("rates.lock", body + "sha256 \(SHA256Digest.hex(of: Array(body.utf8)))\n")
    try directory.write("in.csv", "date,amount,from,to\n2000-01-03,100,EUR,USD\n")
    let run = try cli.run(["convert", "-q", "--lock", "rates.lock", "--frozen", "in.csv", "-o", "out.csv"], in: directory.url)
    #expect(run.status == 2)
    #expect(
      run.standardError.contains(
        "rates.lock:10:1: error: more than 10,000 currency pairs; a rate source may have at most 10,000"),
      "\(run.standardError)")
  }
}
