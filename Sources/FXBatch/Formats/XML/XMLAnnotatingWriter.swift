/// Writes the annotated copy of an XML document: every byte as read, each record element gaining an `fx`
/// child element whose attributes carry the annotations (`rate`, `converted`, `currency`, `rate-date`,
/// `source`, `status`, `error`), inserted just before the record's end tag — after the last child's line, with
/// its indentation, when the record is laid out one child per line. An empty record element (`<p a="1"/>`)
/// becomes `<p a="1"><fx …/></p>`.
///
/// Namespaces, comments, processing instructions, attribute order, quoting and character references are
/// untouched because they are copied, not re-serialized. The tags are found in the document's own code units
/// (bytes, or UTF-16 units), so the document may be in any encoding ``XMLDocumentEncoding`` accepts; what is
/// inserted is made by libxml2's writer in that encoding (``XMLElementEncoder``). The file is read through a
/// sliding window, so memory does not grow with its size.
public struct XMLAnnotatingWriter {
  private let sink: ByteSink
  /// The `fx` element's attribute names (``AnnotationLayout/xmlAttributeNames``): `converted-NAME` per amount
  /// with several amounts.
  private let attributeNames: [String]

  public init(sink: ByteSink, layout: AnnotationLayout = .single) {
    self.sink = sink
    attributeNames = layout.xmlAttributeNames
  }

  /// The `fx` element's attribute names, in ``AnnotationColumn`` order.
  static let attributeNames = AnnotationLayout.single.xmlAttributeNames

  private static func unit(_ character: Unicode.Scalar) -> UInt16 { UInt16(character.value) }
  private static let lessThan = unit("<")
  private static let greaterThan = unit(">")
  private static let slash = unit("/")
  private static let lineFeed = unit("\n")
  private static let commentStart = Array("<!--".utf16)
  private static let commentEnd = Array("-->".utf16)
  private static let cdataStart = Array("<![CDATA[".utf16)
  private static let cdataEnd = Array("]]>".utf16)
  private static let instructionStart = Array("<?".utf16)
  private static let instructionEnd = Array("?>".utf16)
  private static let declarationStart = Array("<!".utf16)
  private static let endTagStart = Array("</".utf16)

  /// Copies a document, asking for each record element's annotation in document order.
  ///
  /// - Parameters:
  ///   - path: the document's file.
  ///   - encoding: its encoding (``XMLDocumentEncoding/detect(_:)``).
  ///   - recordElement: the qualified name of the record elements; only the outermost ones are records.
  ///   - windowCapacity: the size in bytes of the window the file is read through (tests make it small); copied
  ///     bytes are written out once a quarter of it has gathered.
  ///   - annotation: the annotation values of the next record, in ``AnnotationColumn`` order.
  /// - Returns: the number of records seen.
  /// - Throws: ``XMLInputError`` when the file cannot be read, ``OutputError`` when the copy cannot be written,
  ///   and what `annotation` throws.
  @discardableResult
  public func write(
    path: String, encoding: XMLDocumentEncoding, recordElement: String, windowCapacity: Int = 1 << 20,
    annotation: () throws -> [String]
  ) throws -> Int {
    let window = try XMLByteWindow(path: path, form: encoding.form, capacity: windowCapacity)
    let encoder = try XMLElementEncoder(encoding: encoding.name)
    let width = encoding.form.codeUnitWidth
    let name = Self.codeUnits(try encoder.encoded(recordElement), form: encoding.form)
    var emitted = 0  // the bytes before this offset are written
    var position = encoding.byteOrderMarkLength
    var depth = 0
    var recordDepth: Int? = nil
    var lastChildIndent: [UInt8]? = nil
    var records = 0

    func emit(upTo end: Int) throws {
      guard end > emitted else { return }
      try window.withBytes(emitted..<end) { try sink.write($0) }
      emitted = end
      window.release(before: end)
    }
    /// Skips the bytes up to `end`: they are replaced.
    func skip(to end: Int) {
      emitted = end
      window.release(before: end)
    }
    func starts(_ pattern: [UInt16], at offset: Int) throws -> Bool {
      for (index, unit) in pattern.enumerated() where try window.unit(at: offset + index * width) != unit { return false }
      return true
    }
    /// The offset just after the first `pattern` at or after `offset`, or `nil` when the document ends first.
    func offsetAfter(_ pattern: [UInt16], from offset: Int) throws -> Int? {
      var offset = offset
      while let found = try window.firstOffset(of: pattern[0], from: offset) {
        if try starts(pattern, at: found) { return found + pattern.count * width }
        offset = found + width
      }
      return nil
    }
    func isSpace(_ unit: UInt16) -> Bool { unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D }
    /// Whether the text `range` is only white space holding a line end: the indentation of a child's line.
    func isIndentation(_ range: Range<Int>) throws -> Bool {
      var hasLineEnd = false
      for offset in stride(from: range.lowerBound, to: range.upperBound, by: width) {
        guard let unit = try window.unit(at: offset), isSpace(unit) else { return false }
        if unit == Self.lineFeed { hasLineEnd = true }
      }
      return hasLineEnd
    }
    func isTagName(at offset: Int) throws -> Bool {
      guard try starts(name, at: offset) else { return false }
      guard let next = try window.unit(at: offset + name.count * width) else { return true }
      return isSpace(next) || next == Self.greaterThan || next == Self.slash
    }
    func insertAnnotation() throws {
      records += 1
      let values = try annotation()
      try encoder.writeEmptyElement(XMLFieldLocator.annotationElement, attributes: zip(attributeNames, values)) {
        try sink.write($0)
      }
    }

    while let lessThan = try window.firstOffset(of: Self.lessThan, from: position) {
      // What lies before `position` is copied as it is: write it out before it piles up in the window.
      if position - emitted >= windowCapacity / 4 { try emit(upTo: position) }
      let text = position..<lessThan
      let end: Int
      if try starts(Self.commentStart, at: lessThan) {
        guard let found = try offsetAfter(Self.commentEnd, from: lessThan + 4 * width) else { break }
        end = found
      } else if try starts(Self.cdataStart, at: lessThan) {
        guard let found = try offsetAfter(Self.cdataEnd, from: lessThan + 9 * width) else { break }
        end = found
      } else if try starts(Self.instructionStart, at: lessThan) {
        guard let found = try offsetAfter(Self.instructionEnd, from: lessThan + 2 * width) else { break }
        end = found
      } else if try starts(Self.declarationStart, at: lessThan) {
        guard let found = try window.firstOffset(of: Self.greaterThan, from: lessThan + 2 * width) else { break }
        end = found + width
      } else if try starts(Self.endTagStart, at: lessThan) {
        guard let found = try window.firstOffset(of: Self.greaterThan, from: lessThan + 2 * width) else { break }
        end = found + width
        if let level = recordDepth, level == depth {
          if let indent = lastChildIndent, try isIndentation(text) {
            try emit(upTo: text.lowerBound)
            try sink.write(indent)
          } else {
            try emit(upTo: lessThan)
          }
          try insertAnnotation()
          try emit(upTo: end)
          recordDepth = nil
        }
        depth -= 1
      } else {
        // A start tag: `>` may appear inside quoted attribute values.
        var index = lessThan + width
        var quote: UInt16? = nil
        var previous: UInt16 = 0
        while let unit = try window.unit(at: index) {
          if let open = quote {
            if unit == open { quote = nil }
          } else if unit == 0x22 || unit == 0x27 {
            quote = unit
          } else if unit == Self.greaterThan {
            break
          }
          previous = unit
          index += width
        }
        guard try window.unit(at: index) != nil else { break }
        end = index + width
        let empty = previous == Self.slash
        depth += 1
        if recordDepth == nil, try isTagName(at: lessThan + width) {
          if empty {
            try emit(upTo: index - width)
            try encoder.writeRaw(">") { try sink.write($0) }
            try insertAnnotation()
            try encoder.writeRaw("</\(recordElement)>") { try sink.write($0) }
            skip(to: end)
          } else {
            recordDepth = depth
            lastChildIndent = nil
          }
        } else if let level = recordDepth, depth == level + 1 {
          lastChildIndent = try isIndentation(text) ? window.withBytes(text) { Array($0.buffer) } : nil
        }
        if empty { depth -= 1 }
      }
      position = end
    }
    try emit(upTo: position)
    try window.drain(from: emitted) { try sink.write($0) }
    return records
  }

  /// The code units of encoded text.
  private static func codeUnits(_ bytes: [UInt8], form: XMLDocumentEncoding.Form) -> [UInt16] {
    switch form {
    case .asciiCompatible: return bytes.map(UInt16.init)
    case .utf16LittleEndian:
      return stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
    case .utf16BigEndian:
      return stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
    }
  }
}
