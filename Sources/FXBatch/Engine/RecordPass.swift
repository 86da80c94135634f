/// A format's records in pass 2, read from one part of a file, as the engine's record loop (``RecordPass``)
/// reads them: each record with the bytes before it that are copied unchanged (a JSON document's commas, an XML
/// document's markup; none for CSV or JSON Lines).
///
/// The format's own reading (its reader, its byte ranges, its checks of a provisional scan) lives in the
/// conformance; the loop around it (the fast loop, the general path, the counts, the progress) is the engine's,
/// generic over the source so that the compiler specialises it per format.
protocol RecordSource {
  /// The fast loop's reader of the format (``FastRecordReader``).
  associatedtype Reader: FastRecordReader
  /// A record as the source hands it over; the general writer (``GeneralRecordWriter``) writes it.
  associatedtype Record

  /// The file offset after what was read so far (the progress meter's).
  var offset: Int { get }

  /// Reads on: hands `between` the bytes before the next record that are copied unchanged (if any), then
  /// `record` the record (if any: the end of a JSON array is bytes alone).
  ///
  /// - Returns: `false` at the end of the part, with nothing handed over.
  mutating func next(between: (ByteView) throws -> Void, record: (Record) throws -> Void) throws -> Bool

  /// The fast loop's view of a record (``FastRecordReader/Record``).
  static func fastRecord(_ record: Record) -> Reader.Record

  /// Adds what the source itself found in the part (CSV's check of a provisional scan) to its result.
  func addFindings(to result: inout PartResult)
}

extension RecordSource {
  func addFindings(to result: inout PartResult) {}
}

/// What a format writes of a record through the general path: its fields through the run's per-record rule
/// (``GeneralRecordPath/outcome(of:)``), and its bytes with the annotation, to the part's sink.
protocol GeneralRecordWriter {
  associatedtype Record

  /// Writes a record the fast loop declined (or every record, without a fast loop).
  mutating func write(_ record: Record, general: inout GeneralRecordPath) throws
}

/// The general path of pass 2 over one part of a file: the one per-record rule (``RecordConverter``) under the
/// file's normalizer and amount parser, and what the part counted (records, records without a date, the
/// reconciliation figures).
struct GeneralRecordPath {
  let converter: RecordConverter
  let normalizer: RecordNormalizer
  let parser: AmountParser
  let quotes: QuoteBook
  /// The part's counts, records without a date and ledger so far.
  var result: PartResult

  init(
    converter: RecordConverter, normalizer: RecordNormalizer, parser: AmountParser, quotes: QuoteBook,
    ledger: ReconciliationLedger
  ) {
    self.converter = converter
    self.normalizer = normalizer
    self.parser = parser
    self.quotes = quotes
    result = PartResult(ledger: ledger)
  }

  /// A record's outcome (``RecordConverter/outcome(of:normalizer:parser:quotes:withoutDate:ledger:)``), counted.
  mutating func outcome(of fields: RecordFields) -> RowOutcome {
    let outcome = converter.outcome(
      of: fields, normalizer: normalizer, parser: parser, quotes: quotes, withoutDate: &result.withoutDate,
      ledger: &result.ledger)
    result.counts.add(outcome)
    return outcome
  }
}

/// Pass 2's record loop, the same for every format: a record goes through the fast loop
/// (``FastRecordLoop/convert(_:sink:)``) where it can, else the pending output is flushed and the general
/// writer writes it; the bytes between records are copied; the progress meter ticks per record. A big file's
/// parts run on all cores (``PartsRunner``): part 0 on the source the format opened, every other part on a
/// source the format opens over its byte range, each with its own copy of the fast loop.
enum RecordPass {
  /// Converts the records a source has left, writing them to `sink`.
  ///
  /// - Returns: what the part counted (``PartResult``).
  static func convert<Source: RecordSource, Writer: GeneralRecordWriter>(
    _ source: inout Source, writer: inout Writer, loop: FastRecordLoop<Source.Reader>?,
    general: GeneralRecordPath, sink: ByteSink, meter: ProgressMeter?
  ) throws -> PartResult where Writer.Record == Source.Record {
    var general = general
    var ticker = ProgressMeter.Ticker(meter, from: source.offset)
    if var loop {  // not optional in the loop: force-unwrapping it per record copied it
      while try source.next(
        between: { bytes throws in try loop.copy(bytes, sink: sink) },
        record: { record throws in
          if try loop.convert(Source.fastRecord(record), sink: sink) { return }
          try loop.flush(to: sink)
          try writer.write(record, general: &general)
        })
      { ticker.tick(at: source.offset) }
      try loop.finish(to: sink, into: &general.result)
    } else {
      while try source.next(
        between: { bytes throws in try sink.write(bytes) },
        record: { record throws in try writer.write(record, general: &general) })
      { ticker.tick(at: source.offset) }
    }
    try sink.flush()
    source.addFindings(to: &general.result)
    return general.result
  }

  /// Converts a file in parts on several threads (``PartsRunner/convert(parts:into:temporaryPrefix:temporaryDirectory:_:)``),
  /// or in one part.
  ///
  /// - Parameters:
  ///   - starts: where parts 1, 2, … start (empty: one part).
  ///   - general: the general path, nothing counted yet (each part starts from it).
  ///   - open: the source and writer of a part (``FilePart``) writing to the sink it is given: part 0's reads on
  ///     from where the format's reader is, the others' read their own byte range.
  /// - Returns: the parts' results added up.
  static func convert<Source: RecordSource, Writer: GeneralRecordWriter, Start: PartBoundary>(
    starts: [Start], into sink: ByteSink, temporaryPrefix: String, loop: FastRecordLoop<Source.Reader>?,
    general: GeneralRecordPath, meter: ProgressMeter?,
    open: (_ part: FilePart<Start>, _ sink: ByteSink) throws -> (Source, Writer)
  ) throws -> PartResult where Writer.Record == Source.Record {
    guard !starts.isEmpty else {
      var (source, writer) = try open(FilePart(0, of: starts), sink)
      return try convert(&source, writer: &writer, loop: loop, general: general, sink: sink, meter: meter)
    }
    let results = try PartsRunner.convert(parts: starts.count + 1, into: sink, temporaryPrefix: temporaryPrefix) {
      part, partSink in
      var (source, writer) = try open(FilePart(part, of: starts), partSink)
      var partLoop = loop
      partLoop?.restart()
      return try convert(&source, writer: &writer, loop: partLoop, general: general, sink: partSink, meter: meter)
    }
    var total = general.result
    for result in results { total.add(result) }
    return total
  }
}
