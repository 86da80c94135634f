/// A text encoding a CSV file may be written in (`--encoding`). fxbatch reads and writes UTF-8; a file in another
/// encoding is converted to UTF-8 before it is read and its annotated copy back into the file's encoding, both by
/// glibc's iconv (``Transcoder``).
public enum TextEncoding: String, CaseIterable, Sendable, Equatable {
  case utf8 = "utf-8"
  /// UTF-16 in the byte order its byte order mark gives (a file without one is refused: nothing says the order).
  case utf16 = "utf-16"
  case utf16LittleEndian = "utf-16le"
  case utf16BigEndian = "utf-16be"
  /// Windows' Western European code page (Excel's "CSV" on a Western Windows): ISO-8859-1 with 27 printable
  /// characters (`€`, `‚`, `„`, `…`, `‰`, `Š`, `Œ`, `Ž`, typographic quotes and dashes, `™`, …) at 0x80 … 0x9F,
  /// and 0x81, 0x8D, 0x8F, 0x90, 0x9D undefined.
  case windows1252 = "windows-1252"
  /// Latin-1: every byte is the Unicode character of its value.
  case iso88591 = "iso-8859-1"
  /// Latin-9: ISO-8859-1 with `€` at 0xA4 and seven other changes (`Š š Ž ž Œ œ Ÿ`).
  case iso885915 = "iso-8859-15"

  /// The name glibc's `iconv_open(3)` knows it by.
  var iconvName: String {
    switch self {
    case .utf8: return "UTF-8"
    case .utf16: return "UTF-16"
    case .utf16LittleEndian: return "UTF-16LE"
    case .utf16BigEndian: return "UTF-16BE"
    case .windows1252: return "WINDOWS-1252"
    case .iso88591: return "ISO-8859-1"
    case .iso885915: return "ISO-8859-15"
    }
  }

  /// The bytes of one code unit: a malformed character is shown as the code unit it starts with.
  var codeUnitSize: Int {
    switch self {
    case .utf16, .utf16LittleEndian, .utf16BigEndian: return 2
    default: return 1
    }
  }

  /// Whether a file in this encoding is read as it is (UTF-8), not through a converted copy.
  public var isUTF8: Bool { self == .utf8 }

  /// The encoding a byte order mark at the start of a file names: EF BB BF UTF-8, FF FE UTF-16LE, FE FF UTF-16BE;
  /// `nil` when the file does not start with one.
  public static func byteOrderMark(at start: some Collection<UInt8>) -> TextEncoding? {
    if start.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8 }
    if start.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
    if start.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
    return nil
  }

  /// The encoding a file is read in: its byte order mark decides when `--encoding` is not given, else
  /// `--encoding` (`utf-16` takes its byte order from the mark), else UTF-8.
  ///
  /// - Parameters:
  ///   - declared: `--encoding`, if given.
  ///   - byteOrderMark: what the file's first bytes say (``byteOrderMark(at:)``).
  /// - Returns: the encoding, never ``utf16``; or why none fits: a mark that contradicts `--encoding`, or
  ///   `--encoding utf-16` on a file without a mark.
  public static func resolve(declared: TextEncoding?, byteOrderMark: TextEncoding?) -> Result<TextEncoding, Conflict> {
    switch (declared, byteOrderMark) {
    case (nil, nil): return .success(.utf8)
    case (nil, let mark?): return .success(mark)
    case (.utf16?, nil): return .failure(Conflict(declared: .utf16, byteOrderMark: nil))
    case (let declared?, nil): return .success(declared)
    case (.utf16?, let mark?) where mark != .utf8: return .success(mark)
    case (let declared?, let mark?):
      return declared == mark ? .success(mark) : .failure(Conflict(declared: declared, byteOrderMark: mark))
    }
  }

  /// `--encoding` that the file's byte order mark contradicts, or `--encoding utf-16` without a mark.
  public struct Conflict: Error, Equatable, Sendable, CustomStringConvertible {
    public let declared: TextEncoding
    public let byteOrderMark: TextEncoding?

    public var description: String {
      guard let byteOrderMark else {
        return "--encoding utf-16 needs a byte order mark to tell the byte order, and the file has none"
      }
      let bytes = byteOrderMark == .utf8 ? "EF BB BF" : byteOrderMark == .utf16LittleEndian ? "FF FE" : "FE FF"
      return "the file starts with a \(byteOrderMark.rawValue) byte order mark (\(bytes)), which contradicts "
        + "--encoding \(declared.rawValue)"
    }

    /// What to do.
    public var hint: String {
      guard let byteOrderMark else { return "use --encoding utf-16le or --encoding utf-16be" }
      return "leave out --encoding (the byte order mark decides), or use --encoding \(byteOrderMark.rawValue)"
    }
  }
}
