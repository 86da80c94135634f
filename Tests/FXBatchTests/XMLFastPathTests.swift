import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// The XML fast path (``XMLSimpleScanner`` for both passes, ``XMLFastRecordReader`` in ``FastRecordLoop`` per
/// record) must give byte for byte the output, counts, reconciliation and file errors of the general path (libxml2, ``XMLAnnotatingWriter``),
/// and must leave every document outside its subset to the general path.
@Suite("XML fast path = general path", .tags(.sanitized))
struct XMLFastPathTests {
  /// A seeded random number source (a 64-bit LCG), so a failure can be replayed.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
  }

  static let currencies = ["USD", "JPY", "GBP", "CHF", "EUR", "HRK", "DEM", "usd", " GBP ", "XXX", "", "€", "RMB", "ISK"]
  static let dates = ["2024-01-05", "2024-01-06", "2024-12-25", "1998-12-31", "2030-01-01", "", "2024-02-30", " 2024-03-01 "]
  static let amounts = [
    "12.50", "7", "-3.25", "0.005", "1,234.50", "12.50-", "abc", "", "100000000000000000000.5", "+4.2", " 9.99", "1.234",
    "0.1234567", "999999999999999999",
  ]

  /// A document in the fast path's subset with messy records: attributes as fields, indentation (LF and CR LF),
  /// empty elements, missing and duplicate fields, an `fx` child, text at the record level, child attributes,
  /// non-ASCII text, comments between records, and values of every kind (errors, unknown currencies, text
  /// amounts the fast path leaves to the general rules).
  static func messyDocument(records: Int, seed: UInt64) -> String {
    var random = Random(state: seed)
    // No XML declaration, one, or a byte order mark and one.
    var text = ["", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "\u{FEFF}<?xml version='1.0' encoding='utf-8'?>\n"][
      random.next(3)]
    text += "<!-- export -->\n<payments xmlns=\"urn:example\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
    for index in 0..<records {
      let date = random.pick(dates)
      let amount = random.pick(amounts)
      let from = random.pick(currencies)
      let to = random.next(3) == 0 ? random.pick(currencies) : random.pick(["EUR", "USD", "JPY", "GBP"])
      let newline = random.next(4) == 0 ? "\r\n" : "\n"
      // The first record is a plain one: one with an `fx` child would make the document fxbatch output.
      switch index == 0 ? 16 : random.next(16) {
      case 0:
        text += "  <payment id='\(index)' date=\"\(date)\" amount=\"\(amount)\" currency=\"\(from)\" target=\"\(to)\"/>\(newline)"
      case 1:
        text += "<payment>\(newline)    <date>\(date)</date>\(newline)    <amount>\(amount)</amount>\(newline)"
        text += "    <from>\(from)</from>\(newline)    <to>\(to)</to>\(newline)  </payment>\(newline)"
      case 2: text += "<payment currency=\"\(from)\"><value>\(amount)</value><to>\(to)</to></payment>\n"
      case 3: text += "<payment><amount>\(amount)</amount><from>\(from)</from></payment>\n"
      case 4: text += "<payment><amount>1</amount><amount>2</amount><from>USD</from><to>EUR</to></payment>\n"
      case 5: text += "<payment><amount>\(amount)</amount><from>\(from)</from><to>\(to)</to><fx status=\"ok\"/></payment>\n"
      case 6: text += "<payment><date/><amount></amount><from>\(from)</from><to>\(to)</to></payment>\n"
      case 7:
        text += "<payment note=\"a\tb\nc\r\nd\"><amount>\r\n \(amount)\r\n</amount><from>\(from)</from><to>\(to)</to></payment>\n"
      case 8: text += "<payment>text <amount>\(amount)</amount> more <from>\(from)</from><to>\(to)</to> end</payment>\n"
      case 9:
        text +=
          "<payment><amount unit=\"x\">\(amount)</amount><from>\(from)</from><to>\(to)</to><memo>Zürich ✓ 😀</memo></payment>\n"
      // A part boundary may land in it (pass 1 then reads the document in one part).
      case 10: text += "<!-- batch \(index): <payment id=\"\(index)\"> -->\n"
      case 11: text += "<payment/>\n"
      case 12:
        text +=
          "<payment>\n\t<date>\(date)</date>\n\t<amount>\(amount)</amount>\n\t<from>\(from)</from>\n\t<to>\(to)</to>\n</payment>\n"
      default:
        text +=
          "<payment id=\"\(index)\"><date>\(date)</date><amount>\(amount)</amount><from>\(from)</from><to>\(to)</to></payment>\n"
      }
    }
    return text + "</payments>\n<!-- end -->\n"
  }

  struct Run: Equatable {
    let output: Data?
    let file: RunReport.File
    let totals: RunReport.Counts
    let reconciliation: [Reconciliation]
    let withoutDate: Int
  }

  static func run(_ path: String, fastPath: Bool, parts: Int = 1, configure: (inout BatchOptions) -> Void = { _ in }) throws
    -> Run
  {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let output = directory.url.appendingPathComponent("out.xml").path
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [path]
    options.destination = .file(output)
    options.fastPath = fastPath
    options.parallelParts = parts
    options.parallelMinimumSize = 0
    configure(&options)
    let report = BatchJob(options: options, rates: EmbeddedECBHistory.table).run()
    var file = try #require(report.files.first)
    file.output = nil
    return Run(
      output: FileManager.default.contents(atPath: output), file: file, totals: report.totals,
      reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate)
  }

  /// Whether pass 1 takes the fast path for a document.
  static func takesFastPath(_ path: String, configure: (inout BatchOptions) -> Void = { _ in }) throws -> Bool {
    var options = BatchOptions(today: try day("2026-11-29"))
    options.inputPaths = [path]
    configure(&options)
    let job = BatchJob(options: options, rates: EmbeddedECBHistory.table)
    return XMLFormat.scanXMLFileFast(
      displayPath: path, readPath: path, outputPath: "/dev/null", context: job.formatContext) != nil
  }

  /// Reports the first differing line of two outputs.
  static func compare(_ fast: Run, _ general: Run, _ comment: Comment) {
    #expect(fast == general, comment)
    guard let fastOutput = fast.output, let generalOutput = general.output, fastOutput != generalOutput else { return }
    let fastLines = String(decoding: fastOutput, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let generalLines = String(decoding: generalOutput, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for (line, (a, b)) in zip(fastLines, generalLines).enumerated() where a != b {
      Issue.record("\(comment) line \(line + 1): fast \(a) / general \(b)")
      return
    }
  }

  @Test(arguments: [(1 as UInt64, 1), (2, 1), (3, 2), (4, 3), (5, 7)])
  func messyDocumentGivesTheSameOutput(seed: UInt64, parts: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(Self.messyDocument(records: 1500, seed: seed), named: "messy.xml")
    #expect(try Self.takesFastPath(path))
    let fast = try Self.run(path, fastPath: true, parts: parts)
    let general = try Self.run(path, fastPath: false)
    #expect(general.file.fileError == nil)
    #expect(fast.totals.ok > 100 && fast.totals.error > 100)  // both kinds of record are in it
    Self.compare(fast, general, "seed \(seed), \(parts) parts")
  }

  /// A part boundary found inside a comment (which holds `<payment …>` text) is not a record boundary: pass 1
  /// notices the part before it does not end there and reads the document in one part; the output is the same.
  @Test func partBoundaryInACommentIsNotTaken() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let record = "<payment><date>2024-01-05</date><amount>12.50</amount><from>USD</from><to>EUR</to></payment>\n"
    let comment = "<!-- " + String(repeating: "<payment id=\"0\"> ", count: 2000) + "-->\n"
    let text =
      "<payments>\n" + String(repeating: record, count: 100) + comment + String(repeating: record, count: 100) + "</payments>\n"
    let path = try directory.write(text, named: "comment.xml")
    #expect(try Self.takesFastPath(path))
    let fast = try Self.run(path, fastPath: true, parts: 2)
    #expect(fast.totals.ok == 200)
    Self.compare(fast, try Self.run(path, fastPath: false), "comment")
  }

  /// Options that change what the fields are and how values read: fixed currencies, named fields, a given
  /// decimal mark (`,`: the text amounts read differently), `--output-decimal-separator ,` (no template, every
  /// record through the general rules on the scanner's bytes), a rounding mode, a record element.
  @Test(arguments: 0..<6)
  func optionsGiveTheSameOutput(variant: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(Self.messyDocument(records: 600, seed: 40 + UInt64(variant)), named: "messy.xml")
    let configure: (inout BatchOptions) -> Void = { options in
      switch variant {
      case 0:
        options.fixedFrom = CurrencyCode("CHF")
        options.overrideCurrencyFields = true  // the records have a from-currency field
      case 1: options.fieldNames = FieldNames(amount: "@amount", from: "currency", to: "to")
      case 2: options.decimalMark = .comma
      case 3: options.outputDecimalMark = .comma
      case 4: options.rounding = .halfEven
      default:
        options.recordElement = "payment"
        options.fixedTo = CurrencyCode("JPY")
        options.overrideCurrencyFields = true
      }
    }
    let fast = try Self.run(path, fastPath: true, parts: 2, configure: configure)
    let general = try Self.run(path, fastPath: false, configure: configure)
    Self.compare(fast, general, "variant \(variant)")
  }

  /// Documents outside the subset: the fast path declines them and the general path reads them, output or
  /// file error alike.
  @Test(arguments: [
    ("comment in a record", "<payment><!-- c --><amount>1</amount><from>USD</from><to>EUR</to></payment>"),
    ("CDATA", "<payment><amount><![CDATA[12.50]]></amount><from>USD</from><to>EUR</to></payment>"),
    ("entity", "<payment><amount>12.50</amount><from>USD</from><to>EUR</to><memo>a &amp; b</memo></payment>"),
    ("character reference", "<payment><amount>1&#50;.50</amount><from>USD</from><to>EUR</to></payment>"),
    ("processing instruction", "<?pi x?><payment><amount>1</amount><from>USD</from><to>EUR</to></payment>"),
    ("other child of the root", "<header/><payment><amount>1</amount><from>USD</from><to>EUR</to></payment>"),
    ("prefixed element", "<p:payment xmlns:p=\"urn:p\"><amount>1</amount><from>USD</from><to>EUR</to></p:payment>"),
    ("undeclared prefix", "<payment><p:amount>1</p:amount><from>USD</from><to>EUR</to></payment>"),
    ("text at the root", "oops<payment><amount>1</amount><from>USD</from><to>EUR</to></payment>"),
  ])
  func documentsOutsideTheSubsetTakeTheGeneralPath(name: String, record: String) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var text = "<payments>\n"
    for index in 0..<30 {
      text += index == 17 ? record + "\n" : "<payment><amount>\(index).25</amount><from>USD</from><to>EUR</to></payment>\n"
    }
    let path = try directory.write(text + "</payments>\n", named: "doc.xml")
    #expect(try !Self.takesFastPath(path), "\(name)")
    Self.compare(try Self.run(path, fastPath: true, parts: 2), try Self.run(path, fastPath: false), "\(name)")
  }

  /// Other encodings and a DTD go to the general path; malformed documents give the general path's file error.
  static let declinedDocuments: [(name: String, bytes: [UInt8])] = {
    let record = "<p><amount>1</amount><from>USD</from><to>EUR</to>"
    let utf16: [UInt8] = Array("<ps>\(record)</p><p/></ps>".utf16).reduce(into: [0xFF, 0xFE]) { bytes, unit in
      bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
    let texts: [(String, String)] = [
      ("DTD", "<!DOCTYPE ps [<!ENTITY e \"x\">]><ps>\(record)</p><p/></ps>"),
      ("mismatched tag", "<ps>\(record)</q><p/></ps>"),
      ("unclosed root", "<ps>\(record)</p><p/>"),
      ("content after the root", "<ps>\(record)</p><p/></ps><ps/>"),
      ("duplicate attribute", "<ps><p a=\"1\" a=\"2\"><amount>1</amount><from>USD</from><to>EUR</to></p><p/></ps>"),
      ("already annotated", "<ps>\(record)<fx status=\"ok\"/></p><p/></ps>"),
      ("no amount field", "<ps><p><sum2>1</sum2><from>USD</from><to>EUR</to></p><p/></ps>"),
      ("no records", "<ps>\n</ps>"),
      ("empty", "  \n"),
      ("no repeated element", "<ps><a/><b/></ps>"),
      ("version 1.1", "<?xml version=\"1.1\"?><ps>\(record)</p><p/></ps>"),
    ]
    return texts.map { ($0.0, Array($0.1.utf8)) } + [
      (
        "latin-1",
        Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><ps>\(record)<m>".utf8) + [0xE9] + Array("</m></p><p/></ps>".utf8)
      ),
      ("not UTF-8", Array("<ps>\(record)<m>".utf8) + [0xE9] + Array("</m></p><p/></ps>".utf8)),
      ("UTF-16", utf16),
    ]
  }()

  @Test(arguments: declinedDocuments)
  func declinedAndMalformedDocumentsGiveTheGeneralResult(name: String, bytes: [UInt8]) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(bytes, named: "doc.xml")
    #expect(try !Self.takesFastPath(path), "\(name)")
    Self.compare(try Self.run(path, fastPath: true, parts: 2), try Self.run(path, fastPath: false), "\(name)")
  }

  /// Thirds whose exact total is a whole number of cents: the streamed total cannot settle its rounding, and the
  /// records are read again (through the scanner, by the general rules) to sum them exactly, as the general path
  /// does; under `--rates FILE`.
  @Test func tieInTheStreamedTotalIsSettledExactly() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let rates = try directory.write("date,base,quote,rate\n2024-01-05,EUR,CHF,3\n2024-01-05,EUR,USD,1\n", named: "rates.csv")
    // 0.01 CHF at 1/3 = 0.00333… USD, three times: rounded 0.00 each, exact total 0.01.
    let record = "<p><date>2024-01-05</date><amount>0.01</amount><from>CHF</from><to>USD</to></p>\n"
    let path = try directory.write("<ps>\n" + String(repeating: record, count: 3) + "</ps>\n", named: "thirds.xml")
    let table = try RatesFile.load(path: rates)
    #expect(try Self.takesFastPath(path))
    for rounding in RoundingMode.allCases {
      var runs: [Run] = []
      for fastPath in [true, false] {
        let output = directory.url.appendingPathComponent("out-\(fastPath).xml").path
        var options = BatchOptions(today: try day("2026-11-29"))
        options.inputPaths = [path]
        options.destination = .file(output)
        options.fastPath = fastPath
        options.rounding = rounding
        let report = BatchJob(options: options, rates: table).run()
        var file = try #require(report.files.first)
        file.output = nil
        runs.append(
          Run(
            output: FileManager.default.contents(atPath: output), file: file, totals: report.totals,
            reconciliation: report.reconciliation, withoutDate: report.rates.recordsWithoutDate))
      }
      #expect(runs[0] == runs[1], "\(rounding)")
      #expect(runs[0].reconciliation.first?.exactTotalRounded == "0.01", "\(rounding)")
    }
  }

  /// The `fx` element of the template is the one libxml2's writer makes for the same values.
  @Test func templateMatchesTheElementEncoder() throws {
    let values = ["0.9025270758", "1624.55", "EUR", "2019-12-24", "ecb-embedded EUR/USD=1.108", "fallback", ""]
    var buffer = ByteBuffer(capacity: 256)
    let template = AnnotationTemplate.xmlElement
    for (index, value) in values.enumerated() {
      buffer.append(Array(template.bytes[template.starts[index]..<template.starts[index + 1]]))
      buffer.append(Array(value.utf8))
    }
    buffer.append(Array(template.bytes[template.starts[7]..<template.starts[8]]))
    var encoded: [UInt8] = []
    try XMLElementEncoder(encoding: "UTF-8").writeEmptyElement("fx", attributes: zip(XMLAnnotatingWriter.attributeNames, values))
    {
      encoded.append(contentsOf: $0)
    }
    #expect(Array(buffer.bytes) == encoded)
  }
}
