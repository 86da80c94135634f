import FXBatchTestSupport
import Foundation
import Testing

/// `convert --rate-kind average|closing --source frankfurter` (and chains with it) against ``FrankfurterV2Server`` on
/// 127.0.0.1: the period's daily rows are asked by range against EUR and averaged by the one period rule. Expected
/// figures are computed here with exact fractions from the service's rows, not by fxbatch.
@Suite("End to end: period rates over Frankfurter v2")
struct FrankfurterV2PeriodRateTests {
  let cli: CLIRunner

  init() throws { cli = try CLIRunner() }

  /// An exact rational number, for the expected figures.
  struct Fraction: Equatable {
    var numerator: Int128
    var denominator: Int128

    init(_ numerator: Int128, _ denominator: Int128) {
      var (a, b) = (numerator < 0 ? -numerator : numerator, denominator)
      while b != 0 { (a, b) = (b, a % b) }
      self.numerator = numerator / max(a, 1)
      self.denominator = denominator / max(a, 1)
    }

    /// A decimal written with digits and one point.
    init(_ text: String) {
      let parts = text.split(separator: ".")
      let decimals = parts.count > 1 ? parts[1].count : 0
      self.init(Int128(parts.joined())!, Self.power(decimals))
    }

    static func power(_ exponent: Int) -> Int128 { (0..<exponent).reduce(1) { value, _ in value * 10 } }
    static func + (lhs: Fraction, rhs: Fraction) -> Fraction {
      Fraction(lhs.numerator * rhs.denominator + rhs.numerator * lhs.denominator, lhs.denominator * rhs.denominator)
    }
    static func * (lhs: Fraction, rhs: Fraction) -> Fraction {
      Fraction(lhs.numerator * rhs.numerator, lhs.denominator * rhs.denominator)
    }
    static func / (lhs: Fraction, rhs: Fraction) -> Fraction {
      Fraction(lhs.numerator * rhs.denominator, lhs.denominator * rhs.numerator)
    }
    /// The mean of some decimals.
    static func mean(_ texts: [String]) -> Fraction {
      texts.map(Fraction.init).reduce(Fraction(0, 1), +) / Fraction(Int128(texts.count), 1)
    }

    /// Rounded half-even to `decimals` decimals (positive values), trailing zeros dropped when `trim`.
    func text(decimals: Int, halfEven: Bool = false, trim: Bool = false) -> String {
      let scaled = numerator * Self.power(decimals)
      var whole = scaled / denominator
      let twice = (scaled % denominator) * 2
      if twice > denominator || (twice == denominator && (!halfEven || whole % 2 == 1)) { whole += 1 }
      var digits = String(whole)
      if digits.count <= decimals { digits = String(repeating: "0", count: decimals - digits.count + 1) + digits }
      var text = decimals == 0 ? digits : digits.dropLast(decimals) + "." + digits.suffix(decimals)
      if trim, decimals > 0 {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
      }
      return text
    }

    /// As `fx_rate` and `fx_source` write a rate: 10 significant digits, half-even, trailing zeros dropped.
    var rateText: String {
      var integerDigits = String(numerator / denominator).count
      if numerator < denominator {  // 0.0…: count the zeros after the point as negative digits
        integerDigits = 0
        var probe = numerator * 10
        while probe < denominator {
          integerDigits -= 1
          probe *= 10
        }
      }
      return text(decimals: max(10 - integerDigits, 0), halfEven: true, trim: true)
    }
  }

  /// The service's EUR rows: USD and TWD (not an ECB currency) in February 2024; TWD is not published on the
  /// 29th; a row on 2024-01-31 is before February (the range's carry-forward must not be averaged) and the last
  /// row is 2024-03-28, so March is unfinished.
  static let rows: [(String, String, String)] = [
    ("2024-01-31", "USD", "1.0837"), ("2024-01-31", "TWD", "34.2"),
    ("2024-02-01", "USD", "1.0814"), ("2024-02-01", "TWD", "33.95"),
    ("2024-02-15", "USD", "1.073"), ("2024-02-15", "TWD", "33.7"),
    ("2024-02-29", "USD", "1.0813"),
    ("2024-03-01", "USD", "1.0826"), ("2024-03-01", "TWD", "34.12"),
    ("2024-03-28", "USD", "1.0811"), ("2024-03-28", "TWD", "34.5"),
  ]
  static let februaryUSD = Fraction.mean(["1.0814", "1.073", "1.0813"])
  static let februaryTWD = Fraction.mean(["33.95", "33.7"])

  /// Runs `convert` on a CSV of `date,amount,from,to` records against the service (a fresh loopback server).
  func convert(
    _ arguments: [String], input: String, service: FrankfurterV2Server = FrankfurterV2Server(rows: rows, today: "2024-04-10"),
    today: String = "2024-04-10", directory: TemporaryDirectory? = nil
  ) throws -> (result: CLIRunner.Result, queries: [String]) {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    service.install(on: server)
    let own = try directory ?? TemporaryDirectory()
    defer { if directory == nil { own.remove() } }
    try own.write("in.csv", "date,amount,from,to\n" + input)
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = today
    let result = try runner.run(
      [
        "convert", "--endpoint", server.baseURL.absoluteString, "--no-cache", "--retry-delay", "0.01", "-q", "-o", "-",
      ] + arguments + ["in.csv"], in: own.url)
    return (result, server.requests.map { $0.query ?? "" }.sorted())
  }

  /// The fields of each output line after the header, padded (a missing line fails its expectation only).
  static func records(_ result: CLIRunner.Result) -> [[String]] {
    // Fields split at commas outside double quotes (fx_source and fx_error may be quoted; none has a `""`).
    let lines = result.standardOutput.split(separator: "\n").dropFirst().map { line in
      var fields = [""]
      var quoted = false
      for character in line {
        if character == "\"" {
          quoted.toggle()
        } else if character == ",", !quoted {
          fields.append("")
        } else {
          fields[fields.count - 1].append(character)
        }
      }
      return fields
    }
    return lines + Array(repeating: Array(repeating: "", count: 11), count: 4)
  }

  // February's monthly averages: EUR→USD the mean of the service's 3 USD rows; USD→TWD the ratio of the means
  // through EUR, TWD averaged over the 2 days it has (a fallback, said in fx_source). March ends after the
  // service's last row: period_incomplete. One range request against EUR for both periods and currencies.
  @Test func monthlyAveragesAreTheExactRatioOfMeansThroughEUR() throws {
    let (result, queries) = try convert(
      ["--source", "frankfurter", "--rate-kind", "average"],
      input: "2024-02-10,1000,EUR,USD\n2024-02-20,1000,USD,TWD\n2024-03-05,1000,EUR,USD\n2024-02-11,5,TWD,TWD\n")
    #expect(result.status == 1, "\(result.standardError)")
    let records = Self.records(result)
    let usd = Self.februaryUSD
    #expect(
      records[0]
        == [
          "2024-02-10", "1000", "EUR", "USD", usd.rateText, (Fraction("1000") * usd).text(decimals: 2), "USD", "2024-02",
          "frankfurter-v2 average 2024-02 of 3 days EUR/USD=\(usd.rateText)", "ok", "",
        ])
    let cross = Self.februaryTWD / usd
    #expect(
      records[1]
        == [
          "2024-02-20", "1000", "USD", "TWD", cross.rateText, (Fraction("1000") * cross).text(decimals: 2), "TWD", "2024-02",
          "frankfurter-v2 average 2024-02 of 3 days EUR/USD=\(usd.rateText) EUR/TWD=33.825 (2 of 3 days)", "fallback", "",
        ])
    #expect(records[2][9] == "error")
    #expect(records[2][10].hasPrefix("period_incomplete: the Frankfurter rates end 2024-03-28, before 2024-03 ends"))
    #expect(records[3][4...9] == ["1", "5.00", "TWD", "2024-02", "same currency", "ok"])
    #expect(queries == ["base=EUR&quotes=TWD,USD&from=2024-02-01&to=2024-04-10"])
  }

  // Closing rates: EUR→USD closes on 2024-02-29; USD→TWD on the 15th, the last February day with both (a
  // fallback saying from which day); TWD→EUR on the 15th, TWD's own last February row, a fallback too (the
  // service published on the 29th).
  @Test func closingRatesTakeThePeriodsLastDayWithBoth() throws {
    let (result, _) = try convert(
      ["--source", "frankfurter", "--rate-kind", "closing"],
      input: "2024-02-10,1000,EUR,USD\n2024-02-20,1000,USD,TWD\n2024-02-29,1000,TWD,EUR\n")
    #expect(result.status == 0, "\(result.standardError)")
    let records = Self.records(result)
    #expect(
      records[0]
        == [
          "2024-02-10", "1000", "EUR", "USD", "1.0813", "1081.30", "USD", "2024-02-29",
          "frankfurter-v2 closing 2024-02 EUR/USD=1.0813", "ok", "",
        ])
    let cross = Fraction("33.7") / Fraction("1.073")
    #expect(
      records[1]
        == [
          "2024-02-20", "1000", "USD", "TWD", cross.rateText, (Fraction("1000") * cross).text(decimals: 2), "TWD",
          "2024-02-15",
          "frankfurter-v2 closing 2024-02 (none on 2024-02-29, the period's last publication day) EUR/USD=1.073 EUR/TWD=33.7",
          "fallback", "",
        ])
    let inverse = Fraction("1") / Fraction("33.7")
    #expect(
      records[2][4...9] == [
        inverse.rateText, (Fraction("1000") * inverse).text(decimals: 2), "EUR", "2024-02-15",
        "frankfurter-v2 closing 2024-02 (none on 2024-02-29, the period's last publication day) EUR/TWD=33.7", "fallback",
      ])
  }

  // A currency the service does not know is no_rate for its records alone: the request is asked again without
  // it. A service that is down fails every record (never a rate of another source or period).
  @Test func unknownCurrenciesAndFailuresAreTheirRecordsErrors() throws {
    let (result, queries) = try convert(
      ["--source", "frankfurter", "--rate-kind", "average"], input: "2024-02-10,1000,EUR,USD\n2024-02-10,1000,EUR,BOB\n")
    #expect(result.status == 1)
    let records = Self.records(result)
    #expect(records[0][5] == (Fraction("1000") * Self.februaryUSD).text(decimals: 2) && records[0][9] == "ok")
    #expect(records[1][9] == "error" && records[1][10] == "no_rate: Frankfurter: invalid currency: BOB")
    #expect(
      queries == [
        "base=EUR&quotes=BOB,USD&from=2024-02-01&to=2024-03-14", "base=EUR&quotes=USD&from=2024-02-01&to=2024-03-14",
      ])
    var down = FrankfurterV2Server(rows: Self.rows, today: "2024-04-10")
    down.unavailableBases = ["EUR"]
    let failed = try convert(
      ["--source", "frankfurter", "--rate-kind", "average", "--retries", "0"], input: "2024-02-10,1000,EUR,USD\n",
      service: down)
    #expect(failed.result.status == 3)
    #expect(Self.records(failed.result)[0][10].hasPrefix("source_unavailable: "), "\(failed.result.standardOutput)")
  }

  // A chain passes a key on only for the whole period: EUR→USD is the embedded history's February average;
  // USD→TWD (no TWD in the history) is the service's, both legs from the service; never the history's USD mean
  // with the service's TWD.
  @Test func aChainAnswersEachKeysWholePeriodFromOneSource() throws {
    let (result, queries) = try convert(
      ["--source", "embedded,frankfurter", "--rate-kind", "average"],
      input: "2024-02-10,1000,EUR,USD\n2024-02-20,1000,USD,TWD\n")
    #expect(result.status == 0, "\(result.standardError)")
    let records = Self.records(result)
    // The embedded February mean of EUR/USD, 75563/70000 (PeriodRateTests), × 1000 = 1079.47.
    #expect(
      records[0][5...9] == ["1079.47", "USD", "2024-02", "ecb-embedded average 2024-02 of 21 days EUR/USD=1.079471429", "ok"])
    let cross = Self.februaryTWD / Self.februaryUSD
    #expect(records[1][5] == (Fraction("1000") * cross).text(decimals: 2))
    #expect(
      records[1][8]
        == "frankfurter-v2 average 2024-02 of 3 days EUR/USD=\(Self.februaryUSD.rateText) EUR/TWD=33.825 (2 of 3 days)")
    #expect(queries == ["base=EUR&quotes=TWD,USD&from=2024-02-01&to=2024-03-14"])
    // --plan shows that period request, before anything is sent.
    let (plan, planQueries) = try convert(
      ["--source", "embedded,frankfurter", "--rate-kind", "average", "--plan"],
      input: "2024-02-10,1000,EUR,USD\n2024-02-20,1000,USD,TWD\n")
    #expect(plan.standardOutput.contains("  embedded: 1 of 2 keys answered without the network, 0 failed\n"))
    #expect(plan.standardOutput.contains("/v2/rates?base=EUR&quotes=TWD,USD&from=2024-02-01&to=2024-03-14  (1 key)\n"))
    #expect(planQueries.isEmpty)
  }

  // A period the first source has not finished passes to the next, which answers it whole: the embedded history
  // ends 2026-10-30, so November 2026 is the service's (September the history's); December is unfinished in both (each says why).
  @Test func anUnfinishedPeriodPassesOn() throws {
    let service = FrankfurterV2Server(
      rows: [("2026-11-02", "USD", "1.16"), ("2026-11-30", "USD", "1.17"), ("2026-12-01", "USD", "1.18")], today: "2026-12-10")
    let (result, _) = try convert(
      ["--source", "embedded,frankfurter", "--rate-kind", "average"],
      input: "2026-11-15,1000,EUR,USD\n2026-09-15,1000,EUR,USD\n2026-12-05,1000,EUR,USD\n", service: service,
      today: "2026-12-10")
    #expect(result.status == 1)
    let records = Self.records(result)
    #expect(records[0][5...9] == ["1165.00", "USD", "2026-11", "frankfurter-v2 average 2026-11 of 2 days EUR/USD=1.165", "ok"])
    #expect(records[1][8].hasPrefix("ecb-embedded average 2026-09 of 22 days "))
    #expect(records[2][10].hasPrefix("period_incomplete: no source of the chain has a rate for EUR/USD"))
    #expect(
      records[2][10].contains("embedded: period_incomplete: ") && records[2][10].contains("frankfurter: period_incomplete: "))
  }

  // --lock keeps the service's period answers with the rule; --frozen replays them byte for byte without the
  // service (its server is gone).
  @Test func aLockReplaysTheServicesPeriodRates() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = "2024-02-10,1000,EUR,USD\n2024-02-20,1000,USD,TWD\n2024-03-05,1000,EUR,USD\n"
    // Alone, March is unfinished in the service (status 1); in the chain the embedded history answers March.
    for (chain, status) in [("frankfurter", Int32(1)), ("embedded,frankfurter", 0)] {
      let (locked, _) = try convert(
        ["--source", chain, "--rate-kind", "average", "--lock", "rates.lock"], input: input, directory: directory)
      #expect(locked.status == status, "\(locked.standardError)")
      let lock = try String(contentsOf: directory.url.appendingPathComponent("rates.lock"), encoding: .utf8)
      #expect(lock.contains("\nrule average month\n"))
      let frozen = try cli.run(
        ["convert", "-q", "-o", "-", "--lock", "rates.lock", "--frozen", "--rate-kind", "average", "in.csv"], in: directory.url)
      #expect(frozen.status == status)
      #expect(frozen.standardOutput == locked.standardOutput)
      #expect(frozen.standardOutput.contains("EUR/TWD=33.825 (2 of 3 days)"))
    }
  }

  /// Runs `fxbatch rates …` against the service (a fresh loopback server).
  func rates(
    _ arguments: [String], service: FrankfurterV2Server = FrankfurterV2Server(rows: rows, today: "2024-04-10"),
    today: String = "2024-04-10"
  ) throws -> (result: CLIRunner.Result, queries: [String]) {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    service.install(on: server)
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var runner = cli
    runner.environment["FXBATCH_TODAY"] = today
    let result = try runner.run(
      ["rates"] + arguments + ["--endpoint", server.baseURL.absoluteString, "--no-cache"], in: directory.url)
    return (result, server.requests.map { $0.query ?? "" }.sorted())
  }

  // rates show gives convert's figures: the service's February average and closing rate, and in a chain the
  // embedded history's where it has the pair.
  @Test func ratesShowTakesTheSource() throws {
    let cross = Self.februaryTWD / Self.februaryUSD
    let (average, _) = try rates(
      ["show", "USD", "TWD", "--date", "2024-02-20", "--rate-kind", "average", "--source", "frankfurter"])
    #expect(average.status == 0, "\(average.standardError)")
    #expect(
      average.standardOutput
        == "1 USD = \(cross.rateText) TWD  period 2024-02  source frankfurter-v2 average 2024-02 of 3 days EUR/USD=\(Self.februaryUSD.rateText) EUR/TWD=33.825 (2 of 3 days)\n"
    )
    let (closing, _) = try rates([
      "show", "EUR", "USD", "--date", "2024-02-03", "--rate-kind", "closing", "--source", "frankfurter",
    ])
    #expect(
      closing.standardOutput == "1 EUR = 1.0813 USD  rate date 2024-02-29  source frankfurter-v2 closing 2024-02 EUR/USD=1.0813\n"
    )
    let (chained, queries) = try rates(
      ["show", "EUR", "USD", "--date", "2024-02-03", "--rate-kind", "average", "--source", "embedded,frankfurter"])
    #expect(chained.standardOutput.hasSuffix("source ecb-embedded average 2024-02 of 21 days EUR/USD=1.079471429\n"))
    #expect(queries.isEmpty)
    let (unfinished, _) = try rates(
      ["show", "EUR", "USD", "--date", "2024-03-03", "--rate-kind", "average", "--source", "frankfurter"])
    #expect(unfinished.status == 1)
    #expect(unfinished.standardError.hasPrefix("fxbatch: period_incomplete: the Frankfurter rates end 2024-03-28"))
  }

  // rates export over the service: one row per period and quote named, from one request (TWD, without a row on
  // the 29th, averaged over 2 of the service's 3 February days); the unfinished March is skipped with its reason
  // (exit 1). Daily rates from a service are refused (they are not a list of days).
  @Test func ratesExportTakesTheSource() throws {
    let (result, queries) = try rates(
      [
        "export", "--from", "2024-02-01", "--to", "2024-03-31", "--quotes", "USD,TWD", "--rate-kind", "average",
        "--source", "frankfurter",
      ])
    #expect(result.status == 1)
    let usd = Self.februaryUSD
    #expect(
      result.standardOutput == """
        date,base,quote,rate,period,source
        2024-02-29,EUR,USD,\(usd.rateText),2024-02,frankfurter-v2 average 2024-02 of 3 days EUR/USD=\(usd.rateText)
        2024-02-29,EUR,TWD,33.825,2024-02,frankfurter-v2 average 2024-02 of 3 days EUR/TWD=33.825 (2 of 3 days)

        """)
    #expect(result.standardError.contains("fxbatch: 2024-03 EUR/USD not exported: period_incomplete: "))
    #expect(queries == ["base=EUR&quotes=TWD,USD&from=2024-02-01&to=2024-04-10"])
    let (daily, _) = try rates([
      "export", "--from", "2024-02-01", "--to", "2024-02-29", "--quotes", "USD", "--source", "frankfurter",
    ])
    #expect(daily.status == 64)
    #expect(daily.standardError.contains("rates export --source frankfurter gives period rates"))
  }

  // A row dated after the range asked (here after today) is a broken answer: its request's records are
  // bad_response, never a finished December (convert, closing by quarter, rates show and rates export alike).
  @Test func aRowAfterTheRangeAskedIsABadResponse() throws {
    var service = FrankfurterV2Server(
      rows: [("2026-11-30", "USD", "1.17"), ("2026-12-01", "USD", "1.18")], today: "2026-12-10")
    service.strayRangeRows = [("2030-01-15", "USD", "99")]
    let bad = "bad_response: Frankfurter: the answer has a USD rate of 2030-01-15, after the range asked (to 2026-12-10)"
    for arguments in [["--rate-kind", "average"], ["--rate-kind", "closing", "--period", "quarter"]] {
      let (result, _) = try convert(
        ["--source", "frankfurter"] + arguments, input: "2026-12-01,100,USD,EUR\n", service: service, today: "2026-12-10")
      #expect(result.status == 3, "\(arguments)")
      let records = Self.records(result)
      #expect(records[0][9] == "error" && records[0][10] == bad, "\(arguments) \(result.standardOutput)")
    }
    let (shown, _) = try rates(
      ["show", "USD", "EUR", "--date", "2026-12-01", "--rate-kind", "average", "--source", "frankfurter"], service: service,
      today: "2026-12-10")
    #expect(shown.status == 3)
    #expect(shown.standardError.hasPrefix("fxbatch: \(bad)"), "\(shown.standardOutput)")
    let (exported, _) = try rates(
      [
        "export", "--from", "2026-12-01", "--to", "2026-12-31", "--quotes", "USD", "--rate-kind", "average", "--source",
        "frankfurter",
      ], service: service, today: "2026-12-10")
    #expect(exported.status == 3)
    #expect(exported.standardOutput == "date,base,quote,rate,period,source\n")
    #expect(exported.standardError.contains("2026-12 EUR/USD not exported: \(bad)"), "\(exported.standardError)")
  }

  // A period's publication days are the service's days in it, of every currency of the answer: USD rows that
  // stop on the 15th leave USD→EUR a fallback over 2 of February's 3 days, and its closing rate the 15th's, a
  // fallback from the period's last publication day (the 29th, GBP's), as USD→GBP always was.
  @Test func aLegWithFewerDaysThanTheServiceIsAFallbackEvenAgainstEUR() throws {
    let service = FrankfurterV2Server(
      rows: [
        ("2024-02-01", "USD", "1.08"), ("2024-02-01", "GBP", "0.85"), ("2024-02-15", "USD", "1.07"),
        ("2024-02-15", "GBP", "0.86"), ("2024-02-29", "GBP", "0.855"), ("2024-03-01", "USD", "1.09"),
        ("2024-03-01", "GBP", "0.857"),
      ], today: "2024-04-10")
    let input = "2024-02-10,1000,USD,EUR\n2024-02-10,1000,USD,GBP\n"
    let usd = Fraction.mean(["1.08", "1.07"])
    let (average, _) = try convert(["--source", "frankfurter", "--rate-kind", "average"], input: input, service: service)
    #expect(average.status == 0, "\(average.standardError)")
    let records = Self.records(average)
    let inverse = Fraction("1") / usd
    #expect(
      records[0][4...9] == [
        inverse.rateText, (Fraction("1000") * inverse).text(decimals: 2), "EUR", "2024-02",
        "frankfurter-v2 average 2024-02 of 3 days EUR/USD=\(usd.rateText) (2 of 3 days)", "fallback",
      ])
    #expect(records[1][8] == "frankfurter-v2 average 2024-02 of 3 days EUR/USD=\(usd.rateText) (2 of 3 days) EUR/GBP=0.855")
    #expect(records[1][9] == "fallback")
    let (closing, _) = try convert(["--source", "frankfurter", "--rate-kind", "closing"], input: input, service: service)
    let closed = Self.records(closing)
    #expect(
      closed[0][7...9] == [
        "2024-02-15", "frankfurter-v2 closing 2024-02 (none on 2024-02-29, the period's last publication day) EUR/USD=1.07",
        "fallback",
      ])
    #expect(closed[1][7] == "2024-02-15" && closed[1][9] == "fallback")
  }
}
