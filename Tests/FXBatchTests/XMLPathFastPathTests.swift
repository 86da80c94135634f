import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Field paths (``XMLFieldPath``) and money elements read the same fields on the XML fast path (the byte scanner)
/// as on the general path (libxml2): nested records, a default namespace and prefixes (two bound to one
/// namespace), paths that match nothing, twice or an element holding elements, and mutated documents.
@Suite("XML paths: fast path = general path")
struct XMLPathFastPathTests {
  typealias Random = XMLFastPathTests.Random

  static let currencies = ["USD", "JPY", "GBP", "CHF", "EUR", "usd", " GBP ", "XXX", "", "RMB"]
  static let dates = ["2024-01-05", "2024-01-06", "2024-12-25", "1998-12-31", "", "2024-02-30", " 2024-03-01 "]
  static let amounts = ["12.50", "7", "-3.25", "0.005", "1,234.50", "abc", "", "+4.2", " 9.99", "1.234"]

  /// Records shaped like ISO 20022 entries and UBL totals, nested, with a default namespace and the prefixes
  /// `a` and `c` bound to one namespace, `b` to another.
  static func nestedDocument(records: Int, seed: UInt64) -> String {
    var random = Random(state: seed)
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
  static let variants: [FieldNames] = [
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

  @Test(arguments: 0..<variants.count)
  func pathsGiveTheSameOutput(variant: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(
      Self.nestedDocument(records: 800, seed: 70 + UInt64(variant)), named: "nested.xml")
    let configure: (inout BatchOptions) -> Void = { $0.fieldNames = Self.variants[variant] }
    let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 3, configure: configure)
    let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
    XMLFastPathTests.compare(fast, general, "variant \(variant)")
    if general.file.fileError == nil {
      #expect(try XMLFastPathTests.takesFastPath(path, configure: configure), "variant \(variant)")
      #expect(general.totals.ok > 10 && general.totals.error > 10, "variant \(variant)")
    }
  }

  /// Byte mutations of a nested document (a byte dropped, doubled or replaced by markup): both paths give the
  /// same output, or the same file error.
  @Test(arguments: 0..<24)
  func mutatedDocumentsGiveTheSameResult(seed: Int) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var random = Random(state: 900 + UInt64(seed))
    var bytes = Array(Self.nestedDocument(records: 40, seed: 500 + UInt64(seed)).utf8)
    for _ in 0..<(1 + random.next(3)) {
      let index = 120 + random.next(bytes.count - 130)
      switch random.next(4) {
      case 0: bytes.remove(at: index)
      case 1: bytes.insert(bytes[index], at: index)
      case 2: bytes[index] = random.pick(Array("<>/:\"= x".utf8))
      default: bytes.insert(contentsOf: Array(random.pick(["<Amt>1</Amt>", "</Dt>", "<a:Dt/>", " Ccy=\"JPY\""]).utf8), at: index)
      }
    }
    let path = try directory.write(bytes, named: "mutated.xml")
    let configure: (inout BatchOptions) -> Void = {
      $0.fieldNames = Self.variants[seed % 4]
      $0.fixedTo = seed % 2 == 0 ? CurrencyCode("EUR") : nil
      $0.overrideCurrencyFields = true
    }
    let fast = try XMLFastPathTests.run(path, fastPath: true, parts: 2, configure: configure)
    let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
    XMLFastPathTests.compare(fast, general, "seed \(seed)")
  }

  /// Records with nested elements stay on the fast path (a flat field holding elements is the record's
  /// `invalid_record` on both paths, as a path's is); a namespace declared below the root or an undeclared prefix leaves the document to the
  /// general path. Either way the output is the general path's.
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
  func nestedAndPrefixedRecords(name: String, record: String, fast: Bool) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var text = "<payments xmlns:p=\"urn:p\" xmlns:r=\"urn:r\">\n"
    for index in 0..<30 {
      text += index == 17 ? record + "\n" : "<payment><amount>\(index).25</amount><from>USD</from><to>EUR</to></payment>\n"
    }
    let path = try directory.write(text + "</payments>\n", named: "doc.xml")
    #expect(try XMLFastPathTests.takesFastPath(path) == fast, "\(name)")
    XMLFastPathTests.compare(
      try XMLFastPathTests.run(path, fastPath: true, parts: 2), try XMLFastPathTests.run(path, fastPath: false),
      "\(name)")
  }

  /// A prefix in a path means the namespace it is bound to where each element is: `p:Amt` finds `<p:Amt>` under
  /// either binding of `p`, `<q:Amt>` and `<Amt xmlns="urn:a">` where `p` is bound to `urn:a`, never an `Amt` in
  /// another namespace or in none. At 2024-03-15, EUR/USD 1.0892: 1 → 1.09, 2 → 2.18, 3 → 3.27, 4 → 4.36.
  @Test func aPrefixIsReadByTheBindingWhereTheElementIs() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(
      """
      <rs xmlns:p="urn:a">
      <r><p:Amt>1</p:Amt><Ccy>EUR</Ccy></r>
      <r xmlns:p="urn:b"><p:Amt>2</p:Amt><Ccy>EUR</Ccy></r>
      <r xmlns:q="urn:a"><q:Amt>3</q:Amt><Ccy>EUR</Ccy></r>
      <r><Amt xmlns="urn:a">4</Amt><Ccy>EUR</Ccy></r>
      <r><Amt xmlns="urn:b">5</Amt><Ccy>EUR</Ccy></r>
      <r><Amt>6</Amt><Ccy>EUR</Ccy></r>
      <r><x xmlns:p="urn:b"><p:Amt>7</p:Amt></x><Ccy>EUR</Ccy></r>
      </rs>
      """, named: "bindings.xml")
    let configure: (inout BatchOptions) -> Void = {
      $0.fieldNames = FieldNames(amount: "p:Amt")
      $0.fixedTo = CurrencyCode("USD")
      $0.defaultDate = try? day("2024-03-15")
    }
    let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
    let text = String(decoding: try #require(general.output), as: UTF8.self)
    let converted = text.split(separator: "converted=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
    #expect(converted == ["1.09", "2.18", "3.27", "4.36", "", "", ""])
    #expect(text.components(separatedBy: "missing_field: the record has no &quot;p:Amt&quot;").count == 4)
    XMLFastPathTests.compare(
      try XMLFastPathTests.run(path, fastPath: true, configure: configure), general, "bindings")
  }

  /// A money element's currency and a from-currency field found by its name must agree (case aside): 1 GBP with
  /// `<from>usd</from>` is an `invalid_record` error; `Ccy="usd"` with `<from>USD</from>` converts (at
  /// 2024-03-15, 1 USD = 1 / 1.0892 EUR = 0.918… → 0.92).
  @Test func aMoneyElementAndAFromFieldMustAgree() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = try directory.write(
      """
      <ps>
      <p><amount currency="GBP">1</amount><from>usd</from><to>EUR</to></p>
      <p><amount Ccy="usd">1</amount><from>USD</from><to>EUR</to></p>
      </ps>
      """, named: "agree.xml")
    let configure: (inout BatchOptions) -> Void = { $0.defaultDate = try? day("2024-03-15") }
    let general = try XMLFastPathTests.run(path, fastPath: false, configure: configure)
    let text = String(decoding: try #require(general.output), as: UTF8.self)
    #expect(
      text.contains(
        "invalid_record: the currency attribute of the amount says &quot;GBP&quot; and the record's "
          + "from-currency field &quot;usd&quot;; give --from-field to choose one"), "\(text)")
    #expect(text.contains(#"converted="0.92" currency="EUR""#))
    XMLFastPathTests.compare(try XMLFastPathTests.run(path, fastPath: true, configure: configure), general, "agree")
  }
}
