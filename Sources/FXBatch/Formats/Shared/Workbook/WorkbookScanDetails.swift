/// What pass 1 learned of a workbook's sheet (`.xlsx` or `.ods`) for pass 2.
struct WorkbookScanDetails: FormatScanDetails {
  /// The header's row number, and where its fields are.
  let headerRow: Int
  let mapping: FieldMapping
  /// The last column (0-based) any row of the sheet uses: the fx_* cells follow it.
  let lastColumn: Int
  /// Whether pass 1 read the sheet with ``XLSXSheetScanner`` (then pass 2 does too).
  var sheetScanned = false
  /// Whether pass 1 left the sheet unread (`.xlsx` under a local table: ``XLSXFormat/convertInOnePass(_:context:quotes:)``
  /// reads it and writes its annotated copy at once); the other fields then say nothing yet.
  var isProvisional = false
  /// Whether the sheet was read once, its annotated copy written as it was read (the one-pass road held).
  var readInOnePass = false
}

extension FileScan {
  /// The workbook details of a workbook's scan.
  var workbook: WorkbookScanDetails {
    details as? WorkbookScanDetails
      ?? WorkbookScanDetails(
        headerRow: 1, mapping: FieldMapping(amount: 0, from: nil, to: nil, date: nil), lastColumn: 0)
  }
}
