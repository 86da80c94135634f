import CLibXML2

extension PackagePartReader {
  /// The text of a rich-text string element (`<si>` in the shared strings, `<is>` in a cell), up to its end: the
  /// `<t>` elements straight inside it or inside its runs (`<r>`), without the phonetic runs (`<rPh>`), whose
  /// text is a reading aid for East Asian names and not part of the value (ECMA-376 part 1, 18.4.6).
  func richText() throws(WorkbookError) -> String {
    var text = ""
    try forEachNodeInside { () throws(WorkbookError) in
      if isElement(XML_READER_TYPE_ELEMENT, named: "rPh") {
        _ = try elementText()
      } else if isElement(XML_READER_TYPE_ELEMENT, named: "t") {
        text += try elementText()
      }
    }
    return XLSXText.unescaped(text)
  }
}
