/// What a run did, for the summary on standard error and for `--report FILE` (JSON, for CI jobs).
public struct RunReport: Codable, Sendable, Equatable {
  /// Counts of records by outcome.
  public struct Counts: Codable, Sendable, Equatable {
    /// Records (blank lines, the header and skipped summary rows excluded): `ok + fallback + error`.
    public var records = 0
    public var ok = 0
    public var fallback = 0
    public var error = 0
    /// Error records by ``RowError/Code`` raw value.
    public var errorsByCode: [String: Int] = [:]
    /// Summary rows copied as they are (``RowSkipRule``), not among ``records``; `nil` (left out of the JSON)
    /// when there are none.
    public var skipped: Int? = nil

    public init() {}

    mutating func add(_ outcome: RowOutcome) {
      if case .skipped = outcome {
        skipped = (skipped ?? 0) + 1
        return
      }
      records += 1
      switch outcome {
      case .skipped: break
      case .converted(_, _, let quote, _): if quote.isFallback { fallback += 1 } else { ok += 1 }
      case .failed(let rowError, _, _):
        error += 1
        errorsByCode[rowError.code.rawValue, default: 0] += 1
      }
    }

    mutating func add(_ other: Counts) {
      records += other.records
      ok += other.ok
      fallback += other.fallback
      error += other.error
      errorsByCode.merge(other.errorsByCode, uniquingKeysWith: +)
      if let theirs = other.skipped { skipped = (skipped ?? 0) + theirs }
    }
  }

  /// One input file.
  public struct File: Codable, Sendable, Equatable {
    public var input: String
    /// The annotated copy; `-` for standard output; `nil` when the file failed.
    public var output: String?
    /// ``RecordFormat`` raw value: `"csv"`, `"json"`, `"jsonl"` or `"xml"`.
    public var format: String?
    /// For a JSON document, `--records-path` (`"data.items"`); `nil` when the document is the array.
    public var recordsPath: String?
    /// For an XML document, the name of its record elements.
    public var recordElement: String?
    /// For a document fxbatch knows (an ISO 20022 statement, a UBL invoice), what it is and what that chose:
    /// `recognized ISO 20022 camt.053.001.08: amount Amt, date BookgDt/Dt else ValDt/Dt`.
    public var document: String?
    /// CSV: the file's text encoding, `"utf-8"`, `"windows-1252"`, `"iso-8859-1"`, `"iso-8859-15"`,
    /// `"utf-16le"` or `"utf-16be"` (its annotated copy is written in it); `nil` for the other formats.
    public var encoding: String?
    /// The compression the input was in, read from its first bytes: `"gzip"`, `"zstd"`, `"xz"` or `"bzip2"`;
    /// `nil` for an input not compressed.
    public var compression: String?
    /// The compression the annotated copy is written in, named by its extension; `nil` for a copy not compressed.
    public var outputCompression: String?
    /// `","`, `";"` or `"\t"`; `nil` for JSON.
    public var delimiter: String?
    /// `"."` or `","`; `nil` when the file's amounts and delimiter do not settle it (cells that read
    /// differently with either mark are then refused).
    public var decimalMark: String?
    /// Whether the decimal mark was inferred (not given with `--decimal-separator`).
    public var decimalMarkInferred: Bool?
    /// What the inferred mark was inferred from: `"amounts"` or `"delimiter"`; `nil` when given, undecided, or
    /// when no amount depends on it.
    public var decimalMarkInferredFrom: String?
    /// The order of the file's slash dates, inferred from its date column (no `--date-format`): `"day-first"`
    /// (a date like 13/04/2024 proves it), `"month-first"`, or `"mixed"` (dates of both orders: its slash dates are
    /// refused); `nil` when no date proves an order.
    public var slashDates: String?
    /// Which header field plays each role (`amount`, `from`, `to`, `date`); a role given by an option
    /// (`--from CODE`) or absent (no date field) has no entry.
    public var fields: [String: String]?
    public var counts = Counts()
    /// Per target currency, the sum of the rounded records against their exact total rounded once.
    public var reconciliation: [Reconciliation]?
    /// Per from- and to-currency, what the file's converted records add up to; `nil` when the file failed.
    public var currencyTotals: CurrencyTotals? = nil
    /// Why the file was not read, when it was skipped (it is the output of another input of the run).
    public var skipped: String?
    /// `path:line:column: error: message` when the whole file failed.
    public var fileError: String?
  }

  /// The unrounded total of one target currency over the run's converted records, so that the reports of runs
  /// over parts of the data add up (`fxbatch report merge`) and are rounded once, as one run over all of it.
  ///
  /// `Σ amount × rate` is a sum of exact rationals (a cross rate is a quotient); ``total`` is it truncated to 18
  /// decimals below the currency's minor unit — each record's product truncated there, then added exactly — and
  /// ``inexactTerms`` counts the products that lost digits. The exact total lies in
  /// `[total, total + inexactTerms × 10^-(minor units + 18))`: ``total`` is exact when ``inexactTerms`` is 0.
  public struct UnroundedTotal: Codable, Sendable, Equatable {
    /// With several amounts per record, the amount's NAME (as ``Reconciliation/amount``); `nil` with one.
    public var amount: String? = nil
    public var currency: String
    /// A decimal string with the minor units plus 18 decimals (`"12.34500000000000000000"`); `nil` past 38 digits.
    public var total: String?
    public var inexactTerms: Int
  }

  /// The rates the run used.
  public struct Rates: Codable, Sendable, Equatable {
    public var source: RateSourceInfo
    /// First and last publication day, `YYYY-MM-DD`; `nil` for an undated table.
    public var firstDay: String?
    public var lastDay: String?
    /// Days from the last publication to the day of the run.
    public var daysSinceLastPublication: Int?
    /// The day used for records without a date.
    public var defaultDay: String
    /// How many records had no date.
    public var recordsWithoutDate: Int
    /// The period rule (`--rate-kind`, `--period`), e.g. `average month`; `nil` for spot rates.
    public var periodRule: String? = nil
  }

  /// What the fetch engine did, for a network source.
  public struct Fetch: Codable, Sendable, Equatable {
    /// Requests planned and sent (each distinct question once).
    public var requests = 0
    /// Attempts beyond the first, over all requests.
    public var retries = 0
    /// Requests that finally failed (their keys' records carry the error).
    public var failedRequests = 0
    /// Keys answered from the rate cache without a request.
    public var cacheHits = 0
    /// Why a table fetched and used was not kept in the rate cache (one larger than the cache keeps), or `nil`.
    public var notKept: String? = nil
  }

  public var files: [File] = []
  public var totals = Counts()
  /// Per target currency over all files, the sum of the rounded records against their exact total rounded once.
  public var reconciliation: [Reconciliation] = []
  /// Per target currency over all files, the unrounded total the reconciliation's `exactTotalRounded` is
  /// rounded from (``UnroundedTotal``); `nil` in a report of `--plan`.
  public var unroundedTotals: [UnroundedTotal]?
  /// Per from- and to-currency over all files, what the converted records add up to (``CurrencyTotals``); `nil`
  /// in a report of `--plan`.
  public var currencyTotals: CurrencyTotals? = nil
  public var rates: Rates
  /// ``RoundingMode`` raw value.
  public var rounding: String
  public var maxStalenessDays: Int
  /// `--amount-unit` (``AmountUnit`` raw value) when it is not the default `major`: `"minor"`, amounts read as
  /// whole minor units of their from-currency; `nil` (left out of the JSON) for major units.
  public var amountUnit: String? = nil
  /// `--minor-units`: per currency code, the decimals of its amounts under `--amount-unit minor`; `nil` when
  /// none are given.
  public var minorUnits: [String: Int]? = nil
  /// For a network source: requests, attempts and failures (a chain's: over all its links).
  public var fetch: Fetch?
  /// For a chain (`--source A,B`): per link, how many distinct market keys it answered.
  public var chain: [ChainLinkUse]?

  /// What one link of a chain answered.
  public struct ChainLinkUse: Codable, Sendable, Equatable {
    /// The link's name as given after `--source`, and its `fx_source` identifier.
    public var name: String
    public var source: String
    /// Keys asked of it (those the earlier links have no rate for), keys it gave a rate, and keys it failed
    /// for a reason that is not "no rate" (these are not passed on).
    public var asked = 0
    public var answered = 0
    public var failed = 0
  }
  /// The lock file written (`--lock`), or the problem writing it.
  public var lockFile: String?
  public var lockFileError: String?
  /// Keys the lock file leaves out: the source could not answer them this time (unreachable, timeout, an
  /// unusable answer).
  public var lockFileLeftOut = 0
  /// ``ExitStatus``: 0 every record converted (fallback included); 1 records failed on their own data; 2 a file
  /// was refused; 3 a rate source failed for some keys.
  public var exitStatus: Int32 = 0
  /// ``ExitStatus/name`` of ``exitStatus``: `ok`, `record-errors`, `file-refused`, `source-failed`; `nil` in a
  /// report written before it was added.
  public var exitStatusName: String? = nil
  /// How the run stood against `--max-errors`, `--max-source-errors` and `--fail-on`; `nil` when none is given.
  public var budget: BudgetUse? = nil
}
