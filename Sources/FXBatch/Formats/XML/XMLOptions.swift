/// The options of `convert` that XML input takes (``BatchOptions/formatSettings``).
struct XMLOptions: FormatSetting {
  /// `--record-element`: the name of an XML document's record elements; `nil` to use the root's repeated
  /// child element (``XMLRecordReader/detectRecordElement(path:)``).
  var recordElement: String? = nil
}

extension BatchOptions {
  /// ``XMLOptions/recordElement``.
  public var recordElement: String? {
    get { formatSettings[XMLOptions.self].recordElement }
    set { formatSettings[XMLOptions.self].recordElement = newValue }
  }
}
