#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the record elements of an XML document straight from its bytes, for documents in a conservative,
/// well-formed subset of XML 1.0 (W3C, fifth edition); anything outside it makes the scanner decline
/// (``Declined``), and the caller reads the whole file with libxml2 instead (``XMLRecordReader``), whose errors
/// and messages stay the ones users see.
///
/// The subset:
/// - UTF-8 (§4.3.3), or US-ASCII (then every byte is below 0x80): no XML declaration, or one (§2.8
///   `XMLDecl`) with `version="1.0"`, `encoding` UTF-8, UTF8, US-ASCII or ASCII, and `standalone`; an optional
///   UTF-8 byte order mark.
/// - Prolog and epilog: white space and comments (§2.5); no processing instruction, no `<!DOCTYPE`.
/// - The root element, whose attributes may declare namespaces (`xmlns`, `xmlns:p`, and `p:name` attributes
///   with a declared prefix); its content is white space, comments and record elements only.
/// - Record elements, all of one name (``recordName``): attributes, then white space, text and elements,
///   nested up to ``maximumDepth`` levels, ``maximumElements`` elements and attributes at most; no comment,
///   CDATA section or processing instruction inside a record.
/// - Names of ASCII letters, digits, `_`, `-`, `.`, not starting with a digit, `-` or `.` (§2.3, a subset of
///   `Name`); inside records, element and attribute names may have a prefix the root element declares
///   (`cbc:ID`), no namespace is declared below the root, and no two prefixed attributes of a tag share a local
///   name; attribute values in `"` or `'` without `<`; no attribute twice in a tag (§3.1 "Unique Att Spec");
///   end tags that match (§3 "Element Type Match").
/// - Text and attribute values: XML `Char`s (§2.2) in well-formed UTF-8 (shortest form, no surrogates, no
///   U+FFFE/U+FFFF), no `&` (no entity or character references), no `]]>` in text (§2.4).
///
/// The file is read through a buffer that slides forward (1 MiB, growing for a larger item up to
/// ``maximumItemSize``), so memory does not grow with the file. A scanner may read a byte range of the
/// document that starts at a record element (a part of a big file, see ``init(path:range:phase:rootName:recordName:)``).
struct XMLSimpleScanner {
  /// Why the scanner will not read a document: it is outside the subset (or malformed). Not shown to users.
  struct Declined: Error, CustomStringConvertible {
    let reason: String
    /// The file offset where the scanner stopped.
    let offset: Int
    var description: String { "\(reason) at byte \(offset)" }
  }

  /// Where the scanner is in the document.
  enum Phase {
    /// Before the root element's start tag.
    case prolog
    /// In the root element's content.
    case content
    /// After the root element's end tag.
    case epilog
  }

  /// One piece of the document, in order: every byte of the scanned range is in exactly one item.
  enum Item {
    /// Bytes that are not a record (the prolog and root start tag, white space, a comment, the root's end
    /// tag, the epilog), as indices into ``bytes``.
    case markup(Range<Int>)
    /// A record element, described by ``record``.
    case record
  }

  private enum Stop: Error {
    case needMore
    case declined(String)
  }

  /// The largest single item (the prolog with the root's start tag, a record, a comment) read, in bytes.
  static let maximumItemSize = 16 << 20
  /// The most fields (attributes and children) a record may have.
  static let maximumFields = 256
  /// The most elements, and the most attributes, in a record (the record element included).
  static let maximumElements = 4096
  /// The most levels of elements inside a record.
  static let maximumDepth = 64

  /// The open file and the buffer, released with the scanner (a struct: its state is checked for exclusive
  /// access when compiled, not at run time as a class's would be in every loop).
  private final class Storage {
    let descriptor: Int32
    /// `capacity` bytes and ``XMLSimpleScanner/padding`` more, so that ``ByteView/word(at:)`` may read 8 bytes
    /// at any index before the capacity.
    let buffer: ReadBuffer
    let fields: ScratchList<XMLScannedRecord.Field>
    let elements: ScratchList<XMLScannedRecord.Element>
    let attributes: ScratchList<XMLScannedRecord.Field>
    init(descriptor: Int32, capacity: Int) {
      self.descriptor = descriptor
      buffer = ReadBuffer(capacity: capacity, padding: XMLSimpleScanner.padding)
      fields = .allocate(capacity: XMLSimpleScanner.maximumFields)
      elements = .allocate(capacity: XMLSimpleScanner.maximumElements)
      attributes = .allocate(capacity: XMLSimpleScanner.maximumElements)
    }
    deinit {
      close(descriptor)
      fields.deallocate()
      elements.deallocate()
      attributes.deallocate()
    }
  }

  private let storage: Storage
  private let descriptor: Int32
  /// The bytes read: the file's bytes `base..<base + loaded` (a view of the buffer, renewed when it changes).
  private(set) var bytes: ByteView
  private(set) var base: Int
  private var loaded = 0
  private var position = 0
  private let end: Int
  private var reachedEnd = false
  private let finishesDocument: Bool
  private(set) var phase: Phase
  /// The root element's name and the record elements' name (empty until the first record, when not given).
  private(set) var rootName: [UInt8]
  private(set) var recordName: [UInt8]
  /// The root element's namespace declarations (``XMLScannedNamespaces``).
  private(set) var namespaces: [XMLScannedNamespaces.Declaration]

  /// The encoding's name as the XML declaration gives it (`UTF-8` without one), for ``XMLElementEncoder``.
  private(set) var encodingName = "UTF-8"
  private var asciiOnly = false
  /// The record of the last ``Item/record``.
  private(set) var record: XMLScannedRecord
  /// Attribute names of the tag being read (for the duplicate check of tags other than the record's).
  private var tagAttributes: [(Int, Int)] = []
  /// The local names of the prefixed attributes of the tag being read.
  private var prefixedAttributes: [(Int, Int)] = []
  /// The largest item read (see ``init(path:range:phase:rootName:recordName:maximumItemBytes:)``).
  private let maximumItemBytes: Int

  /// Opens a document, or a part of one.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - range: the bytes to read: from the start (`phase` `.prolog`), or from a record element's `<` (`phase`
  ///     `.content`); a range that stops before the file's end stops at a record boundary (``next()`` returns
  ///     `nil` there, and declines if an item crosses it).
  ///   - rootName, recordName: the names, when they are known (a part after the first needs both).
  ///   - namespaces: the root's namespace declarations (a part after the first needs them).
  ///   - maximumItemBytes: the largest item (a record) to read; a larger one declines, and the general path
  ///     refuses it under ``RecordLimits/maxRecordBytes``. At most ``maximumItemSize``.
  /// - Throws: ``Declined`` when the file cannot be opened.
  init(
    path: String, range: Range<Int>, phase: Phase = .prolog, rootName: [UInt8] = [], recordName: [UInt8] = [],
    namespaces: [XMLScannedNamespaces.Declaration] = [], maximumItemBytes: Int = XMLSimpleScanner.maximumItemSize
  ) throws(Declined) {
    self.maximumItemBytes = min(maximumItemBytes, Self.maximumItemSize)
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Declined(reason: "cannot open", offset: 0) }
    self.descriptor = descriptor
    base = range.lowerBound
    end = range.upperBound
    finishesDocument = range.upperBound == Int.max || range.upperBound >= Self.fileSize(descriptor)
    self.phase = phase
    self.rootName = rootName
    self.recordName = recordName
    self.namespaces = namespaces
    storage = Storage(descriptor: descriptor, capacity: 1 << 20)
    bytes = storage.buffer.view(count: 0)
    record = XMLScannedRecord(fields: storage.fields, elements: storage.elements, attributes: storage.attributes)
  }

  /// Readable bytes after the buffer's capacity: a word load at any index before it stays inside.
  static let padding = 16

  private static func fileSize(_ descriptor: Int32) -> Int {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return 0 }
    return Int(status.st_size)
  }

  /// The file offset of a buffer index.
  func offset(of index: Int) -> Int { base + index }

  /// The next item, or `nil` at the end of the document (or of the range, at a record boundary).
  ///
  /// - Throws: ``Declined`` for a document outside the subset.
  mutating func next() throws(Declined) -> Item? {
    while true {
      if position == loaded {
        let more: Bool
        do { more = try refill(keepingFrom: position) } catch { throw declined(error) }
        if !more {
          switch phase {
          case .content where !finishesDocument, .epilog: return nil
          case .prolog, .content: throw Declined(reason: "the document ends early", offset: base + position)
          }
        }
      }
      let start = position
      let found: Item
      do {
        found = try item()
      } catch {
        guard case .needMore = error else { throw declined(error) }
        position = start
        let more: Bool
        do { more = try refill(keepingFrom: start) } catch { throw declined(error) }
        guard more else { throw Declined(reason: "the document ends inside markup", offset: base + start) }
        continue
      }
      if position - start > maximumItemBytes {
        throw Declined(reason: "an item larger than \(maximumItemBytes) bytes", offset: base + start)
      }
      return found
    }
  }

  private func declined(_ stop: Stop) -> Declined {
    if case .declined(let reason) = stop { return Declined(reason: reason, offset: base + position) }
    return Declined(reason: "the document ends early", offset: base + position)
  }

  /// Reads more of the range, keeping the bytes from `start` on (moved to the front of the buffer).
  ///
  /// - Returns: `false` when the range has no more bytes.
  private mutating func refill(keepingFrom start: Int) throws(Stop) -> Bool {
    if reachedEnd || base + loaded >= end { return false }
    let buffer = storage.buffer
    if start > 0 {
      buffer.moveToFront(start..<loaded)
      base += start
      loaded -= start
      position -= start
      bytes = buffer.view(count: loaded)
    }
    if loaded == buffer.capacity {
      guard buffer.capacity < Self.maximumItemSize else {
        throw .declined("an item larger than \(Self.maximumItemSize) bytes")
      }
      buffer.grow(keeping: loaded)
      bytes = buffer.view(count: loaded)
    }
    let wanted = min(buffer.capacity - loaded, end - (base + loaded))
    let count = buffer.read(from: descriptor, into: loaded, count: wanted, fileOffset: base + loaded)
    guard count >= 0 else { throw .declined("cannot read the file") }
    if count == 0 {
      reachedEnd = true
      return false
    }
    loaded += count
    bytes = buffer.view(count: loaded)
    return true
  }

  // MARK: Items

  private mutating func item() throws(Stop) -> Item {
    let start = position
    switch phase {
    case .prolog:
      try prolog()
      phase = .content
      return .markup(start..<position)
    case .content:
      let first = bytes[position]
      if Self.isSpace(first) {
        skipSpaces()
        return .markup(start..<position)
      }
      guard first == UInt8(ascii: "<") else { throw .declined("text in the root element") }
      switch try byte(position + 1) {
      case UInt8(ascii: "!"):
        position = try comment(at: position)
        return .markup(start..<position)
      case UInt8(ascii: "/"):
        position = try endTag(at: position, name: rootName)
        phase = .epilog
        return .markup(start..<position)
      default:
        try recordElement(at: position)
        return .record
      }
    case .epilog:
      let first = bytes[position]
      if Self.isSpace(first) {
        skipSpaces()
        return .markup(start..<position)
      }
      guard first == UInt8(ascii: "<"), try byte(position + 1) == UInt8(ascii: "!") else {
        throw .declined("content after the root element")
      }
      position = try comment(at: position)
      return .markup(start..<position)
    }
  }

  /// Reads the byte order mark, XML declaration, comments and white space, and the root's start tag.
  private mutating func prolog() throws(Stop) {
    var index = position
    let hasByteOrderMark = try byte(index) == 0xEF
    if hasByteOrderMark {
      guard try byte(index + 1) == 0xBB, try byte(index + 2) == 0xBF else { throw .declined("not UTF-8") }
      index += 3
    }
    if try starts("<?xml", at: index) {
      index = try declaration(at: index)
      if asciiOnly, hasByteOrderMark { throw .declined("a byte order mark in US-ASCII") }
    }
    while true {
      let byte = try byte(index)
      if Self.isSpace(byte) {
        index += 1
        continue
      }
      guard byte == UInt8(ascii: "<") else { throw .declined("text before the root element") }
      let next = try self.byte(index + 1)
      if next == UInt8(ascii: "!") {
        index = try comment(at: index)
        continue
      }
      guard Self.isNameStart(next) else { throw .declined("a processing instruction or declaration in the prolog") }
      let tag = try startTag(at: index, kind: .root)
      guard !tag.isEmptyElement else { throw .declined("an empty root element") }
      rootName = bytes.array(index + 1..<tag.nameEnd)
      guard rootName != recordName else { throw .declined("the root element has the record elements' name") }
      position = tag.end
      return
    }
  }

  /// Reads an XML declaration (§2.8) at `index` (``XMLDeclarationRule``).
  ///
  /// - Returns: the index after its `?>`.
  private mutating func declaration(at index: Int) throws(Stop) -> Int {
    switch XMLDeclarationRule.read(bytes, at: index, loaded: loaded) {
    case .declaration(let end, let name, let ascii):
      encodingName = name
      asciiOnly = ascii
      return end
    case .needsMore: throw .needMore
    case .refused(let reason): throw .declined(reason)
    }
  }

  /// Reads a record element at `index` into ``record``.
  private mutating func recordElement(at index: Int) throws(Stop) {
    record.reset(start: index)
    let tag = try startTag(at: index, kind: .record)
    let nameLength = tag.nameEnd - index - 1
    if recordName.isEmpty {
      recordName = bytes.array(index + 1..<index + 1 + nameLength)
    } else if !matches(recordName, at: index + 1, length: nameLength) {
      throw .declined("a child of the root that is not a record element")
    }
    record.appendElement(
      XMLScannedRecord.Element(
        nameStart: index + 1, colon: -1, nameEnd: tag.nameEnd, parent: -1, valueStart: tag.end, valueEnd: tag.end,
        attributes: 0..<record.attributes.count))
    if tag.isEmptyElement {
      record.isEmptyElement = true
      record.slash = tag.end - 2
      record.end = tag.end
      position = tag.end
      return
    }
    var textStart = tag.end
    // The innermost open element (0: the record element), its parent link leading back out, and its depth.
    var open = 0
    var depth = 0
    while true {
      let text = try self.text(from: textStart)
      let lessThan = text.end
      if text.needsDecoding { record.elements[open].needsDecoding = true }
      let next = try byte(lessThan + 1)
      if next == UInt8(ascii: "/") {
        guard open > 0 else {
          record.endTagStart = lessThan
          record.textBeforeEndTag = textStart
          record.end = try endTag(at: lessThan, name: recordName)
          record.elements[0].valueEnd = lessThan
          position = record.end
          return
        }
        var element = record.elements[open]
        textStart = try endTag(at: lessThan, nameAt: element.nameStart, length: element.nameEnd - element.nameStart)
        element.valueEnd = lessThan
        record.elements[open] = element
        let closed = open
        open = element.parent
        depth -= 1
        if open == 0 {
          record.append(
            XMLScannedRecord.Field(
              nameStart: element.nameStart, nameEnd: element.nameEnd, valueStart: element.valueStart,
              valueEnd: lessThan, needsDecoding: element.needsDecoding || element.hasElements, isAttribute: false,
              element: closed))
        }
        continue
      }
      guard Self.isNameStart(next) else { throw .declined("markup other than elements in a record") }
      let isChild = open == 0
      if isChild {
        guard record.fieldCount < Self.maximumFields else { throw .declined("too many fields") }
        record.lastChildStart = lessThan
        record.lastChildTextStart = textStart
      }
      guard record.elements.count < Self.maximumElements else { throw .declined("too many elements in a record") }
      let attributeStart = record.attributes.count
      // Most elements are `<name>`: no prefix, no attributes to read.
      let plainNameEnd = try name(at: lessThan + 1)
      let child =
        try byte(plainNameEnd) == UInt8(ascii: ">")
        ? (nameEnd: plainNameEnd, end: plainNameEnd + 1, isEmptyElement: false, colon: -1)
        : try startTag(at: lessThan, kind: .child)
      let parent = open
      if parent > 0 { record.elements[parent].hasElements = true }
      let elementIndex = record.elements.count
      record.appendElement(
        XMLScannedRecord.Element(
          nameStart: lessThan + 1, colon: child.colon, nameEnd: child.nameEnd, parent: parent, valueStart: child.end,
          valueEnd: child.end, attributes: attributeStart..<record.attributes.count))
      textStart = child.end
      if child.isEmptyElement {
        if isChild {
          record.append(
            XMLScannedRecord.Field(
              nameStart: lessThan + 1, nameEnd: child.nameEnd, valueStart: child.end, valueEnd: child.end,
              needsDecoding: false, isAttribute: false, element: elementIndex))
        }
        continue
      }
      guard depth < Self.maximumDepth else { throw .declined("elements nested too deep") }
      depth += 1
      open = elementIndex
    }
  }

  // MARK: Markup

  private enum TagKind {
    case root
    case record
    case child
  }

  /// Reads a start tag or empty-element tag (§3.1) at `index` (its `<`); a record's attributes go into
  /// ``record``'s fields, and every attribute inside a record into its attributes. Only the root's tag may
  /// declare namespaces (``rootStartTag(at:)``); names inside a record may use the prefixes it declares.
  ///
  /// - Returns: the index after the name, after the tag, whether it is an empty-element tag, and the index of
  ///   the name's `:` (`-1` without a prefix).
  private mutating func startTag(at index: Int, kind: TagKind) throws(Stop) -> (
    nameEnd: Int, end: Int, isEmptyElement: Bool, colon: Int
  ) {
    if kind == .root { return try rootStartTag(at: index) }
    var nameEnd = try name(at: index + 1)
    var colon = -1
    if try byte(nameEnd) == UInt8(ascii: ":") {
      guard kind == .child else { throw .declined("a prefixed record element name") }
      try checkDeclared(prefixAt: index + 1, length: nameEnd - index - 1)
      colon = nameEnd
      nameEnd = try name(at: nameEnd + 1)
      if try byte(nameEnd) == UInt8(ascii: ":") { throw .declined("a malformed element name") }
    }
    var at = nameEnd
    if kind == .child { tagAttributes.removeAll(keepingCapacity: true) }
    prefixedAttributes.removeAll(keepingCapacity: true)
    while true {
      let spaces = try skipSpaces(from: &at)
      let byte = try self.byte(at)
      if byte == UInt8(ascii: ">") { return (nameEnd, at + 1, false, colon) }
      if byte == UInt8(ascii: "/") {
        guard try self.byte(at + 1) == UInt8(ascii: ">") else { throw .declined("a malformed tag") }
        return (nameEnd, at + 2, true, colon)
      }
      guard spaces > 0 else { throw .declined("an attribute without white space before it") }
      let attributeStart = at
      var attributeEnd = try name(at: at)
      if isXMLNS(at: attributeStart, length: attributeEnd - attributeStart) {
        throw .declined("a namespace declaration below the root")
      }
      if try self.byte(attributeEnd) == UInt8(ascii: ":") {
        try checkDeclared(prefixAt: attributeStart, length: attributeEnd - attributeStart)
        let localStart = attributeEnd + 1
        let localEnd = try name(at: localStart)
        if try self.byte(localEnd) == UInt8(ascii: ":") { throw .declined("a malformed attribute name") }
        // Two prefixes may name one namespace: attributes with one local name could then be the same one.
        for (start, end) in prefixedAttributes
        where end - start == localEnd - localStart && bytes.bytesEqual(at: start, localStart, length: end - start) {
          throw .declined("two prefixed attributes with one local name")
        }
        prefixedAttributes.append((localStart, localEnd))
        attributeEnd = localEnd
      }
      let length = attributeEnd - attributeStart
      if kind == .record {
        for field in record.fields
        where field.nameEnd - field.nameStart == length
          && bytes.wordsEqual(at: field.nameStart, attributeStart, length: length)
        {
          throw .declined("an attribute twice")
        }
      } else {
        // The duplicate check is quadratic: a tag with more attributes than a record may have fields is left to
        // the general path, which refuses a tag past ``RecordLimits/maxAttributes`` before libxml2 reads it.
        guard tagAttributes.count < Self.maximumFields else { throw .declined("too many attributes") }
        for (start, end) in tagAttributes
        where end - start == length && bytes.wordsEqual(at: start, attributeStart, length: length) {
          throw .declined("an attribute twice")
        }
      }
      at = try valueStart(after: attributeEnd)
      let value = try attributeValue(from: at, quote: bytes[at - 1])
      let field = XMLScannedRecord.Field(
        nameStart: attributeStart, nameEnd: attributeEnd, valueStart: at, valueEnd: value.end,
        needsDecoding: value.needsDecoding, isAttribute: true)
      guard record.attributes.count < Self.maximumElements else { throw .declined("too many attributes") }
      record.appendAttribute(field)
      if kind == .record {
        guard record.fieldCount < Self.maximumFields else { throw .declined("too many fields") }
        record.append(field)
        record.attributeCount += 1
      } else {
        tagAttributes.append((attributeStart, attributeEnd))
      }
      at = value.end + 1
    }
  }

  /// Declines a prefix the root element does not declare.
  private func checkDeclared(prefixAt index: Int, length: Int) throws(Stop) {
    for declaration in namespaces where !declaration.prefix.isEmpty && matches(declaration.prefix, at: index, length: length) {
      return
    }
    throw .declined("an undeclared namespace prefix")
  }

  /// Reads the root element's start tag at `index`: as ``startTag(at:kind:)``, and its attributes may declare
  /// namespaces (`xmlns`, `xmlns:p` with a non-empty name) and use declared prefixes (Namespaces in XML 1.0).
  private mutating func rootStartTag(at index: Int) throws(Stop) -> (
    nameEnd: Int, end: Int, isEmptyElement: Bool, colon: Int
  ) {
    let nameEnd = try name(at: index + 1)
    if try byte(nameEnd) == UInt8(ascii: ":") { throw .declined("a prefixed element name") }
    var at = nameEnd
    tagAttributes.removeAll(keepingCapacity: true)
    namespaces.removeAll()  // the tag may be read again, with more bytes
    var prefixes: [[UInt8]] = []
    var prefixed: [(start: Int, colon: Int, end: Int)] = []
    while true {
      let spaces = try skipSpaces(from: &at)
      let byte = try self.byte(at)
      if byte == UInt8(ascii: ">") { break }
      if byte == UInt8(ascii: "/") {
        guard try self.byte(at + 1) == UInt8(ascii: ">") else { throw .declined("a malformed tag") }
        if !prefixed.isEmpty { try checkPrefixes(prefixed, declared: prefixes) }
        return (nameEnd, at + 2, true, -1)
      }
      guard spaces > 0 else { throw .declined("an attribute without white space before it") }
      let attributeStart = at
      var declaresPrefix = false
      var attributeEnd = try name(at: at)
      if try self.byte(attributeEnd) == UInt8(ascii: ":") {
        // `xmlns:p="…"` declares p, `p:name` needs a declared p.
        let localEnd = try name(at: attributeEnd + 1)
        if try self.byte(localEnd) == UInt8(ascii: ":") { throw .declined("a malformed attribute name") }
        if isXMLNS(at: attributeStart, length: attributeEnd - attributeStart) {
          let prefix = bytes.array(attributeEnd + 1..<localEnd)
          guard prefix.count < 3 || prefix[0..<3].map({ $0 | 0x20 }) != Array("xml".utf8) else {
            throw .declined("a reserved namespace prefix")
          }
          prefixes.append(prefix)
          declaresPrefix = true
        } else {
          // Two prefixes may name one namespace: attributes with one local name could then be the same one.
          for earlier in prefixed
          where earlier.end - earlier.colon == localEnd - attributeEnd
            && bytes.bytesEqual(at: earlier.colon, attributeEnd, length: localEnd - attributeEnd)
          {
            throw .declined("two prefixed attributes with one local name")
          }
          prefixed.append((attributeStart, attributeEnd, localEnd))
        }
        attributeEnd = localEnd
      }
      let length = attributeEnd - attributeStart
      guard tagAttributes.count < Self.maximumFields else { throw .declined("too many attributes") }  // as above
      for (start, end) in tagAttributes
      where end - start == length && bytes.bytesEqual(at: start, attributeStart, length: length) {
        throw .declined("an attribute twice")
      }
      at = try valueStart(after: attributeEnd)
      let value = try attributeValue(from: at, quote: bytes[at - 1])
      if declaresPrefix, value.end == at { throw .declined("an empty namespace name") }
      if value.needsDecoding, declaresPrefix || isXMLNS(at: attributeStart, length: attributeEnd - attributeStart) {
        throw .declined("white space to normalize in a namespace name")
      }
      if declaresPrefix {
        let prefixStart = attributeStart + 6
        namespaces.append(.init(prefix: bytes.array(prefixStart..<attributeEnd), name: bytes.array(at..<value.end)))
      } else if isXMLNS(at: attributeStart, length: attributeEnd - attributeStart) {
        namespaces.append(.init(prefix: [], name: bytes.array(at..<value.end)))
      }
      tagAttributes.append((attributeStart, attributeEnd))
      at = value.end + 1
    }
    if !prefixed.isEmpty { try checkPrefixes(prefixed, declared: prefixes) }
    return (nameEnd, at + 1, false, -1)
  }

  /// Every prefixed attribute name's prefix is declared on the same tag.
  private mutating func checkPrefixes(_ prefixed: [(start: Int, colon: Int, end: Int)], declared: [[UInt8]]) throws(Stop) {
    for (start, end, _) in prefixed where !declared.contains(where: { matches($0, at: start, length: end - start) }) {
      throw .declined("an undeclared namespace prefix")
    }
  }

  /// Reads an end tag for `name` at `index` (its `<`).
  ///
  /// - Returns: the index after its `>`.
  private mutating func endTag(at index: Int, name: [UInt8]) throws(Stop) -> Int {
    guard index + 2 + name.count <= loaded else { throw .needMore }
    guard matches(name, at: index + 2, length: name.count) else { throw .declined("a mismatched end tag") }
    return try endTagRest(at: index + 2 + name.count)
  }

  /// Reads an end tag at `index` for the name at `nameStart`.
  @inline(__always)
  private mutating func endTag(at index: Int, nameAt nameStart: Int, length: Int) throws(Stop) -> Int {
    guard try byte(index + 1) == UInt8(ascii: "/") else { throw .declined("a malformed end tag") }
    let close = index + 2 + length
    if close < loaded, bytes[close] == UInt8(ascii: ">") {
      // The usual `</name>`, without white space before `>`.
      guard bytes.wordsEqual(at: index + 2, nameStart, length: length) else { throw .declined("a mismatched end tag") }
      return close + 1
    }
    guard close <= loaded else { throw .needMore }
    for offset in 0..<length where bytes[index + 2 + offset] != bytes[nameStart + offset] {
      throw .declined("a mismatched end tag")
    }
    return try endTagRest(at: index + 2 + length)
  }

  /// The index of an attribute value's first byte after the attribute's name ends at `index` (`S? = S? quote`).
  private mutating func valueStart(after index: Int) throws(Stop) -> Int {
    var at = index
    _ = try skipSpaces(from: &at)
    guard try byte(at) == UInt8(ascii: "=") else { throw .declined("an attribute without a value") }
    at += 1
    _ = try skipSpaces(from: &at)
    let quote = try byte(at)
    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw .declined("an unquoted attribute value") }
    return at + 1
  }

  /// After an end tag's name: optional white space and `>`.
  private mutating func endTagRest(at index: Int) throws(Stop) -> Int {
    var at = index
    _ = try skipSpaces(from: &at)
    guard try byte(at) == UInt8(ascii: ">") else { throw .declined("a mismatched end tag") }
    return at + 1
  }

  /// Reads a comment (§2.5) at `index` (its `<`).
  ///
  /// - Returns: the index after its `-->`.
  private mutating func comment(at index: Int) throws(Stop) -> Int {
    guard try starts("<!--", at: index) else { throw .declined("a declaration or CDATA section") }
    var at = index + 4
    while true {
      let byte = try self.byte(at)
      if byte == UInt8(ascii: "-") {
        if try self.byte(at + 1) == UInt8(ascii: "-") {
          guard try self.byte(at + 2) == UInt8(ascii: ">") else { throw .declined("-- inside a comment") }
          return at + 3
        }
        at += 1
      } else {
        at = try character(at: at)
      }
    }
  }

  /// Reads character data (§2.4) from `index` up to the next `<`.
  ///
  /// - Returns: the index of the `<`, and whether the text holds a carriage return (normalized when read).
  @inline(__always)
  private mutating func text(from index: Int) throws(Stop) -> (end: Int, needsDecoding: Bool) {
    var at = index
    var needsDecoding = false
    let bytes = self.bytes
    let loaded = self.loaded
    while true {
      // Printable ASCII other than `<`, `&` and `]` needs no other look.
      while at < loaded {
        let byte = bytes[at]
        guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&"), byte != UInt8(ascii: "]") else { break }
        at += 1
      }
      guard at < loaded else { throw .needMore }
      let byte = bytes[at]
      if byte >= 0x20, byte < 0x7F {
        switch byte {
        case UInt8(ascii: "<"): return (at, needsDecoding)
        case UInt8(ascii: "&"): throw .declined("a reference")
        case UInt8(ascii: "]"):
          if try self.byte(at + 1) == UInt8(ascii: "]"), try self.byte(at + 2) == UInt8(ascii: ">") {
            throw .declined("]]> in text")
          }
        default: break
        }
        at += 1
      } else if byte == 0x0D {
        needsDecoding = true
        at += 1
      } else {
        at = try character(at: at)
      }
    }
  }

  /// Reads an attribute value (§3.1 `AttValue`) from `index` up to its closing `quote`.
  ///
  /// - Returns: the index of the closing quote, and whether the value holds a tab or line end (normalized to
  ///   spaces when read, §3.3.3).
  private mutating func attributeValue(from index: Int, quote: UInt8) throws(Stop) -> (end: Int, needsDecoding: Bool) {
    var at = index
    var needsDecoding = false
    while true {
      let byte = try self.byte(at)
      switch byte {
      case quote: return (at, needsDecoding)
      case UInt8(ascii: "<"): throw .declined("< in an attribute value")
      case UInt8(ascii: "&"): throw .declined("a reference")
      case 0x09, 0x0A, 0x0D:
        needsDecoding = true
        at += 1
      default: at = try character(at: at)
      }
    }
  }

  /// Reads one XML `Char` (§2.2) at `index` in UTF-8 (every byte below 0x80 under US-ASCII):
  /// ``XMLCharacterRule``.
  ///
  /// - Returns: the index after it.
  @inline(__always)
  private mutating func character(at index: Int) throws(Stop) -> Int {
    switch XMLCharacterRule.read(bytes, at: index, loaded: loaded, asciiOnly: asciiOnly) {
    case .character(let end): return end
    case .needsMore: throw .needMore
    case .refused(let reason): throw .declined(reason)
    }
  }

  /// Reads a name (the ASCII subset of §2.3 `Name`, without `:`) at `index`.
  ///
  /// - Returns: the index after it.
  @inline(__always)
  private mutating func name(at index: Int) throws(Stop) -> Int {
    guard Self.isNameStart(try byte(index)) else { throw .declined("a malformed name") }
    let limit = min(loaded, index + 1000)
    var at = index + 1
    while at < limit {
      let byte = bytes[at]
      if Self.isNameStart(byte) || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
        at += 1
        continue
      }
      if byte >= 0x80 { throw .declined("a non-ASCII name") }
      return at
    }
    if limit == loaded { throw .needMore }
    throw .declined("a long name")
  }

  @inline(__always)
  private static func isNameStart(_ byte: UInt8) -> Bool {
    (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_")
  }

  @inline(__always)
  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

  @inline(__always)
  private mutating func byte(_ index: Int) throws(Stop) -> UInt8 {
    guard index < loaded else { throw .needMore }
    return bytes[index]
  }

  private mutating func skipSpaces() {
    while position < loaded, Self.isSpace(bytes[position]) { position += 1 }
  }

  /// Skips white space from `index`; the number of bytes skipped.
  private mutating func skipSpaces(from index: inout Int) throws(Stop) -> Int {
    let start = index
    while Self.isSpace(try byte(index)) { index += 1 }
    return index - start
  }

  private mutating func starts(_ text: String, at index: Int) throws(Stop) -> Bool {
    var at = index
    for unit in text.utf8 {
      guard try byte(at) == unit else { return false }
      at += 1
    }
    return true
  }

  /// Whether the name at `index` is `xmlns`.
  @inline(__always)
  private func isXMLNS(at index: Int, length: Int) -> Bool {
    length == 5 && bytes[index] == UInt8(ascii: "x") && bytes[index + 1] == UInt8(ascii: "m")
      && bytes[index + 2] == UInt8(ascii: "l") && bytes[index + 3] == UInt8(ascii: "n") && bytes[index + 4] == UInt8(ascii: "s")
  }

  @inline(__always)
  private func matches(_ name: [UInt8], at index: Int, length: Int) -> Bool {
    name.count == length && bytes.hasBytes(name, at: index)
  }

  // MARK: Values

  /// A field's value as libxml2 reports it: its bytes with line ends normalized (§2.11: CR LF and CR become
  /// LF) and, in an attribute value, tabs and line ends as spaces (§3.3.3).
  /// The text of a child with child elements is its text nodes joined, as libxml2's reader gives it: the bytes
  /// outside its tags (no comment, CDATA section or reference is inside a record in the scanner's subset).
  static func decodedText(_ field: XMLScannedRecord.Field, in bytes: ByteView) -> String {
    let raw = bytes.slice(field.valueStart..<field.valueEnd)
    guard field.needsDecoding else { return raw.text }
    var result: [UInt8] = []
    result.reserveCapacity(raw.count)
    var index = 0
    while index < raw.count {
      var byte = raw[index]
      if byte == UInt8(ascii: "<"), !field.isAttribute {
        // A tag: `>` may be inside a quoted attribute value.
        var quote: UInt8 = 0
        index += 1
        while index < raw.count {
          let inside = raw[index]
          if quote != 0 {
            if inside == quote { quote = 0 }
          } else if inside == UInt8(ascii: "\"") || inside == UInt8(ascii: "'") {
            quote = inside
          } else if inside == UInt8(ascii: ">") {
            break
          }
          index += 1
        }
        index += 1
        continue
      }
      if byte == 0x0D {
        byte = 0x0A
        if index + 1 < raw.count, raw[index + 1] == 0x0A { index += 1 }
      }
      if field.isAttribute, byte == 0x0A || byte == 0x09 { byte = 0x20 }
      result.append(byte)
      index += 1
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// Whether bytes `range` are white space holding a line feed (``XMLAnnotatingWriter``'s indentation).
  static func isIndentation(_ range: Range<Int>, in bytes: ByteView) -> Bool {
    var hasLineFeed = false
    for index in range {
      guard Self.isSpace(bytes[index]) else { return false }
      if bytes[index] == 0x0A { hasLineFeed = true }
    }
    return hasLineFeed
  }
}
