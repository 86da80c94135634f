/// A field of an XML record named by a path (`--amount-field Amt`, `BookgDt/Dt`, `Amt/@Ccy`,
/// `cac:LegalMonetaryTotal/cbc:PayableAmount`): child element names joined by `/`, relative to the record
/// element, the last step `@name` for an attribute. Each step names direct children only. A step without a
/// prefix matches by local name, whatever the element's namespace; a step with a prefix (`cbc:PayableAmount`)
/// matches the local name in the namespace the prefix is bound to where the element (or, for an attribute, its
/// element) is, by the document's own `xmlns` declarations.
///
/// A name without `/` and `:` (`amount`, `@currency`) is not a path: it is found as fxbatch finds flat fields
/// (``XMLFieldLocator``), among the record's attributes and children, ignoring case.
struct XMLFieldPath: Sendable, Equatable, CustomStringConvertible {
  /// One step: an element name, or the last step's attribute name.
  struct Step: Sendable, Equatable {
    /// The prefix as written, `nil` without one.
    let prefix: String?
    /// Its index in the run's list of prefixes (``XMLFieldLocator/prefixes``); `-1` without a prefix.
    var prefixIndex: Int
    let localName: String
    let localBytes: [UInt8]
  }

  /// The path as given.
  let text: String
  let elements: [Step]
  /// The last step when it names an attribute.
  let attribute: Step?

  var description: String { text }

  /// The steps with a prefix.
  var prefixedSteps: [Step] { (elements + (attribute.map { [$0] } ?? [])).filter { $0.prefix != nil } }

  /// Whether a field name is a path (holds `/` or `:`) rather than a flat name.
  static func isPath(_ name: String) -> Bool { name.contains("/") || name.contains(":") }

  /// Reads a path.
  ///
  /// - Returns: the path, or why it is not one (an empty step, `@` before the last step, a name with white space
  ///   or two `:`).
  static func parse(_ text: String) -> Result<XMLFieldPath, XMLFieldPathError> {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    var elements: [Step] = []
    var attribute: Step? = nil
    for (index, part) in parts.enumerated() {
      let isAttribute = part.hasPrefix("@")
      if isAttribute, index != parts.count - 1 {
        return .failure(XMLFieldPathError(path: text, reason: "only the last step may name an attribute (@name)"))
      }
      let name = isAttribute ? String(part.dropFirst()) : part
      guard !name.isEmpty else {
        return .failure(XMLFieldPathError(path: text, reason: "it has an empty step"))
      }
      let pieces = name.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard pieces.count <= 2, pieces.allSatisfy(isName) else {
        return .failure(
          XMLFieldPathError(
            path: text,
            reason: "\(RowError.quoted(part)) is not an element name, prefix:name or @attribute (a path names "
              + "elements and attributes only: no text(), *, [n] or ..)"))
      }
      let prefix = pieces.count == 2 ? pieces[0] : nil
      let local = pieces[pieces.count - 1]
      let step = Step(prefix: prefix, prefixIndex: -1, localName: local, localBytes: Array(local.utf8))
      if isAttribute { attribute = step } else { elements.append(step) }
    }
    return .success(XMLFieldPath(text: text, elements: elements, attribute: attribute))
  }

  /// Whether `text` is an XML name without `:` (XML 1.0 §2.3 `NCName`, non-ASCII letters taken as name
  /// characters).
  static func isName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first,
      first.properties.isAlphabetic || first == "_" || first.value >= 0x80
    else { return false }
    return text.unicodeScalars.allSatisfy { scalar in
      scalar.value >= 0x80
        ? !scalar.properties.isWhitespace
        : scalar.properties.isAlphabetic
          || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" || scalar == "."
    }
  }

  /// The path with each prefix's index in `prefixes` (added there when new).
  func indexingPrefixes(_ prefixes: inout [String]) -> XMLFieldPath {
    func indexed(_ step: Step) -> Step {
      guard let prefix = step.prefix else { return step }
      var step = step
      if let index = prefixes.firstIndex(of: prefix) {
        step.prefixIndex = index
      } else {
        step.prefixIndex = prefixes.count
        prefixes.append(prefix)
      }
      return step
    }
    return XMLFieldPath(text: text, elements: elements.map(indexed), attribute: attribute.map(indexed))
  }
}

/// A field option's value that is not a path.
struct XMLFieldPathError: Error, Equatable, Sendable, CustomStringConvertible {
  let path: String
  let reason: String
  var description: String { "\(RowError.quoted(path)) is not a field path: \(reason)" }
}

/// A record's elements and attributes as a path is evaluated over them (``XMLFieldPath``), read by libxml2
/// (``XMLRecord``) or by ``XMLSimpleScanner`` (``XMLScannedPathTree``): both give the same answers, so both
/// paths read the same fields.
///
/// Element 0 is the record element; the others follow in document order, each after its parent.
protocol XMLPathTree {
  var elementCount: Int { get }
  /// The parent's index (`-1` for the record element).
  func parent(of element: Int) -> Int
  /// Whether the element has child elements (then it holds no field's text).
  func hasElements(_ element: Int) -> Bool
  /// Whether the element is named by the step: its local name, and with a prefix, the namespace the prefix is
  /// bound to where the element is.
  func element(_ element: Int, matches step: XMLFieldPath.Step) -> Bool
  /// The element's attributes (namespace declarations left out), as indices for the two methods below.
  func attributes(of element: Int) -> Range<Int>
  /// Whether an attribute is named by the step (its local name; with a prefix, the namespace the prefix is bound
  /// to at its element; an attribute without a prefix has no namespace).
  func attribute(_ attribute: Int, of element: Int, matches step: XMLFieldPath.Step) -> Bool
  /// The qualified name of what a path found (for the run's report).
  func name(of match: XMLPathMatch) -> String
  /// The text of what a path found, as read (not trimmed): an attribute's value, an element's text.
  func text(of match: XMLPathMatch) -> String
}

/// What a path finds in one record.
enum XMLPathMatch: Equatable {
  case none
  case element(Int)
  case attribute(Int, of: Int)
  /// More than one element or attribute: the count.
  case several(Int)
}

extension XMLPathTree {
  /// The elements and attributes a path names in the record.
  func evaluate(_ path: XMLFieldPath) -> XMLPathMatch {
    let current = elements(matching: path)
    if current.isEmpty { return .none }
    guard let step = path.attribute else { return current.count == 1 ? .element(current[0]) : .several(current.count) }
    var found: [(Int, Int)] = []
    for element in current {
      for attribute in attributes(of: element) where self.attribute(attribute, of: element, matches: step) {
        found.append((attribute, element))
      }
    }
    switch found.count {
    case 0: return .none
    case 1: return .attribute(found[0].0, of: found[0].1)
    default: return .several(found.count)
    }
  }

  /// The elements a path's element steps name in the record (its attribute step aside), in document order; the
  /// record element for a path of an attribute alone.
  func elements(matching path: XMLFieldPath) -> [Int] {
    var current = [0]
    for step in path.elements {
      var next: [Int] = []
      var index = 1
      let count = elementCount
      // One parent (the record, or one element) is compared; several are looked up, so that a step matching
      // thousands of elements stays linear in the record's elements.
      let single = current.count == 1 ? current[0] : nil
      let parents = single == nil ? Set(current) : []
      while index < count {
        if element(index, matches: step) {
          let parent = self.parent(of: index)
          if single.map({ $0 == parent }) ?? parents.contains(parent) { next.append(index) }
        }
        index += 1
      }
      if next.isEmpty { return [] }
      current = next
    }
    return current
  }

  /// The currency attribute of a money element (`<Amt Ccy="USD">`): `Ccy`, `currencyID` or `currency`, written
  /// without a prefix (so in no namespace, as ISO 20022 and UBL write it); `p:Ccy` is another namespace's
  /// attribute, not the amount's currency.
  ///
  /// - Returns: the attribute's index; `nil` without one; `-1` when the element has more than one.
  func currencyAttribute(of element: Int) -> Int? {
    var found: Int? = nil
    for attribute in attributes(of: element) {
      for step in XMLFieldPath.currencyAttributes
      where self.attribute(attribute, of: element, matches: step)
        && !name(of: .attribute(attribute, of: element)).utf8.contains(UInt8(ascii: ":"))
      {
        if found != nil { return -1 }
        found = attribute
      }
    }
    return found
  }
}

extension XMLFieldPath {
  /// The currency attributes of a money element, as unprefixed steps: ISO 20022's `Ccy`, UBL's `currencyID`,
  /// and `currency`.
  static let currencyAttributes = ["Ccy", "currencyID", "currency"].map {
    Step(prefix: nil, prefixIndex: -1, localName: $0, localBytes: Array($0.utf8))
  }
}
