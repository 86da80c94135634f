/// The records of a JSON document or a JSON Lines file, in order, with the bytes between them: one loop for
/// both passes of the batch job and for both JSON formats.
public struct JSONRecordStream {
  public let path: String
  /// ``RecordFormat/json`` or ``RecordFormat/jsonl``.
  public let format: RecordFormat
  /// `--records-path` (JSON documents only).
  public let recordsPath: [String]
  /// How big a record may be (a bigger one is a ``JSONParseError``).
  public let limits: RecordLimits

  public init(path: String, format: RecordFormat, recordsPath: [String], limits: RecordLimits = .standard) {
    self.path = path
    self.format = format
    self.recordsPath = recordsPath
    self.limits = limits
  }

  /// Reads the file once.
  ///
  /// - Parameters:
  ///   - copy: receives every byte that is not part of a record, in order: a byte order mark, the document
  ///     around the records array, blank lines, line ends.
  ///   - record: called with each record after the bytes before it; returns `false` to stop.
  /// - Throws: ``JSONParseError`` when the file cannot be read or a JSON document is malformed (a bad JSON
  ///   Lines line is not thrown: it is that record's error), or what the closures throw.
  public func forEach(copy: @escaping ([UInt8]) throws -> Void, record: @escaping (JSONRecordText) throws -> Bool) throws {
    guard format == .jsonl else {
      try JSONDocumentWalker(path: path, recordsPath: recordsPath, limits: limits).walk(copy: copy, record: record)
      return
    }
    let reader = try JSONLinesReader(path: path, limits: limits)
    var first = true
    while let line = try reader.next() {
      if first, reader.hasByteOrderMark { try copy([0xEF, 0xBB, 0xBF]) }
      first = false
      if line.isBlank {
        try copy(line.record.bytes + line.terminator)
        continue
      }
      guard try record(line.record) else { return }
      try copy(line.terminator)
    }
    if first, reader.hasByteOrderMark { try copy([0xEF, 0xBB, 0xBF]) }  // a file of only a byte order mark
  }
}
