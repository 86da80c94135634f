import FXBatchTestSupport
import Foundation
import Testing

@testable import FXBatch

/// Defects found by trying to break the known XML documents (issue 31) with real-world files.
@Suite("break it: XML known documents")
struct BreakItXMLDocumentTests {
  /// ISO 20022 and UBL amounts are `xsd:decimal`: a decimal point, never a comma or a thousands separator. A
  /// statement in a three-decimal currency (KWD, BHD, OMR) whose amounts all read `1.234` was refused as
  /// "decimal mark undecided"; a known document reads a decimal point unless `--decimal-separator` says otherwise.
  @Test func aKnownDocumentsAmountsHaveADecimalPoint() throws {
    let shape = try #require(
      XMLDocumentShape.recognize(
        qualifiedName: "Document", localName: "Document", namespace: "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"))
    var options = BatchOptions(today: try day("2026-11-29"))
    #expect(try #require(shape.apply(to: options)).options.decimalMark == .point)
    options.decimalMark = .comma
    #expect(try #require(shape.apply(to: options)).options.decimalMark == .comma)
  }

  // 1.234 KWD on 2024-03-14 at EUR/KWD 0.4: 1.234 / 0.4 = 3.085 → 3.09 (half-up); 310.500 KWD on 2024-03-15 at
  // EUR/KWD 0.5 = 621.00.
  @Test func aThreeDecimalStatementConvertsWithoutOptions() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write(
      "rates.csv", "date,base,quote,rate\n2024-03-14,EUR,KWD,0.4\n2024-03-15,EUR,KWD,0.5\n")
    _ = try directory.write(
      "kwd.xml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>
      <Ntry><Amt Ccy="KWD">1.234</Amt><BookgDt><Dt>2024-03-14</Dt></BookgDt></Ntry>
      <Ntry><Amt Ccy="KWD">310.500</Amt><BookgDt><Dt>2024-03-15</Dt></BookgDt></Ntry>
      </Stmt></BkToCstmrStmt></Document>

      """)
    let result = try cli.run(
      ["convert", "--rates", "rates.csv", "--to", "EUR", "-o", "-", "kwd.xml"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains(#"converted="3.09" currency="EUR""#))
    #expect(result.standardOutput.contains(#"converted="621.00" currency="EUR""#))
  }
}

/// A UBL invoice is one record (the root), and each invoice line holds about a dozen elements: an invoice of
/// 1,000 lines was refused ("the record has more than 10000 elements"). And a path step matching many elements
/// under many parents was quadratic (32,000 matches took two minutes).
@Suite("break it: XML records with many elements")
struct BreakItXMLLargeRecordTests {
  static func invoice(lines: Int) throws -> String {
    let source = String(
      decoding: try Fixture.bytes("xml/documents/ubl-invoices", "INV-1001.xml"), as: UTF8.self)
    let end = try #require(source.range(of: "</Invoice>", options: .backwards))
    let line = (0..<lines).map { index in
      "<cac:InvoiceLine><cbc:ID>\(index)</cbc:ID><cbc:InvoicedQuantity unitCode=\"C62\">1</cbc:InvoicedQuantity>"
        + "<cbc:LineExtensionAmount currencyID=\"EUR\">1.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>W</cbc:Name>"
        + "<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT"
        + "</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount "
        + "currencyID=\"EUR\">1.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>\n"
    }.joined()
    return String(source[..<end.lowerBound]) + line + String(source[end.lowerBound...])
  }

  @Test func anInvoiceOfAThousandLinesConverts() throws {
    let cli = try CLIRunner()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    _ = try directory.write("big.xml", try Self.invoice(lines: 1_000))
    let result = try cli.run(["convert", "--to", "USD", "-o", "-", "big.xml"], in: directory.url)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("1 record: 1 ok, 0 fallback, 0 error"))
    // A path through 1,001 parents (the fixture has one line) to 1,001 elements is one invalid_record.
    let lines = try cli.run(
      ["convert", "--to", "USD", "--from-field", "DocumentCurrencyCode", "--amount-field", "InvoiceLine/Price/PriceAmount", "-o", "-", "big.xml"],
      in: directory.url)
    #expect(lines.standardOutput.contains("matches 1001 elements in the record; fxbatch does not pick one"))
  }
}
