/// A file format fxbatch reads and writes: how it is recognised, its two passes, and how the summary names it.
///
/// A format lives in its own folder under `Formats/` (reader, fast scan, writer, its errors) with one type
/// conforming to this protocol, and one line in ``FormatRegistry/formats``; the job (`BatchJob`, which hands each
/// pass a ``FormatContext``), the CLI's `--format` values and help, and the summary find it there.
protocol FileFormat: Sendable {
  /// Its name: the `--format` value and the report's `format`.
  static var format: RecordFormat { get }
  /// How people call it, e.g. `JSON Lines`.
  static var displayName: String { get }
  /// File name extensions (lowercase, no dot) that name the format.
  static var fileExtensions: [String] { get }
  /// What its files are: text, or a package (a zip of parts, as a workbook is).
  static var kind: FormatKind { get }
  /// Extensions of files of its kind that fxbatch does not read (`.xlsm` beside `.xlsx`): an output named so is
  /// of that kind.
  static var relatedExtensions: [String] { get }
  /// Whether its records are lines, none longer than a record may be (a stream is refused at a longer line).
  static var isLineBased: Bool { get }
  /// The options of `convert` only some formats take that it takes (``FormatOptions``).
  static var options: FormatOptions { get }
  /// The text encoding `convert` was told its input has (`--encoding`), for a format that takes it
  /// (``FormatOptions/encoding``); `nil` when none was given.
  static func declaredEncoding(_ options: BatchOptions) -> TextEncoding?

  /// Whether a file's first bytes are this format's (asked in registry order; CSV, the fallback, last).
  ///
  /// - Parameters:
  ///   - raw: the first bytes as read.
  ///   - content: the same after a UTF-8 byte order mark and leading whitespace.
  ///   - recordsPath: `--records-path`.
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool

  /// The start of a file's content (after a byte order mark and whitespace) that shows beyond doubt that it is
  /// this format's text (JSON's `[{`, XML's `<?xml`), as the refusal of a file named for another format quotes it
  /// (``RecordFormat/misnamedContent(prefix:format:formatGiven:displayPath:decompressed:)``); `nil` when it does
  /// not (the default).
  static func unmistakableStart(of content: ArraySlice<UInt8>) -> String?

  /// What a stream of this kind of text must be while it is copied to be read twice, decided from its first
  /// bytes (`Pipeline/`'s stream check; a package's rule is its kind's). The rule refuses only what the format's
  /// reader refuses in a file, where it would refuse it.
  ///
  /// - Parameters:
  ///   - head: the stream's first 64 KiB, or all of a shorter one.
  ///   - options: the run's options (`--encoding`, the record limits).
  ///   - inputPath: the input as the user gave it, which errors name.
  /// - Throws: a ``FileError`` when the first bytes already cannot be the format's.
  static func streamRule(head: ArraySlice<UInt8>, options: BatchOptions, inputPath: String) throws(FileError)
    -> StreamRule

  /// Whether a stream in this format can be converted as it is read, in one pass, without a copy: pass 1 reads
  /// only what comes before the records (the run converts from a local table as records come).
  static func readsStreamInOnePass(_ options: BatchOptions) -> Bool

  /// Whether a package's first bytes are of this format's family, even one it does not read (any OpenDocument
  /// package for ODS): such a package is not read as another package format (XLSX, which recognises any zip).
  static func claimsPackage(_ prefix: ArraySlice<UInt8>) -> Bool

  /// Pass 1 over one file: validates it, decides its fields and decimal mark, and collects its rate keys
  /// (none when the run's table answers them as records come).
  static func scan(_ file: FileInput, context: FormatContext) throws(FileError) -> (FileScan, RateKeyIndex)

  /// Pass 2 over one file: writes its annotated copy.
  ///
  /// - Returns: the outcome; its scan is the file's scan as it stands after the pass (a provisional scan may be
  ///   replaced).
  static func convert(_ scan: FileScan, context: FormatContext, quotes: QuoteBook, standardOutput: Int32)
    throws(FileError) -> FileConversion

  /// Whether a file is an earlier fxbatch output (so a second run over `*.csv` skips `X.converted.csv`).
  static func isAnnotatedOutput(_ path: String, context: FormatContext) -> Bool

  /// The format's facts about a converted file for the report (delimiter, records path, …).
  static func describe(_ scan: FileScan, options: BatchOptions, in file: inout RunReport.File)

  /// The bracketed details the summary line of a converted file starts with, e.g. `["JSON Lines"]`.
  static func summaryDetails(of file: RunReport.File) -> [String]
}

/// What a format's files are.
enum FormatKind: Sendable {
  /// Text (CSV, JSON, XML, …): a zip package read as it is refused.
  case text
  /// A zip package of parts (a workbook): refused when it does not start as one.
  case package
}

extension FileFormat {
  static var kind: FormatKind { .text }
  static var relatedExtensions: [String] { [] }
  static var isLineBased: Bool { false }
  static var options: FormatOptions { [] }
  static func declaredEncoding(_ options: BatchOptions) -> TextEncoding? { nil }
  /// Any bytes: only the size and line limits.
  static func streamRule(head: ArraySlice<UInt8>, options: BatchOptions, inputPath: String) throws(FileError)
    -> StreamRule
  { StreamRule(bytes: .anyBytes) }
  static func readsStreamInOnePass(_ options: BatchOptions) -> Bool { false }
  static func unmistakableStart(of content: ArraySlice<UInt8>) -> String? { nil }
  static func claimsPackage(_ prefix: ArraySlice<UInt8>) -> Bool { false }
  static func describe(_ scan: FileScan, options: BatchOptions, in file: inout RunReport.File) {}
  static func summaryDetails(of file: RunReport.File) -> [String] { [displayName] }
}
