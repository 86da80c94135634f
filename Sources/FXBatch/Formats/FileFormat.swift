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

  /// Whether a file's first bytes are this format's (asked in registry order; CSV, the fallback, last).
  ///
  /// - Parameters:
  ///   - raw: the first bytes as read.
  ///   - content: the same after a UTF-8 byte order mark and leading whitespace.
  ///   - recordsPath: `--records-path`.
  static func recognizes(raw: ArraySlice<UInt8>, content: ArraySlice<UInt8>, recordsPath: [String]) -> Bool

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

extension FileFormat {
  static func describe(_ scan: FileScan, options: BatchOptions, in file: inout RunReport.File) {}
  static func summaryDetails(of file: RunReport.File) -> [String] { [displayName] }
}
