/// One input of pass 1: the name the user gave, the file to read (standard input's spooled copy for `-`), and
/// where its annotated copy goes (`nil`: standard output).
struct FileInput {
  let displayPath: String
  let readPath: String
  let outputPath: String?
  /// Whether the input is a stream read once, in one pass (``BatchJob/onePassFormat(of:)``): pass 1 reads only
  /// what comes before the records and leaves the reader to pass 2.
  var readOnce = false
}

/// What pass 1 learned about one file.
struct FileScan {
  let displayPath: String
  let readPath: String
  var outputPath: String?  // nil: standard output
  let format: RecordFormat
  /// `nil` when nothing settles it (``DecimalMarkInference/decide(delimiter:)``).
  let decimalMark: DecimalMark?
  let decimalMarkInferred: Bool
  let decimalMarkBasis: DecimalMarkInference.Basis?
  let normalizer: RecordNormalizer
  /// Role (`amount`, `from`, `to`, `date`) → the header name that plays it.
  let fields: [String: String]
  /// CSV, JSON Lines and XML: where the parts of a big file start (see
  /// ``CSVFormat/convertCSV(_:context:quotes:standardOutput:)``); empty: one part.
  var partStarts: [PartStart] = []
  /// CSV, JSON Lines and XML: the file's size when pass 1 read it.
  var size = 0
  /// What only the file's format reads in pass 2 (CSV's delimiter, XML's record element, …), declared in its
  /// folder; `nil` for a format that needs nothing more.
  var details: (any FormatScanDetails)? = nil
  /// A known JSON document's description for the summary and its records path (``JSONDocumentShape``).
  var document: (description: String, recordsPath: [String])? = nil
  /// CSV: the encoding of the file the user gave (``readPath`` is its UTF-8 copy when it is not UTF-8, and pass 2
  /// writes the annotated copy back in this encoding); `nil` for the other formats.
  var encoding: TextEncoding? = nil
  /// Whether ``readPath`` is a temporary copy the run made (standard input spooled, a file converted to UTF-8),
  /// removed at the end of the run.
  var readPathIsTemporary = false

  /// Where a part starts (the engine's, ``RecordScan/PartStart``).
  typealias PartStart = RecordScan.PartStart
}

extension FileScan {
  /// Whether pass 2 may read the file again (not a stream pass 1 left open: ``FormatScanDetails/holdsReader``).
  var canBeReadAgain: Bool { !(details?.holdsReader ?? false) }

  /// The file's amount parser: its decimal mark, and whether its amounts decided it (a cell that reads only
  /// with the other mark is then `ambiguous_amount`, ``AmountParser/decidedByAmounts``).
  func amountParser(currencies: CurrencyResolver) -> AmountParser {
    AmountParser(decimalMark: decimalMark, decidedByAmounts: decimalMarkBasis == .amounts, currencies: currencies)
  }
}

/// What pass 2 did with one file.
struct FileConversion {
  let counts: RunReport.Counts
  /// Records that used the default day.
  let withoutDate: Int
  /// The converted amounts, for the rounding reconciliation.
  let ledger: ReconciliationLedger
  /// The file's scan after the pass (a provisional CSV scan is replaced).
  let scan: FileScan
}
