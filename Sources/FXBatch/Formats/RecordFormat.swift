#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The name of a file format (`--format` values, the report's `format`), which also decides the layout of a
/// file's annotated copy. The names are declared by the formats themselves (`RecordFormat.csv` in
/// `Formats/CSV/`, …); what a format does is its ``FileFormat`` type, found through ``FormatRegistry``.
public struct RecordFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
  /// The `--format` value, e.g. `csv`.
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }

  /// The formats of the registry, in the order content sniffing asks them.
  public static var allCases: [RecordFormat] { FormatRegistry.formats.map { $0.format } }

  /// The registered format of this name, if any (`--format NAME`).
  public static func named(_ name: String) -> RecordFormat? {
    FormatRegistry.formats.first { $0.format.rawValue == name }?.format
  }

  /// What its files are (``FileFormat/kind``): text, or a package (a workbook).
  var kind: FormatKind { FormatRegistry.type(of: self).kind }

  /// The format a file name's extension names (e.g. `.csv .tsv .txt`, `.json`, `.jsonl .ndjson`, `.xml`), if any;
  /// after a compression's extension, the one before it (`x.csv.gz` is CSV: ``Compression``).
  public static func byExtension(of path: String) -> RecordFormat? {
    guard let fileExtension = fileExtension(of: Compression.strippingExtension(of: path)) else { return nil }
    return FormatRegistry.formats.first { $0.fileExtensions.contains(fileExtension) }?.format
  }

  /// A path's extension, lower-cased (`nil` without one).
  public static func fileExtension(of path: String) -> String? {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    return path[path.index(after: dot)...].lowercased()
  }

  /// The format of a file as ``detect(readPath:displayPath:recordsPath:)`` decides it, with the options of a run.
  public static func detect(readPath: String, displayPath: String, options: BatchOptions) -> RecordFormat {
    detect(readPath: readPath, displayPath: displayPath, recordsPath: options.recordsPath)
  }

  /// The format of a stream as ``detect(prefix:displayPath:recordsPath:)`` decides it, with the options of a run.
  public static func detect(prefix: ArraySlice<UInt8>, displayPath: String, options: BatchOptions) -> RecordFormat {
    detect(prefix: prefix, displayPath: displayPath, recordsPath: options.recordsPath)
  }

  /// The format of a file: by its extension, else from its first bytes (``sniff(_:recordsPath:)``).
  ///
  /// - Parameters:
  ///   - readPath: the file to read (for standard input, its spooled copy).
  ///   - displayPath: the name the user gave, whose extension counts (`-` has none).
  ///   - recordsPath: `--records-path`, which makes a file starting with `{` a JSON document.
  /// - Returns: the format; a file that cannot be read is left to its reader to report, as CSV.
  public static func detect(readPath: String, displayPath: String, recordsPath: [String]) -> RecordFormat {
    let named = displayPath == "-" ? nil : byExtension(of: displayPath)
    let descriptor = open(readPath, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return named ?? FormatRegistry.fallback.format }
    defer { close(descriptor) }
    // A workbook's package says what it is: an `.ods` saved under `.xlsx`, or the other way round, is read as
    // what it holds, and so is a workbook under a text format's name (an export named `.csv`; read as CSV, its
    // zip bytes were "not UTF-8"). A text file under a text format's name is what its name says.
    var prefix = [UInt8](repeating: 0, count: 1 << 16)
    var count = 0
    /// Reads the file's first `size` bytes (or all of a shorter one) into `prefix`.
    func read(upTo size: Int) {
      while count < size {
        let got = FileBytes.read(from: descriptor, into: &prefix, at: count)
        if got <= 0 { break }
        count += got
      }
    }
    // A text format's name needs the first bytes to see a package by; the rest is read for sniffing (an
    // OpenDocument package's `mimetype` entry ends past the first 64 bytes).
    read(upTo: 64)
    if let named, named.kind == .text, !isPackage(prefix[..<count]) { return named }
    read(upTo: 1 << 16)
    return detect(prefix: prefix[..<count], displayPath: displayPath, recordsPath: recordsPath)
  }

  /// The format of a file from its name and first bytes, as ``detect(readPath:displayPath:recordsPath:)`` decides
  /// it (a stream is decided so while it is copied, before its copy can be read).
  ///
  /// - Parameter prefix: the file's first 64 KiB (or all of a shorter one).
  public static func detect(prefix: ArraySlice<UInt8>, displayPath: String, recordsPath: [String]) -> RecordFormat {
    let named = displayPath == "-" ? nil : byExtension(of: displayPath)
    if let named, named.kind == .text, !isPackage(prefix) { return named }
    let sniffed = sniff(prefix, recordsPath: recordsPath)
    guard let named else { return sniffed }
    // Any zip sniffs as .xlsx: a package of another format's family that the format does not read (an
    // OpenDocument text named .ods) keeps its name, to be refused for what it is.
    let claimed = FormatRegistry.formats.contains { $0.format != sniffed && $0.claimsPackage(prefix) }
    if sniffed.kind == .package, !claimed { return sniffed }
    return named
  }

  /// Whether a file's first bytes start a zip package or a Compound File (a workbook, or what says it is none).
  public static func isPackage(_ prefix: ArraySlice<UInt8>) -> Bool {
    prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) || prefix.starts(with: CompoundFile.signature)
  }

  /// The format the first bytes of a file show: the first registered format whose
  /// ``FileFormat/recognizes(raw:content:recordsPath:)`` says yes, else ``FormatRegistry/fallback`` (CSV).
  /// Formats look at the bytes after a UTF-8 byte order mark and leading whitespace (`content`), or at the raw
  /// bytes (UTF-16 XML).
  ///
  /// - Parameters:
  ///   - prefix: the file's first bytes (64 KiB are enough).
  ///   - recordsPath: `--records-path`.
  public static func sniff(_ prefix: ArraySlice<UInt8>, recordsPath: [String]) -> RecordFormat {
    var content = prefix
    if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
    content = content.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    let found = FormatRegistry.formats.first { $0.recognizes(raw: prefix, content: content, recordsPath: recordsPath) }
    return (found ?? FormatRegistry.fallback).format
  }
}
