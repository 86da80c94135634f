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
    let locator = XMLFieldLocator(names: FieldNames(to: "to"), fixedFrom: false, fixedTo: false)
    let (fields, located) = locator.fields(of: record)
    #expect(fields.amount == .text("12.50"))
    #expect(fields.from == .text("EUR"))
    #expect(fields.to == .text("USD"), "a plain name prefers the child element")
    #expect(located[.from] == "@currency")
    let attribute = XMLFieldLocator(names: FieldNames(to: "@to"), fixedFrom: false, fixedTo: false).fields(of: record)
    #expect(attribute.fields.to == .text("GBP"))
  }

  @Test func aRepeatedFieldIsARecordError() {
    let record = XMLRecord(line: 1, children: [("amount", "1"), ("amount", "2"), ("from", "EUR"), ("to", "USD")])
    let (fields, _) = XMLFieldLocator(names: FieldNames(), fixedFrom: false, fixedTo: false).fields(of: record)
    #expect(fields.problem?.code == .invalidRecord)
  }

  @Test func annotationValuesAreEscaped() {
    #expect(XMLAnnotatingWriter.escaped("a<b>&\"c\" é\n\u{1}") == "a&lt;b&gt;&amp;&quot;c&quot; &#xE9;&#xA;&#xFFFD;")
  }
}
