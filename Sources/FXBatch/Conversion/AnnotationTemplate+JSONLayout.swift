extension AnnotationTemplate {
  /// ``jsonMembers`` spaced like a record object's own members, as ``JSONAnnotatingWriter`` writes them for a
  /// ``JSONObjectLayout``: each member after `,` and `separator`, its colon between `beforeColon` and
  /// `afterColon`.
  ///
  /// - Parameters:
  ///   - separator: the whitespace before each member's name.
  ///   - beforeColon: the whitespace between a name and its colon.
  ///   - afterColon: the whitespace between the colon and the value.
  ///   - layout: the run's annotation fields (a converted member per amount with several).
  /// - Returns: the template; `nil` when the spacing is too wide for one (``AnnotationTemplate/fits(_:)``: about
  ///   25 bytes of whitespace around each member), and the record takes the general path.
  static func jsonMembers(
    separator: [UInt8], beforeColon: [UInt8], afterColon: [UInt8], layout: AnnotationLayout = .single
  ) -> AnnotationTemplate? {
    guard namesArePlain(layout) else { return nil }
    let names = layout.fieldNames
    func member(_ name: String) -> [UInt8] {
      [UInt8(ascii: ",")] + separator + Array("\"\(name)\"".utf8) + beforeColon + [UInt8(ascii: ":")] + afterColon
        + [UInt8(ascii: "\"")]
    }
    var pieces = [member(names[0])]
    for name in names.dropFirst() { pieces.append([UInt8(ascii: "\"")] + member(name)) }
    pieces.append([UInt8(ascii: "\"")])
    guard fits(pieces) else { return nil }
    return AnnotationTemplate(pieces: pieces, allowsUnescaped: jsonMembers.allowsUnescaped)
  }
}
