@preconcurrency import CLibXML2

/// Produces the markup fxbatch inserts into an XML document — the `fx` element, and the `>` and `</name>` that
/// open up an empty record element — with libxml2's writer (`xmlTextWriter`), in the document's own encoding.
///
/// libxml2 escapes the attribute values (`&amp;`, `&lt;`, `&gt;`, `&quot;`, and `&#10;` `&#13;` `&#9;` for
/// line ends and tabs, which an attribute value would otherwise lose) and encodes the result: a character
/// the encoding lacks (`€` in ISO-8859-1) becomes a character reference, `&#8364;`. One writer writing into one
/// memory buffer serves a whole document; each piece is taken out of the buffer as soon as it is written.
///
/// Not thread-safe: one encoder per document being written.
final class XMLElementEncoder {
  private let buffer: xmlBufferPtr
  private let writer: xmlTextWriterPtr

  /// A writer for an encoding.
  ///
  /// - Parameter encoding: the encoding's name as libxml2 (iconv) knows it, e.g. `UTF-8`, `ISO-8859-15`,
  ///   `UTF-16LE` (not `UTF-16`, which would start with a byte order mark).
  /// - Throws: ``OutputError/writeFailed(reason:)`` when libxml2 has no encoder for it.
  init(encoding: String) throws(OutputError) {
    LibXML2.ensureInitialized()
    guard let buffer = xmlBufferCreate() else { throw .writeFailed(reason: "libxml2 could not allocate a buffer") }
    guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
      xmlBufferFree(buffer)
      throw .writeFailed(reason: "libxml2 could not create a writer")
    }
    self.buffer = buffer
    self.writer = writer
    // Starting a document is what installs the encoder, and what tells the attribute escaper that the output
    // has an encoding (without one it writes every non-ASCII character as a reference). The XML declaration it
    // writes is not part of what fxbatch inserts: it is dropped.
    guard xmlTextWriterStartDocument(writer, nil, encoding, nil) >= 0, xmlTextWriterFlush(writer) >= 0 else {
      throw .writeFailed(reason: "libxml2 cannot write XML in the encoding \(RowError.quoted(encoding))")
    }
    xmlBufferEmpty(buffer)
  }

  deinit {
    xmlFreeTextWriter(writer)
    xmlBufferFree(buffer)
  }

  /// Writes an empty element with attributes, `<name a="…" b="…"/>`, in the document's encoding.
  ///
  /// - Parameters:
  ///   - name: the element's name.
  ///   - attributes: names and values, in order; a value's characters that XML 1.0 cannot hold at all (control
  ///     characters other than tab and line ends, U+FFFE, U+FFFF), not even as references, become U+FFFD.
  ///   - output: receives the encoded bytes.
  /// - Throws: ``OutputError/writeFailed(reason:)`` when libxml2 fails; what `output` throws.
  func writeEmptyElement(
    _ name: String, attributes: some Sequence<(String, String)>, to output: (ByteView) throws -> Void
  ) throws {
    try check(xmlTextWriterStartElement(writer, name))
    for (attribute, value) in attributes {
      try check(xmlTextWriterWriteAttribute(writer, attribute, Self.xmlCharacters(value)))
    }
    try check(xmlTextWriterEndElement(writer))
    try take(output)
  }

  /// Writes markup as it is (`>`, `</name>`), only encoded.
  ///
  /// - Throws: ``OutputError/writeFailed(reason:)`` when libxml2 fails; what `output` throws.
  func writeRaw(_ markup: String, to output: (ByteView) throws -> Void) throws {
    try check(xmlTextWriterWriteRaw(writer, markup))
    try take(output)
  }

  /// Text in the document's encoding.
  ///
  /// - Throws: ``OutputError/writeFailed(reason:)`` when libxml2 fails.
  func encoded(_ markup: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try writeRaw(markup) { bytes.append(contentsOf: $0.buffer) }
    return bytes
  }

  /// Flushes the writer into the buffer, hands over the buffer's bytes and empties it.
  private func take(_ output: (ByteView) throws -> Void) throws {
    try check(xmlTextWriterFlush(writer))
    defer { xmlBufferEmpty(buffer) }
    try output(ByteView(start: xmlBufferContent(buffer), count: Int(xmlBufferLength(buffer))))
  }

  private func check(_ status: Int32) throws(OutputError) {
    guard status >= 0 else { throw .writeFailed(reason: "libxml2's XML writer failed") }
  }

  /// The text with every character XML 1.0 excludes (§2.2 Char: controls other than tab, LF and CR; U+FFFE;
  /// U+FFFF) replaced by U+FFFD. libxml2 would write them as they are, making the document malformed.
  static func xmlCharacters(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0xEF }) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: result.append(scalar)
      case 0..<0x20, 0xFFFE, 0xFFFF: result.append("\u{FFFD}")
      default: result.append(scalar)
      }
    }
    return String(result)
  }
}
