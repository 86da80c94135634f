/// The fast loop's reader (``FastRecordReader``) of an XML document read by ``XMLSimpleScanner``: finds a
/// record's role fields through its shape and paths (``XMLRecordShapes``), decodes its currencies and date
/// through the one cached key decoder (``FieldKeyDecoder/key(_:in:)``, from the value ``XMLFieldLocator`` would
/// give: decoded, trimmed) and its plain amount from its bytes, and puts the `fx` element
/// (``AnnotationTemplate/xmlElement``) where ``XMLAnnotatingWriter`` puts it.
///
/// A record with a problem, a missing field or an amount that is not plain is declined
/// (`XMLFastPathTests` compares both paths).
struct XMLFastRecordReader: FastRecordReader {
  /// A record and the bytes its indices point into.
  struct Record {
    let record: XMLScannedRecord
    let bytes: ByteView
  }

  var shapes: XMLRecordShapes
  /// The amounts' decimal mark byte, `nil` when undecided (then only integer amounts are plain).
  let decimalMark: UInt8?
  /// The record element's end tag (`</name>`), for an empty record element opened up.
  let closing: [UInt8]
  let template = AnnotationTemplate.xmlElement

  init(shapes: XMLRecordShapes, decimalMark: UInt8?, recordName: [UInt8]) {
    self.shapes = shapes
    self.decimalMark = decimalMark
    closing = Array("</".utf8) + recordName + [UInt8(ascii: ">")]
  }

  mutating func makeUnique() {
    shapes = XMLRecordShapes(locator: shapes.locator, namespaces: shapes.namespaces.declarations)
  }

  @inline(__always)
  mutating func read(_ record: Record, keys: inout FieldKeyDecoder, amounts: inout FastRecordAmounts)
    -> FieldKeyDecoder.Key?
  {
    let shape = shapes.shape(of: record.record, in: record.bytes)
    let fields = shapes.roleFields(of: record.record, shape: shape, in: record.bytes)
    guard let amountField = fields.amount, let key = keys.key(fields, in: record.bytes),
      amounts.appendPlain(Self.trimmed(amountField, record.bytes), mark: decimalMark)
    else { return nil }
    return key
  }

  @inline(__always)
  func appendHead(of record: Record, to output: inout ByteBuffer) {
    Self.appendHead(of: record.record, bytes: record.bytes, to: &output)
  }

  @inline(__always)
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, from converter: inout TableConverter, to output: inout ByteBuffer
  ) {
    converter.appendAnnotation(conversion, template: template, to: &output)
  }

  /// Never called: XML documents of several amounts are read by the general rules (`XMLFastPasses`).
  @inline(__always)
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, converted: InlineList<ExactDecimal>, from converter: inout TableConverter,
    to output: inout ByteBuffer
  ) {}

  @inline(__always)
  func appendTail(of record: Record, to output: inout ByteBuffer) {
    Self.appendTail(of: record.record, bytes: record.bytes, closing: closing, to: &output)
  }

  /// A field's raw value without XML white space around it (where ``String/trimmingWhitespace`` trims more, the
  /// bytes left are not a plain amount, and the general path reads them).
  @inline(__always)
  static func trimmed(_ field: XMLScannedRecord.Field, _ bytes: ByteView) -> ByteView {
    var start = field.valueStart
    var end = field.valueEnd
    while start < end, XMLSimpleScanner.isSpace(bytes[start]) { start += 1 }
    while end > start, XMLSimpleScanner.isSpace(bytes[end - 1]) { end -= 1 }
    return bytes.slice(start..<end)
  }

  /// Appends a record's bytes up to where its `fx` element goes (as ``XMLAnnotatingWriter`` places it: after the
  /// last child's line with its indentation when the record is laid out one child per line, else just before
  /// the end tag; an empty element is opened up).
  @inline(__always)
  static func appendHead(of record: XMLScannedRecord, bytes: ByteView, to output: inout ByteBuffer) {
    if record.isEmptyElement {
      output.append(bytes.slice(record.start..<record.slash))
      output.append(UInt8(ascii: ">"))
    } else if isIndented(record, bytes) {
      output.append(bytes.slice(record.start..<record.textBeforeEndTag))
      output.append(bytes.slice(record.lastChildTextStart..<record.lastChildStart))
    } else {
      output.append(bytes.slice(record.start..<record.endTagStart))
    }
  }

  /// Appends the rest of a record after its `fx` element (see ``appendHead(of:bytes:to:)``).
  @inline(__always)
  static func appendTail(of record: XMLScannedRecord, bytes: ByteView, closing: [UInt8], to output: inout ByteBuffer) {
    if record.isEmptyElement {
      output.append(closing)
    } else {
      let from = isIndented(record, bytes) ? record.textBeforeEndTag : record.endTagStart
      output.append(bytes.slice(from..<record.end))
    }
  }

  @inline(__always)
  private static func isIndented(_ record: XMLScannedRecord, _ bytes: ByteView) -> Bool {
    record.lastChildStart >= 0 && record.textBeforeEndTag < record.endTagStart
      && XMLSimpleScanner.isIndentation(record.textBeforeEndTag..<record.endTagStart, in: bytes)
      && XMLSimpleScanner.isIndentation(record.lastChildTextStart..<record.lastChildStart, in: bytes)
  }
}

/// Pass 2's per-record fast path over an XML document read by ``XMLSimpleScanner``.
typealias XMLRecordLoop = FastRecordLoop<XMLFastRecordReader>
