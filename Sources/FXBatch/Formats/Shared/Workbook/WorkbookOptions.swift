/// The options of `convert` that workbooks (XLSX, ODS) take (``BatchOptions/formatSettings``).
struct WorkbookOptions: FormatSetting {
  /// `--sheet`: the sheet of a workbook to convert, by its tab name or its 1-based number; `nil` for the first
  /// sheet.
  var sheet: String? = nil
  /// `--header-row`: the row of a workbook's sheet from which its first non-empty row is the header (1-based);
  /// `nil` for the sheet's first non-empty row. The rows above it are copied and get no fx_* cells.
  var headerRow: Int? = nil

  var given: FormatOptions { headerRow == nil ? [] : .headerRow }
}

extension BatchOptions {
  /// ``WorkbookOptions/sheet``.
  public var sheet: String? {
    get { formatSettings[WorkbookOptions.self].sheet }
    set { formatSettings[WorkbookOptions.self].sheet = newValue }
  }
  /// ``WorkbookOptions/headerRow``.
  public var headerRow: Int? {
    get { formatSettings[WorkbookOptions.self].headerRow }
    set { formatSettings[WorkbookOptions.self].headerRow = newValue }
  }
}
