import Foundation

/// Converts a set of files: reads every record of every file once to collect the distinct rate questions,
/// answers each question once from the rate table, then streams every file again to write its annotated copy.
///
/// Memory never grows with the number of records: under a network source or a lock file it is proportional to
/// the distinct (base, quote, day) keys; a CSV file under a local table is converted record by record from the
/// table (``TableConverter``), with no per-key state.
public struct BatchJob {
  public internal(set) var options: BatchOptions
  public let source: RateSourceChoice
  /// The table pass 2 converts from when the source is not a local table: what a ``TableRateProvider``
  /// answered, set by ``run(standardOutput:)`` after pass 1 (and the local table recording its use for a lock).
  var passTwoTable: RateTable? = nil
  /// Why a ``TableRateProvider`` gave no table (a failed fetch, `--offline` without a kept one), as the error of
  /// each key it would have been asked: the general path answers with it instead of asking again.
  var tableFailure: ((RateKey) -> RowError)? = nil
  /// Whether pass 1 collects every record's key, whatever the source (``lock()``: a local table's too).
  var collectsEveryKey = false
  /// Whether pass 1 may leave part of its reading to pass 2 (``FormatContext/allowsProvisionalScan``); ``plan()``,
  /// which converts nothing, has pass 1 read every file whole.
  var allowsProvisionalScan = true

  public init(options: BatchOptions, source: RateSourceChoice) {
    self.options = options
    self.source = source
  }

  /// A job on a local rate table.
  public init(options: BatchOptions, rates: RateTable) {
    self.init(options: options, source: .table(rates))
  }

  /// The table the run's rates come from: the local one, or (in pass 2) the one a provider's answer filled.
  var sourceTable: RateTable? {
    if let passTwoTable { return passTwoTable }
    guard case .table(let table) = source else { return nil }
    return table
  }

  /// The table that converts records as they come (``TableConverter``); `nil` in pass 1 of a provider's run,
  /// whose keys are collected to plan the fetch.
  /// Under a period rule, records convert from the answers of their keys (``QuoteBook/answered``): a period rate
  /// is not a cell of the table.
  var convertingTable: RateTable? {
    options.fastPath && options.rateRule == .spot && !collectsEveryKey ? sourceTable : nil
  }

  /// The day records without a date use: `--date`, else the newest rate day, else today.
  var defaultDay: CalendarDay { options.defaultDate ?? source.lastDay ?? options.today }

  /// What the formats' passes get from the run (``FormatContext``).
  var formatContext: FormatContext {
    FormatContext(
      options: options, convertingTable: convertingTable, passOneKeys: passOneKeys, defaultDay: defaultDay,
      sourceIdentifier: source.info.identifier, allowsProvisionalScan: allowsProvisionalScan)
  }

  /// What pass 1's byte-level paths gather of the records' keys (``FormatContext/passOneKeys``): under a
  /// ``TableRateProvider``, the span of days of the keys it would be asked; under a source that answers keys
  /// (a provider of pairs, a lock file's quotes), every key; `nil` under a local table and off the fast path.
  var passOneKeys: KeySpan? {
    guard options.fastPath else { return nil }
    if collectsEveryKey { return KeySpan() }
    switch source {
    case .table: return options.rateRule == .spot ? nil : KeySpan()
    case .provider(let provider as any TableRateProvider, _):
      let today = options.today
      return KeySpan { key in
        guard case .success(let route) = CurrencyLifecycle.route(for: key) else { return false }
        let market = route.marketKey
        return market.pair.base != market.pair.quote && provider.precheck(market, today: today) == nil
      }
    // A lock's answers are all known: its keys are answered as records ask, none collected.
    case .lockFile: return KeySpan { _ in false }
    case .provider, .chain: return KeySpan()
    }
  }

  /// What answers the run's rate keys (``RateResolver``).
  var rateResolver: RateResolver {
    RateResolver(
      source: source, sourceTable: sourceTable, tableFailure: tableFailure, maxStaleness: options.maxStaleness,
      today: options.today, rule: options.rateRule)
  }

  /// Runs the job.
  ///
  /// - Parameter standardOutput: the descriptor `-o -` writes to.
  /// - Returns: the report; file problems are in it (``RunReport/File/fileError``), never thrown.
  public func run(standardOutput: Int32 = 1) -> RunReport {
    var report = makeReport()
    // Temporary files of earlier runs killed before they could remove them (SIGKILL), where this run writes.
    StaleTemporaryFiles.remove(in: writtenDirectories)
    var (scans, keys) = scanAll(report: &report)
    defer { Self.removeTemporaryCopies(of: scans) }

    // Every source becomes a table before pass 2 where it can: a local table as it is, a table provider's
    // answer once fetched. A lock file then records the table's rows and columns the rules read.
    var passTwo = self
    switch source {
    case .table(let table):
      if options.lockPath != nil { passTwo.passTwoTable = table.recordingUsage() }
    case .provider(let provider as any TableRateProvider, let settings):
      switch rateResolver.providerTable(&keys, provider: provider, settings: settings, report: &report) {
      case .table(let table):
        passTwo.passTwoTable = options.lockPath != nil ? table.recordingUsage() : table
        report.rates.firstDay = table.days.first?.description
        report.rates.lastDay = table.days.last?.description
      case .failed(let failure):
        passTwo.tableFailure = failure
      }
    case .provider, .lockFile, .chain: break
    }
    let passTwoJob = passTwo
    let resolver = passTwoJob.rateResolver
    // One answer per distinct key, for all files.
    var market = AnswerTable()
    let table = passTwo.convertingTable
    // Keys not collected (under a table, or a table provider's) are answered as records ask.
    var onDemand: ((RateKey) -> Result<RateQuote, RowError>)? = nil
    // A frozen run's lock answers records as they come, its records found by their keys.
    var lockAnswers: AnsweredQuotes? = nil
    // Under a period rule a lock keeps the answers (``LockFile/write(quotes:source:defaultDay:to:rule:)``): those
    // given as records ask are kept with pass 1's. So are a failed table provider's (the ECB feed unreachable),
    // so that the lock says which keys it leaves out rather than being written empty as if nothing was asked.
    let lockedAnswers =
      options.lockPath != nil && (options.rateRule != .spot || passTwoJob.tableFailure != nil) ? AnswerLog() : nil
    if let sourceTable = passTwoJob.sourceTable, let lockedAnswers {
      onDemand = { key in
        resolver.resolve(key) { marketKey in
          let answer = resolver.tableQuote(for: marketKey, table: sourceTable)
          lockedAnswers.add(marketKey, answer)
          return answer
        }
      }
    } else if let sourceTable = passTwoJob.sourceTable {
      onDemand = { resolver.resolve($0, table: sourceTable) }
    } else if case .lockFile(let path, let locked) = source {
      onDemand = { key in
        resolver.resolve(key) { resolver.lockAnswer(for: $0, path: path, answers: locked.answers) }
      }
      let (rule, maxStaleness, answers, uses) = (options.rateRule, options.maxStaleness, locked.answers, CurrencyUseDays())
      lockAnswers = AnsweredQuotes(table: answers) { record in
        RateResolver.lockRecordIsFinal(record, answers: answers, uses: uses, rule: rule, maxStaleness: maxStaleness)
      }
    } else if let failure = passTwoJob.tableFailure, case .provider(let provider, _) = source {
      onDemand = { key in
        resolver.resolve(key) { marketKey in
          let answer = resolver.tableFailureAnswer(marketKey, provider: provider, failure: failure)
          lockedAnswers?.add(marketKey, answer)
          return answer
        }
      }
    }
    let quotes = QuoteBook(
      keys: keys, table: table, maxStaleness: options.maxStaleness, onDemand: onDemand,
      answering: table == nil && options.fastPath, answered: lockAnswers
    ) { generalKeys in
      market = resolver.resolve(generalKeys, report: &report)
      return market
    }

    // Pass 2: stream each file again and write its annotated copy.
    var ledger = ReconciliationLedger()
    var converted: [(index: Int, scan: FileScan)] = []
    for (index, scan) in scans.enumerated() {
      guard let scan else { continue }
      let encoding = scan.encoding
      do {
        let (done, outputCompression) = try passTwoJob.convertAndCompress(
          scan, quotes: quotes, standardOutput: standardOutput)
        var (counts, withoutDate, fileLedger, scan) = done
        report.files[index].outputCompression = outputCompression?.rawValue
        fileLedger.settle(
          with: passTwoJob.exactTotals(
            of: [scan], currencies: fileLedger.undeterminedCurrencies(rounding: options.rounding), quotes: quotes)
        )
        report.files[index].counts = counts
        report.files[index].reconciliation = fileLedger.reconciliations(rounding: options.rounding)
        report.files[index].currencyTotals = CurrencyTotals(
          ledger: fileLedger, reconciliations: report.files[index].reconciliation ?? [])
        ledger.add(fileLedger)
        converted.append((index, scan))
        report.files[index].output = scan.outputPath ?? "-"
        report.files[index].format = scan.format.rawValue
        report.files[index].encoding = encoding?.rawValue
        FormatRegistry.type(of: scan.format).describe(scan, options: options, in: &report.files[index])
        report.files[index].decimalMark = scan.decimalMark?.rawValue
        report.files[index].decimalMarkInferred = scan.decimalMarkInferred
        report.files[index].decimalMarkInferredFrom = scan.decimalMarkBasis?.rawValue
        if case .slashDates(let order) = scan.normalizer.dateFormat { report.files[index].slashDates = order.rawValue }
        report.files[index].fields = scan.fields
        report.totals.add(counts)
        report.rates.recordsWithoutDate += withoutDate
      } catch {
        report.files[index].fileError = "\(error)"
      }
    }
    ledger.settle(
      with: passTwoJob.exactTotals(
        of: converted.map(\.scan), currencies: ledger.undeterminedCurrencies(rounding: options.rounding), quotes: quotes))
    report.reconciliation = ledger.reconciliations(rounding: options.rounding)
    report.unroundedTotals = RunReport.unroundedTotals(of: ledger)
    report.currencyTotals = CurrencyTotals(ledger: ledger, reconciliations: report.reconciliation)
    if let lockPath = options.lockPath, !source.isLockFile {
      if let failed = report.files.first(where: { $0.fileError != nil }) {
        // A lock without a file's keys would fail its records in every frozen run: none is written, and an
        // earlier lock at the path stays as it was.
        report.lockFileError = Self.lockNotWritten(lockPath, because: "\(failed.input) was not converted")
      } else {
        var answers = market
        for (key, answer) in lockedAnswers?.entries ?? [:]
        where answers.record(for: key).map({ !answers.isSourceAnswer(at: $0) }) ?? true {
          answers.set(key, answer)
        }
        passTwoJob.writeLock(to: lockPath, answers: answers, report: &report)
      }
    }
    report.judge()
    return report
  }

  /// Writes the lock file (`--lock`, `rates lock`): under a period rule the rule and each answer, with what was
  /// averaged (a period rate is not a row of days); under a table (local, or a provider's) the rows and columns
  /// its answers read; else the source's answers to market keys. A failure goes into the report.
  ///
  /// A lock at the path that answers keys the source failed this time (unreachable, a timeout, an unusable
  /// answer) is kept as it was, not replaced by one without them: the report says so (``RunReport/lockFileError``).
  ///
  /// - Parameter answers: the source's answers to market keys (under a period rule, every answer given); records
  ///   the rules derived are not the source's and are left out.
  func writeLock(to lockPath: String, answers: AnswerTable, report: inout RunReport) {
    let failed = (0..<answers.count).compactMap { record -> RateKey? in
      guard answers.isSourceAnswer(at: record), answers.errorCode(at: record)?.isAboutTheExchange == true else { return nil }
      return answers.key(at: record)
    }
    if LockFile.answersAny(of: failed, path: lockPath, maxStaleness: options.maxStaleness) {
      let keys = "\(failed.count) \(failed.count == 1 ? "key" : "keys")"
      report.lockFileError =
        "\(lockPath): not replaced, as the source failed \(keys) this time that the lock there answers: it is kept as it was (run again when the source answers, or remove it to lock only what this run got)"
      return
    }
    do {
      if options.rateRule != .spot {
        report.lockFileLeftOut = try LockFile.write(
          quotes: answers, source: source.info, defaultDay: defaultDay, to: lockPath, rule: options.rateRule)
      } else if let table = sourceTable, let usage = table.usage {
        try LockFile.write(table: table, used: usage.used, defaultDay: defaultDay, to: lockPath)
      } else {
        report.lockFileLeftOut = try LockFile.write(
          quotes: answers, source: source.info, defaultDay: defaultDay, to: lockPath)
      }
      report.lockFile = lockPath
    } catch {
      report.lockFileError = "\(lockPath):1:1: error: cannot write the lock file: \(error)"
    }
  }

  /// `fxbatch rates lock`: pass 1 over every input (its rate keys only), the source asked for them as a
  /// conversion would ask (the planner, the bounded fetcher, the cache), and the lock file (``BatchOptions/lockPath``)
  /// written; nothing is converted. Runs with `--lock FILE --frozen` then convert any part of the inputs with the
  /// same rates.
  ///
  /// - Returns: the report of pass 1 (file errors, the fetch, the lock written); no counts of records.
  public func lock() -> RunReport {
    var scanning = self
    scanning.collectsEveryKey = true
    var report = scanning.makeReport()
    let (scans, index) = scanning.scanAll(report: &report)
    Self.removeTemporaryCopies(of: scans)
    guard let lockPath = options.lockPath, !source.isLockFile else { return report }
    // A lock without an input's keys would fail their records in every part: none is written (an earlier lock
    // at the path stays as it was).
    if let failed = report.files.first(where: { $0.fileError != nil }) {
      report.lockFileError = Self.lockNotWritten(lockPath, because: "\(failed.input) could not be read")
      report.setExitStatus(.fileRefused)
      return report
    }
    var locking = self
    switch source {
    case .table(let table): locking.passTwoTable = table.recordingUsage()
    case .provider(let provider as any TableRateProvider, let settings):
      var planned = index
      switch rateResolver.providerTable(&planned, provider: provider, settings: settings, report: &report) {
      case .table(let table):
        locking.passTwoTable = table.recordingUsage()
        report.rates.firstDay = table.days.first?.description
        report.rates.lastDay = table.days.last?.description
      case .failed(let failure): locking.tableFailure = failure
      }
    case .provider, .lockFile, .chain: break
    }
    let resolved = locking.rateResolver.resolve(index, report: &report)
    locking.writeLock(to: lockPath, answers: resolved, report: &report)
    let fileFailed = report.files.contains { $0.fileError != nil } || report.lockFileError != nil
    report.setExitStatus(fileFailed ? .fileRefused : report.lockFileLeftOut > 0 ? .sourceFailed : .success)
    return report
  }

  /// The line saying a lock file was not written, and why; whatever was at its path is left as it was.
  static func lockNotWritten(_ lockPath: String, because reason: String) -> String {
    let kept = FileManager.default.fileExists(atPath: lockPath) ? "; the lock there is kept as it was" : ""
    return "\(lockPath): not written, as \(reason)\(kept)"
  }

  /// The exact totals of some target currencies over the records of some files, read again through the general
  /// path (the rare case where a streamed total cannot settle its rounding; see ``ReconciliationLedger``).
  ///
  /// The files were converted once already; an error now (a file changed meanwhile) leaves its totals out.
  func exactTotals(of scans: [FileScan], currencies: Set<CurrencyCode>, quotes: QuoteBook) -> [ReconciliationLedger.Key:
    ExactTotal]
  {
    guard !currencies.isEmpty else { return [:] }
    var job = self
    job.options.fastPath = false
    job.options.exactTotalCurrencies = currencies
    var totals: [ReconciliationLedger.Key: ExactTotal] = [:]
    for var scan in scans where scan.canBeReadAgain {
      scan.outputPath = "/dev/null"  // written directly: a device is never replaced
      guard let (_, _, ledger, _) = try? job.convert(scan, quotes: quotes, standardOutput: -1) else { continue }
      for (key, total) in ledger.exactTotals where currencies.contains(key.currency) {
        totals[key] = (totals[key] ?? ExactTotal()).adding(total)
      }
    }
    return totals
  }

  /// The directories this run writes files to: its outputs', the lock file's and `$TMPDIR` (standard input's
  /// spool).
  var writtenDirectories: [String] {
    var directories = [NSTemporaryDirectory()]
    switch options.destination {
    case .directory(let directory): directories.append(directory)
    case .file(let file): directories.append(PathText.directory(of: file))
    case .besideInput:
      directories += options.inputPaths.filter { !OutputPlan.isStream($0) }.map { PathText.directory(of: $0) }
    case .standardOutput: break
    }
    if let lockPath = options.lockPath { directories.append(PathText.directory(of: lockPath)) }
    return directories
  }

  /// A report with the run's settings and no files yet.
  func makeReport() -> RunReport {
    RunReport(
      rates: RunReport.Rates(
        source: source.info, firstDay: source.firstDay?.description, lastDay: source.lastDay?.description,
        daysSinceLastPublication: source.lastDay.map { options.today.days(since: $0) }, defaultDay: defaultDay.description,
        recordsWithoutDate: 0, periodRule: options.rateRule.periodDescription),
      rounding: options.rounding.rawValue, maxStalenessDays: options.maxStaleness,
      amountUnit: options.amountUnit == .major ? nil : options.amountUnit.rawValue,
      minorUnits: options.minorUnits.isEmpty
        ? nil : Dictionary(uniqueKeysWithValues: options.minorUnits.map { ($0.key.description, $0.value) }))
  }

  /// Pass 1 over every input: validates each file, finds its fields and decimal mark, and collects the
  /// distinct rate keys. A stream — standard input, a pipe, a FIFO (``OutputPlan/isStream(_:)``) — is read once,
  /// into a temporary file (``FileScan/readPath``) that both passes read and the caller removes
  /// (``removeTemporaryCopies(of:)``).
  ///
  /// - Returns: per input, its scan (`nil` for a skipped or failed file, whose report says why), and the keys.
  func scanAll(report: inout RunReport) -> (scans: [FileScan?], keys: RateKeyIndex) {
    var scans: [FileScan?] = []
    var keys = RateKeyIndex()
    var claimedOutputs: Set<String> = []
    let outputs = OutputPlan(options: options)
    let skipped = outputs.inputsProducedByThisRun(isAnnotatedOutput: isAnnotatedOutput)
    for (number, inputPath) in options.inputPaths.enumerated() {
      var fileReport = RunReport.File(input: inputPath)
      if let source = skipped[inputPath] {
        fileReport.skipped = "it is the output of \(source) in this run"
        report.files.append(fileReport)
        scans.append(nil)
        continue
      }
      var spooledPath: String? = nil
      do throws(FileError) {
        var readPath = inputPath
        if Self.isDirectory(inputPath) {
          throw FileError(path: inputPath, message: "is a directory, not a file; name the files in it (DIR/*.csv)")
        }
        // Two amounts of one NAME would write one column twice (the CLI refuses them before the run).
        do throws(AmountFieldError) { try AmountField.checkNames(options.fieldNames.amounts) } catch {
          throw FileError(path: inputPath, message: error.description)
        }
        let outputPath = try outputs.output(for: inputPath, skipped: skipped, claimed: &claimedOutputs)
        let onePassFormat = self.onePassFormat(of: inputPath)
        let readOnce = onePassFormat != nil
        if readOnce {
          readPath = inputPath == "-" ? "/dev/stdin" : inputPath
        } else if OutputPlan.isStream(inputPath) || Self.compression(ofFile: inputPath) != nil {
          let spooled = try spool(inputPath, number: number)
          (readPath, spooledPath) = (spooled.path, spooled.path)
          fileReport.compression = spooled.compression?.rawValue
        }
        let format =
          onePassFormat ?? options.format
          ?? RecordFormat.detect(readPath: readPath, displayPath: inputPath, options: options)
        if !readOnce {
          try Self.checkIsText(format: format, readPath: readPath, inputPath: inputPath)
          if let refusal = RecordFormat.misnamedContent(
            prefix: FileBytes.prefix(of: readPath, count: 1 << 16)[...], format: format,
            formatGiven: options.format != nil, displayPath: inputPath, decompressed: fileReport.compression != nil)
          {
            throw refusal
          }
        }
        let type = FormatRegistry.type(of: format)
        var encoding: TextEncoding? = nil
        if readOnce {
          encoding = .utf8
        } else if type.options.contains(.encoding) {
          let found = try Self.encoding(of: readPath, displayPath: inputPath, declared: type.declaredEncoding(options))
          encoding = found
          if !found.isUTF8 {
            let copy = try Self.utf8Copy(
              of: readPath, displayPath: inputPath, encoding: found, firstLine: options.firstLine)
            if let spooledPath { Self.removeTemporary(spooledPath) }
            (readPath, spooledPath) = (copy, copy)
          }
        }
        try type.checkOptions(options, inputPath: inputPath)
        var (scan, fileKeys) = try scanFile(
          displayPath: inputPath, readPath: readPath, outputPath: outputPath, format: format, readOnce: readOnce)
        // After the scan, which refuses a package that is no workbook for what it is.
        try Self.checkOutputKind(format: format, inputPath: inputPath, outputPath: outputPath)
        scan.encoding = encoding
        scan.readPathIsTemporary = spooledPath != nil
        keys.formUnion(fileKeys)
        scans.append(scan)
      } catch {
        if let spooledPath { Self.removeTemporary(spooledPath) }
        fileReport.fileError = error.description
        scans.append(nil)
      }
      report.files.append(fileReport)
    }
    return (scans, keys)
  }

  /// Refuses a package read as text (`--format csv` on an `.xlsx`: its zip bytes were "not UTF-8", with an
  /// encoding hint).
  private static func checkIsText(format: RecordFormat, readPath: String, inputPath: String) throws(FileError) {
    guard format.kind == .text else { return }
    var start = [UInt8](repeating: 0, count: 8)
    let descriptor = open(readPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    let count = FileBytes.read(from: descriptor, into: &start, fileOffset: 0)
    if count > 0, RecordFormat.isPackage(start[..<count]) {
      throw packageReadAsText(format: format, inputPath: inputPath)
    }
  }

  /// The refusal of a zip package or a Compound File read as text (``checkIsText(format:readPath:inputPath:)``).
  static func packageReadAsText(format: RecordFormat, inputPath: String) -> FileError {
    FileError(
      path: inputPath,
      message: "a zip package or a Compound File (a workbook?), not \(FormatRegistry.type(of: format).displayName) text",
      hint: "leave out --format: a workbook's package says what it is")
  }

  /// Refuses an annotated copy whose output is named as a file of the other kind, text or package (a workbook's
  /// copy under `-o out.csv` was a workbook named `.csv`; a CSV file's under `-o out.xlsx`, text named `.xlsx`). A
  /// package under another package format's name (a misnamed input's copy) is left as it is named.
  private static func checkOutputKind(format: RecordFormat, inputPath: String, outputPath: String?) throws(FileError) {
    guard let outputPath, outputPath != "-" else { return }
    let type = FormatRegistry.type(of: format)
    let isPackage = type.kind == .package
    // A compression or archive fxbatch does not write: the copy was written plain under its name.
    let last = PathText.splitExtension(PathText.lastComponent(of: outputPath)).extension
    if Self.unwrittenCompressions.contains(last.lowercased()) || (last.lowercased() == "zip" && !isPackage) {
      let written = Compression.allCases.map { "." + $0.fileExtension }
      throw FileError(
        path: inputPath,
        message: "its output is named .\(last), a compression or archive fxbatch does not write: \(outputPath)",
        hint:
          "name the output .\(type.fileExtensions.first ?? format.rawValue), or add "
          + "\(written.dropLast().joined(separator: ", ")) or \(written.last ?? "") to compress it")
    }
    let named = RecordFormat.byExtension(of: outputPath)
    let namedPackage = named?.kind == .package || Self.isRelatedPackageName(outputPath)
    guard named != nil || namedPackage, isPackage != namedPackage else { return }
    let namedKind =
      namedPackage
      ? "a workbook" : "\(named.map { FormatRegistry.type(of: $0).displayName } ?? "") text"
    throw FileError(
      path: inputPath,
      message:
        "its annotated copy is \(isPackage ? "an \(type.displayName) workbook" : "\(type.displayName) text"), "
        + "but its output is named as \(namedKind): \(outputPath)",
      hint: "name the output .\(type.fileExtensions.first ?? format.rawValue) (-o FILE; with --output-dir, rename the input)")
  }

  /// The extensions (lowercase) of compressions and archives fxbatch does not write (`.zip` is refused for text
  /// only: a workbook is one).
  private static let unwrittenCompressions: Set<String> = ["lz4", "7z", "rar", "lzma", "z", "br", "lz", "tar", "tgz"]

  /// Whether a path ends with the extension of a package a package format names but fxbatch does not write
  /// (``FileFormat/relatedExtensions``: `.xls`, `.xlsm`, …).
  private static func isRelatedPackageName(_ path: String) -> Bool {
    guard let fileExtension = RecordFormat.fileExtension(of: Compression.strippingExtension(of: path)) else {
      return false
    }
    return FormatRegistry.formats.contains { $0.kind == .package && $0.relatedExtensions.contains(fileExtension) }
  }

  /// Whether a file is an earlier fxbatch output (its format's ``FileFormat/isAnnotatedOutput(_:context:)``).
  /// A compressed file is asked through its decompressed start.
  private func isAnnotatedOutput(_ path: String) -> Bool {
    var readPath = path
    let start = Self.decompressedStart(of: path)
    defer { if let start { close(start) } }
    if let start { readPath = "/proc/self/fd/\(start)" }
    let format = options.format ?? RecordFormat.detect(readPath: readPath, displayPath: path, options: options)
    return FormatRegistry.type(of: format).isAnnotatedOutput(readPath, context: formatContext)
  }

  /// Whether a path names a directory (following symbolic links).
  private static func isDirectory(_ path: String) -> Bool {
    guard path != "-" else { return false }
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// Copies a stream (standard input for `-`, else the pipe, FIFO or device at `inputPath`), or a compressed
  /// file, to a private temporary file in `$TMPDIR`, so that it can be read twice: a pipe gives its bytes once, a
  /// FIFO opened again would wait for a writer that is gone, and compressed bytes are read as what they hold.
  ///
  /// - Parameters:
  ///   - inputPath: the input as the user gave it.
  ///   - number: the input's position among the run's inputs, which names the spool.
  /// - Returns: the spool's path (``StaleTemporaryFiles/spoolName(pid:number:)``), pending until removed, and
  ///   the compression its bytes were in (``Compression/detect(_:)`` of its first bytes, whatever its name).
  ///
  /// The copy's format is decided from its first 64 KiB (`--format`, else as a file's: its name, its first
  /// bytes), and every byte is checked before it is copied (``StreamCheck``): the copy is refused, and removed,
  /// at its first bytes that no input of its format could hold, past `--max-input-size`, or at a line longer
  /// than a record may be (CSV, JSON Lines), so that an endless stream or a decompression bomb never fills the
  /// disk. Compressed data is read a block at a time (``DecompressingReader``): damaged or cut off, it is refused.
  private func spool(_ inputPath: String, number: Int) throws(FileError) -> (path: String, compression: Compression?) {
    let isStream = OutputPlan.isStream(inputPath)
    let what = isStream ? StreamCheck.name(of: inputPath) : "the file"
    let path = PathText.appending(
      StaleTemporaryFiles.spoolName(pid: getpid(), number: number), to: NSTemporaryDirectory())
    let descriptor = inputPath == "-" ? 0 : open(inputPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw FileError(path: inputPath, message: "cannot read \(what): \(String(cString: strerror(errno)))")
    }
    defer { if descriptor != 0 { close(descriptor) } }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// Reads the next raw bytes into `buffer`.
    func readRaw() throws(FileError) -> Int {
      let count = FileBytes.read(from: descriptor, into: &buffer)
      guard count >= 0 else {
        throw FileError(path: inputPath, message: "cannot read \(what): \(String(cString: strerror(errno)))")
      }
      return count
    }
    // The first bytes say whether the data is compressed.
    var first: [UInt8] = []
    while Compression.mayStart(first) {
      let count = try readRaw()
      if count == 0 { break }
      first += buffer[..<count]
    }
    let compression = Compression.detect(first)
    var reader: DecompressingReader? = nil
    if let compression {
      do { reader = try DecompressingReader(descriptor: descriptor, compression: compression, prefix: first) } catch {
        throw FileError(path: inputPath, message: error.description, hint: error.hint)
      }
    }
    let output: AtomicFile
    do { output = try AtomicFile(path: path, mode: 0o600) } catch {
      throw FileError(path: inputPath, message: "cannot copy \(what) to a temporary file: \(error)")
    }
    do throws(FileError) {
      var unread: [UInt8]? = compression == nil ? first : nil
      var head: [UInt8] = []
      var check: StreamCheck? = nil  // decided from the first 64 KiB
      while true {
        var block: ArraySlice<UInt8>
        if let bytes = unread {
          block = bytes[...]
          unread = nil
        } else if let reader {
          do { block = buffer[..<(try reader.read(into: &buffer))] } catch {
            throw FileError(path: inputPath, message: error.description, hint: error.hint)
          }
        } else {
          block = buffer[..<(try readRaw())]
        }
        let isLast = block.isEmpty
        if check == nil {
          head += block
          guard isLast || head.count >= 1 << 16 else { continue }
          let format =
            options.format
            ?? RecordFormat.detect(prefix: head[...], displayPath: inputPath, options: options)
          if let refusal = RecordFormat.misnamedContent(
            prefix: head[...], format: format, formatGiven: options.format != nil, displayPath: inputPath,
            decompressed: compression != nil)
          {
            throw refusal
          }
          check = try StreamCheck(
            inputPath: inputPath, format: format, head: head[...], options: options,
            isDecompressedFile: !isStream)
          block = head[...]
        }
        try check?.take(block, isLast: isLast)
        do { try output.sink.write(block) } catch {
          throw FileError(path: inputPath, message: "cannot copy \(what) to a temporary file: \(error)")
        }
        if isLast { break }
      }
      // Pending before it is renamed into place: removed after the run, or by an interrupt.
      PendingFiles.add(path)
      do { try output.commit() } catch {
        PendingFiles.remove(path)
        throw FileError(path: inputPath, message: "cannot copy \(what) to a temporary file: \(error)")
      }
    } catch {
      output.discard()
      throw error
    }
    return (path, compression)
  }

  /// Pass 1 over one file, in its format.
  private func scanFile(
    displayPath: String, readPath: String, outputPath: String?, format: RecordFormat, readOnce: Bool
  ) throws(FileError) -> (FileScan, RateKeyIndex) {
    try FormatRegistry.type(of: format).scan(
      FileInput(displayPath: displayPath, readPath: readPath, outputPath: outputPath, readOnce: readOnce),
      context: formatContext)
  }

  /// The format of a stream (standard input, a pipe: ``OutputPlan/isStream(_:)``) read once, in one pass, without
  /// a copy; `nil` for any other input. A stream is read so when its format (`--format`, or with `--header` the
  /// format that takes it) says it can be (``FileFormat/readsStreamInOnePass(_:)``: UTF-8 CSV with its decimal
  /// mark given) and it is converted from a local table as records come (spot rates, no lock to write). Any other
  /// stream is copied to a temporary file and read twice (``spool(_:number:)``): a network source needs every key
  /// before it fetches.
  ///
  /// Standard input whose first bytes are compressed (looked at, not taken: ``FileBytes/peek(_:count:decided:)``)
  /// is copied, decompressed, and read twice.
  func onePassFormat(of inputPath: String) -> RecordFormat? {
    guard OutputPlan.isStream(inputPath), convertingTable != nil, options.lockPath == nil else { return nil }
    let format =
      options.format
      ?? (options.formatSettings.given.contains(.header)
        ? FormatRegistry.formats.first { $0.options.contains(.header) }?.format : nil)
    guard let format, FormatRegistry.type(of: format).readsStreamInOnePass(options) else { return nil }
    if Self.namesStandardInput(inputPath),
      let first = FileBytes.peek(
        0, count: Compression.magicSize, decided: { !Compression.mayStart($0) }),
      Compression.detect(first) != nil
    {
      return nil
    }
    return format
  }

  /// Pass 2 over one file: writes the annotated copy in the file's format.
  ///
  /// - Returns: the counts, the number of records without a date, and the converted amounts for the rounding
  ///   reconciliation, and the file's scan as it stands after the pass (a provisional CSV scan is replaced).
  func convert(_ scan: FileScan, quotes: QuoteBook, standardOutput: Int32) throws(FileError)
    -> (RunReport.Counts, Int, ReconciliationLedger, FileScan)
  {
    let done = try FormatRegistry.type(of: scan.format).convert(
      scan, context: formatContext, quotes: quotes, standardOutput: standardOutput)
    return (done.counts, done.withoutDate, done.ledger, done.scan)
  }

  /// The plan a run would follow (`convert --plan`): nothing is fetched and nothing is written.
  ///
  /// - Returns: the report of pass 1 (file errors included) and the plan; the plan is `nil` for a local table.
  public func plan() -> (report: RunReport, plan: RatePlan?) {
    var report = makeReport()
    var reading = self
    reading.allowsProvisionalScan = false
    let (scans, index) = reading.scanAll(report: &report)
    Self.removeTemporaryCopies(of: scans)
    let keys = index.allKeys
    if case .chain(let links) = source { return chainPlan(of: RateResolver.marketKeys(of: keys), links: links, report: report) }
    guard case .provider(let provider, let settings) = source else {
      return (report, nil)
    }
    return (report, plan(keys: RateResolver.marketKeys(of: keys), provider: provider, settings: settings))
  }

  /// The requests a provider would be sent for some market keys: under a period rule, Frankfurter v2's period
  /// ranges (``FrankfurterProvider/periodRequests(for:period:today:)``, no cache); else the planner's.
  private func plan(keys: Set<RateKey>, provider: any RateProvider, settings: FetchSettings) -> RatePlan {
    if let period = options.rateRule.period, let frankfurter = provider as? FrankfurterProvider {
      var plan = RatePlan(keyCount: keys.count)
      let planned = frankfurter.periodRequests(for: keys, period: period, today: options.today)
      // Each request shown with the run's keys of its periods (its own keys only mark the days it spans).
      var keysOfRequest = [[RateKey]](repeating: [], count: planned.requests.count)
      for key in keys {
        if let index = planned.requestOfPeriod[period.span(containing: key.day).first] { keysOfRequest[index].append(key) }
      }
      plan.requests = zip(planned.requests, keysOfRequest).map { RateRequest(url: $0.url, keys: $1) }
      return plan
    }
    return RatePlanner.plan(
      keys: keys, provider: provider, today: options.today, cache: settings.cache, maxStaleness: options.maxStaleness)
  }

  /// A chain's plan: its leading local tables answer what they can (counted in ``RunReport/chain``), and the
  /// first network link is planned for the keys they have no rate for; what later links are asked is known
  /// only after fetching.
  private func chainPlan(of keys: Set<RateKey>, links: [RateSourceChoice.ChainLink], report: RunReport) -> (
    report: RunReport, plan: RatePlan?
  ) {
    var report = report
    var remaining = keys
    var uses: [RunReport.ChainLinkUse] = []
    var plan: RatePlan? = nil
    for link in links {
      var use = RunReport.ChainLinkUse(name: link.name, source: link.source.info.identifier, asked: remaining.count)
      if case .table(let table) = link.source {
        remaining = remaining.filter { key in
          switch table.quote(for: key, rule: options.rateRule, maxStaleness: options.maxStaleness) {
          case .success:
            use.answered += 1
            return false
          case .failure(let error):
            if RateResolver.passesOn(error) { return true }
            use.failed += 1
            return false
          }
        }
        uses.append(use)
        continue
      }
      if case .provider(let provider, let settings) = link.source {
        plan = self.plan(keys: remaining, provider: provider, settings: settings)
        uses.append(use)
      }
      break
    }
    report.chain = uses
    return (report, plan)
  }
}

/// The answers a period rule's run gave as records asked (a lock keeps them); records of several files may ask at
/// once.
final class AnswerLog: @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [RateKey: Result<RateQuote, RowError>] = [:]

  func add(_ key: RateKey, _ answer: Result<RateQuote, RowError>) {
    lock.lock()
    defer { lock.unlock() }
    answers[key] = answer
  }

  var entries: [RateKey: Result<RateQuote, RowError>] {
    lock.lock()
    defer { lock.unlock() }
    return answers
  }
}
