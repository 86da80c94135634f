/// The namespaces of a document that ``XMLSimpleScanner`` reads: all declared on the root element, so a prefix
/// means the same everywhere inside the records, and a path's prefix (``XMLFieldPath``) is resolved once.
struct XMLScannedNamespaces: Sendable {
  /// One declaration: `xmlns="name"` (an empty prefix) or `xmlns:prefix="name"`.
  struct Declaration: Sendable, Equatable {
    let prefix: [UInt8]
    let name: [UInt8]
  }

  let declarations: [Declaration]
  /// The namespace of elements without a prefix: an index into ``declarations`` of the first declaration of its
  /// name, `-1` for none.
  let defaultNamespace: Int
  /// Per path prefix (``XMLFieldLocator/prefixes``), the namespace it is bound to (as ``defaultNamespace``).
  let pathPrefixes: [Int]

  init(declarations: [Declaration], pathPrefixes: [String]) {
    self.declarations = declarations
    func namespace(ofPrefix prefix: [UInt8]) -> Int {
      guard let declaration = declarations.last(where: { $0.prefix == prefix }), !declaration.name.isEmpty else {
        return -1
      }
      return declarations.firstIndex { $0.name == declaration.name } ?? -1
    }
    defaultNamespace = namespace(ofPrefix: [])
    self.pathPrefixes = pathPrefixes.map { namespace(ofPrefix: Array($0.utf8)) }
  }

  /// The namespace of the prefix at `range` of `bytes` (declared on the root: the scanner declines others).
  func namespace(ofPrefixAt range: Range<Int>, in bytes: ByteView) -> Int {
    for (index, declaration) in declarations.enumerated()
    where declaration.prefix.count == range.count && bytes.hasBytes(declaration.prefix, at: range.lowerBound) {
      return declarations.firstIndex { $0.name == declaration.name } ?? index
    }
    return -1
  }
}
