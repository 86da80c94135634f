/// Writes the annotated copy of a JSON document or a JSON Lines file: every byte as read, each record object
/// extended by the ``AnnotationColumn`` members (after its own members, as JSON strings, so exact numbers
/// stay exact for any reader).
///
/// A record that is not an object (a JSON Lines line that is not valid JSON, an array element that is a
/// number) cannot be extended: it is written as an object of the annotation members, led by `fx_input`, a
/// string holding the record's text as written.
public struct JSONAnnotatingWriter {
  private let sink: ByteSink
  /// The annotation members' names (``AnnotationLayout``).
  let layout: AnnotationLayout

  public init(sink: ByteSink, layout: AnnotationLayout = .single) {
    self.sink = sink
    self.layout = layout
  }

  /// Copies bytes unchanged (everything between records, blank lines, line ends).
  public func copy(_ bytes: some Sequence<UInt8>) throws(OutputError) { try sink.write(bytes) }

  /// Writes one record and its annotations.
  ///
  /// - Parameters:
  ///   - record: the record as read.
  ///   - cells: the annotation values in ``layout``'s order (``RowOutcome/cells(decimalMark:layout:)``).
  ///   - extend: whether the record is an object that can take the members (``JSONFieldLocator/fields(of:)-(JSONRecordText)``);
  ///     else it is written inside `fx_input`.
  public func write(_ record: JSONRecordText, cells: [String], extend: Bool) throws(OutputError) {
    let names = layout.fieldNames
    guard extend, let layout = JSONObjectLayout(of: record.bytes) else {
      var members = [Self.quoted("fx_input") + ":" + Self.quoted(String(decoding: record.bytes, as: UTF8.self))]
      members += zip(names, cells).map { Self.quoted($0) + ":" + Self.quoted($1) }
      try sink.write("{" + members.joined(separator: ",") + "}")
      return
    }
    try sink.write(record.bytes[..<layout.insertion])
    for (index, (name, cell)) in zip(names, cells).enumerated() {
      if index > 0 || !layout.isEmpty { try sink.write(CollectionOfOne(UInt8(ascii: ","))) }
      try sink.write(layout.separator)
      try sink.write(Self.quoted(name))
      try sink.write(layout.beforeColon)
      try sink.write(CollectionOfOne(UInt8(ascii: ":")))
      try sink.write(layout.afterColon)
      try sink.write(Self.quoted(cell))
    }
    try sink.write(record.bytes[layout.insertion...])
  }

  /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
