import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Hostile and odd `content.xml` input for the content scanner (``ODSContentScanner``): whatever it reads or
/// declines, the fast path writes what the general (libxml2) path writes, and the rows it reads are libxml2's.
@Suite("ODS scanner break-it", .tags(.sanitized))
struct ODSScannerBreakItTests {
  typealias Cases = ODSContentScannerTests

  static func record(_ date: String = "2024-02-01", _ amount: String = "4", _ currency: String = "USD", extra: String = "")
    -> String
  {
    Cases.record(date, amount, currency, extra: extra)
  }

  static func cell(_ text: String) -> String {
    #"<table:table-cell office:value-type="string"><text:p>\#(text)</text:p></table:table-cell>"#
  }

  /// A row of a date, an amount cell (its markup given) and a currency.
  static func amountRow(_ amountCell: String, currency: String = "USD") -> String {
    #"<table:table-row><table:table-cell office:value-type="date" office:date-value="2024-02-01"><text:p>x</text:p></table:table-cell>"#
      + amountCell + cell(currency) + "</table:table-row>"
  }

  static func float(_ value: String) -> String {
    #"<table:table-cell office:value-type="float" office:value="\#(value)"><text:p>\#(value)</text:p></table:table-cell>"#
  }

  /// Constructs the scanner reads: the same rows as libxml2, the same package.
  static let readCases: [(String, String)] = [
    ("references in text", record(extra: cell("a &amp; b &#x20AC; &#8364; &lt;&gt;"))),
    ("a currency by reference", amountRow(float("5"), currency: "&#x55;SD")),
    ("single quotes, spaces in tags", #"<table:table-row  table:style-name = 'ro1' ><table:table-cell office:date-value = '2024-02-01'  office:value-type='date' ><text:p >x</text:p ></table:table-cell ><table:table-cell office:value='3' office:value-type='float'/><table:table-cell office:value-type="string"><text:p>EUR</text:p></table:table-cell></table:table-row >"#),
    ("an exponent", amountRow(float("1e-7"))),
    ("a large exponent", amountRow(float("1E+21"))),
    ("minus zero", amountRow(float("-0"))),
    ("a long number", amountRow(float("123456789012345678901234567890.123456789012345678901234567890"))),
    ("garbage as a number", amountRow(float("12abc"))),
    ("a currency amount", amountRow(#"<table:table-cell office:value-type="currency" office:currency="GBP" office:value="12.5"><text:p>£12.50</text:p></table:table-cell>"#)),
    ("a percentage amount", amountRow(#"<table:table-cell office:value-type="percentage" office:value="0.125"><text:p>12.5%</text:p></table:table-cell>"#)),
    ("a boolean amount", amountRow(#"<table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>"#)),
    ("a date with a time", #"<table:table-row><table:table-cell office:value-type="date" office:date-value="2024-02-01T13:45:00"><text:p>x</text:p></table:table-cell>"# + float("9") + cell("CHF") + "</table:table-row>"),
    ("two paragraphs in the currency", amountRow(float("5"), currency: "US</text:p><text:p>D")),
    ("white space only paragraphs", record(extra: cell(" ") + cell("a <text:span> b </text:span> ") + #"<table:table-cell><text:p>  </text:p></table:table-cell>"#)),
    ("spaces, a tab, a line break in the currency", amountRow(float("5"), currency: #"U<text:s text:c="5"/>S<text:tab/>D<text:line-break/>"#)),
    ("nested spans and links", record(extra: cell(#"<text:span><text:span><text:a>a<text:span>b<text:s/></text:span></text:a></text:span>c</text:span>"#))),
    ("the currency in spans", amountRow(float("5"), currency: "<text:span>U</text:span><text:span><text:span>SD</text:span></text:span>")),
    ("text between cells", "<table:table-row> stray &amp; text " + #"<table:table-cell office:value-type="date" office:date-value="2024-02-01"><text:p>x</text:p></table:table-cell> more "# + float("6") + cell("JPY") + " end </table:table-row>"),
    ("empty rows at the end", #"<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>"#),
    ("empty cells repeated a billion times", record(extra: #"<table:table-cell table:number-columns-repeated="1000000000"/>"#)),
    ("counts with leading zeros", record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"003\"")),
    ("a record repeated far down", record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"100000\"")),
    ("four-byte characters", record(extra: cell("€😀𝄞"))),
    ("an empty string value", record(extra: #"<table:table-cell office:value-type="string" office:string-value=""><text:p>shown</text:p></table:table-cell>"#)),
    ("an empty cell with an end tag", record(extra: "<table:table-cell></table:table-cell><table:table-cell><text:p/><text:p/></table:table-cell>")),
    ("an unknown value type", record(extra: #"<table:table-cell office:value-type="&#102;loat" office:value="7"><text:p>7</text:p></table:table-cell><table:table-cell office:value-type="void"><text:p>v</text:p></table:table-cell>"#)),
    ("a type by reference for the amount", amountRow(#"<table:table-cell office:value-type="&#102;loat" office:value="1&#46;5"><text:p>1.5</text:p></table:table-cell>"#)),
    ("xml attributes", record(extra: #"<table:table-cell xml:id="c1" office:value-type="string"><text:p xml:id="p1">x</text:p></table:table-cell>"#)),
    ("a carriage return and tab inside tags", "<table:table-row\r\n\ttable:style-name=\"ro1\"\r\n>" + cell("a") + "</table:table-row\r\n>"),
  ]

  /// Rows wider than the header, or text the one pass cannot assume: the one-pass road gives up at them.
  static let widerCases: Set<String> = [
    "an empty cell with an end tag", "an unknown value type", "white space only paragraphs",
  ]

  @Test(arguments: readCases)
  func read(name: String, row: String) throws {
    try Cases.check(Cases.document(row), scanned: true, name, holds: !Self.widerCases.contains(name))
  }

  /// Constructs the scanner declines: the fast path writes what the general path writes (or its error).
  static let declinedCases: [(String, String)] = [
    // The records after it are past the last row.
    ("a blank row repeated a billion times", #"<table:table-row table:number-rows-repeated="1000000000"><table:table-cell/></table:table-row>"#),
    ("a count of rows by reference", record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"&#50;\"")),
    ("a count of columns by reference", amountRow(float("5")).replacingOccurrences(of: "<table:table-cell office:value-type=\"date\"", with: "<table:table-cell table:number-columns-repeated=\"&#50;\"/><table:table-cell office:value-type=\"date\"")),
    ("a negative count", record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"-3\"")),
    ("a garbage count", record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"1e9\"")),
    ("a count with spaces", record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\" 2\"")),
    ("a record past the last row", record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: "table:number-rows-repeated=\"1000000000\"")),
    ("an undefined entity", amountRow(float("5"), currency: "&euro;")),
    ("a NUL reference", amountRow(float("5"), currency: "US&#0;D")),
    ("a comment between cells", amountRow(float("5") + "<!-- c -->")),
    ("a processing instruction in a paragraph", amountRow(float("5"), currency: "US<?pi x?>D")),
    ("CDATA in the currency", amountRow(float("5"), currency: "<![CDATA[USD]]>")),
    ("an annotation", record(extra: #"<table:table-cell office:value-type="string"><office:annotation><text:p>note</text:p></office:annotation><text:p>x</text:p></table:table-cell>"#)),
    ("a covered cell", record(extra: "<table:covered-table-cell table:number-columns-repeated=\"3\"/>")),
    ("a subtable", record(extra: #"<table:table-cell table:number-columns-spanned="2"><table:table table:name="sub"><table:table-row>"# + cell("in") + "</table:table-row></table:table></table:table-cell>")),
    ("a huge count of spaces", amountRow(float("5"), currency: #"U<text:s text:c="1000000000"/>"#)),
    ("a negative count of spaces", amountRow(float("5"), currency: #"U<text:s text:c="-1"/>"#)),
    ("a carriage return in text", amountRow(float("5"), currency: "US\r\nD")),
  ]

  @Test(arguments: declinedCases)
  func declined(name: String, row: String) throws {
    try Cases.check(Cases.document(row), scanned: false, name)
  }

  /// A row inside a column group: libxml2's reader passes over column groups whole (they hold no rows).
  @Test func rowInColumnGroup() throws {
    for group in ["table:table-column-group", "table:table-header-columns", "table:table-columns"] {
      let columns = "<\(group)><table:table-column/>" + Self.record("2024-02-05", "8", "GBP") + "</\(group)>"
      try Cases.check(Cases.document("", columns: columns), scanned: false, "a row in \(group)")
    }
  }

  /// The document around the table: its declaration, its root, what is in the table besides rows.
  static func documents() -> [(String, String, Bool)] {
    let plain = Cases.document(record())
    let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#
    func declared(_ other: String) -> String { plain.replacingOccurrences(of: declaration, with: other) }
    func table(_ old: String, _ new: String) -> String { plain.replacingOccurrences(of: old, with: new) }
    let header = "<table:table-column/>" + Cases.header
    return [
      ("XML 1.1", declared(#"<?xml version="1.1" encoding="UTF-8"?>"#), false),
      ("standalone", declared(#"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>"#), true),
      ("ASCII declared, UTF-8 written", declared(#"<?xml version="1.0" encoding="US-ASCII"?>"#).replacingOccurrences(of: "USD</text:p>", with: "USD</text:p><text:p>€</text:p>"), false),
      ("no declaration, space first", declared("\n \n"), true),
      ("a byte order mark", declared("\u{FEFF}" + declaration), false),
      ("character references to a carriage return and a tab", Cases.document(record(extra: #"<table:table-cell office:value-type="string" office:string-value="a&#13;&#9;b"><text:p>c&#xD;&#x9;d</text:p></table:table-cell>"#)), true),
      ("xml:space", Cases.document(record(extra: #"<table:table-cell office:value-type="string"><text:p xml:space="preserve">  a  </text:p></table:table-cell>"#)), true),
      ("a row outside any table", plain.replacingOccurrences(of: "<table:table table:name", with: "<table:table-row><table:table-cell><text:p>out</text:p></table:table-cell></table:table-row><table:table table:name"), true),
      ("columns after the rows", table("</table:table>", #"<table:table-column table:number-columns-repeated="9"/></table:table>"#), true),
      ("a column in a row group", table(header, "<table:table-row-group><table:table-column/>" + Cases.header + "</table:table-row-group>"), true),
      ("an empty row group first", table(header, "<table:table-column/><table:table-row-group/>" + Cases.header), true),
      ("forms with content", table(header, "<table:table-column/><office:forms><x/></office:forms>" + Cases.header), false),
      ("counts of columns +2, 02 and past 2^32", Cases.document(record(extra: #"<table:table-cell table:number-columns-repeated="+2"/><table:table-cell table:number-columns-repeated="02"/><table:table-cell table:number-columns-repeated="4294967297"/><table:table-cell/>"#)), true),
      ("an empty count", Cases.document(record(extra: #"<table:table-cell table:number-columns-repeated=""/>"#)), false),
      ("a column count by reference", table(header, #"<table:table-column table:number-columns-repeated="&#57;"/>"# + Cases.header), true),
      ("the rewriter's count in another attribute's value", Cases.document(record().replacingOccurrences(of: "table:style-name=\"ro1\"", with: #"table:style-name='table:number-rows-repeated="5"' table:number-rows-repeated="2""#)), true),
    ]
  }

  @Test func aroundTheTable() throws {
    for (name, content, scanned) in Self.documents() {
      try Cases.check(content, scanned: scanned, name)
    }
  }

  /// `content.xml` served from memory, as the package's entry (for messages).
  final class MemoryStream: ZipEntryReading {
    let package: ZipPackage
    let entry: ZipEntry
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8], package: ZipPackage, entry: ZipEntry) {
      (self.bytes, self.package, self.entry) = (bytes, package, entry)
    }

    func read(into buffer: inout [UInt8], at index: Int) throws(ZipError) -> Int {
      let count = min(buffer.count - index, bytes.count - offset)
      buffer.replaceSubrange(index..<(index + count), with: bytes[offset..<(offset + count)])
      offset += count
      return count
    }
  }

  /// A row of every kind of markup the scanner reads, its first read ending at every third of its bytes (white
  /// space before it moves it over the end of the scanner's first read): the rows read are libxml2's.
  @Test func rowAcrossTheFirstRead() throws {
    let odd =
      #"<table:table-row table:style-name='r&amp;1' ><table:table-cell office:value-type="date" office:date-value='2024-02-01' ><text:p>é€😀</text:p></table:table-cell >"#
      + #"<table:table-cell office:value-type="float" office:value="1&#46;5"/><table:table-cell office:value-type="string"><text:p>U<text:span>S</text:span>D]x&#x20AC;<text:s text:c="3"/>&lt;</text:p ></table:table-cell>"#
      + #"<table:table-cell table:number-columns-repeated="2"/></table:table-row >"#
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let content = Cases.document(odd)
    try EndToEndODSTests.spreadsheet(content: content, named: "in.ods", in: directory)
    let path = directory.path + "/in.ods"
    let expected = try Cases.generalRows(path)
    #expect(try Cases.scannedRows(path) == expected)
    let package = try ZipPackage(path: path)
    let entry = try #require(package.entry(named: "content.xml"))
    let bytes = Array(content.utf8)
    let at = try #require(bytes.firstRange(of: Array(odd.utf8))).lowerBound
    let firstRead = ODSContentScanner.readSize
    for offset in stride(from: 1, through: odd.utf8.count, by: 3) {
      let padding = [UInt8](repeating: UInt8(ascii: " "), count: firstRead - offset - at)
      var scanner = ODSContentScanner(
        stream: MemoryStream(Array(bytes[..<at]) + padding + Array(bytes[at...]), package: package, entry: entry),
        choice: .number(1))
      var rows: [ODSRowElement] = []
      var stop: ODSContentScanner.Stop? = nil
      do {
        while let item = try scanner.next() { if case .row = item { rows.append(scanner.row) } }
      } catch {
        stop = error
      }
      #expect(stop == nil && rows == expected, "the first read ending \(offset) bytes into the row")
      if stop != nil || rows != expected { break }
    }
  }
}
