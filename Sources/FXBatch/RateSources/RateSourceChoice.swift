import Foundation

/// How the fetch engine runs (`--jobs`, `--timeout`, `--retries`, `--retry-delay`, `--deadline`).
public struct FetchSettings: Sendable {
  /// Most requests in flight at once.
  public var jobs = 8
  /// Seconds a request may wait for its answer.
  public var timeout: TimeInterval = 10
  public var retryPolicy = RetryPolicy()
  /// The limit of the run's whole fetch phase; shared by the settings of every link of a chain (one per run).
  public var deadline = FetchDeadline()
  /// The transport; `nil` for a ``CurlTransport`` made for the run.
  public var transport: (any HTTPTransport)?
  /// Called as requests finish and retry (for a progress line).
  public var progress: (@Sendable (RateFetcher.Progress) -> Void)?
  /// The persistent rate cache; `nil` with `--no-cache`.
  public var cache: RateCache?
  /// `--offline`: answer from the cache only; keys that need the network get `no_rate`.
  public var offline = false

  public init() {}
}

/// Where a run's rates come from: a local table (embedded ECB history or `--rates FILE`) or a provider over
/// HTTP.
public enum RateSourceChoice: Sendable {
  case table(RateTable)
  case provider(any RateProvider, FetchSettings)
  /// `--frozen` on a lock of a source that answers keys: only its quotes (and its errors) in the lock file.
  case lockFile(path: String, quotes: LockFile.LockedQuotes)
  /// `--source A,B,…`: each key from the first link with a rate for it (``RateResolver``); never a lock file.
  case chain([ChainLink])

  /// One source of a chain, with its name as given after `--source`.
  public struct ChainLink: Sendable {
    public let name: String
    public let source: RateSourceChoice

    public init(name: String, source: RateSourceChoice) {
      self.name = name
      self.source = source
    }
  }

  public var info: RateSourceInfo {
    switch self {
    case .table(let table): return table.info
    case .provider(let provider, _): return provider.info
    case .lockFile(let path, let locked):
      return locked.source
        ?? RateSourceInfo(identifier: "lock", publisher: "the lock file", description: "lock file \(path) (--frozen)")
    case .chain(let links):
      let names = links.map(\.name).joined(separator: "+")
      return RateSourceInfo(
        identifier: "chain:\(names)", publisher: links.map(\.name).joined(separator: ", "),
        description: "the chain " + links.map { "\($0.name) (\($0.source.info.description))" }.joined(separator: ", then "))
    }
  }

  public var firstDay: CalendarDay? {
    switch self {
    case .table(let table): return table.firstDay
    case .provider(let provider, _): return provider.firstDay
    case .lockFile, .chain: return nil
    }
  }

  /// Whether the rates come from a lock file (`--frozen`).
  public var isLockFile: Bool {
    if case .lockFile = self { return true }
    return false
  }

  /// Whether the rates come from a chain of sources (`--source A,B,…`).
  public var isChain: Bool {
    if case .chain = self { return true }
    return false
  }

  /// The newest publication day, when known before fetching.
  public var lastDay: CalendarDay? {
    if case .table(let table) = self { return table.lastDay }
    if case .chain(let links) = self { return links.first?.source.lastDay }  // undated records: the first link's day
    return nil
  }
}
