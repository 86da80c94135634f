// The XML template is declared with the XML format, which owns the attribute names: Conversion/ sits below
// Formats/ (LayeringTests).

extension AnnotationTemplate {
  /// The `fx` element of an XML record, as ``XMLAnnotatingWriter`` writes it in an ASCII-compatible encoding:
  /// `<fx rate="…" converted="…" currency="…" rate-date="…" source="…" status="…" error=""/>`.
  static let xmlElement: AnnotationTemplate = xmlElement(layout: .single)!

  /// ``xmlElement`` of a run's annotation fields (a `converted-NAME` attribute per amount with several); `nil`
  /// when the NAMEs are not plain (``namesArePlain(_:)``) or too long for a template.
  static func xmlElement(layout: AnnotationLayout) -> AnnotationTemplate? {
    // An XML name starts with a letter or `_`.
    guard namesArePlain(layout),
      layout.amountNames.allSatisfy({ $0.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } ?? false })
    else { return nil }
    let names = layout.xmlAttributeNames
    var pieces: [[UInt8]] = [Array("<fx \(names[0])=\"".utf8)]
    for name in names.dropFirst() { pieces.append(Array("\" \(name)=\"".utf8)) }
    pieces.append(Array("\"/>".utf8))
    guard fits(pieces) else { return nil }
    return AnnotationTemplate(pieces: pieces) { byte in
      byte >= 32 && byte < 127 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
        && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "'")
    }
  }
}
