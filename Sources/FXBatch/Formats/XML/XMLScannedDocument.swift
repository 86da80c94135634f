/// What pass 1 learned about an XML document that ``XMLSimpleScanner`` read (it is in the scanner's subset):
/// pass 2 reads it with the scanner too, in parts from ``FileScan/partStarts`` when there are any.
struct XMLScannedDocument: Sendable {
  let rootName: [UInt8]
  let recordName: [UInt8]
  /// The encoding's name for ``XMLElementEncoder`` (`UTF-8`, or `US-ASCII` / `ASCII` as declared).
  let encodingName: String
  /// The root element's namespace declarations.
  var namespaces: [XMLScannedNamespaces.Declaration] = []
}
