import FXBatch
import FXBatchTestSupport
import Foundation
import Testing

@testable import fxbatch

/// The rate-source registry is the one list of sources: `--source` accepts its names and no others, and help,
/// "did you mean", completions and the man page name them from it.
@Suite("rate source registry")
struct RateSourceRegistryTests {
  /// `--source` as convert reads it, with `--rates` where the source reads it.
  static func choice(_ arguments: [String]) throws(UsageError) -> ConvertCommand.SourceChoice {
    try ConvertCommand.sourceChoice(ParsedArguments.parse(ArraySlice(arguments), options: ConvertCommand.options))
  }

  static func sourceArguments(_ name: String) -> [String] {
    ["--source", name] + (RateSourceRegistry.source(named: name)?.readsRatesFile == true ? ["--rates", "r.csv"] : [])
  }

  /// The names of a few strings that are not sources, besides the registry's.
  static let candidates = RateSourceRegistry.names + ["ECB", "frankfurter-v2", "embeded", "rates", "lock", "x"]

  @Test func theRegistrysNamesAreExactlyTheNamesSourceAccepts() {
    var accepted: [String] = []
    for name in Self.candidates where (try? Self.choice(Self.sourceArguments(name))) != nil { accepted.append(name) }
    #expect(accepted == RateSourceRegistry.names)
    #expect(Set(RateSourceRegistry.names).count == RateSourceRegistry.sources.count, "a name registered twice")
  }

  /// A network source is what the fetch options are for, and makes a provider; the others make a table.
  @Test(arguments: RateSourceRegistry.names)
  func eachSourceIsMadeByItsDefinition(name: String) throws {
    let definition = try #require(RateSourceRegistry.source(named: name))
    let isNetworkSource = definition.isNetworkSource
    let readsRatesFile = definition.readsRatesFile
    let answersPeriodRules = definition.answersPeriodRules
    let choice = try Self.choice(Self.sourceArguments(name))
    switch choice {
    case .table(let path, _): #expect(!isNetworkSource && path == (readsRatesFile ? "r.csv" : nil))
    case .provider: #expect(isNetworkSource)
    case .lockFile, .chain: Issue.record("\(name) made \(choice)")
    }
    let jobs = Result { () throws(UsageError) in try Self.choice(Self.sourceArguments(name) + ["--jobs", "2"]) }
    #expect(((try? jobs.get()) != nil) == isNetworkSource, "--jobs with \(name)")
    let average = Result { () throws(UsageError) in
      let arguments = Self.sourceArguments(name) + ["--rate-kind", "average"]
      let parsed = try ParsedArguments.parse(ArraySlice(arguments), options: ConvertCommand.options)
      try ConvertCommand.checkRateRule(.average(.month), source: Self.choice(arguments), parsed: parsed)
    }
    #expect(((try? average.get()) != nil) == answersPeriodRules, "--rate-kind average with \(name)")
  }

  /// Every name in a list of two, after the default source (or, for the default, the rates file's source).
  @Test(arguments: RateSourceRegistry.names)
  func eachSourceChains(name: String) throws {
    let other =
      name == RateSourceRegistry.defaultSource.sourceName
      ? RateSourceRegistry.ratesFileSource.sourceName : RateSourceRegistry.defaultSource.sourceName
    let rates = [name, other].contains(RateSourceRegistry.ratesFileSource.sourceName) ? ["--rates", "r.csv"] : []
    let choice = try Self.choice(["--source", "\(other),\(name)"] + rates)
    guard case .chain(let links) = choice else {
      Issue.record("\(choice)")
      return
    }
    #expect(links.map(\.name) == [other, name])
  }

  /// A misspelled name (its last letter doubled) is refused with the registered name suggested, alone and in a
  /// list.
  @Test(arguments: RateSourceRegistry.names)
  func aMisspelledNameSuggestsTheRegisteredOne(name: String) {
    let typed = name + String(name.suffix(1))
    let other = RateSourceRegistry.names.first { $0 != name } ?? name
    for arguments in [["--source", typed], ["--source", "\(other),\(typed)"]] {
      #expect {
        try Self.choice(arguments)
      } throws: { error in
        (error as? UsageError)?.description.hasSuffix("; did you mean '\(name)'?") == true
      }
    }
  }

  @Test func aNameFarFromEveryRegisteredOneGetsNoSuggestion() {
    #expect {
      try Self.choice(["--source", "zzzzzzzz"])
    } throws: { error in
      (error as? UsageError)?.description
        == "--source zzzzzzzz: expected \(RateSourceRegistry.sentenceList(RateSourceRegistry.names))"
    }
  }

  /// `rates currencies` suggests among the sources that list currencies.
  @Test func ratesCurrenciesSuggestsAListingSource() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for name in RateSourceRegistry.listingNames {
      let result = try cli.run(["rates", "currencies", "--source", name + String(name.suffix(1))], in: directory.url)
      #expect(result.status == 64)
      #expect(result.standardError.contains("; did you mean '\(name)'?"), "\(result.standardError)")
    }
    for name in RateSourceRegistry.names where !RateSourceRegistry.listingNames.contains(name) {
      let result = try cli.run(["rates", "currencies", "--source", name], in: directory.url)
      #expect(result.standardError.contains("--source \(name) answers one pair at a time; it lists no currencies"))
    }
  }

  // MARK: help, completions, man page

  static func option(_ name: String, of options: [OptionSpec]) throws -> OptionSpec {
    try #require(options.first { $0.names.contains(name) })
  }

  @Test func sourcesHelpAndCompletionWordsAreTheRegistrys() throws {
    let convert = try Self.option("--source", of: ConvertCommand.options)
    #expect(convert.valueCompletion == .words(RateSourceRegistry.names))
    #expect(
      convert.help.replacingOccurrences(of: "\n", with: " ")
        .hasPrefix(RateSourceRegistry.helpList(RateSourceRegistry.sources) + " (the last four fetch rates over HTTP)"))
    let rates = try Self.option("--source", of: RatesCommand.options)
    #expect(rates.valueCompletion == .words(RateSourceRegistry.listingNames))
    let listing = RateSourceRegistry.sources.filter { $0.listsCurrencies }
    #expect(rates.help.replacingOccurrences(of: "\n", with: " ").hasPrefix(RateSourceRegistry.helpList(listing)))
    for name in RateSourceRegistry.names {
      #expect(ConvertCommand.help.contains(name), "\(name)")
    }
    for name in RateSourceRegistry.networkNames {
      #expect(try Self.option("--endpoint", of: ConvertCommand.options).help.contains(name), "\(name)")
    }
  }

  @Test func completionScriptsOfferEveryRegisteredSource() {
    let names = RateSourceRegistry.names
    #expect(ShellCompletions.bash.contains("compgen -W '\(names.joined(separator: " "))'"))
    #expect(ShellCompletions.zsh.contains("compadd -- \(names.map { "'\($0)'" }.joined(separator: " "))"))
    #expect(ShellCompletions.fish.contains("-l source -x -a '\(names.joined(separator: " "))'"))
    let listing = RateSourceRegistry.listingNames
    #expect(ShellCompletions.bash.contains("compgen -W '\(listing.joined(separator: " "))'"))
  }

  @Test func theManPageNamesEveryRegisteredSource() {
    let page = ManPage.text.replacingOccurrences(of: "\n", with: " ")
    #expect(page.contains(ManPage.escaped(RateSourceRegistry.helpList(RateSourceRegistry.sources))))
    for name in RateSourceRegistry.names { #expect(page.contains(ManPage.escaped(name)), "\(name)") }
  }

  @Test func helpListsAndSentences() {
    #expect(RateSourceRegistry.sentenceList(["a"]) == "a")
    #expect(RateSourceRegistry.sentenceList(["a", "b", "c"]) == "a, b or c")
    #expect(RateSourceRegistry.sentenceList(["a", "b"], conjunction: "and") == "a and b")
    #expect(
      RateSourceRegistry.helpList([EmbeddedECBHistory.self, ECBFeedProvider.self, FrankfurterProvider.self])
        == "embedded (default), ecb or frankfurter (v2, ~200 currencies)")
    #expect(OptionSpec.wrapped("aaa bbb ccc dd", width: 7) == "aaa bbb\nccc dd")
  }

  // MARK: the library's part of the commands

  /// `rates update`'s work: fetched, checked, kept; a body that is not a feed, or a server that fails, keeps
  /// nothing and says why.
  @Test func theECBHistoryUpdateKeepsAFetchedHistory() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    server.route(
      "/eurofxref-hist.xml",
      [
        .xml(
          """
          <?xml version="1.0" encoding="UTF-8"?>
          <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
          <Cube><Cube time="2026-11-27"><Cube currency="USD" rate="1.1300"/></Cube><Cube time="2026-11-26"><Cube currency="USD" rate="1.1200"/></Cube></Cube>
          </gesmes:Envelope>
          """),
        .text("not xml"),
        .status(404),
      ])
    let cache = directory.url.appendingPathComponent("cache").path
    func update() -> Result<ECBHistoryUpdate.Outcome, ECBHistoryUpdate.Failure> {
      ECBHistoryUpdate.run(
        endpoint: server.baseURL, cacheDirectory: cache, timeout: 5, deadline: FetchDeadline(),
        today: CalendarDay(iso8601: "2026-12-01"))
    }
    let kept = try update().get()
    #expect(kept.days == 2)
    #expect(kept.firstDay == CalendarDay(iso8601: "2026-11-26") && kept.lastDay == CalendarDay(iso8601: "2026-11-27"))
    #expect(kept.summary.hasSuffix("; newer than the embedded history (ends 2026-10-30)"), "\(kept.summary)")
    let newest = EmbeddedECBHistory.newest(cache: try RateCache(directory: cache))
    #expect(newest.lastDay == CalendarDay(iso8601: "2026-11-27"))
    guard case .failure(.badAnswer(let message)) = update() else {
      Issue.record("a body that is not XML was kept")
      return
    }
    #expect(message.hasPrefix(server.baseURL.appendingPathComponent("eurofxref-hist.xml").absoluteString + ":"), "\(message)")
    guard case .failure(.unreachable(let url, _)) = update() else {
      Issue.record("a 404 was not a fetch failure")
      return
    }
    #expect(url.hasSuffix("/eurofxref-hist.xml"))
  }

  /// A chain of tables lists each currency once, with the first source that covers it; a source that lists
  /// nothing, or a rates file that cannot be read, fails the listing and says why.
  @Test func currencyListingChainsTablesAndRefusesWhatListsNothing() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let ratesPath = directory.url.appendingPathComponent("r.csv").path
    try Data("date,base,quote,rate\n2024-01-02,EUR,USD,1.1\n2024-01-02,EUR,XAU,0.0005\n".utf8)
      .write(to: URL(fileURLWithPath: ratesPath))
    var options = RateSourceOptions()
    options.ratesPath = ratesPath
    let listed = try CurrencyListing.list(
      [EmbeddedECBHistory.self, RatesFile.self], options: options, timeout: 1, deadline: FetchDeadline()
    ).get()
    let usd = try #require(listed.first { $0.code.description == "USD" })
    #expect(usd.source == "embedded" && usd.firstDay == CalendarDay(iso8601: "1999-01-04"))
    let gold = try #require(listed.first { $0.code.description == "XAU" })
    #expect(gold.source == "file" && gold.firstDay == CalendarDay(iso8601: "2024-01-02"))
    #expect(
      CurrencyListing.list([CalculatorProvider.self], options: options, timeout: 1, deadline: FetchDeadline())
        == .failure(.source("--source calculator answers one pair at a time; it lists no currencies")))
    options.ratesPath = directory.url.appendingPathComponent("missing.csv").path
    guard
      case .failure(.unusable(let message)) = CurrencyListing.list(
        [RatesFile.self], options: options, timeout: 1, deadline: FetchDeadline())
    else {
      Issue.record("a missing rates file was listed")
      return
    }
    #expect(message.hasSuffix("missing.csv:1:1: error: no such rates file"), "\(message)")
  }

  /// A frozen run replays only the rule its lock was written under.
  @Test func aLockReplaysOnlyItsOwnRule() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try Data("date,amount,currency\n2024-01-02,100,USD\n".utf8).write(to: directory.url.appendingPathComponent("a.csv"))
    let written = try cli.run(["rates", "lock", "a.csv", "--to", "EUR", "-o", "a.lock"], in: directory.url)
    try #require(written.status == 0, "\(written.standardError)")
    let path = directory.url.appendingPathComponent("a.lock").path
    let replayed = try LockFile.replay(path: path, rule: .spot)
    #expect(replayed.source.info.identifier == "ecb-embedded")
    #expect {
      try LockFile.replay(path: path, rule: .average(.month))
    } throws: { error in
      (error as? RatesFileError)?.message.hasPrefix(
        "the lock file was written under --rate-kind spot; it cannot replay --rate-kind average --period month") == true
    }
  }
}
