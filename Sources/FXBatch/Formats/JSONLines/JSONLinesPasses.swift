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
    var found = JSONRecordPassOne(
      displayPath: displayPath, normalizer: normalizer, locator: locator, checkMark: checkMark, looksForFirstObject: true,
      span: passOneKeys)
    var partStarts: [FileScan.PartStart] = []
    var size = 0
    let meter = ProgressMeter(
      file: displayPath, pass: 1, bytesTotal: PartsRunner.fileSize(readPath), handler: options.progress)
    let makeState: @Sendable (Int) -> JSONRecordPassOne = { part in
      JSONRecordPassOne(
        displayPath: displayPath, normalizer: normalizer, locator: locator, checkMark: checkMark, looksForFirstObject: part == 0,
        span: passOneKeys)
    }
    do {
      var reader = try JSONLinesByteReader(path: readPath, limits: options.limits)
      if !targets.isEmpty,
        let parallel = try Self.scanJSONLinesInParts(
          reader: reader, readPath: readPath, targets: targets, meter: meter, makeState: makeState)
      {
        (found, partStarts, size) = parallel
      } else {
        if !targets.isEmpty {  // the first part had no record object
          reader = try JSONLinesByteReader(path: readPath, limits: options.limits)
          found = makeState(0)
        }
        var ticker = ProgressMeter.Ticker(meter, from: reader.nextOffset)
        while let _ = try reader.withNextLine({ line throws in try found.scan(line) }) {
          if partStarts.count < targets.count, reader.nextOffset >= targets[partStarts.count] {
            partStarts.append(FileScan.PartStart(offset: reader.nextOffset, line: reader.nextLine))
          }
          ticker.tick(at: reader.nextOffset)
        }
        size = reader.nextOffset
      }
    } catch let error as FileError {
      throw error
    } catch let error as JSONParseError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.message)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    var scan = try JSONRecords.scan(
      self, found: found, displayPath: displayPath, readPath: readPath, outputPath: outputPath,
      normalizer: normalizer, options: options)
    scan.partStarts = partStarts.filter { $0.offset < size }
    scan.size = size
    return (scan, found.span?.keys.allKeys.sorted { $0.day < $1.day } ?? [])
  }

  /// Pass 1 in parts on all cores: each part starts after the first line feed at or after its target, and the
  /// parts' findings add up in order.
  ///
  /// - Parameters:
  ///   - reader: the reader of the whole file; it reads the first part.
  ///   - makeState: the empty findings of part `i`.
  /// - Returns: the findings, the part starts (with their lines) and the file's size; `nil` when the parts
  ///   cannot be placed or the first part holds no record object (the caller reads the file in one pass).
  /// - Throws: what the first part throws (an annotated file), or a read error.
  private static func scanJSONLinesInParts(
    reader: JSONLinesByteReader, readPath: String, targets: [Int], meter: ProgressMeter?,
    makeState: @escaping @Sendable (Int) -> JSONRecordPassOne
  ) throws -> (JSONRecordPassOne, [FileScan.PartStart], Int)? {
    let size = PartsRunner.fileSize(readPath)
    guard let starts = PartsRunner.lineStarts(readPath, targets: targets, after: reader.nextOffset, size: size) else {
      return nil
    }
    reader.stop(at: starts[0])
    let parts = starts.count + 1
    let offsets = starts
    let found = PartsRunner.scan(parts: parts) { part throws -> (JSONRecordPassOne, lines: Int) in
      let partReader =
        part == 0
        ? reader
        : try JSONLinesByteReader(
          path: readPath, range: offsets[part - 1]..<(part < offsets.count ? offsets[part] : size), line: 1,
          limits: reader.limits)
      var state = makeState(part)
      var ticker = ProgressMeter.Ticker(meter, from: partReader.nextOffset)
      while let _ = try partReader.withNextLine({ line throws in try state.scan(line) }) {
        ticker.tick(at: partReader.nextOffset)
      }
      return (state, partReader.nextLine)
    }
    var (state, line) = try found[0].get()
    guard state.firstObject != nil else { return nil }
    var partStarts = [FileScan.PartStart(offset: starts[0], line: line)]
    for part in 1..<parts {
      let (later, lines) = try found[part].get()
      state.add(later)
      // Parts after the first count their lines from 1.
      line += lines - 1
      if part < starts.count { partStarts.append(FileScan.PartStart(offset: starts[part], line: line)) }
    }
    return (state, partStarts, size)
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
      let reader = try JSONLinesByteReader(path: scan.readPath, limits: context.options.limits)
      if reader.hasByteOrderMark { try sink.write([0xEF, 0xBB, 0xBF]) }
      let meter = ProgressMeter(file: scan.displayPath, pass: 2, bytesTotal: scan.size, handler: options.progress)
      // A big file in parts: part 0 on the reader opened here, the others over their ranges.
      let starts = scan.partStarts
      if let first = starts.first { reader.stop(at: first.offset) }
      let locator = JSONRecords.fieldLocator(options)
      let layout = context.annotationLayout
      // Not `fxbatch-part`: the CSV tests' check for part files left behind must not take these.
      result = try RecordPass.convert(
        parts: starts.count + 1, into: sink, temporaryPrefix: "fxbatch-jsonl-part", loop: fastPass,
        general: context.generalPath(scan, quotes: quotes), meter: meter
      ) { part, partSink in
        let partReader =
          part == 0
          ? reader
          : try JSONLinesByteReader(
            path: scan.readPath, range: starts[part - 1].offset..<(part < starts.count ? starts[part].offset : scan.size),
            line: starts[part - 1].line, limits: options.limits)
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
