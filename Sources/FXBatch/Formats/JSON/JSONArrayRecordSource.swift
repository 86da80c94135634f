/// Pass 2's records of a JSON document's records array for the engine's record loop (``RecordSource``): the
/// array's elements in place, with the bytes between them (white space, commas, the closing `]`).
struct JSONArrayRecordSource: RecordSource {
  typealias Reader = JSONFastRecordReader

  /// An element of the array and where it starts.
  struct Element {
    let bytes: ByteView
    let position: JSONArrayExtent.Position
  }

  let reader: JSONArrayReader

  var offset: Int { reader.position.offset }

  @inline(__always)
  mutating func next(between: (ByteView) throws -> Void, record: (Element) throws -> Void) throws -> Bool {
    let read: Void? = try reader.withNextPiece { piece throws in
      try between(piece.leading)
      guard let element = piece.element else { return }
      try record(Element(bytes: element, position: piece.position))
    }
    return read != nil
  }

  @inline(__always)
  static func fastRecord(_ element: Element) -> JSONFastRecordReader.Record {
    .init(bytes: element.bytes, length: element.bytes.count)
  }
}

/// Writes an element of a JSON document's records array through the general path (``GeneralRecordWriter``),
/// with its annotation members (``JSONAnnotatingWriter``).
struct JSONArrayGeneralWriter: GeneralRecordWriter {
  let writer: JSONAnnotatingWriter
  let locator: JSONFieldLocator
  let outputDecimalMark: DecimalMark

  mutating func write(_ element: JSONArrayRecordSource.Element, general: inout GeneralRecordPath) throws {
    let record = JSONRecordText(
      bytes: element.bytes.array, line: element.position.line, column: element.position.column)
    let (fields, _, extendable) = locator.fields(of: record)
    let outcome = general.outcome(of: fields)
    try writer.write(
      record, cells: outcome.cells(decimalMark: outputDecimalMark, layout: writer.layout), extend: extendable)
  }
}
