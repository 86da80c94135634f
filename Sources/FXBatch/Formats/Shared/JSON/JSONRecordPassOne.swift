/// What pass 1 learns from JSON records (the lines of a JSON Lines file, the elements of a JSON document's
/// records array, or of a part of either) under a local table: the first
/// record object (to refuse an already annotated file, and to name the members in a missing-field error), the
/// fields located, and the decimal-mark evidence of text amounts.
///
/// A record the byte-level reader follows (``FlatJSONObject``, ``JSONFieldValues``) of a usable shape is read
/// from its bytes, its shape's fields merged once (the amount's per record until found: a money object names it);
/// any other record, and every record until the first record object, is read by the general rules of
/// ``JSONRecords/scanFile(_:displayPath:readPath:outputPath:context:)``.
struct JSONRecordPassOne {
  let displayPath: String
  let locator: JSONFieldLocator
  /// Whether the decimal mark is inferred (no `--decimal-separator`).
  let checkMark: Bool
  /// Whether this reads the file's first part, where the first record object is looked for; a later part
  /// assumes it was found there (the caller checks).
  let looksForFirstObject: Bool
  private var decoder: JSONFieldDecoder
  private var object = FlatJSONObject()
  /// Scratch for the objects a field path steps into.
  private var inner = FlatJSONObject()
  /// Whether the amount (and a from-currency a money object may give) are located: their names depend on the
  /// records' values, so they are looked at per record until then.
  private var valueDependentLocated = false
  /// The engine's part: the decimal-mark evidence, and under a table provider the span of days to ask it
  /// (every record's key).
  private(set) var state: PassOneState
  var inference: DecimalMarkInference { state.inference }
  var span: KeySpan? { state.span }
  /// Role → member name, the first record that has a role's field naming it.
  private(set) var located: [FieldMapping.Role: String] = [:]
  private var mergedShapes: [Bool] = []
  /// The first record that is an object, and its member names.
  private(set) var firstObject: (record: JSONRecordText, keys: [String])? = nil
  /// Which of several amounts (``RecordFields/amounts``) some record has.
  private(set) var amountsFound = Set<Int>()

  init(
    displayPath: String, normalizer: RecordNormalizer, locator: JSONFieldLocator, checkMark: Bool, looksForFirstObject: Bool,
    span: KeySpan? = nil
  ) {
    self.displayPath = displayPath
    self.locator = locator
    self.checkMark = checkMark
    self.looksForFirstObject = looksForFirstObject
    decoder = JSONFieldDecoder(locator: locator)
    state = PassOneState(normalizer: normalizer, span: span)
  }

  /// Reads one record: a JSON Lines line's content, or an element of a JSON document's records array.
  ///
  /// - Parameters:
  ///   - content: the record's bytes.
  ///   - line: the 1-based line of its first byte.
  ///   - column: the 1-based byte column of its first byte.
  /// - Throws: ``FileError`` when the first record object ends with the annotation members.
  mutating func scan(record content: ByteView, line: Int, column: Int) throws(FileError) {
    if !looksForFirstObject || firstObject != nil, object.scan(content),
      let (index, shape) = decoder.shape(of: object, in: content),
      let fields = JSONFieldValues.find(in: object, shape: shape, bytes: content, locator: locator, inner: &inner),
      locator.amountLocators.isEmpty || severalAmountsArePlain(fields, shape: shape)
    {
      if !locator.amountLocators.isEmpty {
        // Every amount found (``severalAmountsArePlain(_:shape:)``); a text amount after the first says
        // something about the mark, as the general rules read it (the first one's below).
        amountsFound.formUnion(locator.amountLocators.indices)
        for more in 0..<shape.moreAmountCount where checkMark && object.kind(shape.moreAmount(more)) == .string {
          let text = object.value(shape.moreAmount(more), in: content)
          state.inference.add(FieldKeyDecoder.evidence(text) ?? DecimalMarkInference.evidence(text.text))
        }
      }
      if index >= mergedShapes.count { mergedShapes += repeatElement(false, count: index + 1 - mergedShapes.count) }
      if !mergedShapes[index] {
        mergedShapes[index] = true
        merge(fields.locatedNames(valueDependent: false, object: object, shape: shape, bytes: content, locator: locator))
      }
      if !valueDependentLocated {
        merge(fields.locatedNames(valueDependent: true, object: object, shape: shape, bytes: content, locator: locator))
        valueDependentLocated = located[.amount] != nil && (!locator.fromOfMoneyObject || located[.from] != nil)
      }
      if checkMark, let amount = fields.amount, amount.kind == .string {
        let text = JSONFieldValues.value(amount, in: content)
        state.inference.add(FieldKeyDecoder.evidence(text) ?? DecimalMarkInference.evidence(text.text))
      }
      if state.infersDates, let date = fields.date {
        if date.kind == .string {
          let value = JSONFieldValues.value(date, in: content)
          state.addDateEvidence(decoded: { $0.dateEvidence(value) }) { _ in nil }
        } else if date.kind == .escapedString {
          let locator = self.locator
          state.addDateEvidence(decoded: { _ in nil }) { _ in
            let record = JSONRecordText(bytes: content.array, line: line, column: column)
            guard case .text(let text) = locator.fields(of: record).0.date else { return nil }
            return text
          }
        }
      }
      if state.readsKeys {
        let locator = self.locator
        state.addKey(decoded: { $0.key(of: fields, in: content) }) { normalizer in
          let (fields, _, _) = locator.fields(of: JSONRecordText(bytes: content.array, line: line, column: column))
          guard case .success(let found) = normalizer.rateKey(of: fields) else { return nil }
          return found.key
        }
      }
      return
    }
    try scan(record: JSONRecordText(bytes: content.array, line: line, column: column))
  }

  /// Whether a record's several amounts (`--amount-field A,B,C`) can be read from its bytes: each a member of
  /// the record's own (the first one as its shape finds it, not a money object), a number or a string without
  /// escapes. Any other record is read by the general rules.
  private func severalAmountsArePlain(_ fields: JSONFieldValues, shape: JSONMemberShape) -> Bool {
    func plain(_ kind: FlatJSONObject.Kind) -> Bool { kind == .number || kind == .string }
    guard shape.moreAmountCount == locator.amountLocators.count - 1, fields.moneyAmountName < 0,
      let amount = fields.amount, plain(amount.kind)
    else { return false }
    return (0..<shape.moreAmountCount).allSatisfy { plain(object.kind(shape.moreAmount($0))) }
  }

  /// Reads one record by the general rules: every record of
  /// ``JSONRecords/scanFile(_:displayPath:readPath:outputPath:context:)``, and those the byte-level reader does
  /// not follow.
  ///
  /// - Throws: ``FileError`` when the first record object ends with the annotation members.
  mutating func scan(record: JSONRecordText) throws(FileError) {
    if looksForFirstObject, firstObject == nil, case .success(let members) = record.members() {
      let names = members.map(\.key)
      firstObject = (record, names)
      if AnnotationColumn.endAnnotated(names) {
        throw FileError.alreadyAnnotated(
          path: displayPath, line: record.line, column: record.column,
          evidence: "its records end with the fx_* members")
      }
    }
    let (fields, found, _) = locator.fields(of: record)
    located.merge(found) { earlier, _ in earlier }
    if checkMark, case .text(let text) = fields.amount { state.inference.add(text) }
    if state.infersDates, case .text(let text) = fields.date { state.dates.add(text) }
    for (index, amount) in fields.amounts.enumerated() where amount.amount != .absent {
      amountsFound.insert(index)
      if checkMark, index > 0, case .text(let text) = amount.amount { state.inference.add(text) }
    }
    if state.readsKeys {
      state.addKey(decoded: { _ in nil }) { normalizer in
        guard case .success(let found) = normalizer.rateKey(of: fields) else { return nil }
        return found.key
      }
    }
  }

  /// Adds located names, the earlier kept.
  private mutating func merge(_ names: [(FieldMapping.Role, String)]) {
    for (role, name) in names where located[role] == nil { located[role] = name }
  }

  /// The file's date format once every part is added up (``PassOneState/settleDates()``).
  mutating func settleDates() -> DateFormat { state.settleDates() }

  /// Adds what a later part of the file found.
  mutating func add(_ later: JSONRecordPassOne) {
    located.merge(later.located) { earlier, _ in earlier }
    amountsFound.formUnion(later.amountsFound)
    state.add(later.state)
  }
}
