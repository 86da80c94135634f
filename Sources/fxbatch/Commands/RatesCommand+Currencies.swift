import FXBatch
import Foundation

/// `fxbatch rates currencies [--source S] [--endpoint URL]`: what a source covers, one currency a line.
extension RatesCommand {
  /// One link of the source asked about: a table at hand, or a service's list to fetch and read.
  private enum Listing {
    case table([CurrencyCoverage])
    case service(URL, any RateSourceDefinition.Type)
  }

  /// Prints `CODE FIRST-DAY LAST-DAY SOURCE NAME` per currency (`-` for a day or name the source does not
  /// give); exit 0, 1 when a service could not be reached, 2 for an answer that is not a currency list.
  static func currencies(_ parsed: ParsedArguments, usage: String) -> Int32 {
    var sources: [any RateSourceDefinition.Type] = []
    var endpoint: URL? = nil
    var timeout: Double = 60
    var deadline = FetchDeadline()
    do throws(UsageError) {
      guard parsed.positionals.count == 1 else { throw UsageError("rates currencies takes no arguments; use --source NAME") }
      let names = ConvertCommand.sourceList(parsed)
      let list = names.joined(separator: ",")
      for name in names {
        let source = RateSourceRegistry.source(named: name)
        if let source, !source.listsCurrencies {
          throw UsageError(unlisted(name))
        }
        guard let source else {
          let listed = RateSourceRegistry.listingNames
          throw UsageError(
            "--source \(list): unknown source '\(name)'; expected \(listed.joined(separator: ", "))"
              + ConvertCommand.sourceSuggestion(name, among: listed))
        }
        sources.append(source)
      }
      if Set(names).count != names.count { throw UsageError("--source \(list): a source is named twice") }
      let ratesFile = RateSourceRegistry.ratesFileSource.sourceName
      if names.contains(ratesFile) != (parsed.value("--rates") != nil) {
        throw UsageError(
          names.contains(ratesFile) ? "--source \(ratesFile) needs --rates FILE" : "--rates is for the source \(ratesFile)")
      }
      let services = sources.filter { $0.isNetworkSource }.map { $0.sourceName }
      if let text = parsed.value("--endpoint") {
        guard services.count == 1 else {
          throw UsageError(
            "--endpoint is the root of one service, and --source \(list) names "
              + (services.isEmpty ? "none" : "\(services.count) (\(services.joined(separator: ", ")))"))
        }
        endpoint = try OptionValues.endpoint(text)
      }
      if let text = parsed.value("--timeout") {
        guard !services.isEmpty else { throw UsageError("--timeout is for a service, and --source \(list) names none") }
        timeout = try OptionValues.seconds(text, option: "--timeout", range: 0.001...3600)
      }
      if let text = parsed.value("--deadline") {
        guard !services.isEmpty else { throw UsageError("--deadline is for a service, and --source \(list) names none") }
        deadline = try OptionValues.deadline(text)
      }
    } catch {
      return FXBatchCommand.usageError(error, usage: usage)
    }
    var listings: [Listing] = []
    var options = RateSourceOptions()
    options.ratesPath = parsed.value("--rates")
    options.cacheDirectory = FXBatchCommand.cacheDirectory(parsed)
    options.endpoint = endpoint
    for source in sources {
      if let url = source.currencyListURL(options) {
        listings.append(.service(url, source))
        continue
      }
      // A source without a list of its own: the days each currency of its table has a rate.
      let setup: RateSourceSetup
      do { setup = try source.makeSource(options) } catch {
        return FXBatchCommand.usageError(UsageError(error.description), usage: usage)
      }
      guard case .table(let path, let cacheDirectory) = setup else {
        return FXBatchCommand.usageError(UsageError(unlisted(source.sourceName)), usage: usage)
      }
      switch FXBatchCommand.loadRates(path: path, cacheDirectory: cacheDirectory) {
      case .success(let table): listings.append(.table(table.currencyCoverage(source: source.sourceName)))
      case .failure(let error):
        Console.error("\(error)\n")
        return ExitStatus.fileError
      }
    }
    var urls: [URL] = []
    for listing in listings { if case .service(let url, _) = listing { urls.append(url) } }
    let fetcher = RateFetcher(
      transport: CurlTransport(maximumConnections: max(urls.count, 1), timeout: timeout), jobs: max(urls.count, 1),
      timeout: timeout, retryPolicy: RetryPolicy(), deadline: deadline)
    var answers = urls.isEmpty ? [] : fetcher.fetch(urls).results
    var links: [[CurrencyCoverage]] = []
    for listing in listings {
      switch listing {
      case .table(let currencies): links.append(currencies)
      case .service(let url, let source):
        switch answers.removeFirst() {
        case .failure(let error):
          Console.error("fxbatch: \(url.absoluteString): \(error.rowError)\n")
          return ExitStatus.rowErrors
        case .success(let response):
          do { links.append(try source.listedCurrencies(from: response.body, url: url)) } catch {
            Console.error("\(error)\n")
            return ExitStatus.fileError
          }
        }
      }
    }
    let currencies = CurrencyCoverage.chained(links)
    var text = ""
    for currency in currencies {
      let days = [currency.firstDay, currency.lastDay].map { $0.map(String.init(describing:)) ?? "-" }
      text += "\(currency.code) \(days[0]) \(days[1]) \(currency.source) \(currency.name ?? "-")\n"
    }
    Console.out(text)
    if currencies.contains(where: { $0.source == FrankfurterV1Provider.sourceName }) {
      Console.error("fxbatch: \(FrankfurterV1Provider.sourceName) does not publish first and last days (-)\n")
    }
    return ExitStatus.success
  }

  /// Why `rates currencies` refuses a source that lists nothing.
  private static func unlisted(_ name: String) -> String { "--source \(name) answers one pair at a time; it lists no currencies" }
}
