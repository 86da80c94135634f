import FXBatch
import Foundation

/// `fxbatch rates currencies [--source S] [--endpoint URL]`: what a source covers, one currency a line.
extension RatesCommand {
  /// The sources `rates currencies` can list (the calculator answers one pair at a time and lists nothing).
  static let listedSourceNames = ["embedded", "file", "ecb", "frankfurter", "frankfurter-v1"]

  /// One link of the source asked about: a table at hand, or a service's list to fetch and read.
  private enum Listing {
    case table([CurrencyCoverage])
    case service(URL)
  }

  /// Prints `CODE FIRST-DAY LAST-DAY SOURCE NAME` per currency (`-` for a day or name the source does not
  /// give); exit 0, 1 when a service could not be reached, 2 for an answer that is not a currency list.
  static func currencies(_ parsed: ParsedArguments, usage: String) -> Int32 {
    let names: [String]
    var endpoint: URL? = nil
    var timeout: Double = 60
    var deadline = FetchDeadline()
    do throws(UsageError) {
      guard parsed.positionals.count == 1 else { throw UsageError("rates currencies takes no arguments; use --source NAME") }
      let list = parsed.value("--source") ?? (parsed.value("--rates") == nil ? "embedded" : "file")
      names = list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      for name in names {
        if name == "calculator" { throw UsageError("--source calculator answers one pair at a time; it lists no currencies") }
        guard listedSourceNames.contains(name) else {
          throw UsageError("--source \(list): unknown source '\(name)'; expected \(listedSourceNames.joined(separator: ", "))")
        }
      }
      if Set(names).count != names.count { throw UsageError("--source \(list): a source is named twice") }
      if names.contains("file") != (parsed.value("--rates") != nil) {
        throw UsageError(names.contains("file") ? "--source file needs --rates FILE" : "--rates is for the source file")
      }
      let services = names.filter { ["ecb", "frankfurter", "frankfurter-v1"].contains($0) }
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
    var listings: [(name: String, listing: Listing)] = []
    for name in names {
      switch name {
      case "embedded", "file":
        switch FXBatchCommand.loadRates(
          path: name == "file" ? parsed.value("--rates") : nil,
          cacheDirectory: name == "file" ? nil : FXBatchCommand.cacheDirectory(parsed))
        {
        case .success(let table): listings.append((name, .table(table.currencyCoverage(source: name))))
        case .failure(let error):
          Console.error("\(error)\n")
          return ExitStatus.fileError
        }
      case "ecb":
        listings.append(
          (name, .service((endpoint ?? ECBFeedProvider.defaultEndpoint).appendingPathComponent("eurofxref-hist.xml"))))
      case "frankfurter":
        listings.append(
          (name, .service(FrankfurterProvider(endpoint: endpoint ?? FrankfurterProvider.defaultEndpoint).currenciesURL)))
      default:
        listings.append(
          (name, .service(FrankfurterV1Provider(endpoint: endpoint ?? FrankfurterV1Provider.defaultEndpoint).currenciesURL)))
      }
    }
    var urls: [URL] = []
    for (_, listing) in listings { if case .service(let url) = listing { urls.append(url) } }
    let fetcher = RateFetcher(
      transport: CurlTransport(maximumConnections: max(urls.count, 1), timeout: timeout), jobs: max(urls.count, 1),
      timeout: timeout, retryPolicy: RetryPolicy(), deadline: deadline)
    var answers = urls.isEmpty ? [] : fetcher.fetch(urls).results
    var links: [[CurrencyCoverage]] = []
    for (name, listing) in listings {
      switch listing {
      case .table(let currencies): links.append(currencies)
      case .service(let url):
        switch answers.removeFirst() {
        case .failure(let error):
          Console.error("fxbatch: \(url.absoluteString): \(error.rowError)\n")
          return ExitStatus.rowErrors
        case .success(let response):
          do { links.append(try read(response.body, from: url, source: name)) } catch {
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
    if currencies.contains(where: { $0.source == "frankfurter-v1" }) {
      Console.error("fxbatch: frankfurter-v1 does not publish first and last days (-)\n")
    }
    return ExitStatus.success
  }

  /// A service's currency list, read as its source speaks.
  private static func read(_ body: Data, from url: URL, source: String) throws(CurrencyListingError) -> [CurrencyCoverage] {
    switch source {
    case "frankfurter": return try FrankfurterProvider.currencies(from: body, url: url, source: source)
    case "frankfurter-v1": return try FrankfurterV1Provider.currencies(from: body, url: url, source: source)
    default:
      // The ECB's history: the days each currency has a rate.
      let info = RateSourceInfo(identifier: "ecb", publisher: "ECB", description: url.absoluteString)
      let table: RateTable
      do {
        table = try [UInt8](body).withUnsafeBufferPointer { buffer throws(RatesFileError) in
          try ECBXMLFeed.parse(buffer, path: url.absoluteString, info: info)
        }
      } catch {
        throw .badAnswer(url: url.absoluteString, reason: error.message)
      }
      return table.currencyCoverage(source: source)
    }
  }
}
