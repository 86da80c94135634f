import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// `fxbatch rates lock FILE… -o LOCK`: pass 1 only, the source asked as convert asks it, the lock written; then
/// every part of the data converts with `--lock LOCK --frozen`, never asking the source again.
@Suite("rates lock")
struct RatesLockCommandTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  // 12 days × 50 records of EUR→USD and EUR→GBP in two files; the loopback server answers day d with
  // USD 1.10dd and GBP 0.85dd after 100 ms. One request a day (both quotes in it), at most --jobs 3 in flight.
  @Test func locksWithBoundedConcurrencyThenFrozenPartsNeverFetch() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var parts = ["", ""]
    for day in 1...12 {
      let date = "2024-04-\(String(format: "%02d", day))"
      let rates = ["USD": "1.10\(String(format: "%02d", day))", "GBP": "0.85\(String(format: "%02d", day))"]
      server.route(
        "/v1/\(date)", [.json(NetworkEndToEndTests.frankfurter(date: date, rates: rates), delay: .milliseconds(100))])
      for record in 0..<50 {
        parts[day % 2] += "\(date),\(record + 1).5\(record % 10),EUR,\(record % 2 == 0 ? "USD" : "GBP")\n"
      }
    }
    let header = "date,amount,from,to\n"
    try directory.write("a.csv", header + parts[0])
    try directory.write("b.csv", header + parts[1])
    try directory.write("whole.csv", header + parts[0] + parts[1])
    let endpoint = server.baseURL.absoluteString
    let network = ["--source", "frankfurter-v1", "--endpoint", endpoint, "--no-cache"]
    let locked = try cli.run(["rates", "lock", "a.csv", "b.csv", "-o", "rates.lock", "--jobs", "3"] + network, in: directory.url)
    #expect(locked.status == 0, "\(locked.standardError)")
    #expect(locked.standardError.contains("requests: 12 sent, 0 retries, 0 failed"))
    #expect(server.requestCount == 12)
    #expect(server.peakConcurrentRequests == 3)
    #expect(try directory.fileNames() == ["a.csv", "b.csv", "rates.lock", "whole.csv"], "nothing converted")
    let live = try cli.run(["convert", "-q", "-o", "-", "whole.csv"] + network, in: directory.url)
    #expect(live.status == 0)
    #expect(server.requestCount == 24)
    server.stop()
    // The parts, frozen, without the server: byte for byte the live run's records.
    var frozenRecords: [Substring] = []
    for name in ["a.csv", "b.csv"] {
      let frozen = try cli.run(["convert", "-q", "-o", "-", "--lock", "rates.lock", "--frozen", name], in: directory.url)
      #expect(frozen.status == 0, "\(frozen.standardError)")
      frozenRecords += frozen.standardOutput.split(separator: "\n").dropFirst()
    }
    let liveRecords = live.standardOutput.split(separator: "\n").dropFirst()
    #expect(frozenRecords.count == 600)
    #expect(Set(frozenRecords) == Set(liveRecords))
    #expect(liveRecords.first == "2024-04-02,1.50,EUR,USD,1.1002,1.65,USD,2024-04-02,frankfurter-v1 EUR/USD=1.1002,ok,")
    // A key the lock lacks is that record's error, not a fetch (the server is gone: a fetch would say so).
    try directory.write("late.csv", header + "2024-04-20,10,EUR,USD\n2024-04-03,10,EUR,GBP\n")
    let late = try cli.run(["convert", "-q", "-o", "-", "--lock", "rates.lock", "--frozen", "late.csv"], in: directory.url)
    #expect(late.status == 1)
    #expect(late.standardOutput.contains("error,no_rate: EUR/USD on 2024-04-20 is not in the lock file rates.lock (--frozen)"))
    #expect(late.standardOutput.contains("2024-04-03,10,EUR,GBP,0.8503,8.50,GBP,2024-04-03,frankfurter-v1 EUR/GBP=0.8503,ok,"))
  }

  // Under a table source (embedded, spot or a period rule), the lock holds what convert --lock keeps, and
  // converts the file as the table does. It may hold more: pass 1 reads the key of a record whose amount is no
  // number (`n/a`, one every 200 records here), and under a spot rule convert --lock keeps only the rows its
  // conversions read (the period rule's answers are those of pass 1's keys either way).
  /// A lock that leaves keys out (the source failed them) is no success: exit 1, saying how many; `rates lock`
  /// without a file is a usage error that writes nothing.
  @Test func aLockWithKeysLeftOutIsNoSuccess() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route("/v1/2024-04-02", [.json(NetworkEndToEndTests.frankfurter(date: "2024-04-02", rates: ["USD": "1.0763"]))])
    server.route("/v1/2024-04-03", Array(repeating: .json(#"{"message":"down"}"#, status: 500), count: 8))
    try directory.write("in.csv", "date,amount,from,to\n2024-04-02,10,EUR,USD\n2024-04-03,10,EUR,USD\n")
    let network = ["--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString, "--no-cache", "--retries", "0"]
    let locked = try cli.run(["rates", "lock", "in.csv", "-o", "rates.lock"] + network, in: directory.url)
    #expect(locked.status == 3, "\(locked.standardError)")
    #expect(locked.standardError.contains("1 keys left out (the source failed them)"), "\(locked.standardError)")
    // An input that cannot be read leaves an earlier lock as it was.
    let before = try Data(contentsOf: directory.url.appendingPathComponent("rates.lock"))
    let missing = try cli.run(["rates", "lock", "in.csv", "missing.csv", "-o", "rates.lock"] + network, in: directory.url)
    #expect(missing.status == 2)
    #expect(
      missing.standardError.contains("rates.lock: not written, as missing.csv could not be read"), "\(missing.standardError)")
    #expect(try Data(contentsOf: directory.url.appendingPathComponent("rates.lock")) == before)
    let none = try cli.run(["rates", "lock", "-o", "none.lock"], in: directory.url)
    #expect(none.status == 64)
    #expect(none.standardError.contains("rates lock needs the files whose rate keys to lock"))
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/none.lock"))
  }

  @Test func lockConvertsAsTheTableDoes() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let lines = PartitionedRunTests.records(count: 3_000, seed: 3)
    try directory.write("in.csv", "date,from,to,amount\n" + lines.map { $0 + "\n" }.joined())
    for rule in [[], ["--rate-kind", "average", "--period", "quarter"]] {
      let locked = try cli.run(["rates", "lock", "-q", "in.csv", "-o", "pass1.lock"] + rule, in: directory.url)
      #expect(locked.status == 0, "\(locked.standardError)")
      let converted = try cli.run(["convert", "-q", "in.csv", "-o", "out.csv", "--lock", "run.lock"] + rule, in: directory.url)
      #expect(converted.status == 1)
      let written = try directory.read("pass1.lock")
      #expect(written.hasPrefix("fxbatch-lock/"))
      let lines = Set(written.split(separator: "\n").filter { !$0.hasPrefix("sha256 ") })
      let kept = try directory.read("run.lock").split(separator: "\n").filter { !$0.hasPrefix("sha256 ") }
      #expect(kept.allSatisfy { lines.contains($0) })
      let frozen = try cli.run(
        ["convert", "-q", "in.csv", "-o", "frozen.csv", "--lock", "pass1.lock", "--frozen"] + rule, in: directory.url)
      #expect(frozen.status == 1)
      #expect(try directory.read("frozen.csv") == (try directory.read("out.csv")))
    }
    let refused = try cli.run(["rates", "lock", "in.csv"], in: directory.url)
    #expect(refused.status == 64)
    #expect(refused.standardError.contains("rates lock needs -o LOCKFILE"))
    // A lock path that cannot be written is named by the option given (it said '--lock /nonexistent/x.lock').
    let unwritable = try cli.run(["rates", "lock", "in.csv", "-o", "/nonexistent-fxbatch/x.lock"], in: directory.url)
    #expect(unwritable.status == 64)
    #expect(unwritable.standardError.contains("fxbatch: error: -o /nonexistent-fxbatch/x.lock: no such directory"), "\(unwritable.standardError)")
    let empty = try cli.run(["rates", "lock", "in.csv", "-o", ""], in: directory.url)
    #expect(empty.status == 64)
    #expect(empty.standardError.contains("rates lock needs -o LOCKFILE"), "\(empty.standardError)")
  }

  // Issue 30: a version 1 lock has no digest, so each rate is checked against what its own fx_source says. A
  // hand-written rate of 2 turned 12500 USD into 25000.00 EUR, status ok, while fx_source said EUR/USD=1.1424.
  @Test func versionOneRatesAreCheckedAgainstTheirSource() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2024-01-05,12500,USD,EUR\n")
    func lock(_ entry: String) -> String {
      """
      {"format": "fxbatch-lock/1", "defaultDay": "2024-01-05", "rates": [{"base": "USD", "quote": "EUR",
      "date": "2024-01-05", "rateDate": "2024-01-05", \(entry)}]}
      """
    }
    let honest = #""numerator": "1", "denominator": "1.1424", "rate": "0.8753501401", "fallback": false, "source": "frankfurter EUR/USD=1.1424""#
    try directory.write("honest.lock", lock(honest))
    let read = try cli.run(["convert", "-q", "-o", "-", "--lock", "honest.lock", "--frozen", "in.csv"], in: directory.url)
    #expect(read.status == 0, "\(read.standardError)")
    #expect(read.standardOutput.contains(",12500,USD,EUR,0.8753501401,10941.88,EUR,2024-01-05,frankfurter EUR/USD=1.1424,ok,"))
    let forged: [(String, String)] = [
      (
        #""numerator": "2", "denominator": "1", "rate": "2", "fallback": false, "source": "frankfurter EUR/USD=1.1424""#,
        #"entry 1: the rate of USD/EUR on 2024-01-05, 2 ÷ 1, is not what its source "frankfurter EUR/USD=1.1424" says (0.8753501401)"#
      ),
      (
        #""numerator": "2", "denominator": "1", "rate": "2", "fallback": false, "source": "frankfurter""#,
        "names no published rate in its source"
      ),
      (
        #""numerator": "2", "denominator": "1", "rate": "2", "fallback": false, "source": "frankfurter EUR/GBP=2""#,
        "do not make a USD/EUR rate"
      ),
      (
        #""numerator": "1", "denominator": "1.1424", "rate": "0.8753501401", "fallback": true, "source": "frankfurter EUR/USD=1.1424""#,
        "is of that day, yet marked fallback"
      ),
      (
        // A fraction off the published rate by less than fx_rate's 10 digits show: 1e9 USD became
        // 875350140.05 EUR, not 875350140.06, status ok.
        #""numerator": "1", "denominator": "1.142400000005", "rate": "0.8753501401", "fallback": false, "source": "frankfurter EUR/USD=1.1424""#,
        #"is not what its source "frankfurter EUR/USD=1.1424" says"#
      ),
      (
        // Foundation reads the first of two members, Python and jq the last: neither is taken.
        #""numerator": "1", "denominator": "1.1424", "rate": "0.8753501401", "fallback": false, "source": "frankfurter EUR/USD=1.1424", "numerator": "2""#,
        "the member rates[0].numerator occurs twice"
      ),
    ]
    for (entry, message) in forged {
      try directory.write("forged.lock", lock(entry))
      let refused = try cli.run(["convert", "-q", "-o", "out.csv", "--lock", "forged.lock", "--frozen", "in.csv"], in: directory.url)
      #expect(refused.status == 2)
      #expect(refused.standardError.contains(message), "\(refused.standardError)")
      #expect(!FileManager.default.fileExists(atPath: directory.path + "/out.csv"))
    }
    // A cross rate is checked through its two published legs; a version 2 quote line is checked the same way.
    let cross = #""numerator": "158.57", "denominator": "1.0921", "rate": "145.1973263", "fallback": false, "source": "ecb-embedded EUR/USD=1.0921 EUR/JPY=158.57""#
    try directory.write("cross.lock", lock(cross).replacingOccurrences(of: #""quote": "EUR""#, with: #""quote": "JPY""#))
    try directory.write("jpy.csv", "date,amount,from,to\n2024-01-05,100,USD,JPY\n")
    let crossed = try cli.run(["convert", "-q", "-o", "-", "--lock", "cross.lock", "--frozen", "jpy.csv"], in: directory.url)
    #expect(crossed.status == 0, "\(crossed.standardError)")
    let body = "fxbatch-lock/2\nsource frankfurter\npublisher Frankfurter\ndescription d\ndefault-day 2024-01-05\nquotes\n"
      + "quote USD EUR 2024-01-05 2 1 2 2024-01-05 ok frankfurter EUR/USD=1.1424\n"
    try directory.write("v2.lock", body + "sha256 " + SHA256Digest.hex(of: Array(body.utf8)[...]) + "\n")
    let v2 = try cli.run(["convert", "-q", "-o", "-", "--lock", "v2.lock", "--frozen", "in.csv"], in: directory.url)
    #expect(v2.status == 2)
    #expect(v2.standardError.contains("v2.lock:7:1: error: the rate of USD/EUR on 2024-01-05, 2 ÷ 1, is not what its source"))
  }

  // A lock whose final newline was lost (an editor, a copy) is read: the digest covers the bytes before its line.
  @Test func aLockWithoutItsFinalNewlineIsRead() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2024-01-05,12500,USD,EUR\n")
    #expect(try cli.run(["convert", "-q", "-o", "live.csv", "--lock", "rates.lock", "in.csv"], in: directory.url).status == 0)
    let text = try directory.read("rates.lock")
    #expect(text.hasSuffix("\n"))
    try directory.write("cut.lock", String(text.dropLast()))
    let frozen = try cli.run(["convert", "-q", "-o", "frozen.csv", "--lock", "cut.lock", "--frozen", "in.csv"], in: directory.url)
    #expect(frozen.status == 0, "\(frozen.standardError)")
    #expect(try directory.read("frozen.csv") == (try directory.read("live.csv")))
    // One byte fewer is an edit.
    try directory.write("cut.lock", String(text.dropLast(2)))
    let edited = try cli.run(["convert", "-q", "-o", "-", "--lock", "cut.lock", "--frozen", "in.csv"], in: directory.url)
    #expect(edited.status == 2)
    #expect(edited.standardError.contains("digest does not match"))
    // A checkout's CRLF line ends (git core.autocrlf) and an editor's byte order mark were refused as 'not an
    // fxbatch lock file': undone, they give back the written bytes, which the digest checks.
    let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
    for (name, content) in [("crlf", crlf), ("bom", "\u{FEFF}" + text), ("both", "\u{FEFF}" + String(crlf.dropLast()))] {
      try directory.write("\(name).lock", content)
      let read = try cli.run(["convert", "-q", "-o", "\(name).csv", "--lock", "\(name).lock", "--frozen", "in.csv"], in: directory.url)
      #expect(read.status == 0, "\(name): \(read.standardError)")
      #expect(try directory.read("\(name).csv") == (try directory.read("live.csv")))
    }
    // Still an edit: a changed figure, or one line end left LF among CRLFs.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let mixed = lines.enumerated().map { $0.offset == 2 ? $0.element : $0.element + "\r" }.joined(separator: "\n")
    let rate = try #require(lines.first { $0.hasPrefix("rate ") })
    for content in [mixed, crlf.replacingOccurrences(of: rate, with: rate + "1")] {
      try directory.write("bad.lock", content)
      let refused = try cli.run(["convert", "-q", "-o", "-", "--lock", "bad.lock", "--frozen", "in.csv"], in: directory.url)
      #expect(refused.status == 2)
      #expect(refused.standardError.contains("bad.lock:"), "\(refused.standardError)")
    }
  }

  // Issue 30: a run that failed (an input that cannot be read: exit 2, nothing converted) left an empty lock
  // where a full one was, and a later --frozen run failed every record. A lock is written only by a run that
  // converted every input; an earlier lock stays, and -q still says why.
  @Test func aFailedRunLeavesAnEarlierLockAsItWas() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2024-01-05,12500,USD,EUR\n")
    #expect(try cli.run(["convert", "-q", "-o", "out.csv", "--lock", "rates.lock", "in.csv"], in: directory.url).status == 0)
    let before = try directory.read("rates.lock")
    let failed = try cli.run(["convert", "-q", "--output-dir", ".", "--lock", "rates.lock", "missing.csv"], in: directory.url)
    #expect(failed.status == 2)
    #expect(failed.standardError.contains("missing.csv:1:1: error: cannot read the file"), "\(failed.standardError)")
    #expect(
      failed.standardError.contains(
        "rates.lock: not written, as missing.csv was not converted; the lock there is kept as it was"),
      "\(failed.standardError)")
    #expect(try directory.read("rates.lock") == before)
    // With a file that converts and one that does not, neither: the lock would lack the second's keys.
    let mixed = try cli.run(["convert", "-q", "--output-dir", ".", "--lock", "other.lock", "in.csv", "missing.csv"], in: directory.url)
    #expect(mixed.status == 2)
    #expect(mixed.standardError.contains("other.lock: not written, as missing.csv was not converted"), "\(mixed.standardError)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/other.lock"))
    let frozen = try cli.run(["convert", "-q", "-o", "-", "--lock", "rates.lock", "--frozen", "in.csv"], in: directory.url)
    #expect(frozen.status == 0, "\(frozen.standardError)")
  }

  // Issue 30: with the service down, convert --lock and rates lock replaced a full lock with an empty one. A
  // lock that answers keys the source failed this time is kept (exit 2, saying so, -q or not); with none there,
  // the lock is written of what the run got and says how many keys it leaves out, for a table service (the
  // ECB feed, whose failure was written as an empty lock that said nothing) as for a quotes service.
  @Test(arguments: ["ecb", "frankfurter-v1"])
  func aSourceThatFailedNeverReplacesAFullerLock(source: String) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("in.csv", "date,amount,from,to\n2024-04-02,10,EUR,USD\n2024-04-03,10,EUR,USD\n")
    let network = ["--source", source, "--endpoint", server.baseURL.absoluteString, "--no-cache", "--retries", "0"]
    // The full lock: the service's answers (Frankfurter: a quotes lock), or the embedded history's table (ECB).
    if source == "ecb" {
      let full = try cli.run(["rates", "lock", "-q", "in.csv", "-o", "rates.lock"], in: directory.url)
      #expect(full.status == 0, "\(full.standardError)")
    } else {
      for (day, rate) in [("2024-04-02", "1.0763"), ("2024-04-03", "1.0787")] {
        server.route("/v1/\(day)", [.json(NetworkEndToEndTests.frankfurter(date: day, rates: ["USD": rate]))])
      }
      let full = try cli.run(["rates", "lock", "-q", "in.csv", "-o", "rates.lock"] + network, in: directory.url)
      #expect(full.status == 0, "\(full.standardError)")
      let written = try directory.read("rates.lock")
      #expect(written.contains("quote EUR USD 2024-04-03 1.0787 1.0 1.0787 2024-04-03 ok"), "\(written)")
      for day in ["2024-04-02", "2024-04-03"] { server.route("/v1/\(day)", []) }
    }
    let before = try directory.read("rates.lock")
    server.routeMatching({ _ in true }, Array(repeating: .json(#"{"message":"down"}"#, status: 500), count: 50))
    for command in [["rates", "lock", "-q", "in.csv", "-o", "rates.lock"], ["convert", "-q", "in.csv", "-o", "out.csv", "--lock", "rates.lock"]] {
      let down = try cli.run(command + network, in: directory.url)
      #expect(down.status == 2, "\(command): \(down.standardError)")
      #expect(
        down.standardError.contains(
          "rates.lock: not replaced, as the source failed 2 keys this time that the lock there answers: it is kept as it was"),
        "\(down.standardError)")
      #expect(try directory.read("rates.lock") == before)
    }
    // No lock there: written of what the run got, saying so.
    let fresh = try cli.run(["convert", "in.csv", "-o", "out.csv", "--lock", "new.lock"] + network, in: directory.url)
    #expect(fresh.status == 3, "\(fresh.standardError)")
    #expect(fresh.standardError.contains("lock file: new.lock written without the 2 keys the source could not answer"), "\(fresh.standardError)")
    let frozen = try cli.run(["convert", "-q", "-o", "-", "--lock", "new.lock", "--frozen", "in.csv"], in: directory.url)
    #expect(frozen.status == 1)
    #expect(frozen.standardOutput.contains("is not in the lock file new.lock (--frozen)"), "\(frozen.standardOutput)")
  }

  // What each writer's fx_source says, read back: plain and scientific texts (Frankfurter v2's 3.7e-05), a
  // cross through two legs, either way round, and a quotient service's rate as fx_rate shows it (the calculator
  // names rhs ÷ lhs rounded to 10 significant digits).
  @Test func sourceTextsOfEveryWriterAgreeWithTheirRates() throws {
    let day = try #require(CalendarDay(iso8601: "2024-03-04"))
    func check(_ base: String, _ quote: String, _ numerator: String, _ denominator: String, _ source: String) throws -> String? {
      let key = RateKey(
        base: try #require(CurrencyCode(base)), quote: try #require(CurrencyCode(quote)), day: day)
      let rate = ExchangeRate(
        numerator: try #require(ExactDecimal(numerator)), denominator: try #require(ExactDecimal(denominator)))
      return LockFile.disagreement(of: key, rate: rate, rateDay: day, isFallback: false, source: source)
    }
    #expect(try check("VND", "EUR", "0.000037", "1", "frankfurter-v2 VND/EUR=3.7e-05") == nil)
    #expect(try check("EUR", "USD", "1.0856", "1", "frankfurter-v2(ECB+BOC) EUR/USD=1.0856") == nil)
    #expect(try check("USD", "EUR", "1", "1.0856", "frankfurter-v1 EUR/USD=1.0856") == nil)
    #expect(try check("GBP", "USD", "1.1172", "0.8338", "ecb-embedded EUR/GBP=0.8338 EUR/USD=1.1172") == nil)
    #expect(try check("USD", "GBP", "0.8338", "1.1172", "ecb-embedded EUR/USD=1.1172 EUR/GBP=0.8338") == nil)
    #expect(try check("EUR", "USD", "1.08333333333", "1", "calculator EUR/USD=1.083333333") == nil)
    #expect(try check("EUR", "USD", "1.08433333333", "1", "calculator EUR/USD=1.083333333") != nil)
    // Only the calculator names a rounded rate: a published rate is exact, so a fraction that merely shows as it
    // (1.14240000004 shows as 1.1424) is refused (it converted 1e9 EUR to 1142400000.04 USD, status ok).
    #expect(try check("EUR", "USD", "1.14240000004", "1", "frankfurter EUR/USD=1.1424") != nil)
    #expect(try check("EUR", "USD", "1.14240000004", "1", "frankfurter-v2 EUR/USD=1.1424") != nil)
    #expect(try check("EUR", "USD", "1.14240000004", "1", "ecb-embedded EUR/USD=1.1424") != nil)
    #expect(try check("EUR", "USD", "1.1424", "1", "frankfurter EUR/USD=1.1424") == nil)
    #expect(try check("GBP", "USD", "1.1172", "0.8339", "ecb-embedded EUR/GBP=0.8338 EUR/USD=1.1172") != nil)
    #expect(try check("VND", "EUR", "0.000038", "1", "frankfurter-v2 VND/EUR=3.7e-05") != nil)
  }
}
