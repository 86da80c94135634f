/// What pass 1 learned of a workbook's sheet (`.xlsx` or `.ods`) for pass 2.
struct WorkbookScanDetails: FormatScanDetails {
  /// The header's row number, and where its fields are.
  let headerRow: Int
  let mapping: FieldMapping
  /// The last column (0-based) any row of the sheet uses: the fx_* cells follow it.
  let lastColumn: Int
  /// Whether pass 1 read the sheet with ``XLSXSheetScanner`` (then pass 2 does too).
  var sheetScanned = false
}

extension FileScan {
  /// The workbook details of a workbook's scan.
  var workbook: WorkbookScanDetails {
    details as? WorkbookScanDetails
      ?? WorkbookScanDetails(
        headerRow: 1, mapping: FieldMapping(amount: 0, from: nil, to: nil, date: nil), lastColumn: 0)
  }
}
