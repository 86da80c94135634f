/// The general path of the two passes over JSON records, the same for every ``JSONRecordFormat`` (JSON documents,
/// JSON Lines files): each format takes its byte-level path first where it can, and hands the rest here.
enum JSONRecords {
  /// The locator of JSON record fields for a run's options.
  static func fieldLocator(_ options: BatchOptions) -> JSONFieldLocator {
    var locator = JSONFieldLocator(
      names: options.fieldNames, fixedFrom: options.fixedFrom != nil, fixedTo: options.fixedTo != nil)
    locator.requiredMember = options.requiredMember
    return locator
  }

  /// Pass 1 over a JSON document or a JSON Lines file: checks it, finds the decimal mark of its text amounts,
  /// and collects the distinct rate keys.
  ///
  /// - Throws: ``FileError`` for a malformed document, a file that is already fxbatch output (its first record
  ///   ends with the annotation members), or records of which none has an amount (or a currency) field.
  static func scanFile(
    _ format: any JSONRecordFormat.Type, displayPath: String, readPath: String, outputPath: String?,
    context: FormatContext
  ) throws(FileError) -> (FileScan, Set<RateKey>) {
    try checkPaths(context.options, displayPath: displayPath)
    let options = context.options
    // Under a local table, keys are answered as records come (no per-key memory).
    var found = JSONRecordPassOne(
      displayPath: displayPath, normalizer: context.recordNormalizer, locator: fieldLocator(options),
      checkMark: options.decimalMark == nil, looksForFirstObject: true,
      span: context.hasConvertingTable ? nil : KeySpan())
    try read(format, displayPath: displayPath, readPath: readPath, options: options, copy: { _ in }) {
      record in
      try found.scan(record: record)
      return true
    }
    let fileScan = try scan(
      format, found: found, displayPath: displayPath, readPath: readPath, outputPath: outputPath,
      normalizer: context.recordNormalizer, options: options)
    return (fileScan, found.span?.keys.allKeys ?? [])
  }

  /// The scan of a JSON Lines file or a JSON document from what the byte-level pass 1 found in its records.
  ///
  /// - Throws: ``FileError`` when no record has an amount (or a currency) field, as
  ///   ``scanFile(_:displayPath:readPath:outputPath:context:)`` says it.
  static func scan(
    _ format: any JSONRecordFormat.Type, found: JSONRecordPassOne, displayPath: String, readPath: String,
    outputPath: String?, normalizer: RecordNormalizer, options: BatchOptions
  ) throws(FileError) -> FileScan {
    let locator = fieldLocator(options)
    let located = found.located
    if let (record, names) = found.firstObject,
      let role = locator.roles.first(where: { role in
        // A record without a from-currency field may name it in its amount (`USD 12.50`): a per-record rule.
        role != .date && (role != .from || options.fieldNames.from != nil) && located[role] == nil
      })
    {
      throw missingField(role, locator: locator, record: record, names: names, displayPath: displayPath)
    }
    if let (record, names) = found.firstObject,
      let missing = options.fieldNames.amounts.indices.first(where: { !found.amountsFound.contains($0) })
    {
      throw FileError.missingField(
        .amount, path: displayPath, line: record.line, column: record.column, names: names, nameKind: "members",
        given: options.fieldNames.amounts[missing].path)
    }
    try checkUnreadFields(
      format, firstObject: found.firstObject?.record, located: located, options: options, displayPath: displayPath,
      readPath: readPath)
    // JSON numbers always have a decimal point; only text amounts ("1.234,50") say anything about the mark.
    let (decimalMark, basis) =
      options.decimalMark.map { ($0, nil) } ?? found.inference.decide(delimiter: UInt8(ascii: ","))
    return FileScan(
      displayPath: displayPath, readPath: readPath, outputPath: outputPath, format: format.format,
      decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
      normalizer: normalizer, fields: Dictionary(uniqueKeysWithValues: located.map { ($0.key.rawValue, $0.value) }))
  }

  /// The fast pass of pass 2 over JSON records (a JSON Lines file's lines, a JSON document's array elements),
  /// when the run converts from a table (or answered quotes) whose texts the annotation members can hold
  /// unescaped, with `.` output decimal marks.
  static func fastPass(_ scan: FileScan, context: FormatContext, quotes: QuoteBook) -> JSONRecordLoop? {
    context.fastLoop(scan, quotes: quotes, template: template(context)) {
      JSONFastRecordReader(
        decoder: JSONFieldDecoder(locator: fieldLocator(context.options)), decimalMark: scan.decimalMark?.byte,
        layout: context.annotationLayout)
    }
  }

  /// The converter of the fast pass over JSON records (``FormatContext/fastConverter(quotes:template:)``): a
  /// table (or pass 2's answered quotes) whose texts the annotation members can hold unescaped, with `.` output
  /// decimal marks; `nil` when the run has none.
  ///
  /// - Parameter quotes: pass 2's answers; `nil` in pass 1.
  static func converter(_ context: FormatContext, quotes: QuoteBook?) -> TableConverter? {
    context.fastConverter(quotes: quotes, template: template(context))
  }

  /// The annotation members' template; `nil` when several amounts' NAMEs are not written as they are in the
  /// members' names (``AnnotationTemplate/namesArePlain(_:)``).
  private static func template(_ context: FormatContext) -> AnnotationTemplate? {
    AnnotationTemplate.jsonMembers(layout: context.annotationLayout)
  }

  /// The file error of a role no record has a field for (``FileError/missingField``); for a path, one that names
  /// the path and says where the first record object's path ends.
  static func missingField(
    _ role: FieldMapping.Role, locator: JSONFieldLocator, record: JSONRecordText, names: [String], displayPath: String
  ) -> FileError {
    guard let path = locator.paths[role], case .success(let members) = record.members() else {
      return FileError.missingField(
        role, path: displayPath, line: record.line, column: record.column, names: names, nameKind: "members",
        given: locator.names.name(of: role))
    }
    let shown = names.prefix(12).map(RowError.quoted).joined(separator: ", ") + (names.count > 12 ? ", …" : "")
    let first = locator.problem(of: role, in: members).map { "; the first record: \($0.message)" } ?? ""
    return FileError(
      path: displayPath, line: record.line, column: record.column,
      message:
        "\(role.optionName) \(RowError.quoted(path.written)): no record has such a field (the first record's members:"
        + " \(shown))\(first)")
  }

  /// Refuses field paths with an empty step (`.amount`, `a..b`, `a.`): a path is member names joined by `.`.
  static func checkPaths(_ options: BatchOptions, displayPath: String) throws(FileError) {
    let locator = fieldLocator(options)
    let amountPaths = locator.amountLocators.compactMap { $0.paths[.amount] }.map { (FieldMapping.Role.amount, $0) }
    for (role, path) in FieldMapping.Role.allCases.compactMap({ role in locator.paths[role].map { (role, $0) } }) + amountPaths {
      guard path.steps.contains(where: \.isEmpty) else { continue }
      throw FileError(
        path: displayPath,
        message: "\(role.optionName) \(RowError.quoted(path.written)): a path has an empty step",
        hint: "write member names joined by single dots, without a leading dot (total_price_set.shop_money.amount)")
    }
  }

  /// Refuses a file whose fields the run would pass over
  /// (``FileError/unreadField(names:located:options:path:line:column:nameKind:samples:)``), judged on the first
  /// record object's members, every record's located fields, and when a check needs them, the first non-empty
  /// values of the members not read (``FieldSamples``, read again by the general reader).
  static func checkUnreadFields(
    _ format: any JSONRecordFormat.Type, firstObject: JSONRecordText?, located: [FieldMapping.Role: String],
    options: BatchOptions, displayPath: String, readPath: String
  ) throws(FileError) {
    guard let record = firstObject, case .success(let members) = record.members() else { return }
    // A money object's currency is a from-currency field, as a currency member is (``FileError/unreadField``).
    if let code = options.fixedFrom, !options.overrideCurrencyFields,
      let name = fieldLocator(options).overriddenMoneyCurrency(in: members)
    {
      throw FileError.overriddenAmountCurrency(
        name: name, carrier: "the amount is a money object", code: code, path: displayPath, line: record.line,
        column: record.column)
    }
    let error = FileError.unreadField(
      names: members.map(\.key), located: located, options: options, path: displayPath, line: record.line,
      column: record.column, nameKind: "members"
    ) { taken in
      var samples = FieldSamples(skipping: taken)
      let locator = fieldLocator(options)
      try? format.forEachRecord(path: readPath, options: options, copy: { _ in }) { record in
        if case .success(let members) = record.members() {
          // A member holding the record's from-currency (Shopify's "currency" beside its money objects'
          // "currency_code") is not another currency the run would pass over, as in XML.
          var from: String? = nil
          if case .text(let text) = locator.fields(of: members).fields.from { from = text.trimmingWhitespace.uppercased() }
          // The from-currency member found by its name beside a money object is read too: the record is
          // `invalid_record` when it disagrees with the money object's currency, never a to-currency passed over.
          let flatFrom = locator.layout(of: members.map(\.key)).index[.from].map { members[$0].key }
          samples.add(
            members.lazy.map { member in
              let text = member.value.stringValue
              if member.key == flatFrom { return (member.key, nil) }
              return (member.key, from != nil && text?.trimmingWhitespace.uppercased() == from ? nil : text)
            })
        }
        return !samples.isComplete
      }
      return samples
    }
    if let error { throw error }
  }

  /// Pass 2 over a JSON document or a JSON Lines file: writes the annotated copy.
  static func convertFile(
    _ format: any JSONRecordFormat.Type, scan: FileScan, context: FormatContext, quotes: QuoteBook,
    standardOutput: Int32
  ) throws(FileError) -> (RunReport.Counts, Int, ReconciliationLedger) {
    let options = context.options
    let (atomicFile, sink) = try context.openOutput(scan, standardOutput: standardOutput)
    defer { atomicFile?.discard() }
    let writer = JSONAnnotatingWriter(sink: sink, layout: context.annotationLayout)
    let locator = fieldLocator(options)
    // The engine's per-record rule and counts (``GeneralRecordPath``); the JSON reader hands the records over.
    var general = context.generalPath(scan, quotes: quotes)
    try read(format, displayPath: scan.displayPath, readPath: scan.readPath, options: options, copy: writer.copy) {
      record in
      let (fields, _, extendable) = locator.fields(of: record)
      let outcome = general.outcome(of: fields)
      try writer.write(
        record, cells: outcome.cells(decimalMark: options.outputDecimalMark, layout: writer.layout), extend: extendable)
      return true
    }
    do {
      if let atomicFile { try atomicFile.commit() } else { try sink.flush() }
    } catch {
      throw FileError(path: scan.displayPath, message: error.description)
    }
    return (general.result.counts, general.result.withoutDate, general.result.ledger)
  }

  /// Whether a JSON document or JSON Lines file is an earlier fxbatch output: its first record object ends
  /// with the annotation members.
  static func isAnnotatedOutput(_ format: any JSONRecordFormat.Type, path: String, context: FormatContext) -> Bool {
    var annotated = false
    try? format.forEachRecord(path: path, options: context.options, copy: { _ in }) { record in
      guard case .success(let members) = record.members() else { return true }
      annotated =
        AnnotationColumn.endAnnotated(members.map(\.key))
      return false
    }
    return annotated
  }

  /// Reads a JSON file's records, turning every failure into a ``FileError`` located in the file.
  private static func read(
    _ format: any JSONRecordFormat.Type, displayPath: String, readPath: String, options: BatchOptions,
    copy: @escaping ([UInt8]) throws -> Void,
    record: @escaping (JSONRecordText) throws -> Bool
  ) throws(FileError) {
    do {
      try format.forEachRecord(path: readPath, options: options, copy: copy, record: record)
    } catch let error as FileError {
      throw error
    } catch let error as JSONParseError {
      throw FileError(path: displayPath, line: error.line, column: error.column, message: error.message)
    } catch {
      throw FileError(path: displayPath, message: "\(error)")
    }
  }
}
