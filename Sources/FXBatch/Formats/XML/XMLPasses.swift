import CLibXML2

/// The two passes over XML documents.
extension XMLFormat {
  /// The locator of XML record fields for a run's options.
  static func fieldLocator(_ options: BatchOptions, shaped: XMLScanDetails.Shaped? = nil) -> XMLFieldLocator {
    XMLFieldLocator(
      names: shaped?.fieldNames ?? options.fieldNames, fixedFrom: options.fixedFrom != nil,
      fixedTo: options.fixedTo != nil, dateFallbacks: shaped?.dateFallbacks ?? [],
      amountsInFirstCurrency: shaped?.amountsInFirstCurrency ?? false)
  }

  /// Pass 1 over an XML document: checks it (well-formed, no DTD, an encoding fxbatch copies), finds its
  /// record elements, the decimal mark of its amounts, and collects the distinct rate keys.
  ///
  /// - Throws: ``FileError`` for a malformed or refused document, one that is already fxbatch output, or
  ///   records of which none has an amount (or a currency) field.
  static func scanXMLFile(displayPath: String, readPath: String, outputPath: String?, context: FormatContext)
    throws(FileError) -> (FileScan, Set<RateKey>)
  {
    // A known document (``XMLDocumentShape``) is read by the general path: its records are not the root's
    // children (camt) or are the root (UBL), outside the byte scanner's subset.
    let recognized = XMLDocumentShape.recognize(path: readPath)
    let shape = recognized?.apply(to: context.options)
    if shape == nil,
      let fast = scanXMLFileFast(displayPath: displayPath, readPath: readPath, outputPath: outputPath, context: context)
    {
      return fast
    }
    let options = shape?.options ?? context.options
    let shaped = shape.map {
      XMLScanDetails.Shaped(
        fieldNames: $0.options.fieldNames, dateFallbacks: $0.dateFallbacks,
        amountsInFirstCurrency: $0.amountsInFirstCurrency, otherCurrencyFields: recognized?.otherCurrencyFields ?? [],
        description: $0.description)
    }
    var locator = fieldLocator(options, shaped: shaped)
    if let (role, error) = locator.pathError {
      throw FileError(path: displayPath, message: "\(role.optionName) \(error)")
    }
    try checkAmountNames(options.fieldNames, displayPath: displayPath)
    // Which of several amounts some record has (``RecordFields/amounts``).
    var amountsFound = Set<Int>()
    let normalizer = context.recordNormalizer
    var keys: Set<RateKey> = []
    let collectKeys = !context.hasConvertingTable
    var inference = DecimalMarkInference()
    var located: [FieldMapping.Role: String] = [:]
    var first: XMLRecord? = nil
    // The path prefixes bound at some element of a record.
    var bound: Set<Int> = []
    let recordElement: String
    do {
      recordElement = try options.recordElement ?? XMLRecordReader.detectRecordElement(path: readPath)
      let reader = try XMLRecordReader(
        path: readPath, recordElement: recordElement, limits: options.limits, prefixes: locator.prefixes)
      while let record = try reader.next() {
        if first == nil {
          first = record
          if record.children.last?.name == XMLFieldLocator.annotationElement {
            throw FileError.alreadyAnnotated(
              path: displayPath, line: record.line, column: 1,
              evidence: "its records end with an <fx> element", annotation: "it")
          }
        }
        if bound.count < locator.prefixes.count {
          for element in record.elements {
            for (index, binding) in element.bindings.enumerated() where binding != nil { bound.insert(index) }
          }
        }
        let (fields, found) = locator.fields(of: record)
        located.merge(found) { earlier, _ in earlier }
        if options.decimalMark == nil, case .text(let text) = fields.amount { inference.add(text) }
        // An amount whose path matches twice is there, but not one value: its records' `invalid_record`.
        for (index, amount) in fields.amounts.enumerated()
        where amount.amount != .absent || amount.problem?.code == .invalidRecord {
          amountsFound.insert(index)
          if options.decimalMark == nil, index > 0, case .text(let text) = amount.amount { inference.add(text) }
        }
        // Under a local table, keys are answered as records come (no per-key memory).
        if collectKeys, case .success(let found) = normalizer.rateKey(of: fields) { keys.insert(found.key) }
      }
    } catch let error as XMLInputError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.message, hint: error.hint)
    } catch let error as FileError {
      throw error
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
    guard let first else {
      throw FileError(
        path: displayPath, message: "no <\(recordElement)> record elements in the document",
        hint: options.recordElement == nil ? "give --record-element NAME" : nil)
    }
    let unbound = Set(locator.prefixes.indices.filter { !bound.contains($0) }.map { locator.prefixes[$0] })
    if let error = missingPath(
      locator, located: located, displayPath: displayPath, line: first.line, unboundPrefixes: unbound)
    {
      throw error
    }
    if let role = locator.roles.first(where: { role in
      // A record without a from-currency field may name it in its amount (`USD 12.50`): a per-record rule.
      role != .date && (role != .from || options.fieldNames.from != nil) && located[role] == nil
    }) {
      let names = first.attributes.map { "@" + $0.name } + first.children.map(\.name)
      throw FileError.missingField(
        role, path: displayPath, line: first.line, column: 1, names: names, nameKind: "fields",
        given: options.fieldNames.name(of: role))
    }
    if let missing = options.fieldNames.amounts.indices.first(where: { !amountsFound.contains($0) }) {
      let names = first.attributes.map { "@" + $0.name } + first.children.map(\.name)
      let error = FileError.missingField(
        .amount, path: displayPath, line: first.line, column: 1, names: names, nameKind: "fields",
        given: options.fieldNames.amounts[missing].path)
      // The known document's own amounts (a UBL invoice without TaxTotal, which UBL 2.1 allows and EN 16931
      // does not): the user chooses the ones the document has.
      if shaped != nil, context.options.fieldNames.amount == nil {
        let others = options.fieldNames.amounts.indices.filter { $0 != missing }.map {
          options.fieldNames.amounts[$0].path
        }
        throw FileError(
          path: error.path, line: error.line, column: error.column, message: error.message,
          hint: "the \(shape?.description.split(separator: ":").first ?? "known document") converts these amounts; "
            + "give --amount-field with the ones the document has, e.g. --amount-field \(others.joined(separator: ","))")
      }
      throw error
    }
    if let error = unreadField(
      names: first.attributes.map { "@" + $0.name } + first.children.map(\.name), located: located, options: options,
      displayPath: displayPath, readPath: readPath, recordElement: recordElement, line: first.line,
      otherCurrencyFields: Set(shaped?.otherCurrencyFields ?? []))
    {
      throw error
    }
    let (decimalMark, basis) = options.decimalMark.map { ($0, nil) } ?? inference.decide(delimiter: UInt8(ascii: ","))
    let scan = FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: .xml,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer, fields: Dictionary(uniqueKeysWithValues: located.map { ($0.key.rawValue, $0.value) }),
      details: XMLScanDetails(recordElement: recordElement, shaped: shaped))
    return (scan, keys)
  }

  /// Refuses several amounts whose NAME cannot end an attribute name: the `fx` element gets `converted-NAME`
  /// attributes (``AnnotationLayout/xmlAttributeNames``), which must be XML names without a colon.
  static func checkAmountNames(_ names: FieldNames, displayPath: String) throws(FileError) {
    for field in names.amounts {
      let attribute = "converted-" + field.name
      LibXML2.ensureInitialized()
      guard xmlValidateNCName(attribute, 0) != 0 else { continue }
      throw FileError(
        path: displayPath,
        message:
          "--amount-field: the amount NAME \(RowError.quoted(field.name)) (of \(RowError.quoted(field.path))) cannot"
          + " name an XML attribute, converted-NAME",
        hint:
          "name it with NAME=PATH, a NAME of letters, digits, '-', '_' and '.' (--amount-field NAME=\(field.path))")
    }
  }

  /// The error for a path that no record has (``XMLFieldPath``): which path, and a prefix that no record binds.
  static func missingPath(
    _ locator: XMLFieldLocator, located: [FieldMapping.Role: String], displayPath: String, line: Int,
    unboundPrefixes: Set<String>? = nil
  ) -> FileError? {
    guard let (role, path) = locator.paths.first(where: { located[$0.role] == nil }) else { return nil }
    let prefixes = path.prefixedSteps.compactMap(\.prefix)
    let unbound = prefixes.first { unboundPrefixes?.contains($0) ?? false }
    return FileError(
      path: displayPath, line: line, column: 1,
      message: "\(role.optionName) \(RowError.quoted(path.text)): no record has it"
        + (unbound.map { "; the prefix \(RowError.quoted($0)) is not bound to a namespace in the records" } ?? ""),
      hint: prefixes.isEmpty
        ? "a path names the record's children, step by step (Amt, BookgDt/Dt, Amt/@Ccy)"
        : "a prefix matches the namespace the document binds it to (xmlns:prefix=\"…\"); a step without a prefix "
          + "matches by local name in any namespace")
  }

  /// The error for a field the run would pass over
  /// (``FileError/unreadField(names:located:options:path:line:column:nameKind:samples:)``), judged on the first
  /// record's names, every record's located fields, and when a check needs them, the first non-empty texts of the
  /// fields not read (``FieldSamples``, read again by libxml2's streaming reader, whichever path pass 1 took).
  static func unreadField(
    names: [String], located: [FieldMapping.Role: String], options: BatchOptions, displayPath: String,
    readPath: String, recordElement: String, line: Int, otherCurrencyFields: Set<String> = []
  ) -> FileError? {
    if let error = overriddenMoneyCurrency(options: options, displayPath: displayPath, readPath: readPath, recordElement: recordElement) {
      return error
    }
    return FileError.unreadField(
      names: names, located: located, options: options, path: displayPath, line: line, column: 1, nameKind: "fields"
    ) { taken in
      var samples = FieldSamples(skipping: taken)
      var locator = fieldLocator(options)
      guard
        let reader = try? XMLRecordReader(
          path: readPath, recordElement: recordElement, limits: options.limits, prefixes: locator.prefixes)
      else { return samples }
      while !samples.isComplete, let record = try? reader.next() {
        // A field holding the record's from-currency (UBL's DocumentCurrencyCode beside an amount's currencyID)
        // is not another currency the run would pass over.
        var from: String? = nil
        if case .text(let text) = locator.fields(of: record).fields.from { from = text.trimmingWhitespace.uppercased() }
        // The from-currency field found by its name beside a money element is read too: the record is
        // `invalid_record` when it disagrees with the amount's currency attribute, never a to-currency passed over.
        let flatFrom = locator.layout(
          attributeNames: record.attributes.map(\.name), childNames: record.children.map(\.name)
        ).located[.from]
        func value(_ text: String) -> String? {
          from != nil && text.trimmingWhitespace.uppercased() == from ? nil : text
        }
        // A known document's fields of other currencies (``XMLDocumentShape/otherCurrencyFields``).
        func other(_ name: String) -> Bool {
          !otherCurrencyFields.isEmpty && otherCurrencyFields.contains(String(name.split(separator: ":").last ?? ""))
        }
        samples.add(
          record.attributes.lazy.map { ("@" + $0.name, "@" + $0.name == flatFrom ? nil : value($0.value)) }
            + record.children.lazy.map { ($0.name, other($0.name) || $0.name == flatFrom ? nil : value($0.text)) })
      }
      return samples
    }
  }

  /// Refuses `--from` over a money element (`<Amt Ccy="USD">`) of the first record, as `--from` over a
  /// from-currency field is refused (``FileError/unreadField(names:located:options:path:line:column:nameKind:samples:)``):
  /// the element's currency attribute is the record's from-currency, which `--from` would pass over, unless
  /// `--override-currency-fields` says so.
  static func overriddenMoneyCurrency(
    options: BatchOptions, displayPath: String, readPath: String, recordElement: String
  ) -> FileError? {
    guard let code = options.fixedFrom, !options.overrideCurrencyFields, options.fieldNames.from == nil else {
      return nil
    }
    var probe = XMLFieldLocator(
      names: options.fieldNames, fixedFrom: false, fixedTo: options.fixedTo != nil)
    guard
      let reader = try? XMLRecordReader(
        path: readPath, recordElement: recordElement, limits: options.limits, prefixes: probe.prefixes),
      let record = try? reader.next(),
      let name = probe.fields(of: record).located[.from], name.contains("/@")
    else { return nil }
    return FileError.overriddenAmountCurrency(
      name: name, carrier: "the amount element's currency attribute", code: code, path: displayPath,
      line: record.line, column: 1)
  }

  /// Pass 2 over an XML document: writes the annotated copy (``XMLAnnotatingWriter``), the records' fields
  /// read again with libxml2's streaming reader.
  static func convertXML(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger)
  {
    if let document = scan.xml?.document {
      return try convertXMLFast(
        scan, document: document, context: context, quotes: quotes, standardOutput: standardOutput)
    }
    // A known document's amounts (``XMLDocumentShape``) name the annotation and the reconciliation.
    var context = context
    if let shaped = scan.xml?.shaped {
      var options = context.options
      options.fieldNames = shaped.fieldNames
      context = context.with(options: options)
    }
    let options = context.options
    let recordElement = scan.xml?.recordElement ?? ""
    let (atomicFile, sink) = try context.openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    let layout = context.annotationLayout
    let writer = XMLAnnotatingWriter(sink: sink, layout: layout)
    var locator = fieldLocator(options, shaped: scan.xml?.shaped)
    // The engine's per-record rule and counts (``GeneralRecordPath``); libxml2's reader hands the records over.
    var general = context.generalPath(scan, quotes: quotes)
    do {
      let reader = try XMLRecordReader(
        path: scan.readPath, recordElement: recordElement, limits: context.options.limits, prefixes: locator.prefixes)
      try writer.write(path: scan.readPath, encoding: reader.encoding, recordElement: recordElement) {
        guard let record = try reader.next() else { throw Self.recordsOutOfStep(scan) }
        let outcome = general.outcome(of: locator.fields(of: record).fields)
        return outcome.cells(decimalMark: options.outputDecimalMark, layout: layout)
      }
      guard try reader.next() == nil else { throw Self.recordsOutOfStep(scan) }
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
    } catch let error as XMLInputError {
      throw FileError(path: scan.displayPath, line: error.line, column: error.column, message: error.message, hint: error.hint)
    } catch let error as FileError {
      throw error
    } catch {
      throw FileError(path: scan.displayPath, message: "\(error)")
    }
    return (general.result.counts, general.result.withoutDate, general.result.ledger)
  }

  /// Whether an XML document is an earlier fxbatch output: its first record ends with an `fx` element.
  static func isAnnotatedXMLOutput(_ path: String, context: FormatContext) -> Bool {
    guard
      let element = try? context.options.recordElement ?? XMLDocumentShape.recognize(path: path)?.recordElement
        ?? XMLRecordReader.detectRecordElement(path: path),
      let reader = try? XMLRecordReader(path: path, recordElement: element, limits: context.options.limits),
      let record = try? reader.next()
    else { return false }
    return record.children.last?.name == XMLFieldLocator.annotationElement
  }

  /// The libxml2 reader and the byte copier disagree on the records (a construct the copier does not know).
  private static func recordsOutOfStep(_ scan: FileScan) -> FileError {
    FileError(
      path: scan.displayPath,
      message: "the <\(scan.xml?.recordElement ?? "")> elements could not be located in the file's bytes; nothing was written")
  }
}
