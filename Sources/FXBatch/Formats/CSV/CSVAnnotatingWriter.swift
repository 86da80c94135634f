/// Writes the annotated copy of a CSV file: every input record byte for byte (its quoting, delimiter and line
/// end kept), followed by the ``AnnotationColumn`` fields.
public struct CSVAnnotatingWriter {
  private let sink: ByteSink
  private let delimiter: UInt8
  /// How many fields the header has; shorter records are padded with empty fields so the annotations line up.
  private let headerFieldCount: Int
  /// The annotation fields' names (``AnnotationLayout``).
  private let layout: AnnotationLayout

  public init(sink: ByteSink, delimiter: UInt8, headerFieldCount: Int, layout: AnnotationLayout = .single) {
    self.sink = sink
    self.delimiter = delimiter
    self.headerFieldCount = headerFieldCount
    self.layout = layout
  }

  /// Writes a UTF-8 byte order mark (when the input had one), the blank lines before the header, and the
  /// header with the annotation names.
  public func writeHeader(_ header: CSVRecord, byteOrderMark: Bool, leadingBlankLines: [CSVRecord] = []) throws(OutputError) {
    try writeLeading(byteOrderMark: byteOrderMark, blankLines: leadingBlankLines)
    try write(header, cells: layout.fieldNames)
  }

  /// Writes what comes before the header: a UTF-8 byte order mark (when the input had one) and the blank lines
  /// (all of the copy's start under `--no-header-output`).
  public func writeLeading(byteOrderMark: Bool, blankLines: [CSVRecord]) throws(OutputError) {
    if byteOrderMark { try sink.write([0xEF, 0xBB, 0xBF]) }
    for blank in blankLines { try writeBlank(blank) }
  }

  /// Copies a blank line (``CSVRecord/isBlank``) as it was read: its delimiters and spaces, and its terminator.
  public func writeBlank(_ record: CSVRecord) throws(OutputError) {
    try sink.write(record.raw)
    try sink.write(record.terminator)
  }

  /// Writes one record and its annotations.
  public func write(_ record: CSVRecord, cells: [String]) throws(OutputError) {
    try sink.write(record.raw)
    if record.fieldCount < headerFieldCount {
      try sink.write(repeatElement(delimiter, count: headerFieldCount - record.fieldCount))
    }
    for cell in cells {
      try sink.write(CollectionOfOne(delimiter))
      try sink.write(quoted(cell))
    }
    try sink.write(record.terminator)
  }

  /// The cell as an RFC 4180 field: quoted when it holds the delimiter, a quote, CR or LF.
  private func quoted(_ cell: String) -> [UInt8] { Self.quoted(cell, delimiter: delimiter) }

  /// The cell as an RFC 4180 field with this delimiter (`--header`'s names are written so too).
  static func quoted(_ cell: String, delimiter: UInt8) -> [UInt8] {
    let bytes = Array(cell.utf8)
    guard bytes.contains(where: { $0 == delimiter || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) else { return bytes }
    var result: [UInt8] = [UInt8(ascii: "\"")]
    for byte in bytes {
      result.append(byte)
      if byte == UInt8(ascii: "\"") { result.append(byte) }
    }
    result.append(UInt8(ascii: "\""))
    return result
  }
}
