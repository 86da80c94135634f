import FXBatch
import Foundation

/// `fxbatch rates currencies [--source S] [--endpoint URL]`: what a source covers, one currency a line.
extension RatesCommand {
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
        guard let source = RateSourceRegistry.source(named: name) else {
          let listed = RateSourceRegistry.listingNames
          throw UsageError(
            "--source \(list): unknown source '\(name)'; expected \(listed.joined(separator: ", "))"
              + ConvertCommand.sourceSuggestion(name, among: listed))
        }
        guard source.listsCurrencies else { throw UsageError(CurrencyListing.listsNothing(name)) }
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
    var options = RateSourceOptions()
    options.ratesPath = parsed.value("--rates")
    options.cacheDirectory = FXBatchCommand.cacheDirectory(parsed)
    options.endpoint = endpoint
    let currencies: [CurrencyCoverage]
    switch CurrencyListing.list(sources, options: options, timeout: timeout, deadline: deadline) {
    case .success(let listed): currencies = listed
    case .failure(.source(let message)): return FXBatchCommand.usageError(UsageError(message), usage: usage)
    case .failure(let failure):
      Console.error("\(failure)\n")
      switch failure {
      case .unreachable, .badAnswer: return ExitStatus.sourceFailed.code
      case .source, .unusable: return ExitStatus.fileRefused.code
      }
    }
    var text = ""
    for currency in currencies {
      let days = [currency.firstDay, currency.lastDay].map { $0.map(String.init(describing:)) ?? "-" }
      text += "\(currency.code) \(days[0]) \(days[1]) \(currency.source) \(currency.name ?? "-")\n"
    }
    Console.out(text)
    if currencies.contains(where: { $0.source == FrankfurterV1Provider.sourceName }) {
      Console.error("fxbatch: \(FrankfurterV1Provider.sourceName) does not publish first and last days (-)\n")
    }
    return ExitStatus.success.code
  }
}
