import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The two passes over a JSON document under a local rate table: the document around the records array is
/// walked as the general path walks it (``JSONDocumentWalker``, so its errors are the general path's), and the
/// array itself is read from bytes (``JSONArrayReader``) with the fast pieces of JSON records: flat records
/// read in place (``FlatJSONObject``), fields found per shape (``JSONFieldDecoder``), converted from the
/// table (``TableConverter``) and annotated from a template. Every other record goes through the general
/// per-record rules and writer at its place, so the output, the report and the errors are the same as the
/// general path's (`JSONDocumentFastPathTests` compares them).
extension JSONFormat {
  /// Pass 1 over a JSON document on the byte-level path: checks it (an already annotated document, records
  /// without an amount or currency field), finds the decimal mark of its text amounts and where the parts of
  /// pass 2 start (between records, found by reading every record); collects no keys.
  ///
  /// - Returns: the scan, and under a table provider the keys of the span of days to ask it; `nil` when the run
  ///   has no fast pass for JSON records, or the records array holds
  ///   something the byte-level reader does not follow (then the general path reads the document, and reports
  ///   its errors).
  /// - Throws: ``FileError``, as ``JSONRecords/scanFile(_:displayPath:readPath:outputPath:context:)`` does.
  static func scanJSONDocumentFile(displayPath: String, readPath: String, outputPath: String?, context: FormatContext)
    throws(FileError) -> (FileScan, [RateKey])?
  {
    let options = context.options
    // Under a table provider, pass 1 needs only the span of days to ask it (``KeySpan``), under a source that
    // answers keys every key; pass 2 then converts from the table (or the answers), on this path.
    let passOneKeys = context.passOneKeys
    let passTwoConverts = passOneKeys != nil && options.outputDecimalMark == .point
    guard JSONRecords.converter(context, quotes: nil) != nil || passTwoConverts else { return nil }
    let normalizer = context.recordNormalizer
    let locator = JSONRecords.fieldLocator(options)
    let checkMark = options.decimalMark == nil
    let makeState: @Sendable (Int) -> JSONRecordPassOne = { part in
      JSONRecordPassOne(
        displayPath: displayPath, normalizer: normalizer, locator: locator, checkMark: checkMark, looksForFirstObject: part == 0,
        span: passOneKeys)
    }
    var found = makeState(0)
    let size = PartsRunner.fileSize(readPath)
    let targets = PartsRunner.partTargets(
      fileSize: size, parts: options.parallelParts, minimumSize: options.parallelMinimumSize)
    let meter = ProgressMeter(file: displayPath, pass: 1, bytesTotal: size, handler: options.progress)
    var extent: JSONArrayExtent?
    do {
      let walker = try JSONDocumentWalker(path: readPath, recordsPath: options.recordsPath, limits: options.limits)
      try walker.walk(copy: { _ in }, record: { _ in true }) { start in
        if !targets.isEmpty,
          let parallel = Self.scanJSONArrayInParts(
            readPath: readPath, start: start, targets: targets, meter: meter, limits: options.limits,
            makeState: makeState)
        {
          (found, extent) = parallel
          return parallel.1.end
        }
        let reader = try JSONArrayReader(path: readPath, at: start, start: .afterOpening, limits: options.limits)
        var partStarts: [JSONArrayExtent.Position] = []
        var isFirst = true
        var ticker = ProgressMeter.Ticker(meter, from: start.offset)
        while let _ = try reader.withNextPiece({ piece throws in
          guard let element = piece.element else { return }
          try found.scan(record: element, line: piece.position.line, column: piece.position.column)
          // A part starts at a record (never the first): the reader has read every byte before it.
          if !isFirst, partStarts.count < targets.count, piece.position.offset >= targets[partStarts.count] {
            partStarts.append(piece.position)
          }
          isFirst = false
        }) { ticker.tick(at: reader.position.offset) }
        let end = reader.position
        extent = JSONArrayExtent(start: start, end: end, partStarts: partStarts)
        return end
      }
    } catch is JSONArrayReader.Unfollowable {
      return nil
    } catch {
      throw fileError(error, displayPath: displayPath)
    }
    guard let extent else { return nil }
    var scan = try JSONRecords.scan(
      self, found: found, displayPath: displayPath, readPath: readPath, outputPath: outputPath,
      normalizer: normalizer, options: options)
    scan.jsonArray = extent
    scan.size = size
    return (scan, found.span?.keys.allKeys.sorted { $0.day < $1.day } ?? [])
  }

  /// Pass 1 over the records array in parts on all cores. Each part after the first starts at a guess: the
  /// first `{` after its target whose previous non-blank byte is `,`. A guess holds when the part before it,
  /// read from a record start, ends exactly there between two records; the parts' findings then add up in
  /// order (``RecordScan/addUp(_:accept:)``), and their lines and columns (counted from the guess) are made the
  /// file's.
  ///
  /// - Returns: the findings and the array's extent (the guesses become pass 2's part starts); `nil` when a
  ///   guess cannot be made or does not hold, a part fails (bytes it does not follow, an annotated document, a
  ///   read error) or the first part holds no record object: the caller reads the array in one pass, which
  ///   reports any real error at its own place.
  private static func scanJSONArrayInParts(
    readPath: String, start: JSONArrayExtent.Position, targets: [Int], meter: ProgressMeter?, limits: RecordLimits,
    makeState: @escaping @Sendable (Int) -> JSONRecordPassOne
  ) -> (JSONRecordPassOne, JSONArrayExtent)? {
    let guesses = recordStartGuesses(readPath, targets: targets, after: start.offset)
    guard !guesses.isEmpty else { return nil }
    let found = PartsRunner.scan(parts: guesses.count + 1) { part throws -> JSONArrayPartScan in
      let limit = part < guesses.count ? guesses[part] : nil
      let reader =
        part == 0
        ? try JSONArrayReader(path: readPath, at: start, start: .afterOpening, limit: limit, limits: limits)
        : try JSONArrayReader(
          path: readPath, at: JSONArrayExtent.Position(offset: guesses[part - 1], line: 1, column: 1), start: .atElement,
          limit: limit, limits: limits)
      var state = makeState(part)
      var ticker = ProgressMeter.Ticker(meter, from: reader.position.offset)
      while let _ = try reader.withNextPiece({ piece throws in
        guard let element = piece.element else { return }
        try state.scan(record: element, line: piece.position.line, column: piece.position.column)
      }) { ticker.tick(at: reader.position.offset) }
      return JSONArrayPartScan(found: state, end: reader.position)
    }
    let total = RecordScan.addUp(found) { part, later in
      // The part before ends at this part's guess only when the guess is a record start.
      part == 0 ? later.found.firstObject != nil : (try? found[part - 1].get())?.end.offset == guesses[part - 1]
    }
    guard let total else { return nil }
    return (total.found, JSONArrayExtent(start: start, end: total.end, partStarts: total.partStarts))
  }

  /// What pass 1 found in a part of a records array: its records, where it ended, and where the parts after the
  /// first start (the ends of the parts before).
  private struct JSONArrayPartScan: PartFindings {
    var found: JSONRecordPassOne
    var end: JSONArrayExtent.Position
    var partStarts: [JSONArrayExtent.Position] = []

    mutating func add(_ later: JSONArrayPartScan) {
      partStarts.append(end)
      found.add(later.found)
      // The later part counted lines from 1 and columns from 1 at its start, where this one ended.
      end = JSONArrayExtent.Position(
        offset: later.end.offset, line: end.line + later.end.line - 1,
        column: later.end.line == 1 ? end.column + later.end.column - 1 : later.end.column)
    }
  }

  /// Guesses of record starts: per target, the first `{` at or after it whose previous non-blank byte (after
  /// the target) is `,`, when one is within 64 KiB; each after `after` and after the one before (targets that
  /// give no new guess are left out).
  private static func recordStartGuesses(_ readPath: String, targets: [Int], after first: Int) -> [Int] {
    var guesses: [Int] = []
    let descriptor = open(readPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var window = [UInt8](repeating: 0, count: 1 << 16)
    for target in targets where target > first {
      let count = FileBytes.read(from: descriptor, into: &window, fileOffset: target)
      guard count > 0 else { break }
      var previous: UInt8 = 0
      for index in 0..<count {
        let byte = window[index]
        if byte == UInt8(ascii: "{"), previous == UInt8(ascii: ","), target + index > (guesses.last ?? first) {
          guesses.append(target + index)
          break
        }
        if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { previous = byte }
      }
    }
    return guesses
  }

  /// Pass 2 over a JSON document that pass 1 read on the byte-level path (``FileScan/jsonArray``): writes the
  /// annotated copy; the records array of a big document in parts on all cores, each part but the first to a
  /// temporary file appended in order, so the output is the same as one pass would write.
  static func convertJSONDocument(
    _ scan: FileScan, extent: JSONArrayExtent, fastPass: JSONRecordLoop, context: FormatContext, quotes: QuoteBook,
    standardOutput: Int32
  ) throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger) {
    let options = context.options
    let (atomicFile, sink) = try context.openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    let writer = JSONAnnotatingWriter(sink: sink, layout: context.annotationLayout)
    var result: PartResult?
    do {
      let walker = try JSONDocumentWalker(
        path: scan.readPath, recordsPath: options.recordsPath, limits: options.limits)
      let meter = ProgressMeter(file: scan.displayPath, pass: 2, bytesTotal: scan.size, handler: options.progress)
      try walker.walk(copy: writer.copy, record: { _ in throw JSONArrayReader.Unfollowable(offset: 0) }) { start in
        guard start == extent.start else { throw JSONArrayReader.Unfollowable(offset: start.offset) }
        result = try convertJSONArray(
          scan, extent: extent, sink: sink, fastPass: fastPass, context: context, quotes: quotes, meter: meter)
        return extent.end
      }
    } catch is JSONArrayReader.Unfollowable {
      throw FileError(path: scan.displayPath, message: "the file changed while it was converted")
    } catch {
      throw fileError(error, displayPath: scan.displayPath)
    }
    guard let result else { throw FileError(path: scan.displayPath, message: "the file changed while it was converted") }
    do {
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
    } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
    return (result.counts, result.withoutDate, result.ledger)
  }

  /// A ``FileError`` for what reading a JSON file threw.
  private static func fileError(_ error: any Error, displayPath: String) -> FileError {
    switch error {
    case let error as FileError: return error
    case let error as JSONParseError:
      return FileError(path: displayPath, line: error.line, column: error.column, message: error.message)
    default: return FileError(path: displayPath, message: "\(error)")
    }
  }

  /// Converts the records array, in the parts pass 1 chose (``JSONArrayExtent/partStarts``): part 0 from the
  /// array's opening, the others from their first record; each up to the next part's start.
  private static func convertJSONArray(
    _ scan: FileScan, extent: JSONArrayExtent, sink: ByteSink, fastPass: JSONRecordLoop, context: FormatContext,
    quotes: QuoteBook, meter: ProgressMeter?
  ) throws -> PartResult {
    let starts = extent.partStarts
    let options = context.options
    let locator = JSONRecords.fieldLocator(options)
    let layout = context.annotationLayout
    // Not `fxbatch-part` nor `fxbatch-jsonl-part`: the other suites' checks for part files left behind must not
    // take these.
    return try RecordPass.convert(
      starts: starts, into: sink, temporaryPrefix: "fxbatch-json-part", loop: fastPass,
      general: context.generalPath(scan, quotes: quotes), meter: meter
    ) { part, partSink in
      let reader = try JSONArrayReader(
        path: scan.readPath, at: part.start ?? extent.start, start: part.start == nil ? .afterOpening : .atElement,
        limit: part.next?.offset, limits: options.limits)
      return (
        JSONArrayRecordSource(reader: reader),
        JSONArrayGeneralWriter(
          writer: JSONAnnotatingWriter(sink: partSink, layout: layout), locator: locator,
          outputDecimalMark: options.outputDecimalMark)
      )
    }
  }
}
