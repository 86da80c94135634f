/// The markup of ``ODSContentScanner``'s subset: tags, names and namespaces, text and attribute values, references
/// and characters (the rules of ``XLSXSheetScanner``'s, with no carriage return anywhere and no tab or line feed
/// in an attribute value, which XML normalises).
extension ODSContentScanner {
  /// A start tag read: its qualified name, its end (after `>`), and whether it is `<name/>`; its attributes are in
  /// the scanner's attribute list.
  struct Tag {
    let name: Range<Int>
    let end: Int
    let isEmptyElement: Bool
  }

  /// The local part of a name (after its colon).
  func localName(_ name: Range<Int>) -> Range<Int> {
    var index = name.upperBound
    while index > name.lowerBound {
      if bytes[index - 1] == UInt8(ascii: ":") { return index..<name.upperBound }
      index -= 1
    }
    return name
  }

  mutating func push(_ name: Range<Int>) throws(Stop) {
    guard open.count < Self.maximumDepth else { throw .declined("too deep") }
    open.append((names.count, name.count))
    names.append(contentsOf: bytes.slice(name).buffer)
  }

  /// Reads a start tag at `index` (its `<`) into the attribute list.
  mutating func startTag(at index: Int, isRoot: Bool = false) throws(Stop) -> Tag {
    let name = try qualifiedName(at: index + 1)
    attributeCount = 0
    var at = name.range.upperBound
    while true {
      var spaces = 0
      while XMLCharacterRule.isSpace(try byte(at)) {
        at += 1
        spaces += 1
      }
      let byte = try byte(at)
      if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") {
        let isEmpty = byte == UInt8(ascii: "/")
        if isEmpty { guard try self.byte(at + 1) == UInt8(ascii: ">") else { throw .declined("a malformed tag") } }
        if isRoot { try declarePrefixes() }
        try checkPrefix(name.range, prefix: name.prefix)
        try checkAttributePrefixes()
        return Tag(name: name.range, end: at + (isEmpty ? 2 : 1), isEmptyElement: isEmpty)
      }
      guard spaces > 0 else { throw .declined("a malformed tag") }
      let attribute = try qualifiedName(at: at)
      at = attribute.range.upperBound
      while XMLCharacterRule.isSpace(try self.byte(at)) { at += 1 }
      guard try self.byte(at) == UInt8(ascii: "=") else { throw .declined("an attribute without a value") }
      at += 1
      while XMLCharacterRule.isSpace(try self.byte(at)) { at += 1 }
      let quote = try self.byte(at)
      guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw .declined("an unquoted value") }
      let value = try attributeValue(from: at + 1, quote: quote)
      for index in 0..<attributeCount {
        let other = attributeList[index].name
        if other.count == attribute.range.count,
          bytes.bytesEqual(at: other.lowerBound, attribute.range.lowerBound, length: other.count)
        {
          throw .declined("an attribute twice")
        }
      }
      let read = (attribute.range, attribute.prefix, at + 1..<value.end, value.isPlain)
      if attributeCount < attributeList.count {
        attributeList[attributeCount] = read
      } else {
        attributeList.append(read)
      }
      attributeCount += 1
      guard attributeCount <= Self.maximumAttributes else { throw .declined("too many attributes") }
      at = value.end + 1
    }
  }

  /// The index of the tag's attribute `prefix:local`, if it has one.
  func attribute(prefix: StaticString, local: StaticString) -> Int? {
    let length = prefix.utf8CodeUnitCount
    for index in 0..<attributeCount {
      let attribute = attributeList[index]
      guard attribute.prefix == length,
        bytes.slice(attribute.name.lowerBound..<(attribute.name.lowerBound + length)).equals(prefix),
        bytes.slice((attribute.name.lowerBound + length + 1)..<attribute.name.upperBound).equals(local)
      else { continue }
      return index
    }
    return nil
  }

  /// The value of the tag's attribute of this qualified name as written (between its quotes).
  func rawValue(named name: String) -> ByteView? {
    let name = Array(name.utf8)
    for index in 0..<attributeCount where bytes.slice(attributeList[index].name).elementsEqual(name) {
      return bytes.slice(attributeList[index].value)
    }
    return nil
  }

  /// An attribute's value with its references replaced.
  func attributeText(_ index: Int) throws(Stop) -> String {
    let attribute = attributeList[index]
    guard !attribute.isPlain else { return bytes.slice(attribute.value).text }
    var decoded: [UInt8] = []
    var at = attribute.value.lowerBound
    while at < attribute.value.upperBound {
      if bytes[at] == UInt8(ascii: "&") {
        at = try reference(at: at, into: &decoded)
      } else {
        decoded.append(bytes[at])
        at += 1
      }
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  /// The root's namespace declarations: its prefixes, each bound once to a non-empty name that is neither the
  /// `xml` nor the `xmlns` namespace; the prefix bound to `calcext`'s.
  private mutating func declarePrefixes() throws(Stop) {
    var bound: [[UInt8]] = []
    for index in 0..<attributeCount {
      let attribute = attributeList[index]
      let name = bytes.slice(attribute.name)
      let isDefault = name.equals("xmlns")
      guard isDefault || (attribute.prefix == 5 && name.starts(with: "xmlns:".utf8)) else { continue }
      let value = bytes.array(attribute.value)
      guard attribute.isPlain, !value.isEmpty || isDefault,
        value != Array("http://www.w3.org/XML/1998/namespace".utf8),
        value != Array("http://www.w3.org/2000/xmlns/".utf8)
      else { throw .declined("a namespace declaration") }
      guard !isDefault else { continue }
      guard !bound.contains(value) else { throw .declined("two prefixes for one namespace") }
      bound.append(value)
      let prefix = bytes.array((attribute.name.lowerBound + 6)..<attribute.name.upperBound)
      guard !prefix.starts(with: "xml".utf8), !prefix.starts(with: "XML".utf8) else {
        throw .declined("a reserved prefix")
      }
      prefixes.append(prefix)
      if ByteView(ODSTableReader.calcextNamespace).elementsEqual(value) {
        calcextPrefix = prefix
        calcextIsLiteral = prefix == Array("calcext".utf8)
      }
    }
    // The prefixes of a table's markup first: every prefixed name is looked up among them.
    let common = ["table", "text", "office", "calcext", "style"].map { Array($0.utf8) } + [calcextPrefix ?? []]
    prefixes = prefixes.filter { common.contains($0) } + prefixes.filter { !common.contains($0) }
    prefixWords = prefixes.map { prefix in
      prefix.count <= 8 ? prefix.reversed().reduce(UInt64(0)) { ($0 << 8) | UInt64($1) } : nil
    }
  }

  /// Every prefixed attribute's prefix is `xml` or one the root declares; `xmlns` declarations only on the root.
  private func checkAttributePrefixes() throws(Stop) {
    for index in 0..<attributeCount {
      let attribute = attributeList[index]
      let name = bytes.slice(attribute.name)
      if name.equals("xmlns") || (attribute.prefix == 5 && name.starts(with: "xmlns".utf8)) {
        guard open.isEmpty else { throw .declined("a namespace declaration below the root") }
        continue
      }
      guard attribute.prefix > 0 else { continue }
      guard isDeclared(attribute.name.lowerBound, length: attribute.prefix) else {
        let prefix = bytes.slice(attribute.name.lowerBound..<(attribute.name.lowerBound + attribute.prefix))
        if prefix.equals("xml") { continue }
        throw .declined("an undeclared prefix")
      }
    }
  }

  /// An element name's prefix is one the root declares.
  private func checkPrefix(_ name: Range<Int>, prefix: Int) throws(Stop) {
    guard prefix > 0 else { return }
    guard isDeclared(name.lowerBound, length: prefix) else { throw .declined("an undeclared prefix") }
  }

  /// Whether the `length` bytes at `index` are a prefix the root declares (compared as words where they fit).
  @inline(__always)
  private func isDeclared(_ index: Int, length: Int) -> Bool {
    if length <= 8 {
      let word = bytes.word(at: index, length: length)
      for (offset, prefix) in prefixes.enumerated() where prefix.count == length && prefixWords[offset] == word {
        return true
      }
      return false
    }
    let bytes = self.bytes.slice(index..<(index + length))
    return prefixes.contains { bytes.elementsEqual($0) }
  }

  /// A name of the subset (``XMLNameRule``): its range and the prefix's length (0: none).
  @inline(__always)
  private func qualifiedName(at index: Int) throws(Stop) -> (range: Range<Int>, prefix: Int) {
    switch XMLNameRule.qualifiedName(bytes, at: index, loaded: loaded) {
    case .name(let end, let prefix): return (index..<end, prefix)
    case .needsMore: throw .needMore
    case .refused(let reason): throw .declined(reason)
    }
  }

  /// Reads an end tag at `index` (its `<`), which must close the innermost open element.
  ///
  /// - Returns: the closed element's name (its bytes in the end tag) and the index after its `>`.
  mutating func endTag(at index: Int) throws(Stop) -> (name: Range<Int>, end: Int) {
    guard let last = open.last else { throw .declined("an end tag after the root") }
    var at = index + 2
    guard at + last.length < loaded else { throw .needMore }
    for offset in 0..<last.length where bytes[at + offset] != names[last.start + offset] {
      throw .declined("a mismatched end tag")
    }
    let name = at..<(at + last.length)
    at += last.length
    while XMLCharacterRule.isSpace(try byte(at)) { at += 1 }
    guard try byte(at) == UInt8(ascii: ">") else { throw .declined("a mismatched end tag") }
    names.removeSubrange(last.start...)
    open.removeLast()
    return (name, at + 1)
  }

  /// The end of the run of text from `index` that needs no other look: printable ASCII other than `<`, `&` and
  /// `]` (at most ``loaded``).
  @inline(__always)
  func plainTextEnd(from index: Int) -> Int {
    var at = index
    let (bytes, loaded) = (self.bytes, self.loaded)
    while at < loaded {
      let byte = bytes[at]
      guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&"), byte != UInt8(ascii: "]")
      else { break }
      at += 1
    }
    return at
  }

  /// Reads character data from `index` up to the next `<`; with `capture`, appends it (references replaced) to
  /// the cell's text.
  ///
  /// - Returns: the `<`'s index.
  @inline(__always)
  mutating func textEnd(from index: Int, capture: Bool = false) throws(Stop) -> Int {
    var at = index
    let bytes = self.bytes
    let loaded = self.loaded
    while true {
      let runStart = at
      at = plainTextEnd(from: at)
      guard at < loaded else { throw .needMore }
      let byte = bytes[at]
      switch byte {
      case UInt8(ascii: "<"):
        if capture { text.append(contentsOf: bytes.slice(runStart..<at).buffer) }
        return at
      case UInt8(ascii: "&"):
        if capture { text.append(contentsOf: bytes.slice(runStart..<at).buffer) }
        if capture {
          textIsStored = false
          at = try Self.reference(bytes, loaded: loaded, at: at, into: &text)
        } else {
          var ignored: [UInt8] = []
          at = try reference(at: at, into: &ignored)
        }
        continue
      case UInt8(ascii: "]"):
        if try self.byte(at + 1) == UInt8(ascii: "]"), try self.byte(at + 2) == UInt8(ascii: ">") {
          throw .declined("]]> in text")
        }
        at += 1
      case 0x0D:
        throw .declined("a carriage return")
      default:
        at = try character(at: at)
      }
      if capture { text.append(contentsOf: bytes.slice(runStart..<at).buffer) }
    }
  }

  /// Reads an attribute value from `index` up to its closing `quote`.
  ///
  /// - Returns: the closing quote's index, and whether the value is as stored (no reference).
  private func attributeValue(from index: Int, quote: UInt8) throws(Stop) -> (end: Int, isPlain: Bool) {
    var at = index
    var isPlain = true
    let bytes = self.bytes
    let loaded = self.loaded
    var ignored: [UInt8] = []
    while true {
      while at < loaded {
        let byte = bytes[at]
        guard byte &- 0x20 < 0x5F, byte != quote, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") else { break }
        at += 1
      }
      let byte = try self.byte(at)
      switch byte {
      case quote: return (at, isPlain)
      case UInt8(ascii: "<"): throw .declined("< in an attribute value")
      case UInt8(ascii: "&"):
        ignored.removeAll(keepingCapacity: true)
        at = try reference(at: at, into: &ignored)
        isPlain = false
      case 0x09, 0x0A, 0x0D: throw .declined("white space an attribute value normalises")
      default: at = try character(at: at)
      }
    }
  }

  /// Reads a reference at `index` (its `&`): one of the five predefined entities, or a character reference to
  /// an XML `Char`; appends the character it stands for.
  ///
  /// - Returns: the index after its `;`.
  private func reference(at index: Int, into decoded: inout [UInt8]) throws(Stop) -> Int {
    try Self.reference(bytes, loaded: loaded, at: index, into: &decoded)
  }

  /// ``reference(at:into:)`` of `bytes`, whose first `loaded` are read.
  private static func reference(_ bytes: ByteView, loaded: Int, at index: Int, into decoded: inout [UInt8])
    throws(Stop) -> Int
  {
    func byte(_ index: Int) throws(Stop) -> UInt8 {
      guard index < loaded else { throw .needMore }
      return bytes[index]
    }
    var end = index + 1
    while try byte(end) != UInt8(ascii: ";") {
      guard end - index < 12 else { throw .declined("a reference") }
      end += 1
    }
    let name = bytes.slice(index + 1..<end)
    let entities: [(StaticString, UInt8)] = [
      ("lt", UInt8(ascii: "<")), ("gt", UInt8(ascii: ">")), ("amp", UInt8(ascii: "&")), ("quot", UInt8(ascii: "\"")),
      ("apos", UInt8(ascii: "'")),
    ]
    for (entity, character) in entities where name.equals(entity) {
      decoded.append(character)
      return end + 1
    }
    guard name.count >= 2, name[0] == UInt8(ascii: "#") else { throw .declined("an entity reference") }
    let isHex = name[1] == UInt8(ascii: "x")
    let digits = name.slice((isHex ? 2 : 1)..<name.count)
    guard digits.count > 0, digits.count <= 8,
      !digits.contains(where: { !($0 &- UInt8(ascii: "0") < 10 || (isHex && ($0 | 0x20) &- UInt8(ascii: "a") < 6)) }),
      let code = UInt32(String(decoding: digits.buffer, as: UTF8.self), radix: isHex ? 16 : 10),
      code == 0x09 || code == 0x0A || code == 0x0D || (0x20...0xD7FF).contains(code) || (0xE000...0xFFFD).contains(code)
        || (0x10000...0x10FFFF).contains(code),
      let scalar = Unicode.Scalar(code)
    else { throw .declined("a character reference") }
    decoded.append(contentsOf: String(Character(scalar)).utf8)
    return end + 1
  }

  /// Reads one XML `Char` in UTF-8 at `index` (``XMLCharacterRule``).
  @inline(__always)
  private func character(at index: Int) throws(Stop) -> Int {
    switch XMLCharacterRule.read(bytes, at: index, loaded: loaded, asciiOnly: asciiOnly) {
    case .character(let end): return end
    case .needsMore: throw .needMore
    case .refused(let reason): throw .declined(reason)
    }
  }
}
