/// A record read by libxml2 as a path evaluates it: the namespaces are libxml2's, a prefix's binding the one in
/// scope at each element (``XMLRecord/Element/bindings``).
extension XMLRecord: XMLPathTree {
  var elementCount: Int { elements.count }

  func parent(of element: Int) -> Int { elements[element].parent }

  func hasElements(_ element: Int) -> Bool { elements[element].hasElements }

  func element(_ element: Int, matches step: XMLFieldPath.Step) -> Bool {
    let found = elements[element]
    guard found.localName == step.localName else { return false }
    guard step.prefix != nil else { return true }
    return found.namespace != nil && found.namespace == found.bindings[step.prefixIndex]
  }

  func attributes(of element: Int) -> Range<Int> { elements[element].attributes.indices }

  func attribute(_ attribute: Int, of element: Int, matches step: XMLFieldPath.Step) -> Bool {
    let found = elements[element].attributes[attribute]
    guard found.localName == step.localName else { return false }
    guard step.prefix != nil else { return true }
    return found.namespace != nil && found.namespace == elements[element].bindings[step.prefixIndex]
  }

  /// The text of what a path found: an attribute's value, an element's text.
  func text(of match: XMLPathMatch) -> String {
    switch match {
    case .element(let element): return elements[element].text
    case .attribute(let attribute, let element): return elements[element].attributes[attribute].value
    case .none, .several: return ""
    }
  }

  func name(of match: XMLPathMatch) -> String {
    switch match {
    case .element(let element): return elements[element].name
    case .attribute(let attribute, let element): return elements[element].attributes[attribute].name
    case .none, .several: return ""
    }
  }
}
