@preconcurrency import CLibXML2

/// One record element of an XML document, as libxml2's streaming reader decoded it.
public struct XMLRecord: Sendable, Equatable {
  /// The record element's line (1-based).
  public var line: Int
  /// The record element's attributes in document order (namespace declarations left out), values decoded.
  public var attributes: [(name: String, value: String)] = []
  /// The record's child elements in document order, each with its full text: every text node, character
  /// reference and CDATA section inside it, joined.
  public var children: [(name: String, text: String)] = []
  /// The record element (index 0) and its descendants in document order, for field paths (``XMLFieldPath``).
  public var elements: [Element] = []
  /// The index in ``elements`` of each child of ``children``.
  public var childElements: [Int] = []

  /// One element of a record.
  public struct Element: Sendable, Equatable {
    /// The qualified name as written.
    public var name: String
    public var localName: String
    /// The namespace name (URI); `nil` for an element in no namespace.
    public var namespace: String?
    /// The parent's index in ``XMLRecord/elements``; `-1` for the record element.
    public var parent: Int
    public var attributes: [Attribute] = []
    /// Its own text nodes, CDATA sections and character references, joined (the text of an element without
    /// child elements).
    public var text = ""
    public var hasElements = false
    /// The namespace names the run's path prefixes are bound to in scope here (``XMLRecordReader``'s
    /// `prefixes`, in order), `nil` where one is not bound.
    public var bindings: [String?] = []
  }

  /// One attribute of an element (namespace declarations are left out).
  public struct Attribute: Sendable, Equatable {
    public var name: String
    public var localName: String
    /// `nil` for an attribute without a prefix.
    public var namespace: String?
    public var value: String
  }

  /// Equal when line, attributes and children are (``elements`` follow from the document).
  public static func == (left: XMLRecord, right: XMLRecord) -> Bool {
    left.line == right.line && left.attributes.elementsEqual(right.attributes, by: ==)
      && left.children.elementsEqual(right.children, by: ==)
  }
}

/// A malformed or refused XML document, located in the file.
public struct XMLInputError: Error, Equatable, Sendable, CustomStringConvertible {
  public let line: Int
  public let column: Int
  public let message: String
  public let hint: String?

  public init(line: Int, column: Int, message: String, hint: String? = nil) {
    self.line = line
    self.column = column
    self.message = message
    self.hint = hint
  }

  public var description: String { "\(line):\(column): \(message)" }
}

/// Reads the record elements of an XML file one at a time with libxml2's streaming reader
/// (`xmlReaderForFile` / `xmlTextReaderRead`), so memory does not grow with the file.
///
/// Hostile input is refused: no network access (`XML_PARSE_NONET`), no entity substitution (no
/// `XML_PARSE_NOENT`), no DTD loading, and a document with a DTD (`<!DOCTYPE …>`, which is where entities
/// are declared) is an error, so neither an entity bomb nor an external `SYSTEM` entity is ever expanded.
///
/// Records are the outermost elements whose qualified name (`prefix:local` as written) is the record
/// element's name.
public final class XMLRecordReader {
  private let reader: xmlTextReaderPtr
  private let recordElement: String
  private let path: String
  /// How big a record may be: its attributes, descendant elements and bytes of text.
  private let limits: RecordLimits
  /// The prefixes of the run's field paths, whose bindings each element records (``XMLRecord/Element/bindings``).
  private let prefixes: [[xmlChar]]
  /// The document's encoding, as its first bytes and XML declaration say.
  public let encoding: XMLDocumentEncoding

  /// Opens a file.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - recordElement: the name of the record elements.
  ///   - limits: how big a record may be (``next()`` refuses a bigger one); an element with more than
  ///     ``RecordLimits/maxAttributes`` attributes is refused here, before libxml2 reads it
  ///     (``XMLMarkupLimits``).
  /// - Throws: ``XMLInputError`` when the file cannot be opened, is in an encoding fxbatch does not copy, has
  ///   a DTD (located at its `<!DOCTYPE`, and refused before libxml2 reads it) or an element with too many
  ///   attributes.
  ///   - prefixes: the namespace prefixes of the run's field paths (``XMLRecord/Element/bindings``).
  public init(path: String, recordElement: String, limits: RecordLimits = .standard, prefixes: [String] = [])
    throws(XMLInputError)
  {
    let prolog = try XMLProlog.read(path: path)
    try prolog.checkStart(path: path)
    if let position = prolog.documentType { throw XMLProlog.documentTypeRefused(at: position) }
    try XMLMarkupLimits.check(path: path, limits: limits)
    LibXML2.ensureInitialized()
    xmlResetLastError()
    guard let reader = xmlReaderForFile(path, nil, Self.options) else {
      throw XMLInputError(line: 1, column: 1, message: "cannot open the file as XML")
    }
    LibXML2.quiet(reader)
    self.reader = reader
    self.recordElement = recordElement
    self.path = path
    self.limits = limits
    self.prefixes = prefixes.map { Array($0.utf8) + [0] }
    encoding = prolog.encoding
  }

  deinit { xmlFreeTextReader(reader) }

  /// libxml2 parser options: no network, errors reported through ``XMLInputError`` rather than printed.
  static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

  /// The next record, or `nil` at the end of a well-formed document.
  ///
  /// - Throws: ``XMLInputError`` for a malformed document or a DTD, or a record past the ``RecordLimits``
  ///   (more descendant elements than ``RecordLimits/maxChildElements``, more text than
  ///   ``RecordLimits/maxRecordBytes``), checked as it is read.
  public func next() throws(XMLInputError) -> XMLRecord? {
    var record: XMLRecord? = nil
    var recordDepth = 0
    var child: (name: String, text: String)? = nil
    var elements = 0
    var textBytes = 0
    // The open elements' indices in the record's `elements`, the record element first.
    var open: [Int] = []
    while try read() {
      let type = xmlTextReaderNodeType(reader)
      let depth = Int(xmlTextReaderDepth(reader))
      switch type {
      case Int32(XML_READER_TYPE_ELEMENT.rawValue):
        let name = constName()
        let empty = xmlTextReaderIsEmptyElement(reader) == 1
        if record == nil {
          guard name == recordElement else { continue }
          let attributes = elementAttributes()
          record = XMLRecord(line: currentLine(), attributes: attributes.map { ($0.name, $0.value) })
          record?.elements.append(element(name: name, parent: -1, attributes: attributes))
          recordDepth = depth
          if empty { return record }
          open = [0]
        } else {
          elements += 1
          if elements > limits.maxChildElements, let line = record?.line {
            throw XMLInputError(
              line: line, column: 1,
              message: "the record has more than \(limits.maxChildElements) elements; the file is refused so that "
                + "time stays bounded")
          }
          let level = depth - recordDepth
          if open.count > level { open.removeLast(open.count - level) }
          let parent = open[level - 1]
          let index = record?.elements.count ?? 0
          record?.elements[parent].hasElements = true
          record?.elements.append(element(name: name, parent: parent, attributes: elementAttributes()))
          if !empty { open.append(index) }
          if depth == recordDepth + 1 {
            record?.childElements.append(index)
            if empty { record?.children.append((name, "")) } else { child = (name, "") }
          }
        }
      case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
        Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue), Int32(XML_READER_TYPE_WHITESPACE.rawValue):
        if record != nil, let value = xmlTextReaderConstValue(reader) {
          textBytes += Int(xmlStrlen(value))
          if textBytes > limits.maxRecordBytes, let line = record?.line {
            throw XMLInputError(
              line: line, column: 1, message: limits.recordTooLargeMessage, hint: RecordLimits.hint)
          }
          let text = String(cString: value)
          let level = depth - recordDepth
          if level >= 1, level <= open.count { record?.elements[open[level - 1]].text += text }
          if child != nil { child?.text += text }
        }
      case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
        guard record != nil else { continue }
        if depth == recordDepth + 1, let finished = child {
          record?.children.append(finished)
          child = nil
        } else if depth == recordDepth {
          return record
        }
      default: continue
      }
    }
    return nil
  }

  /// The record element of a document without `--record-element`: the first child element name of the root
  /// that occurs twice, else the root's only kind of child element.
  ///
  /// - Parameter path: the file.
  /// - Throws: ``XMLInputError`` for a malformed document, a DTD, or a root whose children do not say.
  public static func detectRecordElement(path: String) throws(XMLInputError) -> String {
    let scanner = try XMLRecordReader(path: path, recordElement: "")
    var names: [String] = []
    var root: String? = nil
    while try scanner.read() {
      guard xmlTextReaderNodeType(scanner.reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) else { continue }
      let depth = xmlTextReaderDepth(scanner.reader)
      if depth == 0 { root = scanner.constName() }
      guard depth == 1 else { continue }
      let name = scanner.constName()
      if names.contains(name) { return name }
      names.append(name)
    }
    if names.count == 1 { return names[0] }
    let shown = names.prefix(12).map(RowError.quoted).joined(separator: ", ")
    throw XMLInputError(
      line: 1, column: 1,
      message: names.isEmpty
        ? "the root element <\(root ?? "")> has no child elements to read as records"
        : "cannot tell which elements are the records: no child of the root <\(root ?? "")> repeats (\(shown))",
      hint: "give --record-element NAME")
  }

  /// Advances the reader; `false` at the end of the document.
  private func read() throws(XMLInputError) -> Bool {
    let status = xmlTextReaderRead(reader)
    if status == 0 { return false }
    guard status == 1 else {
      // Entities cannot be the cause: a document with a DTD, where entities are declared, never gets here.
      if let (message, line, column) = LibXML2.lastErrorMessage() {
        if message.hasPrefix("Input is not proper UTF-8"), let position = try XMLSourcePosition.firstInvalidUTF8(path: path) {
          throw XMLInputError(
            line: position.line, column: position.column, message: "malformed XML: \(message)",
            hint: "the file is not UTF-8: declare its encoding, e.g. <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>")
        }
        throw XMLInputError(line: line, column: max(column, 1), message: "malformed XML: \(message)")
      }
      throw XMLInputError(
        line: Int(xmlTextReaderGetParserLineNumber(reader)), column: Int(xmlTextReaderGetParserColumnNumber(reader)),
        message: "malformed XML")
    }
    if xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue) {
      // Not reached for a well-formed prolog, whose DTD ``XMLProlog`` refuses first, at its own position.
      throw XMLProlog.documentTypeRefused(at: XMLSourcePosition(line: currentLine()))
    }
    return true
  }

  private func constName() -> String { xmlTextReaderConstName(reader).map { String(cString: $0) } ?? "" }

  /// The current node's line; libxml2 caps element lines at 65535, so past that the parser's line is used.
  private func currentLine() -> Int {
    if let node = xmlTextReaderCurrentNode(reader) {
      let line = Int(xmlGetLineNo(node))
      if line > 0, line < 65535 { return line }
    }
    return Int(xmlTextReaderGetParserLineNumber(reader))
  }

  /// The current element's attributes, namespace declarations left out.
  private func elementAttributes() -> [XMLRecord.Attribute] {
    guard xmlTextReaderHasAttributes(reader) == 1 else { return [] }
    var result: [XMLRecord.Attribute] = []
    while xmlTextReaderMoveToNextAttribute(reader) == 1 {
      let name = constName()
      if name == "xmlns" || name.hasPrefix("xmlns:") { continue }
      result.append(
        XMLRecord.Attribute(
          name: name, localName: xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? name,
          namespace: xmlTextReaderConstNamespaceUri(reader).map { String(cString: $0) },
          value: xmlTextReaderConstValue(reader).map { String(cString: $0) } ?? ""))
    }
    xmlTextReaderMoveToElement(reader)
    return result
  }

  /// The current element as a record's element: its names, namespace, and the bindings of the path prefixes
  /// in scope (found through the namespace declarations of it and its ancestors, which the streaming reader
  /// keeps while it is open).
  private func element(name: String, parent: Int, attributes: [XMLRecord.Attribute]) -> XMLRecord.Element {
    var element = XMLRecord.Element(
      name: name, localName: xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? name,
      namespace: xmlTextReaderConstNamespaceUri(reader).map { String(cString: $0) }, parent: parent,
      attributes: attributes)
    if !prefixes.isEmpty {
      let node = xmlTextReaderCurrentNode(reader)
      element.bindings = prefixes.map { prefix in
        guard let node, let found = xmlSearchNs(node.pointee.doc, node, prefix), let href = found.pointee.href
        else { return nil }
        return String(cString: href)
      }
    }
    return element
  }
}
