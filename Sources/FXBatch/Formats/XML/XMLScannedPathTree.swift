/// A record read by ``XMLSimpleScanner`` as a path evaluates it (``XMLPathTree``): names compared as bytes,
/// namespaces as the root declares them (``XMLScannedNamespaces``).
struct XMLScannedPathTree: XMLPathTree {
  let record: XMLScannedRecord
  let bytes: ByteView
  let namespaces: XMLScannedNamespaces

  var elementCount: Int { record.elements.count }

  func parent(of element: Int) -> Int { record.elements[element].parent }

  func hasElements(_ element: Int) -> Bool { record.elements[element].hasElements }

  func element(_ element: Int, matches step: XMLFieldPath.Step) -> Bool {
    let found = record.elements[element]
    let localStart = found.colon >= 0 ? found.colon + 1 : found.nameStart
    guard found.nameEnd - localStart == step.localBytes.count, bytes.hasBytes(step.localBytes, at: localStart) else {
      return false
    }
    guard step.prefix != nil else { return true }
    let namespace =
      found.colon >= 0
      ? namespaces.namespace(ofPrefixAt: found.nameStart..<found.colon, in: bytes) : namespaces.defaultNamespace
    return namespace >= 0 && namespace == namespaces.pathPrefixes[step.prefixIndex]
  }

  func attributes(of element: Int) -> Range<Int> { record.elements[element].attributes }

  func attribute(_ attribute: Int, of element: Int, matches step: XMLFieldPath.Step) -> Bool {
    let found = record.attributes[attribute]
    var colon = -1
    for index in found.nameStart..<found.nameEnd where bytes[index] == UInt8(ascii: ":") {
      colon = index
      break
    }
    let localStart = colon >= 0 ? colon + 1 : found.nameStart
    guard found.nameEnd - localStart == step.localBytes.count, bytes.hasBytes(step.localBytes, at: localStart) else {
      return false
    }
    guard step.prefix != nil else { return true }
    guard colon >= 0 else { return false }
    let namespace = namespaces.namespace(ofPrefixAt: found.nameStart..<colon, in: bytes)
    return namespace >= 0 && namespace == namespaces.pathPrefixes[step.prefixIndex]
  }

  func name(of match: XMLPathMatch) -> String {
    field(match).map { bytes.slice($0.nameStart..<$0.nameEnd).text } ?? ""
  }

  func text(of match: XMLPathMatch) -> String {
    field(match).map { XMLSimpleScanner.decodedText($0, in: bytes) } ?? ""
  }

  /// The field a path found: an element's content (its text when it has no child elements) or an attribute.
  func field(_ match: XMLPathMatch) -> XMLScannedRecord.Field? {
    switch match {
    case .element(let index):
      let element = record.elements[index]
      return XMLScannedRecord.Field(
        nameStart: element.nameStart, nameEnd: element.nameEnd, valueStart: element.valueStart,
        valueEnd: element.valueEnd, needsDecoding: element.needsDecoding || element.hasElements, isAttribute: false,
        element: index)
    case .attribute(let attribute, _): return record.attributes[attribute]
    case .none, .several: return nil
    }
  }
}
