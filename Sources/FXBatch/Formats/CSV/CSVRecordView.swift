/// One record of a CSV file seen in place in the reader's buffer (``CSVReader/withNextRecord(_:)``): the
/// per-record path of large files reads it without copying, and copies it to a ``CSVRecord`` only when it
/// needs the general rules.
struct CSVRecordView {
  /// The record's bytes followed by its line terminator; at least ``readablePadding`` more bytes after them
  /// may be read (their values are unspecified), so a field's bytes can be loaded a word at a time.
  let bytes: UnsafeBufferPointer<UInt8>
  /// How many of ``bytes`` belong to the record (the rest is the terminator: `\r\n`, `\n`, `\r` or nothing).
  let length: Int
  /// Each field's range in ``bytes``, quotes included for a quoted field; empty for a blank line.
  let fieldRanges: UnsafeBufferPointer<Range<Int>>
  /// The 1-based line on which the record starts.
  let line: Int

  /// Bytes that may be read after ``bytes``.
  static let readablePadding = 16

  var isBlank: Bool { length == 0 }
  var fieldCount: Int { fieldRanges.count }

  /// The record as a ``CSVRecord`` (a copy).
  var record: CSVRecord {
    CSVRecord(
      raw: Array(bytes[0..<length]), fieldRanges: Array(fieldRanges), terminator: Array(bytes[length...]), line: line)
  }

  /// A field's raw bytes (quotes included), or an empty slice when the record has no such field.
  func field(_ index: Int?) -> UnsafeBufferPointer<UInt8> {
    guard let index, index < fieldRanges.count else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(rebasing: bytes[fieldRanges[index]])
  }
}
