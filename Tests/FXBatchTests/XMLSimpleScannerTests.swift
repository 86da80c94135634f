import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// ``XMLSimpleScanner`` must never accept a document libxml2 refuses, and must read the records of one it
/// accepts as libxml2's reader does (``XMLRecordReader``): names, decoded attribute values and child texts.
@Suite("XML scanner accepts only what libxml2 accepts", .tags(.sanitized))
struct XMLSimpleScannerTests {
  static let base = Array(
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <!-- head -->
    <rs xmlns="urn:d" xmlns:a="urn:a" a:v="1">
      <r id="1" note="x y"><date>2024-01-05</date><amount> 12.50 </amount><from>USD</from><to>EUR</to></r>
      <!-- between -->
      <r id='2' tab="a\tb">
        <amount>7\r\n</amount>
        <e/>
        <from>€ 😀</from>
      </r>
      <r/>
    </rs>

    """.utf8)

  static let tokens: [[UInt8]] =
    [
      "<", ">", "&", "&amp;", "&#65;", "]]>", "]]", "\"", "'", "=", " ", "/", "<!--", "-->", "--", "<?x?>", "<![CDATA[x]]>",
      "\u{0}", "\u{1}", "\r", "\t", "\n", "a:b", ":", " xmlns:b=\"\"", " xmlns:b=\"u\"", " b:c=\"1\"", " id=\"3\"", "</r>",
      "<r>", "<x>", "</x>", "<r/>", "é", "1", "-", ".", "x", "<!DOCTYPE rs>", "\u{7F}", "\u{FFFD}", "xml",
    ].map { Array($0.utf8) } + [
      [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xF4, 0x90, 0x80, 0x80], [0xFF],
    ]

  /// The records as the scanner reads them, with the record element's name; `nil` when it declines.
  static func scannerRecords(_ path: String) -> (String, [XMLRecord])? {
    guard var scanner = try? XMLSimpleScanner(path: path, range: 0..<Int.max) else { return nil }
    var records: [XMLRecord] = []
    do {
      while let item = try scanner.next() {
        guard case .record = item else { continue }
        var record = XMLRecord(line: 0)
        for field in scanner.record.fields {
          let name = scanner.bytes.slice(field.nameStart..<field.nameEnd).text
          let value = XMLSimpleScanner.decodedText(field, in: scanner.bytes)
          if field.isAttribute { record.attributes.append((name, value)) } else { record.children.append((name, value)) }
        }
        records.append(record)
      }
    } catch {
      return nil
    }
    return (String(decoding: scanner.recordName, as: UTF8.self), records)
  }

  /// The records as libxml2 reads them; `nil` when it refuses the document.
  static func libxml2Records(_ path: String) -> (String, [XMLRecord])? {
    guard let element = try? XMLRecordReader.detectRecordElement(path: path),
      let reader = try? XMLRecordReader(path: path, recordElement: element)
    else { return nil }
    var records: [XMLRecord] = []
    do {
      while var record = try reader.next() {
        record.line = 0
        records.append(record)
      }
    } catch {
      return nil
    }
    return (element, records)
  }

  @Test func mutatedDocumentsAcceptedByTheScannerAreAcceptedByLibxml2() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = (directory.path as NSString).appendingPathComponent("doc.xml")
    #expect(Self.scannerRecords(try directory.write(Self.base, named: "doc.xml"))?.1.count == 3)
    var random = FastGeneralDifferentialTests.XMLRandom(state: 2026)
    var (accepted, declined) = (0, 0)
    for _ in 0..<800 {
      var bytes = Self.base
      for _ in 0..<(1 + random.next(2)) {
        let at = random.next(bytes.count)
        switch random.next(3) {
        case 0: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.next(3)))
        case 1: bytes.insert(contentsOf: random.pick(Self.tokens), at: at)
        default: bytes.replaceSubrange(at...at, with: random.pick(Self.tokens))
        }
      }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      guard let scanned = Self.scannerRecords(path) else {
        declined += 1
        continue
      }
      accepted += 1
      let read = Self.libxml2Records(path)
      #expect(read != nil, "libxml2 refuses a document the scanner accepts: \(String(decoding: bytes, as: UTF8.self))")
      if let read {
        #expect(read.0 == scanned.0 && read.1 == scanned.1, "records differ: \(String(decoding: bytes, as: UTF8.self))")
      }
    }
    #expect(accepted > 80 && declined > 80)
  }

  /// Hand-made documents that each break one rule of XML 1.0 (W3C): the scanner must decline them all.
  @Test(arguments: [
    "<rs><r a=\"1\"b=\"2\"/><r/></rs>", "<rs><r a=\"<\"/><r/></rs>", "<rs><r a=1/><r/></rs>", "<rs><r a=\"1\" a='1'/><r/></rs>",
    "<rs><r>]]></r><r/></rs>", "<rs><r><x>a]]>b</x></r><r/></rs>", "<rs><r/><r/></rs><rs/>", "<rs><r/><r/></rs>x",
    "<rs><r/><r/>", "<rs><r></rs>", "<rs><r><x></y></r></rs>", "<rs><1r/><1r/></rs>", "<rs><r/><r/></ rs>",
    "<rs><r/><!-- a -- b --><r/></rs>", "<rs><r/><!-- a ---><r/></rs>", " <?xml version=\"1.0\"?><rs><r/><r/></rs>",
    "<?xml version='1.0' encoding='UTF-8' standalone='maybe'?><rs><r/><r/></rs>", "<rs xmlns:p=\"\"><r/><r/></rs>",
    "<rs p:a=\"1\"><r/><r/></rs>", "<rs><r>\u{1}</r><r/></rs>", "<rs><r x:y=\"1\"/><r/></rs>", "<rs><r/><r/></rs><?pi?>",
    "<?xml version=\"1.0\"?><?xml version=\"1.0\"?><rs><r/><r/></rs>", "<rs><r><x>&bogus;</x></r><r/></rs>",
  ])
  func malformedDocumentsAreDeclined(text: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(text, named: "doc.xml")
    #expect(Self.scannerRecords(path) == nil)
  }
}
