/// Reads a sheet's rows from the markup ``XLSXSheetRewriter`` passes over in pass 2, so that the sheet is not
/// parsed a second time by libxml2: pass 1 read the same part with ``XLSXSheetReader`` (libxml2), which found it
/// well-formed, without a document type, and placed every row and cell.
///
/// It reads what ``XLSXSheetReader`` reads, by the same rules (``XLSXSheetReader/rowNumber(_:after:)``,
/// ``XLSXSheetReader/cell(reference:type:style:value:formula:inline:row:after:sharedStrings:path:entry:line:)``):
/// any element named `row` (by its local name, whatever its prefix) is a row; any element named `c` inside a
/// row, not inside another cell, is a cell, with its `r`, `t` and `s` attributes; a cell's last `<v>` and
/// `<f>` are its value and formula, each the text of everything inside it; its last `<is>` is its inline
/// string: the text of the `<t>` elements inside it, not those inside `<rPh>` (phonetic runs), with OOXML's
/// `_xHHHH_` escapes. Text is XML's: the five predefined entities and character references decoded, CDATA
/// sections as they are, line ends normalized to `\n`, comments and processing instructions skipped; attribute
/// values also have their white space characters made spaces. `XLSXRowCollectorTests` compares both readers
/// on real, generated and mutated sheets.
struct XLSXRowCollector {
  let sharedStrings: XLSXSharedStrings
  let path: String
  let entry: String

  /// The row being read: its number and its cells so far.
  private(set) var number = 0
  private(set) var cells: [SheetCell] = []
  private var previousRow = 0

  /// What the reader is inside of, in a cell.
  private enum Capture {
    /// No text is kept.
    case none
    /// A `<v>` or `<f>`: all its text, to its end at this depth.
    case value(isFormula: Bool, depth: Int)
    /// An `<is>` to its end at `depth`; inside it a `<t>` (to `text`'s end depth) or an `<rPh>` (skipped to its
    /// end depth).
    case inline(depth: Int, text: Int?, phonetic: Int?)
  }

  /// The cell being read, when in one: its attributes, depth below it, and what was read of it.
  private var inCell = false
  private var depth = 0
  private var attributes: (reference: String?, type: String?, style: String?) = (nil, nil, nil)
  private var capture = Capture.none
  private var captured: [UInt8] = []
  private var inlineText: [UInt8] = []
  private var value: String? = nil
  private var formula: String? = nil
  private var inline: String? = nil

  /// - Parameter previousRow: the number of the row before the first one read (0: none).
  init(sharedStrings: XLSXSharedStrings, path: String, entry: String, previousRow: Int = 0) {
    self.sharedStrings = sharedStrings
    self.path = path
    self.entry = entry
    self.previousRow = previousRow
  }

  /// Reads one row element from its bytes (from its `<` to after its end), by the rules above: the rows
  /// ``XLSXSheetScanner`` leaves to them. The bytes are in its subset (no comment, CDATA section or processing
  /// instruction).
  ///
  /// - Parameter previousRow: the number of the row before it.
  /// - Throws: ``WorkbookError`` for a row or cell out of place, or a shared string the table does not have.
  static func row(
    _ element: [UInt8], after previousRow: Int, sharedStrings: XLSXSharedStrings, path: String, entry: String
  ) throws(WorkbookError) -> SheetRow {
    var collector = XLSXRowCollector(sharedStrings: sharedStrings, path: path, entry: entry, previousRow: previousRow)
    var index = 0
    var inRow = false
    while index < element.count {
      guard let open = element[index...].firstIndex(of: UInt8(ascii: "<")) else { break }
      if inRow, open > index { collector.text(element[index..<open], isCDATA: false) }
      guard let end = XMLMarkup.end(in: element, from: open) else { break }
      let markup = open..<end
      index = end
      let name = XLSXSheetRewriter.name(in: element, markup)
      let isStart = element[open + 1] != UInt8(ascii: "/")
      let isEmpty = element[end - 2] == UInt8(ascii: "/")
      if !inRow {
        try collector.startRow(element[markup])
        if isEmpty { break }
        inRow = true
      } else if name.local.elementsEqual("row".utf8), !isStart {
        break
      } else if isStart {
        try collector.startElement(name.local, tag: element[markup], isEmpty: isEmpty)
      } else {
        try collector.endElement()
      }
    }
    collector.endRow()
    return SheetRow(number: collector.number, cells: collector.cells)
  }

  /// A row's start tag (`empty`: `<row …/>`).
  mutating func startRow(_ tag: ArraySlice<UInt8>) throws(WorkbookError) {
    let text = Self.attribute("r", of: tag)
    guard let row = XLSXSheetReader.rowNumber(text, after: previousRow) else {
      throw .misplacedRow(path: path, entry: entry, line: 0, row: text ?? String(previousRow + 1))
    }
    number = row
    previousRow = row
    cells.removeAll(keepingCapacity: true)
    inCell = false
  }

  /// An element's start tag inside a row (not the row's), by its local name.
  mutating func startElement(_ local: ArraySlice<UInt8>, tag: ArraySlice<UInt8>, isEmpty: Bool) throws(WorkbookError) {
    guard inCell else {
      guard local.elementsEqual("c".utf8) else { return }
      inCell = true
      depth = 0
      attributes = (Self.attribute("r", of: tag), Self.attribute("t", of: tag), Self.attribute("s", of: tag))
      capture = .none
      (value, formula, inline) = (nil, nil, nil)
      if isEmpty { try endCell() }
      return
    }
    depth += 1
    switch capture {
    case .none:
      if local.elementsEqual("v".utf8) || local.elementsEqual("f".utf8) {
        captured.removeAll(keepingCapacity: true)
        capture = .value(isFormula: local.first == UInt8(ascii: "f"), depth: depth)
      } else if local.elementsEqual("is".utf8) {
        inlineText.removeAll(keepingCapacity: true)
        capture = .inline(depth: depth, text: nil, phonetic: nil)
      }
    case .value: break
    case .inline(let inlineDepth, let text, let phonetic):
      if text == nil, phonetic == nil {
        if local.elementsEqual("rPh".utf8) {
          capture = .inline(depth: inlineDepth, text: nil, phonetic: depth)
        } else if local.elementsEqual("t".utf8) {
          captured.removeAll(keepingCapacity: true)
          capture = .inline(depth: inlineDepth, text: depth, phonetic: nil)
        }
      }
    }
    if isEmpty { try endElement() }
  }

  /// An element's end tag inside a row (not the row's).
  mutating func endElement() throws(WorkbookError) {
    guard inCell else { return }
    guard depth > 0 else { return try endCell() }
    switch capture {
    case .none: break
    case .value(let isFormula, let valueDepth):
      if depth == valueDepth {
        let text = String(decoding: captured, as: UTF8.self)
        if isFormula { formula = text } else { value = text }
        capture = .none
      }
    case .inline(let inlineDepth, let text, let phonetic):
      if depth == inlineDepth {
        inline = XLSXText.unescaped(String(decoding: inlineText, as: UTF8.self))
        capture = .none
      } else if depth == text {
        inlineText += captured
        capture = .inline(depth: inlineDepth, text: nil, phonetic: nil)
      } else if depth == phonetic {
        capture = .inline(depth: inlineDepth, text: nil, phonetic: nil)
      }
    }
    depth -= 1
  }

  /// Character data inside a row: `raw` as written (entity and character references, line ends), or a CDATA
  /// section's content (`isCDATA`, taken as it is but for line ends).
  mutating func text(_ raw: ArraySlice<UInt8>, isCDATA: Bool) {
    guard inCell else { return }
    switch capture {
    case .value: Self.appendDecoded(raw, references: !isCDATA, to: &captured)
    case .inline(_, let text, _) where text != nil: Self.appendDecoded(raw, references: !isCDATA, to: &captured)
    default: break
    }
  }

  /// The row's end: its cells are ``cells``.
  mutating func endRow() {
    inCell = false
  }

  private mutating func endCell() throws(WorkbookError) {
    inCell = false
    cells.append(
      try XLSXSheetReader.cell(
        reference: attributes.reference, type: attributes.type, style: attributes.style, value: value,
        formula: formula, inline: inline, row: number, after: cells.last?.reference.column ?? -1,
        sharedStrings: sharedStrings, path: path, entry: entry, line: 0))
  }

  /// An attribute's value in a start tag (exactly that name, no prefix), decoded as XML normalizes it.
  static func attribute(_ name: String, of tag: ArraySlice<UInt8>) -> String? {
    guard let range = XLSXSheetRewriter.attributeRange(name, of: tag) else { return nil }
    let value = tag[range]
    // Most values are plain: made at once.
    if !value.contains(where: { $0 == UInt8(ascii: "&") || $0 < 0x20 }) { return String(decoding: value, as: UTF8.self) }
    var decoded: [UInt8] = []
    appendDecoded(value, references: true, to: &decoded)
    for index in decoded.indices where decoded[index] == 0x09 || decoded[index] == 0x0A || decoded[index] == 0x0D {
      decoded[index] = 0x20
    }
    return String(decoding: decoded, as: UTF8.self)
  }

  /// Appends character data decoded: `&lt;` `&gt;` `&amp;` `&quot;` `&apos;`, `&#N;` and `&#xH;` (when
  /// `references`), and `\r\n` or `\r` as `\n`.
  static func appendDecoded(_ raw: ArraySlice<UInt8>, references: Bool, to output: inout [UInt8]) {
    guard raw.contains(where: { $0 == UInt8(ascii: "&") || $0 == 0x0D }) else {
      output += raw
      return
    }
    var index = raw.startIndex
    while index < raw.endIndex {
      let byte = raw[index]
      if byte == 0x0D {
        output.append(0x0A)
        index += 1
        if index < raw.endIndex, raw[index] == 0x0A { index += 1 }
        continue
      }
      guard references, byte == UInt8(ascii: "&"), let end = raw[index...].firstIndex(of: UInt8(ascii: ";")) else {
        output.append(byte)
        index += 1
        continue
      }
      let name = raw[(index + 1)..<end]
      switch String(decoding: name, as: UTF8.self) {
      case "lt": output.append(UInt8(ascii: "<"))
      case "gt": output.append(UInt8(ascii: ">"))
      case "amp": output.append(UInt8(ascii: "&"))
      case "quot": output.append(UInt8(ascii: "\""))
      case "apos": output.append(UInt8(ascii: "'"))
      case let reference where reference.hasPrefix("#"):
        let digits = reference.dropFirst()
        let code = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        if let code, let scalar = Unicode.Scalar(code) {
          output += Array(String(Character(scalar)).utf8)
        } else {
          output += raw[index...end]
        }
      default: output += raw[index...end]
      }
      index = end + 1
    }
  }
}
