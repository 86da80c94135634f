import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The same records as CSV, XLSX and ODS (`equivalence.fods` saved by LibreOffice in the three formats, see
/// `Fixtures/Workbooks/README.md`) get the same fx values, converted offline with the embedded ECB history.
@Suite("CSV, XLSX and ODS give the same fx values")
struct WorkbookEquivalenceTests {
  /// fx_rate, fx_converted, fx_currency, fx_rate_date, fx_source, fx_status, fx_error of each record.
  typealias Values = [[String]]

  /// The rows of a CSV file (RFC 4180: quoted fields with `""`, line breaks inside quotes).
  static func csvRows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      if quoted {
        if character == "\"" {
          if characters.first == "\"" {
            field.append("\"")
            characters.removeFirst()
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
      } else if character == "\"" {
        quoted = true
      } else if character == "," {
        row.append(field)
        field = ""
      } else if character == "\n" {
        row.append(field)
        rows.append(row)
        (row, field) = ([], "")
      } else if character != "\r" {
        field.append(character)
      }
    }
    if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
    return rows
  }

  /// The workbook `path` with each amount (the number cells of column A, LibreOffice's shortest texts) written
  /// as `format` writes its double, as other programs write them: `%.17g` (`389.89999999999998`,
  /// `-35.149999999999999`, `77.700000000000003`), `%.20g` (`389.89999999999997726`).
  static func rewriteAmounts(of path: String, format: String) throws {
    let isXLSX = path.hasSuffix(".xlsx")
    let entry = isXLSX ? "xl/worksheets/sheet1.xml" : "content.xml"
    let pattern = try Regex(isXLSX ? #"(<c r="A[0-9]+" s="1" t="n"><v>)([^<]*)(</v>)"# : #"(office:value=")([^"]*)(")"#)
    let text = String(decoding: try ZipPackage(path: path).contents(ofEntryNamed: entry), as: UTF8.self)
    var changed = 0
    let rewritten = text.replacing(pattern) { match in
      let number = String(match.output[2].substring ?? "")
      let written = Double(number).map { String(format: format, $0) } ?? number
      if written != number { changed += 1 }
      return (match.output[1].substring ?? "") + written + (match.output[3].substring ?? "")
    }
    #expect(changed >= 4, "\(path): \(changed) amounts rewritten")
    try ZipPackage(path: path).write(to: path + ".new", replacing: [(entry, .bytes(Array(rewritten.utf8)))])
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.moveItem(atPath: path + ".new", toPath: path)
  }

  /// The records as LibreOffice saved them, and with the workbooks' amounts as `%.17g` and `%.20g` write their
  /// doubles: number cells are read as the shortest decimal of their double, the amount typed (openpyxl's `%.16g`
  /// happens to write these amounts as typed; `SpreadsheetDoubleTests` has amounts it does not).
  @Test(arguments: [nil, "%.17g", "%.20g"])
  func theThreeFormatsAgree(amountFormat: String?) throws {
    let names = ["equivalence.csv", "equivalence.xlsx", "equivalence.ods"]
    let directory = try EndToEndXLSXTests.directory(with: names)
    defer { directory.remove() }
    if let amountFormat {
      for name in names.dropFirst() { try Self.rewriteAmounts(of: directory.path + "/" + name, format: amountFormat) }
    }
    let result = try CLIRunner().run(["convert"] + names, in: directory.url)
    #expect(result.status == 1)
    for (name, details) in zip(names, ["", " [XLSX]", " [ODS]"]) {
      let output = PathText.splitExtension(name).stem + ".converted." + PathText.splitExtension(name).extension
      #expect(
        result.standardError.contains(
          "\(name) -> \(output): 15 records: 11 ok, 1 fallback, 3 error (invalid_amount 1, missing_field 1, unknown_currency 1)\(details)"
        ))
    }
    let count = AnnotationColumn.allCases.count
    let csv = Self.csvRows(try String(contentsOfFile: directory.path + "/equivalence.converted.csv", encoding: .utf8))
    let fromCSV: Values = csv.dropFirst().map { Array($0.suffix(count)) }
    let fromXLSX: Values = try EndToEndXLSXTests.rows(of: directory.path + "/equivalence.converted.xlsx").dropFirst()
      .map { row in
        var values = EndToEndXLSXTests.values(of: row, from: 5, count: count)
        // fx_rate_date (column I) as text, or as a date cell: a serial day of the 1900 date system.
        if case .number(let serial)? = row.cells.first(where: { $0.reference.column == 8 })?.value {
          values[3] = XLSXDateSystem.from1900.day(ofSerial: serial)?.description ?? "not a day: \(serial)"
        }
        return values
      }
    let fromODS: Values = try EndToEndODSTests.rows(of: directory.path + "/equivalence.converted.ods").dropFirst()
      .map { EndToEndODSTests.values(of: $0, from: 5, count: count) }
    #expect(csv.first?.suffix(count) == AnnotationColumn.allCases.map(\.rawValue)[...])
    #expect(fromCSV.count == 15)
    #expect(fromXLSX == fromCSV)
    #expect(fromODS == fromCSV)
    // A few by hand, from the ECB reference rates of the day (see EndToEndXLSXTests.sampleConvertsAsItsREADMESays):
    // 1250 / 1.0465 = 1194.457… → 1194.46; 18.20 CHF on a Saturday at Friday's 0.9557 → 19.04;
    // 420 SEK → USD = 420 × 1.0912 / 10.9815 = 41.734… → 41.73.
    #expect(fromCSV.first?.prefix(2) == ["0.955566173", "1194.46"])
    #expect(fromCSV.dropFirst(3).first?[1] == "19.04")
    #expect(fromCSV.dropFirst(3).first?[5] == "fallback")
    #expect(fromCSV.dropFirst(5).first?[1] == "41.73")
    #expect(fromCSV.dropFirst(10).first?.last == "unknown_currency: \"XYZ\" is not an ISO 4217 currency code")
  }
}
