import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// One differential test over every registered format and every rate source that answers keys: the fast path
/// (``BatchOptions/fastPath``, on by default, in one part and in parts) must write byte for byte what the general
/// path writes, with the same counts, reconciliation and file error, for seeded random records holding every
/// kind of error. Each format of ``FormatRegistry`` writes the records its own way (``writers``); a format added
/// to the registry without a writer here fails ``everyRegisteredFormatHasAWriter()``, and a source added to
/// ``RateSourceRegistry`` without a setup here fails ``everyRegisteredSourceIsCovered()``. Each format's own
/// inputs (documents its fast path must decline, part boundaries, mutated bytes, its options) are cases in
/// `FastGeneralDifferentialTests+<Format>Cases.swift`, run by the same ``check(_:format:source:_:parts:configure:)``.
@Suite("Fast path = general path: every format, every source", .tags(.sanitized))
struct FastGeneralDifferentialTests {
  // MARK: Records

  /// One record before it is written: each field's text, `nil` where the record lacks the field.
  struct Record: Sendable {
    var id: Int
    var amount: String?
    var from: String?
    var to: String?
    var date: String?
    /// Written the odd way its format allows: quoted, escaped, spaced, as an attribute or a text cell.
    var odd: Bool
    /// With several amounts (`--amount-field amount,fee,net`): the `fee` and `net` fields; empty otherwise.
    var more: [String?] = []
  }

  /// The names of the amounts after `amount` in a file of several amounts.
  static let moreAmountNames = ["fee", "net"]

  /// Gives records a `fee` and a `net` amount: mostly plain (in the records' own way of writing amounts), now
  /// and then empty, missing or not a number, so that a record's later amount alone sends it to the general path.
  static func addMoreAmounts(to records: inout [Record], seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
    for index in records.indices {
      records[index].more = moreAmountNames.map { _ -> String? in
        switch next(30) {
        case 0: return nil
        case 1: return ""
        case 2: return amounts[next(amounts.count)]
        default:
          guard let amount = records[index].amount, next(4) != 0 else { return String(next(100_000)) }
          // The record's own amount, its digits shifted: written the same way (a point, a comma, an integer).
          return String(amount.reversed().drop { !$0.isNumber }.reversed())
        }
      }
    }
  }

  /// How a file's dates and amounts are written.
  enum Values: Sendable {
    /// ISO dates, decimal amounts in major units.
    case iso
    /// Unix times (seconds, or milliseconds), integer amounts in minor units.
    case unix(milliseconds: Bool)
  }

  static let currencies = [
    "USD", "JPY", "GBP", "CHF", "EUR", "KRW", "IDR", "HUF", "BGN", "HRK", "DEM", "TRL", "usd", " GBP", "XXX", "",
    "RUB", "ISK", "€", "KWD", "SEK",
  ]
  /// Days on which the table has rates, weekends and holidays (fallbacks, stale under `--max-staleness 0`), days
  /// before the table and after it, days in unfinished periods, impossible days, other layouts, blanks.
  static let dates = [
    "2024-01-05", "2024-01-06", "2024-12-25", "2025-12-31", "2026-01-02", "1998-12-31", "1999-01-04", "2001-06-01",
    "2030-01-01", "", "2024-02-30", "05/01/2024", "2026-10-30", "2026-11-20", "2008-12-15", "2024-03-15",
    " 2024-01-05",
  ]
  /// Plain amounts, grouped, signed, in parentheses, too long, too precise, not numbers, blank.
  static let amounts = [
    "12.50", "7", "-3.25", "0.005", "0.015", "1,234.50", "(5.00)", "12.50-", "abc", "", "100000000000000000000.5",
    "+4.2", "0", "-0.00", "123456789012345678.9", "1.234", " 9.99", "0.1234567", "999999999999999999", "1000000",
    "42.125", "3.14", "250",
  ]
  /// Midnights UTC of days in the history, for unix times around them.
  static let midnights: [Int64] = [1_706_745_600, 1_577_836_800, 1_262_304_000, 1_704_067_200, 1_262_217_600]

  /// `count` seeded records: mostly plain ones the fast path converts, with every error kind mixed in.
  static func records(count: Int, seed: UInt64, values: Values = .iso) -> [Record] {
    var generator = SplitMix64(seed: seed)
    func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
    return (0..<count).map { index in
      var record = Record(id: index, odd: next(6) == 0)
      let plain = next(3) != 0
      switch values {
      case .iso:
        if plain {
          // Now and then a half of a cent: a tie for the rounding modes when the currency is converted to itself.
          record.amount = next(5) == 0 ? "\(next(1000)).\(next(100))5" : "\(next(100_000)).\(next(100))"
        } else {
          record.amount = amounts[next(amounts.count)]
        }
        record.date = plain ? ["2024-01-05", "2024-03-15", "2019-07-01", "2024-01-06"][next(4)] : dates[next(dates.count)]
      case .unix(let milliseconds):
        switch next(10) {
        case 0: record.amount = "\(next(100_000)).\(1 + next(99))"  // a fraction of a minor unit
        case 1: record.amount = "\(next(100_000)).00"
        default: record.amount = String(next(10_000_000) - 50_000)
        }
        let midnight = midnights[next(midnights.count)]
        let seconds: Int64
        switch next(4) {
        case 0: seconds = midnight
        case 1: seconds = midnight - 1
        case 2: seconds = midnight + Int64(next(86_400))
        default: seconds = midnight - Int64(next(400_000))
        }
        var date = milliseconds ? String(seconds * 1000 + Int64(next(1000))) : String(seconds)
        switch next(40) {
        case 0: date = ""
        case 1: date += ".5"
        case 2: date = "-1"
        case 3: date += ".000"
        default: break
        }
        record.date = date
      }
      record.from = plain ? ["USD", "GBP", "JPY", "CHF", "KWD", "EUR"][next(6)] : currencies[next(currencies.count)]
      switch next(8) {
      case 0, 1: record.to = currencies[next(currencies.count)]
      case 2: record.to = record.from
      default: record.to = ["EUR", "USD", "JPY", "GBP"][next(4)]
      }
      // A missing field now and then.
      switch next(60) {
      case 0: record.amount = nil
      case 1: record.from = nil
      case 2: record.to = nil
      case 3: record.date = nil
      default: break
      }
      return record
    }
  }

  /// Amounts that name their currency, as pasted from bank statements (fxbatch issue 32), and some that name
  /// none, a shared symbol, another mark or a contradicting currency in a record of several amounts.
  static let currencyAmounts = [
    "USD 1,234.56", "1.234,56 EUR", "-JPY 49,488,402", "JPY -49,488,402", "€12.50", "£7.00", "$5.00", "¥100", "kr 50",
    "12.50", "RMB 5", "XXX 1", "GBP(5.00)", "5 EUR-", "US$ 3", "zł12", "1,234.56CHF", "€ 12.50", "EUR", "",
  ]

  /// Records whose amounts carry their currency and that have no from-currency field: the record's own plain
  /// amount written with its currency (before or after, a symbol), else one of ``currencyAmounts``.
  static func currencyInAmount(_ records: inout [Record], seed: UInt64) {
    var generator = SplitMix64(seed: seed)
    func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
    for index in records.indices {
      let amount = records[index].amount ?? ""
      let from = (records[index].from ?? "").trimmingCharacters(in: .whitespaces)
      switch next(6) {
      case 0: records[index].amount = "\(from) \(amount)"
      case 1: records[index].amount = "\(amount) \(from)"
      case 2: records[index].amount = from == "EUR" ? "€\(amount)" : from == "GBP" ? "£\(amount)" : "\(from)\(amount)"
      case 3: records[index].amount = currencyAmounts[next(currencyAmounts.count)]
      default: break  // kept with its from-currency, as its own "USD 12.50"
      }
      if next(6) == 5 { records[index].amount = "\(from) \(amount)" }
      records[index].from = nil
    }
  }

  // MARK: Writers

  /// The field names a file's records use; `nested`: the paths of a document shaped as a payment API's or a bank
  /// statement's (formats without paths: other column names), given to the run as ``BatchOptions/fieldNames``.
  struct Layout: Sendable {
    var nested: Bool
    /// Whether records have a `fee` and a `net` amount besides `amount` (``Record/more``).
    var severalAmounts = false
    /// Whether the file has no from-currency field, its amounts naming their currency (``currencyInAmount(_:seed:)``).
    var currencyInAmount = false
  }

  /// Writes records as a file of one format in a directory, and returns its path.
  typealias Writer = @Sendable ([Record], Layout, TemporaryDirectory) throws -> String

  /// Every format's writer. A format of ``FormatRegistry`` must have one.
  static let writers: [RecordFormat: Writer] = [
    .csv: csv, .jsonl: jsonLines, .json: jsonDocument, .xml: xml, .xlsx: xlsx, .ods: ods,
  ]

  /// The field options a layout needs.
  static func fieldNames(_ format: RecordFormat, _ layout: Layout) -> FieldNames {
    guard layout.nested else { return FieldNames() }
    switch format {
    case .json, .jsonl: return FieldNames(amount: "money.value", from: "money.currency", to: "to", date: "meta.day")
    case .xml: return FieldNames(amount: "Amt", from: "Amt/@Ccy", to: "to", date: "BookgDt/Dt")
    default: return FieldNames(amount: "Gross", from: "Currency", to: "Target", date: "Booked")
    }
  }

  static func csvField(_ value: String, quoted: Bool) -> String {
    quoted || value.contains(",") || value.contains("\"")
      ? "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : value
  }

  /// CSV: CRLF and LF line ends, quoted fields, blank lines; a missing field is a short record; some long ones.
  static func csv(_ records: [Record], _ layout: Layout, _ directory: TemporaryDirectory) throws -> String {
    var text =
      layout.nested
      ? "id,Booked,Gross,Currency,Target" : layout.currencyInAmount ? "id,date,amount,to" : "id,date,amount,from,to"
    text += (layout.severalAmounts ? "," + moreAmountNames.joined(separator: ",") : "") + "\r\n"
    for record in records {
      let fields = ([record.date, record.amount, record.from, record.to] + record.more).compactMap { $0 }
      text += "\(record.id)," + fields.map { csvField($0, quoted: record.odd) }.joined(separator: ",")
      if record.id % 71 == 0 { text += ",extra" }  // a long record
      text += record.id % 3 == 0 ? "\n" : "\r\n"
      if record.id % 97 == 0 { text += "\r\n" }
    }
    return try directory.write(text, named: "in.csv")
  }

  static func jsonString(_ value: String, escaped: Bool) -> String {
    var out = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "U" where escaped: out += "\\u0055"
      case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// Whether a text is a JSON number as written.
  static func isJSONNumber(_ text: String) -> Bool {
    text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?$"#, options: .regularExpression) != nil
  }

  /// One record as a JSON object: amounts as numbers where they are ones, odd records spaced as Python writes
  /// them with escapes in their strings, nested records with a money object and a `meta` object.
  static func jsonObject(_ record: Record, _ layout: Layout) -> String {
    let (colon, comma) = record.odd ? (": ", ", ") : (":", ",")
    func string(_ value: String) -> String { jsonString(value, escaped: record.odd) }
    func amount(_ value: String) -> String { isJSONNumber(value) && record.id % 4 != 0 ? value : string(value) }
    var members = ["\"id\"\(colon)\(record.id)"]
    if layout.nested {
      var money: [String] = []
      if let value = record.amount { money.append("\"value\"\(colon)\(amount(value))") }
      if let value = record.from { money.append("\"currency\"\(colon)\(string(value))") }
      members.append("\"money\"\(colon){\(money.joined(separator: comma))}")
      if let value = record.to { members.append("\"to\"\(colon)\(string(value))") }
      if let value = record.date { members.append("\"meta\"\(colon){\"source\"\(colon)\"api\"\(comma)\"day\"\(colon)\(string(value))}") }
    } else {
      if let value = record.date { members.append("\"date\"\(colon)\(isJSONNumber(value) && record.id % 3 != 0 ? value : string(value))") }
      if let value = record.amount { members.append("\"amount\"\(colon)\(amount(value))") }
      for (name, more) in zip(moreAmountNames, record.more) {
        if let value = more { members.append("\"\(name)\"\(colon)\(amount(value))") }
      }
      if let value = record.from { members.append("\"from\"\(colon)\(string(value))") }
      if let value = record.to { members.append("\"to\"\(colon)\(string(value))") }
      if record.id % 11 == 0 { members.append("\"note\"\(colon){\"tags\"\(colon)[1,\"]\",{\"x\"\(colon)null}]}") }
    }
    return "{" + members.joined(separator: comma) + "}"
  }

  /// JSON Lines: LF and CRLF, a blank line now and then, no line end after the last.
  static func jsonLines(_ records: [Record], _ layout: Layout, _ directory: TemporaryDirectory) throws -> String {
    var text = ""
    for record in records {
      text += jsonObject(record, layout) + (record.id % 5 == 0 ? "\r\n" : "\n")
      if record.id % 89 == 0 { text += "\n" }
    }
    return try directory.write(String(text.dropLast()), named: "in.jsonl")
  }

  /// A JSON document: the records in a top-level array, or under `data` (nested), one per line or pretty.
  static func jsonDocument(_ records: [Record], _ layout: Layout, _ directory: TemporaryDirectory) throws -> String {
    let body = records.map { jsonObject($0, layout) }.joined(separator: records.count % 2 == 0 ? ",\n  " : ",")
    let text = layout.nested ? "{\"object\": \"list\", \"data\": [\n  \(body)\n], \"has_more\": false}\n" : "[\n  \(body)\n]\n"
    return try directory.write(text, named: "in.json")
  }

  static func xmlEscaped(_ value: String) -> String {
    value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// XML: fields as child elements, odd records with the from-currency as an attribute and spaced children, a
  /// comment between records; nested records shaped as ISO 20022 entries (`<Amt Ccy="…">`, `BookgDt/Dt`).
  static func xml(_ records: [Record], _ layout: Layout, _ directory: TemporaryDirectory) throws -> String {
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<payments>\n"
    for record in records {
      let space = record.odd ? "\n    " : ""
      var attributes = " id=\"\(record.id)\""
      var children: [String] = []
      if layout.nested {
        if record.amount != nil || record.from != nil {
          let currency = record.from.map { " Ccy=\"\(xmlEscaped($0))\"" } ?? ""
          children.append("<Amt\(currency)>\(xmlEscaped(record.amount ?? ""))</Amt>")
        }
        if let value = record.to { children.append("<to>\(xmlEscaped(value))</to>") }
        if let value = record.date { children.append("<BookgDt><Dt>\(xmlEscaped(value))</Dt></BookgDt>") }
        children.append("<NtryDtls><Amt Ccy=\"XXX\">1</Amt></NtryDtls>")
      } else {
        if let value = record.date { children.append("<date>\(xmlEscaped(value))</date>") }
        if let value = record.amount { children.append("<amount>\(xmlEscaped(value))</amount>") }
        for (name, more) in zip(moreAmountNames, record.more) {
          if let value = more { children.append("<\(name)>\(xmlEscaped(value))</\(name)>") }
        }
        if let value = record.from {
          if record.odd { attributes += " from=\"\(xmlEscaped(value))\"" } else { children.append("<from>\(xmlEscaped(value))</from>") }
        }
        if let value = record.to { children.append("<to>\(xmlEscaped(value))</to>") }
      }
      text += "  <payment\(attributes)>\(space)\(children.joined(separator: space))\(record.odd ? "\n  " : "")</payment>\n"
      if record.id % 53 == 0 { text += "  <!-- <payment><amount>1</amount></payment> -->\n" }
    }
    return try directory.write(text + "</payments>\n", named: "in.xml")
  }

  /// A spreadsheet cell's value: a number where the text is a plain one (not for odd records), a date (a serial,
  /// or an ODF date) for odd records' ISO dates, text otherwise.
  enum Cell {
    case text(String)
    case number(String)
    /// A number in the date style (a unix format reads it as the number).
    case styledNumber(String)
    case date(CalendarDay)
    case none
  }

  static func cells(_ record: Record, _ layout: Layout) -> [Cell] {
    func cell(_ value: String?, numeric: Bool) -> Cell {
      guard let value else { return .none }
      if numeric && !record.odd && isJSONNumber(value) { return .number(value) }
      return .text(value)
    }
    var date = cell(record.date, numeric: true)
    if record.odd, let text = record.date, text.count == 10, let day = CalendarDay(iso8601: text) { date = .date(day) }
    if case .number(let value) = date, record.id % 5 == 0, !value.contains("-") { date = .styledNumber(value) }
    let from = layout.currencyInAmount ? [] : [cell(record.from, numeric: false)]
    return [.number(String(record.id)), date, cell(record.amount, numeric: true)] + from
      + [cell(record.to, numeric: false)] + record.more.map { cell($0, numeric: true) }
  }

  static func header(_ layout: Layout) -> [String] {
    (layout.nested
      ? ["id", "Booked", "Gross", "Currency", "Target"]
      : layout.currencyInAmount ? ["id", "date", "amount", "to"] : ["id", "date", "amount", "from", "to"])
      + (layout.severalAmounts ? moreAmountNames : [])
  }

  /// An `.xlsx` sheet: inline strings, number cells, dates as serials in the fixture's date style.
  static func xlsx(_ records: [Record], _ layout: Layout, _ directory: TemporaryDirectory) throws -> String {
    let columns = ["A", "B", "C", "D", "E", "F", "G"]
    var rows = [
      "<row r=\"1\">"
        + zip(columns, header(layout)).map { XLSXOnePassTests.text("\($0)1", $1) }.joined() + "</row>"
    ]
    for (index, record) in records.enumerated() {
      let row = index + 2
      var cells = ""
      for (column, cell) in zip(columns, Self.cells(record, layout)) {
        switch cell {
        case .text(let value): cells += XLSXOnePassTests.text("\(column)\(row)", xmlEscaped(value))
        case .number(let value): cells += XLSXOnePassTests.number("\(column)\(row)", value)
        case .styledNumber(let value): cells += XLSXOnePassTests.number("\(column)\(row)", value, style: 1)
        case .date(let day): cells += XLSXOnePassTests.number("\(column)\(row)", String(day.daysSinceEpoch + 25_569), style: 1)
        case .none: break
        }
      }
      rows.append("<row r=\"\(row)\">\(cells)</row>")
    }
    return try XLSXOnePassTests.workbook(XLSXOnePassTests.sheet(rows), in: directory, "in")
  }

  /// An `.ods` spreadsheet: string, float and date cells as LibreOffice writes them.
  static func ods(_ records: [Record], _ layout: Layout, _ directory: TemporaryDirectory) throws -> String {
    func row(_ cells: [Cell]) -> String {
      "<table:table-row>"
        + cells.map { cell in
          switch cell {
          case .text(let value): return EndToEndODSTests.text(xmlEscaped(value))
          case .number(let value), .styledNumber(let value):
            return "<table:table-cell office:value-type=\"float\" office:value=\"\(value)\"><text:p>\(value)</text:p></table:table-cell>"
          case .date(let day):
            return "<table:table-cell office:value-type=\"date\" office:date-value=\"\(day)\"><text:p>\(day)</text:p></table:table-cell>"
          case .none: return "<table:table-cell/>"
          }
        }.joined() + "</table:table-row>"
    }
    let rows = row(header(layout).map { .text($0) }) + records.map { row(cells($0, layout)) }.joined()
    try EndToEndODSTests.spreadsheet(
      content: EndToEndODSTests.content(rows: rows, columns: "<table:table-column table:number-columns-repeated=\"\(header(layout).count)\"/>"),
      named: "in.ods", in: directory)
    return directory.path + "/in.ods"
  }

  // MARK: Runs

  /// What a run wrote and reported.
  struct Run: Equatable {
    /// The output file's bytes; a package's entries, each name and its bytes.
    let output: [[UInt8]]
    let totals: RunReport.Counts
    let reconciliation: [Reconciliation]
    let withoutDate: Int
    let fileError: String?
    /// The file's report (its output path left out).
    let file: RunReport.File?
    /// The run's whole report (the output paths left out).
    let report: RunReport
    /// The records the fast path converted (``FastPathTally``): none on the general path. Not compared: it says
    /// which path wrote the records, not what they are.
    var fastRecords = 0
  }

  /// Converts `input` (of `format`) on `source`, on the fast path in `parts` parts or on the general path.
  static func run(
    _ input: String, format: RecordFormat, source: RateSourceChoice, fastPath: Bool, parts: Int = 1,
    configure: (inout BatchOptions) -> Void
  ) throws -> Run {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out.\(format.rawValue)").path
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [input]
    options.destination = .file(output)
    options.fastPath = fastPath
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    configure(&options)
    let tally = FastPathTally()
    options.fastPathTally = tally
    let report = BatchJob(options: options, source: source).run()
    var bytes: [[UInt8]] = []
    if FileManager.default.fileExists(atPath: output) {
      if format.kind == .package {
        let package = try ZipPackage(path: output)
        for entry in package.entries { bytes += [Array(entry.name.utf8), try package.contents(of: entry)] }
      } else {
        bytes = [[UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))]
      }
    }
    var whole = report
    for index in whole.files.indices { whole.files[index].output = nil }
    return Run(
      output: bytes, totals: report.totals, reconciliation: report.reconciliation,
      withoutDate: report.rates.recordsWithoutDate, fileError: report.files.first?.fileError.map { "\($0)" },
      file: whole.files.first, report: whole, fastRecords: tally.records)
  }

  /// Runs the general path, then the fast path in each of `parts` parts (one and three unless a format's case
  /// says), and records every difference.
  ///
  /// - Returns: the general path's run, with the records the fast path converted in the first part count
  ///   (``Run/fastRecords``).
  @discardableResult
  static func check(
    _ input: String, format: RecordFormat, source: RateSourceChoice = .table(EmbeddedECBHistory.table),
    _ comment: String, parts: [Int] = [1, 3], configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Run {
    var general = try run(input, format: format, source: source, fastPath: false, configure: configure)
    #expect(general.fastRecords == 0, "\(format), \(comment): the general path converts every record")
    for (index, count) in parts.enumerated() {
      let fast = try run(input, format: format, source: source, fastPath: true, parts: count, configure: configure)
      compare(fast, general, "\(format), \(comment), fast path in \(count) part(s)")
      if index == 0 { general.fastRecords = fast.fastRecords }
    }
    return general
  }

  /// Writes `bytes` as an input file of `format`, runs the general path and the fast path in 1, 2, 3 and 5
  /// parts, and records every difference of the runs (``compare(_:_:_:)``, and their whole reports) and any of the
  /// format's part files (`partFiles`) left behind.
  ///
  /// - Returns: whether every run agreed with the general one, and the general run.
  @discardableResult
  static func checkInParts(
    _ name: String, _ bytes: [UInt8], format: RecordFormat, fileName: String, rates: RateTable = EmbeddedECBHistory.table,
    partFiles: () -> [String], sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> (same: Bool, general: Run) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let input = try directory.write(bytes, named: fileName)
    let before = Set(partFiles())
    let general = try run(input, format: format, source: .table(rates), fastPath: false, configure: configure)
    var same = true
    for parts in [1, 2, 3, 5] {
      let fast = try run(input, format: format, source: .table(rates), fastPath: true, parts: parts, configure: configure)
      let comment = "\(name): fast path in \(parts) part(s)"
      same = compare(fast, general, comment) && same
      if fast.report != general.report {
        same = false
        Issue.record(
          """
          \(comment): reports differ
            fast:    \(CSVFastPathAdversarialTests.summary(fast.report))
            general: \(CSVFastPathAdversarialTests.summary(general.report))
          """, sourceLocation: sourceLocation)
      }
      if !same { break }
    }
    let after = CSVFastPathAdversarialTests.lingering(partFiles, before: before)
    if !after.isEmpty {
      Issue.record("\(name): part files left behind: \(after.sorted())", sourceLocation: sourceLocation)
      for file in after { unlink((NSTemporaryDirectory() as NSString).appendingPathComponent(file)) }
    }
    return (same, general)
  }

  /// Records the first difference of two runs: the first differing line of an output, or the report's.
  ///
  /// - Returns: whether the runs agree.
  @discardableResult
  static func compare(_ fast: Run, _ general: Run, _ comment: String) -> Bool {
    #expect(fast.totals == general.totals, "\(comment): counts")
    #expect(fast.reconciliation == general.reconciliation, "\(comment): reconciliation")
    #expect(fast.withoutDate == general.withoutDate, "\(comment): records without a date")
    #expect(fast.fileError == general.fileError, "\(comment): file error")
    #expect(fast.file == general.file, "\(comment): the file's report")
    #expect(fast.output.count == general.output.count, "\(comment): output entries")
    for (index, (a, b)) in zip(fast.output, general.output).enumerated() where a != b {
      let first = a.indices.first { $0 >= b.count || a[$0] != b[$0] } ?? a.count
      func around(_ bytes: [UInt8]) -> String {
        String(decoding: bytes[max(0, first - 120)..<min(bytes.count, first + 120)], as: UTF8.self)
      }
      Issue.record("\(comment): output part \(index) differs at byte \(first)\n fast: …\(around(a))…\n general: …\(around(b))…")
      return false
    }
    return fast.totals == general.totals && fast.reconciliation == general.reconciliation
      && fast.withoutDate == general.withoutDate && fast.fileError == general.fileError && fast.file == general.file
      && fast.output.count == general.output.count
  }

  // MARK: Cases

  /// Option sets every format is converted under.
  enum Case: String, CaseIterable, Sendable {
    /// Spot rates, half-up rounding.
    case plain
    /// Each other rounding mode.
    case halfEven, down, up
    /// `--amount-unit minor --date-format unix`.
    case minorUnitsUnixSeconds
    /// `--amount-unit minor --date-format unix-ms`.
    case minorUnitsUnixMilliseconds
    /// `--from USD --to EUR` over the files' currency fields.
    case fixedCurrencies
    /// `--max-staleness 0`: weekends and holidays are stale.
    case noStaleness
    /// A decimal comma in and out.
    case decimalComma
    /// Field paths into nested records (JSON, JSON Lines, XML); other column names for the other formats.
    case namedFieldsAndPaths
    /// Several amounts (`--amount-field amount,fee,net`), some of the later ones empty, missing or bad.
    case severalAmounts
    /// Several amounts in minor units with unix times, as a payment API's list (Stripe's `amount,fee,net`).
    case severalAmountsMinorUnits
    /// No from-currency field: each amount names its currency (`USD 1,234.56`, `€12.50`; fxbatch issue 32).
    case currencyInAmount

    var values: Values {
      switch self {
      case .minorUnitsUnixSeconds, .severalAmountsMinorUnits: return .unix(milliseconds: false)
      case .minorUnitsUnixMilliseconds: return .unix(milliseconds: true)
      default: return .iso
      }
    }

    var layout: Layout {
      Layout(
        nested: self == .namedFieldsAndPaths, severalAmounts: self == .severalAmounts || self == .severalAmountsMinorUnits,
        currencyInAmount: self == .currencyInAmount)
    }

    func configure(_ options: inout BatchOptions, format: RecordFormat) {
      options.fieldNames = FastGeneralDifferentialTests.fieldNames(format, layout)
      if format == .json && layout.nested { options.recordsPath = ["data"] }
      if layout.severalAmounts {
        options.fieldNames = FieldNames(amounts: (["amount"] + FastGeneralDifferentialTests.moreAmountNames).map {
          AmountField(path: $0)
        })
      }
      switch self {
      case .plain, .namedFieldsAndPaths, .severalAmounts: break
      case .currencyInAmount:
        // `kr` says SEK (--symbol); `$` and `¥` stay ambiguous.
        options.currencies = CurrencyResolver(symbols: CurrencyCode("SEK").map { ["kr": $0] } ?? [:])
      case .halfEven: options.rounding = .halfEven
      case .down: options.rounding = .down
      case .up: options.rounding = .up
      case .minorUnitsUnixSeconds, .severalAmountsMinorUnits:
        options.amountUnit = .minor
        options.dateFormat = .unixSeconds
      case .minorUnitsUnixMilliseconds:
        options.amountUnit = .minor
        options.dateFormat = .unixMilliseconds
      case .fixedCurrencies:
        options.fixedFrom = CurrencyCode("USD")
        options.fixedTo = CurrencyCode("EUR")
        options.overrideCurrencyFields = true
      case .noStaleness: options.maxStaleness = 0
      case .decimalComma:
        options.decimalMark = .comma
        options.outputDecimalMark = .comma
      }
    }
  }

  @Test func everyRegisteredFormatHasAWriter() {
    #expect(Set(Self.writers.keys) == Set(FormatRegistry.formats.map { $0.format }))
  }

  /// Every format under every option set, on the embedded table.
  @Test(arguments: RecordFormat.allCases, Case.allCases)
  func fastPathWritesWhatTheGeneralPathWrites(format: RecordFormat, testCase: Case) throws {
    let writer = try #require(Self.writers[format], "\(format) has no writer")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var records = Self.records(count: 400, seed: UInt64(Case.allCases.firstIndex(of: testCase) ?? 0) + 1, values: testCase.values)
    if testCase == .decimalComma {
      // Amounts written with a decimal comma (and points grouping thousands).
      for index in records.indices {
        records[index].amount = records[index].amount.map {
          String($0.map { $0 == "." ? "," : $0 == "," ? "." : $0 })
        }
      }
    }
    if testCase.layout.severalAmounts { Self.addMoreAmounts(to: &records, seed: 99) }
    if testCase.layout.currencyInAmount { Self.currencyInAmount(&records, seed: 32) }
    let input = try writer(records, testCase.layout, directory)
    let general = try Self.check(input, format: format, source: .table(EmbeddedECBHistory.table), testCase.rawValue) {
      testCase.configure(&$0, format: format)
    }
    #expect(general.fileError == nil)
    #expect(general.totals.ok > 100, "\(format), \(testCase): most records convert")
    #expect(general.totals.error > 10, "\(format), \(testCase): errors of every kind")
    // Every format converts many records on the fast path, several amounts too (XML and the workbooks since
    // their fast paths read each amount). Not with a decimal comma: the text formats write it by the general
    // rules, and the sheets hold its amounts as text.
    let converted = general.totals.ok + general.totals.fallback
    // Nor without a from-currency field: its records take the general path, which reads the amount's currency.
    if testCase != .decimalComma && testCase != .currencyInAmount {
      #expect(
        general.fastRecords * 3 > converted,
        "\(format), \(testCase): the fast path converted \(general.fastRecords) of \(converted)")
    }
  }

  // MARK: Sources

  /// Every source that answers keys, as a run of the CLI makes it (on loopback servers for the services).
  enum Source: String, CaseIterable, Sendable {
    /// The embedded ECB history (`--source embedded`).
    case embedded
    /// A rates file (`--rates FILE`) of round rates (EUR/GBP 0.5, EUR/USD 1.25, …), on weekdays only: many
    /// records' exact values are half a cent, and the run rounds half to even.
    case ratesFile
    /// A sparse table (a rates file of few cells).
    case sparseTable
    /// The ECB feed (`--source ecb`).
    case ecbFeed
    /// `--frozen` on the lock of a table source.
    case frozenTable
    /// Frankfurter v1 (`--source frankfurter-v1`): answered quotes, some "not found".
    case frankfurterV1
    /// Frankfurter v2 (`--source frankfurter`): answered quotes.
    case frankfurterV2
    /// `--frozen` on the lock of a source that answers quotes.
    case frozenQuotes
    /// The calculator service (`--source calculator --date-policy latest`): today's rate for each pair, a
    /// fallback for records of other days; its unknown pairs answered with an error.
    case calculator
    /// Period rates: `--rate-kind average --period month|year`, `closing --period quarter`.
    case monthlyAverage, quarterlyClosing, yearlyAverage
  }

  /// The source each name of ``RateSourceRegistry`` is tested as.
  static let registryCoverage: [String: Source] = [
    "embedded": .embedded, "file": .ratesFile, "ecb": .ecbFeed, "frankfurter": .frankfurterV2,
    "frankfurter-v1": .frankfurterV1, "calculator": .calculator,
  ]

  @Test func everyRegisteredSourceIsCovered() {
    #expect(Set(Self.registryCoverage.keys) == Set(RateSourceRegistry.names))
  }

  /// Makes a source for an input (a service's answers are the ones a run on that input asks for).
  static func source(_ source: Source, input: String, server: LoopbackHTTPServer, directory: TemporaryDirectory) throws
    -> (RateSourceChoice, (inout BatchOptions) -> Void)
  {
    switch source {
    case .embedded: return (.table(EmbeddedECBHistory.table), { _ in })
    case .monthlyAverage: return (.table(EmbeddedECBHistory.table), { $0.rateRule = .average(.month) })
    case .quarterlyClosing: return (.table(EmbeddedECBHistory.table), { $0.rateRule = .closing(.quarter) })
    case .yearlyAverage: return (.table(EmbeddedECBHistory.table), { $0.rateRule = .average(.year) })
    case .ratesFile:
      var text = "date,base,quote,rate\n"
      for (first, count) in [("2019-06-20", 25), ("2023-12-20", 110)] {
        var day = CalendarDay(iso8601: first)!
        for _ in 0..<count {
          defer { day = day.adding(days: 1) }
          guard (day.daysSinceEpoch % 7 + 7 + 3) % 7 < 5 else { continue }  // weekdays (1970-01-01 was a Thursday)
          for (quote, rate) in [("USD", "1.25"), ("GBP", "0.5"), ("JPY", "125"), ("CHF", "2.5"), ("KWD", "0.4"), ("SEK", "10")] {
            text += "\(day),EUR,\(quote),\(rate)\n"
          }
        }
      }
      let table = try RatesFile.load(path: try directory.write(text, named: "rates.csv"))
      return (.table(table), { $0.rounding = .halfEven })
    case .sparseTable:
      let (builder, pairs, days) = SparseTableDifferentialTests.table(
        seed: 3, pivot: "EUR", first: CalendarDay(iso8601: "2018-09-01")!, dayCount: 2_600, fill: 0.3)
      let table = RateTable(
        info: SparseTableDifferentialTests.info, pairs: pairs, days: days,
        grid: builder.grid(rows: days.count, width: pairs.count, dense: false))
      #expect(table.values.isSparse)
      return (.table(table), { _ in })
    case .ecbFeed: return (TableSourceDifferentialTests.ecbSource(server), { _ in })
    case .frankfurterV1: return (AnsweredQuotesDifferentialTests.frankfurter(for: input, server: server), { _ in })
    case .frankfurterV2: return (AnsweredQuotesDifferentialTests.frankfurterV2(for: input, server: server), { _ in })
    case .calculator: return (calculator(for: input, server: server), { _ in })
    case .frozenTable, .frozenQuotes:
      let lock = directory.path + "/rates.lock"
      let written =
        source == .frozenTable
        ? RateSourceChoice.table(EmbeddedECBHistory.table) : AnsweredQuotesDifferentialTests.frankfurter(for: input, server: server)
      var options = BatchOptions(today: TableSourceDifferentialTests.today)
      options.inputPaths = [input]
      options.destination = .file(directory.path + "/locked.out")
      options.lockPath = lock
      let report = BatchJob(options: options, source: written).run()
      #expect(report.lockFileError == nil)
      let (frozen, defaultDay) = try TableSourceDifferentialTests.frozen(lock)
      return (frozen, { $0.defaultDate = defaultDay })
    }
  }

  /// A calculator service on a loopback server answering each pair a run on `input` asks for with the embedded
  /// history's rate on the run's day (6 significant digits); a pair the history lacks with the service's error.
  static func calculator(for input: String, server: LoopbackHTTPServer) -> RateSourceChoice {
    let today = TableSourceDifferentialTests.today
    var settings = FetchSettings()
    settings.retryPolicy.baseDelay = 0.01
    let source = RateSourceChoice.provider(
      CalculatorProvider(endpoint: server.url("/ig/calculator"), today: today, datePolicy: .latest), settings)
    var options = BatchOptions(today: today)
    options.inputPaths = [input]
    options.destination = .file("/dev/null")
    guard let plan = BatchJob(options: options, source: source).plan().plan else { return source }
    for request in plan.requests {
      guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
        let key = request.keys.first
      else { continue }
      let query = components.percentEncodedQuery
      let predicate: @Sendable (HTTPRequestHead) -> Bool = { $0.query == query }
      if case .success(let found) = EmbeddedECBHistory.table.quote(
        for: RateKey(base: key.pair.base, quote: key.pair.quote, day: today), maxStaleness: 10)
      {
        let rate = found.rate.decimalText(significantDigits: 6)
        server.routeMatching(
          predicate, [.json(#"{lhs: "1 \#(key.pair.base)",rhs: "\#(rate) \#(key.pair.quote)",error: "",icc: true}"#)])
      } else {
        server.routeMatching(predicate, [.json(#"{lhs: "",rhs: "",error: "4",icc: false}"#)])
      }
    }
    return source
  }

  /// Amounts naming their currency in files without a from-currency field (fxbatch issue 32) on sources that
  /// answer keys: pass 1 asks for the keys the amounts' currencies make (the general rules: the fast path leaves
  /// such records alone), and both paths convert at the answers.
  @Test(.tags(.notSanitized), arguments: [RecordFormat.csv, .jsonl], [Source.frankfurterV2, .calculator])
  func currencyInAmountOnSourcesThatAnswerKeys(format: RecordFormat, source: Source) throws {
    let writer = try #require(Self.writers[format])
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var records = Self.records(count: 200, seed: 320)
    Self.currencyInAmount(&records, seed: 321)
    let input = try writer(records, Layout(nested: false, currencyInAmount: true), directory)
    let (choice, configure) = try Self.source(source, input: input, server: server, directory: directory)
    let general = try Self.check(input, format: format, source: choice, source.rawValue, configure: configure)
    #expect(general.fileError == nil)
    #expect(general.totals.ok + general.totals.fallback > 30, "\(format), \(source): records convert")
    #expect(general.totals.errorsByCode["ambiguous_currency", default: 0] > 0)
  }

  /// Every format on every source that answers keys. Not under the address sanitizer: the bytes are those of the
  /// option sets above, on the same readers and writers; what differs is where the rates come from.
  @Test(.tags(.notSanitized), arguments: RecordFormat.allCases, Source.allCases)
  func everySourceWritesTheSameOnBothPaths(format: RecordFormat, source: Source) throws {
    let writer = try #require(Self.writers[format], "\(format) has no writer")
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = Self.records(count: 300, seed: 100 + UInt64(Source.allCases.firstIndex(of: source) ?? 0))
    let input = try writer(records, Layout(nested: false), directory)
    let (choice, configure) = try Self.source(source, input: input, server: server, directory: directory)
    let general = try Self.check(input, format: format, source: choice, source.rawValue, configure: configure)
    #expect(general.fileError == nil)
    #expect(general.totals.ok + general.totals.fallback > 30, "\(format), \(source): records convert")
    #expect(general.totals.error > 10, "\(format), \(source): errors")
    if [.monthlyAverage, .quarterlyClosing, .yearlyAverage].contains(source), format.kind == .text {
      let text = String(decoding: general.output.joined(), as: UTF8.self)
      #expect(text.contains(source == .quarterlyClosing ? "ecb-embedded closing 20" : "ecb-embedded average 20"), "the rule's rates")
      #expect(text.contains("period_incomplete"), "2026-10-30 and 2026-11-20 are in unfinished periods")
      let spot = try Self.run(input, format: format, source: choice, fastPath: true) { _ in }
      #expect(spot.output != general.output, "the rule changes the rates")
    }
  }

  /// Several amounts on sources that answer keys: their answers' texts in a template of three converted slots (a
  /// workbook's cells), each amount reconciled on its own.
  @Test(.tags(.notSanitized), arguments: RecordFormat.allCases, [Source.frankfurterV2, .calculator])
  func severalAmountsOnAnsweredQuotes(format: RecordFormat, source: Source) throws {
    let writer = try #require(Self.writers[format], "\(format) has no writer")
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var records = Self.records(count: 300, seed: 200 + UInt64(Source.allCases.firstIndex(of: source) ?? 0))
    Self.addMoreAmounts(to: &records, seed: 7)
    let layout = Case.severalAmounts.layout
    let input = try writer(records, layout, directory)
    let (choice, configure) = try Self.source(source, input: input, server: server, directory: directory)
    let general = try Self.check(input, format: format, source: choice, "several amounts, \(source)") {
      Case.severalAmounts.configure(&$0, format: format)
      configure(&$0)
    }
    #expect(general.fileError == nil)
    #expect(general.totals.ok + general.totals.fallback > 30, "\(format), \(source): records convert")
    #expect(general.reconciliation.contains { $0.amount == "net" }, "\(format), \(source): each amount reconciled")
    #expect(general.fastRecords > 0, "\(format), \(source): the fast path converts records")
  }
}
