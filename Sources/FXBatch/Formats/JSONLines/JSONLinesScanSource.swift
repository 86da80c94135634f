/// Pass 1's JSON Lines lines for the engine's scan (``ScanSource``): a reader's lines in place.
struct JSONLinesScanSource: ScanSource {
  let reader: JSONLinesByteReader

  var offset: Int { reader.nextOffset }
  var line: Int { reader.nextLine }

  func stop(at offset: Int) { reader.stop(at: offset) }

  @inline(__always)
  mutating func next(_ body: (JSONLinesByteReader.Line) throws -> Void) throws -> Bool {
    try reader.withNextLine(body) != nil
  }
}

/// What pass 1 reads of a JSON Lines line (``RecordFindings``): a line that is not blank is a record
/// (``JSONRecordPassOne``).
struct JSONLinesPassOne: RecordFindings {
  var found: JSONRecordPassOne

  /// - Throws: ``FileError`` when the first record object ends with the annotation members.
  @inline(__always)
  mutating func read(_ line: JSONLinesByteReader.Line) throws(FileError) {
    guard !line.isBlank else { return }
    try found.scan(record: line.content, line: line.number, column: 1)
  }

  mutating func add(_ later: JSONLinesPassOne) { found.add(later.found) }
}
