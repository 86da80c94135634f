/// What every workbook format (`.xlsx`, `.ods`) does the same way once its sheet is read as rows of cells
/// (``SheetRow``, the one cell model both readers produce): the header is the first non-empty row, the record
/// fields are the cells under the header's names, and pass 1 collects the rate keys, the decimal mark and the order
/// of slash dates (as every format's pass 1 does: ``PassOneState``).
enum WorkbookRecords {
  /// The most cells the annotated copy of a sheet may hold: each row with a value counts its columns up to its
  /// last used one and the fx_* cells, once for each row it stands for (an `.ods` `table:number-rows-repeated`;
  /// a cell's `table:number-columns-repeated` counts its columns). Counted from the repeat attributes as pass 1
  /// reads them, before anything is expanded, so that a few kilobytes that declare a sheet of billions of cells
  /// are refused at once. 100 million: a full sheet of 1,048,576 rows has room for 88 columns of values, and an
  /// `.xlsx` that holds that many cells is gigabytes of XML.
  static let cellLimit = 100_000_000

  /// Pass 1 over a sheet's rows.
  ///
  /// - Parameters:
  ///   - file: the file.
  ///   - context: the run.
  ///   - format: the workbook's format, for the scan.
  ///   - sheetName: the converted sheet's name, for messages.
  ///   - otherSheets: the names of the workbook's other sheets, asked for only by a message that suggests one.
  ///   - nextRow: the sheet's next row (``ScannedRow``), `nil` after the last; given how many of its first
  ///     columns the scan reads (``ScanState/columnsNeeded(row:rows:)``), by its number and how many rows it
  ///     stands for.
  ///   - fields: the record fields of a row under the header's mapping.
  /// - Returns: the file's scan, with ``WorkbookScanDetails``, and its rate keys.
  /// - Throws: ``FileError`` from `nextRow`, a header without the fields, an annotated header, no header at all.
  static func scan(
    _ file: FileInput, context: FormatContext, format: RecordFormat, sheetName: String,
    otherSheets: @escaping () -> [String],
    nextRow: (_ columns: (_ row: Int, _ rows: Int) -> Int) throws(FileError) -> ScannedRow?,
    fields: @escaping (SheetRow, FieldMapping) -> RecordFields,
    cellText: @escaping (SheetCell) -> String? = { WorkbookRecords.sampleText($0) },
    finish: () throws(FileError) -> Void = {}
  ) throws(FileError) -> (FileScan, RateKeyIndex) {
    var state = ScanState(
      file, context: context, format: format, sheetName: sheetName, otherSheets: otherSheets, fields: fields,
      cellText: cellText)
    // The sheet is read to its end even when its header is refused: reading it is what checks its entry (the
    // package's other entries are checked before), and a hostile sheet is refused for that reason first.
    while let scanned = try nextRow({ state.columnsNeeded(row: $0, rows: $1) }) { state.add(scanned) }
    try finish()
    return try state.finish()
  }

  /// A used cell of a row as a spreadsheet writes it: its first column, how many columns it stands for (an `.ods`
  /// `table:number-columns-repeated`), its value.
  struct CellRun: Equatable {
    let column: Int
    let count: Int
    let value: SheetCellValue
  }

  /// A row as pass 1 is given it: its cells in the columns the scan reads, how many rows it stands for (an
  /// `.ods` repeated row; 1 for the others), its last used column and whether it is blank, of all its cells,
  /// and all its cells as runs when it has some standing for many columns (the samples are read from them).
  struct ScannedRow {
    let row: SheetRow
    var repeated = 1
    let lastColumn: Int
    let isBlank: Bool
    var runs: [CellRun]? = nil

    /// A row given whole.
    init(_ row: SheetRow) {
      self.row = row
      lastColumn = row.cells.last?.reference.column ?? 0
      isBlank = WorkbookRecords.isBlank(row)
    }

    init(row: SheetRow, repeated: Int, lastColumn: Int, isBlank: Bool, runs: [CellRun]) {
      (self.row, self.repeated, self.lastColumn, self.isBlank, self.runs) = (row, repeated, lastColumn, isBlank, runs)
    }
  }

  /// Pass 1 over a sheet's rows, a row at a time: ``scan(_:context:format:sheetName:otherSheets:nextRow:fields:cellText:finish:)``
  /// gives it every row; `.xlsx`'s sheet scanner (``XLSXSheetScanner``) gives it the rows it needs whole
  /// (``needsWholeRow``) and only the last column of the other record rows.
  struct ScanState {
    private let file: FileInput
    private let context: FormatContext
    private let format: RecordFormat
    private let sheetName: String
    private let otherSheets: () -> [String]
    private let fields: (SheetRow, FieldMapping) -> RecordFields
    private let cellText: (SheetCell) -> String?
    private(set) var header: SheetRow? = nil
    /// The last column (0-based) the rows added so far use.
    private(set) var lastColumn = 0
    private(set) var mapping = FieldMapping(amount: 0, from: nil, to: nil, date: nil)
    private var names: [String] = []
    /// The header's columns as spans of one name (``names`` in runs: where each ends, its name), for the samples
    /// of a row given as runs, and the spans whose field a sample value can still change: not seen (a blank value
    /// only makes a field seen), not full (no value changes a full one); an empty or skipped name is neither. As
    /// skip lists (``open(_:in:)``: a span done points past itself), so that a row's walk passes over the spans
    /// done at once: a cell repeated under 16,000 header names of full fields is one step, not 16,000.
    private var spanEnds: [Int] = []
    private var spanNames: [String] = []
    private var unseenSpans: [Int] = []
    private var unfullSpans: [Int] = []
    /// The decimal-mark evidence, the evidence of the order of slash dates and the keys (with those of the records
    /// only an order reads, until the sheet proves one), as every format's pass 1 collects them.
    private var passOne: PassOneState
    private let normalizer: RecordNormalizer
    /// Whether the run needs the records' keys (no converting table).
    let collectsKeys: Bool
    private var failure: FileError? = nil
    /// The cells the annotated copy writes for the rows added so far (``countCells(row:lastColumn:rows:)``).
    private(set) var cells = 0
    /// Whether the sheet is refused already (``failure`` is set; the rest of it is read, not looked at), and
    /// whether ``header`` is set: flags, which the per-row checks read instead of copying the optionals (an
    /// outlined copy of the error on every row of a million-row sheet).
    private(set) var isRefused = false
    private(set) var hasHeader = false
    // The first values of the columns the run does not read, for the checks of fields it would pass over
    // (FileError.unreadField: dates in a sheet without a date field, currency codes under --from/--to).
    private var samples = FieldSamples(skipping: [])

    init(
      _ file: FileInput, context: FormatContext, format: RecordFormat, sheetName: String,
      otherSheets: @escaping () -> [String], fields: @escaping (SheetRow, FieldMapping) -> RecordFields,
      cellText: @escaping (SheetCell) -> String?
    ) {
      self.file = file
      self.context = context
      self.format = format
      self.sheetName = sheetName
      self.otherSheets = otherSheets
      self.fields = fields
      self.cellText = cellText
      normalizer = context.recordNormalizer
      collectsKeys = !context.hasConvertingTable
      passOne = PassOneState(normalizer: normalizer, span: nil, collectsKeys: collectsKeys, decodesKeys: false)
    }

    /// Whether a text amount read so far depends on the decimal mark (the mark not given): pass 1 decides it.
    var amountsDependOnTheMark: Bool {
      passOne.inference.point + passOne.inference.comma + passOne.inference.ambiguous > 0
    }

    /// Whether the order of slash dates is left to the sheet's date column (``DateFormat/infersSlashDates``).
    var infersDates: Bool { passOne.infersDates }

    /// Whether the dates read so far prove an order of slash dates (or both): the sheet's dates are then read
    /// otherwise than under the date format given (``DateLayoutInference/decision``).
    var datesProveAnOrder: Bool { passOne.dates.decision != nil }

    /// Whether the next row must be given whole (``add(_:)``): before the header, while samples are gathered,
    /// and once the sheet is refused (then rows are only read).
    var needsWholeRow: Bool { !hasHeader || !samples.isComplete }

    /// How many of the first columns of the rows from `number` standing for `rows` rows the state reads, of a
    /// row given with its runs (``ScannedRow``): every one until the header (its names), none of rows above
    /// `--header-row`, the fields' after the header (the samples are read from the runs), none once the sheet is
    /// refused.
    func columnsNeeded(row number: Int, rows: Int) -> Int {
      if isRefused { return 0 }
      if hasHeader {
        let fields = [mapping.amount, mapping.from, mapping.to, mapping.date].compactMap { $0 } + mapping.amounts
        return (fields.max() ?? 0) + 1
      }
      if let first = context.options.headerRow, number < first, rows <= first - number { return 0 }
      return .max
    }

    /// Adds a row given whole.
    mutating func add(_ row: SheetRow) { add(ScannedRow(row)) }

    /// Adds a row, and the `repeated - 1` rows after it that hold the same cells (an `.ods` row element with
    /// `table:number-rows-repeated`): at the cost of one row, so that a repeated row costs nothing until it is
    /// records. Its records are counted as many times as they stand (the decimal mark's evidence, the cells to
    /// write, the samples until they are complete); a key collected once is collected.
    mutating func add(_ scanned: ScannedRow) {
      if isRefused { return }
      lastColumn = max(lastColumn, scanned.lastColumn)
      if scanned.isBlank { return }
      guard countCells(row: scanned.row.number, lastColumn: scanned.lastColumn, rows: scanned.repeated) else { return }
      var row = scanned.row
      var left = scanned.repeated
      // Rows above `--header-row` (a title, notes) are no header and no records.
      if !hasHeader, let first = context.options.headerRow, row.number < first {
        let above = min(left, first - row.number)
        left -= above
        guard left > 0 else { return }
        row = row.moved(down: above)
      }
      if !hasHeader {
        header = row
        hasHeader = true
        do {
          (names, mapping) = try headerMapping(
            row, displayPath: file.displayPath, sheetName: sheetName, options: context.options, otherSheets: otherSheets)
          // Without a from-currency field the amounts are sampled too: whether they name their currencies.
          let options = context.options
          let fromless = mapping.from == nil && options.fixedFrom == nil && options.fieldNames.from == nil
          samples = FieldSamples(
            skipping: Set(located(names, mapping).filter { !fromless || $0.key != .amount }.values))
        } catch {
          failure = error
          isRefused = true
          return
        }
        for (column, name) in names.enumerated() {
          if spanNames.last == name {
            spanEnds[spanEnds.count - 1] = column + 1
          } else {
            let index = spanNames.count
            let next = name.isEmpty || samples.skipped.contains(name) ? index + 1 : index
            spanEnds.append(column + 1)
            spanNames.append(name)
            unseenSpans.append(next)
            unfullSpans.append(next)
          }
        }
        unseenSpans.append(spanNames.count)
        unfullSpans.append(spanNames.count)
        left -= 1
        guard left > 0 else { return }
        row = row.moved(down: 1)
      }
      addRecords(row, count: left, runs: scanned.runs)
    }

    /// Adds `count` records that hold `row`'s cells (all of them in `runs`, when given).
    private mutating func addRecords(_ row: SheetRow, count: Int, runs: [CellRun]?) {
      if !samples.isComplete {
        var values: [(name: String, value: String?, times: Int)] = []
        var touched: [Int] = []
        if let runs {
          // A run's columns under header cells of one name are one value standing for them all, and values that
          // change nothing (a blank one of a field seen, any of a full one) are left out: a cell repeated over
          // 16,000 columns is a few values, not 16,000 (under 16,000 header names, 93 s and 68 s for 6,000 rows).
          for run in runs where run.column < names.count {
            guard let reference = CellReference(column: run.column, row: row.number) else { continue }
            let text = cellText(SheetCell(reference: reference, style: 0, value: run.value))
            let blank = text.map { $0.trimmingWhitespace.isEmpty } ?? true
            let end = min(run.column + run.count, names.count)
            // The span of the run's first column: the first that ends past it.
            var (low, high) = (0, spanEnds.count - 1)
            while low < high {
              let middle = (low + high) / 2
              if spanEnds[middle] > run.column { high = middle } else { low = middle + 1 }
            }
            var index = blank ? Self.open(low, in: &unseenSpans) : Self.open(low, in: &unfullSpans)
            while index < spanEnds.count {
              let start = index == 0 ? 0 : spanEnds[index - 1]
              guard start < end else { break }
              values.append((spanNames[index], text, min(spanEnds[index], end) - max(start, run.column)))
              touched.append(index)
              index = blank ? Self.open(index + 1, in: &unseenSpans) : Self.open(index + 1, in: &unfullSpans)
            }
          }
        } else {
          for cell in row.cells where cell.reference.column < names.count && !names[cell.reference.column].isEmpty {
            values.append((names[cell.reference.column], cellText(cell), 1))
          }
        }
        // Each record is a sample, until the samples are complete (at most FieldSamples.maximumRecords).
        var added = 0
        while added < count, !samples.isComplete {
          samples.add(counted: values)
          added += 1
        }
        for index in touched {
          unseenSpans[index] = index + 1
          if samples.isFull(spanNames[index]) { unfullSpans[index] = index + 1 }
        }
      }
      let fields = fields(row, mapping)
      if context.options.decimalMark == nil, case .text(let text) = fields.amount {
        passOne.inference.add(text, count: count)
      }
      // Several amounts: every amount column says something about the mark.
      for amount in fields.amounts.dropFirst() where context.options.decimalMark == nil {
        if case .text(let text) = amount.amount { passOne.inference.add(text, count: count) }
      }
      // Only a text date says anything of the order: a number (a serial date, read as its ISO day) says nothing.
      if passOne.infersDates, case .text(let text) = fields.date {
        passOne.dates.add(DateLayoutInference.evidence(text), count: count)
      }
      if collectsKeys {
        passOne.addKey(decoded: { _ in nil }) { normalizer in
          guard case .success(let found) = normalizer.rateKey(of: fields) else { return nil }
          return found.key
        }
      }
    }

    /// The first span from `index` on that is not done in a skip list (a span done points past itself; the last
    /// entry, past the spans, to itself), its path shortened on the way so that the spans done are passed over once.
    private static func open(_ index: Int, in skip: inout [Int]) -> Int {
      var root = index
      while skip[root] != root { root = skip[root] }
      var at = index
      while skip[at] != root {
        let next = skip[at]
        skip[at] = root
        at = next
      }
      return root
    }

    /// Counts the cells the annotated copy writes for `rows` rows with a value from row `number`, whose last used
    /// column is `lastColumn`; `false` (the sheet refused) once they pass ``WorkbookRecords/cellLimit``.
    private mutating func countCells(row number: Int, lastColumn: Int, rows: Int) -> Bool {
      let (product, overflow) = (lastColumn + 1 + context.annotationLayout.count).multipliedReportingOverflow(by: rows)
      let (sum, sumOverflow) = cells.addingReportingOverflow(product)
      cells = overflow || sumOverflow ? .max : sum
      guard cells > WorkbookRecords.cellLimit else { return true }
      failure = FileError(
        path: file.displayPath, line: number, column: 1,
        message:
          "sheet \(RowError.quoted(sheetName)), row \(number): the annotated copy would hold more than \(WorkbookRecords.cellLimit) cells (each row with a value counts its columns to its last used one and the \(context.annotationLayout.count) fx_* cells, once for each row it stands for): refused so that time and memory stay bounded"
      )
      isRefused = true
      return false
    }

    /// Adds record row `number`, which is not blank, whose amount is no text, whose key is `key` (`nil`: the run
    /// collects none) and whose date says `dateEvidence` of the order of slash dates, read without its cells: its
    /// last column is `lastColumn`.
    mutating func addRecord(row number: Int, lastColumn: Int, key: RateKey?, dateEvidence: DateLayoutInference.Evidence) {
      if isRefused { return }
      self.lastColumn = max(self.lastColumn, lastColumn)
      guard countCells(row: number, lastColumn: lastColumn, rows: 1) else { return }
      passOne.dates.add(dateEvidence)
      if collectsKeys, let key { passOne.addKey(decoded: { _ in nil }) { _ in key } }
    }

    /// The scan, once every row is added.
    ///
    /// - Throws: ``FileError`` for a header without the fields, an annotated header, no header at all, a field
    ///   the run would pass over, no room for the fx_* columns.
    func finish(sheetScanned: Bool = false) throws(FileError) -> (FileScan, RateKeyIndex) {
      let options = context.options
      if let failure { throw failure }
      guard let header else {
        throw FileError(
          path: file.displayPath,
          message: "sheet \(RowError.quoted(sheetName)) has no header row"
            + (options.headerRow.map { " (no non-empty row from row \($0), --header-row)" } ?? "")
            + WorkbookRecords.otherSheetsHint(options: options, otherSheets: otherSheets))
      }
      let found = located(names, mapping)
      let nonEmpty = names.filter { !$0.isEmpty }
      let samples = self.samples
      if let error = FileError.unreadField(
        names: nonEmpty, located: found, options: options, path: file.displayPath, line: header.number, column: 1,
        nameKind: "header cells", samples: { _ in samples })
      {
        throw error
      }
      // The fx_* columns go after the last used column: a sheet using the last columns has no room for them.
      let columns = lastColumn + 1 + context.annotationLayout.count
      guard columns <= CellReference.columnCount else {
        throw FileError(
          path: file.displayPath,
          message:
            "sheet \(RowError.quoted(sheetName)) uses its columns to the last but \(CellReference.columnCount - lastColumn - 1): no room for the \(context.annotationLayout.count) fx_* columns"
        )
      }
      let (decimalMark, basis) =
        options.decimalMark.map { ($0, nil) } ?? passOne.inference.decide(delimiter: UInt8(ascii: ","))
      // The order of slash dates the date column proves; the keys of the records only it reads join the others.
      var passOne = self.passOne
      let dateFormat = passOne.settleDates()
      let scan = FileScan(
        displayPath: file.displayPath, readPath: file.readPath, outputPath: file.outputPath, format: format,
        decimalMark: decimalMark, decimalMarkInferred: options.decimalMark == nil, decimalMarkBasis: basis,
        normalizer: normalizer.reading(dates: dateFormat),
        fields: Dictionary(uniqueKeysWithValues: found.map { ($0.key.rawValue, $0.value) }),
        details: WorkbookScanDetails(
          headerRow: header.number, mapping: mapping, lastColumn: lastColumn, sheetScanned: sheetScanned))
      return (scan, passOne.keys ?? RateKeyIndex())
    }
  }

  /// Role → the header name the run reads it from.
  static func located(_ names: [String], _ mapping: FieldMapping) -> [FieldMapping.Role: String] {
    let roles: [(FieldMapping.Role, Int?)] = [
      (.amount, mapping.amount), (.from, mapping.from), (.to, mapping.to), (.date, mapping.date),
    ]
    return Dictionary(uniqueKeysWithValues: roles.compactMap { role, index in index.map { (role, names[$0]) } })
  }

  /// A cell's text as evidence for ``FieldSamples``: text, a number or a typed date as written; `nil` for the rest.
  static func sampleText(_ cell: SheetCell) -> String? {
    switch cell.value {
    case .text(let text), .number(let text): return text
    case .date(let text): return typedDay(text)
    case .boolean, .error, .formulaWithoutValue, .empty: return nil
    }
  }

  /// The header's names by column (gaps as "") and where the fields are; refuses a sheet already annotated.
  static func headerMapping(
    _ row: SheetRow, displayPath: String, sheetName: String, options: BatchOptions, otherSheets: () -> [String]
  ) throws(FileError) -> ([String], FieldMapping) {
    var names = [String](repeating: "", count: (row.cells.last?.reference.column ?? 0) + 1)
    for cell in row.cells { names[cell.reference.column] = headerName(cell) }
    let trimmed = Array(names.reversed().drop { $0.isEmpty }.reversed())
    if AnnotationColumn.endAnnotated(trimmed) {
      throw FileError.alreadyAnnotated(
        path: displayPath, line: row.number, column: 1, evidence: "its header row has the fx_* cells")
    }
    do {
      let mapping = try FieldMapping.resolve(
        header: names, names: options.fieldNames, fixedFrom: options.fixedFrom != nil, fixedTo: options.fixedTo != nil)
      return (names, mapping)
    } catch {
      // A header without a field may be a cover sheet's first row: the records may be on another sheet.
      var hint = ""
      switch error {
      case .roleMissing, .namedFieldMissing:
        // Or its one cell a title above the header.
        if options.headerRow == nil, names.filter({ !$0.isEmpty }).count == 1 {
          hint = "; if row \(row.number) is a title above the header, give the header's row with --header-row N"
        }
        hint += otherSheetsHint(options: options, otherSheets: otherSheets)
      case .ambiguousField: break
      }
      throw FileError(
        path: displayPath, line: row.number, column: 1,
        message: "sheet \(RowError.quoted(sheetName)), row \(row.number): \(error.description)\(hint)")
    }
  }

  /// For a sheet without the record fields, chosen by default (no `--sheet`), in a workbook of more sheets:
  /// where the records may be instead (``FieldMappingError``'s message goes before it).
  static func otherSheetsHint(options: BatchOptions, otherSheets: () -> [String]) -> String {
    guard options.sheet == nil else { return "" }
    let others = otherSheets()
    guard !others.isEmpty else { return "" }
    return "; if the records are on another sheet, choose it with --sheet NAME (the workbook's other sheets: \(sheetList(others)))"
  }

  /// Sheet names for a message: the first 12, quoted, and how many there are past them (a workbook may declare
  /// a hundred thousand).
  static func sheetList(_ names: [String]) -> String {
    let listed = names.prefix(12).map(RowError.quoted).joined(separator: ", ")
    return listed + (names.count > 12 ? ", … (\(names.count) sheets)" : "")
  }

  /// Whether the first non-blank row of a sheet ends with the fx_* names (an earlier fxbatch output).
  static func isAnnotated(nextRow: () throws -> SheetRow?) -> Bool {
    while let row = try? nextRow() {
      if isBlank(row) { continue }
      return AnnotationColumn.endAnnotated(row.cells.map(headerName))
    }
    return false
  }

  /// The header's text of a cell: its text, number or date as written; "" for anything else.
  static func headerName(_ cell: SheetCell) -> String {
    switch cell.value {
    case .text(let text): return text.trimmingWhitespace
    case .number(let text), .date(let text): return text
    case .boolean, .error, .formulaWithoutValue, .empty: return ""
    }
  }

  /// Whether a row has no value at all (only styled cells, or text of whitespace): it is not a record.
  static func isBlank(_ row: SheetRow) -> Bool { row.cells.allSatisfy { isBlank($0.value) } }

  /// Whether a cell's value is none (an empty cell, text of whitespace).
  static func isBlank(_ value: SheetCellValue) -> Bool {
    switch value {
    case .empty: return true
    case .text(let text): return text.trimmingWhitespace.isEmpty
    default: return false
    }
  }

  /// The day of a typed date cell (`.xlsx` `t="d"`, `.ods` `office:date-value`): ISO 8601 `YYYY-MM-DD`, or a
  /// date and time `YYYY-MM-DDTHH:MM[:SS[.fff]]` with an optional `Z` or `±HH:MM` zone, whose day is its first
  /// ten characters; any other text is left whole, for the usual date rules to read or refuse.
  static func typedDay(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.count > 10, bytes[10] == UInt8(ascii: "T") else { return text }
    func digits(_ range: Range<Int>) -> Bool {
      range.upperBound <= bytes.count && bytes[range].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
    func byte(_ index: Int, _ character: Unicode.Scalar) -> Bool {
      index < bytes.count && bytes[index] == UInt8(ascii: character)
    }
    func number(_ start: Int) -> Int { Int(bytes[start] - UInt8(ascii: "0")) * 10 + Int(bytes[start + 1] - UInt8(ascii: "0")) }
    // THH:MM, a time of the day
    guard digits(11..<13), byte(13, ":"), digits(14..<16), number(11) <= 23, number(14) <= 59 else { return text }
    var index = 16
    if byte(index, ":") {
      guard digits((index + 1)..<(index + 3)), number(index + 1) <= 59 else { return text }
      index += 3
      if byte(index, ".") {
        index += 1
        let start = index
        while digits(index..<(index + 1)) { index += 1 }
        guard index > start else { return text }
      }
    }
    if byte(index, "Z") {
      index += 1
    } else if byte(index, "+") || byte(index, "-") {
      guard digits((index + 1)..<(index + 3)), byte(index + 3, ":"), digits((index + 4)..<(index + 6)) else { return text }
      index += 6
    }
    return index == bytes.count ? String(text.prefix(10)) : text
  }

  /// The fields of a record row: each role's cell by the header's column.
  ///
  /// Numbers are the shortest decimal text of their double (``ExactDecimal/spreadsheetNumberText(_:)``, read
  /// exactly, never computed with `Double`); text goes through the usual rules; a date cell is its day. Error
  /// cells, booleans and formulas without a cached value are values the field cannot hold, named with their cell.
  ///
  /// - Parameters:
  ///   - dateField: what a number in the date field is (an `.xlsx` date is a number in a date style).
  ///   - cellName: how a message names a cell (`cell B5`; the cells of an `.ods` repeated row are named as one
  ///     range, so that its records read the same and convert once).
  static func fields(
    of row: SheetRow, mapping: FieldMapping,
    dateField: (_ cell: SheetCell, _ number: String) -> RecordFields.Value = { .number($1) },
    cellName: (SheetCell) -> String = { "cell \($0.reference)" }
  ) -> RecordFields {
    func value(_ column: Int?, isDate: Bool) -> RecordFields.Value {
      guard let column else { return .absent }
      guard let cell = row.cells.first(where: { $0.reference.column == column }) else { return .text("") }
      // Named only in the messages of values a field cannot hold (writing it for every cell costs).
      var reference: String { cellName(cell) }
      switch cell.value {
      case .text(let text): return .text(text)
      case .empty: return .text("")
      case .number(let text):
        // The double's shortest decimal (openpyxl's `878361.5699999999` is 878361.57), as the fast path reads it.
        let number = ExactDecimal.spreadsheetNumberText(text)
        return isDate ? dateField(cell, number) : .number(number)
      case .date(let text): return .text(typedDay(text))
      case .boolean(let flag): return .other("the boolean \(flag ? "TRUE" : "FALSE") of \(reference)")
      case .error(let code): return .other("the error \(RowError.quoted(code)) of \(reference)")
      case .formulaWithoutValue(let formula):
        return .other(
          "the formula \(RowError.quoted("=" + formula)) of \(reference) without a computed value (save the workbook in a spreadsheet program)"
        )
      }
    }
    var fields = RecordFields(
      amount: value(mapping.amount, isDate: false), from: value(mapping.from, isDate: false),
      to: value(mapping.to, isDate: false), date: value(mapping.date, isDate: true))
    if !mapping.amounts.isEmpty {
      fields.amounts = mapping.amounts.map {
        RecordFields(amount: value($0, isDate: false), from: .absent, to: .absent, date: .absent)
      }
    }
    // The first cell (cells are in column order) holding text that is not blank, a number or a date
    // (``RecordFields/label``).
    for cell in row.cells {
      switch cell.value {
      case .text(let text) where !text.trimmingWhitespace.isEmpty: fields.label = text
      case .number(let text): fields.label = ExactDecimal.spreadsheetNumberText(text)
      case .date(let text): fields.label = typedDay(text)
      default: continue
      }
      break
    }
    return fields
  }
}

extension SheetRow {
  /// The row `offset` rows below, holding the same cells (a row of an `.ods` repeated row element).
  func moved(down offset: Int) -> SheetRow {
    guard offset > 0 else { return self }
    return SheetRow(
      number: number + offset,
      cells: cells.compactMap { cell in
        CellReference(column: cell.reference.column, row: number + offset).map {
          SheetCell(reference: $0, style: cell.style, value: cell.value)
        }
      })
  }
}
