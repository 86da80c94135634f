import CLibXML2

/// libxml2's streaming reader (`xmlReaderForIO`) over one zip entry as it inflates, so that a sheet of any size
/// is parsed in the memory of a chunk: libxml2 pulls the entry's bytes through a ``ZipEntryStream``, which
/// refuses zip bombs, entries that lie about their size and DTDs as they come.
///
/// No network, no entity substitution, no DTD loading (the stream refuses a DTD before libxml2 sees it).
final class PackagePartReader {
  /// The package's path and the entry's name, for messages.
  let path: String
  let entry: String
  private let reader: OpaquePointer
  /// What libxml2's read callback reads from; kept alive as long as the reader.
  private let input: Input

  /// The entry's bytes for libxml2, and the error that stopped them.
  final class Input {
    let stream: any ZipEntryReading
    var chunk: [UInt8] = []
    var error: ZipError?

    init(stream: any ZipEntryReading) { self.stream = stream }

    /// Fills libxml2's buffer; −1 after an error of the stream, kept for ``PackagePartReader/read()``.
    func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int32 {
      if chunk.count != count { chunk = [UInt8](repeating: 0, count: count) }
      do {
        let got = try stream.read(into: &chunk)
        chunk.withUnsafeBytes { bytes in
          UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: got)
        }
        return Int32(got)
      } catch {
        self.error = error
        return -1
      }
    }
  }

  static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)

  /// - Parameter stream: the entry, unread.
  /// - Throws: ``WorkbookError/malformedXML(path:entry:line:column:message:)`` when libxml2 cannot start.
  init(stream: any ZipEntryReading) throws(WorkbookError) {
    path = stream.package.path
    entry = stream.entry.name
    input = Input(stream: stream)
    LibXML2.ensureInitialized()
    let context = Unmanaged.passUnretained(input).toOpaque()
    guard let reader = xmlReaderForIO(packagePartRead, nil, context, entry, nil, Self.options) else {
      throw .malformedXML(path: path, entry: entry, line: 1, column: 1, message: "libxml2 cannot read it")
    }
    LibXML2.quiet(reader)
    self.reader = reader
  }

  /// A reader of a package's entry.
  ///
  /// - Throws: ``WorkbookError/package(_:)`` when the package refuses the entry (past its limits).
  convenience init(package: ZipPackage, entry: ZipEntry) throws(WorkbookError) {
    let stream: ZipEntryStream
    do { stream = try package.stream(entry) } catch { throw .package(error) }
    try self.init(stream: stream)
  }

  deinit { xmlFreeTextReader(reader) }

  /// Advances to the next node; `false` at the end of the document.
  ///
  /// - Throws: ``WorkbookError/package(_:)`` when the entry's stream refused its bytes,
  ///   ``WorkbookError/malformedXML(path:entry:line:column:message:)`` when libxml2 refused them.
  func read() throws(WorkbookError) -> Bool {
    xmlResetLastError()
    let status = xmlTextReaderRead(reader)
    if status == 1 { return true }
    if let error = input.error { throw .package(error) }
    if status == 0 { return false }
    var message = "malformed XML"
    var (line, column) = (Int(xmlTextReaderGetParserLineNumber(reader)), Int(xmlTextReaderGetParserColumnNumber(reader)))
    if let error = xmlGetLastError() {
      if let text = error.pointee.message {
        message = String(cString: text).split(whereSeparator: \.isNewline).joined(separator: " ")
      }
      (line, column) = (Int(error.pointee.line), Int(max(error.pointee.int2, 1)))
    }
    throw .malformedXML(path: path, entry: entry, line: line, column: column, message: message)
  }

  /// Inflates what is left of the entry after the document's end (libxml2 may stop reading there), so that its
  /// size and checksum are checked as ``ZipEntryStream`` does at its end.
  ///
  /// - Throws: ``WorkbookError/package(_:)``.
  func readToEnd() throws(WorkbookError) {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    do { while try input.stream.read(into: &chunk) > 0 {} } catch { throw .package(error) }
  }

  /// The current node's kind.
  var nodeType: xmlReaderTypes { xmlReaderTypes(UInt32(max(xmlTextReaderNodeType(reader), 0))) }
  /// The current node's depth (the root element is 0).
  var depth: Int { Int(xmlTextReaderDepth(reader)) }
  /// Whether the current element is written `<name/>`: no end element follows it.
  var isEmptyElement: Bool { xmlTextReaderIsEmptyElement(reader) == 1 }
  /// The line the parser is at, for messages.
  var line: Int { Int(xmlTextReaderGetParserLineNumber(reader)) }

  /// Whether the current node is an element (start or end, `type`) with this local name, whatever its prefix.
  func isElement(_ type: xmlReaderTypes, named name: StaticString) -> Bool {
    guard nodeType == type, let local = xmlTextReaderConstLocalName(reader) else { return false }
    return xmlStrEqual(local, name.utf8Start) == 1
  }

  /// Whether the current node's namespace is this one.
  func isInNamespace(_ namespace: StaticString) -> Bool {
    guard let uri = xmlTextReaderConstNamespaceUri(reader) else { return false }
    return xmlStrEqual(uri, namespace.utf8Start) == 1
  }

  /// The value of the current element's attribute with this (unprefixed) name.
  func attribute(_ name: StaticString) -> String? {
    guard xmlTextReaderMoveToAttribute(reader, name.utf8Start) == 1 else { return nil }
    defer { xmlTextReaderMoveToElement(reader) }
    return xmlTextReaderConstValue(reader).map { String(cString: $0) }
  }

  /// The value of the current element's attribute with this local name in this namespace (`r:id`, whatever the
  /// prefix the document binds to the namespace).
  func attribute(_ localName: StaticString, namespace: StaticString) -> String? {
    guard xmlTextReaderMoveToAttributeNs(reader, localName.utf8Start, namespace.utf8Start) == 1 else { return nil }
    defer { xmlTextReaderMoveToElement(reader) }
    return xmlTextReaderConstValue(reader).map { String(cString: $0) }
  }

  /// The text of the current text node, or `nil` when the node holds none.
  var text: String? {
    switch nodeType {
    case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA, XML_READER_TYPE_SIGNIFICANT_WHITESPACE, XML_READER_TYPE_WHITESPACE:
      return xmlTextReaderConstValue(reader).map { String(cString: $0) }
    default:
      return nil
    }
  }

  /// Reads the nodes inside the element the reader is on, up to its end element, calling `body` on each (none for
  /// `<name/>`); `body` may read further, as long as it ends on a node inside the element.
  func forEachNodeInside(_ body: () throws(WorkbookError) -> Void) throws(WorkbookError) {
    guard !isEmptyElement else { return }
    let start = depth
    while try read() {
      if nodeType == XML_READER_TYPE_END_ELEMENT, depth == start { return }
      try body()
    }
  }

  /// The text of the element the reader is on, up to its end (its descendants' text included); "" for `<name/>`.
  func elementText() throws(WorkbookError) -> String {
    var text = ""
    try forEachNodeInside { if let piece = self.text { text += piece } }
    return text
  }
}

/// libxml2's read callback: `context` is the reader's ``PackagePartReader/Input``, which the reader keeps alive.
private func packagePartRead(_ context: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ count: Int32)
  -> Int32
{
  guard let context, let buffer, count > 0 else { return -1 }
  return Unmanaged<PackagePartReader.Input>.fromOpaque(context).takeUnretainedValue().read(into: buffer, count: Int(count))
}
