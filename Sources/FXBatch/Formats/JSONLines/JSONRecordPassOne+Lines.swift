extension JSONRecordPassOne {
  /// Reads one line.
  ///
  /// - Throws: ``FileError`` when the first record object ends with the annotation members.
  mutating func scan(_ line: JSONLinesByteReader.Line) throws(FileError) {
    guard !line.isBlank else { return }
    try scan(record: line.content, line: line.number, column: 1)
  }
}
