import FXBatchTestSupport
import Foundation
import Testing

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
    #expect(locked.status == 1, "\(locked.standardError)")
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
  }
}
