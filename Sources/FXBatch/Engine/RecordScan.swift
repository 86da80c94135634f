/// A format's records in pass 1, read from one part of a file, as the engine's scan (``RecordScan``) reads them.
///
/// The format's reading lives in the conformance; the loop around it (the part starts, the parts on all cores,
/// the progress, the one-pass fallback) is the engine's, generic over the source so that the compiler
/// specialises it per format.
protocol ScanSource {
  /// A record as the source hands it over; the part's findings (``RecordFindings``) read it.
  associatedtype Record

  /// The file offset of the next record (after what was read so far).
  var offset: Int { get }
  /// The 1-based line of the next record: part 0 counts the file's lines, every other part counts from 1.
  var line: Int { get }
  /// Whether the part met what a split at line feeds cannot handle (a CSV quoted field, which may hold line
  /// feeds); checked after every record.
  var cannotSplit: Bool { get }

  /// Ends the source at a file offset (part 0's source, opened by the format, reads up to the next part).
  func stop(at offset: Int)

  /// Hands the next record to `body`.
  ///
  /// - Returns: `false` at the end of the part, with nothing handed over.
  mutating func next(_ body: (Record) throws -> Void) throws -> Bool
}

extension ScanSource {
  var cannotSplit: Bool { false }
}

/// What pass 1 found in one part of a file: the format's part (its checks, its located fields) around the
/// engine's (``PassOneState``), added up part by part (``RecordScan/addUp(_:accept:)``).
protocol PartFindings {
  /// Adds what a later part of the file found.
  mutating func add(_ later: Self)
}

/// What pass 1 reads of a format's records (``PartFindings``), one record at a time.
protocol RecordFindings: PartFindings {
  associatedtype Record

  /// Reads one record.
  mutating func read(_ record: Record) throws
}

/// What pass 1 finds in every format's records, in one part of a file: the decimal-mark evidence, the evidence
/// of the order of slash dates, and the keys the run asks for. A record's key is read in place by the one
/// ``FieldKeyDecoder`` where it can, else by the general rules (``RecordNormalizer/rateKey(of:)``).
struct PassOneState {
  /// The records' decimal-mark evidence (added by the format, which knows its amounts).
  var inference = DecimalMarkInference()
  /// The records' evidence of the order of their slash dates (added by the format through ``addDateEvidence(decoded:text:)``,
  /// when the date format leaves it to the file: ``DateFormat/infersSlashDates``).
  var dates = DateLayoutInference()
  /// Under a provider whose answer is a table, the span of days to ask it; under a source that answers keys,
  /// every key (``KeySpan``).
  var span: KeySpan?
  /// Without a table that converts as records come, nor a span: every distinct key.
  var keys: RateKeyIndex?
  var decoder: FieldKeyDecoder
  /// Whether the decoder reads keys into ``keys`` (`--no-fast-path`: the general rules alone); a span's keys
  /// are always decoded first.
  let decodesKeys: Bool
  /// While the order of slash dates is not known: the keys of the records whose date only a slash-date order
  /// reads, under each order (a decoder reading dates day-first, one reading them month-first, and the keys
  /// each found); the order the file proves adds its keys (``settleDates()``).
  private var slashDateKeys: [(decoder: FieldKeyDecoder, keys: Set<RateKey>)] = []

  /// - Parameters:
  ///   - span: the span to fill, if any.
  ///   - collectsKeys: whether every distinct key is collected (``keys``) when there is no span.
  ///   - decodesKeys: see ``decodesKeys``.
  init(normalizer: RecordNormalizer, span: KeySpan?, collectsKeys: Bool = false, decodesKeys: Bool = true) {
    self.span = span
    keys = span == nil && collectsKeys ? RateKeyIndex() : nil
    decoder = FieldKeyDecoder(normalizer: normalizer)
    self.decodesKeys = decodesKeys
    if normalizer.dateFormat.infersSlashDates, span != nil || keys != nil {
      slashDateKeys = [DateFormat.SlashDateOrder.dayFirst, .monthFirst].map { order in
        (FieldKeyDecoder(normalizer: normalizer.reading(dates: .slashDates(order))), [])
      }
    }
  }

  /// Whether records' keys are read at all.
  var readsKeys: Bool { span != nil || keys != nil }

  /// Whether the order of slash dates is left to the file (``DateFormat/infersSlashDates``): the format adds
  /// every record's date evidence.
  var infersDates: Bool { decoder.normalizer.dateFormat.infersSlashDates }

  /// Adds a record's key: read in place by `decoded` (through ``decoder``), else by the general rules
  /// (`general`, given the decoder's normalizer; `nil` for a record without a key).
  @inline(__always)
  mutating func addKey(
    decoded: (inout FieldKeyDecoder) -> FieldKeyDecoder.Key?, general: (RecordNormalizer) -> RateKey?
  ) {
    if span != nil {
      // In place: a copy of the span would copy every key collected so far.
      if let found = decoded(&decoder) {
        span!.add(base: found.base, quote: found.quote, day: found.day)
      } else if let key = general(decoder.normalizer) {
        span!.add(key)
      } else {
        addSlashDateKeys(decoded: decoded, general: general)
      }
      return
    }
    guard keys != nil else { return }
    if decodesKeys, let found = decoded(&decoder),
      let packed = RateKeyIndex.pack(base: found.base, quote: found.quote, day: found.day)
    {
      keys!.insert(packed)
    } else if let key = general(decoder.normalizer) {
      if let packed = RateKeyIndex.pack(key) { keys!.insert(packed) }
    } else {
      addSlashDateKeys(decoded: decoded, general: general)
    }
  }

  /// A record without a key under the file's date format: its key under each order of slash dates, if any.
  private mutating func addSlashDateKeys(
    decoded: (inout FieldKeyDecoder) -> FieldKeyDecoder.Key?, general: (RecordNormalizer) -> RateKey?
  ) {
    for index in slashDateKeys.indices {
      if decodesKeys || span != nil, let found = decoded(&slashDateKeys[index].decoder) {
        slashDateKeys[index].keys.insert(RateKey(base: found.base, quote: found.quote, day: found.day))
      } else if let key = general(slashDateKeys[index].decoder.normalizer) {
        slashDateKeys[index].keys.insert(key)
      }
    }
  }

  /// Adds a record's date evidence: decided in place by `decoded` (through ``decoder``'s cache), else from the
  /// date's text by the general rule (`text`: `nil` for a record without a date).
  @inline(__always)
  mutating func addDateEvidence(
    decoded: (inout FieldKeyDecoder) -> DateLayoutInference.Evidence?, text: (RecordNormalizer) -> String?
  ) {
    if let evidence = decoded(&decoder) {
      dates.add(evidence)
    } else if let text = text(decoder.normalizer) {
      dates.add(text)
    }
  }

  /// The file's date format, once every part is added up: the order of slash dates the records prove
  /// (``DateLayoutInference/format(given:)``), whose keys then join the others.
  mutating func settleDates() -> DateFormat {
    let format = dates.format(given: decoder.normalizer.dateFormat)
    guard case .slashDates = format,
      let chosen = slashDateKeys.first(where: { $0.decoder.normalizer.dateFormat == format })
    else { return format }
    // In one order whatever the parts: the keys' order must not depend on a set's.
    let sorted = chosen.keys.sorted {
      ($0.day, $0.pair.base.description, $0.pair.quote.description)
        < ($1.day, $1.pair.base.description, $1.pair.quote.description)
    }
    for key in sorted {
      if span != nil {
        span!.add(key)
      } else if keys != nil, let packed = RateKeyIndex.pack(key) {
        keys!.insert(packed)
      }
    }
    slashDateKeys = []
    return format
  }

  /// Adds what a later part of the file found.
  mutating func add(_ later: PassOneState) {
    inference.add(later.inference)
    dates.add(later.dates)
    if let other = later.span { span?.add(other) }
    if let other = later.keys { keys?.formUnion(other) }
    for index in slashDateKeys.indices where index < later.slashDateKeys.count {
      slashDateKeys[index].keys.formUnion(later.slashDateKeys[index].keys)
    }
  }
}

/// Pass 1's record loop, the same for every text format: a source's records are handed to the part's
/// findings (``RecordFindings``), the progress meter ticks per record, and a big file's parts run on all cores
/// (``PartsRunner/scan(parts:_:)``), their findings added up in part order.
///
/// The rule for parts: a part that fails, meets what a split cannot handle (``ScanSource/cannotSplit``) or whose
/// findings the format refuses (`accept`) gives up the parts, and the file is read again in one pass, which
/// reports any real error at its own line (a part after the first does not know its lines).
enum RecordScan {
  /// Where a part of a big file starts.
  struct PartStart: PartBoundary {
    /// The file offset of the part's first record.
    let offset: Int
    /// Its 1-based line (0 where the format does not count lines).
    let line: Int
  }

  /// What pass 1 found in a file.
  struct Scanned<Findings> {
    var findings: Findings
    /// Where the parts of pass 2 start (none past the end of the file).
    var partStarts: [PartStart]
    /// The file's size as pass 1 read it.
    var size: Int
  }

  /// Pass 1 over a file whose records start after every line feed (CSV without quoted fields, JSON Lines):
  /// in parts on all cores when `inParts` and the parts can be placed (``PartsRunner/lineStarts(_:targets:after:size:)``),
  /// else in one pass that notes the first record at or after each target.
  ///
  /// - Parameters:
  ///   - source: the source the format opened (after any header); it reads the file's first part.
  ///   - targets: the offsets near which parts should start (``PartsRunner/partTargets(fileSize:parts:minimumSize:)``).
  ///   - inParts: whether the parts are read on all cores (else the targets only place pass 2's parts).
  ///   - findings: the empty findings of part `i`.
  ///   - open: a source over a byte range of the file, counting lines from 1.
  ///   - reopen: the source of the whole file, read again in one pass after the parts gave up.
  ///   - accept: whether part 0's findings let the parts stand (JSON Lines: part 0 has the first record object).
  static func scanLines<Source: ScanSource, Findings: RecordFindings>(
    _ source: Source, readPath: String, targets: [Int], inParts: Bool, meter: ProgressMeter?,
    findings: (_ part: Int) -> Findings, open: (Range<Int>) throws -> Source, reopen: () throws -> Source,
    accept: (Findings) -> Bool = { _ in true }
  ) throws -> Scanned<Findings> where Findings.Record == Source.Record {
    var source = source
    if inParts, !targets.isEmpty {
      let size = PartsRunner.fileSize(readPath)
      if let starts = PartsRunner.lineStarts(readPath, targets: targets, after: source.offset, size: size) {
        if let scanned = scanLineParts(
          source, starts: starts, size: size, meter: meter, findings: findings, open: open, accept: accept)
        {
          return scanned
        }
        source = try reopen()
      }
    }
    return try scanOnePass(source, targets: targets, meter: meter, findings: findings(0))
  }

  /// Pass 1 in one pass, noting where the first record at or after each target starts.
  static func scanOnePass<Source: ScanSource, Findings: RecordFindings>(
    _ source: Source, targets: [Int], meter: ProgressMeter?, findings: Findings
  ) throws -> Scanned<Findings> where Findings.Record == Source.Record {
    var (source, findings) = (source, findings)
    var starts: [PartStart] = []
    var ticker = ProgressMeter.Ticker(meter, from: source.offset)
    while try source.next({ record throws in try findings.read(record) }) {
      if starts.count < targets.count, source.offset >= targets[starts.count] {
        starts.append(PartStart(offset: source.offset, line: source.line))
      }
      ticker.tick(at: source.offset)
    }
    let size = source.offset
    // The last record boundary may be the end of the file: no part starts there.
    return Scanned(findings: findings, partStarts: starts.filter { $0.offset < size }, size: size)
  }

  /// The parts read on all cores, each from its line start; `nil` when the parts give up (``RecordScan``).
  private static func scanLineParts<Source: ScanSource, Findings: RecordFindings>(
    _ source: Source, starts: [Int], size: Int, meter: ProgressMeter?, findings: (Int) -> Findings,
    open: (Range<Int>) throws -> Source, accept: (Findings) -> Bool
  ) -> Scanned<Findings>? where Findings.Record == Source.Record {
    source.stop(at: starts[0])
    let boundaries = starts.map { PartStart(offset: $0, line: 0) }
    let found = PartsRunner.scan(parts: starts.count + 1) { part throws -> (Findings, lines: Int) in
      var partSource = part == 0 ? source : try open(FilePart(part, of: boundaries).range(to: size))
      var partFindings = findings(part)
      var ticker = ProgressMeter.Ticker(meter, from: partSource.offset)
      while try partSource.next({ record throws in try partFindings.read(record) }) {
        if partSource.cannotSplit { throw CannotSplit() }
        ticker.tick(at: partSource.offset)
      }
      return (partFindings, partSource.line)
    }
    guard let first = try? found[0].get(), accept(first.0) else { return nil }
    guard let total = addUp(found.map { result in result.map(\.0) }) else { return nil }
    var partStarts: [PartStart] = []
    var line = 0
    for part in 0..<starts.count {
      // Part 0 continues the file's line numbers; the others count from 1.
      guard let lines = try? found[part].get().lines else { return nil }
      line = part == 0 ? lines : line + lines - 1
      partStarts.append(PartStart(offset: starts[part], line: line))
    }
    return Scanned(findings: total, partStarts: partStarts, size: size)
  }

  /// The parts' findings added up in part order; `nil` when a part failed or `accept` refuses a part's
  /// findings (its index from 0), and the file is to be read again in one pass (``RecordScan``).
  static func addUp<Findings: PartFindings>(
    _ found: [Result<Findings, Error>], accept: (_ part: Int, Findings) -> Bool = { _, _ in true }
  ) -> Findings? {
    var total: Findings? = nil
    for (part, result) in found.enumerated() {
      guard let findings = try? result.get(), accept(part, findings) else { return nil }
      if total == nil { total = findings } else { total!.add(findings) }
    }
    return total
  }

  /// A part met what a split cannot handle (``ScanSource/cannotSplit``).
  struct CannotSplit: Error {}
}
