import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

@Suite("XML records: reader, fields, writer")
struct XMLRecordInputTests {
  /// Reads every record of a document.
  private func records(_ text: String, element: String? = nil) throws -> [XMLRecord] {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(text, named: "document.xml")
    let reader = try XMLRecordReader(path: path, recordElement: try element ?? XMLRecordReader.detectRecordElement(path: path))
    var result: [XMLRecord] = []
    while let record = try reader.next() { result.append(record) }
    return result
  }

  @Test func textIsJoinedFromTextNodesReferencesAndCDATA() throws {
    let found = try records(
      "<rs><r a=\"1&#48;0.50\"><amount> 1&#48;0.<![CDATA[5]]><!-- c -->0 </amount><x><y>nested</y></x></r><r/></rs>")
    #expect(found.count == 2)
    #expect(found[0].attributes.map(\.value) == ["100.50"])
    #expect(found[0].children.map(\.name) == ["amount", "x"])
    #expect(found[0].children.map(\.text) == [" 100.50 ", "nested"])
    #expect(found[1].children.isEmpty)
  }

  @Test func recordsAreTheOutermostElementsOfTheName() throws {
    let found = try records("<a><item><item>inner</item></item><b><item/></b></a>", element: "item")
    #expect(found.count == 2)
    #expect(found[0].children.map(\.text) == ["inner"])
  }

  @Test func fieldsComeFromAttributesAndChildren() throws {
    let record = XMLRecord(
      line: 1, attributes: [("currency", "EUR"), ("to", "GBP")], children: [("amount", " 12.50 "), ("to", "USD")])
    var locator = XMLFieldLocator(names: FieldNames(to: "to"), fixedFrom: false, fixedTo: false)
    let (fields, located) = locator.fields(of: record)
    #expect(fields.amount == .text("12.50"))
    #expect(fields.from == .text("EUR"))
    #expect(fields.to == .text("USD"), "a plain name prefers the child element")
    #expect(located[.from] == "@currency")
    var attributeLocator = XMLFieldLocator(names: FieldNames(to: "@to"), fixedFrom: false, fixedTo: false)
    let attribute = attributeLocator.fields(of: record)
    #expect(attribute.fields.to == .text("GBP"))
  }

  /// One locator serves a whole document and remembers where the last record's fields were: each record is
  /// still read by its own layout and with its own values.
  @Test func aLocatorReusedAcrossRecordsFollowsEachRecordsLayout() {
    var locator = XMLFieldLocator(names: FieldNames(), fixedFrom: false, fixedTo: false)
    let asAttributes = XMLRecord(line: 1, attributes: [("amount", "1"), ("currency", "EUR"), ("to", "USD")])
    let asChildren = XMLRecord(line: 2, children: [("to", "GBP"), ("from", "CHF"), ("amount", " 2 ")])
    let again = XMLRecord(line: 3, children: [("to", "JPY"), ("from", "SEK"), ("amount", "3")])
    let twice = XMLRecord(line: 4, children: [("to", "JPY"), ("from", "SEK"), ("from", "NOK")])
    let first = locator.fields(of: asAttributes)
    #expect(first.fields == RecordFields(amount: .text("1"), from: .text("EUR"), to: .text("USD"), date: .absent))
    #expect(first.located == [.amount: "@amount", .from: "@currency", .to: "@to"])
    let second = locator.fields(of: asChildren)
    #expect(second.fields == RecordFields(amount: .text("2"), from: .text("CHF"), to: .text("GBP"), date: .absent))
    #expect(second.located == [.amount: "amount", .from: "from", .to: "to"])
    #expect(
      locator.fields(of: again).fields == RecordFields(amount: .text("3"), from: .text("SEK"), to: .text("JPY"), date: .absent))
    #expect(locator.fields(of: twice).fields.problem?.code == .invalidRecord)
    #expect(locator.fields(of: again).fields.problem == nil)
  }

  @Test func aRepeatedFieldIsARecordError() {
    let record = XMLRecord(line: 1, children: [("amount", "1"), ("amount", "2"), ("from", "EUR"), ("to", "USD")])
    var locator = XMLFieldLocator(names: FieldNames(), fixedFrom: false, fixedTo: false)
    let (fields, _) = locator.fields(of: record)
    #expect(fields.problem?.code == .invalidRecord)
  }

  /// The element as libxml2 writes it for `x<>&"'`, LF, tab, CR, U+0001, space, `é€`: escaped, and for an
  /// encoding that has every character, with the characters as they are (U+0001, which XML 1.0 cannot hold at
  /// all, becomes U+FFFD).
  static let unicodeElement = "<fx a=\"x&lt;&gt;&amp;&quot;'&#10;&#9;&#13;\u{FFFD} é€\"/>"
  static let escapedASCII = Array("<fx a=\"x&lt;&gt;&amp;&quot;'&#10;&#9;&#13;".utf8)
  static func littleEndian(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
  static func bigEndian(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
  static let encodedElements: [(String, [UInt8])] = [
    ("UTF-8", Array(unicodeElement.utf8)),
    // A character the encoding lacks is a decimal reference: U+FFFD 65533, é U+00E9 233, € U+20AC 8364.
    ("ISO-8859-1", escapedASCII + Array("&#65533; ".utf8) + [0xE9] + Array("&#8364;\"/>".utf8)),
    ("ISO-8859-15", escapedASCII + Array("&#65533; ".utf8) + [0xE9, 0xA4] + Array("\"/>".utf8)),
    ("US-ASCII", escapedASCII + Array("&#65533; &#233;&#8364;\"/>".utf8)),
    ("UTF-16LE", littleEndian(unicodeElement)),
    ("UTF-16BE", bigEndian(unicodeElement)),
  ]

  @Test(arguments: encodedElements)
  func annotationElementIsEscapedAndEncodedByLibxml2(encoding: String, expected: [UInt8]) throws {
    let encoder = try XMLElementEncoder(encoding: encoding)
    for _ in 0..<2 {  // the writer and its buffer are reused: the second element is written like the first
      var bytes: [UInt8] = []
      try encoder.writeEmptyElement("fx", attributes: [("a", "x<>&\"'\n\t\r\u{1} é€")]) { bytes += $0 }
      #expect(bytes == expected)
    }
  }
}
