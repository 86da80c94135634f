/// The markup of the fx_* cells fxbatch writes into a table (ODF 1.3 part 3, 9.1.4 and 19.385): `fx_rate` and
/// `fx_converted` as float cells, `fx_rate_date` as a date cell, the rest as string cells, each with the
/// paragraph LibreOffice shows until it recomputes the cell's text.
enum ODSCells {
  /// The cells of one row: the fx_* names on the header row, a record's values on the others (`""` for none).
  ///
  /// - Parameter layout: the run's annotation fields (`fx_converted` once per amount).
  static func markup(_ values: [String], isHeader: Bool, layout: AnnotationLayout = .single) -> [UInt8] {
    var markup = ""
    for (column, value) in zip(layout.columns, values) {
      guard !value.isEmpty else {
        markup += "<table:table-cell/>"
        continue
      }
      switch column {
      case .rate where !isHeader:
        markup += "<table:table-cell office:value-type=\"float\" office:value=\"\(value)\">\(paragraph(value))</table:table-cell>"
      case .converted where !isHeader:
        let digits = value.firstIndex(of: ".").map { value.distance(from: $0, to: value.endIndex) - 1 } ?? 0
        let style = minorUnitStyles.contains(digits) ? " table:style-name=\"\(minorUnitStyle(digits))\"" : ""
        markup +=
          "<table:table-cell\(style) office:value-type=\"float\" office:value=\"\(value)\">\(paragraph(value))</table:table-cell>"
      case .rateDate where !isHeader:
        markup +=
          "<table:table-cell table:style-name=\"\(dateStyle)\" office:value-type=\"date\" office:date-value=\"\(value)\">\(paragraph(value))</table:table-cell>"
      default:
        markup += "<table:table-cell office:value-type=\"string\">\(paragraph(value))</table:table-cell>"
      }
    }
    return Array(markup.utf8)
  }

  /// ``markup(_:isHeader:layout:)`` of a record's values as bytes (`value(index)` the `index`th column's),
  /// appended: the same bytes, made without a `String` per value.
  ///
  /// - Parameter columns: the run's ``AnnotationLayout/columns`` (made once: the layout makes them anew).
  @inline(__always)
  static func appendMarkup(
    _ value: (Int) -> ByteView, isHeader: Bool, columns: [AnnotationColumn], to markup: inout ByteBuffer
  ) {
    for (index, column) in columns.enumerated() {
      let value = value(index)
      guard !value.isEmpty else {
        markup.append(emptyCell)
        continue
      }
      switch column {
      case .rate where !isHeader:
        markup.append(floatCellStart)
        markup.append(value)
        markup.append(valueEnd)
        appendParagraph(value, to: &markup)
        markup.append(cellEnd)
      case .converted where !isHeader:
        let digits = value.firstIndex(of: UInt8(ascii: ".")).map { value.count - $0 - 1 } ?? 0
        markup.append(cellStart)
        if digits <= 4 { markup.append(minorUnitStyleAttribute(digits)) }  // minorUnitStyles
        markup.append(floatValueStart)
        markup.append(value)
        markup.append(valueEnd)
        appendParagraph(value, to: &markup)
        markup.append(cellEnd)
      case .rateDate where !isHeader:
        markup.append(dateCellStart)
        markup.append(value)
        markup.append(valueEnd)
        appendParagraph(value, to: &markup)
        markup.append(cellEnd)
      default:
        markup.append(stringCellStart)
        appendParagraph(value, to: &markup)
        markup.append(cellEnd)
      }
    }
  }

  // The pieces of the cells, as views of static text (no lazy global to look up for each cell; the cells made
  // from text, ``markup(_:isHeader:layout:)``, are the same bytes: `ODSCellsTests`).
  private static var emptyCell: ByteView { ByteView("<table:table-cell/>") }
  private static var cellStart: ByteView { ByteView("<table:table-cell") }
  private static func minorUnitStyleAttribute(_ digits: Int) -> ByteView {
    switch digits {
    case 0: ByteView(" table:style-name=\"fxbatch-minor-units-0\"")
    case 1: ByteView(" table:style-name=\"fxbatch-minor-units-1\"")
    case 2: ByteView(" table:style-name=\"fxbatch-minor-units-2\"")
    case 3: ByteView(" table:style-name=\"fxbatch-minor-units-3\"")
    default: ByteView(" table:style-name=\"fxbatch-minor-units-4\"")
    }
  }
  private static var floatValueStart: ByteView { ByteView(" office:value-type=\"float\" office:value=\"") }
  private static var paragraphStart: ByteView { ByteView("<text:p>") }
  private static var paragraphEnd: ByteView { ByteView("</text:p>") }
  private static var ampersand: ByteView { ByteView("&amp;") }
  private static var lessThan: ByteView { ByteView("&lt;") }
  private static var greaterThan: ByteView { ByteView("&gt;") }
  private static var tab: ByteView { ByteView("<text:tab/>") }
  private static var lineBreak: ByteView { ByteView("<text:line-break/>") }
  private static var space: ByteView { ByteView("<text:s/>") }
  private static var floatCellStart: ByteView { ByteView("<table:table-cell office:value-type=\"float\" office:value=\"") }
  private static var dateCellStart: ByteView {
    ByteView("<table:table-cell table:style-name=\"fxbatch-rate-date\" office:value-type=\"date\" office:date-value=\"")
  }
  private static var stringCellStart: ByteView { ByteView("<table:table-cell office:value-type=\"string\">") }
  private static var valueEnd: ByteView { ByteView("\">") }
  private static var cellEnd: ByteView { ByteView("</table:table-cell>") }

  /// ``paragraph(_:)`` of a value's bytes, appended: byte by byte for printable ASCII, tabs and line feeds
  /// (where bytes are characters), through ``paragraph(_:)`` for anything else.
  @inline(__always)
  static func appendParagraph(_ value: ByteView, to markup: inout ByteBuffer) {
    // The usual value (a number, a code, a day, words): printable ASCII but `&`, `<` and `>`, single spaces
    // between other bytes, is itself.
    var isItself = true
    var afterSpace = true  // a space first is not itself
    for byte in value {
      if byte == UInt8(ascii: " ") {
        if afterSpace {
          isItself = false
          break
        }
        afterSpace = true
      } else {
        if byte &- 0x21 >= 0x5E || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
          isItself = false
          break
        }
        afterSpace = false
      }
    }
    if isItself, !afterSpace {
      markup.append(paragraphStart)
      markup.append(value)
      markup.append(paragraphEnd)
      return
    }
    guard !value.contains(where: { $0 >= 0x80 || ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A) }) else {
      markup.append(Array(paragraph(value.text).utf8))
      return
    }
    markup.append(paragraphStart)
    var spaces = 0
    var atStart = true
    func appendSpaces(_ count: Int) {
      if count == 1 { markup.append(space) } else { markup.append(Array("<text:s text:c=\"\(count)\"/>".utf8)) }
    }
    func flush() {
      guard spaces > 0 else { return }
      if atStart {
        appendSpaces(spaces)
      } else {
        markup.append(UInt8(ascii: " "))
        if spaces > 1 { appendSpaces(spaces - 1) }
      }
      spaces = 0
    }
    for byte in value {
      if byte == UInt8(ascii: " ") {
        spaces += 1
        continue
      }
      flush()
      atStart = false
      switch byte {
      case UInt8(ascii: "&"): markup.append(ampersand)
      case UInt8(ascii: "<"): markup.append(lessThan)
      case UInt8(ascii: ">"): markup.append(greaterThan)
      case 0x09: markup.append(tab)
      case 0x0A: markup.append(lineBreak)
      default: markup.append(byte)
      }
    }
    if spaces > 0 { appendSpaces(spaces) }
    markup.append(paragraphEnd)
  }

  /// The digits after the decimal mark ISO 4217 gives currencies (none, 2, 3 or 4): `fx_converted` is shown with
  /// as many as its value has (its currency's minor units), through a cell style of its own.
  static let minorUnitStyles = 0...4

  /// The cell style of `fx_converted` with `digits` digits after the decimal mark.
  static func minorUnitStyle(_ digits: Int) -> String { "fxbatch-minor-units-\(digits)" }

  /// The cell style of `fx_rate_date`: `YYYY-MM-DD`.
  static let dateStyle = "fxbatch-rate-date"

  /// The automatic styles the cells use (ODF 1.3 part 3, 16.29 and 16.27.10): number styles with a fixed
  /// number of decimals, a `YYYY-MM-DD` date style, and the cell styles that show them.
  static let automaticStyles: [UInt8] = {
    var styles = ""
    for digits in minorUnitStyles {
      styles +=
        "<number:number-style style:name=\"\(minorUnitStyle(digits))-number\"><number:number number:decimal-places=\"\(digits)\" number:min-decimal-places=\"\(digits)\" number:min-integer-digits=\"1\"/></number:number-style>"
        + "<style:style style:name=\"\(minorUnitStyle(digits))\" style:family=\"table-cell\" style:data-style-name=\"\(minorUnitStyle(digits))-number\"/>"
    }
    styles +=
      "<number:date-style style:name=\"\(dateStyle)-date\"><number:year number:style=\"long\"/><number:text>-</number:text><number:month number:style=\"long\"/><number:text>-</number:text><number:day number:style=\"long\"/></number:date-style>"
      + "<style:style style:name=\"\(dateStyle)\" style:family=\"table-cell\" style:data-style-name=\"\(dateStyle)-date\"/>"
    return Array(styles.utf8)
  }()

  /// A `text:p` of text: `&`, `<`, `>` escaped, a run of spaces after the first (and a leading one) as `text:s`,
  /// tabs and line breaks as their elements, as ODF keeps them (white space in a paragraph otherwise collapses).
  static func paragraph(_ text: String) -> String {
    var result = "<text:p>"
    var spaces = 0
    func flushSpaces(atStart: Bool) {
      guard spaces > 0 else { return }
      if atStart {
        result += spaces == 1 ? "<text:s/>" : "<text:s text:c=\"\(spaces)\"/>"
      } else {
        result += " "
        if spaces > 1 { result += spaces == 2 ? "<text:s/>" : "<text:s text:c=\"\(spaces - 1)\"/>" }
      }
      spaces = 0
    }
    var atStart = true
    for character in text {
      if character == " " {
        spaces += 1
        continue
      }
      flushSpaces(atStart: atStart)
      atStart = false
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\t": result += "<text:tab/>"
      case "\n": result += "<text:line-break/>"
      default:
        // A `&`, `<` or `>` with a combining mark after it is one `Character` of its own: escaped by scalar.
        for scalar in character.unicodeScalars {
          switch scalar {
          case "&": result += "&amp;"
          case "<": result += "&lt;"
          case ">": result += "&gt;"
          default: result.unicodeScalars.append(scalar)
          }
        }
      }
    }
    // Trailing spaces are kept as text:s too (a space at the end of a paragraph is dropped).
    if spaces > 0 { result += spaces == 1 ? "<text:s/>" : "<text:s text:c=\"\(spaces)\"/>" }
    return result + "</text:p>"
  }
}
