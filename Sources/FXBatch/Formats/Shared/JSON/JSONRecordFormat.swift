/// A JSON format whose records the shared passes (``JSONRecords``) read: each format says how its records follow
/// one another in a file (a document's records array, one record per line); reading a record is the same for all.
protocol JSONRecordFormat: FileFormat {
  /// Reads a file's records once, in order, with the bytes between them.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - options: the run's options (`--records-path`, the record limits).
  ///   - copy: receives every byte that is not part of a record, in order (a byte order mark, the document around
  ///     the records, blank lines, line ends).
  ///   - record: called with each record after the bytes before it; returns `false` to stop.
  /// - Throws: ``JSONParseError`` when the file cannot be read or is malformed (a bad record the format reads on
  ///   past is not thrown: it is that record's error), or what the closures throw.
  static func forEachRecord(
    path: String, options: BatchOptions, copy: @escaping ([UInt8]) throws -> Void,
    record: @escaping (JSONRecordText) throws -> Bool
  ) throws
}
