/// Where one record element's pieces are in ``XMLSimpleScanner``'s buffer: byte indices into
/// ``XMLSimpleScanner/bytes``, valid until the scanner's next item.
///
/// Fields are the record's attributes (in document order) and then its child elements (in document order),
/// as ``XMLRecord`` lists them; a field's value is its raw bytes (an attribute value between its quotes, or a
/// child's text between its tags), to be decoded with ``XMLSimpleScanner/decodedText(_:in:)`` when
/// ``Field/needsDecoding``.
struct XMLScannedRecord {
  struct Field {
    let nameStart: Int
    let nameEnd: Int
    let valueStart: Int
    let valueEnd: Int
    /// Whether the value holds bytes XML normalizes when read (a carriage return; in an attribute value also a
    /// tab or line feed), so its raw bytes are not its value.
    let needsDecoding: Bool
    let isAttribute: Bool
  }

  /// The `<` of the record's start tag.
  var start = 0
  /// Just after the `>` of its end tag (or of its empty-element tag).
  var end = 0
  /// Whether it is an empty-element tag (`<payment id="1"/>`); then ``slash`` is the index of its `/`.
  var isEmptyElement = false
  var slash = 0
  /// The `<` of the end tag, and where the text before it starts (just after the last markup before it).
  var endTagStart = 0
  var textBeforeEndTag = 0
  /// The `<` of the last child's start tag and where the text before it starts; `-1` without children.
  var lastChildStart = -1
  var lastChildTextStart = -1
  /// The fields: attributes first, then children; in memory the scanner owns (not an array: copying a record
  /// then costs nothing).
  private(set) var fields: ScratchList<Field>
  var fieldCount: Int { fields.count }
  var attributeCount = 0

  /// - Parameter fields: an empty list with room for ``XMLSimpleScanner/maximumFields`` fields.
  init(fields: ScratchList<Field>) { self.fields = fields }

  /// Adds a field (the caller checks there is room).
  @inline(__always)
  mutating func append(_ field: Field) { fields.append(field) }

  mutating func reset(start: Int) {
    self.start = start
    isEmptyElement = false
    lastChildStart = -1
    lastChildTextStart = -1
    fields.removeAll()
    attributeCount = 0
  }
}
