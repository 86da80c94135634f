import Foundation

/// Where annotated output goes.
public enum OutputDestination: Sendable, Equatable {
  /// `X.csv` → `X.converted.csv` in the same directory.
  case besideInput
  /// `X.csv` → `DIR/X.converted.csv`.
  case directory(String)
  /// One input file → this file.
  case file(String)
  /// One input file → standard output (`-o -`).
  case standardOutput
}

/// Everything a conversion run needs to know, as given on the command line.
public struct BatchOptions: Sendable {
  /// Input paths; `-` is standard input.
  public var inputPaths: [String] = []
  public var destination: OutputDestination = .besideInput
  /// `--rates FILE`; `nil` for the embedded ECB history.
  public var ratesPath: String?
  public var rounding: RoundingMode = .halfUp
  /// How many days older than a record's date the rates may be (weekends, holidays). Default 5.
  public var maxStaleness = 5
  /// The day of records without a date; `nil` for the newest day of the rates.
  public var defaultDate: CalendarDay?
  /// `--format`: the format of every input; `nil` to decide per file by extension, else by content
  /// (``RecordFormat/detect(readPath:displayPath:options:)``).
  public var format: RecordFormat?
  /// The values of the options only some formats take, each declared in its format's folder (`--delimiter`,
  /// `--records-path`, `--sheet`, …; read and set through the properties those folders add, `options.delimiter`).
  var formatSettings = FormatSettings()
  /// The decimal mark of amounts; `nil` to infer it per file from the amount column.
  public var decimalMark: DecimalMark?
  /// The decimal mark of the numbers fxbatch writes (`fx_rate`, `fx_converted`); `.point` unless
  /// `--output-decimal-separator ,`.
  public var outputDecimalMark: DecimalMark = .point
  /// What currency fields and currency marks in amounts name (`--alias`, `--symbol`).
  public var currencies = CurrencyResolver()
  public var dateFormat: DateFormat = .iso
  /// `--amount-unit`: amounts in the from-currency's major units (default) or whole ISO 4217 minor units.
  public var amountUnit: AmountUnit = .major
  /// `--minor-units CODE=N`: how many decimals amounts of these from-currencies have under `--amount-unit minor`,
  /// where an API counts otherwise than ISO 4217.
  public var minorUnits: [CurrencyCode: Int] = [:]
  /// Whether `--amount-unit` and `--date-format` were given (a known document's choices yield to them,
  /// ``JSONDocumentShape``).
  public var amountUnitIsGiven = false
  public var dateFormatIsGiven = false
  /// The member every JSON record must have, with this value: a known document's record type
  /// (``JSONDocumentShape``, Stripe's `"object": "balance_transaction"`); set by the shape, not by an option.
  public var requiredMember: RequiredMember? = nil
  public var fieldNames = FieldNames()
  public var fixedFrom: CurrencyCode?
  public var fixedTo: CurrencyCode?
  /// `--undated`: records of a file without a recognised date field are converted at the default day even when
  /// a field looks like dates (without it, or `--date`, such a file is refused: ``FileError``).
  public var undated = false
  /// `--override-currency-fields`: `--from`/`--to` apply even to a file that has that currency field (without
  /// it, such a file is refused).
  public var overrideCurrencyFields = false
  /// `--rate-kind`, `--period`: the rate of a record's day (spot), or the average or closing rate of the calendar
  /// period containing it. A period rule needs a local table source (the embedded history, `--rates FILE`).
  public var rateRule: RateRule = .spot
  /// `--lock FILE`: write every rate the run used there (not with `--frozen`, which reads it).
  public var lockPath: String?
  /// How big one record may be in any format (`--max-record-size` sets ``RecordLimits/maxRecordBytes``).
  public var limits = RecordLimits.standard
  /// `--max-input-size`: the most bytes a stream (standard input, a pipe, a FIFO, a device) may have; it is
  /// copied to `$TMPDIR` to be read twice, and an endless one would fill the disk. Files are not limited.
  public var maxInputBytes = BatchOptions.standardMaxInputBytes
  /// `--first-line N`: the number of the input's first line, for a chunk cut from a bigger file (a cluster job's
  /// partition): the messages of line-based input (CSV, JSON Lines) name lines as in the whole file. Default 1.
  public var firstLine = 1
  /// The default of ``maxInputBytes``: 4 GiB.
  public static let standardMaxInputBytes = 4 << 30
  /// Called as big CSV files are read and converted (see ``BatchProgress``); `nil`: no progress reports.
  public var progress: (@Sendable (BatchProgress) -> Void)?
  /// Whether records may take the per-record fast paths (``FieldKeyDecoder``, ``TableConverter``); tests turn it
  /// off to compare their output with the general path's (the CLI: `FXBATCH_GENERAL_PATH=1`).
  ///
  /// Several amounts per record (`--amount-field A,B,C`, ``FieldNames/amounts``) take the fast paths of every
  /// format — CSV, JSON, JSON Lines, XML, `.xlsx`, `.ods` — through the engine's one per-record rule
  /// (``FastRecordConverter``), at most ``InlineList/capacity`` amounts
  /// (``FormatContext/makeTableConverter(quotes:)``).
  public var fastPath = true
  /// Counts the records the fast path converted (through ``TableConverter``), for tests that check a run took it.
  var fastPathTally: FastPathTally? = nil
  /// How many parts a big CSV file under a local table is converted in, one per thread (the cores, at most 4).
  var parallelParts = min(4, ProcessInfo.processInfo.activeProcessorCount)
  /// The smallest file converted in parts (bytes).
  var parallelMinimumSize = 8 << 20
  /// Target currencies whose reconciliation keeps exact amounts per rate (a second reading, when the streamed
  /// total cannot settle the rounding; see ``ReconciliationLedger``).
  var exactTotalCurrencies: Set<CurrencyCode> = []
  /// Today, for reporting how old the rates are.
  public var today: CalendarDay

  public init(today: CalendarDay) { self.today = today }
}
