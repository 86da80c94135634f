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

  /// Adds a later part's findings (earlier roles win).
  mutating func add(_ later: XMLPartScan) {
    located.merge(later.located) { earlier, _ in earlier }
    records += later.records
    state.add(later.state)
  }
}
