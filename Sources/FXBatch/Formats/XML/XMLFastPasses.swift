import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Both passes over an XML document in ``XMLSimpleScanner``'s subset under a local rate table: the document's
/// bytes are read directly (libxml2's streaming reader alone takes about 8 s for a million records), records
/// are converted by the fast loop (``XMLFastRecordReader``) or, when it declines one, by the general rules, and a
/// big document is read and converted in parts on all cores. A document outside the subset takes the general path
/// (``scanXMLFile(displayPath:readPath:outputPath:context:)``) from the start, so its errors are libxml2's.
extension XMLFormat {
  /// Pass 1 through ``XMLSimpleScanner``.
  ///
  /// - Returns: the scan and no keys (records are converted from the table as they come); `nil` when the
  ///   document is outside the scanner's subset, is fxbatch output, has no records, or lacks a field: the general
  ///   path then reads it and reports what is wrong.
  ///
  /// Under a table provider, it also finds the span of days to ask it (``KeySpan``), and returns its keys.
  static func scanXMLFileFast(displayPath: String, readPath: String, outputPath: String?, context: FormatContext) -> (
    FileScan, Set<RateKey>
  )? {
    let options = context.options
    let passOneKeys = context.passOneKeys
    guard context.hasConvertingTable || passOneKeys != nil else { return nil }
    // Several amounts (`--amount-field A,B,C`): a NAME that cannot name an attribute is the general pass's error.
    guard (try? checkAmountNames(options.fieldNames, displayPath: displayPath)) != nil else { return nil }
    let normalizer = context.recordNormalizer
    let size = PartsRunner.fileSize(readPath)
    guard size > 0, let head = Self.xmlHead(path: readPath, recordName: options.recordElement.map { Array($0.utf8) } ?? [])
    else { return nil }
    let locator = fieldLocator(options)
    guard locator.pathError == nil else { return nil }
    let inferMark = options.decimalMark == nil
    var starts = Self.xmlPartStarts(
      path: readPath, document: head.document, after: head.firstRecord,
      targets: PartsRunner.partTargets(
        fileSize: size, parts: options.parallelParts, minimumSize: options.parallelMinimumSize))
    var found: XMLPartScan? = nil
    if !starts.isEmpty {
      found = Self.scanXMLInParts(
        path: readPath, starts: starts, document: head.document, locator: locator, inferMark: inferMark,
        normalizer: normalizer, span: passOneKeys, maximumItemBytes: options.limits.maxRecordBytes)
    }
    if found == nil {
      starts = []
      found = try? Self.scanXMLPart(
        path: readPath, range: 0..<Int.max, phase: .prolog, document: head.document, locator: locator, inferMark: inferMark,
        normalizer: normalizer, span: passOneKeys, maximumItemBytes: options.limits.maxRecordBytes)
    }
    guard let found, let document = found.document, found.records > 0, !found.firstRecordIsAnnotated,
      found.readAmounts(count: locator.amountLocators.count),
      // Without a from-currency field a record's amount may name it (`USD 12.50`): each record's own rule.
      !locator.roles.contains(where: { role in
        role != .date && (role != .from || options.fieldNames.from != nil) && found.located[role] == nil
      }),
      // A path no record has is a file error of the general path (``missingPath(_:located:displayPath:line:unboundPrefixes:)``).
      !locator.paths.contains(where: { found.located[$0.role] == nil }),
      // A field the run would pass over: the general path reads the document again and reports it.
      unreadField(
        names: found.firstRecordFields, located: found.located, options: options, displayPath: displayPath,
        readPath: readPath, recordElement: String(decoding: document.recordName, as: UTF8.self), line: 1) == nil
    else { return nil }
    var state = found.state
    let (decimalMark, basis) =
      options.decimalMark.map { ($0, nil) } ?? state.inference.decide(delimiter: UInt8(ascii: ","))
    let dateFormat = state.settleDates()
    var scan = FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .xml,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer.reading(dates: dateFormat),
      fields: Dictionary(uniqueKeysWithValues: found.located.map { ($0.key.rawValue, $0.value) }),
      details: XMLScanDetails(recordElement: String(decoding: document.recordName, as: UTF8.self), document: document))
    scan.partStarts = starts.map { FileScan.PartStart(offset: $0, line: 0) }
    scan.size = size
    return (scan, state.span?.keys.allKeys ?? [])
  }

  /// The document's names and its first record's offset, from its first bytes; `nil` outside the subset.
  private static func xmlHead(path: String, recordName: [UInt8]) -> (document: XMLScannedDocument, firstRecord: Int)? {
    guard var scanner = try? XMLSimpleScanner(path: path, range: 0..<Int.max, recordName: recordName) else { return nil }
    while let item = try? scanner.next() {
      guard case .record = item else { continue }
      let document = XMLScannedDocument(
        rootName: scanner.rootName, recordName: scanner.recordName, encodingName: scanner.encodingName,
        namespaces: scanner.namespaces)
      return (document, scanner.offset(of: scanner.record.start))
    }
    return nil
  }

  /// Where the parts of a big document start: at the first `<name` of a record element at or after each target
  /// (pass 1 checks that each part before ends exactly there, at a record boundary).
  private static func xmlPartStarts(path: String, document: XMLScannedDocument, after first: Int, targets: [Int]) -> [Int] {
    guard !targets.isEmpty else { return [] }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    let pattern = [UInt8(ascii: "<")] + document.recordName
    var window = [UInt8](repeating: 0, count: 1 << 16)
    var starts: [Int] = []
    for target in targets where target > first {
      let count = FileBytes.read(from: descriptor, into: &window, fileOffset: target)
      guard count > pattern.count else { return starts }
      var index = 0
      var start: Int? = nil
      while index + pattern.count < count {
        if window[index] == pattern[0], window[index..<index + pattern.count].elementsEqual(pattern) {
          let next = window[index + pattern.count]
          if XMLSimpleScanner.isSpace(next) || next == UInt8(ascii: ">") || next == UInt8(ascii: "/") {
            start = target + index
            break
          }
        }
        index += 1
      }
      guard let start, start > (starts.last ?? first) else { continue }
      starts.append(start)
    }
    return starts
  }

  /// Pass 1 over one part.
  ///
  /// - Throws: ``XMLSimpleScanner/Declined`` when the part is outside the subset or does not end at its range's
  ///   end (a part boundary that is not a record boundary).
  private static func scanXMLPart(
    path: String, range: Range<Int>, phase: XMLSimpleScanner.Phase, document: XMLScannedDocument, locator: XMLFieldLocator,
    inferMark: Bool, normalizer: RecordNormalizer, span: KeySpan?, maximumItemBytes: Int
  ) throws(XMLSimpleScanner.Declined) -> XMLPartScan {
    var scanner = try XMLSimpleScanner(
      path: path, range: range, phase: phase, rootName: phase == .prolog ? [] : document.rootName,
      recordName: document.recordName, namespaces: phase == .prolog ? [] : document.namespaces,
      maximumItemBytes: maximumItemBytes)
    var shapes = XMLRecordShapes(locator: locator, namespaces: document.namespaces)
    // Its own key decoder (a fresh cache): the parts run on several threads.
    var result = XMLPartScan(state: PassOneState(normalizer: normalizer, span: span))
    var lastShape = -1
    while let item = try scanner.next() {
      guard case .record = item else { continue }
      let bytes = scanner.bytes
      let shape = shapes.shape(of: scanner.record, in: bytes)
      if result.records == 0 {
        result.firstRecord = scanner.offset(of: scanner.record.start)
        if let last = scanner.record.fields.last, !last.isAttribute {
          result.firstRecordIsAnnotated =
            last.nameEnd - last.nameStart == 2 && bytes[last.nameStart] == UInt8(ascii: "f")
            && bytes[last.nameStart + 1] == UInt8(ascii: "x")
        }
        for field in scanner.record.fields {
          let name = bytes.slice(field.nameStart..<field.nameEnd).text
          result.firstRecordFields.append((field.isAttribute ? "@" : "") + name)
        }
      }
      result.records += 1
      let fields = shapes.roleFields(of: scanner.record, shape: shape, in: bytes)
      if fields.isResolved {
        if result.located.count < locator.roles.count {
          result.located.merge(shapes.located(scanner.record, shape: shape, in: bytes)) { earlier, _ in earlier }
        }
      } else if shape != lastShape {
        result.located.merge(shapes.layouts[shape].located) { earlier, _ in earlier }
        lastShape = shape
      }
      if result.state.readsKeys {
        // Decoded from bytes (a key inside a span found so far costs a comparison), else by the general rules.
        let record = scanner.record
        result.state.addKey(decoded: { $0.key(fields, in: bytes) }) { normalizer in
          guard case .success(let found) = normalizer.rateKey(of: shapes.fields(of: record, shape: shape, in: bytes))
          else { return nil }
          return found.key
        }
      }
      if result.state.infersDates {
        let record = scanner.record
        result.state.addDateEvidence(decoded: { $0.dateEvidence(fields, in: bytes) }) { _ in
          guard case .text(let text) = shapes.fields(of: record, shape: shape, in: bytes).date else { return nil }
          return text
        }
      }
      if inferMark, let field = fields.amount {
        let raw = XMLFastRecordReader.trimmed(field, bytes)
        if raw.firstIndex(of: UInt8(ascii: "<")) == nil, let evidence = FieldKeyDecoder.evidence(raw) {
          result.state.inference.add(evidence)
        } else {
          result.state.inference.add(XMLSimpleScanner.decodedText(field, in: bytes).trimmingWhitespace)
        }
      }
      if shapes.amountCount > 0 {
        result.addAmounts(
          of: scanner.record, shape: shape, shapes: shapes, bytes: bytes, hasFrom: fields.from != nil, inferMark: inferMark)
      }
    }
    result.document = XMLScannedDocument(
      rootName: scanner.rootName, recordName: scanner.recordName, encodingName: scanner.encodingName,
      namespaces: scanner.namespaces)
    return result
  }

  /// Pass 1 in parts on all cores; `nil` when a part declines or does not start where the part before it ended
  /// (``RecordScan/addUp(_:accept:)``: the caller then reads the document in one part).
  private static func scanXMLInParts(
    path: String, starts: [Int], document: XMLScannedDocument, locator: XMLFieldLocator, inferMark: Bool,
    normalizer: RecordNormalizer, span: KeySpan?, maximumItemBytes: Int
  ) -> XMLPartScan? {
    let boundaries = starts.map { RecordScan.PartStart(offset: $0, line: 0) }
    let found = PartsRunner.scan(parts: starts.count + 1) { part in
      try scanXMLPart(
        path: path, range: FilePart(part, of: boundaries).range(to: Int.max), phase: part == 0 ? .prolog : .content, document: document, locator: locator,
        inferMark: inferMark, normalizer: normalizer, span: span, maximumItemBytes: maximumItemBytes)
    }
    return RecordScan.addUp(found) { part, later in part == 0 || later.firstRecord == starts[part - 1] }
  }

  /// Pass 2 through ``XMLSimpleScanner`` (see ``scanXMLFileFast(displayPath:readPath:outputPath:context:)``): the
  /// document's bytes are copied, and each record gains its `fx` element where ``XMLAnnotatingWriter`` puts it,
  /// from the fast loop (``XMLFastRecordReader``) or else from the general rules and ``XMLElementEncoder``, so the
  /// output is the general path's byte for byte.
  static func convertXMLFast(
    _ scan: FileScan, document: XMLScannedDocument, context: FormatContext, quotes: QuoteBook, standardOutput: Int32
  ) throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger) {
    let options = context.options
    let (atomicFile, sink) = try context.openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    // The template writes `.` decimal marks and the table's (or the answers') texts unescaped.
    let fastPass = context.fastLoop(scan, quotes: quotes, template: .xmlElement) {
      XMLFastRecordReader(
        shapes: XMLRecordShapes(locator: fieldLocator(options), namespaces: document.namespaces),
        decimalMark: scan.decimalMark?.byte, recordName: document.recordName)
    }
    do {
      // A big document under a fast loop in parts, each over its byte range (part 0 from the prolog).
      let starts = fastPass == nil ? [] : scan.partStarts
      let result = try RecordPass.convert(
        starts: starts, into: sink, temporaryPrefix: "fxbatch-part", loop: fastPass,
        general: context.generalPath(scan, quotes: quotes), meter: nil
      ) { part, partSink in
        let scanner = try XMLSimpleScanner(
          path: scan.readPath, range: part.range(to: Int.max), phase: part.start == nil ? .prolog : .content, rootName: document.rootName,
          recordName: document.recordName, namespaces: document.namespaces)
        // An encoder per part: it is libxml2's text writer, one thread's.
        return (
          XMLRecordSource(scanner: scanner),
          XMLGeneralWriter(
            sink: partSink, shapes: XMLRecordShapes(locator: fieldLocator(options), namespaces: document.namespaces),
            encoder: try XMLElementEncoder(encoding: document.encodingName), recordName: document.recordName, outputDecimalMark: options.outputDecimalMark)
        )
      }
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
      return (result.counts, result.withoutDate, result.ledger)
    } catch let error as XMLSimpleScanner.Declined {
      throw FileError(
        path: scan.displayPath,
        message: "the document changed while it was converted (\(error)); nothing was written")
    } catch let error as FileError {
      throw error
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
    }
  }
}
