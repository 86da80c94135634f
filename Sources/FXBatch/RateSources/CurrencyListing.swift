import Foundation

/// `rates currencies`: what sources cover, one entry per currency, with the first source that covers it (as a
/// chain asks its links): a table's days per currency, or a service's list fetched and read by its source.
public enum CurrencyListing {
  /// Why nothing is listed.
  public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The options do not make a source (``RateSourceError``), or a source lists nothing: a usage error.
    case source(String)
    /// A service's list could not be fetched.
    case unreachable(url: String, error: RowError)
    /// A rates file could not be read: a message.
    case unusable(String)
    /// A service's answer is not a currency list: a message.
    case badAnswer(String)

    public var description: String {
      switch self {
      case .source(let message): return message
      case .unreachable(let url, let error): return "fxbatch: \(url): \(error)"
      case .unusable(let message), .badAnswer(let message): return message
      }
    }
  }

  /// Why a source that lists nothing is refused.
  public static func listsNothing(_ name: String) -> String {
    "--source \(name) answers one pair at a time; it lists no currencies"
  }

  /// The currencies of sources, in code order, each with the first source that covers it.
  ///
  /// Tables are read first, in order (the first that cannot be read fails the listing); then the services' lists
  /// are fetched at once and read in order.
  ///
  /// - Parameters:
  ///   - sources: the sources, in the order a chain asks them.
  ///   - options: what they are made from (`--rates`, `--endpoint`, the cache).
  ///   - timeout: seconds an answer may take; `deadline`: the limit of the whole fetch.
  ///   - transport: the transport; `nil` for a ``CurlTransport``.
  public static func list(
    _ sources: [any RateSourceDefinition.Type], options: RateSourceOptions, timeout: TimeInterval,
    deadline: FetchDeadline, transport: (any HTTPTransport)? = nil
  ) -> Result<[CurrencyCoverage], Failure> {
    enum Link {
      case table([CurrencyCoverage])
      case service(URL, any RateSourceDefinition.Type)
    }
    var links: [Link] = []
    for source in sources {
      guard source.listsCurrencies else { return .failure(.source(listsNothing(source.sourceName))) }
      if let url = source.currencyListURL(options) {
        links.append(.service(url, source))
        continue
      }
      // A source without a list of its own: the days each currency of its table has a rate.
      let setup: RateSourceSetup
      do { setup = try source.makeSource(options) } catch { return .failure(.source(error.description)) }
      guard case .table(let path, let cacheDirectory) = setup else {
        return .failure(.source(listsNothing(source.sourceName)))
      }
      do {
        let table = try RateSourceSetup.loadTable(path: path, cacheDirectory: cacheDirectory)
        links.append(.table(table.currencyCoverage(source: source.sourceName)))
      } catch {
        return .failure(.unusable(error.description))
      }
    }
    var urls: [URL] = []
    for link in links { if case .service(let url, _) = link { urls.append(url) } }
    let fetcher = RateFetcher(
      transport: transport ?? CurlTransport(maximumConnections: max(urls.count, 1), timeout: timeout),
      jobs: max(urls.count, 1), timeout: timeout, retryPolicy: RetryPolicy(), deadline: deadline)
    var answers = urls.isEmpty ? [] : fetcher.fetch(urls).results
    var coverages: [[CurrencyCoverage]] = []
    for link in links {
      switch link {
      case .table(let currencies): coverages.append(currencies)
      case .service(let url, let source):
        switch answers.removeFirst() {
        case .failure(let error): return .failure(.unreachable(url: url.absoluteString, error: error.rowError))
        case .success(let response):
          do { coverages.append(try source.listedCurrencies(from: response.body, url: url)) } catch {
            return .failure(.badAnswer(error.description))
          }
        }
      }
    }
    return .success(CurrencyCoverage.chained(coverages))
  }
}
