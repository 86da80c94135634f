#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What comes before an XML document's root element, read from the file's own bytes before libxml2 parses
/// anything: its encoding, and where a document type declaration (`<!DOCTYPE …>`) is, if it has one.
///
/// fxbatch refuses DTDs; finding one here refuses it before any of its entities can be parsed, and gives its
/// position in the document as the user sees it (libxml2's parser, which reads ahead, would only say how far
/// it had read).
public struct XMLProlog: Sendable, Equatable {
  /// The document's encoding.
  public let encoding: XMLDocumentEncoding
  /// Where `<!DOCTYPE` is, when the prolog has one.
  public let documentType: XMLSourcePosition?

  /// Reads a file's prolog.
  ///
  /// - Parameter path: the file.
  /// - Throws: ``XMLInputError`` when the file cannot be read or its encoding is one fxbatch does not copy
  ///   (``XMLDocumentEncoding/detect(_:)``).
  public static func read(path: String) throws(XMLInputError) -> XMLProlog {
    let encoding = try XMLDocumentEncoding.detect(try prefix(of: path))
    return XMLProlog(encoding: encoding, documentType: try documentTypePosition(path: path, encoding: encoding))
  }

  /// Refuses a document in an ASCII-compatible encoding that is empty (or only white space) or does not start
  /// with markup, with a message that says so (libxml2 says "Document is empty" for a binary file, and "Extra
  /// content at the end of the document" for an empty one), before libxml2 reads it.
  public func checkStart(path: String) throws(XMLInputError) {
    guard encoding.form == .asciiCompatible else { return }
    let start = try Self.prefix(of: path)
    try Self.checkStart(start.dropFirst(encoding.byteOrderMarkLength), whole: start.count < 1024)
  }

  /// See ``checkStart(path:)``: `bytes` are the document's first bytes after its byte order mark, `whole` whether
  /// they are the whole file.
  private static func checkStart(_ bytes: ArraySlice<UInt8>, whole: Bool) throws(XMLInputError) {
    var (line, column) = (1, 1)
    for byte in bytes {
      switch byte {
      case 0x20, 0x09, 0x0D: column += 1
      case 0x0A: (line, column) = (line + 1, 1)
      case UInt8(ascii: "<"): return
      default:
        throw XMLInputError(
          line: line, column: column,
          message: "the document does not start with markup ('<'): it is not an XML document",
          hint: "check the file; give --format if its extension is wrong")
      }
    }
    if whole {
      throw XMLInputError(line: line, column: column, message: "the document is empty; expected XML records")
    }
  }

  /// The error for a document with a DTD.
  public static func documentTypeRefused(at position: XMLSourcePosition) -> XMLInputError {
    XMLInputError(
      line: position.line, column: position.column,
      message: "a DTD (<!DOCTYPE …>) is not accepted: its entities could expand without bound or read other files",
      hint: "remove the DOCTYPE declaration; fxbatch reads XML without a DTD")
  }

  /// The file's first bytes, enough for a byte order mark and an XML declaration.
  private static func prefix(of path: String) throws(XMLInputError) -> [UInt8] {
    let window = try XMLByteWindow(path: path, form: .asciiCompatible, capacity: 1024)
    var bytes: [UInt8] = []
    while bytes.count < 1024, let unit = try window.unit(at: bytes.count) { bytes.append(UInt8(unit)) }
    return bytes
  }

  /// Walks the prolog — white space, the XML declaration, comments, processing instructions — up to the first
  /// other markup.
  private static func documentTypePosition(path: String, encoding: XMLDocumentEncoding) throws(XMLInputError)
    -> XMLSourcePosition?
  {
    let window = try XMLByteWindow(path: path, form: encoding.form)
    let width = encoding.form.codeUnitWidth
    let isUTF8 = encoding.name == "UTF-8"
    var offset = encoding.byteOrderMarkLength
    var position = XMLSourcePosition()

    func starts(_ text: String) throws(XMLInputError) -> Bool {
      var at = offset
      for unit in text.utf16 {
        guard try window.unit(at: at) == unit else { return false }
        at += width
      }
      return true
    }
    func advance() throws(XMLInputError) -> Bool {
      guard let unit = try window.unit(at: offset) else { return false }
      offset += width
      window.release(before: offset)
      position.advance(over: unit, isUTF8: isUTF8)
      return true
    }
    func skip(past end: String) throws(XMLInputError) {
      while try !starts(end) { guard try advance() else { return } }
      for _ in end.utf16 { _ = try advance() }
    }

    while let unit = try window.unit(at: offset) {
      if unit == 0x20 || unit == 0x09 || unit == 0x0A || unit == 0x0D {
        _ = try advance()
      } else if try starts("<?") {
        try skip(past: "?>")
      } else if try starts("<!--") {
        try skip(past: "-->")
      } else if try starts("<!DOCTYPE") {
        return position
      } else {
        return nil  // the root element, or text libxml2 will refuse
      }
    }
    return nil
  }
}
