/// What a format's two passes need from the run, and nothing of how the run is put together: the options, the
/// table (or the answered quotes) records are converted from as they come (behind
/// ``makeTableConverter(quotes:)``), which keys pass 1 gathers (``passOneKeys``), the record normalizer and the default day, the one per-record rule (``RecordConverter``),
/// and where a file's annotated copy goes. `BatchJob` makes one for each pass.
struct FormatContext {
  /// The run's options.
  private(set) var options: BatchOptions
  /// The table that converts records as they come (``TableConverter``); `nil` in pass 1 of a provider's run,
  /// whose keys are collected to plan the fetch.
  private let convertingTable: RateTable?
  /// What pass 1's byte-level paths gather of the records' keys (``KeySpan``) on the fast path: under a
  /// ``TableRateProvider``, the span of days of the keys it would be asked; under a source that answers keys
  /// (a provider of pairs, a lock file's quotes), every key; `nil` under a local table (records convert as they
  /// come) and off the fast path.
  private(set) var passOneKeys: KeySpan?
  /// Whether pass 2 converts on the fast path (``TableConverter``, from a table or from answered quotes): pass 1
  /// then finds where a big file's parts start even while it collects keys.
  var passTwoConvertsFromTable: Bool { options.fastPath }
  /// The day records without a date use: `--date`, else the newest rate day, else today.
  let defaultDay: CalendarDay
  /// The general per-record rule every format's general path calls.
  private(set) var recordConverter: RecordConverter
  /// Whether pass 1 may leave part of its reading to pass 2 (a provisional scan: CSV's parts, a workbook's
  /// sheet read in one pass), which checks it; `false` when nothing is converted (``BatchJob/plan()``), so pass 1
  /// reports every file's errors.
  let allowsProvisionalScan: Bool

  /// A context for a pass of the run (the job, which knows the source, works out the rest).
  ///
  /// - Parameters:
  ///   - convertingTable: the table that converts records as they come, if any.
  ///   - passOneKeys: see ``passOneKeys``.
  ///   - defaultDay: see ``defaultDay``.
  ///   - sourceIdentifier: the source's identifier, the `fx_source` of a record whose rate it could not give.
  ///   - allowsProvisionalScan: see ``allowsProvisionalScan``.
  init(
    options: BatchOptions, convertingTable: RateTable?, passOneKeys: KeySpan?, defaultDay: CalendarDay,
    sourceIdentifier: String, allowsProvisionalScan: Bool = true
  ) {
    self.allowsProvisionalScan = allowsProvisionalScan
    self.options = options
    self.convertingTable = convertingTable
    self.passOneKeys = passOneKeys
    self.defaultDay = defaultDay
    recordConverter = RecordConverter(
      rounding: options.rounding, sourceIdentifier: sourceIdentifier, amountNames: options.fieldNames.amountNames,
      skipRule: options.skipRule)
  }

  /// The same context under other options: a known document's (``JSONDocumentShape``), whose record choices
  /// leave the rounding and everything else of the run as they are. Its amounts (several, ``XMLDocumentShape``'s
  /// UBL totals, ``JSONDocumentShape``'s Stripe members) name the converter's amounts and the annotation, and
  /// take the paths several amounts an option gives take (``makeTableConverter(quotes:)``).
  func with(options: BatchOptions) -> FormatContext {
    var copy = self
    copy.options = options
    copy.recordConverter.amountNames = options.fieldNames.amountNames
    if !options.fastPath { copy.passOneKeys = nil }
    return copy
  }

  /// The annotation fields every record gets: `fx_converted`, or `fx_converted_NAME` per amount.
  var annotationLayout: AnnotationLayout { AnnotationLayout(amountNames: options.fieldNames.amountNames) }

  /// Whether records are converted from a table as they come (no keys to collect in pass 1).
  var hasConvertingTable: Bool { convertingTable != nil }

  /// The converter of records as they come: from the run's table, or in pass 2 from the answered quotes of a
  /// source that answers keys (``QuoteBook/answered``); `nil` when there is none (pass 1 of a provider's run, the
  /// general path). Each format checks that the converter's texts suit its output.
  ///
  /// - Parameter quotes: pass 2's answers; `nil` in pass 1.
  ///
  /// With several amounts (``FieldNames/amounts``) the converter keeps an account per amount; more amounts than
  /// the fast loop holds (``InlineList/capacity``) have none (the general path converts every record).
  func makeTableConverter(quotes: QuoteBook?) -> TableConverter? {
    guard options.fastPath, options.fieldNames.amounts.count <= InlineList<ExactDecimal>.capacity else { return nil }
    var converter: TableConverter
    if let table = convertingTable {
      converter = TableConverter(table: table, maxStaleness: options.maxStaleness, rounding: options.rounding)
    } else {
      guard let answered = quotes?.answered else { return nil }
      converter = TableConverter(answers: answered, rounding: options.rounding)
    }
    converter.amountNames = options.fieldNames.amountNames
    converter.tally = options.fastPathTally
    return converter
  }

  /// The fast → general decision, once for every format: the fast loop's converter when the run converts from
  /// a table (or answered quotes, ``makeTableConverter(quotes:)``) with `.` output decimal marks, and the
  /// converter's texts are ones `template` (the format's annotation) writes unescaped; `nil` sends every record
  /// down the general path.
  ///
  /// - Parameter quotes: pass 2's answers; `nil` in pass 1.
  func fastConverter(quotes: QuoteBook?, template: AnnotationTemplate?) -> TableConverter? {
    guard options.outputDecimalMark == .point, let template, let converter = makeTableConverter(quotes: quotes),
      converter.textsAreSafe(in: template)
    else { return nil }
    return converter
  }

  /// Pass 2's fast loop over a file's records (``fastConverter(quotes:template:)``), reading them with
  /// `reader`; `nil` when the run has none.
  func fastLoop<Reader: FastRecordReader>(
    _ scan: FileScan, quotes: QuoteBook, template: AnnotationTemplate?, reader: () -> Reader
  ) -> FastRecordLoop<Reader>? {
    guard let converter = fastConverter(quotes: quotes, template: template) else { return nil }
    return FastRecordLoop(
      reader: reader(), keys: FieldKeyDecoder(normalizer: scan.normalizer), converter: converter,
      skipRule: recordConverter.skipRule)
  }

  /// Pass 2's general path over a file's records (``RecordPass``), nothing counted yet.
  func generalPath(_ scan: FileScan, quotes: QuoteBook) -> GeneralRecordPath {
    GeneralRecordPath(
      converter: recordConverter, normalizer: scan.normalizer, parser: scan.amountParser(currencies: options.currencies),
      quotes: quotes, ledger: ReconciliationLedger(exactCurrencies: options.exactTotalCurrencies))
  }

  /// The normalizer of records whose fields are found by name (JSON, JSON Lines, XML); CSV adds its header's
  /// mapping.
  var recordNormalizer: RecordNormalizer {
    RecordNormalizer(
      fixedFrom: options.fixedFrom, fixedTo: options.fixedTo, dateFormat: options.dateFormat, defaultDay: defaultDay,
      currencies: options.currencies, amountUnit: options.amountUnit,
      minorUnitOverrides: options.minorUnits)
  }

  /// The output of a file: a temporary file beside the target (renamed into place by its `commit()`), or
  /// standard output.
  func openOutput(_ scan: FileScan, standardOutput: Int32) throws(FileError) -> (file: AtomicFile?, sink: ByteSink) {
    guard let outputPath = scan.outputPath else { return (nil, ByteSink(descriptor: standardOutput)) }
    do {
      let file = try AtomicFile(path: outputPath, permissionsOf: scan.displayPath == "-" ? nil : scan.displayPath)
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
