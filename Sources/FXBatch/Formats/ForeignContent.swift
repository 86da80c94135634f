/// What a file's first bytes show it is when that is nothing fxbatch reads as text: a PDF, an HTML page, an
/// archive of files, compressed data where decompressed data was expected. Read as CSV, such a file was refused
/// for its "header" (`"%PDF-1.7"`) or its bytes ("not UTF-8 … use --encoding"), which sent people the wrong way.
enum ForeignContent: Equatable {
  case pdf
  case html
  case tar
  case sevenZip
  case rar
  /// LZ4 frames (`lz4`, `zstd --format=lz4`): a compression fxbatch does not read.
  case lz4
  case compressed(Compression)

  /// What a file's first bytes show, if it is one of these.
  ///
  /// - Parameter prefix: the file's first bytes (512 are enough).
  static func detect(_ prefix: ArraySlice<UInt8>) -> ForeignContent? {
    if prefix.starts(with: Array("%PDF-".utf8)) { return .pdf }
    if let compression = Compression.detect(prefix) { return .compressed(compression) }
    if prefix.starts(with: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return .sevenZip }
    if prefix.starts(with: Array("Rar!".utf8) + [0x1A, 0x07]) { return .rar }
    if prefix.starts(with: [0x04, 0x22, 0x4D, 0x18]) { return .lz4 }
    // POSIX tar: "ustar" at offset 257 of its first header block.
    if prefix.count >= 262, prefix.dropFirst(257).starts(with: Array("ustar".utf8)) { return .tar }
    var content = prefix
    if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
    content = content.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    let start = String(decoding: content.prefix(14), as: UTF8.self).lowercased()
    if start.hasPrefix("<!doctype html") || start.hasPrefix("<html") { return .html }
    return nil
  }

  /// What the file is, as a message says it: `a PDF document (it starts with %PDF-)`.
  var description: String {
    switch self {
    case .pdf: "a PDF document (it starts with %PDF-)"
    case .html: "an HTML page (it starts with <!DOCTYPE html> or <html>)"
    case .tar: "a tar archive of files"
    case .sevenZip: "a 7-Zip archive of files"
    case .rar: "a RAR archive of files"
    case .lz4: "LZ4-compressed data (fxbatch decompresses gzip, zstd, xz and bzip2)"
    case .compressed(let compression): "\(compression)-compressed data"
    }
  }

  /// The step that makes it something fxbatch reads.
  var hint: String {
    switch self {
    case .pdf:
      "fxbatch reads no PDF: export the statement as CSV from where it came (most banks offer it), or extract its "
        + "table with a tool such as tabula, and convert that"
    case .html:
      "fxbatch reads no HTML: save the page's table as CSV (or the site's own export) and convert that"
    case .tar: "extract its files (`tar -xf FILE`) and convert them"
    case .sevenZip: "extract its files (`7z x FILE`) and convert them"
    case .rar: "extract its files (`unrar x FILE`) and convert them"
    case .lz4: "decompress it (`lz4 -dk FILE`), or recompress it with gzip or zstd, and convert the result"
    case .compressed(let compression):
      "it was compressed twice: decompress it once (`\(compression.rawValue) -dk FILE`) and convert the result"
    }
  }
}

extension RecordFormat {
  /// Refuses a file whose content is not what it is read as, naming what it is and what reads it:
  /// - content nothing reads as text (``ForeignContent``: a PDF, an archive, compressed twice; an HTML page
  ///   unless `--format` was given), whatever the format;
  /// - a file named for CSV (`.csv .tsv .txt`, the fallback) whose first bytes show beyond doubt another
  ///   format's text (``FileFormat/unmistakableStart(of:)``: JSON's `[{`, XML's `<?xml`), unless `--format` was
  ///   given.
  ///
  /// - Parameters:
  ///   - prefix: the file's first bytes (its first 64 KiB; decompressed, for a compressed file).
  ///   - format: the format the file is read as.
  ///   - formatGiven: whether `--format` said so.
  ///   - displayPath: the file as the user named it.
  ///   - decompressed: whether `prefix` is a compressed file's, decompressed.
  /// - Returns: the refusal, or `nil` when the content may be what it is read as.
  static func misnamedContent(
    prefix: ArraySlice<UInt8>, format: RecordFormat, formatGiven: Bool, displayPath: String, decompressed: Bool
  ) -> FileError? {
    guard format.kind == .text else { return nil }
    let type = FormatRegistry.type(of: format)
    let what =
      displayPath == "-"
      ? (decompressed ? "decompressed, standard input is" : "standard input is")
      : (decompressed ? "decompressed, this file is" : "this file is")
    if let foreign = ForeignContent.detect(prefix), !(foreign == .html && formatGiven) {
      return FileError(
        path: displayPath, message: "\(what) \(foreign.description), not \(type.displayName) text", hint: foreign.hint)
    }
    guard !formatGiven, format == FormatRegistry.fallback.format, displayPath != "-",
      byExtension(of: displayPath) == format
    else { return nil }
    var content = prefix
    if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
    content = content.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
    for other in FormatRegistry.formats where other.format != format && other.kind == .text {
      guard let start = other.unmistakableStart(of: content) else { continue }
      let named = fileExtension(of: Compression.strippingExtension(of: displayPath)).map { "." + $0 } ?? ""
      return FileError(
        path: displayPath,
        message:
          "\(what) \(other.displayName) (it starts with \(start)), not \(type.displayName) as its name \(named) says",
        hint:
          "name it .\(other.fileExtensions.first ?? other.format.rawValue) or pass --format \(other.format.rawValue)")
    }
    return nil
  }
}
