import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// XML's own inputs: the fast path (``XMLSimpleScanner`` for both passes, ``XMLFastRecordReader`` per record)
/// must give what the general path (libxml2) gives for messy documents in its subset, field paths into nested
/// records and prefixes, mutated documents, and must leave every document outside its subset to the general path.
extension FastGeneralDifferentialTests {
  /// A seeded random number source (a 64-bit LCG), so a failure can be replayed.
  struct XMLRandom {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
  }

  /// Writes an XML document, checks it (``check(_:format:source:_:parts:configure:)``) and returns the general run.
  @discardableResult
  static func checkXML(
    _ bytes: [UInt8], _ comment: String, parts: [Int], fast: Bool? = nil,
    configure: (inout BatchOptions) -> Void = { _ in }
  ) throws -> Run {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(bytes, named: "doc.xml")
    if let fast { #expect(try takesXMLFastPath(path, configure: configure) == fast, "\(comment): fast path taken") }
    return try check(path, format: .xml, comment, parts: parts, configure: configure)
  }

  /// Whether pass 1 takes the XML fast path for a document.
  static func takesXMLFastPath(_ path: String, configure: (inout BatchOptions) -> Void = { _ in }) throws -> Bool {
    var options = BatchOptions(today: TableSourceDifferentialTests.today)
    options.inputPaths = [path]
    configure(&options)
    let job = BatchJob(options: options, rates: EmbeddedECBHistory.table)
    return XMLFormat.scanXMLFileFast(
      displayPath: path, readPath: path, outputPath: "/dev/null", context: job.formatContext) != nil
  }

  // MARK: Messy documents in the subset

  static let xmlCurrencies = ["USD", "JPY", "GBP", "CHF", "EUR", "HRK", "DEM", "usd", " GBP ", "XXX", "", "€", "RMB", "ISK"]
  static let xmlDates = ["2024-01-05", "2024-01-06", "2024-12-25", "1998-12-31", "2030-01-01", "", "2024-02-30", " 2024-03-01 "]
  static let xmlAmounts = [
    "12.50", "7", "-3.25", "0.005", "1,234.50", "12.50-", "abc", "", "100000000000000000000.5", "+4.2", " 9.99", "1.234",
    "0.1234567", "999999999999999999",
  ]

  /// A document in the fast path's subset with messy records: attributes as fields, indentation (LF and CR LF),
  /// empty elements, missing and duplicate fields, an `fx` child, text at the record level, child attributes,
  /// non-ASCII text, comments between records, and values of every kind (errors, unknown currencies, text
  /// amounts the fast path leaves to the general rules).
  static func messyXMLDocument(records: Int, seed: UInt64) -> String {
    var random = XMLRandom(state: seed)
    let (dates, amounts, currencies) = (xmlDates, xmlAmounts, xmlCurrencies)
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

  @Test(arguments: [(1 as UInt64, 1), (2, 1), (3, 2), (4, 3), (5, 7)])
  func xmlMessyDocument(seed: UInt64, parts: Int) throws {
    let general = try Self.checkXML(
      Array(Self.messyXMLDocument(records: 1500, seed: seed).utf8), "messy, seed \(seed)", parts: [parts], fast: true)
    #expect(general.fileError == nil)
    #expect(general.totals.ok > 100 && general.totals.error > 100)  // both kinds of record are in it
  }

  /// A part boundary found inside a comment (which holds `<payment …>` text) is not a record boundary: pass 1
  /// notices the part before it does not end there and reads the document in one part; the output is the same.
  @Test func xmlPartBoundaryInACommentIsNotTaken() throws {
    let record = "<payment><date>2024-01-05</date><amount>12.50</amount><from>USD</from><to>EUR</to></payment>\n"
    let comment = "<!-- " + String(repeating: "<payment id=\"0\"> ", count: 2000) + "-->\n"
    let text =
      "<payments>\n" + String(repeating: record, count: 100) + comment + String(repeating: record, count: 100) + "</payments>\n"
    let general = try Self.checkXML(Array(text.utf8), "comment", parts: [2], fast: true)
    #expect(general.totals.ok == 200)
  }

  /// Options that change what the fields are and how values read: fixed currencies, named fields, a given
  /// decimal mark (`,`: the text amounts read differently), `--output-decimal-separator ,` (no template, every
  /// record through the general rules on the scanner's bytes), a rounding mode, a record element.
  @Test(arguments: 0..<6)
  func xmlOptions(variant: Int) throws {
    try Self.checkXML(
      Array(Self.messyXMLDocument(records: 600, seed: 40 + UInt64(variant)).utf8), "options, variant \(variant)",
      parts: [2]
    ) { options in
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
  }

  // MARK: Documents the fast path declines

  /// A document of 30 plain records whose 18th is `record`, under a root binding the prefixes `p` and `r`.
  static func xmlDocument(with record: String, root: String = "<payments>") -> [UInt8] {
    var text = root + "\n"
    for index in 0..<30 {
      text += index == 17 ? record + "\n" : "<payment><amount>\(index).25</amount><from>USD</from><to>EUR</to></payment>\n"
    }
    return Array((text + "</payments>\n").utf8)
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
  func xmlOutsideTheSubset(name: String, record: String) throws {
    try Self.checkXML(Self.xmlDocument(with: record), name, parts: [2], fast: false)
  }

  /// Other encodings and a DTD go to the general path; malformed documents give the general path's file error.
  static let declinedXMLDocuments: [(name: String, bytes: [UInt8])] = {
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

  @Test(arguments: declinedXMLDocuments)
  func xmlDeclinedAndMalformed(name: String, bytes: [UInt8]) throws {
    try Self.checkXML(bytes, name, parts: [2], fast: false)
  }

  // MARK: Field paths

  static let xmlPathCurrencies = ["USD", "JPY", "GBP", "CHF", "EUR", "usd", " GBP ", "XXX", "", "RMB"]
  static let xmlPathDates = ["2024-01-05", "2024-01-06", "2024-12-25", "1998-12-31", "", "2024-02-30", " 2024-03-01 "]
  static let xmlPathAmounts = ["12.50", "7", "-3.25", "0.005", "1,234.50", "abc", "", "+4.2", " 9.99", "1.234"]

  /// Records shaped like ISO 20022 entries and UBL totals, nested, with a default namespace and the prefixes
  /// `a` and `c` bound to one namespace, `b` to another.
  static func nestedXMLDocument(records: Int, seed: UInt64) -> String {
    var random = XMLRandom(state: seed)
    let (amounts, currencies, dates) = (xmlPathAmounts, xmlPathCurrencies, xmlPathDates)
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    text += "<Stmt xmlns=\"urn:example:statement\" xmlns:a=\"urn:example:totals\" xmlns:b=\"urn:example:other\" "
    text += "xmlns:c=\"urn:example:totals\">\n"
    for index in 0..<records {
      let amount = random.pick(amounts)
      let currency = random.pick(currencies)
      let date = random.pick(dates)
      let target = random.pick(["EUR", "USD", "JPY", "GBP"])
      let newline = random.next(4) == 0 ? "\r\n" : "\n"
      let booking = "<BookgDt>\(newline)    <Dt>\(date)</Dt>\(newline)  </BookgDt>"
      let details = "<Dtls><Amt Ccy=\"EUR\">1.00</Amt><Note>n</Note></Dtls>"
      switch index == 0 ? 99 : random.next(14) {
      case 0: text += "<Ntry><Amt Ccy=\"\(currency)\">\(amount)</Amt>\(booking)<Tgt>\(target)</Tgt></Ntry>\n"
      case 1: text += "<Ntry><Amt Ccy=\"USD\">1</Amt><Amt Ccy=\"USD\">2</Amt>\(booking)<Tgt>EUR</Tgt></Ntry>\n"
      case 2: text += "<Ntry><Amt Ccy=\"\(currency)\">\(amount)</Amt><Tgt>\(target)</Tgt>\(details)</Ntry>\n"
      case 3: text += "<Ntry><Amt>\(amount)</Amt><Ccy>\(currency)</Ccy>\(booking)<Tgt>\(target)</Tgt></Ntry>\n"
      case 4:
        text += "<Ntry><Amt Ccy=\"USD\" currency=\"EUR\">\(amount)</Amt>\(booking)<Tgt>\(target)</Tgt></Ntry>\n"
      case 5: text += "<Ntry><Amt Ccy=\"\(currency)\"><V>\(amount)</V></Amt>\(booking)<Tgt>\(target)</Tgt></Ntry>\n"
      case 6:
        text += "<Ntry><a:Total a:currency=\"\(currency)\">\(amount)</a:Total><BookgDt><Dt>\(date)</Dt><Dt>x</Dt>"
        text += "</BookgDt><Tgt>\(target)</Tgt></Ntry>\n"
      case 7:
        text += "<Ntry><c:Total c:currency=\"\(currency)\" b:code=\"CHF\">\(amount)</c:Total>\(booking)"
        text += "<Tgt>\(target)</Tgt></Ntry>\n"
      case 8: text += "<Ntry><b:Total currencyID=\"\(currency)\">\(amount)</b:Total>\(booking)<Tgt>\(target)</Tgt></Ntry>\n"
      case 9: text += "<Ntry/>\n"
      case 10:
        text += "<Ntry id=\"\(index)\">\(newline)  <Amt Ccy=\"\(currency)\">\(amount)</Amt>\(newline)  \(booking)"
        text += "\(newline)  <Tgt>\(target)</Tgt>\(newline)  \(details)\(newline)</Ntry>\(newline)"
      case 11:
        text += "<Ntry><Dtls><Amt Ccy=\"\(currency)\">\(amount)</Amt></Dtls>\(booking)<Tgt>\(target)</Tgt>"
        text += "<a:Total a:currency=\"GBP\">\(amount)</a:Total></Ntry>\n"
      case 12: text += "<!-- entry \(index) -->\n"
      default:
        text += "<Ntry><Amt Ccy=\"\(currency)\">\(amount)</Amt>\(booking)<Tgt>\(target)</Tgt>"
        text += "<a:Total currency=\"\(currency)\" a:currency=\"\(currency)\">\(amount)</a:Total>\(details)</Ntry>\n"
      }
    }
    return text + "</Stmt>\n"
  }

  /// The field options of each variant: paths, prefixed paths (and a prefix bound to the same namespace as
  /// another), money elements read whole, and flat names beside paths.
  static let xmlPathVariants: [FieldNames] = [
    FieldNames(amount: "Amt", to: "Tgt", date: "BookgDt/Dt"),
    FieldNames(amount: "Amt", from: "Amt/@Ccy", to: "Tgt", date: "BookgDt/Dt"),
    FieldNames(amount: "a:Total", from: "a:Total/@a:currency", to: "Tgt", date: "BookgDt/Dt"),
    FieldNames(amount: "c:Total", to: "Tgt", date: "BookgDt/Dt"),
    FieldNames(amount: "Dtls/Amt", to: "Tgt/", date: "BookgDt/Dt"),
    FieldNames(amount: "Dtls/Amt", to: "Tgt", date: "BookgDt/Dt"),
    FieldNames(amount: "Total", to: "Tgt", date: "BookgDt/Dt"),
    FieldNames(amount: "b:Total", to: "Tgt", date: "BookgDt/Dt"),
    FieldNames(to: "Tgt"),
    FieldNames(amount: "z:Total", to: "Tgt"),
    FieldNames(amount: "Amt", to: "Tgt", date: "ValDt/Dt"),
  ]

  @Test(arguments: 0..<xmlPathVariants.count)
  func xmlPaths(variant: Int) throws {
    let configure: (inout BatchOptions) -> Void = { $0.fieldNames = Self.xmlPathVariants[variant] }
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(Self.nestedXMLDocument(records: 800, seed: 70 + UInt64(variant)), named: "nested.xml")
    let general = try Self.check(path, format: .xml, "paths, variant \(variant)", parts: [3], configure: configure)
    if general.fileError == nil {
      #expect(try Self.takesXMLFastPath(path, configure: configure), "variant \(variant)")
      #expect(general.totals.ok > 10 && general.totals.error > 10, "variant \(variant)")
    }
  }

  /// Byte mutations of a nested document (a byte dropped, doubled or replaced by markup): both paths give the
  /// same output, or the same file error.
  @Test(arguments: 0..<24)
  func xmlMutatedNestedDocument(seed: Int) throws {
    var random = XMLRandom(state: 900 + UInt64(seed))
    var bytes = Array(Self.nestedXMLDocument(records: 40, seed: 500 + UInt64(seed)).utf8)
    for _ in 0..<(1 + random.next(3)) {
      let index = 120 + random.next(bytes.count - 130)
      switch random.next(4) {
      case 0: bytes.remove(at: index)
      case 1: bytes.insert(bytes[index], at: index)
      case 2: bytes[index] = random.pick(Array("<>/:\"= x".utf8))
      default: bytes.insert(contentsOf: Array(random.pick(["<Amt>1</Amt>", "</Dt>", "<a:Dt/>", " Ccy=\"JPY\""]).utf8), at: index)
      }
    }
    try Self.checkXML(bytes, "mutated, seed \(seed)", parts: [2]) {
      $0.fieldNames = Self.xmlPathVariants[seed % 4]
      $0.fixedTo = seed % 2 == 0 ? CurrencyCode("EUR") : nil
      $0.overrideCurrencyFields = true
    }
  }

  /// Records with nested elements stay on the fast path (a flat field holding elements is the record's
  /// `invalid_record` on both paths, as a path's is); a namespace declared below the root or an undeclared
  /// prefix leaves the document to the general path. Either way the output is the general path's.
  @Test(arguments: [
    ("nested element", "<payment><amount><v>1</v></amount><from>USD</from><to>EUR</to></payment>", true),
    ("prefixed child", "<payment><p:amount>1</p:amount><from>USD</from><to>EUR</to></payment>", true),
    ("money element", "<payment><amount currency=\"GBP\">1</amount><to>EUR</to></payment>", true),
    ("money element and field", "<payment><amount currency=\"GBP\">1</amount><from>usd</from><to>EUR</to></payment>", true),
    ("money element and field agree", "<payment><amount Ccy=\"usd\">1</amount><from>USD</from><to>EUR</to></payment>", true),
    ("declaration in a record", "<payment xmlns:q=\"urn:q\"><amount>1</amount><from>USD</from><to>EUR</to></payment>", false),
    ("undeclared prefix", "<payment><q:amount>1</q:amount><from>USD</from><to>EUR</to></payment>", false),
    (
      "prefixed attributes with one local name",
      "<payment><amount p:c=\"1\" r:c=\"2\">1</amount><from>USD</from><to>EUR</to></payment>", false
    ),
  ])
  func xmlNestedAndPrefixedRecords(name: String, record: String, fast: Bool) throws {
    try Self.checkXML(
      Self.xmlDocument(with: record, root: "<payments xmlns:p=\"urn:p\" xmlns:r=\"urn:r\">"), name, parts: [2], fast: fast)
  }

  /// A prefix in a path means the namespace it is bound to where each element is: `p:Amt` finds `<p:Amt>` under
  /// either binding of `p`, `<q:Amt>` and `<Amt xmlns="urn:a">` where `p` is bound to `urn:a`, never an `Amt` in
  /// another namespace or in none. At 2024-03-15, EUR/USD 1.0892: 1 → 1.09, 2 → 2.18, 3 → 3.27, 4 → 4.36.
  @Test func xmlPrefixIsReadByTheBindingWhereTheElementIs() throws {
    let document = """
      <rs xmlns:p="urn:a">
      <r><p:Amt>1</p:Amt><Ccy>EUR</Ccy></r>
      <r xmlns:p="urn:b"><p:Amt>2</p:Amt><Ccy>EUR</Ccy></r>
      <r xmlns:q="urn:a"><q:Amt>3</q:Amt><Ccy>EUR</Ccy></r>
      <r><Amt xmlns="urn:a">4</Amt><Ccy>EUR</Ccy></r>
      <r><Amt xmlns="urn:b">5</Amt><Ccy>EUR</Ccy></r>
      <r><Amt>6</Amt><Ccy>EUR</Ccy></r>
      <r><x xmlns:p="urn:b"><p:Amt>7</p:Amt></x><Ccy>EUR</Ccy></r>
      </rs>
      """
    let general = try Self.checkXML(Array(document.utf8), "bindings", parts: [1]) {
      $0.fieldNames = FieldNames(amount: "p:Amt")
      $0.fixedTo = CurrencyCode("USD")
      $0.defaultDate = try? day("2024-03-15")
    }
    let text = String(decoding: general.output.joined(), as: UTF8.self)
    let converted = text.split(separator: "converted=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
    #expect(converted == ["1.09", "2.18", "3.27", "4.36", "", "", ""])
    #expect(text.components(separatedBy: "missing_field: the record has no &quot;p:Amt&quot;").count == 4)
  }

  /// A money element's currency and a from-currency field found by its name must agree (case aside): 1 GBP with
  /// `<from>usd</from>` is an `invalid_record` error; `Ccy="usd"` with `<from>USD</from>` converts (at
  /// 2024-03-15, 1 USD = 1 / 1.0892 EUR = 0.918… → 0.92).
  @Test func xmlMoneyElementAndAFromFieldMustAgree() throws {
    let document = """
      <ps>
      <p><amount currency="GBP">1</amount><from>usd</from><to>EUR</to></p>
      <p><amount Ccy="usd">1</amount><from>USD</from><to>EUR</to></p>
      </ps>
      """
    let general = try Self.checkXML(Array(document.utf8), "agree", parts: [1]) {
      $0.defaultDate = try? day("2024-03-15")
    }
    let text = String(decoding: general.output.joined(), as: UTF8.self)
    #expect(
      text.contains(
        "invalid_record: the currency attribute of the amount says &quot;GBP&quot; and the record's "
          + "from-currency field &quot;usd&quot;; give --from-field to choose one"), "\(text)")
    #expect(text.contains(#"converted="0.92" currency="EUR""#))
  }
}
