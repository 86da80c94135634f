/// Writes the annotated copy of an XML document: every byte as read, each record element gaining an `fx`
/// child element whose attributes carry the annotations (`rate`, `converted`, `currency`, `rate-date`,
/// `source`, `status`, `error`), inserted just before the record's end tag — after the last child's line, with
/// its indentation, when the record is laid out one child per line. An empty record element (`<p a="1"/>`)
/// becomes `<p a="1"><fx …/></p>`.
///
/// Namespaces, comments, processing instructions, attribute order, quoting and character references are
/// untouched because they are copied, not re-serialized. The document must use an ASCII-compatible encoding
/// (UTF-8, ISO-8859-1, ISO-8859-15): the tags are found in its bytes, and non-ASCII annotation text is written
/// as character references.
public struct XMLAnnotatingWriter {
  private let sink: ByteSink

  public init(sink: ByteSink) { self.sink = sink }

  /// The `fx` element's attribute names, in ``AnnotationColumn`` order.
  static let attributeNames = ["rate", "converted", "currency", "rate-date", "source", "status", "error"]

  /// Copies a document, asking for each record element's annotation in document order.
  ///
  /// - Parameters:
  ///   - document: the whole document (memory-mapped by the caller).
  ///   - recordElement: the qualified name of the record elements; only the outermost ones are records.
  ///   - annotation: the annotation values of the next record, in ``AnnotationColumn`` order.
  /// - Returns: the number of records seen.
  @discardableResult
  public func write(
    _ document: UnsafeRawBufferPointer, recordElement: String, annotation: () throws -> [String]
  ) throws -> Int {
    let bytes = document.bindMemory(to: UInt8.self)
    let name = Array(recordElement.utf8)
    let count = bytes.count
    var copied = 0
    var position = 0
    var depth = 0
    var recordDepth: Int? = nil
    var lastChildIndent: Range<Int>? = nil
    var records = 0

    func find(_ pattern: [UInt8], from start: Int) -> Int {
      var index = start
      while index + pattern.count <= count {
        if bytes[index] == pattern[0], (0..<pattern.count).allSatisfy({ bytes[index + $0] == pattern[$0] }) {
          return index + pattern.count
        }
        index += 1
      }
      return count
    }
    func starts(_ text: String, at index: Int) -> Bool {
      let pattern = Array(text.utf8)
      return index + pattern.count <= count && (0..<pattern.count).allSatisfy { bytes[index + $0] == pattern[$0] }
    }
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    func tagName(at index: Int) -> ArraySlice<UInt8> {
      var end = index
      while end < count, !isSpace(bytes[end]), bytes[end] != UInt8(ascii: ">"), bytes[end] != UInt8(ascii: "/") { end += 1 }
      return ArraySlice(bytes[index..<end])
    }
    func element() throws -> [UInt8] {
      records += 1
      let values = try annotation()
      var text = "<\(XMLFieldLocator.annotationElement)"
      for (attribute, value) in zip(Self.attributeNames, values) { text += " \(attribute)=\"\(Self.escaped(value))\"" }
      return Array((text + "/>").utf8)
    }

    while position < count {
      guard let lessThan = (position..<count).first(where: { bytes[$0] == UInt8(ascii: "<") }) else { break }
      let text = position..<lessThan
      var end: Int
      if starts("<!--", at: lessThan) {
        end = find(Array("-->".utf8), from: lessThan + 4)
      } else if starts("<![CDATA[", at: lessThan) {
        end = find(Array("]]>".utf8), from: lessThan + 9)
      } else if starts("<?", at: lessThan) {
        end = find(Array("?>".utf8), from: lessThan + 2)
      } else if starts("<!", at: lessThan) {
        end = find(Array(">".utf8), from: lessThan + 2)
      } else if starts("</", at: lessThan) {
        end = find(Array(">".utf8), from: lessThan + 2)
        if let level = recordDepth, level == depth {
          let trailing = text
          if let indent = lastChildIndent, bytes[trailing].allSatisfy(isSpace), bytes[trailing].contains(0x0A) {
            try sink.write(UnsafeBufferPointer(rebasing: bytes[copied..<trailing.lowerBound]))
            try sink.write(UnsafeBufferPointer(rebasing: bytes[indent]))
            try sink.write(try element())
            try sink.write(UnsafeBufferPointer(rebasing: bytes[trailing.lowerBound..<end]))
          } else {
            try sink.write(UnsafeBufferPointer(rebasing: bytes[copied..<lessThan]))
            try sink.write(try element())
            try sink.write(UnsafeBufferPointer(rebasing: bytes[lessThan..<end]))
          }
          copied = end
          recordDepth = nil
        }
        depth -= 1
      } else {
        // A start tag: `>` may appear inside quoted attribute values.
        var index = lessThan + 1
        var quote: UInt8? = nil
        while index < count {
          let byte = bytes[index]
          if let open = quote {
            if byte == open { quote = nil }
          } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            quote = byte
          } else if byte == UInt8(ascii: ">") {
            break
          }
          index += 1
        }
        end = min(index + 1, count)
        let empty = index > lessThan && bytes[index - 1] == UInt8(ascii: "/")
        depth += 1
        let tag = tagName(at: lessThan + 1)
        if recordDepth == nil, tag.elementsEqual(name) {
          if empty {
            try sink.write(UnsafeBufferPointer(rebasing: bytes[copied..<(index - 1)]))
            try sink.write(CollectionOfOne(UInt8(ascii: ">")))
            try sink.write(try element())
            try sink.write("</\(recordElement)>")
            copied = end
          } else {
            recordDepth = depth
            lastChildIndent = nil
          }
        } else if let level = recordDepth, depth == level + 1 {
          lastChildIndent = bytes[text].allSatisfy(isSpace) && bytes[text].contains(0x0A) ? text : nil
        }
        if empty { depth -= 1 }
      }
      position = end
    }
    try sink.write(UnsafeBufferPointer(rebasing: bytes[copied..<count]))
    return records
  }

  /// An attribute value: `&`, `<`, `>`, `"` and control characters escaped, and non-ASCII characters written
  /// as character references so that the value is right in any ASCII-compatible document encoding.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\t", "\n", "\r": result += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
      // Other control characters are not allowed in XML 1.0, not even as references.
      case _ where scalar.value < 0x20: result += "&#xFFFD;"
      case _ where scalar.value >= 0x7F:
        result += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
