extension JSONRecordFastPass {
  /// Converts and writes one line.
  ///
  /// - Returns: whether it did; `false` leaves the line to the general path, with nothing written.
  @inline(__always)
  mutating func convert(_ line: JSONLinesByteReader.Line, sink: ByteSink) throws(OutputError) -> Bool {
    try convert(line.bytes, length: line.length, sink: sink)
  }
}
