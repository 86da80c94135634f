import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The two passes over a JSON Lines file under a local rate table: lines read in place in big blocks
/// (``JSONLinesByteReader``), flat records read without the general parser (``FlatJSONObject``) and their
/// member names resolved once per shape (``JSONFieldDecoder``). Every line the fast path declines is read
/// and written by the general per-record code of
/// ``JSONRecords/scanFile(_:displayPath:readPath:outputPath:context:)`` and
/// ``JSONRecords/convertFile(_:scan:context:quotes:standardOutput:)``, so the output, the report and the errors are the
/// same.
extension JSONLinesFormat {
  /// Pass 1 over a JSON Lines file under a local table: checks it (an already annotated file, records without
  /// an amount or currency field), finds the decimal mark of its text amounts and where the parts of pass 2
  /// start; collects no keys (the table answers them as records come).
  ///
  /// - Throws: ``FileError``, as ``JSONRecords/scanFile(_:displayPath:readPath:outputPath:context:)`` does.
  ///
  /// - Returns: the scan, and under a table provider the keys of the span of days to ask it (``KeySpan``).
  static func scanJSONLinesFile(displayPath: String, readPath: String, outputPath: String?, context: FormatContext)
    throws(FileError) -> (FileScan, [RateKey])
  {
    let options = context.options
    let passOneKeys = context.passOneKeys
    let locator = JSONRecords.fieldLocator(options)
    let normalizer = context.recordNormalizer
    let checkMark = options.decimalMark == nil
    let targets = PartsRunner.partTargets(
      fileSize: PartsRunner.fileSize(readPath), parts: options.parallelParts, minimumSize: options.parallelMinimumSize)
    let meter = ProgressMeter(
      file: displayPath, pass: 1, bytesTotal: PartsRunner.fileSize(readPath), handler: options.progress)
    let scanned: RecordScan.Scanned<JSONLinesPassOne>
    do {
      let limits = options.limits
      scanned = try RecordScan.scanLines(
        JSONLinesScanSource(reader: try JSONLinesByteReader(path: readPath, line: options.firstLine, limits: limits)),
        readPath: readPath,
        targets: targets, inParts: true, meter: meter,
        findings: { part in
          JSONLinesPassOne(
            found: JSONRecordPassOne(
              displayPath: displayPath, normalizer: normalizer, locator: locator, checkMark: checkMark,
              looksForFirstObject: part == 0, span: passOneKeys))
        },
        open: { range in
          JSONLinesScanSource(reader: try JSONLinesByteReader(path: readPath, range: range, line: 1, limits: limits))
        },
        reopen: {
          JSONLinesScanSource(reader: try JSONLinesByteReader(path: readPath, line: options.firstLine, limits: limits))
        },
        // The first record object (the annotated-file and missing-field checks) is looked for in part 0 only.
        accept: { $0.found.firstObject != nil })
    } catch let error as FileError {
      throw error
    } catch let error as JSONParseError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.message)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    let found = scanned.findings.found
    var scan = try JSONRecords.scan(
      self, found: found, displayPath: displayPath, readPath: readPath, outputPath: outputPath,
      normalizer: normalizer, options: options)
    scan.partStarts = scanned.partStarts
    scan.size = scanned.size
    return (scan, found.span?.keys.allKeys.sorted { $0.day < $1.day } ?? [])
  }

  /// Pass 2 over a JSON Lines file with a fast pass (``JSONRecords/fastPass(_:context:quotes:)``): writes the annotated copy.
  ///
  /// A big file is converted in parts (``FileScan/partStarts``) on all cores: the first part writes to the
  /// output, each other part to a temporary file, and the temporary files are appended in order, so the output
  /// is the same as one pass would write.
  static func convertJSONLines(
    _ scan: FileScan, fastPass: JSONRecordLoop, context: FormatContext, quotes: QuoteBook, standardOutput: Int32
  ) throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger) {
    let options = context.options
    let (atomicFile, sink) = try context.openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    let result: PartResult
    do {
      let reader = try JSONLinesByteReader(path: scan.readPath, line: options.firstLine, limits: options.limits)
      if reader.hasByteOrderMark { try sink.write([0xEF, 0xBB, 0xBF]) }
      let meter = ProgressMeter(file: scan.displayPath, pass: 2, bytesTotal: scan.size, handler: options.progress)
      // A big file in parts: part 0 on the reader opened here, the others over their ranges.
      let starts = scan.partStarts
      if let first = starts.first { reader.stop(at: first.offset) }
      let locator = JSONRecords.fieldLocator(options)
      let layout = context.annotationLayout
      // Not `fxbatch-part`: the CSV tests' check for part files left behind must not take these.
      result = try RecordPass.convert(
        starts: starts, into: sink, temporaryPrefix: "fxbatch-jsonl-part", loop: fastPass,
        general: context.generalPath(scan, quotes: quotes), meter: meter
      ) { part, partSink in
        let partReader =
          try part.start.map {
            try JSONLinesByteReader(
              path: scan.readPath, range: part.range(to: scan.size), line: $0.line, limits: options.limits)
          } ?? reader
        return (
          JSONLinesRecordSource(reader: partReader),
          JSONLinesGeneralWriter(
            sink: partSink, writer: JSONAnnotatingWriter(sink: partSink, layout: layout), locator: locator,
            outputDecimalMark: options.outputDecimalMark)
        )
      }
    } catch let error as JSONParseError {
      throw FileError(path: scan.displayPath, line: error.line, column: error.column, message: error.message)
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
    }
    do {
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
    } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
    return (result.counts, result.withoutDate, result.ledger)
  }
}
