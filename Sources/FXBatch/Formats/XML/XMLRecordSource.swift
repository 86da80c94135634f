/// Pass 2's records of an XML document read by ``XMLSimpleScanner``, for the engine's record loop
/// (``RecordSource``): each record element in place, with the markup between records.
struct XMLRecordSource: RecordSource {
  typealias Reader = XMLFastRecordReader
  var scanner: XMLSimpleScanner

  /// Not followed: pass 2 over XML reports no progress.
  var offset: Int { 0 }

  @inline(__always)
  mutating func next(
    between: (ByteView) throws -> Void, record: (XMLFastRecordReader.Record) throws -> Void
  ) throws -> Bool {
    guard let item = try scanner.next() else { return false }
    let bytes = scanner.bytes
    switch item {
    case .markup(let markup): try between(bytes.slice(markup))
    case .record: try record(XMLFastRecordReader.Record(record: scanner.record, bytes: bytes))
    }
    return true
  }

  @inline(__always)
  static func fastRecord(_ record: XMLFastRecordReader.Record) -> XMLFastRecordReader.Record { record }
}

/// Writes an XML record through the general path (``GeneralRecordWriter``): its fields through its shape
/// (``XMLRecordShapes``), and its `fx` element (``XMLElementEncoder``) where ``XMLAnnotatingWriter`` puts it.
struct XMLGeneralWriter: GeneralRecordWriter {
  let sink: ByteSink
  var shapes: XMLRecordShapes
  let encoder: XMLElementEncoder
  /// The record element's end tag (`</name>`), for an empty record element opened up.
  let closing: [UInt8]
  let outputDecimalMark: DecimalMark
  /// The run's annotation fields (a `converted-NAME` attribute per amount with several).
  let layout: AnnotationLayout
  private var pending = ByteBuffer(capacity: 1 << 16)

  init(sink: ByteSink, shapes: XMLRecordShapes, encoder: XMLElementEncoder, recordName: [UInt8], outputDecimalMark: DecimalMark) {
    self.sink = sink
    self.shapes = shapes
    self.encoder = encoder
    closing = Array("</".utf8) + recordName + [UInt8(ascii: ">")]
    self.outputDecimalMark = outputDecimalMark
    layout = AnnotationLayout(amountNames: shapes.locator.names.amountNames)
  }

  mutating func write(_ record: XMLFastRecordReader.Record, general: inout GeneralRecordPath) throws {
    let shape = shapes.shape(of: record.record, in: record.bytes)
    let outcome = general.outcome(of: shapes.fields(of: record.record, shape: shape, in: record.bytes))
    let cells = outcome.cells(decimalMark: outputDecimalMark, layout: layout)
    XMLFastRecordReader.appendHead(of: record.record, bytes: record.bytes, to: &pending)
    let encoder = self.encoder
    try encoder.writeEmptyElement(
      XMLFieldLocator.annotationElement, attributes: zip(layout.xmlAttributeNames, cells)
    ) { pending.append($0) }
    XMLFastRecordReader.appendTail(of: record.record, bytes: record.bytes, closing: closing, to: &pending)
    try sink.write(pending.bytes)
    pending.removeAll()
  }
}
