// The XML template is declared with the XML format, which owns the attribute names: Conversion/ sits below
// Formats/ (LayeringTests).

extension AnnotationTemplate {
  /// The `fx` element of an XML record, as ``XMLAnnotatingWriter`` writes it in an ASCII-compatible encoding:
  /// `<fx rate="…" converted="…" currency="…" rate-date="…" source="…" status="…" error=""/>`.
  static let xmlElement: AnnotationTemplate = {
    let names = XMLAnnotatingWriter.attributeNames
    var pieces: [[UInt8]] = [Array("<fx \(names[0])=\"".utf8)]
    for name in names.dropFirst() { pieces.append(Array("\" \(name)=\"".utf8)) }
    pieces.append(Array("\"/>".utf8))
    return AnnotationTemplate(pieces: pieces) { byte in
      byte >= 32 && byte < 127 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<")
        && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "'")
    }
  }()
}
