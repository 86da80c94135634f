/// Pass 2's JSON Lines records for the engine's record loop (``RecordSource``): a reader's lines in place.
struct JSONLinesRecordSource: RecordSource {
  typealias Reader = JSONFastRecordReader
  let reader: JSONLinesByteReader

  var offset: Int { reader.nextOffset }

  @inline(__always)
  mutating func next(
    between: (ByteView) throws -> Void, record: (JSONLinesByteReader.Line) throws -> Void
  ) throws -> Bool {
    let read: Void? = try reader.withNextLine { line throws in try record(line) }
    return read != nil
  }

  @inline(__always)
  static func fastRecord(_ line: JSONLinesByteReader.Line) -> JSONFastRecordReader.Record {
    .init(bytes: line.bytes, length: line.length)
  }
}

/// Writes a JSON Lines line through the general path (``GeneralRecordWriter``): a blank line as it is, a record
/// with its annotation members (``JSONAnnotatingWriter``), then its line end.
struct JSONLinesGeneralWriter: GeneralRecordWriter {
  let sink: ByteSink
  let writer: JSONAnnotatingWriter
  let locator: JSONFieldLocator
  let outputDecimalMark: DecimalMark

  mutating func write(_ line: JSONLinesByteReader.Line, general: inout GeneralRecordPath) throws {
    if line.isBlank {
      try sink.write(line.bytes)
      return
    }
    let record = JSONRecordText(bytes: line.content.array, line: line.number, column: 1)
    let (fields, _, extendable) = locator.fields(of: record)
    let outcome = general.outcome(of: fields)
    try writer.write(
      record, cells: outcome.cells(decimalMark: outputDecimalMark, layout: writer.layout), extend: extendable)
    try sink.write(line.bytes.slice(from: line.length))
  }
}
