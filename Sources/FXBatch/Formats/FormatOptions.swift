/// The options of `convert` that only some formats take. Each format declares those it takes
/// (``FileFormat/options``); a file of a format that does not take one given is refused
/// (``FileFormat/checkOptions(_:inputPath:)``) rather than converted as if the option were not there.
struct FormatOptions: OptionSet, Sendable {
  let rawValue: Int

  /// `--header NAME,…`: the field names of input without a header line.
  static let header = FormatOptions(rawValue: 1 << 0)
  /// `--encoding`: the input's text encoding (read through a UTF-8 copy, written back in it).
  static let encoding = FormatOptions(rawValue: 1 << 1)
  /// `--no-header-output`: a copy without its header line. A format of text without one takes it as it is;
  /// a package keeps its header row and refuses it.
  static let noHeaderOutput = FormatOptions(rawValue: 1 << 2)
  /// `--header-row`: the row of a sheet from which its header is looked for.
  static let headerRow = FormatOptions(rawValue: 1 << 3)
  /// `--first-line N`: the number of a chunk's first line in the whole file (line-based text).
  static let firstLine = FormatOptions(rawValue: 1 << 4)
}

extension FileFormat {
  /// Refuses the options given that this format does not take (``options``), in the order they are checked.
  ///
  /// - Throws: a ``FileError`` naming the first such option.
  static func checkOptions(_ given: BatchOptions, inputPath: String) throws(FileError) {
    if given.header != nil, !options.contains(.header) {
      throw FileError(
        path: inputPath, message: "--header names the fields of CSV input, and this file is read as \(format.rawValue)",
        hint: "JSON Lines records name their own members: a chunk of lines needs no header")
    }
    if !given.writesHeader, !options.contains(.noHeaderOutput), kind == .package {
      // JSON, JSON Lines and XML copies have no header line to leave out; a workbook keeps its header row.
      throw FileError(
        path: inputPath,
        message: "--no-header-output leaves out a CSV copy's header line, and this file is a workbook (\(format.rawValue))",
        hint: "a workbook's copy keeps its header row; convert CSV files and workbooks in separate runs")
    }
    if let declared = given.encoding, !options.contains(.encoding) {
      throw FileError(
        path: inputPath,
        message: "--encoding \(declared.rawValue) is for CSV input, and this file is read as \(format.rawValue)",
        hint: "convert CSV files and the others in separate runs (XML declares its own encoding; JSON is UTF-8)")
    }
    if given.firstLine != 1, !options.contains(.firstLine) {
      throw FileError(
        path: inputPath,
        message: "--first-line numbers the lines of CSV or JSON Lines input, and this file is read as \(format.rawValue)",
        hint: "a chunk of a file cut at line ends is CSV or JSON Lines; give --format if the stream is one")
    }
    if given.headerRow != nil, !options.contains(.headerRow) {
      throw FileError(
        path: inputPath, message: "--header-row is for workbooks, and this file is read as \(format.rawValue)",
        hint: "convert workbooks and the others in separate runs")
    }
  }
}
