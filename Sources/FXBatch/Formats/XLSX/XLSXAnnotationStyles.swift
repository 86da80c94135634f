/// The cell styles of the fx_* cells in an annotated workbook: `fx_converted` shown with its currency's minor
/// units (`0`, `0.00`, `0.000`, `0.0000`: the exact value, no thousands separator, as the CSV output writes it)
/// and `fx_rate_date` as a date (`yyyy-mm-dd`). They are added to the workbook's styles part as new entries of
/// `<cellXfs>` (and `<numFmts>` for the formats that are not built in); every existing style keeps its index.
struct XLSXAnnotationStyles: Equatable {
  /// The `<cellXfs>` index of the date style, `nil` when the workbook's styles could not take one.
  let date: Int?
  /// The `<cellXfs>` index of the style showing a number with this many decimals.
  let amounts: [Int: Int]

  /// The largest styles part the conversion edits: 64 MiB (a styles part with a million cell styles is about
  /// 100 MB; Excel allows 64,000).
  static let largestPart: UInt64 = 64 << 20

  /// No styles: `fx_rate_date` is then written as text.
  static let none = XLSXAnnotationStyles(date: nil, amounts: [:])

  /// The decimals of the amount styles, and their number formats: built-in ids 1 (`0`) and 2 (`0.00`), the others
  /// custom.
  static let amountFormats: [(decimals: Int, builtIn: Int?, code: String)] = [
    (0, 1, "0"), (2, 2, "0.00"), (3, nil, "0.000"), (4, nil, "0.0000"),
  ]
  static let dateFormatCode = "yyyy-mm-dd"

  /// The style of a converted amount with `decimals` decimals, if there is one.
  func amountStyle(decimals: Int) -> Int? { amounts[decimals] }

  /// A styles part with the annotation styles added, and their indexes; `nil` when the part has no `<cellXfs>`
  /// with a first style to copy (the fx cells are then written without styles).
  ///
  /// The part is well-formed XML (libxml2 read it in pass 1); its tags are found by the sheet rewriter's scanner
  /// and edited in place: the `count` attributes of `<numFmts>` and `<cellXfs>`, new `<numFmt>` and `<xf>`
  /// elements before their end tags (a `<numFmts>` element made right after the root's start tag when there is
  /// none). A new `<xf>` copies the font, fill, border and cell style of the workbook's default style (index 0).
  static func adding(to part: [UInt8]) -> (part: [UInt8], styles: XLSXAnnotationStyles)? {
    var edits: [(range: Range<Int>, bytes: [UInt8])] = []
    var rootEnd: Int? = nil
    var prefix = ""
    var numFmts: (start: Range<Int>, end: Int?)? = nil
    var cellXfs: (start: Range<Int>, end: Int?)? = nil
    var insideCellXfs = false
    var insideNumFmts = false
    var xfCount = 0
    var firstXf: [UInt8]? = nil
    var usedFormats: Set<Int> = []
    var numFmtCount = 0
    var index = 0
    while let open = part[index...].firstIndex(of: UInt8(ascii: "<")) {
      guard let end = XMLMarkup.end(in: part, from: open) else { return nil }
      index = end
      let tag = Array(part[open..<end])
      let name = XLSXSheetRewriter.name(of: tag)
      guard !name.isEmpty, tag[1] != UInt8(ascii: "!"), tag[1] != UInt8(ascii: "?") else { continue }
      let isEnd = tag[1] == UInt8(ascii: "/")
      let isEmpty = tag[tag.count - 2] == UInt8(ascii: "/")
      let local = name.split(separator: ":").last.map(String.init) ?? name
      if rootEnd == nil {
        rootEnd = end
        prefix = name.contains(":") ? String(name.prefix { $0 != ":" }) + ":" : ""
        continue
      }
      switch local {
      case "numFmts" where isEnd:
        if insideNumFmts { numFmts?.end = open }
        insideNumFmts = false
      case "numFmts":
        numFmts = (open..<end, nil)
        insideNumFmts = !isEmpty
      case "numFmt" where insideNumFmts && !isEnd:
        numFmtCount += 1
        if let id = XLSXSheetRewriter.attribute("numFmtId", of: tag).flatMap({ Int($0) }) {
          usedFormats.insert(id)
        }
      case "cellXfs" where isEnd:
        if insideCellXfs { cellXfs?.end = open }
        insideCellXfs = false
      case "cellXfs":
        cellXfs = (open..<end, nil)
        insideCellXfs = !isEmpty
      case "xf" where insideCellXfs && !isEnd:
        if firstXf == nil { firstXf = tag }
        xfCount += 1
      default: break
      }
    }
    guard let rootEnd, let cellXfs, let cellXfsEnd = cellXfs.end, let firstXf else { return nil }

    // Number formats: the custom ones get the lowest ids from 164 (the first custom id) the workbook does not
    // use, so they stay far below the largest id readers accept (4294967295; openpyxl fails past it).
    var customFormats: [(id: Int, code: String)] = []
    var formatOfDecimals: [Int: Int] = [:]
    var candidate = 163
    func freeFormat() -> Int {
      candidate += 1
      while usedFormats.contains(candidate) { candidate += 1 }
      return candidate
    }
    for format in amountFormats {
      if let id = format.builtIn {
        formatOfDecimals[format.decimals] = id
      } else {
        let id = freeFormat()
        customFormats.append((id, format.code))
        formatOfDecimals[format.decimals] = id
      }
    }
    let dateFormat = freeFormat()
    customFormats.append((dateFormat, dateFormatCode))
    let formatMarkup = customFormats.map { "<\(prefix)numFmt numFmtId=\"\($0.id)\" formatCode=\"\($0.code)\"/>" }.joined()

    // Cell styles, appended after the existing ones.
    let inherited = ["fontId", "fillId", "borderId", "xfId"].compactMap { name in
      XLSXSheetRewriter.attribute(name, of: firstXf).map { " \(name)=\"\($0)\"" }
    }.joined()
    func xf(_ format: Int) -> String {
      "<\(prefix)xf numFmtId=\"\(format)\"\(inherited) applyNumberFormat=\"1\"/>"
    }
    var amounts: [Int: Int] = [:]
    var xfMarkup = ""
    var next = xfCount
    for format in amountFormats {
      amounts[format.decimals] = next
      xfMarkup += xf(formatOfDecimals[format.decimals] ?? 0)
      next += 1
    }
    let date = next
    xfMarkup += xf(dateFormat)
    next += 1

    edits.append((cellXfsEnd..<cellXfsEnd, Array(xfMarkup.utf8)))
    edits.append(countEdit(cellXfs.start, in: part, count: next))
    if let numFmts, let numFmtsEnd = numFmts.end {
      edits.append((numFmtsEnd..<numFmtsEnd, Array(formatMarkup.utf8)))
      edits.append(countEdit(numFmts.start, in: part, count: numFmtCount + customFormats.count))
    } else {
      let element = "<\(prefix)numFmts count=\"\(customFormats.count)\">\(formatMarkup)</\(prefix)numFmts>"
      if let numFmts {  // `<numFmts/>`, empty: replaced
        edits.append((numFmts.start, Array(element.utf8)))
      } else {
        edits.append((rootEnd..<rootEnd, Array(element.utf8)))
      }
    }
    var result = part
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      result.replaceSubrange(edit.range, with: edit.bytes)
    }
    return (result, XLSXAnnotationStyles(date: date, amounts: amounts))
  }

  /// The edit setting the `count` attribute of the start tag at `tag` to `count`; none (an empty edit) when the
  /// tag has no `count` (it is optional).
  private static func countEdit(_ tag: Range<Int>, in part: [UInt8], count: Int) -> (range: Range<Int>, bytes: [UInt8]) {
    guard let value = XLSXSheetRewriter.attributeRange("count", of: Array(part[tag])) else {
      return (tag.lowerBound..<tag.lowerBound, [])
    }
    return ((tag.lowerBound + value.lowerBound)..<(tag.lowerBound + value.upperBound), Array(String(count).utf8))
  }
}
