/// How many failed records a run may have and still exit 0 (`--max-errors`, `--max-source-errors`, `--fail-on`).
///
/// Record errors (a record's own data: amount, currency, date, field) are within a budget of `--max-errors`;
/// errors of a rate source (``RowError/Code/isAboutTheExchange``) only within `--max-source-errors`, 0 unless given.
public struct ErrorBudget: Sendable, Equatable {
  /// A most: a number of records, or a percentage of the run's records.
  public enum Limit: Sendable, Equatable, CustomStringConvertible {
    case count(Int)
    /// `digits × 10^-scale` percent: `0.5%` is `percent(5, scale: 1)`.
    case percent(Int, scale: Int)

    /// Reads `N` (a whole number ≥ 0) or `P%` (0 to 100, at most 4 decimals); `nil` for anything else.
    public init?(_ text: String) {
      if text.hasSuffix("%") {
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.count <= 3,
          whole.allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || (!fraction.isEmpty && fraction.count <= 4),
          fraction.allSatisfy({ $0.isASCII && $0.isNumber }), let digits = Int(whole + fraction)
        else { return nil }
        var hundred = 100
        for _ in 0..<fraction.count { hundred *= 10 }
        guard digits <= hundred else { return nil }
        self = .percent(digits, scale: fraction.count)
      } else {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(text) else {
          return nil
        }
        self = .count(count)
      }
    }

    /// Whether `errors` of `records` are within the limit (exactly: no rounding of the percentage).
    public func allows(_ errors: Int, of records: Int) -> Bool {
      switch self {
      case .count(let most): return errors <= most
      case .percent(let digits, let scale):
        // errors / records ≤ digits·10^-scale / 100  ⇔  errors·100·10^scale ≤ digits·records
        var left = Int128(errors) * 100
        for _ in 0..<scale { left *= 10 }
        return left <= Int128(digits) * Int128(records)
      }
    }

    /// As given: `5`, `0.5%`.
    public var description: String {
      switch self {
      case .count(let most): return String(most)
      case .percent(let digits, let scale):
        guard scale > 0 else { return "\(digits)%" }
        var text = String(digits)
        if text.count <= scale { text = String(repeating: "0", count: scale - text.count + 1) + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -scale))
        return text + "%"
      }
    }
  }

  /// Records that count as errors for the exit status, besides those that failed (`--fail-on`).
  public enum Strictness: String, CaseIterable, Sendable {
    /// Records converted at a fallback rate (an earlier day's, a legacy currency's fixed conversion).
    case fallback
    /// Every converted record when the rates used end more than `--max-staleness` days before the day of the run.
    case stale
  }

  /// `--max-errors`; `nil`: none allowed.
  public var maxErrors: Limit?
  /// `--max-source-errors`; `nil`: none allowed.
  public var maxSourceErrors: Limit?
  /// `--fail-on`.
  public var failOn: Set<Strictness> = []

  public init(maxErrors: Limit? = nil, maxSourceErrors: Limit? = nil, failOn: Set<Strictness> = []) {
    self.maxErrors = maxErrors
    self.maxSourceErrors = maxSourceErrors
    self.failOn = failOn
  }

  /// Whether no option sets the budget (every error fails the run).
  public var isDefault: Bool { maxErrors == nil && maxSourceErrors == nil && failOn.isEmpty }
}

extension RunReport {
  /// How a run stood against its ``ErrorBudget`` (in the report when a budget option is given).
  public struct BudgetUse: Codable, Sendable, Equatable {
    /// `--max-errors` and `--max-source-errors` as given (`"5"`, `"0.5%"`); `nil` when not given (0).
    public var maxErrors: String?
    public var maxSourceErrors: String?
    /// `--fail-on`: `"fallback"`, `"stale"`.
    public var failOn: [String]?
    /// Records that count against `--max-errors`: failed on their own data, plus those `--fail-on` counts.
    public var recordErrors: Int
    /// Records a rate source failed (`source_unavailable`, `timeout`, `bad_response`).
    public var sourceErrors: Int
    public var withinMaxErrors: Bool
    public var withinMaxSourceErrors: Bool
  }

  /// Records a rate source failed: their codes are about the exchange (``RowError/Code/isAboutTheExchange``).
  public var sourceErrorRecords: Int {
    totals.errorsByCode.reduce(0) { sum, entry in
      sum + (RowError.Code(rawValue: entry.key)?.isAboutTheExchange == true ? entry.value : 0)
    }
  }

  /// Whether the rates used end more than the staleness limit before the day of the run.
  public var ratesAreStale: Bool { (rates.daysSinceLastPublication ?? 0) > maxStalenessDays }

  /// Sets ``exitStatus``, ``exitStatusName`` and (for a budget given) ``budget`` from the report's files and
  /// counts: 2 a file refused (or a lock file not written), else 3 a source failed beyond `--max-source-errors`,
  /// else 1 records failed beyond `--max-errors`, else 0.
  public mutating func judge(_ errorBudget: ErrorBudget = ErrorBudget()) {
    let sourceErrors = sourceErrorRecords
    var recordErrors = totals.error - sourceErrors
    let converted = totals.ok + totals.fallback
    if errorBudget.failOn.contains(.stale), ratesAreStale {
      recordErrors += converted
    } else if errorBudget.failOn.contains(.fallback) {
      recordErrors += totals.fallback
    }
    let withinRecords = recordErrors == 0 || (errorBudget.maxErrors?.allows(recordErrors, of: totals.records) ?? false)
    let withinSource =
      sourceErrors == 0 || (errorBudget.maxSourceErrors?.allows(sourceErrors, of: totals.records) ?? false)
    let fileRefused = files.contains { $0.fileError != nil } || lockFileError != nil
    let status: ExitStatus =
      fileRefused ? .fileRefused : !withinSource ? .sourceFailed : !withinRecords ? .recordErrors : .success
    setExitStatus(status)
    budget =
      errorBudget.isDefault
      ? nil
      : BudgetUse(
        maxErrors: errorBudget.maxErrors?.description, maxSourceErrors: errorBudget.maxSourceErrors?.description,
        failOn: errorBudget.failOn.isEmpty
          ? nil : ErrorBudget.Strictness.allCases.filter(errorBudget.failOn.contains).map(\.rawValue),
        recordErrors: recordErrors, sourceErrors: sourceErrors, withinMaxErrors: withinRecords,
        withinMaxSourceErrors: withinSource)
  }

  /// Sets ``exitStatus`` and its word.
  public mutating func setExitStatus(_ status: ExitStatus) {
    exitStatus = status.code
    exitStatusName = status.name
  }
}
