/// One record of a CSV file seen in place in the reader's buffer (``CSVReader/withNextRecord(_:)``): the
/// per-record path of large files reads it without copying, and copies it to a ``CSVRecord`` only when it
/// needs the general rules.
struct CSVRecordView {
  /// The record's bytes followed by its line terminator; at least ``readablePadding`` more bytes after them
  /// may be read (their values are unspecified), so a field's bytes can be loaded a word at a time.
  let bytes: ByteView
  /// How many of ``bytes`` belong to the record (the rest is the terminator: `\r\n`, `\n`, `\r` or nothing).
  let length: Int
  /// Each field's range in ``bytes``, quotes included for a quoted field: the first ``fieldCount`` of them.
  let fieldRanges: ScratchList<Range<Int>>
  /// The record's fields; 0 for a blank line.
  let fieldCount: Int
  /// The 1-based line on which the record starts.
  let line: Int

  /// Bytes that may be read after ``bytes``.
  static let readablePadding = 16

  /// Whether the record holds no data (``CSVRecord/isBlank``): an empty line, or only delimiters, spaces and
  /// tabs.
  var isBlank: Bool {
    for index in 0..<fieldCount where !CSVRecord.holdsNoData(bytes.slice(fieldRanges[index])) { return false }
    return true
  }

  /// The record as a ``CSVRecord`` (a copy).
  var record: CSVRecord {
    CSVRecord(
      raw: bytes.array(0..<length), fieldRanges: Array(fieldRanges.prefix(fieldCount)),
      terminator: bytes.array(length..<bytes.count), line: line)
  }

  /// The record's terminator (`\r\n`, `\n`, `\r` or nothing).
  var terminator: ByteView { bytes.slice(from: length) }

  /// A field's raw bytes (quotes included), or an empty view when the record has no such field.
  @inline(__always)
  func field(_ index: Int?) -> ByteView {
    guard let index, index < fieldCount else { return ByteView(start: nil, count: 0) }
    return bytes.slice(fieldRanges[index])
  }
}
