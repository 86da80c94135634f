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
    /// A child's index in ``elements`` (`-1` for an attribute).
    var element = -1
  }

  /// An element of the record (the record element, then its descendants in document order): where its name and
  /// text are, for field paths (``XMLScannedPathTree``). Indices are kept in 32 bits (a record is at most
  /// ``XMLSimpleScanner/maximumItemSize`` bytes of a buffer of that size): one is stored per element of every
  /// record.
  struct Element {
    private let storedNameStart: Int32
    private let storedColon: Int32
    private let storedNameEnd: Int32
    private let storedParent: Int32
    private let storedValueStart: Int32
    private var storedValueEnd: Int32
    private let attributeStart: Int32
    private let attributeEnd: Int32
    /// Whether its text holds a carriage return (normalized when read).
    var needsDecoding = false
    /// Whether it has child elements (not set for the record element).
    var hasElements = false

    init(nameStart: Int, colon: Int, nameEnd: Int, parent: Int, valueStart: Int, valueEnd: Int, attributes: Range<Int>) {
      storedNameStart = Int32(truncatingIfNeeded: nameStart)
      storedColon = Int32(truncatingIfNeeded: colon)
      storedNameEnd = Int32(truncatingIfNeeded: nameEnd)
      storedParent = Int32(truncatingIfNeeded: parent)
      storedValueStart = Int32(truncatingIfNeeded: valueStart)
      storedValueEnd = Int32(truncatingIfNeeded: valueEnd)
      attributeStart = Int32(truncatingIfNeeded: attributes.lowerBound)
      attributeEnd = Int32(truncatingIfNeeded: attributes.upperBound)
    }

    var nameStart: Int { Int(storedNameStart) }
    /// The `:` of a prefixed name, `-1` without a prefix.
    var colon: Int { Int(storedColon) }
    var nameEnd: Int { Int(storedNameEnd) }
    /// The parent's index (`-1` for the record element).
    var parent: Int { Int(storedParent) }
    /// Its content: from after its start tag to its end tag's `<` (an empty element: empty).
    var valueStart: Int { Int(storedValueStart) }
    var valueEnd: Int {
      get { Int(storedValueEnd) }
      set { storedValueEnd = Int32(truncatingIfNeeded: newValue) }
    }
    /// Its attributes in ``XMLScannedRecord/attributes``.
    var attributes: Range<Int> { Int(attributeStart)..<Int(attributeEnd) }
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
  /// The elements (``Element``), and the attributes of every element (the record element's first).
  private(set) var elements: ScratchList<Element>
  private(set) var attributes: ScratchList<Field>

  /// - Parameters:
  ///   - fields: an empty list with room for ``XMLSimpleScanner/maximumFields`` fields.
  ///   - elements, attributes: empty lists with room for ``XMLSimpleScanner/maximumElements`` each.
  init(fields: ScratchList<Field>, elements: ScratchList<Element>, attributes: ScratchList<Field>) {
    self.fields = fields
    self.elements = elements
    self.attributes = attributes
  }

  /// Adds an element (the caller checks there is room).
  @inline(__always)
  mutating func appendElement(_ element: Element) { elements.append(element) }

  /// Adds an attribute of the element being read (the caller checks there is room).
  @inline(__always)
  mutating func appendAttribute(_ attribute: Field) { attributes.append(attribute) }

  /// Adds a field (the caller checks there is room).
  @inline(__always)
  mutating func append(_ field: Field) { fields.append(field) }

  mutating func reset(start: Int) {
    self.start = start
    isEmptyElement = false
    lastChildStart = -1
    lastChildTextStart = -1
    fields.removeAll()
    elements.removeAll()
    attributes.removeAll()
    attributeCount = 0
  }
}
