/// A compression fxbatch reads and writes: an input in one is recognised by its first bytes (its magic number,
/// whatever its name), read as a stream (``DecompressingReader``), and converted as the text or workbook it holds;
/// an output named with its extension (`X.converted.csv.gz`, `-o out.csv.zst`) is written in it (``Compressor``).
public enum Compression: String, Sendable, CaseIterable, CustomStringConvertible {
  /// RFC 1952 gzip (`gzip`, `pigz`), read through zlib; written by Intel's ISA-L.
  case gzip
  /// Zstandard (`zstd`), read and written through libzstd.
  case zstd
  /// `.xz` (XZ Utils), read and written through liblzma.
  case xz
  /// bzip2, read and written through libbzip2.
  case bzip2

  /// Its name, as its command spells it.
  public var description: String { rawValue }

  /// The extension (lowercase, no dot) of its files, which names an output's compression.
  public var fileExtension: String {
    switch self {
    case .gzip: "gz"
    case .zstd: "zst"
    case .xz: "xz"
    case .bzip2: "bz2"
    }
  }

  /// The magic number its data starts with (RFC 1952, RFC 8878, the .xz file format 1.1.0, bzip2's "BZh").
  var magic: [UInt8] {
    switch self {
    case .gzip: [0x1F, 0x8B]
    case .zstd: [0x28, 0xB5, 0x2F, 0xFD]
    case .xz: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
    case .bzip2: [0x42, 0x5A, 0x68]
    }
  }

  /// The command that tests a file of it (`gzip -t FILE`), for hints.
  var testCommand: String {
    switch self {
    case .gzip: "gzip -t"
    case .zstd: "zstd -t"
    case .xz: "xz -t"
    case .bzip2: "bzip2 -t"
    }
  }

  /// The most bytes ``detect(_:)`` looks at.
  public static let magicSize = 6

  /// The compression a file's first bytes show, if any. bzip2's "BZh" must be followed by its block size digit
  /// (`1`…`9`), so that a text starting with "BZh" is not taken for it.
  ///
  /// - Parameter prefix: the first bytes (``magicSize`` are enough; fewer when the file is shorter).
  public static func detect(_ prefix: some Collection<UInt8>) -> Compression? {
    let head = Array(prefix.prefix(magicSize))
    for compression in allCases where head.starts(with: compression.magic) {
      if compression == .bzip2 {
        guard head.count > 3, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(head[3]) else { continue }
      }
      return compression
    }
    return nil
  }

  /// Whether more bytes could still make ``detect(_:)`` find a compression: the bytes so far are the start of a
  /// magic number (a stream read a few bytes at a time waits for more only then).
  public static func mayStart(_ prefix: some Collection<UInt8>) -> Bool {
    let head = Array(prefix.prefix(magicSize))
    return allCases.contains { compression in
      let magic = compression.magic + (compression == .bzip2 ? [UInt8(ascii: "1")] : [])
      return head.count < magic.count && magic.starts(with: head)
    }
  }

  /// The compression a path's extension names (`.gz`, `.zst`, `.xz`, `.bz2`, any case), if any.
  public static func named(_ path: String) -> Compression? {
    let name = PathText.lastComponent(of: path)
    let (_, fileExtension) = PathText.splitExtension(name)
    return allCases.first { $0.fileExtension == fileExtension.lowercased() }
  }

  /// A path without the extension of a compression: `a/x.csv.gz` → `a/x.csv`; any other path as it is. A file's
  /// format is named by the extension before it.
  public static func strippingExtension(of path: String) -> String {
    guard named(path) != nil, let dot = path.lastIndex(of: ".") else { return path }
    return String(path[..<dot])
  }
}
