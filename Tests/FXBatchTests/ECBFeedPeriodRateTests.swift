import FXBatchTestSupport
import Foundation
import Testing

/// `convert --source ecb --rate-kind average|closing` against the ECB feed served on 127.0.0.1 (never the
/// internet): the feed's files are built from the embedded history's own days (`rates export`), so the period
/// rates must equal the embedded source's, and a period is finished only when the feed's last day is past it.
@Suite("End to end: period rates over the ECB feed")
struct ECBFeedPeriodRateTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// An ECB XML file (the layout of `eurofxref-hist.xml`) of the embedded EUR/USD and EUR/GBP rates from `first`
  /// to `last`, newest day first as the ECB writes it.
  func feed(from first: String, to last: String, in directory: TemporaryDirectory) throws -> String {
    let export = try cli.run(
      ["rates", "export", "--from", first, "--to", last, "--base", "EUR", "--quotes", "USD,GBP", "--format", "csv"],
      in: directory.url)
    #expect(export.status == 0)
    var days: [(String, [String])] = []
    for line in export.standardOutput.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let cube = #"<Cube currency="\#(fields[2])" rate="\#(fields[3])"/>"#
      if days.last?.0 == fields[0] { days[days.count - 1].1.append(cube) } else { days.append((fields[0], [cube])) }
    }
    let cubes = days.reversed().map { #"<Cube time="\#($0.0)">\#($0.1.joined())</Cube>"# }.joined(separator: "\n")
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
      <gesmes:subject>Reference rates</gesmes:subject>
      <Cube>
      \(cubes)
      </Cube>
      </gesmes:Envelope>

      """
  }

  static let input = """
    id,date,amount,from,to
    1,2024-02-10,1000,USD,GBP
    2,2024-03-15,1000,GBP,USD
    3,2024-04-02,1000,USD,EUR

    """

  /// The output's columns that do not name the source: everything but `fx_source`.
  static func figures(_ output: String) -> [String] {
    output.split(separator: "\n").map { line in
      var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if fields.count > 9 { fields.remove(at: 9) }
      return fields.joined(separator: ",")
    }
  }

  // Today 2024-04-10; the feed's last day is 2024-04-05 (a Friday). Monthly averages of February and March and
  // the Q1 closing rate (2024-03-28) equal the embedded history's; April is unfinished in the feed, so its rows
  // are `period_incomplete` naming the feed's last day — the embedded history, which goes on, has that period.
  @Test(arguments: [["--rate-kind", "average"], ["--rate-kind", "closing", "--period", "quarter"]])
  func periodRatesOverTheFeedEqualTheEmbeddedOnes(rule: [String]) throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", Self.input)
    let file = try feed(from: "2023-10-02", to: "2024-04-05", in: directory)
    server.route("/eurofxref-hist-90d.xml", [.xml(file)])
    server.route("/eurofxref-hist.xml", [.xml(file)])
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2024-04-10"
    let endpoint = server.baseURL.absoluteString + "/"
    let ecb = try runner.run(
      ["convert", "-q", "--source", "ecb", "--endpoint", endpoint, "--no-cache", "-o", "-", "in.csv"] + rule,
      in: directory.url)
    #expect(ecb.status == 1, "the April record's period is unfinished in the feed")
    // February begins 69 days before today: the 90-day file holds it; Q1 begins 100 days before: the full history.
    let name = rule.contains("quarter") ? "/eurofxref-hist.xml" : "/eurofxref-hist-90d.xml"
    #expect(server.requestCount(path: name) == 1)
    #expect(server.requestCount == 1)
    let embedded = try runner.run(["convert", "-q", "-o", "-", "in.csv"] + rule, in: directory.url)
    let ecbLines = Self.figures(ecb.standardOutput)
    let embeddedLines = Self.figures(embedded.standardOutput)
    #expect(ecbLines.count == 4)
    #expect(Array(ecbLines.prefix(3)) == Array(embeddedLines.prefix(3)))
    let rows = ecb.standardOutput.split(separator: "\n").map(String.init)
    if rule.contains("average") {
      #expect(rows[1].contains(",2024-02,ecb average 2024-02 of 21 days EUR/USD="))
      #expect(rows[2].contains(",2024-03,ecb average 2024-03 of 20 days EUR/GBP="))
      #expect(
        rows[3].hasSuffix(
          "error,\"period_incomplete: the ECB rates end 2024-04-05, before 2024-04 ends (2024-04-30); an average of an unfinished period would change, use --rates FILE with newer rates\""
        ))
    } else {
      #expect(rows[1].contains(",2024-03-28,ecb closing 2024-Q1 EUR/USD=1.0811 EUR/GBP=0.8551,ok,"))
      #expect(rows[3].contains("error,\"period_incomplete: the ECB rates end 2024-04-05, before 2024-Q2 ends (2024-06-30)"))
    }
  }

  // A monthly average of March on 2024-04-10 is served by the 90-day file (it holds all of March); the Q1
  // average needs January, which the 90-day file may lack: the full history is fetched. A full history that
  // starts within the period (here a served file from 2024-01-15) is `period_incomplete`, never the average of
  // the days it has.
  @Test func theFileIsChosenForThePeriodsFirstDay() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", "id,date,amount,from,to\n1,2024-03-15,1000,USD,GBP\n")
    server.route("/eurofxref-hist-90d.xml", [.xml(try feed(from: "2024-01-15", to: "2024-04-05", in: directory))])
    server.route("/eurofxref-hist.xml", [.xml(try feed(from: "2024-01-15", to: "2024-04-05", in: directory))])
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2024-04-10"
    let endpoint = server.baseURL.absoluteString + "/"
    func run(_ rule: [String]) throws -> CLIRunner.Result {
      try runner.run(
        ["convert", "-q", "--source", "ecb", "--endpoint", endpoint, "--no-cache", "-o", "-", "in.csv"] + rule,
        in: directory.url)
    }
    let month = try run(["--rate-kind", "average"])
    #expect(month.status == 0)
    #expect(server.requestCount(path: "/eurofxref-hist-90d.xml") == 1)
    let embedded = try runner.run(["convert", "-q", "-o", "-", "in.csv", "--rate-kind", "average"], in: directory.url)
    #expect(Self.figures(month.standardOutput) == Self.figures(embedded.standardOutput))
    let quarter = try run(["--rate-kind", "average", "--period", "quarter"])
    #expect(quarter.status == 1)
    #expect(server.requestCount(path: "/eurofxref-hist.xml") == 1)
    #expect(
      quarter.standardOutput.contains(
        "period_incomplete: the ECB rates start 2024-01-15, after 2024-Q1 begins (2024-01-01); an average needs the whole period"
      ))
  }

  // The rate cache keeps the feed's days only as fetched: a period rule fetches again rather than average a kept
  // table, and `--offline` says the cache holds only some days (never a partial average).
  @Test func aKeptFeedIsNotAveraged() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", "id,date,amount,from,to\n1,2024-03-15,1000,USD,GBP\n")
    server.route("/eurofxref-hist-90d.xml", [.xml(try feed(from: "2024-01-15", to: "2024-04-05", in: directory))])
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2024-04-10"
    let arguments = [
      "convert", "-q", "--source", "ecb", "--endpoint", server.baseURL.absoluteString + "/", "--cache-dir", "cache",
      "--rate-kind", "average", "-o", "-", "in.csv",
    ]
    let first = try runner.run(arguments, in: directory.url)
    let second = try runner.run(arguments, in: directory.url)
    #expect(first.status == 0)
    #expect(second.standardOutput == first.standardOutput)
    #expect(server.requestCount == 2)
    let offline = try runner.run(arguments + ["--offline"], in: directory.url)
    #expect(offline.status == 1)
    #expect(server.requestCount == 2)
    #expect(offline.standardOutput.contains("holds only some ECB days; an average of 2024-03 needs all of them"))
  }

  // A lock of a period run over the feed keeps its answers: `--frozen` replays them byte for byte with the
  // server gone.
  @Test func aPeriodLockOfTheFeedReplaysWithoutIt() throws {
    let server = try LoopbackHTTPServer()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", Self.input)
    server.route("/eurofxref-hist.xml", [.xml(try feed(from: "2023-10-02", to: "2024-04-05", in: directory))])
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2024-04-10"
    let rule = ["--rate-kind", "closing", "--period", "quarter"]
    let locked = try runner.run(
      ["convert", "-q", "--source", "ecb", "--endpoint", server.baseURL.absoluteString + "/", "--no-cache", "--lock", "q.lock"]
        + rule + ["-o", "a.csv", "in.csv"], in: directory.url)
    server.stop()
    #expect(locked.status == 1)
    #expect(try directory.read("q.lock").contains("\nrule closing quarter\nquotes\n"))
    runner.environment["FXBATCH_TODAY"] = "2024-12-01"
    let frozen = try runner.run(
      ["convert", "-q", "--lock", "q.lock", "--frozen"] + rule + ["-o", "b.csv", "in.csv"], in: directory.url)
    #expect(frozen.status == 1)
    #expect(try directory.read("a.csv") == directory.read("b.csv"))
    #expect(try directory.read("b.csv").contains(",2024-03-28,ecb closing 2024-Q1 EUR/USD=1.0811 EUR/GBP=0.8551,ok,"))
  }

  // rates export and rates show over --source ecb (the feed on 127.0.0.1) give the embedded history's figures
  // (the feed is made of its days); alone, the unfinished April is skipped; the chain ecb,embedded takes it from
  // the embedded history.
  @Test func ratesExportAndShowOverTheFeed() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try feed(from: "2023-10-02", to: "2024-04-05", in: directory)
    server.route("/eurofxref-hist-90d.xml", [.xml(file)])
    server.route("/eurofxref-hist.xml", [.xml(file)])
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = "2024-04-10"
    let export = ["rates", "export", "--from", "2024-02-01", "--quotes", "USD,GBP", "--rate-kind", "closing"]
    let network = ["--endpoint", server.baseURL.absoluteString + "/", "--no-cache"]
    let embedded = try runner.run(export + ["--to", "2024-03-31"], in: directory.url)
    for source in ["ecb", "ecb,embedded"] {
      let ecb = try runner.run(export + ["--to", "2024-04-30", "--source", source] + network, in: directory.url)
      // April is unfinished in the feed; the chain takes it from the embedded history.
      #expect(ecb.status == (source == "ecb" ? 1 : 0), "\(ecb.standardError)")
      #expect(ecb.standardError.contains("fxbatch: 2024-04 EUR/USD not exported: period_incomplete: ") == (source == "ecb"))
      let figures = { (text: String) in
        text.split(separator: "\n").map { $0.split(separator: ",").prefix(5).joined(separator: ",") }
      }
      let rows = figures(ecb.standardOutput)
      #expect(Array(rows.prefix(5)) == figures(embedded.standardOutput))
      #expect(ecb.standardOutput.contains("2024-03-28,EUR,USD,1.0811,2024-03,ecb closing 2024-03 EUR/USD=1.0811\n"))
    }
    // Daily rates: the feed's rows of March 2024, as published (the embedded history's).
    let daily = ["rates", "export", "--from", "2024-03-01", "--to", "2024-03-31", "--quotes", "USD,GBP"]
    let dailyFeed = try runner.run(daily + ["--source", "ecb"] + network, in: directory.url)
    let dailyHistory = try runner.run(daily, in: directory.url)
    #expect(dailyFeed.status == 0, "\(dailyFeed.standardError)")
    let columns = { (text: String) in
      text.split(separator: "\n").map { $0.split(separator: ",").prefix(4).joined(separator: ",") }
    }
    #expect(columns(dailyFeed.standardOutput).count == 41)
    #expect(columns(dailyFeed.standardOutput) == columns(dailyHistory.standardOutput))
    #expect(dailyFeed.standardOutput.contains("\n2024-03-28,EUR,USD,1.0811,,ecb EUR/USD=1.0811\n"))
    let show = ["rates", "show", "GBP", "USD", "--date", "2024-03-15", "--rate-kind", "average"]
    let fromFeed = try runner.run(show + ["--source", "ecb"] + network, in: directory.url)
    let fromHistory = try runner.run(show, in: directory.url)
    #expect(fromFeed.status == 0, "\(fromFeed.standardError)")
    #expect(
      fromFeed.standardOutput.hasPrefix("1 GBP = ") && fromFeed.standardOutput.contains("source ecb average 2024-03 of 20 days"))
    #expect(fromFeed.standardOutput.split(separator: " ").prefix(6) == fromHistory.standardOutput.split(separator: " ").prefix(6))
  }

  // Services of pairs (Frankfurter v1, the calculator), alone or in a chain, are refused before anything runs.
  @Test(arguments: ["frankfurter-v1", "ecb,calculator"])
  func servicesOfPairsAreStillRefused(source: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("in.csv", Self.input)
    let result = try cli.run(["convert", "--rate-kind", "average", "--source", source, "in.csv"], in: directory.url)
    #expect(result.status == 64)
    #expect(
      result.standardError.contains(
        "--rate-kind average works with the embedded rates, --rates FILE, the ECB feed and Frankfurter v2 (--source embedded, file, ecb or frankfurter, or a list of those), not with --source \(source)"
      ))
  }
}
