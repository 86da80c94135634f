/// Every rate source `--source` can name, in the order help lists them. Adding a source is a type conforming
/// to ``RateSourceDefinition`` plus one line here; the command line's names, help, completions and man page are
/// made from this list.
public enum RateSourceRegistry {
  public static let sources: [any RateSourceDefinition.Type] = [
    EmbeddedECBHistory.self,
    RatesFile.self,
    ECBFeedProvider.self,
    FrankfurterProvider.self,
    FrankfurterV1Provider.self,
    CalculatorProvider.self,
  ]

  /// The source of a run that names none: the first.
  public static var defaultSource: any RateSourceDefinition.Type { sources[0] }

  /// The source of `--rates FILE`.
  public static var ratesFileSource: any RateSourceDefinition.Type {
    sources.first { $0.readsRatesFile } ?? defaultSource
  }

  /// The source a `--source` name names, or `nil`.
  public static func source(named name: String) -> (any RateSourceDefinition.Type)? {
    sources.first { $0.sourceName == name }
  }

  /// The names `--source` takes, in order.
  public static var names: [String] { sources.map { $0.sourceName } }

  /// The names of the sources that pass a test, in order.
  public static func names(where isIncluded: (any RateSourceDefinition.Type) -> Bool) -> [String] {
    sources.filter(isIncluded).map { $0.sourceName }
  }

  /// The names of the sources that fetch over HTTP.
  public static var networkNames: [String] { names { $0.isNetworkSource } }

  /// The names of the sources `rates currencies` lists.
  public static var listingNames: [String] { names { $0.listsCurrencies } }

  /// Names joined for a sentence: `a, b or c` (`conjunction` `and` for `a, b and c`).
  public static func sentenceList(_ names: [String], conjunction: String = "or") -> String {
    names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " \(conjunction) " + (names.last ?? "")
  }

  /// Sources named with their notes, for help: `embedded (default), file (with --rates), ecb or frankfurter`.
  public static func helpList(_ sources: [any RateSourceDefinition.Type]) -> String {
    sentenceList(sources.map { source in source.sourceName + (source.sourceNote.map { " (\($0))" } ?? "") })
  }
}
