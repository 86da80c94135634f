import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

@Suite("JSON records: walker, JSON Lines, fields, layout, format")
struct JSONRecordInputTests {
  /// Walks a document and returns the records and the bytes copied around them.
  private func walk(_ text: String, recordsPath: [String] = []) throws -> (records: [String], copied: [UInt8], all: [UInt8]) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(text, named: "document.json")
    var records: [String] = []
    var copied: [UInt8] = []
    var all: [UInt8] = []
    try JSONDocumentWalker(path: path, recordsPath: recordsPath).walk(
      copy: { bytes in
        copied += bytes
        all += bytes
      },
      record: { record in
        records.append(String(decoding: record.bytes, as: UTF8.self))
        all += record.bytes
        return true
      })
    return (records, copied, all)
  }

  @Test func walkerHandsOutEachElementAndCopiesEverythingElse() throws {
    let text =
      "\u{FEFF}{ \"meta\": {\"items\": 1}, \"data\" : { \"items\" : [ {\"a\": [1, {\"b\": \"]}\"}]} ,\n 42 , \"x\"]}, \"z\": 1e5 }\n"
    let (records, copied, all) = try walk(text, recordsPath: ["data", "items"])
    #expect(records == [#"{"a": [1, {"b": "]}"}]}"#, "42", #""x""#])
    #expect(all == Array(text.utf8), "records and copied bytes together are the document, byte for byte")
    #expect(String(decoding: copied, as: UTF8.self).hasSuffix("]}, \"z\": 1e5 }\n"))
  }

  @Test(arguments: [
    ("[1,2", [String](), "unexpected end of the document inside an array", 1, 5),
    ("[{\"a\":01}]", [], "leading zero in a number", 1, 9),
    ("[\"\\x\"]", [], "unknown escape \\x", 1, 3),
    ("[\"a\nb\"]", [], "control character in a string (escape it)", 1, 4),
    ("[] []", [], "unexpected text after the JSON value", 1, 4),
    ("", [], "the document is empty; expected an array of records", 1, 1),
    ("{\"d\":{}}", ["d", "e"], "no member \"d.e\" (--records-path)", 1, 7),
    ("{\"d\":5}", ["d"], "\"d\" is not an array of records (--records-path)", 1, 6),
    ("[" + String(repeating: "[", count: 600), [], "nesting deeper than 512 levels", 1, 514),
  ])
  func walkerRefusesMalformedDocumentsWithTheirPlace(text: String, path: [String], message: String, line: Int, column: Int) {
    do {
      _ = try walk(text, recordsPath: path)
      Issue.record("no error for \(text)")
    } catch let error as JSONParseError {
      #expect(error.message == message)
      #expect(error.line == line)
      #expect(error.column == column)
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func jsonLinesKeepLineEndsByteOrderMarkAndBlankLines() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(Array("\u{FEFF}{\"a\":1}\r\n\n  \n{\"b\":2}".utf8), named: "lines.jsonl")
    let reader = try JSONLinesReader(path: path)
    var lines: [JSONLinesReader.Line] = []
    while let line = try reader.next() { lines.append(line) }
    #expect(reader.hasByteOrderMark)
    #expect(lines.map { String(decoding: $0.record.bytes, as: UTF8.self) } == [#"{"a":1}"#, "", "  ", #"{"b":2}"#])
    #expect(lines.map(\.terminator) == [[13, 10], [10], [10], []])
    #expect(lines.map(\.isBlank) == [false, true, true, false])
    #expect(lines.map(\.record.line) == [1, 2, 3, 4])
  }

  /// Issue 30: a line starting with U+FEFF was read as its record (the parser skipped it as a byte order mark)
  /// but could not be extended, so it was written as `{"fx_input":"<the line>",…}` with `fx_status` ok. Only the
  /// file's first bytes are a byte order mark: elsewhere the line is an `invalid_record` that says so, on both
  /// roads and in parts, and the other lines keep every member.
  @Test(arguments: [
    ("a later line", "{R1}\n\u{FEFF}{R2}\n{R3}\n", 2),
    ("a file with two byte order marks", "\u{FEFF}\u{FEFF}{R2}\n{R1}\n{R3}\n", 1),
    ("after a line's spaces", "{R1}\n  \u{FEFF}{R2}\n{R3}\n", 2),
  ])
  func aByteOrderMarkInsideAJSONLinesFileIsAnInvalidRecord(name: String, layout: String, badLine: Int) throws {
    let records = [
      "R1": #"{"amount":1,"from":"EUR","to":"USD","date":"2020-01-02"}"#,
      "R2": #"{"amount":2,"from":"EUR","to":"USD","date":"2020-01-02"}"#,
      "R3": #"{"amount":3,"from":"EUR","to":"USD","date":"2020-01-02"}"#,
    ]
    var text = layout
    for (key, record) in records { text = text.replacingOccurrences(of: "{\(key)}", with: record) }
    for (fastPath, parts) in [(false, 1), (true, 1), (true, 2), (true, 3)] {
      let outcome = try JSONInvalidUTF8Tests.run(Array(text.utf8), name: "in.jsonl", fastPath: fastPath, parts: parts)
      let road = "\(name): fast \(fastPath), parts \(parts)"
      let output = String(decoding: try #require(outcome.output, "\(road)"), as: UTF8.self)
      let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(outcome.report.files.first?.counts.errorsByCode == ["invalid_record": 1], "\(road)")
      #expect(outcome.report.files.first?.counts.ok == 2, "\(road)")
      let bad = lines[badLine - 1]
      #expect(
        bad.contains(
          "\"fx_status\":\"error\",\"fx_error\":\"invalid_record: not valid JSON: a byte order mark (U+FEFF) outside a "
            + "string: only the file's first bytes may be one (line \(badLine), column"),
        "\(road): \(bad)")
      // 1 EUR at 1.1193 USD (2020-01-02); the good records keep their members, extended.
      for (index, line) in lines.enumerated() where index != badLine - 1 && !line.isEmpty {
        #expect(line.contains(#","date":"2020-01-02","fx_rate":"1.1193""#), "\(road): \(line)")
      }
    }
  }

  private let locator = JSONFieldLocator(names: FieldNames(), fixedFrom: false, fixedTo: false)

  private func fields(_ text: String) -> (fields: RecordFields, extendable: Bool) {
    let (fields, _, extendable) = locator.fields(of: JSONRecordText(bytes: Array(text.utf8), line: 1, column: 1))
    return (fields, extendable)
  }

  @Test func fieldsKeepTheKindOfEachValue() {
    let (found, extendable) = fields(#"{"Amount": 12345678901234567.89, "CCY": "usd", "to": null, "date": true}"#)
    #expect(extendable)
    var expected = RecordFields(amount: .number("12345678901234567.89"), from: .text("usd"), to: .null, date: .other("true"))
    expected.label = "12345678901234567.89"  // the first member that is a string or a number
    #expect(found == expected)
  }

  @Test(arguments: [
    (#"{"amount": 1, "amount": 2, "from": "EUR", "to": "USD"}"#, #"the member "amount" occurs twice"#),
    (
      #"{"amount": 1, "Amount": 2, "from": "EUR", "to": "USD"}"#, #"the members "amount" and "Amount" both name the amount field"#
    ),
    // Issue 13: read "both name the from field".
    (
      #"{"amount": 1, "from": "EUR", "From": "GBP", "to": "USD"}"#,
      #"the members "from" and "From" both name the from-currency field"#
    ),
  ])
  func aKeyTwiceIsTheRecordsErrorNeverAChoice(text: String, message: String) {
    #expect(fields(text).fields.problem == RowError(.invalidRecord, message))
  }

  @Test(arguments: [
    ("[1]", "an array is not a record object", false),
    (#"{"a":"#, "not valid JSON: unexpected end of the document (line 1, column 6)", false),
    (#"{"amount":1,"fx_status":"ok"}"#, #"the record already has the member "fx_status"; is it fxbatch output?"#, false),
  ])
  func recordsThatAreNotPlainObjects(text: String, message: String, extendable: Bool) {
    let (found, canExtend) = fields(text)
    #expect(found.problem == RowError(.invalidRecord, message))
    #expect(canExtend == extendable)
  }

  private func normalizer() throws -> RecordNormalizer {
    RecordNormalizer(fixedFrom: nil, fixedTo: nil, dateFormat: .iso, defaultDay: try day("2020-01-02"))
  }

  @Test(arguments: [
    (RecordFields.Value.number("12345678901234567.89"), "12345678901234567.89"),
    (.number("1.5e3"), "1500"),
    (.text("1,234.50"), "1234.50"),
    (.number("-0.5"), "-0.5"),
  ])
  func amountsAreReadExactlyFromTheirText(value: RecordFields.Value, expected: String) throws {
    let fields = RecordFields(amount: value, from: .text("EUR"), to: .text("USD"), date: .absent)
    let amount = try normalizer().amount(of: fields, parser: AmountParser(decimalMark: .point), currency: nil).get()
    #expect(amount.description == expected)
  }

  @Test(arguments: [
    (RecordFields.Value.null, RowError.Code.missingField, "the amount is null"),
    (.text(""), .missingField, "the amount is empty"),
    (.absent, .missingField, "the record has no amount field"),
    (.other("true"), .invalidAmount, "the amount is true, not a number or a string"),
    (.number("1e999"), .invalidAmount, "\"1e999\" has more than 38 digits or too large an exponent"),
  ])
  func nullEmptyOrMissingAmountsAreErrorsNotZero(value: RecordFields.Value, code: RowError.Code, message: String) throws {
    let fields = RecordFields(amount: value, from: .text("EUR"), to: .text("USD"), date: .absent)
    #expect(
      try normalizer().amount(of: fields, parser: AmountParser(decimalMark: .point), currency: nil)
        == .failure(RowError(code, message)))
  }

  @Test(arguments: [
    (RecordFields.Value.number("978"), RowError.Code.unknownCurrency), (.null, .missingField), (.absent, .missingField),
  ])
  func currenciesMustBeStrings(value: RecordFields.Value, code: RowError.Code) throws {
    let fields = RecordFields(amount: .number("1"), from: value, to: .text("USD"), date: .absent)
    guard case .failure(let error) = try normalizer().rateKey(of: fields) else {
      Issue.record("a key for \(value)")
      return
    }
    #expect(error.code == code)
  }

  /// The annotated copy of one record, with two short annotation values.
  private func annotated(_ text: String) throws -> String {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.url.appendingPathComponent("out").path
    let file = try AtomicFile(path: path)
    let cells = ["r", "c", "USD", "d", "s", "ok", ""]
    try JSONAnnotatingWriter(sink: file.sink).write(
      JSONRecordText(bytes: Array(text.utf8), line: 1, column: 1), cells: cells, extend: true)
    try file.commit()
    return try directory.read("out")
  }

  @Test(arguments: [
    (
      #"{"a":1}"#,
      #"{"a":1,"fx_rate":"r","fx_converted":"c","fx_currency":"USD","fx_rate_date":"d","fx_source":"s","fx_status":"ok","fx_error":""}"#
    ),
    (
      #"{ "a": 1, "b": [2] }"#,
      #"{ "a": 1, "b": [2], "fx_rate": "r", "fx_converted": "c", "fx_currency": "USD", "fx_rate_date": "d", "fx_source": "s", "fx_status": "ok", "fx_error": "" }"#
    ),
    (
      "{\n  \"a\" : {\"x\": \",\"}\n}",
      "{\n  \"a\" : {\"x\": \",\"},\n  \"fx_rate\" : \"r\",\n  \"fx_converted\" : \"c\",\n  \"fx_currency\" : \"USD\",\n  \"fx_rate_date\" : \"d\",\n  \"fx_source\" : \"s\",\n  \"fx_status\" : \"ok\",\n  \"fx_error\" : \"\"\n}"
    ),
    (
      "{}",
      #"{"fx_rate":"r","fx_converted":"c","fx_currency":"USD","fx_rate_date":"d","fx_source":"s","fx_status":"ok","fx_error":""}"#
    ),
  ])
  func membersAreAppendedInTheObjectsOwnLayout(text: String, expected: String) throws {
    #expect(try annotated(text) == expected)
  }

  @Test func annotationValuesAreEscapedAsJSONStrings() {
    #expect(JSONAnnotatingWriter.quoted("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
  }

  @Test(arguments: [
    ("[{}]", [String](), RecordFormat.json), ("\u{FEFF}  {\"a\":1}\n{\"a\":2}\n", [], .jsonl),
    ("{\n  \"data\": []\n}", [], .json), ("{\"a\":1}", ["data"], .json), ("<?xml version=\"1.0\"?>", [], .xml),
    ("amount,from,to\n", [], .csv), ("", [], .csv),
  ])
  func formatIsSniffedFromTheContent(text: String, recordsPath: [String], expected: RecordFormat) {
    #expect(RecordFormat.sniff(Array(text.utf8)[...], recordsPath: recordsPath) == expected)
  }

  /// UTF-16 markup is XML: UTF-16BE `<?`, a UTF-16LE byte order mark and `<`, a UTF-16BE one, a line end and `<`.
  @Test(arguments: [
    [0x00, 0x3C, 0x00, 0x3F], [0xFF, 0xFE, 0x3C, 0x00], [0xFE, 0xFF, 0x00, 0x0A, 0x00, 0x20, 0x00, 0x3C] as [UInt8],
  ])
  func utf16IsSniffedAsXML(prefix: [UInt8]) {
    #expect(RecordFormat.sniff(prefix[...], recordsPath: []) == .xml)
  }

  /// A UTF-16 byte order mark before text that is not markup is CSV (Excel's "Unicode Text" export, or
  /// `iconv -t UTF-16`): it was sniffed as XML and refused as "malformed XML: Document is empty".
  @Test(arguments: ["UTF-16LE", "UTF-16BE"])
  func utf16TextIsSniffedAsCSV(encoding: String) throws {
    let text = "date\tamount\tcurrency\n2025-03-03\t10\tUSD\n"
    let bytes: [UInt8] =
      encoding == "UTF-16LE"
      ? [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
      : [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    #expect(RecordFormat.sniff(bytes[...], recordsPath: []) == .csv)
    #expect(RecordFormat.sniff([0xFF, 0xFE, 0x0A, 0x00][...], recordsPath: []) == .csv)
    // A file without a name's extension, and standard input, convert as CSV.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(bytes, named: "export")
    let cli = try CLIRunner()
    for input in [path, "-"] {
      let run = try cli.run(
        ["convert", "--to", "EUR", input, "-o", directory.path + "/out.csv"], in: directory.url,
        input: Data(bytes))
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardError.contains("1 record: 1 ok"), "\(run.standardError)")
    }
  }

  @Test(arguments: [
    ("a.csv", RecordFormat?.some(.csv)), ("a.TSV", .csv), ("notes.txt", .csv), ("a.json", .json), ("a.jsonl", .jsonl),
    ("a.ndjson", .jsonl), ("a.xml", .xml), ("a.md", nil), ("dir.json/file", nil), ("-", nil),
  ])
  func formatByExtension(path: String, expected: RecordFormat?) {
    #expect(RecordFormat.byExtension(of: path) == expected)
  }
}
