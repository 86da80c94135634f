/// Reads a worksheet part's bytes directly as they inflate, for parts in a conservative, well-formed subset of
/// XML 1.0 and Namespaces in XML; anything outside it makes the scanner decline (``Stop/declined(_:)``), and the
/// caller reads the part with libxml2 instead (``XLSXSheetReader``, then ``XLSXSheetRewriter``), whose errors and
/// messages stay the ones users see. libxml2's streaming reader alone took about 5 s of a million-row sheet.
///
/// The subset:
/// - UTF-8 without a byte order mark; no XML declaration, or one in ``XMLDeclarationRule``'s subset (version
///   1.0, UTF-8 or US-ASCII); white space around the root element; no comment, processing instruction, CDATA
///   section or document type anywhere.
/// - Names of ASCII letters, digits, `_`, `-`, `.` (not starting with a digit, `-` or `.`), with at most one
///   colon; namespaces declared on the root element only (`xmlns`, `xmlns:p` with a non-empty name, no two
///   prefixes for one name, neither the `xml` nor the `xmlns` namespace), every prefix used declared there
///   (`xml:` on attributes too); no attribute twice in a tag; end tags that match; at most 256 levels.
/// - Text and attribute values: XML `Char`s (§2.2) in well-formed UTF-8 (shortest form, no surrogates, no
///   U+FFFE/U+FFFF), `<` never in them, `&` only as `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` or a character
///   reference to a `Char`, no `]]>` in text.
/// - Rows: `row` elements (by their local name) straight inside a `sheetData` straight inside the root; no `row`
///   anywhere else.
///
/// Within the subset the scanner describes each row for its caller (``Item/row``): the row's bytes and, where
/// it can read them by the simple rules below, its cells (``Cell``). A row it cannot (``rowIsSimple`` `false`:
/// a row or cell without `r`, a reference out of place, a shared string the table does not have, a type no sheet has, rich text,
/// an element other than `<v>`, `<f>` and `<is><t>` in a cell, anything but cells in the row) is read by
/// ``XLSXRowCollector/row(_:after:sharedStrings:path:entry:)``, the one reader of rows from bytes, by the same
/// rules as libxml2's reading (`XLSXSheetScannerTests` compares both).
struct XLSXSheetScanner {
  /// Why the scanner stopped.
  enum Stop: Error {
    /// The buffer ends inside the item being read (internal: the scanner reads more and starts it again).
    case needMore
    /// The part is outside the subset (or malformed): not shown to users.
    case declined(String)
    /// The entry's stream refused its bytes (a zip bomb, a damaged entry, a DTD).
    case package(ZipError)
  }

  /// A cell's value as the simple rules read it.
  enum CellKind: UInt8 {
    /// A number (`t` absent or `n`): ``Cell/value`` is its `<v>` text.
    case number
    /// A shared string (`t="s"`): ``Cell/value`` is its index, which the table has.
    case shared
    /// An inline string (`t="inlineStr"`): ``Cell/value`` is its one `<t>`'s text.
    case inline
    /// A formula's string result (`t="str"`): ``Cell/value`` is its `<v>` text.
    case string
    /// A boolean, error or typed date, or a formula without a cached value: a value, not read here.
    case other
    /// No value.
    case empty
  }

  /// A cell read by the simple rules.
  struct Cell {
    /// Its column, from 0.
    var column: Int
    /// Its style's index (`s`; 0 without one).
    var style: Int
    var kind: CellKind
    /// The text's bytes in ``bytes`` (empty for ``CellKind/empty`` and ``CellKind/other``).
    var value: Range<Int>
    /// Whether the text is what it stores: no reference, carriage return or `_x` escape to decode.
    var isPlain: Bool
  }

  /// One piece of the part, in order: every byte is in exactly one item.
  enum Item {
    /// Bytes that are no row and no dimension, copied as they are.
    case markup(Range<Int>)
    /// A row element, described by ``rowStart`` … ``cells``.
    case row
    /// The `<dimension …>` start tag, whose `ref` the rewriter widens.
    case dimension(Range<Int>)
  }

  /// The most bytes of one item (the prolog with the root's start tag, a row, a run of text): libxml2's limit
  /// of a text node, which it refuses past it.
  static let maximumItemSize = 10_000_000
  /// The most levels of elements.
  static let maximumDepth = 256
  /// The most attributes of one tag.
  static let maximumAttributes = 64
  /// Readable bytes after the buffer's capacity.
  static let padding = 16

  private let stream: any ZipEntryReading
  private let buffer: ReadBuffer
  /// The stream's error, met after bytes the scanner has not read yet.
  private var streamError: ZipError? = nil
  /// The bytes read again from an item's start after a refill (for the tests: at most about twice the part's).
  private(set) var rescanned = 0
  private var chunk = [UInt8](repeating: 0, count: XLSXSheetScanner.readSize)
  /// The bytes read at a time.
  static let readSize = 1 << 18
  private let sharedStringCount: Int
  /// The bytes read: the entry's bytes from the buffer's start (a view renewed when the buffer changes).
  private(set) var bytes: ByteView
  private var loaded = 0
  private var position = 0
  private var ended = false

  private enum Phase { case prolog, content, epilog }
  private var phase = Phase.prolog
  /// Whether the declaration names US-ASCII (then a byte above 0x7F is declined).
  private var asciiOnly = false
  /// The open elements' names: up to 8 bytes as a word, longer ones in ``names`` from `start` (the rest of
  /// ``names`` past ``namesTop`` is room).
  private var open: [(word: UInt64, length: Int, start: Int)] = []
  private var names: [UInt8] = []
  private var namesTop = 0
  /// Whether the root's open child is a `sheetData`.
  private var sheetDataIsOpen = false
  /// The prefixes the root declares.
  private var prefixes: [[UInt8]] = []
  /// The attributes of the tag read last: name, prefix length (0: none) and value, and whether the value needs
  /// decoding.
  private var attributeList: [(name: Range<Int>, prefix: Int, value: Range<Int>, isPlain: Bool)] = []
  private var attributeCount = 0
  /// Whether an attribute of the tag has a prefix (then ``checkAttributePrefixes()`` looks at them).
  private var anyPrefixed = false
  private var attributes: ArraySlice<(name: Range<Int>, prefix: Int, value: Range<Int>, isPlain: Bool)> {
    attributeList[..<attributeCount]
  }

  // MARK: The row of the last ``Item/row``

  /// The row's number (by the simple rules; 0 when ``rowIsSimple`` is `false`).
  private(set) var rowNumber = 0
  /// ``rowNumber``'s decimal digits as bytes in a word (the first in the lowest byte), and how many.
  private var rowDigits: UInt64 = 0
  private var rowDigitCount = 0
  /// The row's element: from its `<` to after its end (its end tag's `>`, or its start tag's for `<row/>`).
  private(set) var rowRange = 0..<0
  /// The end of its start tag (after `>`), the `<` of its end tag (or its start tag's `/` for `<row/>`).
  private(set) var rowTagEnd = 0
  private(set) var rowEndTagStart = 0
  private(set) var rowIsEmptyElement = false
  /// Its `spans` value, and the prefix of its name (`x:`, or empty), in ``bytes``.
  private(set) var rowSpans: Range<Int>? = nil
  private(set) var rowPrefix = 0..<0
  /// Whether the simple rules read it: then ``cells`` are its cells.
  private(set) var rowIsSimple = true
  private(set) var cells: [Cell] = []
  /// The cell being read (added to ``cells`` at its end).
  private var current = Cell(column: -1, style: 0, kind: .empty, value: 0..<0, isPlain: true)
  /// Whether a cell of the row surely holds a value (a number, a boolean, an error, a formula, text with a
  /// printable character other than space): then the row is not blank.
  private(set) var rowHasValue = false
  /// The number of the row before (the caller sets it after reading a row the simple rules did not).
  var previousRow = 0
  /// The number of the row before this one.
  private(set) var rowPreviousRow = 0

  /// - Parameters:
  ///   - stream: the sheet's entry, unread.
  ///   - sharedStringCount: how many shared strings the workbook has.
  init(stream: any ZipEntryReading, sharedStringCount: Int) {
    self.stream = stream
    self.sharedStringCount = sharedStringCount
    buffer = ReadBuffer(capacity: 1 << 20, padding: Self.padding)
    bytes = buffer.view(count: 0)
  }

  /// The next item, or `nil` after the part's last byte.
  mutating func next() throws(Stop) -> Item? {
    while true {
      if position == loaded {
        guard try refill(keepingFrom: position) else {
          guard phase == .epilog else { throw .declined("the part ends inside its root element") }
          return nil
        }
      }
      let start = position
      let (openNames, openElements) = (namesTop, open.count)
      do throws(Stop) {
        let found = try item()
        guard position - start <= Self.maximumItemSize else { throw Stop.declined("an item too large") }
        return found
      } catch {
        guard case .needMore = error else { throw error }
        // needMore comes at the end of the bytes read: the item was read that far.
        rescanned += loaded - start
        // The item is read again from its start: the elements it opened are not open.
        namesTop = openNames
        open.removeSubrange(openElements...)
        if openElements < 2 { sheetDataIsOpen = false }
        position = start
        guard try refill(keepingFrom: start) else { throw .declined("the part ends inside markup") }
      }
    }
  }

  /// Reads more of the entry, keeping the bytes from `start` on (moved to the buffer's front: ``XMLPartRefill``).
  ///
  /// - Returns: `false` at the entry's end.
  private mutating func refill(keepingFrom start: Int) throws(Stop) -> Bool {
    guard !ended else { return false }
    if start > 0 { position -= start }
    let outcome = XMLPartRefill.refill(
      stream, into: buffer, chunk: &chunk, streamError: &streamError, loaded: &loaded, keepingFrom: start,
      readSize: Self.readSize, maximumItemSize: Self.maximumItemSize)
    switch outcome {
    case .tooLarge: throw .declined("an item too large")
    case .failed(let error): throw .package(error)
    case .read, .ended:
      bytes = buffer.view(count: loaded)
      if case .ended = outcome { ended = true }
      return !ended
    }
  }

  /// The byte at `index`, or ``Stop/needMore`` past the bytes read.
  @inline(__always)
  private func byte(_ index: Int) throws(Stop) -> UInt8 {
    guard index < loaded else { throw .needMore }
    return bytes[index]
  }

  // MARK: Items

  private mutating func item() throws(Stop) -> Item {
    let start = position
    switch phase {
    case .prolog:
      try prolog()
      phase = .content
      return .markup(start..<position)
    case .epilog:
      while position < loaded, XMLCharacterRule.isSpace(bytes[position]) { position += 1 }
      guard position > start else { throw .declined("content after the root element") }
      return .markup(start..<position)
    case .content:
      guard bytes[position] == UInt8(ascii: "<") else {
        position = try text(from: position).end
        return .markup(start..<position)
      }
      let next = try byte(position + 1)
      if next == UInt8(ascii: "/") {
        position = try endTag(at: position)
        if open.isEmpty { phase = .epilog }
        return .markup(start..<position)
      }
      let tag = try startTag(at: position)
      let local = localName(tag.name)
      if bytes.slice(local).equals("row") {
        guard open.count == 2, sheetDataIsOpen else {
          throw .declined("a row outside sheetData")
        }
        try row(at: start, tag: tag)
        return .row
      }
      if !tag.isEmptyElement { try push(tag.name) }
      position = tag.end
      if bytes.slice(local).equals("dimension") { return .dimension(start..<position) }
      return .markup(start..<position)
    }
  }

  /// The XML declaration, white space and the root's start tag.
  private mutating func prolog() throws(Stop) {
    var at = position
    if try byte(at) == UInt8(ascii: "<"), try byte(at + 1) == UInt8(ascii: "?") {
      at = try declaration(at: at)
    }
    while XMLCharacterRule.isSpace(try byte(at)) { at += 1 }
    guard try byte(at) == UInt8(ascii: "<") else { throw .declined("no root element") }
    let tag = try startTag(at: at, isRoot: true)
    guard !tag.isEmptyElement else { throw .declined("an empty root element") }
    try push(tag.name)
    position = tag.end
  }

  /// The XML declaration at `index` (``XMLDeclarationRule``).
  private mutating func declaration(at index: Int) throws(Stop) -> Int {
    guard bytes.slice(index..<min(loaded, index + 5)).equals("<?xml") else {
      if index + 5 > loaded { throw .needMore }
      throw .declined("a processing instruction")
    }
    switch XMLDeclarationRule.read(bytes, at: index, loaded: loaded) {
    case .declaration(let end, _, let ascii):
      asciiOnly = ascii
      return end
    case .needsMore: throw .needMore
    case .refused(let reason): throw .declined(reason)
    }
  }

  // MARK: Rows

  /// Reads a row element whose start tag (`tag`) is at `start`, and its cells by the simple rules.
  private mutating func row(at start: Int, tag: Tag) throws(Stop) {
    rowRange = start..<tag.end
    rowTagEnd = tag.end
    rowIsEmptyElement = tag.isEmptyElement
    rowEndTagStart = tag.isEmptyElement ? tag.end - 2 : tag.end
    rowPrefix = tag.name.lowerBound..<(localName(tag.name).lowerBound)
    rowSpans = nil
    rowIsSimple = true
    rowHasValue = false
    rowNumber = 0
    rowDigitCount = 0
    rowPreviousRow = previousRow
    cells.removeAll(keepingCapacity: true)
    var reference: Range<Int>? = nil
    for index in 0..<attributeCount where attributeList[index].prefix == 0 {
      let attribute = attributeList[index]
      let name = bytes.slice(attribute.name)
      if name.equals("r") {
        reference = attribute.isPlain ? attribute.value : nil
        if !attribute.isPlain { rowIsSimple = false }
      } else if name.equals("spans") {
        rowSpans = attribute.value
      }
    }
    if let reference, let number = Self.decimal(bytes.slice(reference)), number > previousRow,
      number <= CellReference.rowCount
    {
      rowNumber = number
      // Its digits as a cell reference writes them (at most 7), for cellStart(): little-endian, as word(at:) reads.
      (rowDigits, rowDigitCount) = (0, 0)
      var rest = number
      while rest > 0 {
        rowDigits = rowDigits << 8 | UInt64(UInt8(ascii: "0") + UInt8(rest % 10))
        rowDigitCount += 1
        rest /= 10
      }
    } else {
      rowIsSimple = false
    }
    guard !tag.isEmptyElement else {
      position = tag.end
      if rowIsSimple { previousRow = rowNumber }
      return
    }
    try push(tag.name)
    let rowDepth = open.count
    var at = tag.end
    /// The cell being read: its index in `cells`, and what its content held.
    var inCell = false
    var valueCount = 0
    var inlineCount = 0
    var hasFormula = false
    var type = CellKind.number
    var typeIsString = false
    var capture: (depth: Int, isInline: Bool)? = nil
    var inInline = false
    while true {
      if try byte(at) != UInt8(ascii: "<") {
        let text = try text(from: at)
        if let capture, open.count == capture.depth, inCell {
          current.value = at..<text.end
          current.isPlain = !text.needsDecoding && !text.hasEscape
        }
        at = text.end
        continue
      }
      // The children of a cell as nearly every sheet writes them, read at once: what the general steps below
      // read of them, step by step, comes out the same (a value's text and whether it is plain, the counts, the
      // cell finished), or they are read by those steps.
      if inCell, open.count == rowDepth + 1 {
        if type != .inline, hasLiteral(Self.valueStart, at: at) {
          // `<v>text</v>`
          let text = try text(from: at + 3)
          if hasLiteral(Self.valueEnd, at: text.end) {
            valueCount += 1
            inInline = false
            current.value = (at + 3)..<text.end
            current.isPlain = !text.needsDecoding && !text.hasEscape
            at = text.end + 4
            continue
          }
        } else if type == .inline, hasLiteral(Self.inlineStart, at: at) {
          // `<is><t>text</t></is>`
          let text = try text(from: at + 7)
          if hasLiteral(Self.inlineEnd, at: text.end) {
            inlineCount += 2
            inInline = true
            // Without text, the value is where `<is>` ends (as the steps leave it).
            current.value = text.end == at + 7 ? (at + 4)..<(at + 4) : (at + 7)..<text.end
            current.isPlain = !text.needsDecoding && !text.hasEscape
            at = text.end + 9
            continue
          }
        } else if hasLiteral(Self.cellEnd, at: at), let last = open.last, last.length == 1,
          bytes.word(at: at + 2, length: 1) == last.word
        {
          // `</c>`, closing the cell.
          namesTop = last.start
          open.removeLast()
          finishCell(type: type, typeIsString: typeIsString, values: valueCount, inlines: inlineCount, formula: hasFormula)
          inCell = false
          if let found = capture, found.depth == rowDepth + 1 { capture = nil }
          at += 4
          continue
        }
      }
      if try byte(at + 1) == UInt8(ascii: "/") {
        let depth = open.count
        let tagStart = at
        at = try endTag(at: at)
        if depth == rowDepth {
          rowEndTagStart = tagStart
          break
        }
        if inCell, depth == rowDepth + 1 {
          finishCell(type: type, typeIsString: typeIsString, values: valueCount, inlines: inlineCount, formula: hasFormula)
          inCell = false
        }
        if let found = capture, depth == found.depth { capture = nil }
        continue
      }
      // A cell's start tag as nearly every sheet writes it, read at once (what the general steps below make of
      // it comes out the same), or by those steps.
      if open.count == rowDepth, let cell = cellTag(at: at) {
        (type, typeIsString) = (cell.kind, cell.kind == .string)
        (valueCount, inlineCount, hasFormula) = (0, 0, false)
        if cell.isEmptyElement {
          finishCell(type: type, typeIsString: typeIsString, values: 0, inlines: 0, formula: false)
        } else {
          inCell = true
          try push((at + 1)..<(at + 2))
        }
        at = cell.end
        continue
      }
      let child = try startTag(at: at)
      let local = bytes.slice(localName(child.name))
      guard !local.equals("row") else { throw .declined("a row inside a row") }
      let depth = open.count - rowDepth  // 0: a child of the row
      if depth == 0 {
        guard local.equals("c") else {
          rowIsSimple = false
          if !child.isEmptyElement { try push(child.name) }
          at = child.end
          continue
        }
        (type, typeIsString) = cellStart()
        (valueCount, inlineCount, hasFormula) = (0, 0, false)
        if child.isEmptyElement {
          finishCell(type: type, typeIsString: typeIsString, values: 0, inlines: 0, formula: false)
        } else {
          inCell = true
          try push(child.name)
        }
        at = child.end
        continue
      }
      // Inside a cell (depth 1: its children; 2: inside `<is>`, the last child opened at depth 1 when open).
      guard inCell else {
        // Inside a child of the row that is no cell: the readers' rules read it.
        rowIsSimple = false
        if !child.isEmptyElement { try push(child.name) }
        at = child.end
        continue
      }
      if depth == 1 { inInline = local.equals("is") }
      if depth == 1, local.equals("v") {
        valueCount += 1
        if type != .inline, child.isEmptyElement {
          current.value = child.end..<child.end
          current.isPlain = true
        } else if type != .inline {
          current.value = child.end..<child.end
          current.isPlain = true
          capture = (open.count + 1, false)
        }
      } else if depth == 1, local.equals("f") {
        hasFormula = true
      } else if depth == 1, local.equals("is") {
        inlineCount += 1
        if type == .inline {
          current.value = child.end..<child.end
          current.isPlain = true
        }
      } else if depth == 2, type == .inline, inInline, local.equals("t") {
        inlineCount += 1
        if !child.isEmptyElement { capture = (open.count + 1, true) }
      } else {
        rowIsSimple = false
      }
      if !child.isEmptyElement { try push(child.name) }
      at = child.end
    }
    rowRange = start..<at
    position = at
    if rowIsSimple { previousRow = rowNumber }
  }

  /// The markup ``row(at:tag:)`` reads at once inside a cell, as little-endian words (``hasLiteral(_:at:)``):
  /// constants, which the compiler folds into the comparisons (a `static let` is looked up at each use);
  /// `XLSXSheetScannerTests` checks them against ``literal(_:)``.
  static var valueStart: (first: UInt64, second: UInt64, count: Int) { (0x3E_763C, 0, 3) }  // <v>
  static var valueEnd: (first: UInt64, second: UInt64, count: Int) { (0x3E76_2F3C, 0, 4) }  // </v>
  static var inlineStart: (first: UInt64, second: UInt64, count: Int) { (0x3E_743C_3E73_693C, 0, 7) }  // <is><t>
  static var inlineEnd: (first: UInt64, second: UInt64, count: Int) { (0x7369_2F3C_3E74_2F3C, 0x3E, 9) }  // </t></is>
  static var cellEnd: (first: UInt64, second: UInt64, count: Int) { (0x3E63_2F3C, 0, 4) }  // </c>

  /// Markup as ``hasLiteral(_:at:)`` compares it: its first 8 bytes as a little-endian word, the next 8 as
  /// another, and its length.
  static func literal(_ text: StaticString) -> (first: UInt64, second: UInt64, count: Int) {
    let bytes = Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    func word(_ part: ArraySlice<UInt8>) -> UInt64 {
      part.reversed().reduce(0) { ($0 << 8) | UInt64($1) }
    }
    return (word(bytes.prefix(8)), word(bytes.dropFirst(8).prefix(8)), bytes.count)
  }

  /// Whether the bytes read hold `literal` at `index`.
  @inline(__always)
  private func hasLiteral(_ literal: (first: UInt64, second: UInt64, count: Int), at index: Int) -> Bool {
    guard index + literal.count <= loaded else { return false }
    guard bytes.word(at: index, length: min(literal.count, 8)) == literal.first else { return false }
    return literal.count <= 8 || bytes.word(at: index + 8, length: literal.count - 8) == literal.second
  }

  /// A cell's start tag at `index` in the form nearly every sheet writes: `<c r="` one to three capitals and
  /// the row's own digits `"`, then ` s="` one to nine digits `"` and ` t="` a type of a sheet's `"`, each at most
  /// once and in either order, then `>` or `/>`, naming a column past the row's cells before and at most XFD.
  /// Makes it the ``current`` cell as ``startTag(at:isRoot:)`` and ``cellStart()`` make it (no attribute of it is
  /// read after); `nil` for any other tag, or one within ``cellTagReach`` of the bytes read's end, which those
  /// read.
  ///
  /// - Returns: its type, its end (after `>`), whether it is `<c …/>`.
  @inline(__always)
  private mutating func cellTag(at index: Int) -> (kind: CellKind, end: Int, isEmptyElement: Bool)? {
    guard rowDigitCount > 0, index + Self.cellTagReach <= loaded, hasLiteral(Self.cellReferenceStart, at: index) else {
      return nil
    }
    let bytes = self.bytes
    var at = index + 6
    var column = 0
    while at < index + 9 {
      let letter = bytes[at] &- UInt8(ascii: "A")
      guard letter < 26 else { break }
      column = column * 26 + Int(letter) + 1
      at += 1
    }
    guard at > index + 6, column <= CellReference.columnCount, column - 1 > (cells.last?.column ?? -1),
      bytes.word(at: at, length: rowDigitCount) == rowDigits, bytes[at + rowDigitCount] == UInt8(ascii: "\"")
    else { return nil }
    at += rowDigitCount + 1
    var style = 0
    var kind = CellKind.number
    var (hasStyle, hasType) = (false, false)
    while bytes[at] == 0x20 {
      let word = bytes.word(at: at, length: 4)
      if word == Self.styleStart, !hasStyle {
        // ` s="digits"`
        hasStyle = true
        at += 4
        let digits = at
        var value = 0
        while at < digits + 10, bytes[at] &- UInt8(ascii: "0") < 10 {
          value = value * 10 + Int(bytes[at] &- UInt8(ascii: "0"))
          at += 1
        }
        guard at > digits, at - digits <= 9, bytes[at] == UInt8(ascii: "\"") else { return nil }
        style = value
        at += 1
      } else if word == Self.typeStart, !hasType {
        // ` t="type"`
        hasType = true
        at += 4
        switch bytes.word(at: at, length: 2) {
        case Self.sharedType: kind = .shared
        case Self.numberType: kind = .number
        case Self.booleanType, Self.errorType, Self.dateType: kind = .other
        default:
          if bytes.word(at: at, length: 4) == Self.stringType {
            kind = .string
            at += 2
          } else if bytes.word(at: at, length: 8) == Self.inlineType.first,
            bytes.word(at: at + 8, length: 2) == Self.inlineType.second
          {
            kind = .inline
            at += 8
          } else {
            return nil
          }
        }
        at += 2
      } else {
        return nil
      }
    }
    let end: Int
    let isEmptyElement = bytes[at] == UInt8(ascii: "/")
    if isEmptyElement {
      guard bytes[at + 1] == UInt8(ascii: ">") else { return nil }
      end = at + 2
    } else {
      guard bytes[at] == UInt8(ascii: ">") else { return nil }
      end = at + 1
    }
    attributeCount = 0
    anyPrefixed = false
    current = Cell(column: column - 1, style: style, kind: kind, value: 0..<0, isPlain: true)
    return (kind, end, isEmptyElement)
  }

  /// The bytes ``cellTag(at:)`` may read from a tag's start: more than its longest form,
  /// `<c r="XFD1048576" s="123456789" t="inlineStr"/>`.
  static let cellTagReach = 64

  /// ``cellTag(at:)``'s markup as little-endian words: `<c r="`, ` s="`, ` t="`, and the types with their closing
  /// quote (`s"`, `n"`, `b"`, `e"`, `d"`, `str"`, `inlineStr"`).
  static var cellReferenceStart: (first: UInt64, second: UInt64, count: Int) { (0x223D_7220_633C, 0, 6) }
  static var styleStart: UInt64 { 0x223D_7320 }
  static var typeStart: UInt64 { 0x223D_7420 }
  static var sharedType: UInt64 { 0x2273 }
  static var numberType: UInt64 { 0x226E }
  static var booleanType: UInt64 { 0x2262 }
  static var errorType: UInt64 { 0x2265 }
  static var dateType: UInt64 { 0x2264 }
  static var stringType: UInt64 { 0x2272_7473 }
  static var inlineType: (first: UInt64, second: UInt64) { (0x7453_656E_696C_6E69, 0x2272) }

  /// A cell's start tag was read (its attributes in ``attributes``): makes it the ``current`` one.
  ///
  /// - Returns: its type, and whether it is `str`.
  private mutating func cellStart() -> (CellKind, Bool) {
    var reference: Range<Int>? = nil
    var style = 0
    var kind = CellKind.number
    var isString = false
    for index in 0..<attributeCount where attributeList[index].prefix == 0 {
      let attribute = attributeList[index]
      let name = bytes.slice(attribute.name)
      guard name.count == 1 else { continue }
      let value = bytes.slice(attribute.value)
      switch name[0] {
      case UInt8(ascii: "r"): reference = attribute.isPlain ? attribute.value : nil
      case UInt8(ascii: "s"):
        // The readers take a style that is no number as none (`Int(s) ?? 0`).
        if !attribute.isPlain {
          rowIsSimple = false
        } else if !value.isEmpty {
          style = Self.decimal(value) ?? (Self.isSignedNumber(value) ? -1 : 0)
          if style < 0 { rowIsSimple = false }
        }
      case UInt8(ascii: "t"):
        if !attribute.isPlain {
          rowIsSimple = false
        } else if value.equals("s") {
          kind = .shared
        } else if value.equals("inlineStr") {
          kind = .inline
        } else if value.equals("str") {
          kind = .string
          isString = true
        } else if value.equals("b") || value.equals("e") || value.equals("d") {
          kind = .other
        } else if !value.equals("n") {
          // A type no sheet has: the readers' rules refuse its value.
          rowIsSimple = false
        }
      default: break
      }
    }
    var column = -1
    if let reference, let found = referenceColumn(reference), found > (cells.last?.column ?? -1) {
      column = found
    } else {
      rowIsSimple = false
    }
    current = Cell(column: column, style: style, kind: kind, value: 0..<0, isPlain: true)
    return (kind, isString)
  }

  /// The column of a cell reference in the row being read (``CellReference`` of it, on row ``rowNumber``);
  /// `nil` for any other reference. One to three capital letters followed by the row's digits are read at once
  /// (the digits compared as a word); anything else by ``CellReference``.
  @inline(__always)
  private func referenceColumn(_ reference: Range<Int>) -> Int? {
    var letters = 0
    var column = 0
    while letters < 3, letters < reference.count {
      let letter = bytes[reference.lowerBound + letters] &- UInt8(ascii: "A")
      guard letter < 26 else { break }
      column = column * 26 + Int(letter) + 1
      letters += 1
    }
    if letters > 0, rowDigitCount > 0, reference.count - letters == rowDigitCount,
      bytes.word(at: reference.lowerBound + letters, length: rowDigitCount) == rowDigits,
      column <= CellReference.columnCount
    {
      return column - 1
    }
    guard let found = CellReference(utf8: bytes.slice(reference)), found.row == rowNumber else { return nil }
    return found.column
  }

  /// Adds the ``current`` cell, finished, to ``cells``: a simple row has at most a cell per column; the others
  /// are read whole (their cells are not used), so one cell of theirs is kept at a time (memory stays bounded
  /// whatever the row holds).
  private mutating func addCell(_ cell: Cell) {
    if rowIsSimple || cells.isEmpty {
      cells.append(cell)
    } else {
      cells[cells.count - 1] = cell
    }
  }

  /// A cell's end: its kind from its type and what it held, as the readers' rules give it.
  private mutating func finishCell(type: CellKind, typeIsString: Bool, values: Int, inlines: Int, formula: Bool) {
    var cell = current
    if type == .inline {
      // One `<is>` holding one `<t>`; without `<is>`, no value.
      if inlines == 0 {
        cell.kind = .empty
      } else if inlines != 2 || values > 0 {
        rowIsSimple = false
      }
    } else if values > 1 || inlines > 0 {
      rowIsSimple = false
    } else if values == 0 || (cell.value.isEmpty && !typeIsString) {
      cell.kind = formula ? .other : .empty
      cell.value = 0..<0
    } else if type == .number,
      XMLCharacterRule.isSpace(bytes[cell.value.lowerBound]) || XMLCharacterRule.isSpace(bytes[cell.value.upperBound - 1])
    {
      // White space around a number collapses by the readers' rules (an XML Schema value).
      rowIsSimple = false
    } else if type == .shared {
      guard cell.isPlain, let index = Self.decimal(bytes.slice(cell.value)), index < sharedStringCount else {
        rowIsSimple = false
        addCell(cell)
        return
      }
    }
    switch cell.kind {
    case .number, .other: rowHasValue = true
    case .inline, .string:
      if !rowHasValue, cell.isPlain, bytes.slice(cell.value).contains(where: { $0 > 0x20 && $0 < 0x7F }) { rowHasValue = true }
    case .shared, .empty: break
    }
    addCell(cell)
  }

  /// A number without sign or leading zeros, as `Int(text)` reads it (at most 9 digits here); `nil` otherwise.
  static func decimal(_ text: ByteView) -> Int? {
    guard text.count > 0, text.count <= 9 else { return nil }
    var value = 0
    for byte in text {
      guard byte &- UInt8(ascii: "0") < 10 else { return nil }
      value = value * 10 + Int(byte &- UInt8(ascii: "0"))
    }
    return value
  }

  /// Whether `Int(text)` would read the text but ``decimal(_:)`` does not: a sign, or more digits.
  private static func isSignedNumber(_ text: ByteView) -> Bool {
    Int(String(decoding: text.buffer, as: UTF8.self)) != nil
  }

  // MARK: Markup

  /// A start tag read: its name, its end (after `>`), and whether it is `<name/>`; its attributes are in
  /// ``attributes``.
  struct Tag {
    let name: Range<Int>
    let end: Int
    let isEmptyElement: Bool
  }

  /// The local part of a name (after its colon).
  @inline(__always)
  private func localName(_ name: Range<Int>) -> Range<Int> {
    var index = name.upperBound
    while index > name.lowerBound {
      if bytes[index - 1] == UInt8(ascii: ":") { return index..<name.upperBound }
      index -= 1
    }
    return name
  }

  private mutating func push(_ name: Range<Int>) throws(Stop) {
    guard open.count < Self.maximumDepth else { throw .declined("too deep") }
    if open.count == 1 { sheetDataIsOpen = bytes.slice(localName(name)).equals("sheetData") }
    guard name.count > 8 else {
      open.append((bytes.word(at: name.lowerBound, length: name.count), name.count, namesTop))
      return
    }
    let start = namesTop
    for byte in bytes.slice(name) {
      if namesTop < names.count {
        names[namesTop] = byte
      } else {
        names.append(byte)
      }
      namesTop += 1
    }
    open.append((0, name.count, start))
  }

  /// Reads a start tag at `index` (its `<`) into ``attributes``.
  private mutating func startTag(at index: Int, isRoot: Bool = false) throws(Stop) -> Tag {
    if !isRoot, let tag = plainTag(at: index) { return tag }
    let name = try qualifiedName(at: index + 1)
    attributeCount = 0
    anyPrefixed = false
    var at = name.range.upperBound
    while true {
      var spaces = 0
      while XMLCharacterRule.isSpace(try byte(at)) {
        at += 1
        spaces += 1
      }
      let byte = try byte(at)
      if byte == UInt8(ascii: ">") {
        if isRoot { try declarePrefixes() }
        try checkPrefix(name.range, prefix: name.prefix)
        try checkAttributePrefixes()
        return Tag(name: name.range, end: at + 1, isEmptyElement: false)
      }
      if byte == UInt8(ascii: "/") {
        guard try self.byte(at + 1) == UInt8(ascii: ">") else { throw .declined("a malformed tag") }
        if isRoot { try declarePrefixes() }
        try checkPrefix(name.range, prefix: name.prefix)
        try checkAttributePrefixes()
        return Tag(name: name.range, end: at + 2, isEmptyElement: true)
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
      guard !hasAttribute(named: attribute.range) else { throw .declined("an attribute twice") }
      let read = (attribute.range, attribute.prefix, at + 1..<value.end, value.isPlain)
      if attributeCount < attributeList.count {
        attributeList[attributeCount] = read
      } else {
        attributeList.append(read)
      }
      attributeCount += 1
      // Each attribute is compared with the ones before it: a hostile tag of thousands is left to libxml2.
      guard attributeCount <= Self.maximumAttributes else { throw .declined("too many attributes") }
      if attribute.prefix > 0 || attribute.range.count == 5 { anyPrefixed = true }
      at = value.end + 1
    }
  }

  /// A start tag in the form nearly every sheet writes, read by a narrower loop: an unprefixed name of ASCII
  /// letters, then attributes each after one space, named by ASCII letters (not `xmlns`), `="`, a value of
  /// printable ASCII but `"`, `<` and `&`, `"`; then `>` or `/>`. What ``startTag(at:isRoot:)`` reads of such a
  /// tag, it reads the same (name, end, attributes, all plain; no prefix to check); `nil` for any other tag, or
  /// one that runs past the bytes read, which ``startTag(at:isRoot:)`` then reads by the general rules.
  @inline(__always)
  private mutating func plainTag(at index: Int) -> Tag? {
    @inline(__always) func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    let bytes = self.bytes
    let loaded = self.loaded
    var at = index + 1
    while at < loaded, isLetter(bytes[at]) { at += 1 }
    let name = (index + 1)..<at
    guard !name.isEmpty, name.count < 1000 else { return nil }
    attributeCount = 0
    anyPrefixed = false
    while at < loaded {
      switch bytes[at] {
      case UInt8(ascii: ">"): return Tag(name: name, end: at + 1, isEmptyElement: false)
      case UInt8(ascii: "/"):
        guard at + 1 < loaded, bytes[at + 1] == UInt8(ascii: ">") else { return nil }
        return Tag(name: name, end: at + 2, isEmptyElement: true)
      case 0x20:
        at += 1
        let nameStart = at
        while at < loaded, isLetter(bytes[at]) { at += 1 }
        let attribute = nameStart..<at
        guard !attribute.isEmpty, attribute.count < 1000, at + 1 < loaded, bytes[at] == UInt8(ascii: "="),
          bytes[at + 1] == UInt8(ascii: "\""),
          !bytes.slice(attribute).equals("xmlns"), attributeCount < 8
        else { return nil }
        at += 2
        let valueStart = at
        while at < loaded {
          let byte = bytes[at]
          guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&")
          else { break }
          at += 1
        }
        guard at < loaded, bytes[at] == UInt8(ascii: "\"") else { return nil }
        guard !hasAttribute(named: attribute) else { return nil }
        let read = (attribute, 0, valueStart..<at, true)
        if attributeCount < attributeList.count {
          attributeList[attributeCount] = read
        } else {
          attributeList.append(read)
        }
        attributeCount += 1
        at += 1
      default: return nil
      }
    }
    return nil
  }

  /// Whether the tag being read has an attribute named as the bytes `name` already.
  @inline(__always)
  private func hasAttribute(named name: Range<Int>) -> Bool {
    for index in 0..<attributeCount {
      let other = attributeList[index].name
      if other.count == name.count, bytes.bytesEqual(at: other.lowerBound, name.lowerBound, length: name.count) {
        return true
      }
    }
    return false
  }

  /// The root's namespace declarations: its prefixes, each bound once to a non-empty name that is neither
  /// the `xml` nor the `xmlns` namespace.
  private mutating func declarePrefixes() throws(Stop) {
    var bound: [[UInt8]] = []
    for attribute in attributes {
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
    }
  }

  /// Every prefixed attribute's prefix is `xml` or one the root declares; `xmlns` declarations only on the root.
  private mutating func checkAttributePrefixes() throws(Stop) {
    guard anyPrefixed else { return }
    for attribute in attributes {
      let name = bytes.slice(attribute.name)
      if name.equals("xmlns") || (attribute.prefix == 5 && name.starts(with: "xmlns".utf8)) {
        guard open.isEmpty else { throw .declined("a namespace declaration below the root") }
        continue
      }
      guard attribute.prefix > 0 else { continue }
      let prefix = bytes.slice(attribute.name.lowerBound..<(attribute.name.lowerBound + attribute.prefix))
      if prefix.elementsEqual("xml".utf8) { continue }
      guard prefixes.contains(where: { prefix.elementsEqual($0) }) else { throw .declined("an undeclared prefix") }
    }
  }

  /// An element name's prefix is one the root declares (checked after the root's declarations are read).
  private func checkPrefix(_ name: Range<Int>, prefix: Int) throws(Stop) {
    guard prefix > 0 else { return }
    let bytes = self.bytes.slice(name.lowerBound..<(name.lowerBound + prefix))
    guard prefixes.contains(where: { bytes.elementsEqual($0) }) else { throw .declined("an undeclared prefix") }
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
  /// - Returns: the index after its `>`.
  private mutating func endTag(at index: Int) throws(Stop) -> Int {
    guard let last = open.last else { throw .declined("an end tag after the root") }
    var at = index + 2
    guard at + last.length < loaded else { throw .needMore }
    if last.length <= 8 {
      guard bytes.word(at: at, length: last.length) == last.word else { throw .declined("a mismatched end tag") }
    } else {
      for offset in 0..<last.length where bytes[at + offset] != names[last.start + offset] {
        throw .declined("a mismatched end tag")
      }
    }
    at += last.length
    while XMLCharacterRule.isSpace(try byte(at)) { at += 1 }
    guard try byte(at) == UInt8(ascii: ">") else { throw .declined("a mismatched end tag") }
    namesTop = last.start
    open.removeLast()
    if open.count == 1 { sheetDataIsOpen = false }
    return at + 1
  }

  /// Reads character data (§2.4) from `index` up to the next `<`.
  ///
  /// - Returns: the `<`'s index; whether the text holds a reference or a carriage return; whether it holds
  ///   `_x` (OOXML's escapes in inline strings).
  @inline(__always)
  private mutating func text(from index: Int) throws(Stop) -> (end: Int, needsDecoding: Bool, hasEscape: Bool) {
    var at = index
    var needsDecoding = false
    var hasEscape = false
    let bytes = self.bytes
    let loaded = self.loaded
    while true {
      // Printable ASCII other than `<`, `&`, `]` and `_` needs no other look.
      while at < loaded {
        let byte = bytes[at]
        guard byte &- 0x20 < 0x5F, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&"), byte != UInt8(ascii: "]"),
          byte != UInt8(ascii: "_")
        else { break }
        at += 1
      }
      guard at < loaded else { throw .needMore }
      let byte = bytes[at]
      switch byte {
      case UInt8(ascii: "<"): return (at, needsDecoding, hasEscape)
      case UInt8(ascii: "&"):
        at = try reference(at: at)
        needsDecoding = true
      case UInt8(ascii: "]"):
        if try self.byte(at + 1) == UInt8(ascii: "]"), try self.byte(at + 2) == UInt8(ascii: ">") {
          throw .declined("]]> in text")
        }
        at += 1
      case UInt8(ascii: "_"):
        if try self.byte(at + 1) == UInt8(ascii: "x") { hasEscape = true }
        at += 1
      case 0x0D:
        needsDecoding = true
        at += 1
      default:
        at = try character(at: at)
      }
    }
  }

  /// Reads an attribute value (§3.1 `AttValue`) from `index` up to its closing `quote`.
  ///
  /// - Returns: the closing quote's index, and whether the value is as stored (no reference, tab or line end).
  private func attributeValue(from index: Int, quote: UInt8) throws(Stop) -> (end: Int, isPlain: Bool) {
    var at = index
    var isPlain = true
    let bytes = self.bytes
    let loaded = self.loaded
    while true {
      // Printable ASCII other than the quote, `<` and `&` needs no other look.
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
        at = try reference(at: at)
        isPlain = false
      case 0x09, 0x0A, 0x0D:
        isPlain = false
        at += 1
      default: at = try character(at: at)
      }
    }
  }

  /// Reads a reference at `index` (its `&`): one of the five predefined entities, or a character reference to
  /// an XML `Char`.
  ///
  /// - Returns: the index after its `;`.
  private func reference(at index: Int) throws(Stop) -> Int {
    var end = index + 1
    while try byte(end) != UInt8(ascii: ";") {
      guard end - index < 12 else { throw .declined("a reference") }
      end += 1
    }
    let name = bytes.slice(index + 1..<end)
    for entity in ["lt", "gt", "amp", "quot", "apos"] where name.elementsEqual(entity.utf8) { return end + 1 }
    guard name.count >= 2, name[0] == UInt8(ascii: "#") else { throw .declined("an entity reference") }
    let isHex = name[1] == UInt8(ascii: "x")
    let digits = name.slice((isHex ? 2 : 1)..<name.count)
    guard digits.count > 0, digits.count <= 8,
      // Digits only (`UInt32(_:radix:)` would take a sign).
      !digits.contains(where: { !($0 &- UInt8(ascii: "0") < 10 || (isHex && ($0 | 0x20) &- UInt8(ascii: "a") < 6)) }),
      let code = UInt32(String(decoding: digits.buffer, as: UTF8.self), radix: isHex ? 16 : 10),
      code == 0x09 || code == 0x0A || code == 0x0D || (0x20...0xD7FF).contains(code) || (0xE000...0xFFFD).contains(code)
        || (0x10000...0x10FFFF).contains(code)
    else { throw .declined("a character reference") }
    return end + 1
  }

  /// Reads one XML `Char` (§2.2) in UTF-8 at `index` (``XMLCharacterRule``).
  ///
  /// - Returns: the index after it.
  @inline(__always)
  private func character(at index: Int) throws(Stop) -> Int {
    switch XMLCharacterRule.read(bytes, at: index, loaded: loaded, asciiOnly: asciiOnly) {
    case .character(let end): return end
    case .needsMore: throw .needMore
    case .refused(let reason): throw .declined(reason)
    }
  }
}
