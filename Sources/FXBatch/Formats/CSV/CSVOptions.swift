/// The options of `convert` that CSV input takes (``BatchOptions/formatSettings``).
struct CSVOptions: FormatSetting {
  /// `--encoding`: the encoding of every CSV input; `nil` for UTF-8 unless a file's byte order mark says UTF-16
  /// (``TextEncoding/resolve(declared:byteOrderMark:)``). A file not in UTF-8 is read through a UTF-8 copy and
  /// its annotated copy written in its own encoding.
  var encoding: TextEncoding? = nil
  /// `--header NAME,…`: the field names of CSV input whose records carry no header line (a partition of a file,
  /// a chunk piped by a cluster job); every line of the input is then a record. `nil`: the first line is the header.
  var header: [String]? = nil
  /// `--no-header-output`: the annotated CSV copy has no header line, so the copies of a file's partitions can be
  /// concatenated (JSON Lines, JSON and XML copies have no header).
  var writesHeader = true
  /// The field delimiter; `nil` to detect it per file from the header line.
  var delimiter: UInt8? = nil

  var given: FormatOptions {
    var given: FormatOptions = []
    if header != nil { given.insert(.header) }
    if encoding != nil { given.insert(.encoding) }
    if !writesHeader { given.insert(.noHeaderOutput) }
    return given
  }
}

extension BatchOptions {
  /// ``CSVOptions/encoding``.
  public var encoding: TextEncoding? {
    get { formatSettings[CSVOptions.self].encoding }
    set { formatSettings[CSVOptions.self].encoding = newValue }
  }
  /// ``CSVOptions/header``.
  public var header: [String]? {
    get { formatSettings[CSVOptions.self].header }
    set { formatSettings[CSVOptions.self].header = newValue }
  }
  /// ``CSVOptions/writesHeader``.
  public var writesHeader: Bool {
    get { formatSettings[CSVOptions.self].writesHeader }
    set { formatSettings[CSVOptions.self].writesHeader = newValue }
  }
  /// ``CSVOptions/delimiter``.
  public var delimiter: UInt8? {
    get { formatSettings[CSVOptions.self].delimiter }
    set { formatSettings[CSVOptions.self].delimiter = newValue }
  }
}

extension CSVFormat {
  static func declaredEncoding(_ options: BatchOptions) -> TextEncoding? { options.encoding }
}
