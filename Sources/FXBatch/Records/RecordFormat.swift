#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The layout of an input file's records, which also decides the layout of its annotated copy.
public enum RecordFormat: String, Sendable, CaseIterable, Codable {
  /// RFC 4180 CSV (`,`, `;` or tab delimited): ``CSVReader``.
  case csv
  /// A JSON document holding an array of record objects, at the top or at `--records-path`:
  /// ``JSONDocumentWalker``.
  case json
  /// JSON Lines (NDJSON): one record object per line: ``JSONLinesReader``.
  case jsonl
  /// XML, its records the elements named by `--record-element` (or the root's repeated child):
  /// ``XMLRecordReader``.
  case xml

  /// The format a file name's extension names (`.csv .tsv .txt`, `.json`, `.jsonl .ndjson`, `.xml`), if any.
  public static func byExtension(of path: String) -> RecordFormat? {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    switch path[path.index(after: dot)...].lowercased() {
    case "csv", "tsv", "txt": return .csv
    case "json": return .json
    case "jsonl", "ndjson": return .jsonl
    case "xml": return .xml
    default: return nil
    }
  }

  /// The format of a file: by its extension, else from its first bytes (``sniff(_:recordsPath:)``).
  ///
  /// - Parameters:
  ///   - readPath: the file to read (for standard input, its spooled copy).
  ///   - displayPath: the name the user gave, whose extension counts (`-` has none).
  ///   - recordsPath: `--records-path`, which makes a file starting with `{` a JSON document.
  /// - Returns: the format; a file that cannot be read is left to its reader to report, as CSV.
  public static func detect(readPath: String, displayPath: String, recordsPath: [String]) -> RecordFormat {
    if displayPath != "-", let format = byExtension(of: displayPath) { return format }
    let descriptor = open(readPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .csv }
    defer { close(descriptor) }
    var prefix = [UInt8](repeating: 0, count: 1 << 16)
    var count = 0
    while count < prefix.count {
      let got = prefix.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
      if got < 0, errno == EINTR { continue }
      if got <= 0 { break }
      count += got
    }
    return sniff(prefix[..<count], recordsPath: recordsPath)
  }

  /// The format the first bytes of a file show: `[` starts a JSON document; `{` a JSON document when
  /// `--records-path` is given or its first line is not a whole JSON value, else JSON Lines; `<` XML;
  /// anything else CSV. A UTF-8 byte order mark and leading whitespace are skipped; UTF-16 (a byte order mark,
  /// or `<?` in two-byte units) is XML, the only format fxbatch reads in UTF-16.
  ///
  /// - Parameters:
  ///   - prefix: the file's first bytes (64 KiB are enough).
  ///   - recordsPath: `--records-path`.
  public static func sniff(_ prefix: ArraySlice<UInt8>, recordsPath: [String]) -> RecordFormat {
    let utf16Starts: [[UInt8]] = [[0xFF, 0xFE], [0xFE, 0xFF], [0x3C, 0x00, 0x3F, 0x00], [0x00, 0x3C, 0x00, 0x3F]]
    if utf16Starts.contains(where: { prefix.starts(with: $0) }) { return .xml }
    var bytes = prefix
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    bytes = bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    switch bytes.first {
    case UInt8(ascii: "["): return .json
    case UInt8(ascii: "<"): return .xml
    case UInt8(ascii: "{"):
      if !recordsPath.isEmpty { return .json }
      let firstLine = bytes.prefix { $0 != 0x0A }
      return (try? JSONParser.parse(Array(firstLine))) == nil ? .json : .jsonl
    default: return .csv
    }
  }
}
