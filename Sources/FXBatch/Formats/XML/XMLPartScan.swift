/// What pass 1 found in one part of an XML document read by ``XMLSimpleScanner``.
struct XMLPartScan: PartFindings {
  /// The engine's part: the decimal-mark evidence, and under a table provider the span of days to ask it.
  var state: PassOneState
  /// Role → field name, the first record that has the role deciding (``XMLFieldLocator/fields(of:)``).
  var located: [FieldMapping.Role: String] = [:]
  var records = 0
  /// Whether the part's first record's last child is an `fx` element (the document is fxbatch output).
  var firstRecordIsAnnotated = false
  /// The part's first record's field names (an attribute as `@name`), for
  /// ``XMLFormat/unreadField(names:located:options:displayPath:readPath:recordElement:line:)``.
  var firstRecordFields: [String] = []
  var document: XMLScannedDocument? = nil
  /// The file offset of the part's first record.
  var firstRecord: Int? = nil
  /// With several amounts, those some record has a field of (``XMLRecordShapes/amountFields(_:of:shape:in:)``).
  var amountsLocated = Set<Int>()
  /// Whether a record without a from-currency of its own has one in a later amount's money element (the general
  /// path then reads the document: it names that field).
  var fromInLaterAmount = false

  /// Whether the fast pass read what the general pass 1 would: some record has each amount's field, and no
  /// record's from-currency comes from a later amount alone. Otherwise the general path reads the document (and
  /// reports an amount no record has).
  /// - Parameter count: how many amounts (``XMLRecordShapes/amountCount``; 0 for one).
  func readAmounts(count: Int) -> Bool {
    amountsLocated.count == count && !fromInLaterAmount
  }

  /// With several amounts, notes which amounts a record has, and their decimal-mark evidence (the first amount's
  /// is the caller's); `hasFrom`: whether the record has a from-currency field.
  @inline(never)
  mutating func addAmounts(
    of record: XMLScannedRecord, shape: Int, shapes: XMLRecordShapes, bytes: ByteView, hasFrom: Bool, inferMark: Bool
  ) {
    for index in 0..<shapes.amountCount {
      let own = shapes.amountFields(index, of: record, shape: shape, in: bytes)
      if !hasFrom, own.from != nil { fromInLaterAmount = true }
      guard let field = own.amount else { continue }
      amountsLocated.insert(index)
      guard inferMark, index > 0 else { continue }
      let raw = XMLFastRecordReader.trimmed(field, bytes)
      if raw.firstIndex(of: UInt8(ascii: "<")) == nil, let evidence = FieldKeyDecoder.evidence(raw) {
        state.inference.add(evidence)
      } else {
        state.inference.add(XMLSimpleScanner.decodedText(field, in: bytes).trimmingWhitespace)
      }
    }
  }

  /// Adds a later part's findings (earlier roles win).
  mutating func add(_ later: XMLPartScan) {
    located.merge(later.located) { earlier, _ in earlier }
    records += later.records
    state.add(later.state)
    amountsLocated.formUnion(later.amountsLocated)
    fromInLaterAmount = fromInLaterAmount || later.fromInLaterAmount
  }
}
