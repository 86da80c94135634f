/// Copies a worksheet part's XML as it inflates, byte for byte, except where cells are appended: before each
/// row's end tag it writes the cells its caller gives for that row, a row's `spans` and the sheet's
/// `<dimension ref>` are widened to the new last column, and nothing else changes. Memory holds one chunk and
/// one tag.
///
/// Tags are found by a small scanner that knows quoted attribute values, comments, CDATA sections and
/// processing instructions (libxml2 has already parsed the part in pass 1, so the part is well-formed XML).
struct XLSXSheetRewriter {
  /// The last column (0-based) the appended cells reach.
  let lastColumn: Int

  /// Rewrites the part.
  ///
  /// The bytes between the changed tags are copied from the inflated chunk to a reused output buffer as slices,
  /// and handed to `write` in blocks of about 64 KiB; only a row's start tag (and the dimension) is copied aside
  /// to be changed.
  ///
  /// - Parameters:
  ///   - stream: the sheet's entry, unread.
  ///   - write: where the bytes go, a block at a time.
  ///   - cells: appends to `markup` the cells to append to a row, by its number and the main namespace's prefix
  ///     of its tag (empty, or `x:`); appends nothing for none.
  func rewrite(
    _ stream: any ZipEntryReading, rows collector: XLSXRowCollector, rowError: (WorkbookError) -> FileError,
    write: ([UInt8]) throws(FileError) -> Void,
    cells: (_ row: SheetRow, _ prefix: [UInt8], _ markup: inout [UInt8]) throws(FileError) -> Void
  ) throws(FileError) {
    var collector = collector
    var inRow = false
    let blockSize = 1 << 16
    var buffer: [UInt8] = []
    buffer.reserveCapacity(2 * blockSize)
    var start = 0
    var ended = false
    var prefix: [UInt8] = []
    var output: [UInt8] = []
    output.reserveCapacity(2 * blockSize)
    var tag: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: blockSize)
    let lastColumnNumber = Array(String(lastColumn + 1).utf8)
    /// Reads more of the entry into `buffer`; `false` at its end.
    func more() throws(FileError) -> Bool {
      guard !ended else { return false }
      let got: Int
      do { got = try stream.read(into: &chunk) } catch {
        throw FileError.package(error.description, readPath: stream.package.path, displayPath: stream.package.path)
      }
      if got == 0 {
        ended = true
        return false
      }
      if start > 0 {
        buffer.removeSubrange(..<start)
        start = 0
      }
      buffer += chunk[..<got]
      return true
    }
    /// Hands the output to `write` once a block is full, or at the end (`all`).
    func flush(all: Bool = false) throws(FileError) {
      guard output.count >= blockSize || (all && !output.isEmpty) else { return }
      try write(output)
      output.removeAll(keepingCapacity: true)
    }
    while true {
      guard let open = buffer[start...].firstIndex(of: UInt8(ascii: "<")) else {
        // A row's text is kept whole for the collector (a reference split between chunks); libxml2 read it as
        // one text node of at most 10 MB in pass 1.
        if inRow, try more() { continue }
        output += buffer[start...]
        start = buffer.count
        try flush()
        if try more() { continue }
        try flush(all: true)
        return
      }
      output += buffer[start..<open]
      if inRow, open > start { collector.text(buffer[start..<open], isCDATA: false) }
      start = open
      var end = XMLMarkup.end(in: buffer, from: start)
      while end == nil, try more() { end = XMLMarkup.end(in: buffer, from: start) }
      guard let end else {
        output += buffer[start...]
        try flush(all: true)
        return
      }
      let markup = start..<end
      start = end
      let name = Self.name(in: buffer, markup)
      let isStart = buffer[markup.lowerBound + 1] != UInt8(ascii: "/")
      if name.local.elementsEqual("row".utf8) {
        guard isStart else {
          collector.endRow()
          inRow = false
          try cells(SheetRow(number: collector.number, cells: collector.cells), prefix, &output)
          output += buffer[markup]
          try flush()
          continue
        }
        guard !inRow else {
          throw rowError(
            .misplacedRow(path: collector.path, entry: collector.entry, line: 0, row: "inside row \(collector.number)"))
        }
        do throws(WorkbookError) { try collector.startRow(buffer[markup]) } catch { throw rowError(error) }
        tag.removeAll(keepingCapacity: true)
        tag += buffer[markup]
        prefix = Array(name.prefix)
        if let spans = Self.attributeRange("spans", of: tag) {
          tag.replaceSubrange(spans, with: Self.widenedSpans(tag[spans], lastColumnNumber: lastColumnNumber))
        }
        if tag[tag.count - 2] == UInt8(ascii: "/") {
          collector.endRow()
          let before = output.count
          output += tag[..<(tag.count - 2)]
          output.append(UInt8(ascii: ">"))
          let opened = output.count
          try cells(SheetRow(number: collector.number, cells: []), prefix, &output)
          if output.count == opened {
            output.removeSubrange(before...)
            output += tag
          } else {
            output += "</".utf8
            output += prefix
            output += "row>".utf8
          }
        } else {
          inRow = true
          output += tag
        }
      } else if inRow {
        // Markup inside a row: cells and what is in them go to the collector.
        if buffer[markup.lowerBound + 1] == UInt8(ascii: "!"), buffer[markup].starts(with: "<![CDATA[".utf8) {
          collector.text(buffer[(markup.lowerBound + 9)..<(markup.upperBound - 3)], isCDATA: true)
        } else if !name.local.isEmpty {
          do throws(WorkbookError) {
            if isStart {
              try collector.startElement(
                name.local, tag: buffer[markup], isEmpty: buffer[markup.upperBound - 2] == UInt8(ascii: "/"))
            } else {
              try collector.endElement()
            }
          } catch {
            throw rowError(error)
          }
        }
        output += buffer[markup]
      } else if name.local.elementsEqual("dimension".utf8), isStart {
        output += Self.widenedDimension(buffer[markup], to: lastColumn)
      } else {
        output += buffer[markup]
      }
      try flush()
    }
  }

  /// A row's `spans` value ending at the new last column (its digits, 1-based): the first number as written
  /// (the text before its first `:`; 1 when there is none), `:`, the last column.
  static func widenedSpans(_ spans: some Collection<UInt8>, lastColumnNumber: [UInt8]) -> [UInt8] {
    Array(spans.split(separator: UInt8(ascii: ":")).first ?? ArraySlice("1".utf8)[...]) + [UInt8(ascii: ":")]
      + lastColumnNumber
  }

  /// A `<dimension …>` start tag with its `ref` widened to column `last` (``widened(_:to:)``).
  static func widenedDimension(_ tag: some Collection<UInt8>, to last: Int) -> [UInt8] {
    var tag = Array(tag)
    if let range = attributeRange("ref", of: tag) {
      tag.replaceSubrange(range, with: Array(widened(String(decoding: tag[range], as: UTF8.self), to: last).utf8))
    }
    return tag
  }

  /// The last column (0-based) a `<dimension>` tag's `ref` (`A1:D5`, `A1`) names; `nil` when it names none.
  static func dimensionLastColumn(_ tag: some Collection<UInt8>) -> Int? {
    let tag = Array(tag)
    guard let range = attributeRange("ref", of: tag),
      let last = String(decoding: tag[range], as: UTF8.self).split(separator: ":").last.flatMap({
        CellReference(String($0))
      })
    else { return nil }
    return last.column
  }

  /// A `ref` range (`A1:D5`, `A1`) reaching at least to column `last`.
  static func widened(_ ref: String, to last: Int) -> String {
    let parts = ref.split(separator: ":").map(String.init)
    guard let first = parts.first.flatMap(CellReference.init), let end = (parts.last).flatMap(CellReference.init)
    else { return ref }
    let corner = CellReference(column: max(end.column, last), row: end.row) ?? end
    return "\(first):\(corner)"
  }

  /// The element name of the markup at `range` (`row`, `x:row`; without the `/` of an end tag), whole, its prefix
  /// (up to its first colon, with it: `x:`, or empty) and its local name (after its last colon); all empty for
  /// other markup (comments, CDATA, processing instructions).
  static func name(in buffer: [UInt8], _ range: Range<Int>) -> (
    whole: ArraySlice<UInt8>, prefix: ArraySlice<UInt8>, local: ArraySlice<UInt8>
  ) {
    var index = range.lowerBound + 1
    if index < range.upperBound, buffer[index] == UInt8(ascii: "/") { index += 1 }
    let nameStart = index
    var firstColon: Int? = nil
    var lastColon: Int? = nil
    scan: while index < range.upperBound {
      switch buffer[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(ascii: "/"),
        UInt8(ascii: ">"), UInt8(ascii: "!"), UInt8(ascii: "?"):
        break scan
      case UInt8(ascii: ":"):
        if firstColon == nil { firstColon = index }
        lastColon = index
      default: break
      }
      index += 1
    }
    let prefixEnd = firstColon.map { $0 + 1 } ?? nameStart
    let localStart = lastColon.map { $0 + 1 } ?? nameStart
    return (buffer[nameStart..<index], buffer[nameStart..<prefixEnd], buffer[localStart..<index])
  }

  /// The element name of a tag (`row`, `x:row`; without the `/` of an end tag); "" for other markup.
  static func name(of tag: [UInt8]) -> String {
    String(decoding: name(in: tag, 0..<tag.count).whole, as: UTF8.self)
  }

  /// The range of an attribute's value (between its quotes) in a start tag.
  static func attributeRange(_ attribute: String, of tag: [UInt8]) -> Range<Int>? {
    attributeRange(attribute, of: tag[...])
  }

  /// ``attributeRange(_:of:)`` of a tag in a larger buffer: the range is in the buffer's indices.
  static func attributeRange(_ attribute: String, of tag: ArraySlice<UInt8>) -> Range<Int>? {
    @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    let end = tag.endIndex
    var index = tag.firstIndex(where: isSpace) ?? end
    while index < end {
      while index < end, isSpace(tag[index]) { index += 1 }
      let nameStart = index
      while index < end, !isSpace(tag[index]), tag[index] != UInt8(ascii: "="), tag[index] != UInt8(ascii: "/"),
        tag[index] != UInt8(ascii: ">")
      {
        index += 1
      }
      let name = tag[nameStart..<index]
      while index < end, isSpace(tag[index]) || tag[index] == UInt8(ascii: "=") { index += 1 }
      guard index < end, tag[index] == UInt8(ascii: "\"") || tag[index] == UInt8(ascii: "'") else { return nil }
      let quote = tag[index]
      let valueStart = index + 1
      guard let valueEnd = tag[valueStart...].firstIndex(of: quote) else { return nil }
      if name.elementsEqual(attribute.utf8) { return valueStart..<valueEnd }
      index = valueEnd + 1
    }
    return nil
  }

  /// An attribute's value in a start tag, as written.
  static func attribute(_ attribute: String, of tag: [UInt8]) -> String? {
    attributeRange(attribute, of: tag).map { String(decoding: tag[$0], as: UTF8.self) }
  }

  // MARK: Cells

  /// Appends a numeric cell, with the cell style `style` when given: `<c r="H2"><v>1.0834</v></c>`,
  /// `<c r="I2" s="7"><v>45719</v></c>`.
  ///
  /// - Parameters:
  ///   - markup: the bytes appended to.
  ///   - column: the cell's column letters (`H`).
  ///   - row: its row number.
  ///   - text: the number's decimal text, as written.
  ///   - style: the index of its cell format in the styles part (`s`), or `nil` for none.
  ///   - prefix: the main namespace's prefix of the sheet's tags (empty, or `x:`).
  static func appendNumberCell(
    to markup: inout [UInt8], column: [UInt8], row: Int, _ text: ArraySlice<UInt8>, style: Int?, prefix: [UInt8]
  ) {
    var buffer = ByteBuffer(capacity: 256)
    let styles = style.flatMap { $0 >= 0 ? [$0] : nil } ?? []
    let cells = CellMarkup(prefix: prefix, columns: [column], styles: styles)
    let (storage, views) = ByteBuffer.packing([Array(String(row).utf8), Array(text)])
    withExtendedLifetime(storage) {
      cells.appendNumber(to: &buffer, column: 0, row: views[0], views[1], style: styles.isEmpty ? nil : 0)
    }
    markup += buffer.bytes
  }

  /// ``appendNumberCell(to:column:row:_:style:prefix:)`` of a `String`.
  static func appendNumberCell(
    to markup: inout [UInt8], column: [UInt8], row: Int, _ text: String, style: Int?, prefix: [UInt8]
  ) {
    appendNumberCell(to: &markup, column: column, row: row, Array(text.utf8)[...], style: style, prefix: prefix)
  }

  /// Appends an inline string cell: `<c r="J2" t="inlineStr"><is><t>EUR</t></is></c>`, its text escaped
  /// (``appendEscaped(_:to:)``), its `<t>` marked `xml:space="preserve"` when the text starts or ends with
  /// whitespace.
  ///
  /// - Parameters: as ``appendNumberCell(to:column:row:_:style:prefix:)``; `text` is any text.
  static func appendTextCell(
    to markup: inout [UInt8], column: [UInt8], row: Int, _ text: ArraySlice<UInt8>, prefix: [UInt8]
  ) {
    var buffer = ByteBuffer(capacity: 256)
    let cells = CellMarkup(prefix: prefix, columns: [column], styles: [])
    let (storage, views) = ByteBuffer.packing([Array(String(row).utf8), Array(text)])
    withExtendedLifetime(storage) { cells.appendText(to: &buffer, column: 0, row: views[0], views[1]) }
    markup += buffer.bytes
  }

  /// ``appendTextCell(to:column:row:_:prefix:)`` of a `String`.
  static func appendTextCell(to markup: inout [UInt8], column: [UInt8], row: Int, _ text: String, prefix: [UInt8]) {
    appendTextCell(to: &markup, column: column, row: row, Array(text.utf8)[...], prefix: prefix)
  }

  /// The markup of the cells fxbatch appends, in pieces made once for the sheet's prefix, its fx_* columns and
  /// the styles of their numbers (every row appends several cells): the one writer of them. The pieces live in
  /// one buffer that never grows once made, so the views of them stay valid as long as it lives (copies share
  /// it).
  struct CellMarkup {
    private let storage: ByteBuffer
    /// Each column's `<c r="` and letters; the start of a number's value, `"><v>` or with a style before it
    /// (`" s="7"><v>`), by style; `</v></c>`; `" t="inlineStr"><is><t>` (or with `xml:space="preserve"`),
    /// `</t></is></c>`; each with the prefix.
    private let heads: [ByteView]
    private let plainNumberStart: ByteView
    private let styledNumberStarts: [ByteView]
    private let numberEnd: ByteView
    private let textStart: ByteView
    private let preservedTextStart: ByteView
    private let textEnd: ByteView

    /// - Parameters:
    ///   - prefix: the main namespace's prefix of the sheet's tags (empty, or `x:`).
    ///   - columns: the columns' letters, by the index ``appendNumber(to:column:row:_:style:)`` is given.
    ///   - styles: the cell styles numbers may have, by the index `appendNumber` is given.
    init(prefix: [UInt8], columns: [[UInt8]], styles: [Int]) {
      func bytes(_ pieces: [String]) -> [UInt8] { Array(pieces.joined(separator: String(decoding: prefix, as: UTF8.self)).utf8) }
      let fixed = [
        bytes(["\"><", "v>"]), bytes(["</", "v></", "c>"]), bytes(["\" t=\"inlineStr\"><", "is><", "t>"]),
        bytes(["\" t=\"inlineStr\"><", "is><", "t xml:space=\"preserve\">"]), bytes(["</", "t></", "is></", "c>"]),
      ]
      let open = bytes(["<", "c r=\""])
      let starts = styles.map { Array("\" s=\"\($0)".utf8) + fixed[0] }
      let (storage, views) = ByteBuffer.packing(fixed + columns.map { open + $0 } + starts)
      self.storage = storage
      (plainNumberStart, numberEnd, textStart, preservedTextStart, textEnd) = (views[0], views[1], views[2], views[3], views[4])
      heads = Array(views[fixed.count..<(fixed.count + columns.count)])
      styledNumberStarts = Array(views[(fixed.count + columns.count)...])
    }

    /// Appends a numeric cell, with a cell style when given: `<c r="H2"><v>1.0834</v></c>`,
    /// `<c r="I2" s="7"><v>45719</v></c>`.
    ///
    /// - Parameters:
    ///   - column: the cell's column, by its index in the columns the markup was made with.
    ///   - row: its row number's digits.
    ///   - text: the number's decimal text, as written.
    ///   - style: the index of its cell style in the styles the markup was made with, or `nil` for none.
    @inline(__always)
    func appendNumber(to markup: inout ByteBuffer, column: Int, row: ByteView, _ text: ByteView, style: Int?) {
      markup.append(heads[column])
      markup.append(row)
      markup.append(style.map { styledNumberStarts[$0] } ?? plainNumberStart)
      markup.append(text)
      markup.append(numberEnd)
    }

    /// Appends an inline string cell: `<c r="J2" t="inlineStr"><is><t>EUR</t></is></c>`, its text escaped
    /// (``XLSXSheetRewriter/appendEscaped(_:to:)``), its `<t>` marked `xml:space="preserve"` when the text
    /// starts or ends with whitespace.
    @inline(__always)
    func appendText(to markup: inout ByteBuffer, column: Int, row: ByteView, _ text: ByteView) {
      markup.append(heads[column])
      markup.append(row)
      markup.append(isSpacePreserved(text) ? preservedTextStart : textStart)
      appendEscaped(text, to: &markup)
      markup.append(textEnd)
    }
  }

  /// Appends a non-negative number's decimal digits.
  static func appendDecimal(_ number: Int, to markup: inout ByteBuffer) {
    var divisor = 1
    while divisor <= number / 10 { divisor *= 10 }
    var rest = number
    while divisor > 0 {
      markup.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// Whether text starts or ends with whitespace (`Character.isWhitespace`), which XML readers would drop
  /// without `xml:space="preserve"`.
  ///
  /// A printable ASCII byte (`!` to `~`) at an end answers for that end without forming the `Character`: a
  /// character is whitespace by its first scalar, and no scalar joins a printable ASCII one into a character
  /// that starts with whitespace (no whitespace scalar is a prepending one).
  static func isSpacePreserved(_ text: String) -> Bool {
    Array(text.utf8).withUnsafeBufferPointer { isSpacePreserved(ByteView($0)) }
  }

  /// ``isSpacePreserved(_:)`` of UTF-8 bytes.
  @inline(__always)
  static func isSpacePreserved(_ text: ByteView) -> Bool {
    guard !text.isEmpty else { return false }
    let (first, last) = (text[0], text[text.count - 1])
    if first &- UInt8(ascii: "!") < 94, last &- UInt8(ascii: "!") < 94 { return false }
    return isSpacePreservedByCharacters(text)
  }

  @inline(never)
  private static func isSpacePreservedByCharacters(_ text: ByteView) -> Bool {
    let string = String(decoding: text.buffer, as: UTF8.self)
    return string.first?.isWhitespace == true || string.last?.isWhitespace == true
  }

  /// Appends text as XML character data: `&`, `<`, `>` escaped, and `_x` written `_x005F_x` so that readers
  /// do not take it for an OOXML escape (``XLSXText``).
  @inline(__always)
  static func appendEscaped(_ text: ByteView, to markup: inout ByteBuffer) {
    // Most values (codes, sources, statuses) have nothing to escape: appended at once.
    var index = 0
    while index < text.count {
      let byte = text[index]
      if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "_") {
        break
      }
      index += 1
    }
    guard index < text.count else { return markup.append(text) }
    appendEscapedBytes(text, to: &markup)
  }

  @inline(never)
  private static func appendEscapedBytes(_ text: ByteView, to markup: inout ByteBuffer) {
    var index = 0
    while index < text.count {
      let byte = text[index]
      index += 1
      switch byte {
      case UInt8(ascii: "&"): markup.append(ByteView("&amp;"))
      case UInt8(ascii: "<"): markup.append(ByteView("&lt;"))
      case UInt8(ascii: ">"): markup.append(ByteView("&gt;"))
      case UInt8(ascii: "_") where index < text.count && text[index] == UInt8(ascii: "x"):
        markup.append(ByteView("_x005F_x"))
        index += 1
      default: markup.append(byte)
      }
    }
  }
}
