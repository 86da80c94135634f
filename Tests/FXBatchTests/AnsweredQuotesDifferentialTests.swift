import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// A source that answers keys (Frankfurter over a loopback server; a lock file of its quotes under `--frozen`)
/// converts on the same fast path as a table (``TableConverter`` over ``AnsweredQuotes``), in CSV, JSON, JSON
/// Lines and XML, in one part and in parts: byte for byte what the general rules write for the same answers,
/// with the same counts and reconciliation, for messy records (errors, fallbacks, legacy currencies, undated
/// records, requests the service answers with "not found").
@Suite("Answered quotes: fast path = general path", .tags(.sanitized))
struct AnsweredQuotesDifferentialTests {
  typealias Format = TableSourceDifferentialTests.Format

  /// A Frankfurter v1 service on a loopback server answering from the embedded history for every request a run
  /// on `input` plans (its rates rounded to 6 significant digits, as a service's own figures would be); every
  /// 23rd (day, base) answers 404 `not found`.
  static func frankfurter(for input: String, server: LoopbackHTTPServer) -> RateSourceChoice {
    var settings = FetchSettings()
    settings.retryPolicy.baseDelay = 0.01
    settings.jobs = 4
    let source = RateSourceChoice.provider(FrankfurterV1Provider(endpoint: server.url("/")), settings)
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file("/dev/null")
    guard let plan = BatchJob(options: options, source: source).plan().plan else { return source }
    let table = EmbeddedECBHistory.table
    for request in plan.requests {
      guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
        let base = components.queryItems?.first(where: { $0.name == "base" })?.value,
        let symbols = components.queryItems?.first(where: { $0.name == "symbols" })?.value,
        let day = CalendarDay(iso8601: request.url.lastPathComponent), let baseCode = CurrencyCode(base)
      else { continue }
      var rates: [String] = []
      var rateDay: CalendarDay? = nil
      for symbol in symbols.split(separator: ",").map(String.init) {
        guard let quote = CurrencyCode(symbol),
          case .success(let found) = table.quote(
            for: RateKey(base: baseCode, quote: quote, day: day), maxStaleness: 10),
          let foundDay = found.rateDay
        else { continue }
        rateDay = foundDay
        rates.append("\"\(symbol)\":\(found.rate.decimalText(significantDigits: 6))")
      }
      let path = components.percentEncodedPath
      let query = components.percentEncodedQuery
      let predicate: @Sendable (HTTPRequestHead) -> Bool = { $0.path == path && $0.query == query }
      if let rateDay, (day.daysSinceEpoch + Int(baseCode.packed)) % 23 != 0 {
        server.routeMatching(
          predicate,
          [.json(#"{"amount":1.0,"base":"\#(base)","date":"\#(rateDay)","rates":{\#(rates.joined(separator: ","))}}"#)])
      } else {
        server.routeMatching(predicate, [.json(#"{"message":"not found"}"#, status: 404)])
      }
    }
    return source
  }

  /// A Frankfurter v2 service (``FrankfurterV2Server``) on a loopback server: its table is the embedded
  /// history's euro rates (6 significant digits) on the 30 days up to each key a run on `input` plans; the
  /// service computes the crosses. Currencies outside the table are its 422s.
  static func frankfurterV2(for input: String, server: LoopbackHTTPServer) -> RateSourceChoice {
    var settings = FetchSettings()
    settings.retryPolicy.baseDelay = 0.01
    settings.jobs = 4
    let source = RateSourceChoice.provider(FrankfurterProvider(endpoint: server.baseURL), settings)
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file("/dev/null")
    guard let plan = BatchJob(options: options, source: source).plan().plan, let euro = CurrencyCode("EUR") else {
      return source
    }
    let days = Set(plan.requests.flatMap { $0.keys.flatMap { key in (0...30).map { key.day.adding(days: -$0) } } })
    let table = EmbeddedECBHistory.table
    var rows: [(String, String, String)] = []
    for currency in table.currencies.sorted() where currency != euro {
      for day in days.sorted() {
        guard case .success(let found) = table.quote(for: RateKey(base: euro, quote: currency, day: day), maxStaleness: 0),
          found.rateDay == day
        else { continue }
        rows.append((day.description, currency.description, found.rate.decimalText(significantDigits: 6)))
      }
    }
    FrankfurterV2Server(rows: rows, today: TableSourceDifferentialTests.today.description).install(on: server)
    return source
  }

  @Test(arguments: Format.allCases, [1, 3])
  func frankfurterLockAndFrozenRunsWriteWhatTheGeneralPathWrites(format: Format, parts: Int) throws {
    try Self.lockAndFrozenRunsWriteWhatTheGeneralPathWrites(
      format: format, parts: parts, source: Self.frankfurter(for:server:), identifier: "frankfurter-v1")
  }

  @Test(arguments: Format.allCases, [1, 3])
  func frankfurterV2LockAndFrozenRunsWriteWhatTheGeneralPathWrites(format: Format, parts: Int) throws {
    try Self.lockAndFrozenRunsWriteWhatTheGeneralPathWrites(
      format: format, parts: parts, source: Self.frankfurterV2(for:server:), identifier: "frankfurter-v2")
  }

  // A chain of the embedded history and the v2 service, in either order: one link answers what the other has
  // no rate for, in the one engine; the fast path, a lock and --frozen on it write what the general path writes.
  @Test(arguments: Format.allCases, [false, true])
  func chainLockAndFrozenRunsWriteWhatTheGeneralPathWrites(format: Format, serviceFirst: Bool) throws {
    let identifier = serviceFirst ? "chain:frankfurter+embedded" : "chain:embedded+frankfurter"
    try Self.lockAndFrozenRunsWriteWhatTheGeneralPathWrites(
      format: format, parts: 3,
      source: { input, server in
        let embedded = RateSourceChoice.ChainLink(name: "embedded", source: .table(EmbeddedECBHistory.table))
        let service = RateSourceChoice.ChainLink(name: "frankfurter", source: Self.frankfurterV2(for: input, server: server))
        return .chain(serviceFirst ? [service, embedded] : [embedded, service])
      }, identifier: identifier)
  }

  /// A run on a messy file from a service: the fast path writes what the general path writes; a lock of it,
  /// under --frozen, writes the same again, on both paths, asking nothing.
  static func lockAndFrozenRunsWriteWhatTheGeneralPathWrites(
    format: Format, parts: Int, source makeSource: (String, LoopbackHTTPServer) -> RateSourceChoice, identifier: String
  ) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(format.messyFile(seed: 41 + UInt64(parts)), named: "in.\(format.rawValue)")
    let lock = directory.url.appendingPathComponent("rates.lock").path
    let source = makeSource(input, server)
    let general = try TableSourceDifferentialTests.run(input, format: format, source: source, parts: 1) {
      $0.fastPath = false
    }
    #expect(general.report.totals.ok > 100, "the service answers most records")
    #expect(general.report.totals.fallback > 0)
    #expect(general.report.totals.error > 0)
    let fast = try TableSourceDifferentialTests.run(input, format: format, source: source, parts: parts, lock: lock)
    TableSourceDifferentialTests.compare(fast, general, "--source frankfurter, fast path")
    let (frozen, defaultDay) = try TableSourceDifferentialTests.frozen(lock)
    guard case .lockFile = frozen else {
      Issue.record("a Frankfurter lock holds quotes")
      return
    }
    let requests = server.requestCount
    let frozenRun = try TableSourceDifferentialTests.run(input, format: format, source: frozen, parts: parts) {
      $0.defaultDate = defaultDay
    }
    #expect(server.requestCount == requests, "a frozen run asks nothing")
    let frozenGeneral = try TableSourceDifferentialTests.run(input, format: format, source: frozen, parts: 1) {
      $0.defaultDate = defaultDay
      $0.fastPath = false
    }
    TableSourceDifferentialTests.compare(frozenRun, frozenGeneral, "--frozen on a quotes lock, fast path")
    // The frozen run writes what the live run wrote, byte for byte: the service's quotes and its errors (kept in
    // the lock), under the same source name.
    TableSourceDifferentialTests.compare(frozenRun, fast, "--frozen on a quotes lock = the run that wrote it")
    #expect(frozenRun.report.rates.source.identifier == identifier)
  }

  /// A source text the format would have to escape sends every record of the file to the general path, which
  /// escapes it; the output is still the general path's.
  @Test(arguments: Format.allCases)
  func answersWithTextsToEscapeWriteWhatTheGeneralPathWrites(format: Format) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(format.messyFile(seed: 5), named: "in.\(format.rawValue)")
    var quotes: [RateKey: RateQuote] = [:]
    let table = EmbeddedECBHistory.table
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    let (_, plan) = BatchJob(
      options: options, source: .provider(FrankfurterV1Provider(endpoint: URL(fileURLWithPath: "/")), FetchSettings())
    ).plan()
    for request in plan?.requests ?? [] {
      for key in request.keys {
        guard case .success(let found) = table.quote(for: key, maxStaleness: 10) else { continue }
        quotes[key] = RateQuote(
          rate: found.rate, rateText: found.rateText, rateDay: found.rateDay, isFallback: found.isFallback,
          source: "desk \"A\", <book> & co; \(key.pair)")
      }
    }
    let source = RateSourceChoice.lockFile(path: "quotes.lock", quotes: LockFile.LockedQuotes(quotes: quotes))
    let general = try TableSourceDifferentialTests.run(input, format: format, source: source, parts: 1) {
      $0.fastPath = false
    }
    #expect(general.report.totals.ok > 100)
    let fast = try TableSourceDifferentialTests.run(input, format: format, source: source, parts: 3)
    TableSourceDifferentialTests.compare(fast, general, "texts to escape")
  }
}

/// Quotes locks no run writes are refused with the line that is wrong (found by breaking the answered path).
@Suite("Quotes locks: what no run writes is refused")
struct QuotesLockRefusalTests {
  /// A version 2 quotes lock with these lines after its header, and its digest.
  static func lock(_ lines: [String]) -> String {
    let body =
      ([
        "fxbatch-lock/2", "source frankfurter", "publisher Frankfurter", "description Frankfurter rates API (test)",
        "default-day 2024-01-02", "quotes",
      ] + lines).joined(separator: "\n") + "\n"
    return body + "sha256 \(SHA256Digest.hex(of: Array(body.utf8)))\n"
  }

  @Test(
    arguments: [
      (
        [
          "quote USD EUR 2024-01-02 0.9 1 0.9 2024-01-02 ok frankfurter USD/EUR=0.9",
          "quote USD EUR 2024-01-02 2 1 2 2024-01-02 ok frankfurter USD/EUR=2",
        ],
        "rates.lock:8:1: error: USD/EUR on 2024-01-02 is in the lock twice"
      ),
      (
        [
          "error USD EUR 2024-01-02 no_rate Frankfurter: not found",
          "quote USD EUR 2024-01-02 0.9 1 0.9 2024-01-02 ok frankfurter USD/EUR=0.9",
        ],
        "rates.lock:8:1: error: USD/EUR on 2024-01-02 is in the lock twice"
      ),
      (
        // Out of the written order: the third line repeats the first, stored before the keys were indexed.
        [
          "quote USD EUR 2024-01-02 0.9 1 0.9 2024-01-02 ok frankfurter USD/EUR=0.9",
          "quote USD EUR 2024-01-03 0.9 1 0.9 2024-01-03 ok frankfurter USD/EUR=0.9",
          "quote USD EUR 2024-01-02 2 1 2 2024-01-02 ok frankfurter USD/EUR=2",
        ],
        "rates.lock:9:1: error: USD/EUR on 2024-01-02 is in the lock twice"
      ),
      (
        ["quote USD USD 2024-01-02 7 1 7 2024-01-02 ok same currency"],
        "rates.lock:7:1: error: USD/USD is one currency: its rate is 1, not 7"
      ),
      (
        ["quote USD EUR 2024-01-02 0.9 1 0.9 9999-12-31 ok frankfurter USD/EUR=0.9"],
        "rates.lock:7:1: error: the rate of USD/EUR on 2024-01-02 is of a later day, 9999-12-31"
      ),
      (
        ["quote USD EUR 2024-01-02 99999999999999999999999999999999999999 0.5 1 2024-01-02 ok frankfurter USD/EUR=1"],
        "rates.lock:7:1: error: the rate 1 is not the quote's 99999999999999999999999999999999999999 ÷ 0.5 (2e+38)"
      ),
      (
        ["error USD EUR 2024-01-02 no_such_code Frankfurter: not found"],
        "rates.lock:7:1: error: malformed error line"
      ),
    ] as [([String], String)])
  func refused(lines: [String], message: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(Self.lock(lines), named: "rates.lock")
    #expect(throws: RatesFileError.self) { try LockFile.load(path: path) }
    do {
      _ = try LockFile.load(path: path)
    } catch {
      #expect("\(error)".hasSuffix(message.dropFirst("rates.lock".count)), "\(error)")
    }
  }

  /// A lock that is not there says so (a newcomer's `--frozen` before any `--lock` run got "cannot read").
  @Test func missingLockSaysItIsMissing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.url.appendingPathComponent("none.lock").path
    #expect(throws: RatesFileError.self) { try LockFile.load(path: path) }
    do {
      _ = try LockFile.load(path: path)
    } catch {
      #expect("\(error)".contains("cannot read the lock file: No such file or directory"), "\(error)")
    }
  }

  /// The same lines one at a time are read: a quote, an error, a same-currency quote of rate 1.
  @Test func wellFormedLinesAreRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(
      Self.lock([
        "quote USD EUR 2024-01-02 0.9 1 0.9 2024-01-02 ok frankfurter USD/EUR=0.9",
        "error USD JPY 2024-01-02 no_rate Frankfurter: not found",
        "quote USD USD 2024-01-02 1 1 1 2024-01-02 ok same currency",
      ]), named: "rates.lock")
    guard case .quotes(let locked) = try LockFile.load(path: path).rates else {
      Issue.record("a quotes lock")
      return
    }
    #expect(locked.quotes.count == 2)
    #expect(
      locked.errors[
        RateKey(base: CurrencyCode("USD")!, quote: CurrencyCode("JPY")!, day: CalendarDay(year: 2024, month: 1, day: 2)!)]
        == RowError(.noRate, "Frankfurter: not found"))
    #expect(locked.source?.identifier == "frankfurter")
  }
}
