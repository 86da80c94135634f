/// The options of `convert` that JSON documents take (``BatchOptions/formatSettings``).
struct JSONOptions: FormatSetting {
  /// `--records-path`: the member names leading from a JSON document's top-level object to its records array;
  /// empty when the document is the array.
  var recordsPath: [String] = []
}

extension BatchOptions {
  /// ``JSONOptions/recordsPath``.
  public var recordsPath: [String] {
    get { formatSettings[JSONOptions.self].recordsPath }
    set { formatSettings[JSONOptions.self].recordsPath = newValue }
  }
}
