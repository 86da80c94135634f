/// What a format's two passes need from the run, and nothing of how the run is put together: the options, the
/// table records are converted from as they come (behind ``makeTableConverter()``), which keys a table provider
/// would be asked, the record normalizer and the default day, the one per-record rule (``RecordConverter``),
/// and where a file's annotated copy goes. `BatchJob` makes one for each pass.
struct FormatContext {
  /// The run's options.
  let options: BatchOptions
  /// The table that converts records as they come (``TableConverter``); `nil` in pass 1 of a provider's run,
  /// whose keys are collected to plan the fetch.
  private let convertingTable: RateTable?
  /// Under a ``TableRateProvider`` on the fast path: which keys it would be asked (for pass 1's ``KeySpan``);
  /// `nil` for any other source.
  let tableProviderAccepts: (@Sendable (RateKey) -> Bool)?
  /// Whether pass 2 will convert from a table (a local one, or a ``TableRateProvider``'s): pass 1 then finds
  /// where a big file's parts start even while it collects keys.
  let passTwoConvertsFromTable: Bool
  /// The day records without a date use: `--date`, else the newest rate day, else today.
  let defaultDay: CalendarDay
  /// The general per-record rule every format's general path calls.
  let recordConverter: RecordConverter

  /// A context for a pass of the run.
  ///
  /// - Parameters:
  ///   - source: where the run's rates come from.
  ///   - convertingTable: the table that converts records as they come, if any.
  init(options: BatchOptions, source: RateSourceChoice, convertingTable: RateTable?) {
    self.options = options
    self.convertingTable = convertingTable
    defaultDay = Self.defaultDay(options: options, source: source)
    recordConverter = RecordConverter(rounding: options.rounding, sourceIdentifier: source.info.identifier)
    tableProviderAccepts = Self.tableProviderAccepts(options: options, source: source)
    passTwoConvertsFromTable = Self.passTwoConvertsFromTable(options: options, source: source)
  }

  /// Under a ``TableRateProvider`` on the fast path: which keys it would be asked; `nil` for any other source.
  private static func tableProviderAccepts(options: BatchOptions, source: RateSourceChoice) -> (
    @Sendable (RateKey) -> Bool
  )? {
    guard options.fastPath, case .provider(let provider as any TableRateProvider, _) = source else { return nil }
    let today = options.today
    return { key in
      guard case .success(let route) = CurrencyLifecycle.route(for: key) else { return false }
      let market = route.marketKey
      return market.pair.base != market.pair.quote && provider.precheck(market, today: today) == nil
    }
  }

  /// Whether pass 2 will convert from a table (a local one, or a ``TableRateProvider``'s).
  private static func passTwoConvertsFromTable(options: BatchOptions, source: RateSourceChoice) -> Bool {
    guard options.fastPath else { return false }
    switch source {
    case .table: return true
    case .provider(let provider, _): return provider is any TableRateProvider
    case .lockFile: return false
    }
  }

  /// The day records without a date use: `--date`, else the newest rate day, else today.
  static func defaultDay(options: BatchOptions, source: RateSourceChoice) -> CalendarDay {
    options.defaultDate ?? source.lastDay ?? options.today
  }

  /// Whether records are converted from a table as they come (no keys to collect in pass 1).
  var hasConvertingTable: Bool { convertingTable != nil }

  /// The converter of records from the run's table as they come; `nil` when there is none (pass 1 of a
  /// provider's run, a lock file, the general path). Each format checks that the table's texts suit its output.
  func makeTableConverter() -> TableConverter? {
    guard let table = convertingTable else { return nil }
    return TableConverter(table: table, maxStaleness: options.maxStaleness, rounding: options.rounding)
  }

  /// The normalizer of records whose fields are found by name (JSON, JSON Lines, XML); CSV adds its header's
  /// mapping.
  var recordNormalizer: RecordNormalizer {
    RecordNormalizer(
      fixedFrom: options.fixedFrom, fixedTo: options.fixedTo, dateFormat: options.dateFormat, defaultDay: defaultDay,
      currencies: options.currencies)
  }

  /// The output of a file: a temporary file beside the target (renamed into place by its `commit()`), or
  /// standard output.
  func openOutput(_ scan: FileScan, standardOutput: Int32) throws(FileError) -> (file: AtomicFile?, sink: ByteSink) {
    guard let outputPath = scan.outputPath else { return (nil, ByteSink(descriptor: standardOutput)) }
    do {
      let file = try AtomicFile(path: outputPath, permissionsOf: scan.displayPath == "-" ? nil : scan.readPath)
      return (file, file.sink)
    } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
  }

  /// Adds up the results of a file's parts (CSV, JSON Lines, XML).
  func total(of results: [PartResult]) -> PartResult {
    var total = PartResult(ledger: ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies))
    for result in results { total.add(result) }
    return total
  }
}
