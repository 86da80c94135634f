import FXBatchTestSupport
import Foundation
import Testing

/// Issue 13: hostile HTTP answers never crash a run, never hang it and never lose a record, and memory stays
/// bounded. Valid answers of each network source (Frankfurter, the ECB feed, the calculator) are mutated with a
/// fixed seed (``MutatedInputFuzzTests/mutate(_:using:)``: bytes flipped, cut short, marks doubled or dropped,
/// huge numbers, deep nesting) and served by the loopback server in hostile ways — as they are, gzip-compressed
/// (sometimes with the compressed bytes damaged), cut off midway, dropped, with an error status, late, or
/// without end. Each run is the built CLI, measured from outside: it ends by itself with status 0 or 1, writes
/// one annotated line per record (converted, or an error), and peaks under 200 MB.
@Suite("hostile HTTP answers: seeded fuzz")
struct HostileHTTPFuzzTests {
  /// The seed: the same cases on every run.
  static let seed: UInt64 = 20_261_202

  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// `bytes` compressed by `gzip(1)`.
  static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "gzip -c -1"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
      input.fileHandleForWriting.write(Data(bytes))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](compressed)
  }

  /// A mutated `body` (now and then the valid one) served in one of the hostile ways.
  static func hostile(_ body: String, contentType: String, using generator: inout SplitMix64) throws -> ScriptedResponse {
    var bytes = Array(body.utf8)
    if Int.random(in: 0..<5, using: &generator) > 0 { bytes = MutatedInputFuzzTests.mutate(bytes, using: &generator) }
    let headers = ["Content-Type": contentType]
    switch Int.random(in: 0..<12, using: &generator) {
    case 0...3:
      return ScriptedResponse(headers: headers, body: Data(bytes))
    case 4, 5:
      var compressed = try gzip(bytes)
      if Bool.random(using: &generator), compressed.count > 20 {
        compressed[Int.random(in: 10..<compressed.count, using: &generator)] ^= 0x5A
      }
      return ScriptedResponse(headers: headers.merging(["Content-Encoding": "gzip"]) { $1 }, body: Data(compressed))
    case 6:
      return ScriptedResponse(headers: headers, body: Data(bytes), action: .partialBody)
    case 7:
      return .closeWithoutAnswer
    case 8:
      return ScriptedResponse(status: [404, 422, 429, 500, 503].randomElement(using: &generator) ?? 500, body: Data(bytes))
    case 9:
      return ScriptedResponse(
        headers: headers, body: Data(bytes), delay: .milliseconds(Int.random(in: 10...1500, using: &generator)))
    case 10:
      return .endless(Data(bytes.isEmpty ? [0x20] : bytes), headers: headers)
    default:
      return ScriptedResponse(headers: ["Content-Type": "text/html"], body: Data("<html><body>Service Unavailable".utf8))
    }
  }

  /// Runs `fxbatch convert` with `arguments` on `records` (CSV lines after the header `date,amount,from,to`) and
  /// checks the run ended by itself within bounds and wrote one line per record, each converted or an error.
  func checkRun(
    _ arguments: [String], records: [String], today: String, minimumConverted: Int = 0, in directory: TemporaryDirectory
  ) throws {
    try directory.write("in.csv", "date,amount,from,to\n" + records.map { $0 + "\n" }.joined())
    let output = directory.url.appendingPathComponent("out.csv").path
    try? FileManager.default.removeItem(atPath: output)
    var environment = cli.environment
    environment["FXBATCH_TODAY"] = today
    let run = try MeasuredRun.run(
      cli.executable,
      ["convert", "-q", "--no-cache", "--retries", "1", "--retry-delay", "0.01", "--timeout", "1", "-o", output]
        + arguments + [directory.url.appendingPathComponent("in.csv").path],
      in: directory.url, environment: environment, timeLimit: 60)
    #expect(!run.timedOut, "\(arguments)")
    #expect(run.signal == nil, "\(arguments): signal \(run.signal ?? 0)")
    #expect(run.status == 0 || run.status == 1 || run.status == 3, "\(arguments): \(run.standardError)")
    let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(run.peakResidentKiB > 0 && run.peakResidentKiB < 200 * 1024, "\(arguments): peak \(run.peakResidentKiB) KiB")
    // The answers served as they are convert: the run is not failing every key for a reason of its own.
    let converted = lines.filter { $0.hasSuffix(",ok,") || $0.hasSuffix(",fallback,") }.count
    #expect(converted >= minimumConverted, "\(arguments): \(converted) of \(records.count) converted")
    print("hostile HTTP fuzz \(arguments[1]): peak \(run.peakResidentKiB) KiB, \(run.seconds) s")
    #expect(lines.count == records.count + 1, "\(arguments): \(lines)")
    for (record, line) in zip(records, lines.dropFirst()) {
      let settled = line.hasSuffix(",ok,") || line.hasSuffix(",fallback,") || line.contains(",error,")
      #expect(line.hasPrefix(record + ",") && settled, "\(record) → \(line)")
    }
  }

  /// 150 days of Frankfurter answers in one run (one request per day, two records each), four in flight.
  @Test(.timeLimit(.minutes(3)))
  func frankfurterAnswers() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var generator = SplitMix64(seed: Self.seed)
    var records: [String] = []
    let calendar = Calendar(identifier: .gregorian)
    var components = DateComponents(timeZone: TimeZone(identifier: "UTC"), year: 2023, month: 1, day: 2)
    for offset in 0..<150 {
      components.day = 2 + offset
      let date = try #require(calendar.date(from: components))
      let parts = calendar.dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
      let day = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
      let answer = NetworkEndToEndTests.frankfurter(date: day, rates: ["GBP": "0.8712", "USD": "1.0834"])
      server.route(
        "/v1/\(day)",
        [
          try Self.hostile(answer, contentType: "application/json", using: &generator),
          try Self.hostile(answer, contentType: "application/json", using: &generator),
        ])
      records += ["\(day),100,EUR,USD", "\(day),250.50,EUR,GBP"]
    }
    try checkRun(
      ["--source", "frankfurter-v1", "--endpoint", server.baseURL.absoluteString, "--jobs", "4"], records: records,
      today: "2024-01-01", minimumConverted: 1, in: directory)
  }

  /// Frankfurter v2: 30 base currencies, a month of records each (one range request per base), every answer a
  /// mutated v2 array of rows for its base, served in a hostile way.
  @Test(.timeLimit(.minutes(3)))
  func frankfurterV2Answers() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var generator = SplitMix64(seed: Self.seed &+ 3)
    let bases = [
      "AED", "ARS", "AUD", "BRL", "CAD", "CHF", "CLP", "CNY", "COP", "CZK", "DKK", "EGP", "EUR", "GBP", "HKD", "HUF",
      "INR", "JPY", "KES", "KRW", "MXN", "NGN", "NOK", "PEN", "PLN", "SAR", "SEK", "TWD", "UAH", "VND",
    ]
    let days = (2...31).map { String(format: "2024-01-%02d", $0) }
    var records: [String] = []
    for base in bases {
      let quote = base == "USD" ? "EUR" : "USD"
      let rows = (["2023-12-29"] + days).map { #"{"date":"\#($0)","base":"\#(base)","quote":"\#(quote)","rate":1.2345}"# }
      let answer = "[" + rows.joined(separator: ",") + "]"
      server.routeMatching(
        { $0.path == "/v2/rates" && $0.queryItems.contains { $0.name == "base" && $0.value == base } },
        [
          try Self.hostile(answer, contentType: "application/json", using: &generator),
          try Self.hostile(answer, contentType: "application/json", using: &generator),
        ])
      records += stride(from: 0, to: days.count, by: 7).map { "\(days[$0]),100,\(base),\(quote)" }
    }
    try checkRun(
      ["--source", "frankfurter", "--endpoint", server.baseURL.absoluteString, "--jobs", "4"], records: records,
      today: "2024-06-01", minimumConverted: 1, in: directory)
  }

  /// 24 runs, each against one mutated ECB feed served in a hostile way.
  @Test(.timeLimit(.minutes(3)))
  func ecbFeeds() throws {
    let feed = try String(
      contentsOf: try #require(Bundle.module.resourceURL).appendingPathComponent(
        "Fixtures/e2e/ecb-eurofxref-daily-2017-03-08.xml"),
      encoding: .utf8)
    var generator = SplitMix64(seed: Self.seed &+ 1)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for _ in 0..<24 {
      let server = try LoopbackHTTPServer()
      defer { server.stop() }
      server.route(
        "/eurofxref-hist-90d.xml",
        [
          try Self.hostile(feed, contentType: "application/xml", using: &generator),
          try Self.hostile(feed, contentType: "application/xml", using: &generator),
        ])
      try checkRun(
        ["--source", "ecb", "--endpoint", server.baseURL.absoluteString + "/"],
        records: ["2017-03-08,100,USD,GBP", "2017-03-09,100,USD,GBP", "2017-03-08,1000,JPY,EUR"], today: "2017-03-09",
        in: directory)
    }
  }

  /// The calculator's English names of the currencies the fuzz asks about, as its answers wrote them.
  static let calculatorNames = [
    "USD": "U.S. dollars", "AUD": "Australian dollars", "BRL": "Brazilian reais", "CAD": "Canadian dollars",
    "CHF": "Swiss francs", "CNY": "Chinese yuan", "CZK": "Czech korunas", "DKK": "Danish kroner", "GBP": "British pounds",
    "HKD": "Hong Kong dollars", "HUF": "Hungarian forints", "INR": "Indian rupees", "JPY": "Japanese yen",
    "KRW": "South Korean won", "MXN": "Mexican pesos", "NOK": "Norwegian kroner", "NZD": "New Zealand dollars",
    "PLN": "Polish zlotys", "SEK": "Swedish kronor", "SGD": "Singapore dollars", "ZAR": "South African rand",
  ]

  /// 40 calculator questions in one run (one request per pair), each answered by a mutated answer to it or, one
  /// in four, by a mutated captured answer (to another question, which is refused).
  @Test(.timeLimit(.minutes(3)))
  func calculatorAnswers() throws {
    let fixtures = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures/responses")
    let bodies = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted().filter {
      $0.hasPrefix("google-calc-")
    }.map {
      try String(contentsOf: fixtures.appendingPathComponent($0), encoding: .utf8)
    }
    try #require(!bodies.isEmpty)
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var generator = SplitMix64(seed: Self.seed &+ 2)
    let codes = [
      "AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "GBP", "HKD", "HUF", "INR", "JPY", "KRW", "MXN",
      "NOK", "NZD", "PLN", "SEK", "SGD", "ZAR",
    ]
    var records: [String] = []
    for code in codes {
      for (from, to) in [("USD", code), (code, "USD")] {
        let captured = bodies[Int.random(in: 0..<bodies.count, using: &generator)]
        let rate = "\(Int.random(in: 0...999, using: &generator)).\(Int.random(in: 1...999_999, using: &generator))"
        let own =
          #"{lhs: "1 \#(Self.calculatorNames[from] ?? from)",rhs: "\#(rate) \#(Self.calculatorNames[to] ?? to)",error: "",icc: true}"#
        let body = Int.random(in: 0..<4, using: &generator) == 0 ? captured : own
        let question = "1\(from)=?\(to)"
        server.routeMatching(
          { head in head.queryItems.contains { $0.name == "q" && $0.value == question } },
          [
            try Self.hostile(body, contentType: "text/plain", using: &generator),
            try Self.hostile(body, contentType: "text/plain", using: &generator),
          ])
        records.append("2026-11-29,100,\(from),\(to)")
      }
    }
    try checkRun(
      ["--source", "calculator", "--endpoint", server.baseURL.appendingPathComponent("ig/calculator").absoluteString],
      records: records, today: "2026-11-29", minimumConverted: 1, in: directory)
  }
}
