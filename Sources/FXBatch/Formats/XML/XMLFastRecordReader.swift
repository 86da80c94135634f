/// The fast loop's reader (``FastRecordReader``) of an XML document read by ``XMLSimpleScanner``: finds a
/// record's role fields through its shape and paths (``XMLRecordShapes``), decodes its currencies and date
/// through the one cached key decoder (``FieldKeyDecoder/key(_:in:)``, from the value ``XMLFieldLocator`` would
/// give: decoded, trimmed) and its plain amounts from their bytes (one, or each of `--amount-field A,B,C` found
/// by its own locator, an element or an attribute, as ``XMLFieldLocator/fields(of:)`` finds
/// ``RecordFields/amounts``), and puts the `fx` element (``AnnotationTemplate/xmlElement(layout:)``: a
/// `converted-NAME` attribute per amount with several) where ``XMLAnnotatingWriter`` puts it.
///
/// A record with a problem, a missing field or an amount that is not plain is declined, and so is a record of
/// several amounts whose money elements (`<Amt Ccy="…">`) do not all name its from-currency: the general rules
/// write its error (`FastGeneralDifferentialTests` compares both paths).
struct XMLFastRecordReader: FastRecordReader {
  /// XML records have no first field (``RecordFields/label``): the summary-row rule never skips one.
  static var hasLabels: Bool { false }

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
  /// With several amounts, the `fx` element of the run's NAMEs; `nil` when they are not plain for a template
  /// (then every record is declined) or for one amount.
  let severalTemplate: AnnotationTemplate?

  init(shapes: XMLRecordShapes, decimalMark: UInt8?, recordName: [UInt8]) {
    self.shapes = shapes
    self.decimalMark = decimalMark
    closing = Array("</".utf8) + recordName + [UInt8(ascii: ">")]
    severalTemplate =
      shapes.amountCount > 0
      ? AnnotationTemplate.xmlElement(layout: AnnotationLayout(amountNames: shapes.locator.names.amountNames)) : nil
  }

  mutating func makeUnique() {
    shapes = XMLRecordShapes(locator: shapes.locator, namespaces: shapes.namespaces.declarations)
  }

  @inline(__always)
  mutating func read(_ record: Record, keys: inout FieldKeyDecoder, amounts: inout FastRecordAmounts)
    -> FieldKeyDecoder.Key?
  {
    let shape = shapes.shape(of: record.record, in: record.bytes)
    if shapes.amountCount > 0 { return readSeveral(record, shape: shape, keys: &keys, amounts: &amounts) }
    let fields = shapes.roleFields(of: record.record, shape: shape, in: record.bytes)
    guard let amountField = fields.amount, let key = keys.key(fields, in: record.bytes),
      amounts.appendPlain(Self.trimmed(amountField, record.bytes), mark: decimalMark)
    else { return nil }
    return key
  }

  /// ``read(_:keys:amounts:)`` of a record of several amounts (not inlined: a record of one amount does not pay
  /// for it): the key from the record's role fields, each amount
  /// from its own locator's field (the first included), plain and without a problem; a money element's currency
  /// must be the record's from-currency (as ``RecordConverter`` requires).
  @inline(never)
  private func readSeveral(
    _ record: Record, shape: Int, keys: inout FieldKeyDecoder, amounts: inout FastRecordAmounts
  ) -> FieldKeyDecoder.Key? {
    let fields = shapes.roleFields(of: record.record, shape: shape, in: record.bytes)
    guard severalTemplate != nil, let key = keys.key(fields, in: record.bytes) else { return nil }
    for index in 0..<shapes.amountCount {
      let own = shapes.amountFields(index, of: record.record, shape: shape, in: record.bytes)
      guard !own.hasProblem, let amount = own.amount,
        amounts.appendPlain(Self.trimmed(amount, record.bytes), mark: decimalMark)
      else { return nil }
      if let currency = own.from {
        guard keys.xmlCurrency(currency, record.bytes) == key.base else { return nil }
      }
    }
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

  @inline(__always)
  func appendAnnotation(
    _ conversion: TableConverter.Conversion, converted: InlineList<ExactDecimal>, from converter: inout TableConverter,
    to output: inout ByteBuffer
  ) {
    // ``readSeveral(_:fields:keys:amounts:)`` declined every record without a template.
    guard let severalTemplate else { return }
    converter.appendAnnotation(conversion, converted: converted, template: severalTemplate, to: &output)
  }

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
